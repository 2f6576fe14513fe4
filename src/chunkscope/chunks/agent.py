"""Agent chunks that carry content: text, reasoning, sources, files and tool calls."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    Field,
)

from .base import _PM_DOC, _TYPE_DOC, BaseChunk, FileData, JsonDict, PayloadModel, ToolApproval

__all__ = [
    "CustomChunk",
    "CustomPayload",
    "FileChunk",
    "FilePayload",
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
    "SourceChunk",
    "SourcePayload",
    "TextDeltaChunk",
    "TextDeltaPayload",
    "TextEndChunk",
    "TextEndPayload",
    "TextStartChunk",
    "TextStartPayload",
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
    "ToolOutputChunk",
    "ToolOutputDeniedChunk",
    "ToolOutputDeniedPayload",
    "ToolOutputPayload",
    "ToolResultChunk",
    "ToolResultPayload",
]


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

    signature: str | None = Field(
        None, description="Signature describing the reasoning (e.g. effort)."
    )


class RedactedReasoningPayload(_PartPayload):
    """Payload of `redacted-reasoning`."""

    data: Any = Field(None, description="The provider's opaque redacted reasoning data.")


class ReasoningFilePayload(PayloadModel):
    """Payload of `reasoning-file`."""

    data: FileData = Field(description="File content: base64 string, URL, or byte array.")
    base64: str | None = Field(None, description="File content as base64, when it is one.")
    mime_type: str | None = Field(None, description="IANA media type of the file.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)


class SourcePayload(PayloadModel):
    """Payload of `source`: a cited URL or document."""

    id: str | None = Field(None, description="Id of the source.")
    source_type: str | None = Field(None, description="`url` or `document`.")
    title: str | None = Field(None, description="Title of the source (may be empty).")
    mime_type: str | None = Field(None, description="Media type, for documents.")
    filename: str | None = Field(None, description="File name, for documents.")
    url: str | None = Field(None, description="Address, for URL sources.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)


class FilePayload(PayloadModel):
    """Payload of `file`: a file the model generated."""

    data: FileData = Field(description="File content: base64 string, URL, or byte array.")
    base64: str | None = Field(None, description="File content as base64, when it is one.")
    mime_type: str | None = Field(None, description="IANA media type of the file.")
    filename: str | None = Field(None, description="File name, when known.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)


class CustomPayload(PayloadModel):
    """Payload of `custom`: provider content Mastra has no dedicated chunk for."""

    kind: str | None = Field(None, description="Kind of content, as `{provider}.{provider-type}`.")
    provider_metadata: JsonDict | None = Field(None, description=_PM_DOC)


class _ToolRef(PayloadModel):
    tool_call_id: str = Field(description="Id of the tool call.")
    tool_name: str | None = Field(None, description="Name of the tool.")


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
    args: Any = Field(None, description="Arguments the tool was called with.")
    error: Any = Field(None, description="The error (often `{message, name, stack}`).")
    provider_executed: bool | None = Field(
        None, description="Whether the provider ran the tool itself."
    )


class ToolCallApprovalPayload(_ToolRef):
    """Payload of `tool-call-approval`: the call waits for the user's approval."""

    args: Any = Field(None, description="Arguments of the call awaiting approval.")
    resume_schema: str | None = Field(None, description="JSON schema (as text) of the resume data.")


class ToolCallSuspendedPayload(_ToolRef):
    """Payload of `tool-call-suspended`: the tool suspended itself."""

    suspend_payload: Any = Field(None, description="What the tool passed to `suspend()`.")
    args: Any = Field(None, description="Arguments of the suspended call.")
    resume_schema: str | None = Field(None, description="JSON schema (as text) of the resume data.")


class ToolOutputDeniedPayload(_ToolRef):
    """Payload of `tool-output-denied`: the user declined a call that needed approval."""

    args: Any = Field(None, description="Arguments of the declined call.")
    approval: ToolApproval | None = Field(None, description="The declined approval.")


class ToolOutputPayload(PayloadModel):
    """Payload of `tool-output`: something a tool wrote with `writer.write()` while running.

    The output may be a whole chunk of a nested agent or workflow run."""

    output: Any = Field(None, description="What the tool wrote.")
    tool_call_id: str = Field(description="Id of the tool call that wrote it.")
    tool_name: str | None = Field(None, description="Name of the tool that wrote it.")


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


class ToolErrorChunk(BaseChunk):
    """`tool-error`: a tool threw."""

    type: Literal["tool-error"] = Field(description=_TYPE_DOC)
    payload: ToolErrorPayload = Field(description="The failed call and its error.")


class ToolOutputDeniedChunk(BaseChunk):
    """`tool-output-denied`: the user declined a tool call."""

    type: Literal["tool-output-denied"] = Field(description=_TYPE_DOC)
    payload: ToolOutputDeniedPayload = Field(description="The declined call.")


class ToolOutputChunk(BaseChunk):
    """`tool-output`: a tool's `writer.write()` (from USER), possibly a nested run's chunk."""

    type: Literal["tool-output"] = Field(description=_TYPE_DOC)
    payload: ToolOutputPayload = Field(description="What the tool wrote.")
