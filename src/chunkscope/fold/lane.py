"""The fast lane: a text or reasoning delta for the block already open in the current step.

Most chunks of any stream are these deltas, one per token. When one arrives as a plain dict
of the usual shape (what ``chunks.fast`` accepts) and the run is in the ordinary middle of a
block (running, not in a continuation turn, not finished, the block open in the current
step, no live inspector rows wanted), folding it is three things: add the text to its part,
say so in one ``append`` op, and count it into the open inspector row. This module does just
that, without building a chunk model; anything else returns ``None`` and takes the full fold,
which gives the same state, ops and rows (a test folds every recording both ways).

The block a delta took the lane into is remembered (``Lane``) until a chunk takes the full
fold or the run ends, so the deltas after it skip finding their part and checking the run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..chunks.models import parse_chunk
from ..wire.safejson import safe_text
from .context import Op

if TYPE_CHECKING:
    from .part_base import _Growing as Growing
    from .state import RunState

_TOP_KEYS = frozenset({"type", "runId", "from", "payload"})

LANE_TYPES = frozenset({"text-delta", "reasoning-delta"})
"""The chunk types the fast lane may fold."""


def fold_delta(state: RunState, chunk: dict[Any, Any], kind: str, t: float) -> list[Op] | None:
    """Fold a ``text-delta`` / ``reasoning-delta`` dict on the fast lane and return its ops,
    or ``None`` (nothing changed) when it needs the full fold."""
    cx = state._fold
    ops: list[Op] = cx.ops
    part = fold_on_lane(state, chunk, kind, t, ops)
    if part is None:
        return None
    if cx.wire:
        # ``append_op``'s dict, written out: this runs for every delta ``handle`` folds.
        text = wire_text(chunk["payload"]["text"])
        ops.append({"op": "append", "id": part.id, "field": "text", "text": text, "t": t})
    if state.ttft_ms is None and part.parent is None:
        state.ttft_ms = t
        cx.run_op(ttftMs=t)
    cx.ops = []
    return ops


def wire_text(text: str) -> str:
    """A delta's text as an ``append`` op carries it (lone surrogates replaced)."""
    return text if text.isascii() else safe_text(text)


def fold_on_lane(
    state: RunState, chunk: dict[Any, Any], kind: str, t: float, ops: list[Op]
) -> Growing | None:
    """What every delta on the lane does to the state (its text, its count, its inspector
    row), for a delta of the usual shape that continues a block on the lane: the part it
    grew. ``None``, with nothing changed, when the delta needs the full fold. The caller
    says what changed (an ``append`` op, or the text merged with its neighbours)."""
    payload = chunk.get("payload")
    if payload.__class__ is not dict or len(payload) != 2:
        return None
    block = payload.get("id")
    text = payload.get("text")
    if text.__class__ is not str or not text:
        return None
    if len(chunk) == 4:  # type and payload, so runId and from must be the other two
        run_id = chunk.get("runId")
        source = chunk.get("from")
        if run_id.__class__ is not str or source.__class__ is not str:
            return None
    elif (
        not chunk.keys() <= _TOP_KEYS
        or chunk.get("runId", "").__class__ is not str
        or chunk.get("from", "").__class__ is not str
    ):
        return None
    lane = state._lane
    part = (
        lane.part
        if lane is not None and lane.kind == kind and lane.block == block
        else _open_part(state, chunk, kind, block)
    )
    if part is None:
        return None
    index = state.chunk_count
    state.chunk_count = index + 1
    if t > state.elapsed_ms:  # noqa: PLR1730 (max() is a call per delta)
        state.elapsed_ms = t
    part.append(text, t)
    rows = state._rows
    if not rows.merge(kind, part.id, t, text):
        rows.add(parse_chunk(chunk), t, index, part.id, ops, state._cut)
    return part


class Lane:
    """The block the last delta took the lane into. Any chunk that takes the full fold, and
    the end of the run, clear it: only the full fold changes what ``_open_part`` checks."""

    __slots__ = ("block", "kind", "part")

    def __init__(self, kind: str, block: str, part: Growing) -> None:
        self.kind = kind
        self.block = block
        self.part = part


def _open_part(state: RunState, chunk: dict[Any, Any], kind: str, block: Any) -> Growing | None:
    """The part a delta of ``block`` continues when the run is in the ordinary middle of it
    (remembered as the state's lane), else None."""
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
    state._lane = Lane(kind, block, part)
    return part
