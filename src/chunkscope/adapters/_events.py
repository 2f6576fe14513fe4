"""Normalize the ways a named event can arrive: an SSE event, a dict or a pair."""

from __future__ import annotations

from typing import Any

from ._json import parse_json_text, to_jsonable
from .sse_parser import SSEEvent


def named_event(event: Any) -> tuple[str, Any]:
    """Return ``(name, data)``; data is parsed from JSON text when it is text.

    Accepted: :class:`SSEEvent`, ``{"event": name, "data": ...}``, ``(name, data)``.
    Anything else raises ``ValueError`` (the adapter then keeps it as a ``raw`` chunk).
    """
    name: str
    data: Any
    if isinstance(event, SSEEvent):
        name, data = event.event, event.data
    elif isinstance(event, dict) and isinstance(event.get("event"), str):
        name, data = event["event"], event.get("data")
    elif isinstance(event, (tuple, list)) and len(event) == 2 and isinstance(event[0], str):
        name, data = event[0], event[1]
    else:
        raise ValueError(f"not a named event: {type(event).__name__}")
    if isinstance(data, bytes):
        data = data.decode("utf-8", "replace")
    if isinstance(data, str):
        ok, parsed = parse_json_text(data)
        data = parsed if ok else data
    return name, to_jsonable(data)


def sse_json(event: Any) -> Any:
    """The payload of an SSE event whose data is JSON (``[DONE]`` is returned as text).

    Non-SSE values are returned unchanged, so adapters accept both transports.
    """
    if isinstance(event, SSEEvent):
        ok, value = parse_json_text(event.data)
        if not ok:
            return event.data.strip() if event.data.strip() == "[DONE]" else event
        if isinstance(value, dict) and event.event != "message" and "type" not in value:
            value = {**value, "type": event.event}
        return value
    return event
