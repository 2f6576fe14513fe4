"""pydantic-ai ``run_stream_events()`` recordings replayed through the adapter."""

from __future__ import annotations

from typing import Any

import pytest
from adapter_fixtures import (
    RecordedFailure,
    areplay,
    assert_coherent,
    of_type,
    replay,
    replay_list,
    without,
)

from chunkscope import accumulate
from chunkscope.adapters import convert_pydantic_ai, from_pydantic_ai


def chunks_of(name: str) -> list[dict[str, Any]]:
    return convert_pydantic_ai(replay_list("pydantic_ai", name))


def test_thinking_tool_call_in_pieces_then_text() -> None:
    chunks = chunks_of("tool_call")
    assert_coherent(chunks)
    assert without(chunks, "text-delta", "reasoning-delta", "tool-call-delta", "raw") == [
        "start",
        "step-start",
        "reasoning-start",
        "reasoning-end",
        "tool-call-input-streaming-start",
        "tool-call-input-streaming-end",
        "tool-call",
        "tool-result",
        "step-finish",
        "step-start",
        "text-start",
        "text-end",
        "step-finish",
        "finish",
    ]
    pieces = [c["payload"]["argsTextDelta"] for c in of_type(chunks, "tool-call-delta")]
    assert pieces == ['{"city": ', '"Paris"}']
    state = accumulate(chunks)
    assert state.reasoning_text == "Need the weather tool."
    assert state.text == "It is sunny in Paris."
    (call,) = state.tool_calls
    assert (call.tool_call_id, call.tool_name, call.args) == (
        "call_w1",
        "get_weather",
        {"city": "Paris"},
    )
    assert call.result == {"city": "Paris", "sky": "sunny", "celsius": 21}
    assert state.finish_reason == "stop"
    assert state.usage is not None and (state.usage.input_tokens, state.usage.output_tokens) == (
        100,
        17,
    )


def test_test_model_dict_args_and_first_content_inside_part_start() -> None:
    chunks = chunks_of("test_model_tool")
    assert_coherent(chunks)
    state = accumulate(chunks)
    (call,) = state.tool_calls
    assert call.args == {"zone": "a"} and call.result == "12:00 in a"
    assert state.text == '{"get_time":"12:00 in a"}'


def test_model_retry_becomes_tool_error_then_a_second_call_succeeds() -> None:
    chunks = chunks_of("retry")
    assert_coherent(chunks)
    (error,) = of_type(chunks, "tool-error")
    assert error["payload"]["toolCallId"] == "call_r0"
    assert error["payload"]["error"]["message"] == "names must be lower-case"
    assert error["payload"]["error"]["outcome"] == "retried"
    state = accumulate(chunks)
    assert [c.tool_call_id for c in state.tool_calls] == ["call_r0", "call_r1"]
    assert state.tool_calls[1].result == "user bob found"
    assert len(of_type(chunks, "step-start")) == 3
    assert state.text == "Found it."


def test_structured_output_gives_an_object_result() -> None:
    chunks = chunks_of("structured_output")
    assert_coherent(chunks)
    (result,) = of_type(chunks, "object-result")
    assert result["object"] == {"name": "a", "population": 0}
    assert of_type(chunks, "tool-call")[0]["payload"]["toolName"] == "final_result"


def test_model_error_closes_text_and_reraises() -> None:
    seen: list[dict[str, Any]] = []
    with pytest.raises(RecordedFailure, match="connection reset"):
        for chunk in from_pydantic_ai(replay("pydantic_ai", "model_error")):
            seen.append(chunk)
    assert_coherent(seen)
    assert without(seen, "text-delta", "raw")[-2:] == ["text-end", "error"]
    assert accumulate(seen).status == "error"


async def test_async_replay_equals_sync() -> None:
    chunks = [c async for c in from_pydantic_ai(areplay("pydantic_ai", "tool_call"))]
    strip = lambda cs: [{k: v for k, v in c.items() if k != "runId"} for c in cs]  # noqa: E731
    assert strip(chunks) == strip(chunks_of("tool_call"))


async def test_live_agent_objects() -> None:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    agent: Agent[None, str] = Agent(TestModel())

    @agent.tool_plain
    def double(x: int) -> int:
        """Twice x."""
        return 2 * x

    async def events():  # type: ignore[no-untyped-def]
        async with agent.run_stream_events("go") as stream:
            async for event in stream:
                yield event

    chunks = [c async for c in from_pydantic_ai(events())]
    assert_coherent(chunks)
    state = accumulate(chunks)
    (call,) = state.tool_calls
    assert call.tool_name == "double" and call.result == 0
    assert state.status == "finished"
    assert state.usage is not None and state.usage.input_tokens


async def test_custom_events_become_data_parts_as_in_pydantic_ais_ai_sdk_encoding() -> None:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai.ui.vercel_ai import VercelAIEventStream
    from pydantic_ai_agents import searching_agent

    agent = searching_agent()

    async def events():  # type: ignore[no-untyped-def]
        async with agent.run_stream_events("go") as stream:
            async for event in stream:
                yield event

    live = [event async for event in events()]
    assert any(getattr(e, "event_kind", None) == "custom" for e in live)

    async def again():  # type: ignore[no-untyped-def]
        for event in live:
            yield event

    in_process = accumulate([c async for c in from_pydantic_ai(again())])
    # The same events through pydantic-ai's own AI SDK UI encoding, folded by chunkscope.
    encoded = [
        chunk.model_dump(mode="json", by_alias=True, exclude_none=True)
        async for chunk in VercelAIEventStream(run_input=None).transform_stream(again())
    ]
    ai_sdk = accumulate(encoded)

    def data_parts(state: Any) -> list[tuple[str, Any]]:
        return [(p.data_type, p.data) for p in state.data]

    assert data_parts(in_process) == [
        ("data-search_progress", {"done": 1, "total": 2}),
        ("data-search_progress", {"done": 2, "total": 2}),
    ]
    assert data_parts(in_process) == data_parts(ai_sdk)
    raws = [c["payload"]["event"] for c in convert_pydantic_ai(live) if c["type"] == "raw"]
    assert all(event.get("event_kind") != "custom" for event in raws), raws

    # The JSON dump of a custom event folds the same as the live object.
    dumped = {"event_kind": "custom", "name": "search_progress", "tool_call_id": "c1"}
    (chunk,) = [
        c
        for c in convert_pydantic_ai([{**dumped, "done": 1, "total": 2}])
        if c["type"].startswith("data-")
    ]
    assert chunk == {"type": "data-search_progress", "data": {"done": 1, "total": 2}}


async def test_run_stream_events_is_shown_as_pydantic_ai_hands_it_over() -> None:
    # run_stream_events() returns an async context manager: show() enters and closes it.
    pytest.importorskip("pydantic_ai")
    from pydantic_ai_agents import searching_agent

    import chunkscope as cs

    agent = searching_agent()
    view = cs.show(agent.run_stream_events("go"), display=False)
    state = await view.wait()
    assert state.status == "finished"
    (call,) = state.tool_calls
    assert call.tool_name == "search"
    assert [p.data for p in state.data] == [{"done": 1, "total": 2}, {"done": 2, "total": 2}]
    with pytest.raises(TypeError, match=r"await cs\.show"):
        cs.accumulate(agent.run_stream_events("go"))
