"""Agent chunks that steer a run: start, steps, finish, errors, structured output, goals,
and background tasks."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    Field,
)

from .base import (
    _PM_DOC,
    _TYPE_DOC,
    BaseChunk,
    GoalActivity,
    JsonDict,
    NestedChunk,
    Number,
    OutputSummary,
    PayloadModel,
    StepResultInfo,
    Timestamp,
    UsagePayload,
)

__all__ = [
    "AbortChunk",
    "BackgroundTaskCancelledChunk",
    "BackgroundTaskCancelledPayload",
    "BackgroundTaskCompletedChunk",
    "BackgroundTaskCompletedPayload",
    "BackgroundTaskFailedChunk",
    "BackgroundTaskFailedPayload",
    "BackgroundTaskOutputChunk",
    "BackgroundTaskOutputPayload",
    "BackgroundTaskProgressChunk",
    "BackgroundTaskProgressPayload",
    "BackgroundTaskResumedChunk",
    "BackgroundTaskResumedPayload",
    "BackgroundTaskRunningChunk",
    "BackgroundTaskRunningPayload",
    "BackgroundTaskStartedChunk",
    "BackgroundTaskStartedPayload",
    "BackgroundTaskSuspendedChunk",
    "BackgroundTaskSuspendedPayload",
    "ErrorChunk",
    "ErrorPayload",
    "FinishChunk",
    "FinishPayload",
    "GoalChunk",
    "GoalPayload",
    "IsTaskCompleteChunk",
    "IsTaskCompletePayload",
    "ObjectChunk",
    "ObjectResultChunk",
    "RawChunk",
    "ResponseMetadataChunk",
    "ResponseMetadataPayload",
    "StartChunk",
    "StartPayload",
    "StepFinishChunk",
    "StepFinishPayload",
    "StepOutputChunk",
    "StepOutputPayload",
    "StepStartChunk",
    "StepStartPayload",
    "TripwireChunk",
    "TripwirePayload",
    "WatchChunk",
    "WatchPayload",
]


class StartPayload(PayloadModel):
    """Payload of `start` (open record; Mastra sends the agent `id` and `messageId`)."""


class StepStartPayload(PayloadModel):
    """Payload of `step-start`: a model call begins."""

    message_id: str | None = Field(None, description="Id of the response message.")
    started_at: Number | None = Field(
        None, description="Epoch ms just before the provider call; absent without one."
    )
    request: JsonDict | None = Field(
        None, description="The request sent to the provider (`body`, ...)."
    )
    input_messages: list[Any] | None = Field(None, description="Prompt sent to the model.")
    warnings: list[Any] | None = Field(None, description="Provider call warnings.")


class StepFinishPayload(PayloadModel):
    """Payload of `step-finish`: a model call ended."""

    id: str | None = Field(None, description="Id of the step.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)
    total_usage: UsagePayload | None = Field(None, description="Usage summed over the run so far.")
    response: JsonDict | None = Field(None, description="Provider response metadata.")
    message_id: str | None = Field(None, description="Id of the response message.")
    step_result: StepResultInfo | None = Field(None, description="How the step ended.")
    output: OutputSummary | None = Field(
        None, description="What the step produced, with its usage."
    )
    metadata: JsonDict | None = Field(
        None, description="Request and provider metadata of the step."
    )
    messages: JsonDict | None = Field(None, description="Messages: `all`, `user`, `nonUser`.")


class StepOutputPayload(PayloadModel):
    """Payload of `step-output`: output of a nested step, often a whole chunk."""

    output: Any = Field(None, description="The nested chunk or value.")


class FinishPayload(PayloadModel):
    """Payload of `finish`: the run ended."""

    step_result: StepResultInfo | None = Field(None, description="How the last step ended.")
    output: OutputSummary | None = Field(
        None, description="Run output; `usage` is summed over steps."
    )
    metadata: JsonDict | None = Field(None, description="Request and provider metadata.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)
    messages: JsonDict | None = Field(None, description="Messages: `all`, `user`, `nonUser`.")
    response: JsonDict | None = Field(None, description="Provider response of the last step.")


class ErrorPayload(PayloadModel):
    """Payload of `error`."""

    error: Any = Field(None, description="The error (a message, or `{message, name, ...}`).")


class AbortPayload(PayloadModel):
    """Payload of `abort` (open record)."""


class ResponseMetadataPayload(PayloadModel):
    """Payload of `response-metadata` (open record)."""

    signature: str | None = Field(None, description="Response signature, when sent.")


class WatchPayload(PayloadModel):
    """Payload of `watch` (open record)."""


class TripwirePayload(PayloadModel):
    """Payload of `tripwire`: a processor stopped the run."""

    reason: str | None = Field(None, description="Why the tripwire fired.")
    retry: bool | None = Field(None, description="Whether the agent retries with the reason.")
    metadata: Any = Field(None, description="Processor-defined metadata.")
    processor_id: str | None = Field(None, description="Id of the processor that fired.")


class IsTaskCompletePayload(PayloadModel):
    """Payload of `is-task-complete`: scorers judged whether the task is done."""

    iteration: Number | None = Field(None, description="Current iteration number.")
    passed: bool | None = Field(None, description="Whether the scorers passed under the strategy.")
    results: list[Any] | None = Field(None, description="Individual scorer results.")
    duration: Number | None = Field(None, description="Duration of all checks, in ms.")
    timed_out: bool | None = Field(None, description="Whether scoring timed out.")
    reason: str | None = Field(None, description="Reason given by the relevant scorer.")
    max_iteration_reached: bool | None = Field(
        None, description="Whether the iteration limit was reached."
    )
    suppress_feedback: bool | None = Field(
        None, description="Whether the feedback message is suppressed."
    )


class GoalPayload(PayloadModel):
    """Payload of `goal`: the in-loop goal judge's progress or verdict."""

    objective: str | None = Field(None, description="The objective being judged.")
    iteration: Number | None = Field(None, description="Goal evaluations consumed so far.")
    max_runs: Number | None = Field(None, description="Evaluations allowed before the goal stops.")
    passed: bool | None = Field(None, description="Whether the goal is judged complete.")
    status: str | None = Field(None, description="Objective status: active, paused or done.")
    results: list[Any] | None = Field(None, description="Individual scorer results.")
    reason: str | None = Field(None, description="Judge feedback or stop reason.")
    paused_reason: str | None = Field(None, description="Why the objective is paused.")
    waiting_for_user: bool | None = Field(None, description="Whether the judge awaits the user.")
    judge_failed: bool | None = Field(None, description="Whether the judge itself errored.")
    duration: Number | None = Field(None, description="Duration of the check, in ms.")
    timed_out: bool | None = Field(None, description="Whether scoring timed out.")
    max_runs_reached: bool | None = Field(None, description="Whether the run budget was reached.")
    suppress_feedback: bool | None = Field(
        None, description="Whether the feedback message is suppressed."
    )
    should_continue: bool | None = Field(
        None, description="Whether the run loops into another judged iteration."
    )
    pending: bool | None = Field(None, description="True on the chunk sent before scoring.")
    activity: list[GoalActivity] | None = Field(
        None, description="Judge activity while the evaluation runs."
    )


class _TaskRef(PayloadModel):
    task_id: str = Field(description="Id of the background task.")
    tool_name: str | None = Field(None, description="Name of the tool the task runs.")
    tool_call_id: str | None = Field(None, description="Id of the tool call that started the task.")


class _TaskRunRef(_TaskRef):
    run_id: str | None = Field(None, description="Id of the run the task belongs to.")
    agent_id: str | None = Field(None, description="Id of the agent that started the task.")


class BackgroundTaskStartedPayload(_TaskRef):
    """Payload of `background-task-started`."""


class BackgroundTaskRunningPayload(_TaskRunRef):
    """Payload of `background-task-running`."""

    started_at: Timestamp | None = Field(None, description="When the task started.")
    args: Any = Field(None, description="Arguments of the tool call.")


class BackgroundTaskProgressPayload(PayloadModel):
    """Payload of `background-task-progress`: the agent waits for running tasks."""

    task_ids: list[str] | None = Field(None, description="Ids of the tasks being waited for.")
    running_count: Number | None = Field(None, description="How many tasks are still running.")
    elapsed_ms: Number | None = Field(None, description="Time waited so far, in ms.")


class BackgroundTaskOutputPayload(_TaskRunRef):
    """Payload of `background-task-output`: the task's tool wrote something."""

    payload: NestedChunk | None = Field(None, description="The `tool-output` chunk the tool wrote.")


class BackgroundTaskCompletedPayload(_TaskRunRef):
    """Payload of `background-task-completed`."""

    result: Any = Field(None, description="What the tool returned.")
    completed_at: Timestamp | None = Field(None, description="When the task completed.")
    is_error: bool | None = Field(None, description="Whether the result is an error.")


class BackgroundTaskFailedPayload(_TaskRunRef):
    """Payload of `background-task-failed`."""

    error: JsonDict | None = Field(None, description="The failure, with at least `message`.")
    completed_at: Timestamp | None = Field(None, description="When the task failed.")


class BackgroundTaskSuspendedPayload(_TaskRunRef):
    """Payload of `background-task-suspended`."""

    args: Any = Field(None, description="Arguments of the tool call.")
    suspend_payload: Any = Field(None, description="What the tool passed to `suspend()`.")
    suspended_at: Timestamp | None = Field(None, description="When the task suspended.")


class BackgroundTaskResumedPayload(_TaskRunRef):
    """Payload of `background-task-resumed`."""

    started_at: Timestamp | None = Field(None, description="When the task resumed.")
    args: Any = Field(None, description="Arguments of the tool call.")


class BackgroundTaskCancelledPayload(_TaskRunRef):
    """Payload of `background-task-cancelled`."""

    completed_at: Timestamp | None = Field(None, description="When the task was cancelled.")


class ResponseMetadataChunk(BaseChunk):
    """`response-metadata`: provider response metadata."""

    type: Literal["response-metadata"] = Field(description=_TYPE_DOC)
    payload: ResponseMetadataPayload = Field(description="Provider response metadata.")


class FinishChunk(BaseChunk):
    """`finish`: the run ended."""

    type: Literal["finish"] = Field(description=_TYPE_DOC)
    payload: FinishPayload = Field(description="Finish reason, summed usage and messages.")


class ErrorChunk(BaseChunk):
    """`error`: the run failed."""

    type: Literal["error"] = Field(description=_TYPE_DOC)
    payload: ErrorPayload = Field(description="The error.")


class RawChunk(BaseChunk):
    """`raw`: a provider event passed through unchanged."""

    type: Literal["raw"] = Field(description=_TYPE_DOC)
    payload: Any = Field(None, description="The provider's raw value (any JSON value).")


class StartChunk(BaseChunk):
    """`start`: the run begins (absent when a stream resumes)."""

    type: Literal["start"] = Field(description=_TYPE_DOC)
    payload: StartPayload = Field(description="Agent id and message id.")


class StepStartChunk(BaseChunk):
    """`step-start`: a model call begins."""

    type: Literal["step-start"] = Field(description=_TYPE_DOC)
    payload: StepStartPayload = Field(description="The request.")


class StepFinishChunk(BaseChunk):
    """`step-finish`: a model call ended."""

    type: Literal["step-finish"] = Field(description=_TYPE_DOC)
    payload: StepFinishPayload = Field(description="Finish reason, output and usage of the step.")


class AbortChunk(BaseChunk):
    """`abort`: the run was aborted (a `finish` usually follows)."""

    type: Literal["abort"] = Field(description=_TYPE_DOC)
    payload: AbortPayload = Field(description="Abort details (open record).")


class ObjectChunk(BaseChunk):
    """`object`: the structured output so far (no payload)."""

    type: Literal["object"] = Field(description=_TYPE_DOC)
    object: Any = Field(None, description="The partial structured output.")


class ObjectResultChunk(BaseChunk):
    """`object-result`: the final structured output (no payload)."""

    type: Literal["object-result"] = Field(description=_TYPE_DOC)
    object: Any = Field(None, description="The final structured output.")


class StepOutputChunk(BaseChunk):
    """`step-output`: output of a nested step."""

    type: Literal["step-output"] = Field(description=_TYPE_DOC)
    payload: StepOutputPayload = Field(description="The nested output.")


class WatchChunk(BaseChunk):
    """`watch`: a workflow watch event."""

    type: Literal["watch"] = Field(description=_TYPE_DOC)
    payload: WatchPayload = Field(description="The event (open record).")


class TripwireChunk(BaseChunk):
    """`tripwire`: a processor stopped the run (may end the stream, may lack runId/from)."""

    type: Literal["tripwire"] = Field(description=_TYPE_DOC)
    payload: TripwirePayload = Field(description="Why the tripwire fired.")


class IsTaskCompleteChunk(BaseChunk):
    """`is-task-complete`: scorers judged whether the task is done."""

    type: Literal["is-task-complete"] = Field(description=_TYPE_DOC)
    payload: IsTaskCompletePayload = Field(description="The verdict.")


class GoalChunk(BaseChunk):
    """`goal`: the goal judge's progress or verdict."""

    type: Literal["goal"] = Field(description=_TYPE_DOC)
    payload: GoalPayload = Field(description="The evaluation.")


class BackgroundTaskStartedChunk(BaseChunk):
    """`background-task-started`: a tool call was handed to a background task."""

    type: Literal["background-task-started"] = Field(description=_TYPE_DOC)
    payload: BackgroundTaskStartedPayload = Field(description="The task.")


class BackgroundTaskCompletedChunk(BaseChunk):
    """`background-task-completed`."""

    type: Literal["background-task-completed"] = Field(description=_TYPE_DOC)
    payload: BackgroundTaskCompletedPayload = Field(description="The task and its result.")


class BackgroundTaskFailedChunk(BaseChunk):
    """`background-task-failed`."""

    type: Literal["background-task-failed"] = Field(description=_TYPE_DOC)
    payload: BackgroundTaskFailedPayload = Field(description="The task and its error.")


class BackgroundTaskProgressChunk(BaseChunk):
    """`background-task-progress`: the agent is waiting for tasks."""

    type: Literal["background-task-progress"] = Field(description=_TYPE_DOC)
    payload: BackgroundTaskProgressPayload = Field(description="The wait so far.")


class BackgroundTaskRunningChunk(BaseChunk):
    """`background-task-running`."""

    type: Literal["background-task-running"] = Field(description=_TYPE_DOC)
    payload: BackgroundTaskRunningPayload = Field(description="The running task.")


class BackgroundTaskCancelledChunk(BaseChunk):
    """`background-task-cancelled`."""

    type: Literal["background-task-cancelled"] = Field(description=_TYPE_DOC)
    payload: BackgroundTaskCancelledPayload = Field(description="The cancelled task.")


class BackgroundTaskOutputChunk(BaseChunk):
    """`background-task-output`: a background task's tool wrote something."""

    type: Literal["background-task-output"] = Field(description=_TYPE_DOC)
    payload: BackgroundTaskOutputPayload = Field(description="The task and the written chunk.")


class BackgroundTaskSuspendedChunk(BaseChunk):
    """`background-task-suspended`."""

    type: Literal["background-task-suspended"] = Field(description=_TYPE_DOC)
    payload: BackgroundTaskSuspendedPayload = Field(description="The suspended task.")


class BackgroundTaskResumedChunk(BaseChunk):
    """`background-task-resumed`."""

    type: Literal["background-task-resumed"] = Field(description=_TYPE_DOC)
    payload: BackgroundTaskResumedPayload = Field(description="The resumed task.")
