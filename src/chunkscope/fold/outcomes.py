"""How a run stopped or was judged: ``error``, ``abort``, ``tripwire``, ``goal``,
``is-task-complete``; and what could not be folded: invalid chunks, adapter failures kept as
``raw`` chunks."""

from __future__ import annotations

from collections.abc import Mapping

from ..chunks.models import (
    AbortChunk,
    BaseChunk,
    ErrorChunk,
    GoalChunk,
    InvalidChunk,
    IsTaskCompleteChunk,
    RawChunk,
    TripwireChunk,
)
from ..wire.safejson import clip_for_wire
from .context import Fold, _Run, extra, message_of, plain
from .parts import Notice, Part


def on_stream_error(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``error`` chunk and return the part it touched."""
    if not isinstance(chunk, ErrorChunk):
        raise TypeError(f"'error' handler got {type(chunk).__name__}")
    error = plain(chunk.payload.error)
    message = message_of(error) or "the stream reported an error"
    cx.problem(
        cx.state.errors, f"the stream reported an error: {message}", cx.where, t, "error", index
    )
    notice = cx.notice(run, "error", "error", message, error, t, index)
    cx.close_open(run, t)
    if run is cx.root:
        cx.state.error = error
        cx.set_status("error")
        cx.run_op(error=message)
    elif run.part is not None:
        run.part.status = "error"
        cx.set(run.part, t, status="error")
    return notice


def on_abort(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``abort`` chunk and return the part it touched."""
    if not isinstance(chunk, AbortChunk):
        raise TypeError(f"'abort' handler got {type(chunk).__name__}")
    payload = chunk.payload
    detail = plain(payload)
    reason = message_of(extra(payload, "reason")) if detail else ""
    notice = cx.notice(run, "warning", "abort", reason or "the run was aborted", detail, t, index)
    cx.close_open(run, t)
    cx.fix_reason(run, "aborted")
    if run is cx.root:
        cx.set_status("aborted")
    elif run.part is not None:
        run.part.status = "aborted"
        cx.set(run.part, t, status="aborted")
    return notice


def on_tripwire(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``tripwire`` chunk and return the part it touched."""
    if not isinstance(chunk, TripwireChunk):
        raise TypeError(f"'tripwire' handler got {type(chunk).__name__}")
    payload = plain(chunk.payload) or {}
    reason = payload.get("reason") if isinstance(payload, Mapping) else None
    processor = payload.get("processorId") if isinstance(payload, Mapping) else None
    message = f"tripwire: {reason or 'content blocked'}"
    if processor:
        message += f" (processor {processor})"
    notice = cx.notice(run, "error", "tripwire", message, payload, t, index)
    cx.close_open(run, t)
    if run.finish_reason is None:
        cx.fix_reason(run, "other")
    if run is cx.root:
        cx.state.tripwire = dict(payload) if isinstance(payload, Mapping) else {"value": payload}
        cx.set_status("tripwire")
    elif run.part is not None:
        run.part.status = "tripwire"
        cx.set(run.part, t, status="tripwire")
    return notice


def on_goal(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``goal`` chunk and return the part it touched."""
    if not isinstance(chunk, GoalChunk):
        raise TypeError(f"'goal' handler got {type(chunk).__name__}")
    payload = plain(chunk.payload) or {}
    passed = isinstance(payload, Mapping) and payload.get("passed") is True
    objective = payload.get("objective", "") if isinstance(payload, Mapping) else ""
    verdict = "passed" if passed else "not met"
    return cx.notice(
        run,
        "info" if passed else "warning",
        "goal",
        f"goal {verdict}: {objective}".rstrip(": "),
        payload,
        t,
        index,
    )


def on_task_complete(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``is-task-complete`` chunk and return the part it touched."""
    if not isinstance(chunk, IsTaskCompleteChunk):
        raise TypeError(f"'is-task-complete' handler got {type(chunk).__name__}")
    return cx.notice(run, "info", "goal", "task completion check", plain(chunk.payload), t, index)


def on_raw(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """A provider's raw value; an adapter keeps an event it could not translate as a raw
    chunk that says why, which becomes a warning (the row's part)."""
    if not isinstance(chunk, RawChunk):
        raise TypeError(f"'raw' handler got {type(chunk).__name__}")
    payload = plain(chunk.payload)
    if isinstance(payload, Mapping):
        problem = payload.get("adapterError") or payload.get("problem")
        if isinstance(problem, str) and problem:
            return cx.warn(problem, None, t, "raw")
    return None


def on_invalid(
    cx: Fold, run: _Run, chunk: InvalidChunk, t: float, index: int, where: str | None
) -> Notice:
    """Record an invalid chunk as an error (with where it was) and show it as a notice."""
    place = where or f"chunk {index}"
    what = f"'{chunk.type}' chunk" if isinstance(chunk.type, str) else "chunk"
    message = f"invalid {what} at {place}: {chunk.error}"
    cx.problem(cx.state.errors, message, where, t, chunk.type, index)
    return cx.notice(run, "error", "invalid", message, clip_for_wire(chunk.raw), t, index)
