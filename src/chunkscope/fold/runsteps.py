"""Run and step chunks: ``start``, ``step-start``, ``step-finish``, ``finish``."""

from __future__ import annotations

from typing import Any

from ..chunks.models import (
    BaseChunk,
    FinishChunk,
    OutputSummary,
    StartChunk,
    StepFinishChunk,
    StepResultInfo,
    StepStartChunk,
)
from .context import Fold, _Run, dump, extra, plain, sum_usage
from .parts import Part, StepPart, Usage, usage_from


def start(cx: Fold, run: _Run, t: float) -> None:
    """Mark ``run`` started; a second start mid-run is a warning, one after finish reopens it."""
    if run.started and not run.finished and run is cx.root:
        cx.warn("a second 'start' arrived mid-run", None, t, "start")
    run.started = True
    if run.finished:
        run.finished = False
        if run is cx.root:
            cx.set_status("running")


def step_start(cx: Fold, run: _Run, warnings: Any, t: float, index: int) -> StepPart:
    """Close the open step and open a new one carrying the provider's ``warnings``."""
    if run.step is not None and run.step.t1 is None:
        cx.end(run.step, t)
    step = cx.open_step(run, t, index)
    if warnings:
        step.warnings = warnings
        cx.set(step, t, warnings=warnings)
    return step


def step_finish(
    cx: Fold, run: _Run, reason: Any, usage: Usage | None, t: float, index: int
) -> StepPart:
    """End the current step with its finish reason and usage (a step is opened if none is)."""
    step = run.step
    if step is None or step.finish_reason is not None:
        step = cx.open_step(run, t, index)
    step.finish_reason = reason if isinstance(reason, str) else "unknown"
    step.usage = usage
    step.t1 = None
    cx.end(step, t)
    cx.set(step, t, finishReason=step.finish_reason, usage=None if usage is None else usage.wire())
    counted = reported(usage)
    if counted is not None:
        run.step_usage = counted if run.step_usage is None else run.step_usage + counted
    if run is cx.root and not cx.root.reason_fixed:
        cx.state.finish_reason = step.finish_reason
        cx.run_op(finishReason=step.finish_reason)
    return step


def _reason(result: StepResultInfo | None) -> str | None:
    """The finish reason a ``stepResult`` gives, None when it is absent."""
    return None if result is None else result.reason


def _usage(output: OutputSummary | None) -> Usage | None:
    """The usage an ``output`` record gives, None when it or its usage is absent."""
    return None if output is None or output.usage is None else usage_from(dump(output.usage))


_ZERO_FILLED = {"inputTokens": 0, "outputTokens": 0, "totalTokens": 0}
"""What Mastra writes into a ``step-finish``/``finish`` whose model call reported no usage
(the call threw, errored or was aborted); its promises count such a step as no usage."""


def reported(usage: Usage | None) -> Usage | None:
    """``usage`` as the framework counts it: Mastra's zero-filled stand-in is no usage."""
    if usage is not None and usage.model_dump(by_alias=True, exclude_none=True) == _ZERO_FILLED:
        return None
    return usage


def with_total(usage: Usage) -> Usage:
    """``usage`` as Mastra's ``totalUsage`` gives it: ``totalTokens`` is always there (input
    plus output plus reasoning when the provider did not say)."""
    if usage.total_tokens is not None:
        return usage
    total = (usage.input_tokens or 0) + (usage.output_tokens or 0) + (usage.reasoning_tokens or 0)
    return usage.model_copy(update={"total_tokens": total})


def on_run_start(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``start`` chunk and return the part it touched."""
    if not isinstance(chunk, StartChunk):
        raise TypeError(f"'start' handler got {type(chunk).__name__}")
    start(cx, run, t)
    return None


def on_step_start(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``step-start`` chunk and return the part it touched."""
    if not isinstance(chunk, StepStartChunk):
        raise TypeError(f"'step-start' handler got {type(chunk).__name__}")
    return step_start(cx, run, chunk.payload.warnings, t, index)


def on_step_finish(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``step-finish`` chunk and return the part it touched."""
    if not isinstance(chunk, StepFinishChunk):
        raise TypeError(f"'step-finish' handler got {type(chunk).__name__}")
    payload = chunk.payload
    usage = _usage(payload.output)
    return step_finish(cx, run, _reason(payload.step_result), usage, t, index)


def on_run_finish(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``finish`` chunk and return the part it touched."""
    if not isinstance(chunk, FinishChunk):
        raise TypeError(f"'finish' handler got {type(chunk).__name__}")
    payload = chunk.payload
    reason = _reason(payload.step_result)
    given = _usage(payload.output)
    usage = reported(given) or run.step_usage
    if usage is None and given is not None:
        # every step's usage was Mastra's zero-filled stand-in: its promises give `{}`
        usage = Usage()
    total = usage_from(plain(extra(payload, "totalUsage")))
    if run.step is not None:
        cx.end(run.step, t)
    run.finished = True
    if not run.reason_fixed:
        run.finish_reason = reason
    run.usage = usage
    if run.part is not None:
        nested = run.part
        nested.status = "finished" if nested.status == "running" else nested.status
        nested.finish_reason = run.finish_reason
        nested.usage = usage
        cx.end(nested, t)
        cx.set(
            nested,
            t,
            status=nested.status,
            finishReason=nested.finish_reason,
            usage=None if usage is None else usage.wire(),
        )
        return nested
    state = cx.state
    if not cx.root.reason_fixed:
        state.finish_reason = run.finish_reason
    # streamUntilIdle() puts several start … finish turns in one stream: sum them.
    turn_total = total or (None if usage is None else with_total(usage))
    state.usage = sum_usage(state.usage, usage)
    state.total_usage = sum_usage(state.total_usage, turn_total)
    run.step_usage = None
    if state.status == "running":
        cx.set_status("finished")
    cx.run_op(
        finishReason=state.finish_reason,
        usage=None if state.usage is None else state.usage.wire(),
        outputTokens=None if state.usage is None else state.usage.output_tokens,
    )
    return None
