"""The wire between the kernel and the front end, as types; see ``docs/wire.md``.

TypeScript mirror: ``js/src/wire.ts``. Keep the two equal. Parts are built by
``chunkscope.fold.parts`` (``Part.to_wire``) and ops by ``chunkscope.fold.state``; these types
name the shapes both sides agree on.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class Usage(TypedDict, total=False):
    """Token usage in Mastra's shape."""

    inputTokens: int
    outputTokens: int
    totalTokens: int
    reasoningTokens: int
    cachedInputTokens: int


class RunInfo(TypedDict):
    """The run-level record."""

    title: str
    status: str
    runId: str | None
    finishReason: str | None
    usage: Usage | None
    ttftMs: float | None
    elapsedMs: float
    chunkCount: int
    outputTokens: int | None
    error: str | None
    ended: bool


class HeldEntry(TypedDict):
    """One field of a part held back by the kernel: the wire carries a preview of it."""

    token: int
    """Names this cut of the field; a later cut of the same field gets a new one."""
    size: int
    """Bytes of the whole field's JSON (UTF-8)."""
    lengths: dict[str, int]
    """JSON-tree path (``$``, ``$/rows``, ``$/a~1b``) → full length of each string, array or
    object the preview shortened."""


class _PartRequired(TypedDict):
    id: str
    kind: str
    parent: str | None
    step: str | None
    t0: float
    t1: float | None
    chunk: int


class PartBase(_PartRequired, total=False):
    """What every part has; each kind adds its own fields (``docs/wire.md``)."""

    held: dict[str, HeldEntry] | None
    """Field name → its entry, for the fields that carry a preview; absent or null: none."""


_ChunkRowRequired = TypedDict(
    "_ChunkRowRequired",
    {
        "i": int,
        "n": int,
        "t": float,
        "type": str,
        "from": "str | None",
        "family": str,
        "part": "str | None",
        "json": Any,
    },
)


class ChunkRow(_ChunkRowRequired, total=False):
    """One row of the chunk inspector."""

    truncated: bool


class _SnapshotRequired(TypedDict):
    v: Literal[1]
    seq: int
    run: RunInfo
    parts: list[dict[str, Any]]


class Snapshot(_SnapshotRequired, total=False):
    """The persisted run (synced trait ``snapshot`` and the ``snapshot`` message)."""

    rows: list[dict[str, Any]]
    """Always saved; in a live message only once a page asked for rows (``RowsRequest``)."""


class PackedSnapshot(TypedDict):
    """A large Snapshot as the synced trait holds it (``chunkscope.wire.persisted``): its JSON,
    deflated, in one binary buffer."""

    v: int
    seq: int
    encoding: Literal["deflate-json"]
    data: bytes


class TransientItem(TypedDict):
    """A live-only ``data-*`` chunk."""

    t: float
    i: int
    type: str
    id: str | None
    data: Any


class BatchMessage(TypedDict):
    """Kernel → front end: ops folded since the last batch."""

    kind: Literal["batch"]
    seq: int
    ops: list[dict[str, Any]]


class SnapshotMessage(TypedDict):
    """Kernel → front end: everything so far (answer to ``ready`` and ``resync``)."""

    kind: Literal["snapshot"]
    snapshot: dict[str, Any]
    transient: list[dict[str, Any]]


class RowsMessage(TypedDict):
    """Kernel → front end: rows ``[offset, offset + len(rows))`` of the ``total`` inspector
    rows so far, as of batch ``seq`` (answer to ``RowsRequest``, in pieces)."""

    kind: Literal["rows"]
    seq: int
    offset: int
    total: int
    rows: list[dict[str, Any]]


class RowsRequest(TypedDict):
    """Front end → kernel: send the inspector rows, now and in every batch from now on."""

    kind: Literal["rows"]


class _HeldAnswerRequired(TypedDict):
    kind: Literal["held"]
    part: str
    field: str
    token: int


class HeldAnswer(_HeldAnswerRequired, total=False):
    """Kernel → front end: one piece of a held field's JSON text, or why there is none."""

    index: int
    """Position of this piece, from 0."""
    count: int
    """How many pieces make the whole text."""
    text: str
    """This piece of the JSON text; the pieces in order, joined, parse to the whole value."""
    error: str
    """Set instead of the three above when the field cannot be served."""


class FetchRequest(TypedDict):
    """Front end → kernel: send the whole value of a held field."""

    kind: Literal["fetch"]
    part: str
    field: str
    token: int
