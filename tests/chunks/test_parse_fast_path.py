"""The delta fast path of `parse_chunk` gives exactly what full validation gives: the same
class, fields, fields set, extras and dump for a valid chunk, the same `InvalidChunk` for a
bad one."""

from __future__ import annotations

import json
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from chunkscope.chunks import InvalidChunk, TextDeltaChunk, ToolCallDeltaChunk, parse_chunk
from chunkscope.chunks.fast import FAST_PARSERS


class Text(str):
    """A str subclass: validation decides about it, never the fast path."""


def full_validation(data: Any) -> Any:
    with mock.patch.dict(FAST_PARSERS, clear=True):
        return parse_chunk(data)


def _state(model: BaseModel) -> Any:
    """Everything that makes two models the same, nested payloads included."""
    return (
        type(model),
        list(model.__dict__),
        {k: _state(v) if isinstance(v, BaseModel) else v for k, v in model.__dict__.items()},
        model.__pydantic_fields_set__,
        model.__pydantic_extra__,
        model.__pydantic_private__,
    )


def assert_same(data: Any) -> None:
    fast, full = parse_chunk(data), full_validation(data)
    assert type(fast) is type(full)
    if isinstance(full, InvalidChunk):
        assert fast == full
        return
    assert fast == full
    assert _state(fast) == _state(full)
    dump = {"by_alias": True, "exclude_unset": True, "mode": "json"}
    assert json.dumps(fast.model_dump(**dump)) == json.dumps(full.model_dump(**dump))
    assert fast.model_dump() == full.model_dump()
    assert _json(fast) == _json(full)


def _json(model: BaseModel) -> str:
    """The JSON dump, or the kind of error it raises (lone surrogates cannot be encoded)."""
    try:
        return model.model_dump_json(by_alias=True)
    except Exception as err:
        return type(err).__name__


values = (
    st.text(max_size=8)
    | st.builds(Text, st.text(max_size=4))
    | st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.binary(max_size=4)
    | st.lists(st.text(max_size=3), max_size=2)
    | st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2)
)
payload_keys = st.sampled_from(
    ["id", "text", "toolCallId", "argsTextDelta", "toolName", "providerMetadata", "other"]
)
top_keys = st.sampled_from(["runId", "from", "metadata", "run_id", "from_", "extra", "payload"])


@st.composite
def delta_like(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["text-delta", "reasoning-delta", "tool-call-delta"]))
    if draw(st.booleans()):  # usually of the right shape, with strings
        if kind == "tool-call-delta":
            payload: Any = {"toolCallId": draw(st.text()), "argsTextDelta": draw(st.text())}
            if draw(st.booleans()):
                payload["toolName"] = draw(st.text())
        else:
            payload = {"id": draw(st.text()), "text": draw(st.text())}
    else:
        payload = draw(st.dictionaries(payload_keys, values, max_size=4))
    if draw(st.integers(0, 9)) == 0:
        payload = draw(values)
    chunk: dict[str, Any] = {"type": kind}
    if draw(st.booleans()):
        chunk["runId"] = draw(st.text(max_size=6) if draw(st.booleans()) else values)
    if draw(st.booleans()):
        chunk["from"] = draw(st.sampled_from(["AGENT", "USER"]) | values)
    chunk["payload"] = payload
    for key in draw(st.lists(top_keys, max_size=2)):
        chunk[key] = draw(values)
    if draw(st.integers(0, 9)) == 0:
        del chunk["payload"]
    return chunk


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(delta_like())
def test_fast_path_agrees_with_full_validation(chunk: dict[str, Any]) -> None:
    assert_same(chunk)


@pytest.mark.parametrize(
    "chunk",
    [
        {"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": "t", "text": "x"}},
        {"type": "reasoning-delta", "payload": {"id": "t", "text": ""}},
        {"type": "text-delta", "runId": "r", "payload": {"id": "t", "text": "\ud800"}},
        {
            "type": "tool-call-delta",
            "runId": "r",
            "from": "AGENT",
            "payload": {"toolCallId": "c", "toolName": "w", "argsTextDelta": '{"a'},
        },
        {"type": "text-delta", "runId": None, "payload": {"id": "t", "text": "x"}},
        {"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": 1, "text": "x"}},
        {"type": "text-delta", "run_id": "r", "payload": {"id": "t", "text": "x"}},
        {"type": "text-delta", "runId": "r", "from": "AGENT", "metadata": {}},
        {"type": "tool-call-delta", "payload": {"toolCallId": "c", "argsTextDelta": b"x"}},
        {"type": "text-delta", "payload": {"id": "t", "text": "x", "providerMetadata": {"a": 1}}},
        {"type": "text-delta", "payload": {"id": Text("t"), "text": "x"}},
    ],
)
def test_fast_path_examples(chunk: dict[str, Any]) -> None:
    assert_same(chunk)


def test_the_usual_shapes_take_the_fast_path() -> None:
    text = {
        "type": "text-delta",
        "runId": "r",
        "from": "AGENT",
        "payload": {"id": "t", "text": "x"},
    }
    tool = {
        "type": "tool-call-delta",
        "runId": "r",
        "from": "AGENT",
        "payload": {"toolCallId": "c", "toolName": "w", "argsTextDelta": "{"},
    }
    assert isinstance(FAST_PARSERS["text-delta"](text), TextDeltaChunk)
    assert isinstance(FAST_PARSERS["tool-call-delta"](tool), ToolCallDeltaChunk)
    assert FAST_PARSERS["text-delta"]({**text, "extra": 1}) is None
