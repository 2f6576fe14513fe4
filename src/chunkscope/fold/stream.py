"""A whole stream folded at once, for a run nobody watches live."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .state import RunState


def fold_chunks(chunks: Iterable[Any], title: str = "") -> RunState:
    """Fold a whole stream (chunks, dicts, JSON lines, or a ``replay``) into a RunState."""
    state = RunState(title)
    state.wire_ops = False  # no page reads this run's ops: make none
    timed = getattr(chunks, "timed", None)
    if callable(timed):
        for t, chunk, where in timed(wait=False):
            state.handle(chunk, t, where=where)
    else:
        for chunk in chunks:
            state.handle(chunk)
    state.close()
    return state
