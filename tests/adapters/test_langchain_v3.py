"""A LangChain chat model's ``astream_events(version="v3")``, produced by langchain-core."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import chunkscope as cs

pytest.importorskip("langchain_core")
from langchain_models import USAGE, ScriptedModel

from chunkscope.adapters import adapt, from_langchain_v3


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
