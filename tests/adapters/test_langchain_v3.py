"""A LangChain chat model's ``astream_events(version="v3")``, produced by langchain-core."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

import chunkscope as cs

pytest.importorskip("langchain_core")
from langchain_models import USAGE, ScriptedModel

from chunkscope.adapters import adapt, from_langchain_v3
from chunkscope.fold.parts import Usage
from chunkscope.fold.state import RunState

MASTRA = Path(__file__).parent.parent / "fixtures" / "mastra"


async def v3_events(model: ScriptedModel) -> list[dict[str, Any]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # langchain-core marks version 3 as beta
        stream = await model.astream_events("q", version="v3")
        return [event async for event in stream]


async def test_text_reasoning_and_a_streamed_tool_call_fold_like_version_2() -> None:
    model = ScriptedModel(thought="Check the weather first.", tool="weather")
    events = await v3_events(model)
    assert {e["event"] for e in events} >= {"message-start", "content-block-delta"}
    state = cs.accumulate(events)  # detected, no adapter named
    assert state.status == "finished"
    assert state.text == "The answer is 42."
    assert state.reasoning_text == "Check the weather first."
    (call,) = state.tool_calls
    assert (call.tool_name, call.args) == ("weather", {"city": "Oslo"})
    assert state.finish_reason == "tool-calls"
    assert state.usage is not None
    assert (state.usage.input_tokens, state.usage.output_tokens) == (
        USAGE["input_tokens"],
        USAGE["output_tokens"],
    )
    # The same model through version 2 gives the same answer, call and usage.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v2 = [e async for e in model.astream_events("q", version="v2")]
    before = cs.accumulate(v2)
    assert (before.text, before.tool_calls[0].args, before.usage) == (
        state.text,
        call.args,
        state.usage,
    )


async def test_the_stream_object_is_read_as_handed_over() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        view = cs.show(ScriptedModel().astream_events("q", version="v3"), display=False)
        state = await view.wait()
    assert (state.status, state.text) == ("finished", "The answer is 42.")


async def test_a_stream_cut_before_message_finish_says_so() -> None:
    events = (await v3_events(ScriptedModel()))[:-1]
    chunks = [c async for c in from_langchain_v3(_aiter(events))]
    assert chunks[-1]["type"] == "error"
    assert "before its message-finish" in chunks[-1]["payload"]["error"]["message"]
    assert [c["type"] for c in adapt(events)] == [c["type"] for c in chunks]


async def _aiter(items: list[Any]) -> Any:
    for item in items:
        yield item


def wire(usage: Usage | None) -> dict[str, Any] | None:
    """A usage as Mastra's JSON, None when there is none."""
    return None if usage is None else usage.wire()


def ending(state: RunState) -> tuple[Any, ...]:
    """How a run ended: status, finish reason, usage, total usage, each step's reason."""
    return (
        state.status,
        state.finish_reason,
        wire(state.usage),
        wire(state.total_usage),
        [step.finish_reason for step in state.steps],
    )


async def test_a_model_raising_before_its_message_finish_ends_like_mastras_model_error() -> None:
    # Mastra ends a run whose model failed mid-answer with the error, a step finish and a
    # finish whose usage counts nothing: its promises give usage {} and totalUsage
    # {"totalTokens": 0}.
    overloaded = "upstream model overloaded"
    model = ScriptedModel(answer="Starting to answer", fail=overloaded)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        view = cs.show(model.astream_events("q", version="v3"), display=False)
        with pytest.raises(RuntimeError, match=overloaded):
            await view.wait()
    state = view.state
    assert overloaded in str(state.error)
    assert state.text == "Starting to answer"
    mastra = cs.accumulate(MASTRA / "model-error-in-stream.jsonl")
    assert ending(state) == ending(mastra)
    assert ending(state) == ("error", "error", {}, {"totalTokens": 0}, ["error"])


async def test_a_stream_raising_after_its_message_finished_keeps_the_messages_usage() -> None:
    events = await v3_events(ScriptedModel())

    async def then_raise() -> Any:
        for event in events:
            yield event
        raise RuntimeError("connection reset after the answer")

    chunks: list[dict[str, Any]] = []
    with pytest.raises(RuntimeError, match="connection reset"):
        async for chunk in from_langchain_v3(then_raise()):
            chunks.append(chunk)
    assert [c["type"] for c in chunks][-3:] == ["step-finish", "error", "finish"]
    state = cs.accumulate(chunks)
    assert state.status == "error"
    assert "connection reset after the answer" in str(state.error)
    scripted = {
        "inputTokens": USAGE["input_tokens"],
        "outputTokens": USAGE["output_tokens"],
        "totalTokens": USAGE["total_tokens"],
    }
    assert wire(state.usage) == scripted
    assert [(s.finish_reason, wire(s.usage)) for s in state.steps] == [("stop", scripted)]
    assert state.finish_reason == "error"
