"""What every chunk model shares: the config, value types, the base classes and shared records.

The vocabulary is Mastra's `ChunkType` as declared by `@mastra/core` 1.71
(`dist/stream/types.d.ts`). Rules every model follows:

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

Also here: the chunks that are not one exact type (`data-*`, unknown types, invalid input).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    PlainValidator,
    SerializeAsAny,
    StringConstraints,
    ValidationInfo,
)
from pydantic.alias_generators import to_camel
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

__all__ = [
    "BaseChunk",
    "ChunkFamily",
    "ChunkFrom",
    "DataChunk",
    "GoalActivity",
    "InvalidChunk",
    "OutputSummary",
    "PayloadModel",
    "StepResultInfo",
    "ToolApproval",
    "UnknownChunk",
    "UsagePayload",
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
    # the types it actually sends (but see parse.BUILT_AT_IMPORT: those every run sends).
    defer_build=True,
)


_TYPE_DOC = "The chunk type, Mastra's discriminator."


_PM_DOC = "Provider-specific metadata, keyed by provider name."


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


_nested_parser: Callable[[dict[Any, Any], int], BaseChunk | InvalidChunk] | None = None
"""How a chunk inside a payload is parsed: ``parse_chunk``'s own rules, which live in
``chunks.parse`` (it imports every model, so it hands itself in rather than being imported)."""


def use_nested_parser(parser: Callable[[dict[Any, Any], int], BaseChunk | InvalidChunk]) -> None:
    """Parse chunks nested in payloads with ``parser`` (called once, by ``chunks.parse``)."""
    global _nested_parser
    _nested_parser = parser


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
    if isinstance(value, dict) and _nested_parser is not None:
        parsed = _nested_parser(value, depth + 1)
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


class UsagePayload(PayloadModel):
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

    reason: str | None = Field(
        None,
        description="Finish reason: stop, length, content-filter, tool-calls, error, other, "
        "unknown, or Mastra's tripwire / retry.",
    )
    raw_reason: str | None = Field(None, description="The provider's own finish reason.")
    warnings: list[Any] | None = Field(None, description="Provider call warnings.")
    is_continued: bool | None = Field(None, description="Whether another step follows.")
    logprobs: Any = Field(None, description="Token log-probabilities, when requested.")


class OutputSummary(PayloadModel):
    """What a step or run produced (`output` of `step-finish`, `finish`, `workflow-finish`)."""

    usage: UsagePayload | None = Field(
        None, description="Token usage (summed over steps on `finish`)."
    )
    text: str | None = Field(None, description="Text of the step (on `step-finish`).")
    tool_calls: list[Any] | None = Field(None, description="Tool calls made in the step.")
    steps: list[Any] | None = Field(None, description="Per-step results so far.")
    object: Any = Field(None, description="Structured output object, when one was requested.")


class ToolApproval(PayloadModel):
    """The decision recorded on a declined tool call."""

    id: str | None = Field(None, description="Id of the approval request.")
    approved: bool | None = Field(None, description="Always false on `tool-output-denied`.")
    reason: str | None = Field(None, description="Why the call was declined.")


class GoalActivity(PayloadModel):
    """One thing the goal judge did while evaluating."""

    type: str = Field(description="tool-call, tool-result or reason.")
    name: str | None = Field(None, description="Tool name, for tool activity.")
    message: str | None = Field(None, description="Human-readable description of the activity.")


_AGENT_EVENT_PREFIX = "agent-execution-event-"


_WORKFLOW_EVENT_PREFIX = "workflow-execution-event-"


_DATA_PREFIX = "data-"


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
