"""Workflow chunks: the run (``workflow-start``, ``-finish``, ``-canceled``, ``-paused``), its
steps (``workflow-step-*``), and what steps write (``step-output``, ``workflow-step-output``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..chunks.models import (
    BaseChunk,
    StepOutputChunk,
    WorkflowCanceledChunk,
    WorkflowFinishChunk,
    WorkflowPausedChunk,
    WorkflowStartChunk,
    WorkflowStepFinishChunk,
    WorkflowStepOutputChunk,
    WorkflowStepProgressChunk,
    WorkflowStepResultChunk,
    WorkflowStepStartChunk,
    WorkflowStepSuspendedChunk,
    WorkflowStepWaitingChunk,
)
from .context import (
    Fold,
    _Run,
    extra,
    looks_like_chunk,
    message_of,
    payload_of,
    plain,
    str_or_none,
)
from .parts import Part, WorkflowRun, WorkflowStep, usage_from

WorkflowChunk = (
    WorkflowStartChunk
    | WorkflowFinishChunk
    | WorkflowCanceledChunk
    | WorkflowPausedChunk
    | WorkflowStepStartChunk
    | WorkflowStepFinishChunk
    | WorkflowStepSuspendedChunk
    | WorkflowStepWaitingChunk
    | WorkflowStepResultChunk
)
StepChunk = (
    WorkflowStepStartChunk
    | WorkflowStepFinishChunk
    | WorkflowStepSuspendedChunk
    | WorkflowStepWaitingChunk
    | WorkflowStepResultChunk
)

_STEP_DEFAULTS: dict[str, str | None] = {
    "workflow-step-start": "running",
    "workflow-step-waiting": "waiting",
    "workflow-step-suspended": "suspended",
    "workflow-step-result": "success",
    "workflow-step-finish": None,
}

_RUN_STATUS = {
    "success": "finished",
    "failed": "error",
    "canceled": "aborted",
    "suspended": "suspended",
    "tripwire": "tripwire",
}


def _start(
    cx: Fold, run: _Run, chunk: BaseChunk, workflow_id: Any, t: float, index: int
) -> WorkflowRun:
    part = WorkflowRun(
        cx.new_id(), run.parent, run.step_id, t, index, chunk.run_id, str_or_none(workflow_id)
    )
    run.workflow = part
    cx.add(part)
    return part


def _workflow(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> WorkflowRun:
    """The run's workflow; a chunk of one that never said ``workflow-start`` starts it."""
    if run.workflow is None:
        payload = plain(payload_of(chunk)) or {}
        workflow_id = payload.get("workflowId") if isinstance(payload, Mapping) else None
        return _start(cx, run, chunk, workflow_id, t, index)
    return run.workflow


def on_workflow_start(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``workflow-start`` chunk and return the part it touched."""
    if not isinstance(chunk, WorkflowStartChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    return _start(cx, run, chunk, chunk.payload.workflow_id, t, index)


def on_workflow_finish(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``workflow-finish`` chunk and return the part it touched."""
    if not isinstance(chunk, WorkflowFinishChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    workflow = _workflow(cx, run, chunk, t, index)
    payload = chunk.payload
    workflow.status = payload.workflow_status
    usage = None if payload.output is None else usage_from(plain(payload.output.usage))
    # @mastra/core 1.71 sends the workflow's output as finalWorkflowResult; earlier releases
    # (1.0.4, 1.35.0) send none, and the run's result is then what its last top-level step
    # returned
    if "final_workflow_result" in payload.model_fields_set:
        workflow.result = payload.final_workflow_result
    elif "result" in (payload.model_extra or {}):
        workflow.result = extra(payload, "result")
    elif workflow.status == "success" and run.last_step_output is not None:
        (workflow.result,) = run.last_step_output
    cx.end(workflow, t)
    cx.set(workflow, t, status=workflow.status, result=workflow.result)
    error = _failure(payload.metadata)
    if error is not None and workflow.status == "failed":
        # a run that fails before or between steps (bad input, say) says why only here
        workflow.error = error
        cx.set(workflow, t, error=error)
        message = message_of(error) or "the workflow failed"
        cx.problem(
            cx.state.errors, f"the workflow failed: {message}", cx.where, t, chunk.type, index
        )
        cx.notice(run, "error", "error", f"the workflow failed: {message}", error, t, index)
        if run is cx.root:
            cx.state.error = error
            cx.run_op(error=message)
    if run is cx.root:
        run.finished = True
        if usage is not None:
            cx.state.usage = usage
        cx.set_status(_RUN_STATUS.get(workflow.status, "finished"))
    elif run.part is not None:
        run.part.status = workflow.status
        cx.end(run.part, t)
        cx.set(run.part, t, status=workflow.status)
    return workflow


def _failure(metadata: Any) -> Any:
    """The reason a failed workflow gives in ``workflow-finish`` metadata, when it gives one.

    ``metadata.error`` is the error itself; earlier releases (1.0.4, 1.35.0) put a live
    ``Error`` there, which reaches JSON as ``{}``, so the message is then taken from
    ``errorMessage``.
    """
    if not isinstance(metadata, Mapping):
        return None
    error = plain(metadata.get("error"))
    message = plain(metadata.get("errorMessage"))
    if error is None:
        return message
    if isinstance(error, Mapping) and not error.get("message") and isinstance(message, str):
        return {**error, "message": message}
    return error


def on_end_status(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold one of ``workflow-canceled``, ``workflow-paused`` and return the part it touched."""
    if not isinstance(chunk, (WorkflowCanceledChunk, WorkflowPausedChunk)):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    workflow = _workflow(cx, run, chunk, t, index)
    canceled = isinstance(chunk, WorkflowCanceledChunk)
    workflow.status = "canceled" if canceled else "paused"
    cx.set(workflow, t, status=workflow.status)
    if canceled:
        cx.end(workflow, t)
        if run is cx.root:
            cx.set_status("aborted")
    return workflow


def on_step(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``workflow-step-*`` chunk (start, finish, suspended, waiting, result) and
    return the part it touched."""
    if not isinstance(
        chunk,
        (
            WorkflowStepStartChunk,
            WorkflowStepFinishChunk,
            WorkflowStepSuspendedChunk,
            WorkflowStepWaitingChunk,
            WorkflowStepResultChunk,
        ),
    ):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    payload = plain(chunk.payload)
    if not isinstance(payload, Mapping):
        return None
    step_id = payload.get("id") or payload.get("stepName") or ""
    step_id = step_id if isinstance(step_id, str) else str(step_id)
    workflow = _workflow(cx, run, chunk, t, index)
    status = payload.get("status")
    state = status if isinstance(status, str) else _STEP_DEFAULTS[chunk.type]
    wstep = run.wsteps.get(step_id)
    if wstep is None or (isinstance(chunk, WorkflowStepStartChunk) and wstep.t1 is not None):
        parent = workflow.id
        if "." in step_id:
            outer = run.wsteps.get(step_id.rsplit(".", 1)[0])
            parent = outer.id if outer is not None else parent
        wstep = WorkflowStep(cx.new_id(), parent, None, t, index, state or "running", step_id)
        run.wsteps[step_id] = wstep
        if "payload" in payload:
            wstep.input = payload.get("payload")
        # first seen at its result (the stream observed from an offset): keep what it says
        if "output" in payload:
            wstep.output = payload.get("output")
        if "error" in payload:
            wstep.error = payload.get("error")
        if "suspendPayload" in payload:
            wstep.suspend_payload = payload.get("suspendPayload")
        cx.add(wstep)
        if isinstance(chunk, (WorkflowStepResultChunk, WorkflowStepFinishChunk)) and (
            state not in ("suspended", "waiting", "running")
        ):
            cx.end(wstep, t)
        _note_output(run, chunk, step_id, state, payload)
        return wstep
    fields: dict[str, Any] = {}
    if "suspendPayload" in payload:
        wstep.suspend_payload = payload.get("suspendPayload")
        fields["suspendPayload"] = wstep.suspend_payload
    if "output" in payload:
        wstep.output = payload.get("output")
        fields["output"] = wstep.output
    if "error" in payload:
        wstep.error = payload.get("error")
        fields["error"] = wstep.error
    if state is not None:
        cx.move(wstep, state, t, **fields)
    elif fields:
        cx.set(wstep, t, **fields)
    if isinstance(chunk, (WorkflowStepResultChunk, WorkflowStepFinishChunk)) and state not in (
        "suspended",
        "waiting",
        "running",
    ):
        cx.end(wstep, t)
    _note_output(run, chunk, step_id, state, payload)
    return wstep


def _note_output(
    run: _Run, chunk: BaseChunk, step_id: str, state: str | None, payload: Mapping[str, Any]
) -> None:
    """Keep what a top-level step that succeeded returned: a run whose ``workflow-finish``
    carries no result resolved to its last step's output."""
    if (
        isinstance(chunk, WorkflowStepResultChunk)
        and state == "success"
        and "." not in step_id
        and "output" in payload
    ):
        run.last_step_output = (payload.get("output"),)


def on_progress(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold a ``workflow-step-progress`` chunk and return the part it touched."""
    if not isinstance(chunk, WorkflowStepProgressChunk):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    step_id = chunk.payload.id or extra(chunk.payload, "stepName")
    wstep = run.wsteps.get(step_id) if isinstance(step_id, str) else None
    if wstep is None:
        return None
    payload = plain(chunk.payload)
    wstep.progress = payload
    cx.set(wstep, t, progress=payload)
    return wstep


def on_step_output(cx: Fold, run: _Run, chunk: BaseChunk, t: float, index: int) -> Part | None:
    """Fold one of ``step-output``, ``workflow-step-output`` and return the part it touched."""
    if not isinstance(chunk, (StepOutputChunk, WorkflowStepOutputChunk)):
        raise TypeError(f"'{chunk.type}' handler got {type(chunk).__name__}")
    payload = chunk.payload
    output = plain(payload.output)
    step_id = extra(payload, "id") or extra(payload, "stepName")
    parent: Part | None = run.wsteps.get(step_id) if isinstance(step_id, str) else None
    if parent is None and looks_like_chunk(output):
        inner = output.get("payload")
        inner_id = inner.get("id") if isinstance(inner, Mapping) else None
        parent = run.wsteps.get(inner_id) if isinstance(inner_id, str) else None
    if parent is None:
        parent = run.step or run.workflow
    label = step_id if isinstance(step_id, str) else "step"
    return cx.output(run, parent, output, chunk.from_, t, index, label)
