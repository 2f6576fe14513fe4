"""Chunk models: every Mastra chunk type parses to its class and round-trips; bad input never
raises and is reported as `InvalidChunk`; real recordings parse cleanly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from chunkscope import chunks
from chunkscope.chunks.models import (
    AGENT_CHUNK_TYPES,
    CHUNK_CLASSES,
    NETWORK_CHUNK_TYPES,
    WORKFLOW_CHUNK_TYPES,
    AgentExecutionEventChunk,
    BaseChunk,
    DataChunk,
    InvalidChunk,
    TextDeltaChunk,
    TextDeltaPayload,
    ToolCallChunk,
    ToolCallDeltaChunk,
    UnknownChunk,
    WorkflowExecutionEventChunk,
    chunk_family,
    is_transient,
    parse_chunk,
)

FIXTURES = Path(__file__).parent / "fixtures" / "mastra"

RUN = {"runId": "run-1", "from": "AGENT"}
USAGE = {"inputTokens": 12, "outputTokens": 30, "totalTokens": 42}
TOOL = {"toolCallId": "call-1", "toolName": "weather"}
TASK = {
    "taskId": "task-1",
    "toolName": "research",
    "toolCallId": "call-7",
    "runId": "run-1",
    "agentId": "lead",
}
ROUTING = {"task": "Write a haiku", "primitiveId": "writer", "primitiveType": "agent"}
SCORING = {
    "passed": True,
    "results": [{"score": 1}],
    "duration": 12.5,
    "timedOut": False,
    "maxIterationReached": False,
    "suppressFeedback": False,
}
APPROVAL = {**TOOL, "args": {"city": "Seoul"}, "resumeSchema": '{"type":"object"}'}
SUSPENSION = {**APPROVAL, "suspendPayload": {"reason": "need a seat"}}
STEP_RESULT = {"reason": "stop", "isContinued": False, "warnings": []}
MESSAGES: dict[str, list[Any]] = {"all": [], "user": [], "nonUser": []}


def chunk(kind: str, payload: Any, **extra: Any) -> dict[str, Any]:
    return {"type": kind, **RUN, "payload": payload, **extra}


# One representative chunk per type, shaped like @mastra/core 1.71.0's types.d.ts declares it.
SAMPLES: dict[str, dict[str, Any]] = {
    "response-metadata": chunk("response-metadata", {"signature": "sig", "modelId": "m"}),
    "text-start": chunk("text-start", {"id": "t1", "providerMetadata": {"openai": {"x": 1}}}),
    "text-delta": chunk("text-delta", {"id": "t1", "text": "Hello"}),
    "text-end": chunk("text-end", {"id": "t1", "type": "text-end"}),
    "reasoning-start": chunk("reasoning-start", {"id": "r1", "signature": "s"}),
    "reasoning-delta": chunk("reasoning-delta", {"id": "r1", "text": "Let me think"}),
    "reasoning-end": chunk("reasoning-end", {"id": "r1"}),
    "reasoning-signature": chunk("reasoning-signature", {"id": "r1", "signature": "effort=high"}),
    "redacted-reasoning": chunk("redacted-reasoning", {"id": "r2", "data": {"blob": "..."}}),
    "source": chunk(
        "source", {"id": "s1", "sourceType": "url", "title": "Docs", "url": "https://x.dev"}
    ),
    "file": chunk(
        "file", {"data": "iVBORw0KGgo=", "base64": "iVBORw0KGgo=", "mimeType": "image/png"}
    ),
    "reasoning-file": chunk(
        "reasoning-file", {"data": {"0": 137, "1": 80}, "mimeType": "image/png"}
    ),
    "custom": chunk("custom", {"kind": "openai.web-search-progress"}),
    "tool-call": chunk("tool-call", {**TOOL, "args": {"city": "Seoul"}, "providerExecuted": False}),
    "tool-call-approval": chunk("tool-call-approval", APPROVAL),
    "tool-call-suspended": chunk("tool-call-suspended", SUSPENSION),
    "tool-result": chunk("tool-result", {**TOOL, "result": {"tempC": 21}, "isError": False}),
    "tool-call-input-streaming-start": chunk(
        "tool-call-input-streaming-start", {**TOOL, "dynamic": False}
    ),
    "tool-call-delta": chunk("tool-call-delta", {"toolCallId": "call-1", "argsTextDelta": '{"ci'}),
    "tool-call-input-streaming-end": chunk("tool-call-input-streaming-end", {"toolCallId": "c"}),
    "finish": chunk(
        "finish",
        {
            "stepResult": STEP_RESULT,
            "output": {"usage": USAGE, "steps": []},
            "metadata": {"timestamp": "2026-01-01T00:00:00.000Z"},
            "messages": MESSAGES,
        },
    ),
    "error": chunk("error", {"error": {"message": "boom", "name": "Error"}}),
    "raw": chunk("raw", {"type": "response.created", "sequence_number": 0}),
    "start": chunk("start", {"id": "weather-agent", "messageId": "msg-1"}),
    "step-start": chunk(
        "step-start", {"request": {"body": "{}"}, "warnings": [], "messageId": "m"}
    ),
    "step-finish": chunk(
        "step-finish",
        {
            "stepResult": STEP_RESULT,
            "output": {"text": "Hi", "toolCalls": [], "usage": USAGE},
            "metadata": {},
            "totalUsage": USAGE,
            "messageId": "msg-1",
        },
    ),
    "tool-error": chunk("tool-error", {**TOOL, "error": {"name": "MastraError", "id": "X"}}),
    "tool-output-denied": chunk(
        "tool-output-denied",
        {**TOOL, "approval": {"id": "a1", "approved": False, "reason": "no"}},
    ),
    "abort": chunk("abort", {}),
    "object": {"type": "object", **RUN, "object": {"name": "Al"}},
    "object-result": {"type": "object-result", **RUN, "object": {"name": "Alice", "age": 3}},
    "tool-output": {
        "type": "tool-output",
        "runId": "run-1",
        "from": "USER",
        "payload": {"output": {"progress": 0.5}, **TOOL},
    },
    "step-output": chunk("step-output", {"output": {"type": "text-delta", **RUN}}),
    "watch": chunk("watch", {"type": "watch", "payload": {}}),
    "tripwire": {"type": "tripwire", "payload": {"reason": "blocked", "processorId": "guard"}},
    "is-task-complete": chunk("is-task-complete", {"iteration": 1, **SCORING, "reason": "done"}),
    "goal": chunk(
        "goal",
        {
            "objective": "Ship it",
            "iteration": 1,
            "maxRuns": 3,
            "status": "active",
            "maxRunsReached": False,
            "activity": [{"type": "reason", "message": "checking"}],
            **SCORING,
        },
    ),
    "background-task-started": chunk(
        "background-task-started",
        {"taskId": "task-1", "toolName": "research", "toolCallId": "call-7"},
    ),
    "background-task-completed": {
        "type": "background-task-completed",
        "payload": {**TASK, "result": {"ok": True}, "completedAt": "2026-01-01T00:00:00.000Z"},
    },
    "background-task-failed": {
        "type": "background-task-failed",
        "payload": {**TASK, "error": {"message": "nope"}, "completedAt": "2026-01-01T00:00:01Z"},
    },
    "background-task-progress": chunk(
        "background-task-progress", {"taskIds": ["task-1"], "runningCount": 1, "elapsedMs": 3000}
    ),
    "background-task-running": {
        "type": "background-task-running",
        "payload": {**TASK, "startedAt": "2026-01-01T00:00:00.000Z", "args": {"q": "x"}},
    },
    "background-task-cancelled": {
        "type": "background-task-cancelled",
        "payload": {**TASK, "completedAt": 1796010421072},
    },
    "background-task-output": {
        "type": "background-task-output",
        "payload": {
            **TASK,
            "payload": {
                "type": "tool-output",
                "runId": "run-1",
                "from": "USER",
                "payload": {"output": "50%", "toolCallId": "call-7"},
            },
        },
    },
    "background-task-suspended": {
        "type": "background-task-suspended",
        "payload": {**TASK, "args": {}, "suspendPayload": {"ask": "?"}, "suspendedAt": "x"},
    },
    "background-task-resumed": {
        "type": "background-task-resumed",
        "payload": {**TASK, "startedAt": "2026-01-01T00:00:00.000Z", "args": {}},
    },
    "workflow-start": chunk("workflow-start", {"workflowId": "greeting"}, **{"from": "WORKFLOW"}),
    "workflow-finish": chunk(
        "workflow-finish",
        {"workflowStatus": "success", "output": {"usage": USAGE}, "metadata": {}},
    ),
    "workflow-canceled": chunk("workflow-canceled", {}),
    "workflow-paused": chunk("workflow-paused", {}),
    "workflow-step-start": chunk(
        "workflow-step-start",
        {"id": "greet", "stepCallId": "sc-1", "status": "running", "payload": {"name": "Ada"}},
        id="greet",
    ),
    "workflow-step-finish": chunk("workflow-step-finish", {"id": "greet", "metadata": {}}),
    "workflow-step-suspended": chunk(
        "workflow-step-suspended", {"id": "ask", "status": "suspended", "suspendPayload": {}}
    ),
    "workflow-step-waiting": chunk(
        "workflow-step-waiting",
        {"id": "sleep", "payload": {"v": 1}, "startedAt": 1796010421104, "status": "waiting"},
    ),
    "workflow-step-output": {
        "type": "workflow-step-output",
        "runId": "run-1",
        "from": "USER",
        "payload": {"output": {"note": "halfway"}, "runId": "run-1", "stepName": "greet"},
    },
    "workflow-step-progress": chunk(
        "workflow-step-progress",
        {
            "id": "square",
            "completedCount": 1,
            "totalCount": 3,
            "currentIndex": 0,
            "iterationStatus": "success",
            "iterationOutput": {"value": 1},
        },
    ),
    "workflow-step-result": chunk(
        "workflow-step-result",
        {"id": "inner-wf.inner-step", "stepCallId": "sc-2", "status": "success", "output": [1]},
    ),
    "routing-agent-start": chunk(
        "routing-agent-start",
        {
            "agentId": "router",
            "networkId": "net",
            "runId": "run-2",
            "inputData": {"task": "t", "iteration": 0, "isOneOff": False},
        },
    ),
    "routing-agent-text-delta": chunk("routing-agent-text-delta", {"text": "Choosing"}),
    "routing-agent-text-start": chunk("routing-agent-text-start", {"runId": "run-2"}),
    "routing-agent-end": chunk(
        "routing-agent-end",
        {
            **ROUTING,
            "prompt": "Write it",
            "result": "",
            "selectionReason": "best fit",
            "iteration": 0,
            "runId": "run-2",
            "usage": USAGE,
        },
    ),
    "routing-agent-abort": chunk(
        "routing-agent-abort", {"primitiveType": "routing", "primitiveId": "r"}
    ),
    "agent-execution-start": chunk(
        "agent-execution-start",
        {"agentId": "writer", "args": {**ROUTING, "iteration": 0}, "runId": "run-3"},
    ),
    "agent-execution-approval": chunk(
        "agent-execution-approval",
        {**APPROVAL, "agentId": "writer", "usage": USAGE, "runId": "r", "selectionReason": "x"},
    ),
    "agent-execution-suspended": chunk(
        "agent-execution-suspended",
        {**SUSPENSION, "agentId": "writer", "usage": USAGE, "runId": "r", "selectionReason": "x"},
    ),
    "agent-execution-end": chunk(
        "agent-execution-end",
        {
            "task": "t",
            "agentId": "writer",
            "result": "haiku",
            "isComplete": True,
            "iteration": 0,
            "usage": USAGE,
            "runId": "run-3",
        },
    ),
    "agent-execution-abort": chunk(
        "agent-execution-abort", {"primitiveType": "agent", "primitiveId": "writer"}
    ),
    "workflow-execution-start": chunk(
        "workflow-execution-start",
        {"name": "greet", "workflowId": "greet", "args": {"task": "t"}, "runId": "run-4"},
    ),
    "workflow-execution-end": chunk(
        "workflow-execution-end",
        {
            **ROUTING,
            "name": "greet",
            "workflowId": "greet",
            "result": "{}",
            "isComplete": False,
            "iteration": 1,
            "usage": USAGE,
            "runId": "run-4",
        },
    ),
    "workflow-execution-suspended": chunk(
        "workflow-execution-suspended",
        {
            **SUSPENSION,
            "name": "greet",
            "workflowId": "greet",
            "usage": USAGE,
            "runId": "run-4",
            "selectionReason": "x",
        },
    ),
    "workflow-execution-abort": chunk(
        "workflow-execution-abort", {"primitiveType": "workflow", "primitiveId": "greet"}
    ),
    "tool-execution-start": chunk(
        "tool-execution-start", {"args": {"toolName": "weather", "args": {}}, "runId": "r"}
    ),
    "tool-execution-end": chunk(
        "tool-execution-end",
        {**ROUTING, **TOOL, "result": 21, "isComplete": False, "iteration": 2},
    ),
    "tool-execution-approval": chunk(
        "tool-execution-approval", {**APPROVAL, "selectionReason": "x", "runId": "r"}
    ),
    "tool-execution-suspended": chunk(
        "tool-execution-suspended", {**SUSPENSION, "selectionReason": "x", "runId": "r"}
    ),
    "tool-execution-abort": chunk(
        "tool-execution-abort", {"primitiveType": "tool", "primitiveId": "weather"}
    ),
    "network-execution-event-step-finish": chunk(
        "network-execution-event-step-finish",
        {"task": "t", "result": "r", "isComplete": False, "iteration": 0, "runId": "run-2"},
    ),
    "network-execution-event-finish": chunk(
        "network-execution-event-finish",
        {
            **ROUTING,
            "prompt": "p",
            "result": "done",
            "completionReason": "complete",
            "iteration": 0,
            "isOneOff": False,
            "usage": USAGE,
        },
    ),
    "network-validation-start": chunk(
        "network-validation-start", {"runId": "r", "iteration": 0, "checksCount": 2}
    ),
    "network-validation-end": chunk(
        "network-validation-end", {"runId": "r", "iteration": 0, **SCORING}
    ),
    "network-object": chunk("network-object", {"object": {"a": 1}}),
    "network-object-result": chunk("network-object-result", {"object": {"a": 1, "b": 2}}),
    # Prefix families.
    "agent-execution-event-text-delta": {
        "type": "agent-execution-event-text-delta",
        "runId": "run-2",
        "from": "NETWORK",
        "payload": {**chunk("text-delta", {"id": "t", "text": "hi"}), "runId": "step-1"},
    },
    "workflow-execution-event-workflow-step-result": {
        "type": "workflow-execution-event-workflow-step-result",
        "runId": "run-2",
        "from": "NETWORK",
        "payload": chunk(
            "workflow-step-result", {"id": "s", "stepCallId": "c", "status": "failed"}
        ),
    },
    "data-progress": {"type": "data-progress", "data": {"pct": 40}, "id": "p1", "transient": True},
}

FAMILY_CLASSES = {
    "agent-execution-event-text-delta": AgentExecutionEventChunk,
    "workflow-execution-event-workflow-step-result": WorkflowExecutionEventChunk,
    "data-progress": DataChunk,
}

# The types @mastra/core 1.71.0 declares in dist/stream/types.d.ts, written out by hand.
DECLARED_AGENT_TYPES = [
    "response-metadata",
    "text-start",
    "text-delta",
    "text-end",
    "reasoning-start",
    "reasoning-delta",
    "reasoning-end",
    "reasoning-signature",
    "redacted-reasoning",
    "source",
    "file",
    "reasoning-file",
    "custom",
    "tool-call",
    "tool-call-approval",
    "tool-call-suspended",
    "tool-result",
    "tool-call-input-streaming-start",
    "tool-call-delta",
    "tool-call-input-streaming-end",
    "finish",
    "error",
    "raw",
    "start",
    "step-start",
    "step-finish",
    "tool-error",
    "tool-output-denied",
    "abort",
    "object",
    "object-result",
    "tool-output",
    "step-output",
    "watch",
    "tripwire",
    "is-task-complete",
    "goal",
    "background-task-started",
    "background-task-completed",
    "background-task-failed",
    "background-task-progress",
    "background-task-running",
    "background-task-cancelled",
    "background-task-output",
    "background-task-suspended",
    "background-task-resumed",
]
DECLARED_WORKFLOW_TYPES = [
    "workflow-start",
    "workflow-finish",
    "workflow-canceled",
    "workflow-paused",
    "workflow-step-start",
    "workflow-step-finish",
    "workflow-step-suspended",
    "workflow-step-waiting",
    "workflow-step-output",
    "workflow-step-progress",
    "workflow-step-result",
]
DECLARED_NETWORK_TYPES = [
    "routing-agent-start",
    "routing-agent-text-delta",
    "routing-agent-text-start",
    "routing-agent-end",
    "routing-agent-abort",
    "agent-execution-start",
    "agent-execution-approval",
    "agent-execution-suspended",
    "agent-execution-end",
    "agent-execution-abort",
    "workflow-execution-start",
    "workflow-execution-end",
    "workflow-execution-suspended",
    "workflow-execution-abort",
    "tool-execution-start",
    "tool-execution-end",
    "tool-execution-approval",
    "tool-execution-suspended",
    "tool-execution-abort",
    "network-execution-event-step-finish",
    "network-execution-event-finish",
    "network-validation-start",
    "network-validation-end",
    "network-object",
    "network-object-result",
]


def dump(c: BaseModel) -> Any:
    return c.model_dump(by_alias=True, exclude_unset=True, mode="json")


def pascal(kind: str) -> str:
    return "".join(part.capitalize() for part in kind.split("-"))


# --- the vocabulary -------------------------------------------------------------------------


def test_type_sets_match_the_mastra_declarations() -> None:
    assert len(DECLARED_AGENT_TYPES) == 46
    assert set(DECLARED_AGENT_TYPES) == AGENT_CHUNK_TYPES
    assert set(DECLARED_WORKFLOW_TYPES) == WORKFLOW_CHUNK_TYPES
    assert set(DECLARED_NETWORK_TYPES) == NETWORK_CHUNK_TYPES
    assert set(CHUNK_CLASSES) == AGENT_CHUNK_TYPES | WORKFLOW_CHUNK_TYPES | NETWORK_CHUNK_TYPES


def test_every_declared_type_has_a_sample() -> None:
    assert set(CHUNK_CLASSES) <= set(SAMPLES)


@pytest.mark.parametrize("kind", sorted(CHUNK_CLASSES))
def test_classes_are_named_after_their_type(kind: str) -> None:
    cls = CHUNK_CLASSES[kind]
    assert cls.__name__ == pascal(kind) + "Chunk"
    payload = cls.model_fields.get("payload")
    annotation = payload.annotation if payload is not None else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        assert annotation.__name__ == pascal(kind) + "Payload"
    assert getattr(chunks, cls.__name__) is cls
    assert cls.__name__ in chunks.__all__


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_each_type_parses_to_its_class_and_round_trips(kind: str) -> None:
    sample = SAMPLES[kind]
    parsed = parse_chunk(sample)
    expected = CHUNK_CLASSES.get(kind) or FAMILY_CLASSES[kind]
    assert type(parsed) is expected, getattr(parsed, "error", None)
    assert dump(parsed) == sample
    # The same chunk as JSON text and as UTF-8 bytes gives the same model.
    text = json.dumps(sample)
    assert dump(parse_chunk(text)) == sample
    assert dump(parse_chunk(text.encode())) == sample


def test_every_field_is_documented() -> None:
    models = [
        value
        for value in vars(chunks).values()
        if isinstance(value, type) and issubclass(value, BaseModel) and value is not BaseModel
    ]
    assert len(models) > 150
    undocumented = [
        f"{model.__name__}.{name}"
        for model in models
        for name, field in model.model_fields.items()
        if not field.description
    ]
    assert undocumented == []


def test_all_lists_only_existing_names() -> None:
    missing = [name for name in chunks.__all__ if not hasattr(chunks, name)]
    assert missing == []
    assert "Chunk" in chunks.__all__ and "parse_chunk" in chunks.__all__


# --- attribute names and aliases ------------------------------------------------------------


def test_snake_case_attributes_alias_mastra_names() -> None:
    delta = parse_chunk(SAMPLES["tool-call-delta"])
    assert isinstance(delta, ToolCallDeltaChunk)
    assert delta.payload.tool_call_id == "call-1"
    assert delta.payload.args_text_delta == '{"ci'
    assert delta.run_id == "run-1"
    assert delta.from_ == "AGENT"

    task = parse_chunk(SAMPLES["background-task-progress"])
    assert task.payload.running_count == 1  # type: ignore[union-attr]
    assert task.payload.elapsed_ms == 3000  # type: ignore[union-attr]
    finish = parse_chunk(SAMPLES["finish"])
    assert finish.payload.step_result.reason == "stop"  # type: ignore[union-attr]
    assert finish.payload.output.usage.total_tokens == 42  # type: ignore[union-attr]
    source = parse_chunk(SAMPLES["source"])
    assert source.payload.source_type == "url"  # type: ignore[union-attr]
    wf = parse_chunk(SAMPLES["workflow-finish"])
    assert wf.payload.workflow_status == "success"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("model", "attribute", "alias"),
    [
        (chunks.ToolCallPayload, "provider_executed", "providerExecuted"),
        (chunks.ToolCallPayload, "provider_metadata", "providerMetadata"),
        (chunks.ToolResultPayload, "is_error", "isError"),
        (chunks.FilePayload, "mime_type", "mimeType"),
        (chunks.StepFinishPayload, "total_usage", "totalUsage"),
        (chunks.TripwirePayload, "processor_id", "processorId"),
        (chunks.BackgroundTaskStartedPayload, "task_id", "taskId"),
        (chunks.BackgroundTaskSuspendedPayload, "suspend_payload", "suspendPayload"),
        (chunks.UsagePayload, "cache_creation_input_tokens_5m", "cacheCreationInputTokens5m"),
        (chunks.UsagePayload, "cached_input_tokens", "cachedInputTokens"),
        (BaseChunk, "from_", "from"),
        (BaseChunk, "run_id", "runId"),
    ],
)
def test_aliases(model: type[BaseModel], attribute: str, alias: str) -> None:
    assert model.model_fields[attribute].alias == alias


def test_models_built_in_python_dump_mastra_names() -> None:
    built = TextDeltaChunk(
        type="text-delta", run_id="r", from_="AGENT", payload=TextDeltaPayload(id="t", text="x")
    )
    assert dump(built) == {
        "type": "text-delta",
        "runId": "r",
        "from": "AGENT",
        "payload": {"id": "t", "text": "x"},
    }
    assert parse_chunk(built) is built


def test_from_outside_the_enum_is_kept() -> None:
    sample = {**SAMPLES["text-delta"], "from": "SOMEWHERE-NEW"}
    parsed = parse_chunk(sample)
    assert isinstance(parsed, TextDeltaChunk)
    assert parsed.from_ == "SOMEWHERE-NEW"


# --- leniency where real streams need it ----------------------------------------------------


def test_unknown_fields_and_nulls_survive() -> None:
    sample = {
        **SAMPLES["tool-call"],
        "futureField": {"a": [1, None]},
        "metadata": None,
        "payload": {**SAMPLES["tool-call"]["payload"], "title": None, "extraThing": 1},
    }
    parsed = parse_chunk(sample)
    assert isinstance(parsed, ToolCallChunk)
    assert dump(parsed) == sample


@pytest.mark.parametrize(
    "sample",
    [
        {"type": "tripwire", "payload": {"reason": "blocked"}},
        {"type": "background-task-failed", "payload": SAMPLES["background-task-failed"]["payload"]},
        {"type": "data-x", "data": None},
        {"type": "data-x"},
    ],
)
def test_chunks_without_run_id_or_from_parse(sample: dict[str, Any]) -> None:
    parsed = parse_chunk(sample)
    assert isinstance(parsed, BaseChunk) and not isinstance(parsed, UnknownChunk)
    assert parsed.run_id is None and parsed.from_ is None
    assert dump(parsed) == sample


def test_numbers_keep_their_json_form() -> None:
    sample = SAMPLES["is-task-complete"]
    text = json.dumps(sample)
    # 1 stays 1 and 12.5 stays 12.5, so the JSON text comes back the same.
    assert json.dumps(dump(parse_chunk(text)), sort_keys=True) == json.dumps(sample, sort_keys=True)


def test_values_are_not_coerced() -> None:
    coerced = parse_chunk(chunk("is-task-complete", {**SCORING, "iteration": "3"}))
    assert isinstance(coerced, InvalidChunk)
    assert coerced.error == "payload.iteration: Input should be a number"
    flag = parse_chunk(chunk("tool-result", {**TOOL, "isError": 1}))
    assert isinstance(flag, InvalidChunk)
    assert "payload.isError" in flag.error


# --- unknown and invalid chunks -------------------------------------------------------------


def test_unknown_type_keeps_every_field() -> None:
    sample = {
        "type": "brand-new-chunk",
        "runId": "r",
        "from": "AGENT",
        "payload": {"x": [1]},
        "z": 1,
    }
    parsed = parse_chunk(sample)
    assert isinstance(parsed, UnknownChunk)
    assert parsed.type == "brand-new-chunk"
    assert parsed.payload == {"x": [1]}
    assert dump(parsed) == sample
    assert chunk_family(parsed.type) == "other"


def test_broken_payload_names_the_field() -> None:
    sample = chunk("tool-call-delta", {"argsTextDelta": "{"})
    parsed = parse_chunk(sample)
    assert isinstance(parsed, InvalidChunk)
    assert not isinstance(parsed, BaseChunk)
    assert parsed.type == "tool-call-delta"
    assert parsed.error == "payload.toolCallId: Field required"
    assert parsed.raw is sample


def test_missing_payload_and_wrong_shapes_are_reported() -> None:
    missing = parse_chunk({"type": "text-delta", **RUN})
    assert isinstance(missing, InvalidChunk) and missing.error == "payload: Field required"
    wrong = parse_chunk(chunk("text-delta", ["not", "an", "object"]))
    assert isinstance(wrong, InvalidChunk) and wrong.error.startswith("payload: ")
    run = parse_chunk({**SAMPLES["text-delta"], "runId": 7})
    assert isinstance(run, InvalidChunk) and run.error.startswith("runId: ")


def test_many_errors_are_summarised() -> None:
    wrong = {
        "objective": 1,
        "iteration": "1",
        "maxRuns": "3",
        "passed": "yes",
        "status": 2,
        "results": {},
        "duration": "9",
        "timedOut": 0,
        "maxRunsReached": 0,
        "suppressFeedback": 0,
    }
    parsed = parse_chunk(chunk("goal", wrong))
    assert isinstance(parsed, InvalidChunk)
    assert len(parsed.issues) == 10
    assert parsed.error.endswith("(and 5 more)")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({}, "type: missing"),
        ({"type": None}, "type: expected a string, got null"),
        ({"type": ["text-delta"]}, "type: expected a string, got array"),
        ([1, 2], "expected a JSON object, got array"),
        (42, "expected a JSON object, got number"),
        (None, "expected a JSON object, got null"),
        ("[1]", "expected a JSON object, got array"),
        ('"text"', "expected a JSON object, got string"),
        ("", "not valid JSON: Expecting value: line 1 column 1 (char 0)"),
        ('{"type": "text-delta"', "not valid JSON: "),
        (object(), "expected a JSON object, got object"),
    ],
)
def test_not_a_chunk_is_invalid(value: Any, message: str) -> None:
    parsed = parse_chunk(value)
    assert isinstance(parsed, InvalidChunk)
    assert parsed.error.startswith(message)
    assert parsed.type is None


def test_raw_keeps_the_input_as_given() -> None:
    text = '{"type": "tool-call-delta", "payload": {}}'
    assert parse_chunk(text).raw == text  # type: ignore[union-attr]
    assert parse_chunk(text.encode()).raw == text  # type: ignore[union-attr]
    assert parse_chunk("[1]").raw == "[1]"  # type: ignore[union-attr]
    sample = {"type": "tool-call-delta", "payload": {}}
    assert parse_chunk(sample).raw is sample  # type: ignore[union-attr]


def test_invalid_utf8_bytes() -> None:
    blob = b'{"type": "text-delta", "payload": {"id": "t", "text": "\xff\xfe"}}'
    parsed = parse_chunk(blob)
    assert isinstance(parsed, InvalidChunk)
    assert parsed.error.startswith("not valid UTF-8: byte ")
    assert parsed.type == "text-delta"
    assert parsed.raw == blob.decode("utf-8", errors="replace")
    # An encoded lone surrogate is not UTF-8 either.
    assert isinstance(parse_chunk(b'{"type": "x\xed\xa0\x80"}'), InvalidChunk)


def test_nul_bytes() -> None:
    escaped = parse_chunk('{"type": "text-delta", "payload": {"id": "t", "text": "a\\u0000b"}}')
    assert isinstance(escaped, TextDeltaChunk) and escaped.payload.text == "a\x00b"
    bare = parse_chunk('{"type": "text-delta", "payload": {"id": "t", "text": "a\x00b"}}')
    assert isinstance(bare, InvalidChunk) and "Invalid control character" in bare.error
    assert isinstance(parse_chunk(b"\x00\x00"), InvalidChunk)
    in_dict = parse_chunk(chunk("text-delta", {"id": "\x00", "text": "\x00"}))
    assert isinstance(in_dict, TextDeltaChunk)


def test_lone_surrogates() -> None:
    escaped = parse_chunk('{"type": "text-delta", "payload": {"id": "t", "text": "\\ud800"}}')
    assert isinstance(escaped, TextDeltaChunk) and escaped.payload.text == "\ud800"
    raw = parse_chunk(chunk("text-delta", {"id": "t", "text": "x\udfff"}))
    assert isinstance(raw, TextDeltaChunk)
    assert isinstance(parse_chunk('{"type": "te\udc00xt"}'), UnknownChunk)


def test_deep_nesting_does_not_raise() -> None:
    deep_text = "[" * 10_000 + "]" * 10_000
    parsed = parse_chunk(deep_text)
    assert isinstance(parsed, InvalidChunk) and "nested too deeply" in parsed.error
    deep_object = '{"type": "tool-call", "payload": ' + '{"a":' * 10_000 + "1" + "}" * 10_001 + "}"
    assert isinstance(parse_chunk(deep_object), InvalidChunk)

    # A deep value inside a field that takes any JSON is kept as it is.
    value: Any = 1
    for _ in range(10_000):
        value = [value]
    call = parse_chunk(chunk("tool-call", {**TOOL, "args": value}))
    assert isinstance(call, ToolCallChunk) and call.payload.args is value


def test_deeply_wrapped_chunks_stop_at_a_limit() -> None:
    inner: dict[str, Any] = SAMPLES["text-delta"]
    for _ in range(10_000):
        inner = {"type": "agent-execution-event-x", "payload": inner}
    parsed = parse_chunk(inner)
    assert isinstance(parsed, InvalidChunk)
    assert parsed.error.endswith("chunks nested more than 32 levels deep")


def test_huge_strings() -> None:
    text = "ab" * 5_000_000
    parsed = parse_chunk(chunk("text-delta", {"id": "t", "text": text}))
    assert isinstance(parsed, TextDeltaChunk) and parsed.payload.text is text
    assert isinstance(parse_chunk("x" * 10_000_000), InvalidChunk)


def test_hostile_mapping_does_not_escape() -> None:
    class Broken(dict):  # type: ignore[type-arg]
        def get(self, *args: Any) -> Any:
            raise RuntimeError("no")

    parsed = parse_chunk(Broken(type="text-delta"))
    assert isinstance(parsed, InvalidChunk)
    assert "RuntimeError" in parsed.error


def test_invalid_chunk_is_returned_unchanged() -> None:
    invalid = parse_chunk("nope")
    assert parse_chunk(invalid) is invalid


# --- nested chunks --------------------------------------------------------------------------


def test_wrapper_payload_is_a_parsed_chunk() -> None:
    wrapped = parse_chunk(SAMPLES["agent-execution-event-text-delta"])
    assert isinstance(wrapped, AgentExecutionEventChunk)
    assert isinstance(wrapped.payload, TextDeltaChunk)
    assert wrapped.payload.payload.text == "hi"
    assert wrapped.payload.run_id == "step-1"
    output = parse_chunk(SAMPLES["background-task-output"])
    assert isinstance(output.payload.payload, chunks.ToolOutputChunk)  # type: ignore[union-attr]


def test_invalid_nested_chunk_makes_the_wrapper_invalid() -> None:
    sample = {
        "type": "agent-execution-event-tool-call",
        **RUN,
        "payload": chunk("tool-call", {"toolName": "x"}),
    }
    parsed = parse_chunk(sample)
    assert isinstance(parsed, InvalidChunk)
    assert parsed.type == "agent-execution-event-tool-call"
    assert parsed.error == "payload.payload.toolCallId: Field required"
    not_object = parse_chunk({"type": "workflow-execution-event-x", "payload": 3})
    assert isinstance(not_object, InvalidChunk)
    assert not_object.error == "payload: expected a chunk object, got number"


def test_unknown_nested_chunk_is_kept() -> None:
    sample = {"type": "agent-execution-event-new", "payload": {"type": "new", "q": 1}}
    parsed = parse_chunk(sample)
    assert isinstance(parsed, AgentExecutionEventChunk)
    assert isinstance(parsed.payload, UnknownChunk)
    assert dump(parsed) == sample


# --- helpers --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "family"),
    [
        ("text-delta", "text"),
        ("reasoning-delta", "reasoning"),
        ("redacted-reasoning", "reasoning"),
        ("reasoning-file", "reasoning"),
        ("tool-call-delta", "tools"),
        ("tool-output-denied", "tools"),
        ("tool-error", "errors"),
        ("error", "errors"),
        ("tripwire", "errors"),
        ("abort", "errors"),
        ("start", "control"),
        ("step-finish", "control"),
        ("finish", "control"),
        ("raw", "control"),
        ("goal", "control"),
        ("workflow-step-result", "workflow"),
        ("background-task-progress", "background"),
        ("data-progress", "data"),
        ("source", "data"),
        ("object-result", "data"),
        ("tool-execution-start", "network"),
        ("workflow-execution-event-workflow-finish", "network"),
        ("agent-execution-event-text-delta", "network"),
        ("network-validation-end", "network"),
        ("routing-agent-text-delta", "network"),
        ("what-is-this", "other"),
    ],
)
def test_chunk_family(kind: str, family: str) -> None:
    assert chunk_family(kind) == family


def test_every_known_type_has_a_family() -> None:
    assert all(chunk_family(kind) != "other" for kind in CHUNK_CLASSES)


def test_is_transient() -> None:
    assert is_transient(parse_chunk(SAMPLES["data-progress"]))
    assert not is_transient(parse_chunk({**SAMPLES["data-progress"], "transient": False}))
    assert not is_transient(parse_chunk({"type": "data-x", "data": 1}))
    assert not is_transient(parse_chunk({"type": "text-delta", "transient": True}))


# --- real recordings ------------------------------------------------------------------------


def fixture_files() -> list[Path]:
    if not FIXTURES.is_dir():
        pytest.skip(f"no recordings folder yet at {FIXTURES}")
    files = sorted(FIXTURES.glob("*.jsonl"))
    assert len(files) > 0, f"{FIXTURES} holds no .jsonl recordings"
    return files


def test_real_recordings_parse_to_their_classes_and_round_trip() -> None:
    count = 0
    problems: list[str] = []
    for path in fixture_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            original = json.loads(line)["chunk"]
            parsed = parse_chunk(original)
            count += 1
            where = f"{path.name}:{number} ({original.get('type')})"
            if isinstance(parsed, (InvalidChunk, UnknownChunk)):
                problems.append(f"{where}: {type(parsed).__name__} {getattr(parsed, 'error', '')}")
            elif dump(parsed) != original:
                problems.append(f"{where}: does not round-trip")
    assert count > 0
    assert problems == []


def test_a_new_process_folds_a_runs_frame_without_building_a_validator() -> None:
    # The first run in a new kernel does not pay for building these validators before its
    # text can leave; types few runs send are still built when first seen.
    script = """
import json
import chunkscope
from chunkscope.chunks.parse import BUILT_AT_IMPORT, CHUNK_CLASSES
built = lambda: {kind for kind, cls in CHUNK_CLASSES.items() if cls.__pydantic_complete__}
at_import = built()
state = chunkscope.accumulate([
    {"type": "start", "runId": "r", "from": "AGENT", "payload": {}},
    {"type": "step-start", "runId": "r", "from": "AGENT", "payload": {"messageId": "m"}},
    {"type": "text-start", "runId": "r", "from": "AGENT", "payload": {"id": "t"}},
    {"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": "t", "text": "Hi"}},
    {"type": "text-end", "runId": "r", "from": "AGENT", "payload": {"id": "t"}},
    {"type": "finish", "runId": "r", "from": "AGENT", "payload": {}},
])
print(json.dumps({"common": list(BUILT_AT_IMPORT), "at_import": sorted(at_import),
                  "after_run": sorted(built()), "text": state.text}))
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen["text"] == "Hi"
    assert set(seen["common"]) <= set(seen["at_import"])
    assert seen["after_run"] == seen["at_import"], "the run built a validator of its own"
    assert "tripwire" not in seen["at_import"], "a rare type was built at import"
