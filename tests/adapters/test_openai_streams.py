"""OpenAI SDK chat and responses streams (SDK objects, dicts and raw SSE)."""

from __future__ import annotations

from typing import Any

import pytest
from adapter_fixtures import assert_coherent, of_type, replay_list, sse_bytes, without

from chunkscope import accumulate
from chunkscope.adapters import convert_openai, from_openai, parse_sse


def chunks_of(name: str) -> list[dict[str, Any]]:
    return convert_openai(replay_list("openai", name))


def test_chat_text_with_final_usage_chunk() -> None:
    chunks = chunks_of("chat_text")
    assert_coherent(chunks)
    assert without(chunks, "text-delta") == [
        "start",
        "step-start",
        "text-start",
        "text-end",
        "step-finish",
        "finish",
    ]
    state = accumulate(chunks)
    assert state.text == "Hello! How can I help?"
    assert state.finish_reason == "stop"
    assert state.usage is not None
    assert (
        state.usage.input_tokens,
        state.usage.output_tokens,
        state.usage.cached_input_tokens,
    ) == (19, 10, 4)


def test_chat_parallel_tool_calls_by_index() -> None:
    chunks = chunks_of("chat_tools")
    assert_coherent(chunks)
    state = accumulate(chunks)
    assert [(c.tool_call_id, c.tool_name, c.args) for c in state.tool_calls] == [
        ("call_a", "get_weather", {"city": "Paris"}),
        ("call_b", "get_time", {"zone": "CET"}),
    ]
    assert state.finish_reason == "tool-calls"
    assert of_type(chunks, "step-finish")[0]["payload"]["stepResult"]["rawReason"] == "tool_calls"


def test_chat_reasoning_content_and_length_finish() -> None:
    chunks = chunks_of("chat_reasoning")
    assert_coherent(chunks)
    state = accumulate(chunks)
    assert state.reasoning_text == "Simple greeting."
    assert state.text == "Hi!"
    assert state.finish_reason == "length"
    assert state.usage is not None and state.usage.reasoning_tokens == 5


def test_responses_reasoning_summary_text_and_citation() -> None:
    chunks = chunks_of("responses_text")
    assert_coherent(chunks)
    state = accumulate(chunks)
    assert state.reasoning_text == "Look up weather."
    assert state.text == "Paris is sunny [1]."
    (source,) = of_type(chunks, "source")
    assert source["payload"]["url"] == "https://weather.example/paris"
    assert source["payload"]["title"] == "Paris weather"
    assert state.usage is not None
    assert (
        state.usage.input_tokens,
        state.usage.reasoning_tokens,
        state.usage.cached_input_tokens,
    ) == (30, 12, 10)
    assert chunks[0]["runId"] == "resp_1"


def test_responses_function_call_args_keyed_by_item_id_use_call_id() -> None:
    chunks = chunks_of("responses_function_call")
    assert_coherent(chunks)
    deltas = of_type(chunks, "tool-call-delta")
    assert {d["payload"]["toolCallId"] for d in deltas} == {"call_xyz"}
    assert "".join(d["payload"]["argsTextDelta"] for d in deltas) == '{"city": "Paris"}'
    state = accumulate(chunks)
    (call,) = state.tool_calls
    assert (call.tool_call_id, call.tool_name, call.args) == (
        "call_xyz",
        "get_weather",
        {"city": "Paris"},
    )
    assert state.finish_reason == "tool-calls"


def test_responses_failed_and_error_events() -> None:
    failed = chunks_of("responses_failed")
    assert_coherent(failed)
    assert failed[-1]["type"] == "error"
    assert failed[-1]["payload"]["error"]["message"] == "The model crashed."
    assert failed[-1]["payload"]["error"]["code"] == "server_error"
    assert accumulate(failed).status == "error"
    errored = chunks_of("responses_error")
    assert errored[-1]["payload"]["error"]["code"] == "rate_limit_exceeded"


@pytest.mark.parametrize(
    "name",
    [
        "chat_text",
        "chat_tools",
        "chat_reasoning",
        "responses_function_call",
        "responses_failed",
        "responses_error",
    ],
)
def test_raw_sse_gives_the_same_chunks_as_sdk_objects(name: str) -> None:
    from_sse = convert_openai(parse_sse([sse_bytes("openai", name)]))
    assert from_sse == chunks_of(name)


def test_sdk_objects_are_accepted() -> None:
    openai_types = pytest.importorskip("openai.types.chat")
    events = [
        openai_types.ChatCompletionChunk.model_validate(e)
        for e in replay_list("openai", "chat_tools")
    ]
    assert convert_openai(events) == chunks_of("chat_tools")


def test_stream_cut_before_finish_reports_it() -> None:
    chunks = convert_openai(replay_list("openai", "chat_text")[:3])
    assert_coherent(chunks)
    assert (
        chunks[-1]["type"] == "error" and "cut short" in chunks[-1]["payload"]["error"]["message"]
    )


async def test_async_source() -> None:
    async def events():  # type: ignore[no-untyped-def]
        for event in replay_list("openai", "responses_text"):
            yield event

    assert [c async for c in from_openai(events())] == chunks_of("responses_text")
