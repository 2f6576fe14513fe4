"""No input makes an adapter raise: garbage becomes ``raw`` or ``error`` chunks."""

from __future__ import annotations

import json
from typing import Any

from adapter_fixtures import assert_coherent
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chunkscope.adapters import ADAPTERS, AutoAdapter, SSEEvent

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 10**6)
    | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)

NAMES = [
    # Konan LLM chat API and LangChain
    "on_chat_model_start",
    "on_chat_model_stream",
    "on_chat_model_end",
    "on_chain_start",
    "on_chain_stream",
    "on_chain_end",
    "on_tool_start",
    "on_tool_end",
    "on_tool_error",
    "on_custom_event",
    "on_retriever_end",
    "on_llm_stream",
    "done",
    "error",
    # pydantic-ai
    "part_start",
    "part_delta",
    "part_end",
    "function_tool_call",
    "function_tool_result",
    "agent_run_result",
    "final_result",
    # OpenAI, AI SDK, legacy, Mastra
    "response.created",
    "response.output_item.added",
    "response.output_item.done",
    "response.output_text.delta",
    "response.function_call_arguments.delta",
    "response.output_text.annotation.added",
    "response.completed",
    "response.failed",
    "start",
    "start-step",
    "text-start",
    "text-delta",
    "text-end",
    "tool-input-start",
    "tool-input-delta",
    "tool-input-available",
    "tool-output-available",
    "tool-output-error",
    "finish-step",
    "finish",
    "abort",
    "data-x",
    "step-result",
    "step-start",
]
KEYS = [
    "id",
    "parent_id",
    "run_id",
    "parent_ids",
    "name",
    "content",
    "data",
    "chunk",
    "output",
    "input",
    "index",
    "part",
    "delta",
    "tool_call_id",
    "toolCallId",
    "toolName",
    "args",
    "item",
    "item_id",
    "response",
    "choices",
    "usage",
    "usage_metadata",
    "finish_reason",
    "additional_kwargs",
    "tool_call_chunks",
    "tool_calls",
    "part_kind",
    "part_delta_kind",
    "content_delta",
    "args_delta",
    "result",
    "errorText",
    "inputTextDelta",
    "payload",
    "from",
    "runId",
    "annotation",
    "object",
    "messageId",
    "status",
    "outcome",
]


@st.composite
def event(draw: st.DrawFn) -> Any:
    name = draw(st.sampled_from(NAMES))
    body = draw(st.dictionaries(st.sampled_from(KEYS), JSON_VALUES, max_size=6))
    nested = draw(st.dictionaries(st.sampled_from(KEYS), JSON_VALUES, max_size=4))
    for key in ("data", "chunk", "part", "delta", "item", "response", "output"):
        if key in body and draw(st.booleans()):
            body[key] = {
                **nested,
                "type": name,
                "part_kind": draw(st.sampled_from(["text", "thinking", "tool-call", "x"])),
            }
    shape = draw(st.integers(0, 6))
    if shape == 0:
        return {"event": name, **body}
    if shape == 1:
        return {"type": name, **body}
    if shape == 2:
        return {"event_kind": name, **body}
    if shape == 3:
        return SSEEvent(
            event=name if draw(st.booleans()) else "message", data=json.dumps(body), id=""
        )
    if shape == 4:
        return (name, body)
    if shape == 5:
        return draw(st.binary(max_size=20))
    return draw(JSON_VALUES)


EVENTS = st.lists(event(), max_size=12)
PASS_THROUGH = {"mastra", "legacy_workflow"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=EVENTS)
# A Konan chain event whose id is a list made a data chunk with a list for its id.
@example(events=[{"event": "on_chat_model_start"}, ("on_chain_start", {"id": []})])
def test_no_adapter_raises_on_garbage(events: list[Any]) -> None:
    for name, adapter_class in ADAPTERS.items():
        chunks = adapter_class().convert(events)
        json.dumps(chunks)
        if name not in PASS_THROUGH:
            assert_coherent(chunks)


@settings(max_examples=40, deadline=None)
@given(events=EVENTS)
def test_auto_detection_never_raises(events: list[Any]) -> None:
    json.dumps(AutoAdapter().convert(events))


@settings(max_examples=40, deadline=None)
@given(pieces=st.lists(st.binary(max_size=40) | st.text(max_size=40), max_size=8))
def test_auto_detection_of_arbitrary_bytes_never_raises(pieces: list[Any]) -> None:
    json.dumps(AutoAdapter().convert(pieces))
