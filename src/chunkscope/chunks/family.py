"""Classification of chunk types: their family, and whether a chunk is transient."""

from __future__ import annotations

from .base import _DATA_PREFIX, ChunkFamily, DataChunk
from .parse import Chunk

__all__ = [
    "chunk_family",
    "is_transient",
]


_ERROR_TYPES = frozenset({"error", "tool-error", "tripwire", "abort"})


_DATA_TYPES = frozenset({"source", "file", "custom", "object", "object-result"})


_CONTROL_TYPES = frozenset(
    {
        "start",
        "step-start",
        "step-finish",
        "step-output",
        "finish",
        "raw",
        "response-metadata",
        "watch",
        "goal",
        "is-task-complete",
    }
)


_NETWORK_PREFIXES = (
    "routing-agent-",
    "agent-execution-",
    "workflow-execution-",
    "tool-execution-",
    "network-",
)


_FAMILY_PREFIXES: tuple[tuple[str, ChunkFamily], ...] = (
    ("text-", "text"),
    ("reasoning-", "reasoning"),
    ("redacted-reasoning", "reasoning"),
    ("tool-", "tools"),
    ("workflow-", "workflow"),
    ("background-task-", "background"),
    (_DATA_PREFIX, "data"),
)


def chunk_family(type: str) -> ChunkFamily:
    """The coarse group of a chunk type, for colouring and filtering.

    - errors: `error`, `tool-error`, `tripwire`, `abort`
    - network: `routing-agent-*`, `agent-execution-*`, `workflow-execution-*`,
      `tool-execution-*`, `network-*` (including the relayed-event wrappers)
    - control: `start`, `step-start`, `step-finish`, `step-output`, `finish`, `raw`,
      `response-metadata`, `watch`, `goal`, `is-task-complete`
    - data: `data-*`, `source`, `file`, `custom`, `object`, `object-result`
    - text: `text-*`; reasoning: `reasoning-*`, `redacted-reasoning`;
      tools: other `tool-*`; workflow: `workflow-*`; background: `background-task-*`
    - other: anything else (unknown types)
    """
    if type in _ERROR_TYPES:
        return "errors"
    if type.startswith(_NETWORK_PREFIXES):
        return "network"
    if type in _CONTROL_TYPES:
        return "control"
    if type in _DATA_TYPES:
        return "data"
    for prefix, family in _FAMILY_PREFIXES:
        if type.startswith(prefix):
            return family
    return "other"


def is_transient(chunk: Chunk) -> bool:
    """Whether a chunk is shown live but never persisted (`data-*` with `transient: true`)."""
    return isinstance(chunk, DataChunk) and chunk.transient is True
