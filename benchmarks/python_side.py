"""The Python side alone: folding chunks into the run state, and the consumer on top of it."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from approaches import mastra_text_chunks
from stream_text import make_deltas


def _best_of(repeats: int, work: Callable[[], object]) -> float:
    """Median seconds of ``repeats`` calls of ``work``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _fold_function() -> tuple[str, Callable[[list[dict[str, Any]]], object]]:
    """chunkscope's public fold when it has one, else the RunState accumulator chunk by chunk."""
    import chunkscope

    accumulate = getattr(chunkscope, "accumulate", None)
    if callable(accumulate):
        return "chunkscope.accumulate", accumulate
    from chunkscope.fold.state import RunState

    def fold(chunks: list[dict[str, Any]]) -> object:
        state = RunState()
        for chunk in chunks:
            state.handle(chunk)
        return state

    return "RunState.handle", fold


def measure_python_side(n: int, repeats: int) -> dict[str, Any]:
    """Chunks/s for parse + accumulate of ``n`` raw chunks, and the consumer's extra µs/chunk.

    Returns a ``skipped`` reason instead of numbers when chunkscope lacks what is measured.
    """
    chunks = list(mastra_text_chunks(make_deltas(n)))
    result: dict[str, Any] = {"chunks": len(chunks), "repeats": repeats}
    try:
        method, fold = _fold_function()
    except ImportError as error:
        return {**result, "skipped": f"chunkscope not importable ({error})"}
    fold_s = _best_of(repeats, lambda: fold(chunks))
    result.update(method=method, fold_chunks_per_s=len(chunks) / fold_s)

    import chunkscope

    show = getattr(chunkscope, "show", None)
    if not callable(show):
        result["consumer_skipped"] = "chunkscope.show does not exist yet"
        return result

    def consume() -> object:
        # No front end outside a kernel: this is the consumer's own cost on top of the fold.
        return show(iter(chunks), display=False).result(timeout=600)

    try:
        show_s = _best_of(repeats, consume)
    except Exception as error:
        result["consumer_skipped"] = f"chunkscope.show failed outside a kernel: {error!r}"
        return result
    result["consumer_overhead_us_per_chunk"] = max(0.0, (show_s - fold_s) / len(chunks) * 1e6)
    return result
