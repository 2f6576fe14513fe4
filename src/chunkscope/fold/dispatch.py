"""Which handler folds which chunk: one table from chunk type to handler, built at import,
and the two ways through it (a chunk of the stream, a chunk inside another chunk)."""

from __future__ import annotations

from collections.abc import Callable

from ..chunks.models import (
    CHUNK_CLASSES,
    BaseChunk,
    Chunk,
    InvalidChunk,
    UnknownChunk,
    chunk_family,
)
from . import background, content, data, network, outcomes, runsteps, text, tools, workflow
from .context import Fold, _Run
from .lenient import fold_lenient
from .parts import NestedRun, Part

Handler = Callable[[Fold, _Run, BaseChunk, float, int], "Part | None"]
"""Folds one chunk into a run; returns the part it touched last (the chunk's row links to
it), or None."""

HANDLERS: dict[str, Handler] = {
    "start": runsteps.on_run_start,
    "step-start": runsteps.on_step_start,
    "step-finish": runsteps.on_step_finish,
    "finish": runsteps.on_run_finish,
    "text-start": text.on_text_start,
    "text-delta": text.on_text_delta,
    "text-end": text.on_text_end,
    "reasoning-start": text.on_reasoning_start,
    "reasoning-delta": text.on_reasoning_delta,
    "reasoning-end": text.on_reasoning_end,
    "reasoning-signature": text.on_reasoning_signature,
    "redacted-reasoning": text.on_redacted_reasoning,
    "reasoning-file": content.on_file,
    "file": content.on_file,
    "source": content.on_source,
    "object": content.on_object,
    "object-result": content.on_object,
    "custom": data.on_custom,
    "tool-call-input-streaming-start": tools.on_input_start,
    "tool-call-delta": tools.on_delta,
    "tool-call-input-streaming-end": tools.on_input_end,
    "tool-call": tools.on_call,
    "tool-result": tools.on_result,
    "tool-error": tools.on_tool_error,
    "tool-call-approval": tools.on_approval,
    "tool-call-suspended": tools.on_suspended,
    "tool-output-denied": tools.on_denied,
    "tool-output": tools.on_output,
    "step-output": workflow.on_step_output,
    "workflow-step-output": workflow.on_step_output,
    "workflow-start": workflow.on_workflow_start,
    "workflow-finish": workflow.on_workflow_finish,
    "workflow-canceled": workflow.on_end_status,
    "workflow-paused": workflow.on_end_status,
    "workflow-step-start": workflow.on_step,
    "workflow-step-finish": workflow.on_step,
    "workflow-step-suspended": workflow.on_step,
    "workflow-step-waiting": workflow.on_step,
    "workflow-step-result": workflow.on_step,
    "workflow-step-progress": workflow.on_progress,
    "error": outcomes.on_stream_error,
    "abort": outcomes.on_abort,
    "tripwire": outcomes.on_tripwire,
    "goal": outcomes.on_goal,
    "is-task-complete": outcomes.on_task_complete,
    **{kind: background.on_task for kind in CHUNK_CLASSES if kind.startswith("background-task-")},
    **{kind: network.on_event for kind in CHUNK_CLASSES if chunk_family(kind) == "network"},
}
"""Chunk type -> handler, for every type a run folds the same way wherever it appears."""

_TOP_ONLY: dict[str, Handler] = {"raw": outcomes.on_raw}
"""Handlers of the stream's own chunks only: nested, these types are not folded."""

_AFTER_FINISH_OK = frozenset({"start", "raw", "response-metadata", "watch", "step-start"})


def _after_finish_ok(type_: str) -> bool:
    """Chunks that legitimately follow ``finish`` (background work, a continuation turn)."""
    return type_.startswith(("background-task-", "data-", "workflow-")) or type_ in (
        _AFTER_FINISH_OK
    )


def _prefixed(type_: str) -> Handler | None:
    """The handler of a type known by its prefix, not its name."""
    if type_.startswith("data-"):
        return data.on_data
    if type_.startswith(("agent-execution-event-", "workflow-execution-event-")):
        return network.on_wrapper
    return None


def fold_chunk(cx: Fold, chunk: Chunk, t: float, index: int, where: str | None) -> Part | None:
    """Fold a chunk of the stream; returns the part its inspector row links to."""
    root = cx.root
    state = cx.state
    if state.status == "waiting":
        cx.set_status("running")
    if isinstance(chunk, InvalidChunk):
        target = cx.turn or root
        notice = outcomes.on_invalid(cx, target, chunk, t, index, where)
        # Best effort: a known chunk with a bad field still says something (a step began,
        # words arrived); fold what can be read, after the error row.
        fold_lenient(cx, target, chunk, t, index)
        return notice
    type_ = chunk.type
    if type_ == "start" and root.finished:
        # streamUntilIdle(): after a background task ends, a whole new start … finish turn
        # follows in the same stream. Mastra's promises keep the first turn's values, so the
        # new turn is folded as a run of its own, shown after the first.
        cx.turns += 1
        turn = NestedRun(
            cx.new_id(), None, None, t, index, chunk.run_id, f"continuation turn {cx.turns}"
        )
        cx.add(turn)
        cx.turn = _Run(turn, turn.id)
    if cx.turn is not None and not type_.startswith("background-task-"):
        return fold_nested(cx, cx.turn, chunk, t, index) or cx.turn.part
    if state.run_id is None and isinstance(chunk.run_id, str):
        state.run_id = chunk.run_id
        cx.run_op(runId=chunk.run_id)
    if root.finished and type_ != "start" and not _after_finish_ok(type_):
        cx.warn(f"'{type_}' arrived after 'finish'", where, t, type_)
    handler = HANDLERS.get(type_) or _TOP_ONLY.get(type_)
    if handler is not None:
        return handler(cx, root, chunk, t, index)
    if isinstance(chunk, UnknownChunk):
        notice = cx.notice(
            root,
            "warning",
            "unknown",
            f"unknown chunk type '{type_}' at {where or f'chunk {index}'}; shown as is",
            None,
            t,
            index,
        )
        cx.problem(state.warnings, f"unknown chunk type '{type_}'", where, t, type_, index)
        return notice
    handler = _prefixed(type_)
    # Known to the chunk model but carrying nothing a viewer draws (watch, response-metadata
    # ...): the inspector row is its home.
    return None if handler is None else handler(cx, root, chunk, t, index)


def fold_nested(cx: Fold, run: _Run, chunk: Chunk, t: float, index: int) -> Part | None:
    """Fold a chunk of a nested run: the same rules, without its own inspector row."""
    if isinstance(chunk, InvalidChunk):
        return outcomes.on_invalid(cx, run, chunk, t, index, None)
    type_ = chunk.type
    handler = HANDLERS.get(type_)
    if handler is None:
        handler = _prefixed(type_)
        if handler is None:
            if type_.startswith("background-task-"):
                handler = background.on_task
            elif chunk_family(type_) == "network":
                handler = network.on_event
    return None if handler is None else handler(cx, run, chunk, t, index)
