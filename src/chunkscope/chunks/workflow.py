"""Workflow events (`WorkflowStreamEvent`): `workflow-*` chunks."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    Field,
)

from .base import _TYPE_DOC, BaseChunk, JsonDict, Number, OutputSummary, PayloadModel
from .control import StepOutputPayload

__all__ = [
    "WorkflowCanceledChunk",
    "WorkflowCanceledPayload",
    "WorkflowFinishChunk",
    "WorkflowFinishPayload",
    "WorkflowPausedChunk",
    "WorkflowPausedPayload",
    "WorkflowStartChunk",
    "WorkflowStartPayload",
    "WorkflowStepFinishChunk",
    "WorkflowStepFinishPayload",
    "WorkflowStepOutputChunk",
    "WorkflowStepOutputPayload",
    "WorkflowStepProgressChunk",
    "WorkflowStepProgressPayload",
    "WorkflowStepResultChunk",
    "WorkflowStepResultPayload",
    "WorkflowStepStartChunk",
    "WorkflowStepStartPayload",
    "WorkflowStepSuspendedChunk",
    "WorkflowStepSuspendedPayload",
    "WorkflowStepWaitingChunk",
    "WorkflowStepWaitingPayload",
]


class WorkflowStartPayload(PayloadModel):
    """Payload of `workflow-start`."""

    workflow_id: str | None = Field(None, description="Id of the workflow.")


class WorkflowFinishPayload(PayloadModel):
    """Payload of `workflow-finish`."""

    workflow_status: str = Field(
        description="Run status: success, failed, suspended, canceled, paused, tripwire, ..."
    )
    final_workflow_result: Any = Field(None, description="The workflow's result, when sent.")
    output: OutputSummary | None = Field(None, description="Run output with its token usage.")
    metadata: JsonDict | None = Field(None, description="Run metadata.")


class WorkflowCanceledPayload(PayloadModel):
    """Payload of `workflow-canceled` (empty)."""


class WorkflowPausedPayload(PayloadModel):
    """Payload of `workflow-paused` (empty)."""


class _StepRef(PayloadModel):
    id: str | None = Field(
        None,
        description="Id of the step; dotted for steps of nested workflows. Steps are also "
        "named by `stepName`, which the fold falls back to.",
    )


class _StepState(_StepRef):
    status: str | None = Field(
        None, description="Step status: running, success, failed, suspended, waiting, paused, ..."
    )
    output: Any = Field(None, description="Output of the step, when it has one.")
    payload: Any = Field(None, description="Input of the step.")
    resume_payload: Any = Field(None, description="Data the step was resumed with.")
    suspend_payload: Any = Field(None, description="Data the step suspended with.")


class WorkflowStepStartPayload(_StepState):
    """Payload of `workflow-step-start`."""

    step_call_id: str | None = Field(
        None,
        description="Id of this execution of the step. Declared required, but real streams "
        "omit it for `.foreach()` and `.sleep()` steps.",
    )


class WorkflowStepFinishPayload(_StepRef):
    """Payload of `workflow-step-finish`."""

    metadata: JsonDict | None = Field(None, description="Step metadata.")


class WorkflowStepSuspendedPayload(_StepState):
    """Payload of `workflow-step-suspended`."""


class WorkflowStepWaitingPayload(_StepRef):
    """Payload of `workflow-step-waiting`."""

    payload: Any = Field(None, description="Input of the waiting step.")
    started_at: Number | None = Field(None, description="Epoch ms at which the step started.")
    status: str | None = Field(None, description="Step status (waiting).")


class WorkflowStepOutputPayload(StepOutputPayload):
    """Payload of `workflow-step-output`: a step's `writer.write()`, often a whole chunk."""


class WorkflowStepProgressPayload(_StepRef):
    """Payload of `workflow-step-progress`: one iteration of a `foreach` step finished."""

    completed_count: Number | None = Field(None, description="Iterations completed so far.")
    total_count: Number | None = Field(None, description="Total number of iterations.")
    current_index: Number | None = Field(
        None, description="Index of the iteration that just finished."
    )
    iteration_status: str | None = Field(None, description="success, failed or suspended.")
    iteration_output: Any = Field(None, description="Output of that iteration, on success.")


class WorkflowStepResultPayload(_StepState):
    """Payload of `workflow-step-result`: a step ended."""

    step_call_id: str | None = Field(
        None,
        description="Id of this execution of the step. Declared required, but real streams "
        "omit it for `.foreach()` and `.sleep()` steps.",
    )
    tripwire: JsonDict | None = Field(
        None, description="Tripwire data when a processor rejected the step."
    )


class WorkflowStartChunk(BaseChunk):
    """`workflow-start`: a workflow run begins."""

    type: Literal["workflow-start"] = Field(description=_TYPE_DOC)
    payload: WorkflowStartPayload = Field(description="The workflow.")


class WorkflowFinishChunk(BaseChunk):
    """`workflow-finish`: a workflow run ended (`workflowStatus`)."""

    type: Literal["workflow-finish"] = Field(description=_TYPE_DOC)
    payload: WorkflowFinishPayload = Field(description="Status, result and usage.")


class WorkflowCanceledChunk(BaseChunk):
    """`workflow-canceled`."""

    type: Literal["workflow-canceled"] = Field(description=_TYPE_DOC)
    payload: WorkflowCanceledPayload = Field(description="Empty.")


class WorkflowPausedChunk(BaseChunk):
    """`workflow-paused`."""

    type: Literal["workflow-paused"] = Field(description=_TYPE_DOC)
    payload: WorkflowPausedPayload = Field(description="Empty.")


class WorkflowStepStartChunk(BaseChunk):
    """`workflow-step-start`: a step begins."""

    type: Literal["workflow-step-start"] = Field(description=_TYPE_DOC)
    id: str | None = Field(None, description="Id of the step, repeated outside the payload.")
    payload: WorkflowStepStartPayload = Field(description="The step and its input.")


class WorkflowStepFinishChunk(BaseChunk):
    """`workflow-step-finish`."""

    type: Literal["workflow-step-finish"] = Field(description=_TYPE_DOC)
    payload: WorkflowStepFinishPayload = Field(description="The step.")


class WorkflowStepSuspendedChunk(BaseChunk):
    """`workflow-step-suspended`."""

    type: Literal["workflow-step-suspended"] = Field(description=_TYPE_DOC)
    payload: WorkflowStepSuspendedPayload = Field(description="The suspended step.")


class WorkflowStepWaitingChunk(BaseChunk):
    """`workflow-step-waiting`."""

    type: Literal["workflow-step-waiting"] = Field(description=_TYPE_DOC)
    payload: WorkflowStepWaitingPayload = Field(description="The waiting step.")


class WorkflowStepOutputChunk(BaseChunk):
    """`workflow-step-output`: a step's `writer.write()`, possibly a nested run's chunk."""

    type: Literal["workflow-step-output"] = Field(description=_TYPE_DOC)
    payload: WorkflowStepOutputPayload = Field(description="What the step wrote.")


class WorkflowStepProgressChunk(BaseChunk):
    """`workflow-step-progress`: a `foreach` iteration finished."""

    type: Literal["workflow-step-progress"] = Field(description=_TYPE_DOC)
    payload: WorkflowStepProgressPayload = Field(description="Iteration counts.")


class WorkflowStepResultChunk(BaseChunk):
    """`workflow-step-result`: a step ended with a status."""

    type: Literal["workflow-step-result"] = Field(description=_TYPE_DOC)
    payload: WorkflowStepResultPayload = Field(description="The step's status and output.")
