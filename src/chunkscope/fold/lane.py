"""The fast lane: a text or reasoning delta for the block already open in the current step.

Most chunks of any stream are these deltas, one per token. When one arrives as a plain dict
of the usual shape (what ``chunks.fast`` accepts) and the run is in the ordinary middle of a
block (running, not in a continuation turn, not finished, the block open in the current
step, no live inspector rows wanted), folding it is three things: add the text to its part,
say so in one ``append`` op, and count it into the open inspector row. This module does just
that, without building a chunk model; anything else returns ``None`` and takes the full fold,
which gives the same state, ops and rows (a test folds every recording both ways).

The block a delta took the lane into is remembered (``Lane``) until a chunk takes the full
fold or the run ends. ``Lane.take`` folds a delta that continues it in one call, with no
lookup: the live channel calls it for every delta of a run of them, so what it does is what a
token costs the kernel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..chunks.models import parse_chunk
from ..wire.safejson import safe_text
from .context import Op
from .rows import MERGED_ROW_TEXT, ROW_MERGE_MS

if TYPE_CHECKING:
    from .part_base import _Growing as Growing
    from .state import RunState

_TOP_KEYS = frozenset({"type", "runId", "from", "payload"})

LANE_TYPES = frozenset({"text-delta", "reasoning-delta"})
"""The chunk types the fast lane may fold."""


class Lane:
    """The block the last delta took the lane into. Any chunk that takes the full fold, and
    the end of the run, end it (the state forgets it): only the full fold changes what
    ``_open_lane`` checks, so a delta of the same block needs no check of the run."""

    __slots__ = ("anonymous", "block", "kind", "part", "state")

    def __init__(self, state: RunState, kind: str, block: str, part: Growing) -> None:
        self.state = state
        self.kind = kind
        self.block = block
        self.part = part
        self.anonymous = state.run_id is None
        """The run had no id when the lane opened: a delta that names one takes the full
        fold, which gives the run its id."""

    def take(self, chunk: Any, t: float) -> str | None:
        """Fold ``chunk`` when it is a delta of the usual shape that continues this lane's
        block while the state still holds the lane, and return its text as an ``append`` op
        carries it; ``None``, with nothing changed, for anything else."""
        # Written for the interpreter: every line here runs once per token of every stream.
        if chunk.__class__ is not dict:
            return None
        try:
            payload = chunk["payload"]
            if chunk["type"] != self.kind or payload.__class__ is not dict or len(payload) != 2:
                return None
            block = payload["id"]
            text = payload["text"]
        except KeyError:
            return None
        if (
            block.__class__ is not str
            or block != self.block
            or text.__class__ is not str
            or not text
        ):
            return None
        if len(chunk) == 4:  # type and payload, so runId and from are the other two
            if (
                self.anonymous
                or chunk.get("runId").__class__ is not str
                or chunk.get("from").__class__ is not str
            ):
                return None
        elif not _usual_top(chunk) or (self.anonymous and "runId" in chunk):
            return None
        state = self.state
        if state._lane is not self:
            return None
        index = state.chunk_count
        state.chunk_count = index + 1
        if t > state.elapsed_ms:  # noqa: PLR1730 (max() is a call per delta)
            state.elapsed_ms = t
        part = self.part
        part.append(text, t)
        rows = state._rows
        record = rows._open
        if (
            record is not None
            and record.lane is self
            and record.row is None
            and t - record.t < ROW_MERGE_MS
        ):
            # The open row is this lane's and no row was made of it: count the delta in as
            # ``Rows.merge`` would, without its checks.
            record.n += 1
            if rows._chars < MERGED_ROW_TEXT:
                record.pieces.append(text)  # type: ignore[union-attr]
                rows._chars += len(text)
            else:
                record.truncated = True
        elif not rows.merge(self.kind, part.id, t, text):
            ops = state._fold.ops
            rows.add(parse_chunk(chunk), t, index, part.id, ops, state._cut, lane=self)
        return text if text.isascii() else safe_text(text)


def _usual_top(chunk: dict[Any, Any]) -> bool:
    """Whether a delta's top level other than four keys is the usual one: ``type`` and
    ``payload``, and ``runId`` and ``from`` as strings when present."""
    return (
        chunk.keys() <= _TOP_KEYS
        and chunk.get("runId", "").__class__ is str
        and chunk.get("from", "").__class__ is str
    )


def fold_delta(state: RunState, chunk: dict[Any, Any], kind: str, t: float) -> list[Op] | None:
    """Fold a ``text-delta`` / ``reasoning-delta`` dict on the fast lane and return its ops,
    or ``None`` (nothing changed) when it needs the full fold."""
    lane = state._lane
    text = None if lane is None else lane.take(chunk, t)
    if text is None:
        lane = _open_lane(state, chunk, kind)
        text = None if lane is None else lane.take(chunk, t)
        if text is None:
            return None
    assert lane is not None
    cx = state._fold
    ops: list[Op] = cx.ops
    part = lane.part
    if cx.wire:
        # ``append_op``'s dict, written out: this runs for every delta ``handle`` folds.
        ops.append({"op": "append", "id": part.id, "field": "text", "text": text, "t": t})
    if state.ttft_ms is None and part.parent is None:
        state.ttft_ms = t
        cx.run_op(ttftMs=t)
    cx.ops = []
    return ops


def _open_lane(state: RunState, chunk: dict[Any, Any], kind: str) -> Lane | None:
    """The lane for the block a delta names when the run is in the ordinary middle of it
    (remembered as the state's lane), else None."""
    payload = chunk.get("payload")
    block = payload.get("id") if payload.__class__ is dict else None
    if block.__class__ is not str:
        return None
    cx = state._fold
    root = cx.root
    if (
        state.status != "running"
        or cx.turn is not None
        or root.finished
        or (state.run_id is None and "runId" in chunk)
        or state._rows.emit
    ):
        return None
    part = (root.texts if kind == "text-delta" else root.reasonings).get(block)
    step = root.step
    if part is None or step is None or part.step != step.id:
        return None
    lane = state._lane = Lane(state, kind, block, part)
    return lane
