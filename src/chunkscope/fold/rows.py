"""The inspector's rows (``docs/wire.md`` ChunkRow), made only when something asks for them.

While folding, a row costs a small record: the chunk's index, time, type, ``from``, family,
the part it touched and the chunk itself (a parsed model, which the fold never changes).
Consecutive deltas of one part within ``ROW_MERGE_MS`` share one record. The chunk's JSON is
dumped, clipped to ``ROW_JSON_LIMIT`` and merged with the deltas' text only when the rows are
requested, or at once while ``emit`` is on (a page shows the inspector live).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from ..chunks.models import (
    PLAIN_DEPTH,
    BaseChunk,
    Chunk,
    InvalidChunk,
    ReasoningDeltaChunk,
    TextDeltaChunk,
    ToolCallDeltaChunk,
    chunk_family,
)
from ..wire.safejson import clip_for_wire
from .context import Op, TooDeep, dump

ROW_MERGE_MS = 33.0
"""Consecutive deltas of one part within this window share one inspector row."""

ROW_JSON_LIMIT = 64 * 1024
"""Inspector rows keep at most about this many characters of a chunk's JSON."""

MERGED_ROW_TEXT = 2000
"""A row that stands for many deltas keeps this much of their text; the part has all of it,
so the saved notebook holds the text once, not twice."""

DELTA_TYPES = frozenset({"text-delta", "reasoning-delta", "tool-call-delta"})

_SAFE_DEPTH = PLAIN_DEPTH
"""Values nested no deeper than this always dump; a deeper chunk is dumped while folding, to
report at once that its row had to be cut."""

_LEAVES = frozenset({str, int, float, bool, type(None)})


def delta_text(chunk: Chunk) -> str:
    """The text a delta chunk adds (its arguments' text, for a tool-call delta)."""
    if isinstance(chunk, ToolCallDeltaChunk):
        return chunk.payload.args_text_delta
    if isinstance(chunk, (TextDeltaChunk, ReasoningDeltaChunk)):
        return chunk.payload.text
    return ""


def dumps_unsafely(chunk: BaseChunk) -> bool:
    """Whether dumping the chunk may fail: values nested deeper than pydantic dumps, or leaves
    that are not JSON. Cheap: chunks are walked only as deep as ``_SAFE_DEPTH``."""
    stack: list[tuple[Any, int]] = [(chunk, 0)]
    while stack:
        value, depth = stack.pop()
        if depth >= _SAFE_DEPTH:
            return True
        if isinstance(value, BaseModel):
            children: Any = value.__dict__.values()
            extras = value.__pydantic_extra__
            if extras:
                stack.append((extras, depth + 1))
        elif isinstance(value, dict):
            children = value.values()
        elif isinstance(value, (list, tuple)):
            children = value
        else:
            return True
        stack.extend((child, depth + 1) for child in children if type(child) not in _LEAVES)
    return False


def limit_json(value: Any) -> tuple[Any, bool]:
    """Keep an inspector row near ROW_JSON_LIMIT: strings and lists are clipped first; a row
    still too large (many large values) keeps a shorter clip, then only a text preview."""
    clipped = clip_for_wire(value, max_string=ROW_JSON_LIMIT // 4, max_items=200)
    if clipped is value:
        return value, False
    size = len(json.dumps(clipped, ensure_ascii=False))
    if size <= ROW_JSON_LIMIT:
        return clipped, True
    clipped = clip_for_wire(value, max_string=256, max_items=20)
    text = json.dumps(clipped, ensure_ascii=False)
    if len(text) <= ROW_JSON_LIMIT:
        return clipped, True
    return {"preview": text[:ROW_JSON_LIMIT] + "…"}, True


class _Record:
    """One inspector row before (and after) its JSON is made."""

    __slots__ = (
        "chunk",
        "closed",
        "i",
        "json",
        "lane",
        "n",
        "part",
        "pieces",
        "row",
        "t",
        "truncated",
    )

    def __init__(
        self, chunk: Chunk, i: int, t: float, part: str | None, json: Any, lane: object
    ) -> None:
        self.chunk: Chunk | None = chunk
        self.i = i
        self.t = t
        self.part = part
        self.json = json
        """The chunk's JSON when it was made while folding (a cut one), else None."""
        self.n = 1
        self.truncated = False
        self.pieces: list[str] | None = None
        self.closed = False
        self.row: dict[str, Any] | None = None
        self.lane = lane
        """The fast lane that opened this row of deltas (it counts its next deltas in itself,
        while no row was made), else None."""


class Rows:
    """Every persisted chunk's inspector row, in order, made lazily."""

    def __init__(self) -> None:
        self.emit = False
        """While on, each row is made as its chunk is folded and sent as a ``rows`` op."""
        self._records: list[_Record] = []
        self._open: _Record | None = None
        self._chars = 0

    def __len__(self) -> int:
        return len(self._records)

    def add(
        self,
        chunk: Chunk,
        t: float,
        index: int,
        part: str | None,
        ops: list[Op],
        on_cut: Callable[[Chunk, float, int], object],
        *,
        plain: bool = False,
        lane: object = None,
    ) -> None:
        """Record the row of a folded chunk, merging runs of deltas of one part. ``on_cut``
        runs when the chunk nests too deeply for its row to show it whole; ``plain`` says the
        chunk was read from plain, shallow JSON (its parse checked), so it needs no check;
        ``lane`` is the fast lane that folded it, kept on the row it opens."""
        mergeable = chunk.type in DELTA_TYPES and not isinstance(chunk, InvalidChunk)
        if mergeable and self.merge(chunk.type, part, t, delta_text(chunk)):
            return
        self.close(ops)
        json: Any = None
        if not plain and not isinstance(chunk, InvalidChunk) and dumps_unsafely(chunk):
            json = dump(chunk)
            if isinstance(json, TooDeep):
                json = dict(json)
                on_cut(chunk, t, index)
        record = _Record(chunk, index, t, part, json, lane)
        self._records.append(record)
        if mergeable:
            piece = delta_text(chunk)
            record.pieces = [piece]
            self._chars = len(piece)
            self._open = record
        else:
            record.closed = True
        if self.emit:
            ops.append({"op": "rows", "rows": [self._make(record)]})

    def merge(self, kind: str | None, part: str | None, t: float, piece: str) -> bool:
        """Count a delta into the open row when it continues it (same type and part, within
        ROW_MERGE_MS); False when it must start a row of its own."""
        record = self._open
        if (
            record is None
            or record.part != part
            or record.chunk is None
            or record.chunk.type != kind
            or t - record.t >= ROW_MERGE_MS
        ):
            return False
        record.n += 1
        if self._chars < MERGED_ROW_TEXT:
            assert record.pieces is not None
            record.pieces.append(piece)
            self._chars += len(piece)
        else:
            record.truncated = True
        if record.row is not None:
            record.row["n"] = record.n
            if record.truncated:
                record.row["truncated"] = True
        return True

    def close(self, ops: list[Op]) -> None:
        """Close the open run of deltas: the next delta starts a row of its own."""
        record = self._open
        if record is None:
            return
        self._open = None
        record.closed = True
        if record.row is not None and record.n > 1:
            self._merge(record, record.row)
        if self.emit and record.n > 1:
            row = record.row if record.row is not None else self._make(record)
            ops.append({"op": "rows", "rows": [row]})

    def all(self) -> list[dict[str, Any]]:
        """Every row so far, the open one included (as it stands)."""
        return [
            record.row if record.row is not None else self._make(record) for record in self._records
        ]

    # ------------------------------------------------------------- making rows

    def _make(self, record: _Record) -> dict[str, Any]:
        chunk = record.chunk
        assert chunk is not None
        type_ = chunk.type
        if isinstance(chunk, InvalidChunk):
            raw: Any = {"error": chunk.error, "raw": chunk.raw}
        elif record.json is not None:
            raw = record.json
        else:
            raw = dump(chunk)
            if isinstance(raw, TooDeep):
                raw = dict(raw)
        value, truncated = limit_json(raw)
        row: dict[str, Any] = {
            "i": record.i,
            "n": record.n,
            "t": record.t,
            "type": type_ if isinstance(type_, str) else "invalid",
            "from": getattr(chunk, "from_", None),
            "family": chunk_family(type_) if isinstance(type_, str) else "errors",
            "part": record.part,
            "json": value,
        }
        if record.truncated or truncated:
            row["truncated"] = True
        record.row = row
        if record.closed and record.n > 1:
            self._merge(record, row)
        if record.closed:
            record.chunk = None
            record.pieces = None
            record.json = None
        return row

    @staticmethod
    def _merge(record: _Record, row: dict[str, Any]) -> None:
        """Write the merged delta text into the row."""
        text = "".join(record.pieces or ())
        record.pieces = None
        if len(text) > MERGED_ROW_TEXT:
            text = text[:MERGED_ROW_TEXT]
            row["truncated"] = True
        payload = dict(row["json"].get("payload") or {})
        payload["argsTextDelta" if row["type"] == "tool-call-delta" else "text"] = text
        value, truncated = limit_json({**row["json"], "payload": payload})
        row["json"] = value
        if truncated:
            row["truncated"] = True
