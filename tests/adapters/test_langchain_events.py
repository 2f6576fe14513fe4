"""LangChain ``astream_events(version="v2")`` recordings replayed through the adapter."""

from __future__ import annotations

from pathlib import Path
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

import chunkscope as cs
from chunkscope import accumulate
from chunkscope.adapters import convert_langchain, from_langchain
from chunkscope.fold.parts import Usage
from chunkscope.fold.state import RunState

MASTRA = Path(__file__).parent.parent / "fixtures" / "mastra"


def chunks_of(name: str) -> list[dict[str, Any]]:
    return convert_langchain(replay_list("langchain", name))


def test_bare_fake_chat_model_text() -> None:
    chunks = chunks_of("text")
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
    assert state.text == "Hello there, streaming world!"
    assert state.finish_reason == "stop"
    assert state.status == "finished"


def test_chain_text_is_not_repeated_by_parser_and_chain_stream_events() -> None:
    chunks = chunks_of("chain")
    assert_coherent(chunks)
    deltas = [c["payload"]["text"] for c in of_type(chunks, "text-delta")]
    assert "".join(deltas) == "Paris is the capital."
    state = accumulate(chunks)
    assert state.text == "Paris is the capital."
    assert state.reasoning_text == "The user asks about France."
    assert state.usage is not None
    assert (state.usage.input_tokens, state.usage.output_tokens, state.usage.reasoning_tokens) == (
        12,
        4,
        3,
    )
    raw_events = {c["payload"]["event"] for c in of_type(chunks, "raw")}
    assert {"on_prompt_start", "on_parser_stream", "on_chain_stream"} <= raw_events


def test_react_agent_tool_call_streams_args_and_result_matches_by_id() -> None:
    chunks = chunks_of("agent_tool")
    assert_coherent(chunks)
    assert without(chunks, "raw", "text-delta", "tool-call-delta") == [
        "start",
        "step-start",
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
    deltas = "".join(c["payload"]["argsTextDelta"] for c in of_type(chunks, "tool-call-delta"))
    assert deltas == '{"city": "Paris"}'
    state = accumulate(chunks)
    (call,) = state.tool_calls
    assert (call.tool_call_id, call.tool_name, call.args) == (
        "call_w1",
        "get_weather",
        {"city": "Paris"},
    )
    assert call.result == "Sunny, 21°C in Paris"
    assert state.text == "It is sunny in Paris."
    assert [s["payload"]["stepResult"]["reason"] for s in of_type(chunks, "step-finish")] == [
        "tool-calls",
        "stop",
    ]
    assert state.usage is not None and (state.usage.input_tokens, state.usage.output_tokens) == (
        60,
        14,
    )


def test_custom_events_become_data_chunks() -> None:
    chunks = chunks_of("custom_events")
    assert_coherent(chunks)
    data = [(c["type"], c["data"]) for c in chunks if c["type"].startswith("data-")]
    assert data == [
        ("data-status", {"message": "starting"}),
        ("data-order-progress", {"step": "querying", "orderId": "A-17"}),
    ]
    state = accumulate(chunks)
    (call,) = state.tool_calls
    assert call.args == {"order_id": "A-17"}
    assert state.text == "Order A-17 has shipped."


def test_tool_error_handled_by_tool_node_becomes_tool_error_and_run_goes_on() -> None:
    chunks = chunks_of("handled_tool_error")
    assert_coherent(chunks)
    (error,) = of_type(chunks, "tool-error")
    assert error["payload"]["toolCallId"] == "call_f2"
    assert error["payload"]["error"]["message"] == "database offline while searching 'y'"
    state = accumulate(chunks)
    assert state.text == "The search failed."
    assert state.status == "finished"


def test_failing_tool_that_aborts_the_graph_ends_with_error_and_reraises() -> None:
    seen: list[dict[str, Any]] = []
    with pytest.raises(RecordedFailure, match="database offline"):
        for chunk in from_langchain(replay("langchain", "failing_tool")):
            seen.append(chunk)
    assert_coherent(seen)
    # Ended as Mastra ends a run that threw: the error, then the step's and the run's finish.
    assert without(seen, "raw")[-4:] == ["tool-error", "error", "step-finish", "finish"]
    (error,) = of_type(seen, "error")
    assert "database offline" in error["payload"]["error"]["message"]
    state = accumulate(seen)
    assert state.status == "error"
    assert "database offline" in str(state.error)
    assert state.finish_reason == "error"
    # The model call that asked for the tool had finished: its usage is the run's.
    assert wire(state.usage) == {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15}


async def test_model_raising_mid_stream_closes_text_then_errors_async() -> None:
    seen: list[dict[str, Any]] = []
    with pytest.raises(RecordedFailure, match="model backend went away"):
        async for chunk in from_langchain(areplay("langchain", "model_raises")):
            seen.append(chunk)
    assert_coherent(seen)
    assert without(seen, "raw", "text-delta")[-4:] == ["text-end", "error", "step-finish", "finish"]
    state = accumulate(seen)
    assert state.status == "error"
    assert [step.finish_reason for step in state.steps] == ["error"]
    assert "".join(c["payload"]["text"] for c in of_type(seen, "text-delta")) == "Partial answ"


def test_a_list_cut_before_the_root_run_ends_says_so() -> None:
    events = replay_list("langchain", "agent_tool")[:-5]
    chunks = convert_langchain(events)
    assert_coherent(chunks)
    assert chunks[-1]["type"] == "error"
    assert "before its root run" in chunks[-1]["payload"]["error"]["message"]


async def test_live_library_objects_give_the_same_chunks_as_the_recording() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    model = GenericFakeChatModel(
        messages=iter([AIMessage(content="Hello there, streaming world!")])
    )
    chunks = [c async for c in from_langchain(model.astream_events("hi", version="v2"))]
    assert_coherent(chunks)
    assert [c["type"] for c in chunks] == [c["type"] for c in chunks_of("text")]
    assert accumulate(chunks).text == "Hello there, streaming world!"


@pytest.mark.parametrize("where", ["after", "before"])
async def test_a_tool_no_model_asked_for_joins_a_step_instead_of_making_one(where: str) -> None:
    # A step is one model call and the tools it asked for: a chain's own tool, run after the
    # model answered or before any model call, must not leave the answer in a step of its own.
    pytest.importorskip("langchain_core")
    from langchain_core.output_parsers import StrOutputParser
    from langchain_core.tools import tool
    from langchain_models import ScriptedModel

    @tool
    def shout(text: str) -> str:
        """Upper-case the text."""
        return text.upper()

    @tool
    def lookup(q: str) -> str:
        """Look something up."""
        return f"notes on {q}"

    if where == "after":
        chain: Any = ScriptedModel() | StrOutputParser() | shout
    else:
        chain = lookup | ScriptedModel() | StrOutputParser()
    events = [e async for e in chain.astream_events("q", version="v2")]
    state = accumulate(events)
    assert state.status == "finished"
    assert state.text == "The answer is 42."
    assert [step.finish_reason for step in state.steps] == ["stop"]
    (call,) = state.tool_calls
    assert call.result == ("THE ANSWER IS 42." if where == "after" else "notes on q")


def wire(usage: Usage | None) -> dict[str, Any] | None:
    """A usage as Mastra's JSON, None when there is none."""
    return None if usage is None else usage.wire()


async def raised_run(runnable: Any, message: str) -> RunState:
    """The folded chunks of a live run that raises ``message``; the failure is re-raised."""
    chunks: list[dict[str, Any]] = []
    with pytest.raises(RuntimeError, match=message):
        async for chunk in from_langchain(runnable.astream_events("q", version="v2")):
            chunks.append(chunk)
    assert_coherent(chunks)
    return accumulate(chunks)


def broken_lookup_tool() -> Any:
    from langchain_core.tools import tool

    @tool
    def broken_lookup(text: str) -> str:
        """Look the text up in a service that is down."""
        raise RuntimeError("lookup service unavailable")

    return broken_lookup


SCRIPTED_USAGE = {"inputTokens": 7, "outputTokens": 5, "totalTokens": 12}


async def test_a_tool_raising_after_a_finished_model_call_keeps_its_usage() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.output_parsers import StrOutputParser
    from langchain_models import ScriptedModel

    chain = ScriptedModel() | StrOutputParser() | broken_lookup_tool()
    state = await raised_run(chain, "lookup service unavailable")
    assert state.status == "error"
    assert "lookup service unavailable" in str(state.error)
    assert wire(state.usage) == SCRIPTED_USAGE
    assert state.finish_reason == "error"
    assert [(s.finish_reason, wire(s.usage)) for s in state.steps] == [("stop", SCRIPTED_USAGE)]
    (call,) = state.tool_calls
    assert "lookup service unavailable" in str(call.error)


async def test_a_graph_whose_tool_raises_shows_the_error_and_the_finished_calls_usage() -> None:
    pytest.importorskip("langgraph")
    from langchain_core.runnables import RunnableConfig
    from langchain_core.tools import tool
    from langchain_models import ScriptedModel
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    @tool
    def weather(city: str) -> str:
        """The weather in a city, from a service that is down."""
        raise RuntimeError("weather service unavailable")

    model = ScriptedModel(tool="weather")

    async def agent(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
        # The config is handed on as LangChain asks: before Python 3.11 a coroutine's
        # callbacks do not follow it otherwise, and the model call would send no events.
        return {"messages": [await model.ainvoke(state["messages"], config)]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode([weather]))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    graph = builder.compile()

    view = cs.show(graph.astream_events({"messages": [("user", "q")]}, version="v2"), display=False)
    with pytest.raises(RuntimeError, match="weather service unavailable"):
        await view.wait()
    state = view.state
    assert state.status == "error"
    assert "weather service unavailable" in str(state.error)
    assert [n.notice for n in state.notices] == ["error"]  # one failure, one row
    (call,) = state.tool_calls
    assert (call.tool_name, call.args) == ("weather", {"city": "Oslo"})
    assert wire(state.usage) == SCRIPTED_USAGE
    assert [(s.finish_reason, wire(s.usage)) for s in state.steps] == [
        ("tool-calls", SCRIPTED_USAGE)
    ]


async def test_a_second_model_call_raising_keeps_the_first_calls_usage() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.output_parsers import StrOutputParser
    from langchain_models import ScriptedModel

    second = ScriptedModel(answer="Let me check", fail="model backend went away")
    state = await raised_run(ScriptedModel() | StrOutputParser() | second, "went away")
    assert state.status == "error"
    assert "model backend went away" in str(state.error)
    assert wire(state.usage) == SCRIPTED_USAGE
    assert state.finish_reason == "error"
    assert [(s.finish_reason, wire(s.usage)) for s in state.steps] == [
        ("stop", SCRIPTED_USAGE),
        ("error", {}),
    ]


def ending(state: RunState) -> tuple[Any, ...]:
    """How a run ended: status, finish reason, usage, total usage, each step's reason."""
    return (
        state.status,
        state.finish_reason,
        wire(state.usage),
        wire(state.total_usage),
        [step.finish_reason for step in state.steps],
    )


async def test_a_model_raising_before_any_usage_ends_like_mastras_thrown_model_error() -> None:
    # Mastra ends a run whose model threw with the error, a step finish and a finish whose
    # usage counts nothing: its promises give usage {} and totalUsage {"totalTokens": 0}.
    pytest.importorskip("langchain_core")
    from langchain_models import ScriptedModel

    mastra = cs.accumulate(MASTRA / "model-error-thrown.jsonl")
    refused = "model endpoint refused the request"
    state = await raised_run(ScriptedModel(answer="", fail=refused), refused)
    assert refused in str(state.error)
    assert ending(state) == ending(mastra)
    assert ending(state) == ("error", "error", {}, {"totalTokens": 0}, ["error"])


async def test_a_tool_raising_before_any_model_call_is_shown_with_the_error() -> None:
    pytest.importorskip("langchain_core")
    from langchain_models import ScriptedModel

    state = await raised_run(broken_lookup_tool() | ScriptedModel(), "lookup service unavailable")
    assert state.status == "error"
    (call,) = state.tool_calls
    assert call.tool_name == "broken_lookup"
    assert "lookup service unavailable" in str(call.error)
    assert wire(state.usage) == {}
