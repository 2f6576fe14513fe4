"""Make any value safe to send to the browser as JSON, without losing the common case.

Model and tool output is untrusted: it can nest ten thousand levels deep, carry lone
surrogates that no UTF-8 encoder accepts, NaN that JSON cannot spell, or bytes. Every value
that crosses the wire goes through ``clip_for_wire``, which returns the very same object when
nothing needed changing, so the cost on ordinary values is one walk.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

MAX_DEPTH = 64
"""Deeper structures are cut at this depth with a marker saying so."""


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def safe_text(text: str) -> str:
    """``text`` with lone surrogates replaced by U+FFFD, so that it encodes as UTF-8.

    U+FFFD rather than ``?``: a reader must not mistake the replacement for real text.
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub("\ufffd", text)
    return text


def clip_for_wire(
    value: Any,
    *,
    max_depth: int = MAX_DEPTH,
    max_string: int | None = None,
    max_items: int | None = None,
) -> Any:
    """A JSON-safe version of ``value``; the same object when it already was one."""
    return _clip(value, max_depth, max_string, max_items)


def _plain_leaf(value: Any, max_string: int | None) -> bool:
    """A leaf that is JSON-safe as it is (the common case, checked without a call to
    ``_clip``): None, a bool, an exact int, a finite float, or a short ASCII string."""
    kind = type(value)
    if kind is str:
        return value.isascii() and (max_string is None or len(value) <= max_string)
    if kind is float:
        return math.isfinite(value)
    return value is None or kind is int or kind is bool


def _clip(value: Any, depth: int, max_string: int | None, max_items: int | None) -> Any:
    kind = type(value)
    if value is None or kind is int or kind is bool:
        return value
    if kind is str:
        if max_string is not None and len(value) > max_string:
            cut = len(value) - max_string
            return safe_text(value[:max_string]) + f"… [{cut:,} more characters]"
        return safe_text(value)
    if kind is float:
        return value if math.isfinite(value) else repr(value)
    if depth <= 0:
        return f"… [nested deeper than {MAX_DEPTH} levels]"
    # Exact dicts and lists are tested by identity first: an ``isinstance`` against the
    # ``Mapping`` ABC costs more than the rest of a small dict's walk.
    if kind is dict or (kind is not list and isinstance(value, Mapping)):
        return _clip_mapping(value, depth, max_string, max_items)
    if kind is list or isinstance(value, (list, tuple)):
        return _clip_sequence(value, depth, max_string, max_items)
    return _clip_other(value, depth, max_string, max_items)


def _clip_sequence(
    value: list[Any] | tuple[Any, ...], depth: int, max_string: int | None, max_items: int | None
) -> Any:
    items = value if max_items is None else value[:max_items]
    changed = False
    clipped_items: list[Any] = []
    for item in items:
        if _plain_leaf(item, max_string):
            clipped_items.append(item)
        else:
            clipped = _clip(item, depth - 1, max_string, max_items)
            changed = changed or clipped is not item
            clipped_items.append(clipped)
    if max_items is not None and len(value) > max_items:
        clipped_items.append(f"… [{len(value) - max_items:,} more items]")
        changed = True
    return clipped_items if changed or type(value) is not list else value


def _clip_mapping(
    value: Mapping[Any, Any], depth: int, max_string: int | None, max_items: int | None
) -> Any:
    changed = False
    out: dict[str, Any] = {}
    for count, (key, item) in enumerate(value.items()):
        if max_items is not None and count >= max_items:
            out["…"] = f"[{len(value) - max_items:,} more keys]"
            changed = True
            break
        safe_key = key if type(key) is str and key.isascii() else safe_text(str(key))
        if _plain_leaf(item, max_string):
            clipped = item
        else:
            clipped = _clip(item, depth - 1, max_string, max_items)
            changed = changed or clipped is not item
        if safe_key is not key:
            changed = True
        out[safe_key] = clipped
    return out if changed or type(value) is not dict else value


def _clip_other(value: Any, depth: int, max_string: int | None, max_items: int | None) -> Any:
    """Values that are neither JSON's own types nor containers: subclasses of them, bytes,
    models and dates, and anything else by its ``repr``."""
    if isinstance(value, (bytes, bytearray)):
        return f"<{len(value):,} bytes>"
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return _clip(float(value), depth, max_string, max_items)
    if isinstance(value, str):
        return _clip(str(value), depth, max_string, max_items)
    if hasattr(value, "model_dump"):
        return _clip(value.model_dump(mode="json", by_alias=True), depth, max_string, max_items)
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    return safe_text(repr(value))
