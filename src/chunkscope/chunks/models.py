"""Pydantic models for Mastra stream chunks, and `parse_chunk`.

The vocabulary is Mastra's `ChunkType` as declared by `@mastra/core` 1.71
(`dist/stream/types.d.ts`): the 46 agent chunk types (`AgentChunkType`), the 11 workflow
events (`WorkflowStreamEvent`), the agent-network chunks (`NetworkChunkType`, including the
`agent-execution-event-*` and `workflow-execution-event-*` wrapper families) and the bare
`data-*` custom chunks (`DataChunkType`).

Rules the models follow:

- Python attributes are the snake_case of Mastra's camelCase keys, which stay the aliases
  (`tool_call_id` ↔ `toolCallId`, `run_id` ↔ `runId`, `from_` ↔ `from`).
- Every model keeps fields it does not know (`extra="allow"`), so nothing a stream sends is
  dropped, and `chunk.model_dump(by_alias=True, exclude_unset=True, mode="json")` gives back
  the JSON the chunk was parsed from.
- Validation is strict (no `"3"` → `3`, no `1` → `True`): a coerced value would not round-trip.
- A field the declarations type as `unknown`/`any` is `Any`, and optional even when the
  declaration makes it required, because `JSON.stringify` drops `undefined`.
- Values that are user data (tool arguments, step outputs, results) are `Any`; structural
  records (`metadata`, `messages`, provider metadata) are `dict[str, Any]`.

`parse_chunk` turns anything into a chunk and never raises: an unknown `type` gives
`UnknownChunk` (kept whole), a known type with bad fields or input that is not a JSON object
gives `InvalidChunk` (kept whole, with a message naming the failing fields).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, TypeAlias, cast, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    PlainValidator,
    SerializeAsAny,
    StringConstraints,
    ValidationError,
    ValidationInfo,
)
from pydantic.alias_generators import to_camel
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

__all__ = [
    "AGENT_CHUNK_TYPES",
    "CHUNK_CLASSES",
    "NETWORK_CHUNK_TYPES",
    "WORKFLOW_CHUNK_TYPES",
    "AbortChunk",
    "AgentExecutionAbortChunk",
    "AgentExecutionAbortPayload",
    "AgentExecutionApprovalChunk",
    "AgentExecutionApprovalPayload",
    "AgentExecutionEndChunk",
    "AgentExecutionEndPayload",
    "AgentExecutionEventChunk",
    "AgentExecutionStartChunk",
    "AgentExecutionStartPayload",
    "AgentExecutionSuspendedChunk",
    "AgentExecutionSuspendedPayload",
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
    "BaseChunk",
    "Chunk",
    "ChunkFamily",
    "ChunkFrom",
    "CustomChunk",
    "CustomPayload",
    "DataChunk",
    "ErrorChunk",
    "ErrorPayload",
    "FileChunk",
    "FilePayload",
    "FinishChunk",
    "FinishPayload",
    "GoalActivity",
    "GoalChunk",
    "GoalPayload",
    "InvalidChunk",
    "IsTaskCompleteChunk",
    "IsTaskCompletePayload",
    "NetworkExecutionEventFinishChunk",
    "NetworkExecutionEventFinishPayload",
    "NetworkExecutionEventStepFinishChunk",
    "NetworkExecutionEventStepFinishPayload",
    "NetworkObjectChunk",
    "NetworkObjectPayload",
    "NetworkObjectResultChunk",
    "NetworkObjectResultPayload",
    "NetworkValidationEndChunk",
    "NetworkValidationEndPayload",
    "NetworkValidationStartChunk",
    "NetworkValidationStartPayload",
    "ObjectChunk",
    "ObjectResultChunk",
    "OutputSummary",
    "PayloadModel",
    "RawChunk",
    "ReasoningDeltaChunk",
    "ReasoningDeltaPayload",
    "ReasoningEndChunk",
    "ReasoningEndPayload",
    "ReasoningFileChunk",
    "ReasoningFilePayload",
    "ReasoningSignatureChunk",
    "ReasoningSignaturePayload",
    "ReasoningStartChunk",
    "ReasoningStartPayload",
    "RedactedReasoningChunk",
    "RedactedReasoningPayload",
    "ResponseMetadataChunk",
    "ResponseMetadataPayload",
    "RoutingAgentAbortChunk",
    "RoutingAgentAbortPayload",
    "RoutingAgentEndChunk",
    "RoutingAgentEndPayload",
    "RoutingAgentStartChunk",
    "RoutingAgentStartPayload",
    "RoutingAgentTextDeltaChunk",
    "RoutingAgentTextDeltaPayload",
    "RoutingAgentTextStartChunk",
    "RoutingAgentTextStartPayload",
    "SourceChunk",
    "SourcePayload",
    "StartChunk",
    "StartPayload",
    "StepFinishChunk",
    "StepFinishPayload",
    "StepOutputChunk",
    "StepOutputPayload",
    "StepResultInfo",
    "StepStartChunk",
    "StepStartPayload",
    "TextDeltaChunk",
    "TextDeltaPayload",
    "TextEndChunk",
    "TextEndPayload",
    "TextStartChunk",
    "TextStartPayload",
    "ToolApproval",
    "ToolCallApprovalChunk",
    "ToolCallApprovalPayload",
    "ToolCallChunk",
    "ToolCallDeltaChunk",
    "ToolCallDeltaPayload",
    "ToolCallInputStreamingEndChunk",
    "ToolCallInputStreamingEndPayload",
    "ToolCallInputStreamingStartChunk",
    "ToolCallInputStreamingStartPayload",
    "ToolCallPayload",
    "ToolCallSuspendedChunk",
    "ToolCallSuspendedPayload",
    "ToolErrorChunk",
    "ToolErrorPayload",
    "ToolExecutionAbortChunk",
    "ToolExecutionAbortPayload",
    "ToolExecutionApprovalChunk",
    "ToolExecutionApprovalPayload",
    "ToolExecutionEndChunk",
    "ToolExecutionEndPayload",
    "ToolExecutionStartChunk",
    "ToolExecutionStartPayload",
    "ToolExecutionSuspendedChunk",
    "ToolExecutionSuspendedPayload",
    "ToolOutputChunk",
    "ToolOutputDeniedChunk",
    "ToolOutputDeniedPayload",
    "ToolOutputPayload",
    "ToolResultChunk",
    "ToolResultPayload",
    "TripwireChunk",
    "TripwirePayload",
    "UnknownChunk",
    "Usage",
    "WatchChunk",
    "WatchPayload",
    "WorkflowCanceledChunk",
    "WorkflowCanceledPayload",
    "WorkflowExecutionAbortChunk",
    "WorkflowExecutionAbortPayload",
    "WorkflowExecutionEndChunk",
    "WorkflowExecutionEndPayload",
    "WorkflowExecutionEventChunk",
    "WorkflowExecutionStartChunk",
    "WorkflowExecutionStartPayload",
    "WorkflowExecutionSuspendedChunk",
    "WorkflowExecutionSuspendedPayload",
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
    "chunk_family",
    "is_transient",
    "parse_chunk",
]

ChunkFrom = Literal["AGENT", "USER", "SYSTEM", "WORKFLOW", "NETWORK"]
"""Where a chunk came from (Mastra's `ChunkFrom` enum): AGENT (the model loop), USER (a tool's or
step's `writer.write()`), SYSTEM, WORKFLOW (a workflow run), NETWORK (an agent network)."""

ChunkFamily = Literal[
    "text",
    "reasoning",
    "tools",
    "control",
    "workflow",
    "background",
    "data",
    "network",
    "errors",
    "other",
]
"""The coarse group a chunk type belongs to (see `chunk_family`)."""


# ---------------------------------------------------------------------------
# Value types shared by many fields
# ---------------------------------------------------------------------------


class _OneOf:
    """A strict union that reports one plain error instead of one error per member."""

    def __init__(self, error_type: str, message: str, *members: CoreSchema) -> None:
        self.error_type = error_type
        self.message = message
        self.members = members

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.union_schema(
            list(self.members),
            custom_error_type=self.error_type,
            custom_error_message=self.message,
        )


# A JavaScript number: int stays int and float stays float, so both round-trip unchanged.
Number = Annotated[
    int | float,
    _OneOf(
        "number_type",
        "Input should be a number",
        core_schema.int_schema(strict=True),
        core_schema.float_schema(strict=True),
    ),
]

# A JavaScript `Date` after `JSON.stringify` (ISO string), or an epoch number.
Timestamp = Annotated[
    str | int | float,
    _OneOf(
        "timestamp_type",
        "Input should be an ISO date string or a number",
        core_schema.str_schema(strict=True),
        core_schema.int_schema(strict=True),
        core_schema.float_schema(strict=True),
    ),
]

# `string | Uint8Array`: a base64 string or URL, or a byte array as JSON gives it back
# (`{"0": 137, "1": 80, ...}` from a typed array, or a plain list of numbers).
FileData = Annotated[
    str | dict[str, Any] | list[Any],
    _OneOf(
        "file_data_type",
        "Input should be a string or a serialised byte array",
        core_schema.str_schema(strict=True),
        core_schema.dict_schema(core_schema.str_schema(strict=True), core_schema.any_schema()),
        core_schema.list_schema(core_schema.any_schema()),
    ),
]

JsonDict = dict[str, Any]

_CONFIG = ConfigDict(
    extra="allow",
    populate_by_name=True,
    strict=True,
    alias_generator=to_camel,
    # Bytes are not JSON: dumped as (URL-safe) base64, so binary that is not UTF-8 is kept
    # rather than failing the dump, as the adapters do with bytes.
    ser_json_bytes="base64",
    # Build each validator on first use: importing stays fast, and a stream only pays for
    # the types it actually sends.
    defer_build=True,
)

_TYPE_DOC = "The chunk type, Mastra's discriminator."
_PM_DOC = "Provider-specific metadata, keyed by provider name."


# ---------------------------------------------------------------------------
# Base classes
# ---------------------------------------------------------------------------


class PayloadModel(BaseModel):
    """Base of every payload and nested record: camelCase aliases, unknown keys kept."""

    model_config = _CONFIG


class BaseChunk(BaseModel):
    """Fields every Mastra chunk may carry; known types narrow `type` and add `payload`."""

    model_config = _CONFIG

    type: str = Field(description=_TYPE_DOC)
    run_id: str | None = Field(
        None,
        description="Id of the run that emitted the chunk. Absent on `data-*` chunks and on "
        "some `background-task-*` and output-processor `tripwire` chunks.",
    )
    from_: str | None = Field(
        None,
        alias="from",
        description="Origin of the chunk; Mastra's five values are AGENT, USER, SYSTEM, WORKFLOW "
        "and NETWORK (see `ChunkFrom`). Any other string is kept as sent.",
    )
    metadata: JsonDict | None = Field(None, description="Free-form metadata attached by Mastra.")


def _validate_nested(value: Any, info: ValidationInfo) -> BaseChunk:
    """Parse a chunk carried inside another chunk's payload, with a nesting limit."""
    if isinstance(value, BaseChunk):
        return value
    context = info.context
    depth = context.get("depth", 0) if isinstance(context, dict) else 0
    if depth >= _MAX_NESTING:
        raise PydanticCustomError(
            "chunk_nesting",
            "chunks nested more than {limit} levels deep",
            {"limit": _MAX_NESTING},
        )
    if isinstance(value, dict):
        parsed = _parse_dict(value, depth + 1)
    else:
        parsed = InvalidChunk(
            type=None, error=f"expected a chunk object, got {_json_kind(value)}", raw=value
        )
    if isinstance(parsed, InvalidChunk):
        raise PydanticCustomError(
            "invalid_nested_chunk", "{detail}", {"detail": parsed.error, "issues": parsed.issues}
        )
    return parsed


_MAX_NESTING = 32

NestedChunk = Annotated[SerializeAsAny[BaseChunk], PlainValidator(_validate_nested)]
"""A whole chunk inside another chunk's payload, parsed like `parse_chunk` does."""


# ---------------------------------------------------------------------------
# Shared nested records
# ---------------------------------------------------------------------------


class Usage(PayloadModel):
    """Token usage (`LanguageModelUsage`); every count may be missing."""

    input_tokens: Number | None = Field(None, description="Prompt tokens.")
    output_tokens: Number | None = Field(None, description="Generated tokens.")
    total_tokens: Number | None = Field(None, description="Prompt plus generated tokens.")
    reasoning_tokens: Number | None = Field(None, description="Tokens spent on reasoning.")
    cached_input_tokens: Number | None = Field(
        None, description="Prompt tokens served from the provider's cache."
    )
    cache_creation_input_tokens: Number | None = Field(
        None, description="Prompt tokens written to the provider's cache."
    )
    cache_creation_input_tokens_5m: Number | None = Field(
        None,
        alias="cacheCreationInputTokens5m",
        description="Prompt tokens written to a 5-minute cache.",
    )
    cache_creation_input_tokens_1h: Number | None = Field(
        None,
        alias="cacheCreationInputTokens1h",
        description="Prompt tokens written to a 1-hour cache.",
    )
    raw: Any = Field(None, description="The provider's own usage record, unchanged.")


class StepResultInfo(PayloadModel):
    """How a model step ended (`stepResult` of `step-finish` and `finish`)."""

    reason: str = Field(
        description="Finish reason: stop, length, content-filter, tool-calls, error, other, "
        "unknown, or Mastra's tripwire / retry."
    )
    raw_reason: str | None = Field(None, description="The provider's own finish reason.")
    warnings: list[Any] | None = Field(None, description="Provider call warnings.")
    is_continued: bool | None = Field(None, description="Whether another step follows.")
    logprobs: Any = Field(None, description="Token log-probabilities, when requested.")


class OutputSummary(PayloadModel):
    """What a step or run produced (`output` of `step-finish`, `finish`, `workflow-finish`)."""

    usage: Usage = Field(description="Token usage (summed over steps on `finish`).")
    text: str | None = Field(None, description="Text of the step (on `step-finish`).")
    tool_calls: list[Any] | None = Field(None, description="Tool calls made in the step.")
    steps: list[Any] | None = Field(None, description="Per-step results so far.")
    object: Any = Field(None, description="Structured output object, when one was requested.")


class ToolApproval(PayloadModel):
    """The decision recorded on a declined tool call."""

    id: str = Field(description="Id of the approval request.")
    approved: bool = Field(description="Always false on `tool-output-denied`.")
    reason: str | None = Field(None, description="Why the call was declined.")


class GoalActivity(PayloadModel):
    """One thing the goal judge did while evaluating."""

    type: str = Field(description="tool-call, tool-result or reason.")
    name: str | None = Field(None, description="Tool name, for tool activity.")
    message: str = Field(description="Human-readable description of the activity.")


# ---------------------------------------------------------------------------
# Payloads: text and reasoning
# ---------------------------------------------------------------------------


class _PartPayload(PayloadModel):
    id: str = Field(description="Id of the text or reasoning part the chunk belongs to.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)


class TextStartPayload(_PartPayload):
    """Payload of `text-start`."""


class TextDeltaPayload(_PartPayload):
    """Payload of `text-delta`."""

    text: str = Field(description="The new piece of text.")


class TextEndPayload(_PartPayload):
    """Payload of `text-end`."""


class ReasoningStartPayload(_PartPayload):
    """Payload of `reasoning-start`."""

    signature: str | None = Field(None, description="Reasoning signature, when available.")


class ReasoningDeltaPayload(_PartPayload):
    """Payload of `reasoning-delta`."""

    text: str = Field(description="The new piece of reasoning text.")


class ReasoningEndPayload(_PartPayload):
    """Payload of `reasoning-end`."""

    signature: str | None = Field(None, description="Final reasoning signature, when available.")


class ReasoningSignaturePayload(_PartPayload):
    """Payload of `reasoning-signature`."""

    signature: str = Field(description="Signature describing the reasoning (e.g. effort).")


class RedactedReasoningPayload(_PartPayload):
    """Payload of `redacted-reasoning`."""

    data: Any = Field(None, description="The provider's opaque redacted reasoning data.")


class ReasoningFilePayload(PayloadModel):
    """Payload of `reasoning-file`."""

    data: FileData = Field(description="File content: base64 string, URL, or byte array.")
    base64: str | None = Field(None, description="File content as base64, when it is one.")
    mime_type: str = Field(description="IANA media type of the file.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)


class SourcePayload(PayloadModel):
    """Payload of `source`: a cited URL or document."""

    id: str = Field(description="Id of the source.")
    source_type: str = Field(description="`url` or `document`.")
    title: str = Field(description="Title of the source (may be empty).")
    mime_type: str | None = Field(None, description="Media type, for documents.")
    filename: str | None = Field(None, description="File name, for documents.")
    url: str | None = Field(None, description="Address, for URL sources.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)


class FilePayload(PayloadModel):
    """Payload of `file`: a file the model generated."""

    data: FileData = Field(description="File content: base64 string, URL, or byte array.")
    base64: str | None = Field(None, description="File content as base64, when it is one.")
    mime_type: str = Field(description="IANA media type of the file.")
    filename: str | None = Field(None, description="File name, when known.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)


class CustomPayload(PayloadModel):
    """Payload of `custom`: provider content Mastra has no dedicated chunk for."""

    kind: str = Field(description="Kind of content, as `{provider}.{provider-type}`.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)


# ---------------------------------------------------------------------------
# Payloads: tools
# ---------------------------------------------------------------------------


class _ToolRef(PayloadModel):
    tool_call_id: str = Field(description="Id of the tool call.")
    tool_name: str = Field(description="Name of the tool.")


class ToolCallPayload(_ToolRef):
    """Payload of `tool-call`: the model called a tool with complete arguments."""

    args: Any = Field(None, description="Arguments of the call (usually an object).")
    provider_executed: bool | None = Field(
        None, description="Whether the provider runs the tool itself."
    )
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)
    output: Any = Field(None, description="Tool output, when already known.")
    dynamic: bool | None = Field(None, description="Whether the tool was added at run time.")
    title: str | None = Field(None, description="Display title of the tool.")
    observability: JsonDict | None = Field(
        None, description="Trace context carrier for client-side tool execution."
    )


class ToolCallInputStreamingStartPayload(_ToolRef):
    """Payload of `tool-call-input-streaming-start`: arguments start to stream."""

    provider_executed: bool | None = Field(
        None, description="Whether the provider runs the tool itself."
    )
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)
    dynamic: bool | None = Field(None, description="Whether the tool was added at run time.")
    title: str | None = Field(None, description="Display title of the tool.")
    observability: JsonDict | None = Field(
        None, description="Trace context carrier for client-side tool execution."
    )


class ToolCallDeltaPayload(PayloadModel):
    """Payload of `tool-call-delta`: a piece of the streamed JSON arguments."""

    args_text_delta: str = Field(description="The next piece of the arguments' JSON text.")
    tool_call_id: str = Field(description="Id of the tool call.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)
    tool_name: str | None = Field(None, description="Name of the tool, when sent.")


class ToolCallInputStreamingEndPayload(PayloadModel):
    """Payload of `tool-call-input-streaming-end`: the arguments are complete."""

    tool_call_id: str = Field(description="Id of the tool call.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)


class ToolResultPayload(_ToolRef):
    """Payload of `tool-result`."""

    result: Any = Field(None, description="What the tool returned (absent when undefined).")
    is_error: bool | None = Field(None, description="Whether the result is an error.")
    provider_executed: bool | None = Field(
        None, description="Whether the provider ran the tool itself."
    )
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)
    args: Any = Field(None, description="Arguments the tool was called with.")
    dynamic: bool | None = Field(None, description="Whether the tool was added at run time.")


class ToolErrorPayload(_ToolRef):
    """Payload of `tool-error`: the tool threw."""

    id: str | None = Field(None, description="Id of the chunk, when set.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)
    args: JsonDict | None = Field(None, description="Arguments the tool was called with.")
    error: Any = Field(None, description="The error (often `{message, name, stack}`).")
    provider_executed: bool | None = Field(
        None, description="Whether the provider ran the tool itself."
    )


class ToolCallApprovalPayload(_ToolRef):
    """Payload of `tool-call-approval`: the call waits for the user's approval."""

    args: JsonDict = Field(description="Arguments of the call awaiting approval.")
    resume_schema: str = Field(description="JSON schema (as text) of the resume data.")


class ToolCallSuspendedPayload(_ToolRef):
    """Payload of `tool-call-suspended`: the tool suspended itself."""

    suspend_payload: Any = Field(None, description="What the tool passed to `suspend()`.")
    args: JsonDict = Field(description="Arguments of the suspended call.")
    resume_schema: str = Field(description="JSON schema (as text) of the resume data.")


class ToolOutputDeniedPayload(_ToolRef):
    """Payload of `tool-output-denied`: the user declined a call that needed approval."""

    args: JsonDict | None = Field(None, description="Arguments of the declined call.")
    approval: ToolApproval = Field(description="The declined approval.")


class ToolOutputPayload(PayloadModel):
    """Payload of `tool-output`: something a tool wrote with `writer.write()` while running.

    The output may be a whole chunk of a nested agent or workflow run."""

    output: Any = Field(None, description="What the tool wrote.")
    tool_call_id: str = Field(description="Id of the tool call that wrote it.")
    tool_name: str | None = Field(None, description="Name of the tool that wrote it.")


# ---------------------------------------------------------------------------
# Payloads: run and step control
# ---------------------------------------------------------------------------


class StartPayload(PayloadModel):
    """Payload of `start` (open record; Mastra sends the agent `id` and `messageId`)."""


class StepStartPayload(PayloadModel):
    """Payload of `step-start`: a model call begins."""

    message_id: str | None = Field(None, description="Id of the response message.")
    started_at: Number | None = Field(
        None, description="Epoch ms just before the provider call; absent without one."
    )
    request: JsonDict = Field(description="The request sent to the provider (`body`, ...).")
    input_messages: list[Any] | None = Field(None, description="Prompt sent to the model.")
    warnings: list[Any] | None = Field(None, description="Provider call warnings.")


class StepFinishPayload(PayloadModel):
    """Payload of `step-finish`: a model call ended."""

    id: str | None = Field(None, description="Id of the step.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)
    total_usage: Usage | None = Field(None, description="Usage summed over the run so far.")
    response: JsonDict | None = Field(None, description="Provider response metadata.")
    message_id: str | None = Field(None, description="Id of the response message.")
    step_result: StepResultInfo = Field(description="How the step ended.")
    output: OutputSummary = Field(description="What the step produced, with its usage.")
    metadata: JsonDict = Field(description="Request and provider metadata of the step.")
    messages: JsonDict | None = Field(None, description="Messages: `all`, `user`, `nonUser`.")


class StepOutputPayload(PayloadModel):
    """Payload of `step-output`: output of a nested step, often a whole chunk."""

    output: Any = Field(description="The nested chunk or value.")


class FinishPayload(PayloadModel):
    """Payload of `finish`: the run ended."""

    step_result: StepResultInfo = Field(description="How the last step ended.")
    output: OutputSummary = Field(description="Run output; `usage` is summed over steps.")
    metadata: JsonDict = Field(description="Request and provider metadata.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)
    messages: JsonDict = Field(description="Messages: `all`, `user`, `nonUser`.")
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

    reason: str = Field(description="Why the tripwire fired.")
    retry: bool | None = Field(None, description="Whether the agent retries with the reason.")
    metadata: Any = Field(None, description="Processor-defined metadata.")
    processor_id: str | None = Field(None, description="Id of the processor that fired.")


class IsTaskCompletePayload(PayloadModel):
    """Payload of `is-task-complete`: scorers judged whether the task is done."""

    iteration: Number = Field(description="Current iteration number.")
    passed: bool = Field(description="Whether the scorers passed under the strategy.")
    results: list[Any] = Field(description="Individual scorer results.")
    duration: Number = Field(description="Duration of all checks, in ms.")
    timed_out: bool = Field(description="Whether scoring timed out.")
    reason: str | None = Field(None, description="Reason given by the relevant scorer.")
    max_iteration_reached: bool = Field(description="Whether the iteration limit was reached.")
    suppress_feedback: bool = Field(description="Whether the feedback message is suppressed.")


class GoalPayload(PayloadModel):
    """Payload of `goal`: the in-loop goal judge's progress or verdict."""

    objective: str = Field(description="The objective being judged.")
    iteration: Number = Field(description="Goal evaluations consumed so far.")
    max_runs: Number = Field(description="Evaluations allowed before the goal stops.")
    passed: bool = Field(description="Whether the goal is judged complete.")
    status: str = Field(description="Objective status: active, paused or done.")
    results: list[Any] = Field(description="Individual scorer results.")
    reason: str | None = Field(None, description="Judge feedback or stop reason.")
    paused_reason: str | None = Field(None, description="Why the objective is paused.")
    waiting_for_user: bool | None = Field(None, description="Whether the judge awaits the user.")
    judge_failed: bool | None = Field(None, description="Whether the judge itself errored.")
    duration: Number = Field(description="Duration of the check, in ms.")
    timed_out: bool = Field(description="Whether scoring timed out.")
    max_runs_reached: bool = Field(description="Whether the run budget was reached.")
    suppress_feedback: bool = Field(description="Whether the feedback message is suppressed.")
    should_continue: bool | None = Field(
        None, description="Whether the run loops into another judged iteration."
    )
    pending: bool | None = Field(None, description="True on the chunk sent before scoring.")
    activity: list[GoalActivity] | None = Field(
        None, description="Judge activity while the evaluation runs."
    )


# ---------------------------------------------------------------------------
# Payloads: background tasks
# ---------------------------------------------------------------------------


class _TaskRef(PayloadModel):
    task_id: str = Field(description="Id of the background task.")
    tool_name: str = Field(description="Name of the tool the task runs.")
    tool_call_id: str = Field(description="Id of the tool call that started the task.")


class _TaskRunRef(_TaskRef):
    run_id: str = Field(description="Id of the run the task belongs to.")
    agent_id: str = Field(description="Id of the agent that started the task.")


class BackgroundTaskStartedPayload(_TaskRef):
    """Payload of `background-task-started`."""


class BackgroundTaskRunningPayload(_TaskRunRef):
    """Payload of `background-task-running`."""

    started_at: Timestamp = Field(description="When the task started.")
    args: JsonDict = Field(description="Arguments of the tool call.")


class BackgroundTaskProgressPayload(PayloadModel):
    """Payload of `background-task-progress`: the agent waits for running tasks."""

    task_ids: list[str] = Field(description="Ids of the tasks being waited for.")
    running_count: Number = Field(description="How many tasks are still running.")
    elapsed_ms: Number = Field(description="Time waited so far, in ms.")


class BackgroundTaskOutputPayload(_TaskRunRef):
    """Payload of `background-task-output`: the task's tool wrote something."""

    payload: NestedChunk = Field(description="The `tool-output` chunk the tool wrote.")


class BackgroundTaskCompletedPayload(_TaskRunRef):
    """Payload of `background-task-completed`."""

    result: Any = Field(None, description="What the tool returned.")
    completed_at: Timestamp = Field(description="When the task completed.")
    is_error: bool | None = Field(None, description="Whether the result is an error.")


class BackgroundTaskFailedPayload(_TaskRunRef):
    """Payload of `background-task-failed`."""

    error: JsonDict = Field(description="The failure, with at least `message`.")
    completed_at: Timestamp = Field(description="When the task failed.")


class BackgroundTaskSuspendedPayload(_TaskRunRef):
    """Payload of `background-task-suspended`."""

    args: JsonDict = Field(description="Arguments of the tool call.")
    suspend_payload: Any = Field(None, description="What the tool passed to `suspend()`.")
    suspended_at: Timestamp | None = Field(None, description="When the task suspended.")


class BackgroundTaskResumedPayload(_TaskRunRef):
    """Payload of `background-task-resumed`."""

    started_at: Timestamp = Field(description="When the task resumed.")
    args: JsonDict = Field(description="Arguments of the tool call.")


class BackgroundTaskCancelledPayload(_TaskRunRef):
    """Payload of `background-task-cancelled`."""

    completed_at: Timestamp = Field(description="When the task was cancelled.")


# ---------------------------------------------------------------------------
# Payloads: workflow events
# ---------------------------------------------------------------------------


class WorkflowStartPayload(PayloadModel):
    """Payload of `workflow-start`."""

    workflow_id: str = Field(description="Id of the workflow.")


class WorkflowFinishPayload(PayloadModel):
    """Payload of `workflow-finish`."""

    workflow_status: str = Field(
        description="Run status: success, failed, suspended, canceled, paused, tripwire, ..."
    )
    final_workflow_result: Any = Field(None, description="The workflow's result, when sent.")
    output: OutputSummary = Field(description="Run output with its token usage.")
    metadata: JsonDict = Field(description="Run metadata.")


class WorkflowCanceledPayload(PayloadModel):
    """Payload of `workflow-canceled` (empty)."""


class WorkflowPausedPayload(PayloadModel):
    """Payload of `workflow-paused` (empty)."""


class _StepRef(PayloadModel):
    id: str = Field(description="Id of the step; dotted for steps of nested workflows.")


class _StepState(_StepRef):
    status: str = Field(
        description="Step status: running, success, failed, suspended, waiting, paused, ..."
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

    metadata: JsonDict = Field(description="Step metadata.")


class WorkflowStepSuspendedPayload(_StepState):
    """Payload of `workflow-step-suspended`."""


class WorkflowStepWaitingPayload(_StepRef):
    """Payload of `workflow-step-waiting`."""

    payload: Any = Field(description="Input of the waiting step.")
    started_at: Number = Field(description="Epoch ms at which the step started.")
    status: str = Field(description="Step status (waiting).")


class WorkflowStepOutputPayload(StepOutputPayload):
    """Payload of `workflow-step-output`: a step's `writer.write()`, often a whole chunk."""


class WorkflowStepProgressPayload(_StepRef):
    """Payload of `workflow-step-progress`: one iteration of a `foreach` step finished."""

    completed_count: Number = Field(description="Iterations completed so far.")
    total_count: Number = Field(description="Total number of iterations.")
    current_index: Number = Field(description="Index of the iteration that just finished.")
    iteration_status: str = Field(description="success, failed or suspended.")
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


# ---------------------------------------------------------------------------
# Payloads: agent networks
# ---------------------------------------------------------------------------


class _Routing(PayloadModel):
    task: str = Field(description="The task the network works on.")
    primitive_id: str = Field(description="Id of the selected agent, workflow or tool.")
    primitive_type: str = Field(description="agent, workflow, tool or none.")


class _Iteration(PayloadModel):
    is_complete: bool = Field(description="Whether the task is complete.")
    iteration: Number = Field(description="Network iteration number.")


class _Abort(PayloadModel):
    primitive_type: str = Field(description="routing, agent, workflow or tool.")
    primitive_id: str = Field(description="Id of the aborted primitive.")


class RoutingAgentStartPayload(PayloadModel):
    """Payload of `routing-agent-start`."""

    agent_id: str = Field(description="Id of the routing agent.")
    network_id: str = Field(description="Id of the network.")
    run_id: str = Field(description="Id of the routing run.")
    input_data: JsonDict = Field(description="Routing input: task, primitive, iteration, ...")


class RoutingAgentTextStartPayload(PayloadModel):
    """Payload of `routing-agent-text-start`."""

    run_id: str = Field(description="Id of the routing run.")


class RoutingAgentTextDeltaPayload(PayloadModel):
    """Payload of `routing-agent-text-delta`."""

    text: str = Field(description="The new piece of routing text.")


class RoutingAgentEndPayload(_Routing):
    """Payload of `routing-agent-end`: the router chose the next primitive."""

    prompt: str = Field(description="Prompt for the selected primitive.")
    result: str = Field(description="Result text of the routing step.")
    is_complete: bool | None = Field(None, description="Whether the task is complete.")
    selection_reason: str = Field(description="Why the primitive was selected.")
    iteration: Number = Field(description="Network iteration number.")
    run_id: str = Field(description="Id of the routing run.")
    usage: Usage = Field(description="Token usage of the routing step.")


class RoutingAgentAbortPayload(_Abort):
    """Payload of `routing-agent-abort`."""


class AgentExecutionStartPayload(PayloadModel):
    """Payload of `agent-execution-start`."""

    agent_id: str = Field(description="Id of the agent being run.")
    args: JsonDict = Field(description="Routing decision the agent runs with.")
    run_id: str = Field(description="Id of the agent's run.")


class AgentExecutionApprovalPayload(ToolCallApprovalPayload):
    """Payload of `agent-execution-approval`: a sub-agent's tool call awaits approval."""

    agent_id: str = Field(description="Id of the agent.")
    usage: Usage = Field(description="Token usage so far.")
    run_id: str = Field(description="Id of the agent's run.")
    selection_reason: str = Field(description="Why the agent was selected.")


class AgentExecutionSuspendedPayload(ToolCallSuspendedPayload):
    """Payload of `agent-execution-suspended`."""

    agent_id: str = Field(description="Id of the agent.")
    usage: Usage = Field(description="Token usage so far.")
    run_id: str = Field(description="Id of the agent's run.")
    selection_reason: str = Field(description="Why the agent was selected.")


class AgentExecutionEndPayload(_Iteration):
    """Payload of `agent-execution-end`."""

    task: str = Field(description="The task the network works on.")
    agent_id: str = Field(description="Id of the agent.")
    result: str = Field(description="The agent's result text.")
    usage: Usage = Field(description="Token usage of the agent run.")
    run_id: str = Field(description="Id of the agent's run.")


class AgentExecutionAbortPayload(_Abort):
    """Payload of `agent-execution-abort`."""


class WorkflowExecutionStartPayload(PayloadModel):
    """Payload of `workflow-execution-start`."""

    name: str = Field(description="Name of the workflow.")
    workflow_id: str = Field(description="Id of the workflow.")
    args: JsonDict = Field(description="Routing decision the workflow runs with.")
    run_id: str = Field(description="Id of the workflow run.")


class WorkflowExecutionEndPayload(_Routing, _Iteration):
    """Payload of `workflow-execution-end`."""

    name: str = Field(description="Name of the workflow.")
    workflow_id: str = Field(description="Id of the workflow.")
    result: str = Field(description="The workflow's result text.")
    usage: Usage = Field(description="Token usage of the workflow run.")
    run_id: str = Field(description="Id of the workflow run.")


class WorkflowExecutionSuspendedPayload(ToolCallSuspendedPayload):
    """Payload of `workflow-execution-suspended`."""

    name: str = Field(description="Name of the workflow.")
    workflow_id: str = Field(description="Id of the workflow.")
    usage: Usage = Field(description="Token usage so far.")
    run_id: str = Field(description="Id of the workflow run.")
    selection_reason: str = Field(description="Why the workflow was selected.")


class WorkflowExecutionAbortPayload(_Abort):
    """Payload of `workflow-execution-abort`."""


class ToolExecutionStartPayload(PayloadModel):
    """Payload of `tool-execution-start`."""

    args: JsonDict = Field(description="The call: toolName, toolCallId, args, selectionReason.")
    run_id: str = Field(description="Id of the network run.")


class ToolExecutionEndPayload(_Routing, _Iteration):
    """Payload of `tool-execution-end`."""

    result: Any = Field(None, description="What the tool returned.")
    tool_call_id: str = Field(description="Id of the tool call.")
    tool_name: str = Field(description="Name of the tool.")


class ToolExecutionApprovalPayload(ToolCallApprovalPayload):
    """Payload of `tool-execution-approval`."""

    selection_reason: str = Field(description="Why the tool was selected.")
    run_id: str = Field(description="Id of the network run.")


class ToolExecutionSuspendedPayload(ToolCallSuspendedPayload):
    """Payload of `tool-execution-suspended`."""

    selection_reason: str = Field(description="Why the tool was selected.")
    run_id: str = Field(description="Id of the network run.")


class ToolExecutionAbortPayload(_Abort):
    """Payload of `tool-execution-abort`."""


class NetworkExecutionEventStepFinishPayload(_Iteration):
    """Payload of `network-execution-event-step-finish`."""

    task: str = Field(description="The task the network works on.")
    result: str = Field(description="Result text of the step.")
    run_id: str = Field(description="Id of the network run.")


class NetworkExecutionEventFinishPayload(_Routing):
    """Payload of `network-execution-event-finish`: the network run ended."""

    prompt: str | None = Field(
        None, description="Last prompt. Declared required, but real streams omit it."
    )
    result: str = Field(description="Final result text.")
    object: Any = Field(None, description="Structured output, when requested.")
    is_complete: bool | None = Field(None, description="Whether the task is complete.")
    completion_reason: str = Field(description="Why the network stopped.")
    iteration: Number = Field(description="Last iteration number.")
    thread_id: str | None = Field(None, description="Memory thread id.")
    thread_resource_id: str | None = Field(None, description="Memory resource id.")
    is_one_off: bool = Field(description="Whether the run was a one-off.")
    usage: Usage = Field(description="Token usage of the network run.")


class NetworkValidationStartPayload(PayloadModel):
    """Payload of `network-validation-start`."""

    run_id: str = Field(description="Id of the network run.")
    iteration: Number = Field(description="Network iteration number.")
    checks_count: Number = Field(description="Number of checks to run.")


class NetworkValidationEndPayload(IsTaskCompletePayload):
    """Payload of `network-validation-end`."""

    run_id: str = Field(description="Id of the network run.")


class NetworkObjectPayload(PayloadModel):
    """Payload of `network-object`."""

    object: Any = Field(None, description="The partial structured output.")


class NetworkObjectResultPayload(PayloadModel):
    """Payload of `network-object-result`."""

    object: Any = Field(None, description="The final structured output.")


# ---------------------------------------------------------------------------
# Chunks: agent (AgentChunkType)
# ---------------------------------------------------------------------------


class ResponseMetadataChunk(BaseChunk):
    """`response-metadata`: provider response metadata."""

    type: Literal["response-metadata"] = Field(description=_TYPE_DOC)
    payload: ResponseMetadataPayload = Field(description="Provider response metadata.")


class TextStartChunk(BaseChunk):
    """`text-start`: a text part begins."""

    type: Literal["text-start"] = Field(description=_TYPE_DOC)
    payload: TextStartPayload = Field(description="Id of the text part.")


class TextDeltaChunk(BaseChunk):
    """`text-delta`: a piece of generated text."""

    type: Literal["text-delta"] = Field(description=_TYPE_DOC)
    payload: TextDeltaPayload = Field(description="The text piece and its part id.")


class TextEndChunk(BaseChunk):
    """`text-end`: a text part ends."""

    type: Literal["text-end"] = Field(description=_TYPE_DOC)
    payload: TextEndPayload = Field(description="Id of the text part.")


class ReasoningStartChunk(BaseChunk):
    """`reasoning-start`: a reasoning part begins."""

    type: Literal["reasoning-start"] = Field(description=_TYPE_DOC)
    payload: ReasoningStartPayload = Field(description="Id of the reasoning part.")


class ReasoningDeltaChunk(BaseChunk):
    """`reasoning-delta`: a piece of reasoning text."""

    type: Literal["reasoning-delta"] = Field(description=_TYPE_DOC)
    payload: ReasoningDeltaPayload = Field(description="The reasoning piece and its part id.")


class ReasoningEndChunk(BaseChunk):
    """`reasoning-end`: a reasoning part ends."""

    type: Literal["reasoning-end"] = Field(description=_TYPE_DOC)
    payload: ReasoningEndPayload = Field(description="Id and final signature of the part.")


class ReasoningSignatureChunk(BaseChunk):
    """`reasoning-signature`: the signature of a reasoning part."""

    type: Literal["reasoning-signature"] = Field(description=_TYPE_DOC)
    payload: ReasoningSignaturePayload = Field(description="The reasoning signature.")


class RedactedReasoningChunk(BaseChunk):
    """`redacted-reasoning`: reasoning the provider withholds."""

    type: Literal["redacted-reasoning"] = Field(description=_TYPE_DOC)
    payload: RedactedReasoningPayload = Field(description="The opaque redacted data.")


class SourceChunk(BaseChunk):
    """`source`: a cited URL or document."""

    type: Literal["source"] = Field(description=_TYPE_DOC)
    payload: SourcePayload = Field(description="The source.")


class FileChunk(BaseChunk):
    """`file`: a file the model generated."""

    type: Literal["file"] = Field(description=_TYPE_DOC)
    payload: FilePayload = Field(description="The file.")


class ReasoningFileChunk(BaseChunk):
    """`reasoning-file`: a file produced while reasoning."""

    type: Literal["reasoning-file"] = Field(description=_TYPE_DOC)
    payload: ReasoningFilePayload = Field(description="The file.")


class CustomChunk(BaseChunk):
    """`custom`: provider content without a dedicated chunk type."""

    type: Literal["custom"] = Field(description=_TYPE_DOC)
    payload: CustomPayload = Field(description="The content's kind and metadata.")


class ToolCallChunk(BaseChunk):
    """`tool-call`: the model called a tool."""

    type: Literal["tool-call"] = Field(description=_TYPE_DOC)
    payload: ToolCallPayload = Field(description="The call with its complete arguments.")


class ToolCallApprovalChunk(BaseChunk):
    """`tool-call-approval`: a tool call waits for approval (may end the stream)."""

    type: Literal["tool-call-approval"] = Field(description=_TYPE_DOC)
    payload: ToolCallApprovalPayload = Field(description="The call awaiting approval.")


class ToolCallSuspendedChunk(BaseChunk):
    """`tool-call-suspended`: a tool suspended itself (may end the stream)."""

    type: Literal["tool-call-suspended"] = Field(description=_TYPE_DOC)
    payload: ToolCallSuspendedPayload = Field(description="The suspended call.")


class ToolResultChunk(BaseChunk):
    """`tool-result`: a tool returned."""

    type: Literal["tool-result"] = Field(description=_TYPE_DOC)
    payload: ToolResultPayload = Field(description="The result.")


class ToolCallInputStreamingStartChunk(BaseChunk):
    """`tool-call-input-streaming-start`: a tool call's arguments start to stream."""

    type: Literal["tool-call-input-streaming-start"] = Field(description=_TYPE_DOC)
    payload: ToolCallInputStreamingStartPayload = Field(description="The call being streamed.")


class ToolCallDeltaChunk(BaseChunk):
    """`tool-call-delta`: a piece of a tool call's JSON arguments."""

    type: Literal["tool-call-delta"] = Field(description=_TYPE_DOC)
    payload: ToolCallDeltaPayload = Field(description="The arguments piece.")


class ToolCallInputStreamingEndChunk(BaseChunk):
    """`tool-call-input-streaming-end`: a tool call's arguments are complete."""

    type: Literal["tool-call-input-streaming-end"] = Field(description=_TYPE_DOC)
    payload: ToolCallInputStreamingEndPayload = Field(description="The call id.")


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


class ToolErrorChunk(BaseChunk):
    """`tool-error`: a tool threw."""

    type: Literal["tool-error"] = Field(description=_TYPE_DOC)
    payload: ToolErrorPayload = Field(description="The failed call and its error.")


class ToolOutputDeniedChunk(BaseChunk):
    """`tool-output-denied`: the user declined a tool call."""

    type: Literal["tool-output-denied"] = Field(description=_TYPE_DOC)
    payload: ToolOutputDeniedPayload = Field(description="The declined call.")


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


class ToolOutputChunk(BaseChunk):
    """`tool-output`: a tool's `writer.write()` (from USER), possibly a nested run's chunk."""

    type: Literal["tool-output"] = Field(description=_TYPE_DOC)
    payload: ToolOutputPayload = Field(description="What the tool wrote.")


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


# ---------------------------------------------------------------------------
# Chunks: workflow events (WorkflowStreamEvent)
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Chunks: agent networks (NetworkChunkType)
# ---------------------------------------------------------------------------


class RoutingAgentStartChunk(BaseChunk):
    """`routing-agent-start`."""

    type: Literal["routing-agent-start"] = Field(description=_TYPE_DOC)
    payload: RoutingAgentStartPayload = Field(description="The routing run.")


class RoutingAgentTextStartChunk(BaseChunk):
    """`routing-agent-text-start`."""

    type: Literal["routing-agent-text-start"] = Field(description=_TYPE_DOC)
    payload: RoutingAgentTextStartPayload = Field(description="The routing run.")


class RoutingAgentTextDeltaChunk(BaseChunk):
    """`routing-agent-text-delta`."""

    type: Literal["routing-agent-text-delta"] = Field(description=_TYPE_DOC)
    payload: RoutingAgentTextDeltaPayload = Field(description="The routing text piece.")


class RoutingAgentEndChunk(BaseChunk):
    """`routing-agent-end`."""

    type: Literal["routing-agent-end"] = Field(description=_TYPE_DOC)
    payload: RoutingAgentEndPayload = Field(description="The routing decision.")


class RoutingAgentAbortChunk(BaseChunk):
    """`routing-agent-abort`."""

    type: Literal["routing-agent-abort"] = Field(description=_TYPE_DOC)
    payload: RoutingAgentAbortPayload = Field(description="The aborted primitive.")


class AgentExecutionStartChunk(BaseChunk):
    """`agent-execution-start`."""

    type: Literal["agent-execution-start"] = Field(description=_TYPE_DOC)
    payload: AgentExecutionStartPayload = Field(description="The agent run.")


class AgentExecutionApprovalChunk(BaseChunk):
    """`agent-execution-approval`."""

    type: Literal["agent-execution-approval"] = Field(description=_TYPE_DOC)
    payload: AgentExecutionApprovalPayload = Field(description="The call awaiting approval.")


class AgentExecutionSuspendedChunk(BaseChunk):
    """`agent-execution-suspended`."""

    type: Literal["agent-execution-suspended"] = Field(description=_TYPE_DOC)
    payload: AgentExecutionSuspendedPayload = Field(description="The suspended call.")


class AgentExecutionEndChunk(BaseChunk):
    """`agent-execution-end`."""

    type: Literal["agent-execution-end"] = Field(description=_TYPE_DOC)
    payload: AgentExecutionEndPayload = Field(description="The agent's result.")


class AgentExecutionAbortChunk(BaseChunk):
    """`agent-execution-abort`."""

    type: Literal["agent-execution-abort"] = Field(description=_TYPE_DOC)
    payload: AgentExecutionAbortPayload = Field(description="The aborted primitive.")


class WorkflowExecutionStartChunk(BaseChunk):
    """`workflow-execution-start`."""

    type: Literal["workflow-execution-start"] = Field(description=_TYPE_DOC)
    payload: WorkflowExecutionStartPayload = Field(description="The workflow run.")


class WorkflowExecutionEndChunk(BaseChunk):
    """`workflow-execution-end`."""

    type: Literal["workflow-execution-end"] = Field(description=_TYPE_DOC)
    payload: WorkflowExecutionEndPayload = Field(description="The workflow's result.")


class WorkflowExecutionSuspendedChunk(BaseChunk):
    """`workflow-execution-suspended`."""

    type: Literal["workflow-execution-suspended"] = Field(description=_TYPE_DOC)
    payload: WorkflowExecutionSuspendedPayload = Field(description="The suspended workflow.")


class WorkflowExecutionAbortChunk(BaseChunk):
    """`workflow-execution-abort`."""

    type: Literal["workflow-execution-abort"] = Field(description=_TYPE_DOC)
    payload: WorkflowExecutionAbortPayload = Field(description="The aborted primitive.")


class ToolExecutionStartChunk(BaseChunk):
    """`tool-execution-start`."""

    type: Literal["tool-execution-start"] = Field(description=_TYPE_DOC)
    payload: ToolExecutionStartPayload = Field(description="The tool call.")


class ToolExecutionEndChunk(BaseChunk):
    """`tool-execution-end`."""

    type: Literal["tool-execution-end"] = Field(description=_TYPE_DOC)
    payload: ToolExecutionEndPayload = Field(description="The tool's result.")


class ToolExecutionApprovalChunk(BaseChunk):
    """`tool-execution-approval`."""

    type: Literal["tool-execution-approval"] = Field(description=_TYPE_DOC)
    payload: ToolExecutionApprovalPayload = Field(description="The call awaiting approval.")


class ToolExecutionSuspendedChunk(BaseChunk):
    """`tool-execution-suspended`."""

    type: Literal["tool-execution-suspended"] = Field(description=_TYPE_DOC)
    payload: ToolExecutionSuspendedPayload = Field(description="The suspended call.")


class ToolExecutionAbortChunk(BaseChunk):
    """`tool-execution-abort`."""

    type: Literal["tool-execution-abort"] = Field(description=_TYPE_DOC)
    payload: ToolExecutionAbortPayload = Field(description="The aborted primitive.")


class NetworkExecutionEventStepFinishChunk(BaseChunk):
    """`network-execution-event-step-finish`."""

    type: Literal["network-execution-event-step-finish"] = Field(description=_TYPE_DOC)
    payload: NetworkExecutionEventStepFinishPayload = Field(description="The finished step.")


class NetworkExecutionEventFinishChunk(BaseChunk):
    """`network-execution-event-finish`: the network run ended."""

    type: Literal["network-execution-event-finish"] = Field(description=_TYPE_DOC)
    payload: NetworkExecutionEventFinishPayload = Field(description="The network's result.")


class NetworkValidationStartChunk(BaseChunk):
    """`network-validation-start`."""

    type: Literal["network-validation-start"] = Field(description=_TYPE_DOC)
    payload: NetworkValidationStartPayload = Field(description="The checks about to run.")


class NetworkValidationEndChunk(BaseChunk):
    """`network-validation-end`."""

    type: Literal["network-validation-end"] = Field(description=_TYPE_DOC)
    payload: NetworkValidationEndPayload = Field(description="The checks' verdict.")


class NetworkObjectChunk(BaseChunk):
    """`network-object`: the network's structured output so far."""

    type: Literal["network-object"] = Field(description=_TYPE_DOC)
    payload: NetworkObjectPayload = Field(description="The partial object.")


class NetworkObjectResultChunk(BaseChunk):
    """`network-object-result`: the network's final structured output."""

    type: Literal["network-object-result"] = Field(description=_TYPE_DOC)
    payload: NetworkObjectResultPayload = Field(description="The final object.")


_AGENT_EVENT_PREFIX = "agent-execution-event-"
_WORKFLOW_EVENT_PREFIX = "workflow-execution-event-"
_DATA_PREFIX = "data-"


class AgentExecutionEventChunk(BaseChunk):
    """`agent-execution-event-<agent chunk type>`: a sub-agent's chunk relayed by a network."""

    type: Annotated[str, StringConstraints(pattern=f"^{_AGENT_EVENT_PREFIX}")] = Field(
        description="`agent-execution-event-` followed by the relayed chunk's type."
    )
    payload: NestedChunk = Field(description="The relayed chunk, parsed.")


class WorkflowExecutionEventChunk(BaseChunk):
    """`workflow-execution-event-<workflow event>`: a workflow's event relayed by a network."""

    type: Annotated[str, StringConstraints(pattern=f"^{_WORKFLOW_EVENT_PREFIX}")] = Field(
        description="`workflow-execution-event-` followed by the relayed event's type."
    )
    payload: NestedChunk = Field(description="The relayed chunk, parsed.")


# ---------------------------------------------------------------------------
# Custom data, unknown and invalid chunks
# ---------------------------------------------------------------------------


class DataChunk(BaseChunk):
    """`data-*`: custom data from `writer.custom()`; bare `{type, data, id?, transient?}`."""

    type: Annotated[str, StringConstraints(pattern=f"^{_DATA_PREFIX}")] = Field(
        description="`data-` followed by the application's name for the data."
    )
    data: Any = Field(None, description="The application's data.")
    id: str | None = Field(None, description="Id that later chunks of the same type update.")
    transient: bool | None = Field(
        None, description="When true the chunk is shown live but never persisted."
    )


class UnknownChunk(BaseChunk):
    """A chunk whose `type` this version does not know; every field is kept and shown."""

    payload: Any = Field(None, description="The chunk's payload, when it has one.")


class InvalidChunk(BaseModel):
    """Input that is not a valid chunk: bad fields for a known type, or not a JSON object.

    Not a `BaseChunk`: it is never mistaken for a real chunk. `raw` keeps the input whole."""

    model_config = ConfigDict(extra="forbid")

    type: str | None = Field(None, description="The input's `type`, when it had a string one.")
    error: str = Field(description="What is wrong, naming the failing field paths.")
    raw: Any = Field(description="The original input (bytes are decoded, invalid bytes replaced).")
    issues: tuple[tuple[str, str], ...] = Field(
        (), description="Each problem as (field path, message); the path is empty for the root."
    )


# ---------------------------------------------------------------------------
# The registry and the union
# ---------------------------------------------------------------------------

_AGENT_CLASSES: tuple[type[BaseChunk], ...] = (
    ResponseMetadataChunk,
    TextStartChunk,
    TextDeltaChunk,
    TextEndChunk,
    ReasoningStartChunk,
    ReasoningDeltaChunk,
    ReasoningEndChunk,
    ReasoningSignatureChunk,
    RedactedReasoningChunk,
    SourceChunk,
    FileChunk,
    ReasoningFileChunk,
    CustomChunk,
    ToolCallChunk,
    ToolCallApprovalChunk,
    ToolCallSuspendedChunk,
    ToolResultChunk,
    ToolCallInputStreamingStartChunk,
    ToolCallDeltaChunk,
    ToolCallInputStreamingEndChunk,
    FinishChunk,
    ErrorChunk,
    RawChunk,
    StartChunk,
    StepStartChunk,
    StepFinishChunk,
    ToolErrorChunk,
    ToolOutputDeniedChunk,
    AbortChunk,
    ObjectChunk,
    ObjectResultChunk,
    ToolOutputChunk,
    StepOutputChunk,
    WatchChunk,
    TripwireChunk,
    IsTaskCompleteChunk,
    GoalChunk,
    BackgroundTaskStartedChunk,
    BackgroundTaskCompletedChunk,
    BackgroundTaskFailedChunk,
    BackgroundTaskProgressChunk,
    BackgroundTaskRunningChunk,
    BackgroundTaskCancelledChunk,
    BackgroundTaskOutputChunk,
    BackgroundTaskSuspendedChunk,
    BackgroundTaskResumedChunk,
)

_WORKFLOW_CLASSES: tuple[type[BaseChunk], ...] = (
    WorkflowStartChunk,
    WorkflowFinishChunk,
    WorkflowCanceledChunk,
    WorkflowPausedChunk,
    WorkflowStepStartChunk,
    WorkflowStepFinishChunk,
    WorkflowStepSuspendedChunk,
    WorkflowStepWaitingChunk,
    WorkflowStepOutputChunk,
    WorkflowStepProgressChunk,
    WorkflowStepResultChunk,
)

_NETWORK_CLASSES: tuple[type[BaseChunk], ...] = (
    RoutingAgentStartChunk,
    RoutingAgentTextDeltaChunk,
    RoutingAgentTextStartChunk,
    RoutingAgentEndChunk,
    RoutingAgentAbortChunk,
    AgentExecutionStartChunk,
    AgentExecutionApprovalChunk,
    AgentExecutionSuspendedChunk,
    AgentExecutionEndChunk,
    AgentExecutionAbortChunk,
    WorkflowExecutionStartChunk,
    WorkflowExecutionEndChunk,
    WorkflowExecutionSuspendedChunk,
    WorkflowExecutionAbortChunk,
    ToolExecutionStartChunk,
    ToolExecutionEndChunk,
    ToolExecutionApprovalChunk,
    ToolExecutionSuspendedChunk,
    ToolExecutionAbortChunk,
    NetworkExecutionEventStepFinishChunk,
    NetworkExecutionEventFinishChunk,
    NetworkValidationStartChunk,
    NetworkValidationEndChunk,
    NetworkObjectChunk,
    NetworkObjectResultChunk,
)


def _literal_type(cls: type[BaseChunk]) -> str:
    (kind,) = get_args(cls.model_fields["type"].annotation)
    assert isinstance(kind, str)
    return kind


CHUNK_CLASSES: Mapping[str, type[BaseChunk]] = {
    _literal_type(cls): cls for cls in (*_AGENT_CLASSES, *_WORKFLOW_CLASSES, *_NETWORK_CLASSES)
}
"""Chunk class for every exact `type` Mastra declares (prefix families not included)."""

AGENT_CHUNK_TYPES: frozenset[str] = frozenset(_literal_type(c) for c in _AGENT_CLASSES)
"""The 46 types of Mastra's `AgentChunkType`."""

WORKFLOW_CHUNK_TYPES: frozenset[str] = frozenset(_literal_type(c) for c in _WORKFLOW_CLASSES)
"""The 11 types of Mastra's `WorkflowStreamEvent`."""

NETWORK_CHUNK_TYPES: frozenset[str] = frozenset(_literal_type(c) for c in _NETWORK_CLASSES)
"""The exact types of Mastra's `NetworkChunkType` (without the two wrapper families)."""

Chunk: TypeAlias = (
    ResponseMetadataChunk
    | TextStartChunk
    | TextDeltaChunk
    | TextEndChunk
    | ReasoningStartChunk
    | ReasoningDeltaChunk
    | ReasoningEndChunk
    | ReasoningSignatureChunk
    | RedactedReasoningChunk
    | SourceChunk
    | FileChunk
    | ReasoningFileChunk
    | CustomChunk
    | ToolCallChunk
    | ToolCallApprovalChunk
    | ToolCallSuspendedChunk
    | ToolResultChunk
    | ToolCallInputStreamingStartChunk
    | ToolCallDeltaChunk
    | ToolCallInputStreamingEndChunk
    | FinishChunk
    | ErrorChunk
    | RawChunk
    | StartChunk
    | StepStartChunk
    | StepFinishChunk
    | ToolErrorChunk
    | ToolOutputDeniedChunk
    | AbortChunk
    | ObjectChunk
    | ObjectResultChunk
    | ToolOutputChunk
    | StepOutputChunk
    | WatchChunk
    | TripwireChunk
    | IsTaskCompleteChunk
    | GoalChunk
    | BackgroundTaskStartedChunk
    | BackgroundTaskCompletedChunk
    | BackgroundTaskFailedChunk
    | BackgroundTaskProgressChunk
    | BackgroundTaskRunningChunk
    | BackgroundTaskCancelledChunk
    | BackgroundTaskOutputChunk
    | BackgroundTaskSuspendedChunk
    | BackgroundTaskResumedChunk
    | WorkflowStartChunk
    | WorkflowFinishChunk
    | WorkflowCanceledChunk
    | WorkflowPausedChunk
    | WorkflowStepStartChunk
    | WorkflowStepFinishChunk
    | WorkflowStepSuspendedChunk
    | WorkflowStepWaitingChunk
    | WorkflowStepOutputChunk
    | WorkflowStepProgressChunk
    | WorkflowStepResultChunk
    | RoutingAgentStartChunk
    | RoutingAgentTextDeltaChunk
    | RoutingAgentTextStartChunk
    | RoutingAgentEndChunk
    | RoutingAgentAbortChunk
    | AgentExecutionStartChunk
    | AgentExecutionApprovalChunk
    | AgentExecutionSuspendedChunk
    | AgentExecutionEndChunk
    | AgentExecutionAbortChunk
    | WorkflowExecutionStartChunk
    | WorkflowExecutionEndChunk
    | WorkflowExecutionSuspendedChunk
    | WorkflowExecutionAbortChunk
    | ToolExecutionStartChunk
    | ToolExecutionEndChunk
    | ToolExecutionApprovalChunk
    | ToolExecutionSuspendedChunk
    | ToolExecutionAbortChunk
    | NetworkExecutionEventStepFinishChunk
    | NetworkExecutionEventFinishChunk
    | NetworkValidationStartChunk
    | NetworkValidationEndChunk
    | NetworkObjectChunk
    | NetworkObjectResultChunk
    | AgentExecutionEventChunk
    | WorkflowExecutionEventChunk
    | DataChunk
    | UnknownChunk
    | InvalidChunk
)
"""Anything `parse_chunk` returns."""


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------

_Validate = Callable[..., Any]

# Validators of the known types, filled on first use: one dict lookup per chunk, no union scan.
_VALIDATORS: dict[str, _Validate] = {}
_PREFIXED: tuple[tuple[str, type[BaseChunk]], ...] = (
    (_DATA_PREFIX, DataChunk),
    (_AGENT_EVENT_PREFIX, AgentExecutionEventChunk),
    (_WORKFLOW_EVENT_PREFIX, WorkflowExecutionEventChunk),
)

_MAX_ISSUES_SHOWN = 5

_JSON_KINDS: dict[type, str] = {
    dict: "object",
    list: "array",
    tuple: "array",
    str: "string",
    int: "number",
    float: "number",
    bool: "boolean",
    type(None): "null",
}


def _json_kind(value: object) -> str:
    return _JSON_KINDS.get(type(value), type(value).__name__)


def _invalid(kind: str | None, issues: list[tuple[str, str]], raw: Any) -> InvalidChunk:
    lines = [f"{path}: {message}" if path else message for path, message in issues]
    shown = "; ".join(lines[:_MAX_ISSUES_SHOWN])
    if len(lines) > _MAX_ISSUES_SHOWN:
        shown += f" (and {len(lines) - _MAX_ISSUES_SHOWN} more)"
    return InvalidChunk(type=kind, error=shown, raw=raw, issues=tuple(issues))


def _issues(err: ValidationError) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for item in err.errors(include_url=False, include_input=False):
        path = ".".join(str(part) for part in item["loc"])
        nested = (
            item.get("ctx", {}).get("issues") if item["type"] == "invalid_nested_chunk" else None
        )
        if nested:
            found.extend((".".join(p for p in (path, sub) if p), msg) for sub, msg in nested)
        else:
            found.append((path, item["msg"]))
    return found


def _validator_for(kind: str) -> _Validate:
    known = CHUNK_CLASSES.get(kind)
    if known is not None:
        validate: _Validate = known.__pydantic_validator__.validate_python
        _VALIDATORS[str(kind)] = validate
        return validate
    for prefix, family in _PREFIXED:
        if kind.startswith(prefix):
            return family.__pydantic_validator__.validate_python
    return UnknownChunk.__pydantic_validator__.validate_python


_JSON_LEAVES = (str, int, float, bool, type(None))
_JSON_LEAF_TYPES = frozenset(_JSON_LEAVES)
_CONTAINERS = (dict, list, tuple)


def _has_exotic_leaf(value: Any) -> bool:
    """Whether dicts and lists in ``value`` hold a leaf that is not a JSON scalar."""
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        for child in item.values() if isinstance(item, dict) else item:
            # Exact types first: this runs on every chunk, and isinstance is the slow path.
            if type(child) in _JSON_LEAF_TYPES:
                continue
            if isinstance(child, _CONTAINERS):
                stack.append(child)
            elif not isinstance(child, _JSON_LEAVES):
                return True
    return False


def _parse_dict(data: dict[Any, Any], depth: int) -> Chunk:
    kind = data.get("type")
    if kind.__class__ is str:
        validate = _VALIDATORS.get(kind) or _validator_for(kind)
    elif isinstance(kind, str):
        validate = _validator_for(kind)
    else:
        problem = (
            "missing"
            if kind is None and "type" not in data
            else (f"expected a string, got {_json_kind(kind)}")
        )
        return _invalid(None, [("type", problem)], data)
    try:
        if depth:
            chunk: Chunk = validate(data, context={"depth": depth})
        else:
            chunk = validate(data)
    except ValidationError as err:
        return _invalid(str(kind), _issues(err), data)
    except RecursionError:
        return _invalid(str(kind), [("", "input nested too deeply to validate")], data)
    if not depth and _has_exotic_leaf(data):
        # A Python value that is not JSON (bytes, a set, an object ...): fine if the model
        # can dump it, otherwise the chunk cannot be shown and is reported here, not later.
        try:
            chunk.model_dump(by_alias=True, exclude_unset=True, mode="json")
        except Exception as err:
            return _invalid(str(kind), [("", f"holds a value that is not JSON: {err}")], data)
    return chunk


def _parse_text(text: str) -> Chunk:
    try:
        value = json.loads(text)
    except RecursionError:
        return _invalid(None, [("", "not parseable: JSON nested too deeply")], text)
    except ValueError as err:
        return _invalid(None, [("", f"not valid JSON: {err}")], text)
    if not isinstance(value, dict):
        return _invalid(None, [("", f"expected a JSON object, got {_json_kind(value)}")], text)
    parsed = _parse_dict(value, 0)
    if isinstance(parsed, InvalidChunk):
        parsed.raw = text  # the caller gave text: keep exactly that
    return parsed


def _parse_bytes(blob: bytes) -> Chunk:
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError as err:
        lenient = blob.decode("utf-8", errors="replace")
        return _invalid(
            _peek_type(lenient),
            [("", f"not valid UTF-8: byte {err.start} ({err.reason})")],
            lenient,
        )
    return _parse_text(text)


def _peek_type(text: str) -> str | None:
    """The `type` of a JSON object in text, if it has a string one (for error reports)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    kind = value.get("type") if isinstance(value, dict) else None
    return kind if isinstance(kind, str) else None


def parse_chunk(obj: Mapping[str, Any] | str | bytes | BaseChunk | InvalidChunk) -> Chunk:
    """Turn a chunk (dict, JSON text or UTF-8 bytes) into its model. Never raises.

    A known `type` gives its class (`data-*`, `agent-execution-event-*` and
    `workflow-execution-event-*` by prefix); any other string `type` gives `UnknownChunk`;
    bad fields or input that is not a JSON object give `InvalidChunk`. A chunk that is
    already parsed is returned unchanged.
    """
    try:
        if isinstance(obj, dict):
            return _parse_dict(obj, 0)
        if isinstance(obj, (BaseChunk, InvalidChunk)):
            # Every BaseChunk this module makes is a member of the union.
            return cast(Chunk, obj)
        if isinstance(obj, str):
            return _parse_text(obj)
        if isinstance(obj, (bytes, bytearray, memoryview)):
            return _parse_bytes(bytes(obj))
        if isinstance(obj, Mapping):
            return _parse_dict(dict(obj), 0)
        return _invalid(None, [("", f"expected a JSON object, got {_json_kind(obj)}")], obj)
    except Exception as err:  # a hostile Mapping or str subclass must not escape
        return _invalid(None, [("", f"could not be read: {type(err).__name__}: {err}")], obj)


# ---------------------------------------------------------------------------
# Classification helpers
# ---------------------------------------------------------------------------

_ERROR_TYPES = frozenset({"error", "tool-error", "tripwire", "abort"})
_DATA_TYPES = frozenset({"source", "file", "custom", "object", "object-result"})
_CONTROL_TYPES = frozenset(
    {
        "start",
        "step-start",
        "step-finish",
        "step-output",
        "finish",
        "raw",
        "response-metadata",
        "watch",
        "goal",
        "is-task-complete",
    }
)
_NETWORK_PREFIXES = (
    "routing-agent-",
    "agent-execution-",
    "workflow-execution-",
    "tool-execution-",
    "network-",
)
_FAMILY_PREFIXES: tuple[tuple[str, ChunkFamily], ...] = (
    ("text-", "text"),
    ("reasoning-", "reasoning"),
    ("redacted-reasoning", "reasoning"),
    ("tool-", "tools"),
    ("workflow-", "workflow"),
    ("background-task-", "background"),
    (_DATA_PREFIX, "data"),
)


def chunk_family(type: str) -> ChunkFamily:
    """The coarse group of a chunk type, for colouring and filtering.

    - errors: `error`, `tool-error`, `tripwire`, `abort`
    - network: `routing-agent-*`, `agent-execution-*`, `workflow-execution-*`,
      `tool-execution-*`, `network-*` (including the relayed-event wrappers)
    - control: `start`, `step-start`, `step-finish`, `step-output`, `finish`, `raw`,
      `response-metadata`, `watch`, `goal`, `is-task-complete`
    - data: `data-*`, `source`, `file`, `custom`, `object`, `object-result`
    - text: `text-*`; reasoning: `reasoning-*`, `redacted-reasoning`;
      tools: other `tool-*`; workflow: `workflow-*`; background: `background-task-*`
    - other: anything else (unknown types)
    """
    if type in _ERROR_TYPES:
        return "errors"
    if type.startswith(_NETWORK_PREFIXES):
        return "network"
    if type in _CONTROL_TYPES:
        return "control"
    if type in _DATA_TYPES:
        return "data"
    for prefix, family in _FAMILY_PREFIXES:
        if type.startswith(prefix):
            return family
    return "other"


def is_transient(chunk: Chunk) -> bool:
    """Whether a chunk is shown live but never persisted (`data-*` with `transient: true`)."""
    return isinstance(chunk, DataChunk) and chunk.transient is True
