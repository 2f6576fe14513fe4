"""The registry of chunk classes, the `Chunk` union, and `parse_chunk`.

`parse_chunk` turns anything into a chunk and never raises: an unknown `type` gives
`UnknownChunk` (kept whole), a known type with bad fields or input that is not a JSON object
gives `InvalidChunk` (kept whole, with a message naming the failing fields).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias, cast, get_args

from pydantic import (
    ValidationError,
)

from .agent import (
    CustomChunk,
    FileChunk,
    ReasoningDeltaChunk,
    ReasoningEndChunk,
    ReasoningFileChunk,
    ReasoningSignatureChunk,
    ReasoningStartChunk,
    RedactedReasoningChunk,
    SourceChunk,
    TextDeltaChunk,
    TextEndChunk,
    TextStartChunk,
    ToolCallApprovalChunk,
    ToolCallChunk,
    ToolCallDeltaChunk,
    ToolCallInputStreamingEndChunk,
    ToolCallInputStreamingStartChunk,
    ToolCallSuspendedChunk,
    ToolErrorChunk,
    ToolOutputChunk,
    ToolOutputDeniedChunk,
    ToolResultChunk,
)
from .base import (
    _AGENT_EVENT_PREFIX,
    _DATA_PREFIX,
    _WORKFLOW_EVENT_PREFIX,
    BaseChunk,
    DataChunk,
    InvalidChunk,
    UnknownChunk,
    _json_kind,
    use_nested_parser,
)
from .control import (
    AbortChunk,
    BackgroundTaskCancelledChunk,
    BackgroundTaskCompletedChunk,
    BackgroundTaskFailedChunk,
    BackgroundTaskOutputChunk,
    BackgroundTaskProgressChunk,
    BackgroundTaskResumedChunk,
    BackgroundTaskRunningChunk,
    BackgroundTaskStartedChunk,
    BackgroundTaskSuspendedChunk,
    ErrorChunk,
    FinishChunk,
    GoalChunk,
    IsTaskCompleteChunk,
    ObjectChunk,
    ObjectResultChunk,
    RawChunk,
    ResponseMetadataChunk,
    StartChunk,
    StepFinishChunk,
    StepOutputChunk,
    StepStartChunk,
    TripwireChunk,
    WatchChunk,
)
from .fast import FAST_PARSERS
from .network import (
    AgentExecutionAbortChunk,
    AgentExecutionApprovalChunk,
    AgentExecutionEndChunk,
    AgentExecutionEventChunk,
    AgentExecutionStartChunk,
    AgentExecutionSuspendedChunk,
    NetworkExecutionEventFinishChunk,
    NetworkExecutionEventStepFinishChunk,
    NetworkObjectChunk,
    NetworkObjectResultChunk,
    NetworkValidationEndChunk,
    NetworkValidationStartChunk,
    RoutingAgentAbortChunk,
    RoutingAgentEndChunk,
    RoutingAgentStartChunk,
    RoutingAgentTextDeltaChunk,
    RoutingAgentTextStartChunk,
    ToolExecutionAbortChunk,
    ToolExecutionApprovalChunk,
    ToolExecutionEndChunk,
    ToolExecutionStartChunk,
    ToolExecutionSuspendedChunk,
    WorkflowExecutionAbortChunk,
    WorkflowExecutionEndChunk,
    WorkflowExecutionEventChunk,
    WorkflowExecutionStartChunk,
    WorkflowExecutionSuspendedChunk,
)
from .workflow import (
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

__all__ = [
    "AGENT_CHUNK_TYPES",
    "CHUNK_CLASSES",
    "NETWORK_CHUNK_TYPES",
    "PLAIN_DEPTH",
    "WORKFLOW_CHUNK_TYPES",
    "Chunk",
    "parse_chunk",
    "parse_chunk_shaped",
]


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


_Validate = Callable[..., Any]


# Validators of the known types, filled on first use: one dict lookup per chunk, no union scan.
_VALIDATORS: dict[str, _Validate] = {}


BUILT_AT_IMPORT = (
    "start",
    "step-start",
    "text-start",
    "text-end",
    "step-finish",
    "finish",
    "reasoning-start",
    "reasoning-end",
    "tool-call-input-streaming-start",
    "tool-call-input-streaming-end",
    "tool-call",
    "tool-result",
    "tool-error",
    "error",
)
"""Chunk types whose validators are built when the package is imported, not at their
first chunk (see ``defer_build``): the frame of every run and the parts most agents send.
Built at first use, these cost the first run in a new kernel about 10 ms before its text
could leave, more on a machine the page and the server keep busy; all of them take about
17 ms of the import."""


_PREFIXED: tuple[tuple[str, type[BaseChunk]], ...] = (
    (_DATA_PREFIX, DataChunk),
    (_AGENT_EVENT_PREFIX, AgentExecutionEventChunk),
    (_WORKFLOW_EVENT_PREFIX, WorkflowExecutionEventChunk),
)


_MAX_ISSUES_SHOWN = 5


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


def _build_common_validators() -> None:
    for kind in BUILT_AT_IMPORT:
        CHUNK_CLASSES[kind].model_rebuild()
        _validator_for(kind)


_build_common_validators()


_JSON_LEAVES = (str, int, float, bool, type(None))


_JSON_LEAF_TYPES = frozenset(_JSON_LEAVES)


_CONTAINERS = (dict, list, tuple)


PLAIN_DEPTH = 200
"""A chunk whose values nest no deeper than this, with JSON scalars for leaves, always dumps:
whoever shows it need not check it again."""

_PLAIN, _EXOTIC, _DEEP = 0, 1, 2


def _json_shape(value: Any) -> int:
    """``_EXOTIC`` when dicts and lists in ``value`` hold a leaf that is not a JSON scalar,
    ``_DEEP`` when they nest to ``PLAIN_DEPTH``, else ``_PLAIN``; one walk for both."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    deep = False
    while stack:
        item, depth = stack.pop()
        if depth >= PLAIN_DEPTH:
            deep = True  # and go on: a leaf that is not JSON may still lie below
        for child in item.values() if isinstance(item, dict) else item:
            # Exact types first: this runs on every chunk, and isinstance is the slow path.
            if type(child) in _JSON_LEAF_TYPES:
                continue
            if isinstance(child, _CONTAINERS):
                stack.append((child, depth + 1))
            elif not isinstance(child, _JSON_LEAVES):
                return _EXOTIC
    return _DEEP if deep else _PLAIN


def _parse_dict(data: dict[Any, Any], depth: int) -> Chunk:
    return _parse_dict_shaped(data, depth)[0]


def _parse_dict_shaped(data: dict[Any, Any], depth: int) -> tuple[Chunk, bool]:
    """The chunk, and whether it was read from plain JSON no deeper than ``PLAIN_DEPTH``."""
    kind = data.get("type")
    if kind.__class__ is str:
        fast = FAST_PARSERS.get(kind)
        if fast is not None and data.__class__ is dict:
            chunk: Chunk | None = fast(data)
            if chunk is not None:
                return chunk, True
        validate = _VALIDATORS.get(kind) or _validator_for(kind)
    elif isinstance(kind, str):
        validate = _validator_for(kind)
    else:
        problem = (
            "missing"
            if kind is None and "type" not in data
            else (f"expected a string, got {_json_kind(kind)}")
        )
        return _invalid(None, [("type", problem)], data), False
    try:
        chunk = validate(data, context={"depth": depth}) if depth else validate(data)
    except ValidationError as err:
        return _invalid(str(kind), _issues(err), data), False
    except RecursionError:
        return _invalid(str(kind), [("", "input nested too deeply to validate")], data), False
    if depth:
        return chunk, False
    shape = _json_shape(data)
    if shape == _EXOTIC:
        # A Python value that is not JSON (bytes, a set, an object ...): fine if the model
        # can dump it, otherwise the chunk cannot be shown and is reported here, not later.
        try:
            chunk.model_dump(by_alias=True, exclude_unset=True, mode="json")
        except Exception as err:
            return (
                _invalid(str(kind), [("", f"holds a value that is not JSON: {err}")], data),
                False,
            )
    return chunk, shape == _PLAIN


use_nested_parser(_parse_dict)


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
            return _parse_dict_shaped(obj, 0)[0]
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


def parse_chunk_shaped(obj: Any) -> tuple[Chunk, bool]:
    """``parse_chunk(obj)``, and whether the chunk was read from a dict of plain JSON no deeper
    than ``PLAIN_DEPTH`` (so it dumps without a check); False when that is not known."""
    if obj.__class__ is dict:
        try:
            return _parse_dict_shaped(obj, 0)
        except Exception:  # the same refusal parse_chunk gives, made there
            pass
    return parse_chunk(obj), False
