"""The hot path of ``parse_chunk``: the delta chunks a stream sends once per token.

``text-delta``, ``reasoning-delta`` and ``tool-call-delta`` are most of any stream. When such
a chunk is a plain dict of the usual shape (only ``type``, ``runId``, ``from`` and
``payload`` at the top, string ``runId`` / ``from`` when present, a payload dict holding
exactly the usual string fields), every check pydantic would make is done here by hand and
the models are built directly, without running the validator. Anything else (a missing or
extra key, a value of another kind, a str subclass, provider metadata) returns ``None`` and
takes the full validation, so the result is always the one validation gives: the same
model, fields, fields set and dump.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from .agent import (
    ReasoningDeltaChunk,
    ReasoningDeltaPayload,
    TextDeltaChunk,
    TextDeltaPayload,
    ToolCallDeltaChunk,
    ToolCallDeltaPayload,
)
from .base import BaseChunk

_CHUNK_KEYS = frozenset({"type", "runId", "from", "payload"})
_FULL_FIELDS_SET = frozenset({"type", "run_id", "from_", "payload"})

_Fast = Callable[[dict[Any, Any]], Any]

_new = object.__new__
_set = object.__setattr__


def _model(cls: type[BaseModel], values: dict[str, Any], fields_set: set[str]) -> Any:
    """An instance of ``cls`` holding ``values`` (every field, in declaration order)."""
    model = _new(cls)
    _set(model, "__dict__", values)
    _set(model, "__pydantic_fields_set__", fields_set)
    _set(model, "__pydantic_extra__", {})
    _set(model, "__pydantic_private__", None)
    return model


def _chunk(data: dict[Any, Any], cls: type[BaseChunk], kind: str, payload: BaseModel) -> Any:
    """The chunk around an already built payload, or None when the top level is unusual."""
    if len(data) == 4:
        run_id = data.get("runId")
        from_ = data.get("from")
        if run_id.__class__ is not str or from_.__class__ is not str or "payload" not in data:
            return None
        fields_set = set(_FULL_FIELDS_SET)
    else:
        if not data.keys() <= _CHUNK_KEYS:
            return None
        fields_set = {"type", "payload"}
        run_id = data.get("runId")
        if run_id is not None or "runId" in data:
            if run_id.__class__ is not str:
                return None
            fields_set.add("run_id")
        from_ = data.get("from")
        if from_ is not None or "from" in data:
            if from_.__class__ is not str:
                return None
            fields_set.add("from_")
    values = {"type": kind, "run_id": run_id, "from_": from_, "metadata": None, "payload": payload}
    return _model(cls, values, fields_set)


def _part_delta(chunk_cls: type[BaseChunk], payload_cls: type[BaseModel], kind: str) -> _Fast:
    def parse(data: dict[Any, Any]) -> Any:
        payload = data.get("payload")
        if payload.__class__ is not dict or len(payload) != 2:
            return None
        part_id = payload.get("id")
        text = payload.get("text")
        if part_id.__class__ is not str or text.__class__ is not str:
            return None
        values = {"id": part_id, "provider_metadata": None, "text": text}
        return _chunk(data, chunk_cls, kind, _model(payload_cls, values, {"id", "text"}))

    return parse


def _tool_call_delta(data: dict[Any, Any]) -> Any:
    payload = data.get("payload")
    if payload.__class__ is not dict:
        return None
    args = payload.get("argsTextDelta")
    call_id = payload.get("toolCallId")
    if args.__class__ is not str or call_id.__class__ is not str:
        return None
    if len(payload) == 2:
        name = None
        fields_set = {"args_text_delta", "tool_call_id"}
    elif len(payload) == 3 and payload.get("toolName").__class__ is str:
        name = payload["toolName"]
        fields_set = {"args_text_delta", "tool_call_id", "tool_name"}
    else:
        return None
    values = {
        "args_text_delta": args,
        "tool_call_id": call_id,
        "provider_metadata": None,
        "tool_name": name,
    }
    built = _model(ToolCallDeltaPayload, values, fields_set)
    return _chunk(data, ToolCallDeltaChunk, "tool-call-delta", built)


FAST_PARSERS: dict[str, _Fast] = {
    "text-delta": _part_delta(TextDeltaChunk, TextDeltaPayload, "text-delta"),
    "reasoning-delta": _part_delta(ReasoningDeltaChunk, ReasoningDeltaPayload, "reasoning-delta"),
    "tool-call-delta": _tool_call_delta,
}
"""Chunk type → hand check and build for a plain ``dict``; ``None`` means "validate it"."""


def _check_field_order() -> None:
    """The values above are written in the models' field order (the dump follows it)."""
    expected: dict[type[BaseModel], list[str]] = {
        TextDeltaPayload: ["id", "provider_metadata", "text"],
        ReasoningDeltaPayload: ["id", "provider_metadata", "text"],
        ToolCallDeltaPayload: ["args_text_delta", "tool_call_id", "provider_metadata", "tool_name"],
    }
    for cls, names in expected.items():
        assert list(cls.model_fields) == names, f"{cls.__name__} fields changed: update fast.py"
    chunk_classes: tuple[type[BaseChunk], ...] = (
        TextDeltaChunk,
        ReasoningDeltaChunk,
        ToolCallDeltaChunk,
    )
    for chunk_cls in chunk_classes:
        assert list(chunk_cls.model_fields) == ["type", "run_id", "from_", "metadata", "payload"]


_check_field_order()
