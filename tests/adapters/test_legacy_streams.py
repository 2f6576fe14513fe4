"""AI SDK v4 data stream lines and Mastra legacy workflow events."""

from __future__ import annotations

import json

from adapter_fixtures import assert_coherent, of_type, types, without

from chunkscope import accumulate
from chunkscope.adapters import (
    adapt,
    convert_data_stream_v4,
    convert_legacy_workflow,
    from_data_stream_v4,
)

V4 = "".join(
    f"{code}:{json.dumps(value, ensure_ascii=False)}\n"
    for code, value in [
        ("f", {"messageId": "msg-1"}),
        ("g", "Think "),
        ("g", "first."),
        ("j", {"signature": "sig-1"}),
        ("0", "Let me "),
        ("0", "check. 날씨"),
        ("b", {"toolCallId": "call-1", "toolName": "weather"}),
        ("c", {"toolCallId": "call-1", "argsTextDelta": '{"city":'}),
        ("c", {"toolCallId": "call-1", "argsTextDelta": '"Seoul"}'}),
        ("9", {"toolCallId": "call-1", "toolName": "weather", "args": {"city": "Seoul"}}),
        ("a", {"toolCallId": "call-1", "result": {"celsius": 21}}),
        ("2", [{"progress": 1}]),
        ("8", [{"note": "cached"}]),
        (
            "e",
            {
                "finishReason": "tool-calls",
                "usage": {"promptTokens": 10, "completionTokens": 5},
                "isContinued": False,
            },
        ),
        ("f", {"messageId": "msg-2"}),
        (
            "h",
            {
                "sourceType": "url",
                "id": "src-1",
                "url": "https://example.org/w",
                "title": "Weather",
            },
        ),
        ("0", "Sunny."),
        (
            "e",
            {
                "finishReason": "stop",
                "usage": {"promptTokens": 20, "completionTokens": 3},
                "isContinued": False,
            },
        ),
        ("d", {"finishReason": "stop", "usage": {"promptTokens": 30, "completionTokens": 8}}),
    ]
).encode()


def test_v4_data_stream_maps_every_part() -> None:
    chunks = convert_data_stream_v4(V4.decode().splitlines())
    assert_coherent(chunks)
    state = accumulate(chunks)
    assert state.reasoning_text == "Think first."
    assert of_type(chunks, "reasoning-end")[0]["payload"]["signature"] == "sig-1"
    assert state.text == "Sunny."
    (call,) = state.tool_calls
    assert (call.tool_call_id, call.args, call.result) == (
        "call-1",
        {"city": "Seoul"},
        {"celsius": 21},
    )
    assert of_type(chunks, "data-v4")[0]["data"] == [{"progress": 1}]
    assert of_type(chunks, "data-v4-annotations")[0]["data"] == [{"note": "cached"}]
    assert of_type(chunks, "source")[0]["payload"]["url"] == "https://example.org/w"
    assert [s["payload"]["stepResult"]["reason"] for s in of_type(chunks, "step-finish")] == [
        "tool-calls",
        "stop",
    ]
    assert state.usage is not None and (state.usage.input_tokens, state.usage.output_tokens) == (
        30,
        8,
    )
    assert state.finish_reason == "stop"


def test_v4_bytes_split_anywhere_give_the_same_chunks() -> None:
    by_line = convert_data_stream_v4(V4.decode().splitlines())
    by_byte = convert_data_stream_v4([V4[i : i + 1] for i in range(len(V4))])  # bytes pieces
    strip = lambda cs: [{k: v for k, v in c.items() if k != "runId"} for c in cs]  # noqa: E731
    assert strip(by_byte) == strip(by_line)
    assert strip(list(adapt([V4[i : i + 4] for i in range(0, len(V4), 4)]))) == strip(by_line)


def test_v4_error_line_bad_lines_and_missing_finish() -> None:
    chunks = convert_data_stream_v4(
        ['0:"partial"', '3:"model overloaded"', "zz not a part", 'x:{"a":1}']
    )
    assert_coherent(chunks)
    assert of_type(chunks, "error")[0]["payload"]["error"] == {"message": "model overloaded"}
    problems = [r["payload"]["line"] for r in of_type(chunks, "raw")]
    assert problems == ["zz not a part", 'x:{"a":1}']
    cut = convert_data_stream_v4(['0:"partial"'])
    assert cut[-1]["type"] == "error" and "`d:`" in cut[-1]["payload"]["error"]["message"]


async def test_v4_async() -> None:
    async def lines():  # type: ignore[no-untyped-def]
        for line in V4.decode().splitlines(keepends=True):
            yield line

    chunks = [c async for c in from_data_stream_v4(lines())]
    assert accumulate(chunks).text == "Sunny."


LEGACY_WORKFLOW = [
    {"type": "start", "payload": {"runId": "run-legacy"}},
    {
        "type": "step-start",
        "payload": {"id": "fetch", "stepCallId": "s1", "status": "running", "payload": {"q": 1}},
    },
    {"type": "step-result", "payload": {"id": "fetch", "status": "success", "output": {"rows": 3}}},
    {"type": "step-finish", "payload": {"id": "fetch", "metadata": {}}},
    {"type": "step-start", "payload": {"id": "approve", "status": "running"}},
    {"type": "step-suspended", "payload": {"id": "approve", "suspendPayload": {"ask": "ok?"}}},
    {"type": "step-result", "payload": {"id": "approve", "status": "suspended"}},
    {"type": "finish", "payload": {"runId": "run-legacy"}},
]


def test_legacy_workflow_events_get_their_workflow_prefix() -> None:
    chunks = convert_legacy_workflow(LEGACY_WORKFLOW)
    assert types(chunks) == [
        "workflow-start",
        "workflow-step-start",
        "workflow-step-result",
        "workflow-step-finish",
        "workflow-step-start",
        "workflow-step-suspended",
        "workflow-step-result",
        "workflow-finish",
    ]
    assert {c["from"] for c in chunks} == {"WORKFLOW"}
    assert {c["runId"] for c in chunks} == {"run-legacy"}
    assert chunks[2]["payload"]["output"] == {"rows": 3}
    assert chunks[-1]["payload"]["workflowStatus"] == "suspended"
    assert without(list(adapt(LEGACY_WORKFLOW)), "raw") == types(chunks)


def test_legacy_workflow_unknown_events_are_raw() -> None:
    chunks = convert_legacy_workflow([{"type": "mystery", "payload": {}}, "garbage"])
    assert types(chunks) == ["raw", "raw"]


def test_a_legacy_workflow_folds_to_its_own_status_with_no_invalid_chunk() -> None:
    # Passed as the events come: accumulate() adapts them as show() does.
    suspended = accumulate(LEGACY_WORKFLOW)
    assert suspended.status == "suspended"
    succeeded = accumulate([*LEGACY_WORKFLOW[:4], LEGACY_WORKFLOW[-1]])
    assert succeeded.status == "finished"
    for state in (suspended, succeeded):
        assert "invalid" not in state.transcript()
        assert "[step fetch] success" in state.transcript()
    assert '"rows": 3' in succeeded.transcript()
