"""Load the recorded foreign streams under ``tests/fixtures/adapters`` for replay."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from chunkscope.chunks.models import InvalidChunk, parse_chunk

FIXTURES = Path(__file__).parent.parent / "fixtures" / "adapters"


class RecordedFailure(Exception):
    """Stands for the exception a recorded stream raised (same name and message)."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


def load(folder: str, name: str) -> tuple[list[Any], RecordedFailure | None]:
    """The events of ``<folder>/<name>.jsonl`` and the failure it ended with, if any."""
    events: list[Any] = []
    raised = None
    for line in (FIXTURES / folder / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
        value = json.loads(line)
        if isinstance(value, dict) and "__raised__" in value:
            raised = RecordedFailure(value["__raised__"]["name"], value["__raised__"]["message"])
        else:
            events.append(value)
    return events, raised


def replay(folder: str, name: str) -> Iterator[Any]:
    """Yield the recorded events, then raise what the recorded stream raised."""
    events, raised = load(folder, name)
    yield from events
    if raised is not None:
        raise raised


async def areplay(folder: str, name: str) -> AsyncIterator[Any]:
    """Async twin of :func:`replay`."""
    for event in replay_list(folder, name):
        yield event
    _, raised = load(folder, name)
    if raised is not None:
        raise raised


def replay_list(folder: str, name: str) -> list[Any]:
    """Only the events (no failure)."""
    return load(folder, name)[0]


def sse_bytes(folder: str, name: str) -> bytes:
    """The recorded wire bytes of ``<folder>/<name>.sse``."""
    return (FIXTURES / folder / f"{name}.sse").read_bytes()


def types(chunks: list[dict[str, Any]]) -> list[str]:
    """The chunk types, in order."""
    return [c["type"] for c in chunks]


def without(chunks: list[dict[str, Any]], *kinds: str) -> list[str]:
    """The chunk types, leaving out some (``raw`` noise, deltas)."""
    return [c["type"] for c in chunks if c["type"] not in kinds]


def of_type(chunks: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The chunks of one type."""
    return [c for c in chunks if c["type"] == kind]


def assert_coherent(chunks: list[dict[str, Any]]) -> None:
    """What every adapter promises: JSON-serializable, Mastra-shaped, parts balanced."""
    json.dumps(chunks)
    for chunk in chunks:
        parsed = parse_chunk(chunk)
        assert not isinstance(parsed, InvalidChunk), f"the chunk model rejects {chunk}: {parsed}"
    open_parts: dict[str, set[str]] = {"text": set(), "reasoning": set(), "tool": set()}
    for chunk in chunks:
        kind = chunk["type"]
        if kind.startswith("data-"):
            assert "data" in chunk and "payload" not in chunk, chunk
            continue
        assert isinstance(chunk.get("runId"), str) and chunk.get("from"), chunk
        assert "payload" in chunk or "object" in chunk, chunk
        payload = chunk.get("payload", {})
        for part in ("text", "reasoning"):
            if kind == f"{part}-start":
                open_parts[part].add(payload["id"])
            elif kind == f"{part}-delta":
                assert payload["id"] in open_parts[part], f"{kind} outside its part: {chunk}"
                assert isinstance(payload["text"], str)
            elif kind == f"{part}-end":
                open_parts[part].discard(payload["id"])
        if kind == "tool-call-input-streaming-start":
            open_parts["tool"].add(payload["toolCallId"])
        elif kind == "tool-call-delta":
            assert payload["toolCallId"] in open_parts["tool"]
            assert isinstance(payload["argsTextDelta"], str)
        elif kind == "tool-call-input-streaming-end":
            open_parts["tool"].discard(payload["toolCallId"])
        if kind in ("finish", "error", "abort", "step-finish"):
            assert not any(open_parts.values()), f"parts left open at {kind}: {open_parts}"
    assert not any(open_parts.values()), f"parts left open at the end: {open_parts}"
