"""The AI SDK v5 UI message stream recorded from @mastra/ai-sdk's toAISdkV5Stream."""

from __future__ import annotations

from typing import Any

from adapter_fixtures import assert_coherent, of_type, replay_list, sse_bytes, without

from chunkscope import accumulate
from chunkscope.adapters import adapt, convert_ai_sdk, parse_sse


def chunks_of(name: str) -> list[dict[str, Any]]:
    return convert_ai_sdk(replay_list("ai-sdk", name))


def test_agent_run_with_reasoning_tool_and_data_chunks() -> None:
    chunks = chunks_of("agent_tool")
    assert_coherent(chunks)
    assert without(chunks, "text-delta", "reasoning-delta", "tool-call-delta") == [
        "start",
        "step-start",
        "reasoning-start",
        "reasoning-end",
        "text-start",
        "text-end",
        "tool-call-input-streaming-start",
        "tool-call-input-streaming-end",
        "tool-call",
        "data-progress",
        "data-status",
        "tool-result",
        "step-finish",
        "step-start",
        "text-start",
        "text-end",
        "step-finish",
        "finish",
    ]
    state = accumulate(chunks)
    assert state.text == "It is 21 °C and sunny."
    assert state.reasoning_text == "The user wants the weather."
    (call,) = state.tool_calls
    assert (call.tool_call_id, call.tool_name, call.args) == (
        "call-1",
        "get-weather",
        {"city": "Seoul"},
    )
    assert call.result == {"city": "Seoul", "celsius": 21, "sky": "sunny"}
    assert of_type(chunks, "tool-result")[0]["payload"]["toolName"] == "get-weather"
    assert of_type(chunks, "data-status")[0] == {
        "type": "data-status",
        "data": {"stage": "fetched"},
        "id": "status-1",
    }
    assert state.finish_reason == "stop"


def test_tool_failure_keeps_mastras_error_details() -> None:
    chunks = chunks_of("tool_error")
    assert_coherent(chunks)
    (error,) = of_type(chunks, "tool-error")
    assert error["payload"]["toolName"] == "broken-lookup"
    assert error["payload"]["error"]["message"] == "lookup service unavailable"
    assert error["payload"]["error"]["id"] == "TOOL_EXECUTION_FAILED"
    assert accumulate(chunks).text == "The lookup failed."


def test_model_error_then_finish_with_reason_error() -> None:
    chunks = chunks_of("model_error")
    assert_coherent(chunks)
    assert without(chunks, "text-delta") == [
        "start",
        "step-start",
        "text-start",
        "text-end",
        "error",
        "step-finish",
        "finish",
    ]
    assert of_type(chunks, "error")[0]["payload"]["error"]["message"] == "provider overloaded"
    assert chunks[-1]["payload"]["stepResult"]["reason"] == "error"


def test_sse_framing_gives_the_same_chunks_and_is_detected() -> None:
    for name in ("agent_tool", "tool_error", "model_error"):
        data = sse_bytes("ai-sdk", name)
        assert convert_ai_sdk(parse_sse([data])) == chunks_of(name)
        assert list(adapt([data[i : i + 5] for i in range(0, len(data), 5)])) == chunks_of(name)


def test_cut_stream_and_unknown_types() -> None:
    events = [*replay_list("ai-sdk", "agent_tool")[:8], {"type": "tool-approval-request", "x": 1}]
    chunks = convert_ai_sdk(events)
    assert_coherent(chunks)
    assert of_type(chunks, "raw")[0]["payload"]["event"]["type"] == "tool-approval-request"
    assert (
        chunks[-1]["type"] == "error" and "cut short" in chunks[-1]["payload"]["error"]["message"]
    )
