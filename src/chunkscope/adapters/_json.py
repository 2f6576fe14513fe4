"""Turn whatever a foreign library yields into plain JSON values.

Adapters promise JSON-serializable chunks, but the libraries hand us pydantic models,
dataclasses, exceptions, bytes and datetimes. This module is the one place that knows
how to flatten them, without ever raising: an object it cannot understand becomes its
``repr`` so nothing is lost silently.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import enum
import itertools
import json
import math
from collections.abc import Mapping
from typing import Any

JSON = Any
"""A value made only of dict, list, str, int, float, bool and None."""

_MAX_DEPTH = 64


def to_jsonable(value: object, _depth: int = 0) -> JSON:
    """Return ``value`` as JSON-compatible values (never raises).

    What already is JSON (dicts with string keys, lists, strings, finite numbers, booleans,
    None) is returned as it is, not copied: a foreign event kept in a ``raw`` chunk shares
    its containers with the event. Only the parts that need converting are new objects.
    """
    try:
        return _convert(value, _depth)
    except Exception as exc:  # a broken __repr__ or model_dump must not crash the stream
        return f"<unserializable {type(value).__name__}: {exc}>"


_SCALARS = frozenset({str, int, bool, type(None)})


def _convert(value: object, depth: int) -> JSON:
    cls = value.__class__
    if cls in _SCALARS:
        return value
    if cls is dict:
        return _convert_dict(value, depth)  # type: ignore[arg-type]
    if cls is list:
        return _convert_list(value, depth)  # type: ignore[arg-type]
    return _convert_other(value, depth)


def _convert_dict(value: dict[Any, Any], depth: int) -> JSON:
    """The dict itself when every key is a string and every value is JSON; else a copy."""
    if depth > _MAX_DEPTH:
        return f"<nested too deep: {type(value).__name__}>"
    copy: dict[str, Any] | None = None
    for index, (key, item) in enumerate(value.items()):
        converted = item if item.__class__ in _SCALARS else _convert(item, depth + 1)
        if copy is None:
            if converted is item and key.__class__ is str:
                continue
            copy = {str(k): v for k, v in itertools.islice(value.items(), index)}
        copy[str(key)] = converted
    return value if copy is None else copy


def _convert_list(value: list[Any], depth: int) -> JSON:
    """The list itself when every item is JSON; else a copy."""
    if depth > _MAX_DEPTH:
        return f"<nested too deep: {type(value).__name__}>"
    copy: list[Any] | None = None
    for index, item in enumerate(value):
        converted = item if item.__class__ in _SCALARS else _convert(item, depth + 1)
        if copy is None:
            if converted is item:
                continue
            copy = value[:index]
        copy.append(converted)
    return value if copy is None else copy


def _convert_other(value: object, depth: int) -> JSON:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if depth > _MAX_DEPTH:
        return f"<nested too deep: {type(value).__name__}>"
    if isinstance(value, enum.Enum):
        return _convert(value.value, depth + 1)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): _convert(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_convert(v, depth + 1) for v in value]
    if isinstance(value, BaseException):
        return exception_info(value)
    model_dump = getattr(value, "model_dump", None)
    if callable(model_dump) and not isinstance(value, type):
        return _convert(model_dump(mode="json", by_alias=False), depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _convert(getattr(value, f.name, None), depth + 1)
            for f in dataclasses.fields(value)
            if not f.name.startswith("_")
        }
    return repr(value)


def exception_info(exc: BaseException) -> dict[str, JSON]:
    """The ``{message, name}`` record Mastra puts in ``error`` payloads."""
    return {"name": type(exc).__name__, "message": str(exc) or type(exc).__name__}


def parse_json_text(text: str) -> tuple[bool, JSON]:
    """Parse ``text`` as JSON; return ``(ok, value)`` with the text itself when it fails."""
    try:
        return True, json.loads(text)
    except (ValueError, RecursionError):
        return False, text
