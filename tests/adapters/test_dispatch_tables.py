"""Adapters dispatch through explicit tables; to_jsonable keeps what already is JSON."""

from __future__ import annotations

import datetime
import math

from chunkscope.adapters import (
    AISdkAdapter,
    KonanAdapter,
    LangChainAdapter,
    OpenAIAdapter,
    PydanticAIAdapter,
)
from chunkscope.adapters._base import StreamAdapter, on
from chunkscope.adapters._json import to_jsonable


def test_every_adapter_has_its_table() -> None:
    assert {"on_chat_model_stream", "done", "error"} <= set(KonanAdapter.HANDLERS)
    assert {"on_llm_start", "on_chat_model_start", "on_tool_end"} <= set(LangChainAdapter.HANDLERS)
    assert LangChainAdapter.HANDLERS["on_llm_end"] is LangChainAdapter.HANDLERS["on_chat_model_end"]
    assert {"response.output_text.delta", "error"} <= set(OpenAIAdapter.HANDLERS)
    assert {"text-delta", "start-step", "tool-output-error"} <= set(AISdkAdapter.HANDLERS)
    assert {"part_delta", "output_tool_result"} <= set(PydanticAIAdapter.HANDLERS)
    assert StreamAdapter.HANDLERS == {}


def test_a_subclass_starts_from_its_parents_table() -> None:
    class Child(KonanAdapter):
        @on("done", "extra")
        def _finished(self, body: object) -> None:
            self.writer.raw({"finished": body})

    assert Child.HANDLERS["extra"] is Child.HANDLERS["done"] is Child.__dict__["_finished"]
    assert Child.HANDLERS["error"] is KonanAdapter.HANDLERS["error"]
    assert KonanAdapter.HANDLERS["done"] is not Child.HANDLERS["done"]


def test_a_private_name_is_not_an_event() -> None:
    chunks = KonanAdapter().convert([{"event": "_claim_run", "data": {"id": "x"}}])
    assert [c["type"] for c in chunks if c["type"] == "raw"] == ["raw"]


def test_json_is_kept_as_it_is() -> None:
    value = {"a": [1, 2.5, {"b": None, "c": True}], "d": "text"}
    assert to_jsonable(value) is value


def test_what_is_not_json_is_converted_and_the_rest_shared() -> None:
    shared = {"x": [1, 2]}
    when = datetime.date(2026, 1, 2)
    value = {"a": shared, "b": (1, 2), 3: when, "c": [math.inf, shared]}
    out = to_jsonable(value)
    assert out == {"a": {"x": [1, 2]}, "b": [1, 2], "3": "2026-01-02", "c": ["inf", shared]}
    assert out is not value and out["a"] is shared and out["c"][1] is shared
    assert value == {"a": shared, "b": (1, 2), 3: when, "c": [math.inf, shared]}


def test_depth_is_still_limited() -> None:
    deep: list[object] = []
    value: list[object] = deep
    for _ in range(100):
        inner: list[object] = []
        value.append(inner)
        value = inner
    out = to_jsonable(deep)
    for _ in range(65):
        out = out[0]
    assert out == ["<nested too deep: list>"] or isinstance(out, str)


def test_the_v4_data_stream_dispatches_each_part_code_through_its_table() -> None:
    from chunkscope.adapters.legacy import DATA_STREAM_CODES, DataStreamV4Adapter

    handled = set(DataStreamV4Adapter.HANDLERS)
    assert handled == set("0gjhk2839abcedf")
    assert handled <= DATA_STREAM_CODES
    # a code the table does not know stays a raw chunk with its line
    adapter = DataStreamV4Adapter()
    chunks = adapter.feed('i:{"x": 1}\n')
    assert [c["type"] for c in chunks] == ["raw"]
    assert chunks[0]["payload"]["line"] == 'i:{"x": 1}'
