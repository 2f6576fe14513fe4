"""Large part fields cross the wire as a preview; the whole value is served back in pieces.

A 10 MB tool result sent whole would be decoded on the browser's main thread in one long
task, yet the JSON tree only ever shows a slice of it. So a field whose JSON would exceed
``HELD_LIMIT`` is replaced on the wire by a faithful preview (a prefix of each string, the
first entries of each array and object, nothing added inside the value), and the part carries
out-of-band metadata in its ``held`` field: a token, the size of the whole JSON and the full
length of everything the preview shortened (``docs/wire.md``, "Held fields"). The browser asks
for the whole value with a ``fetch`` message when the user wants more than the preview holds.

Values given here are already ``clip_for_wire``-safe: only dicts, lists, str, int, float,
bool and None.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from .schema import PREVIEW_ENTRIES as PREVIEW_ENTRIES
from .schema import PREVIEW_STRING as PREVIEW_STRING
from .schema import HeldAnswer, HeldEntry

HELD_LIMIT = 256 * 1024
"""A field whose JSON is larger than about this many characters is held back."""

PREVIEW_BUDGET = 48 * 1024
"""About how many characters of JSON a preview may take, well under ``HELD_LIMIT``."""

PIECE_BYTES = 256 * 1024
"""UTF-8 bytes of JSON text at most per ``held`` answer, so no single message is large."""

HELD_FIELDS: dict[str, frozenset[str]] = {
    "tool": frozenset({"args", "result", "approval", "suspendPayload"}),
    "output": frozenset({"data"}),
    "object": frozenset({"object"}),
    "data": frozenset({"data"}),
    "background": frozenset({"result"}),
    "workflow": frozenset({"result"}),
    "wstep": frozenset({"input", "output"}),
    "network": frozenset({"payload"}),
    "notice": frozenset({"detail"}),
}
"""Per part kind, the fields the front end draws as a JSON tree, the only ones that can show
a preview with a way to the rest. Streamed text, bookkeeping, text lines such as ``error``
and file contents always cross whole."""

_NO_FIELDS: frozenset[str] = frozenset()


def exceeds(value: Any, limit: int = HELD_LIMIT) -> bool:
    """True when ``value``'s JSON is longer than ``limit`` characters.

    The walk stops as soon as the count passes the limit, so it costs at most about ``limit``
    worth of nodes, and nothing for a scalar. The count is a lower bound (escapes and UTF-8
    only add), so a value said to exceed really does.
    """
    if value is None or type(value) is bool or type(value) is int or type(value) is float:
        return False
    if type(value) is str:
        return len(value) + 2 > limit
    return _measure(value, limit) > limit


def _measure(value: Any, budget: int) -> int:
    """Characters of ``value``'s JSON, counted until they pass ``budget``."""
    kind = type(value)
    if kind is str:
        return len(value) + 2
    if kind is dict:
        total = 2
        for key, item in value.items():
            total += len(key) + 4 + _measure(item, budget - total)
            if total > budget:
                break
        return total
    if kind is list:
        total = 2
        for item in value:
            total += 1 + _measure(item, budget - total)
            if total > budget:
                break
        return total
    if value is None or kind is bool:
        return 5
    return len(repr(value))


def tree_key(key: str) -> str:
    """A key as one step of a JSON-tree path (``js/src/json-tree.ts``): ``~`` → ``~0``,
    ``/`` → ``~1``."""
    return key.replace("~", "~0").replace("/", "~1")


def js_length(text: str) -> int:
    """``text.length`` in JavaScript: UTF-16 code units, which the tree counts in."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def js_key_order(keys: list[str]) -> list[str]:
    """Keys in the order a JavaScript object lists them: array-index keys first, ascending."""
    indices = [k for k in keys if _is_array_index(k)]
    if not indices:
        return keys
    rest = [k for k in keys if not _is_array_index(k)]
    return sorted(indices, key=int) + rest


def _is_array_index(key: str) -> bool:
    if not (key.isascii() and key.isdigit()) or (key[0] == "0" and key != "0"):
        return False
    return int(key) < 2**32 - 1


class _Preview:
    """One preview in the making: the budget left and the lengths of what was shortened."""

    def __init__(self) -> None:
        self.left = PREVIEW_BUDGET
        self.lengths: dict[str, int] = {}

    def of(self, value: Any, path: str) -> Any:
        kind = type(value)
        if kind is str:
            return self._string(value, path)
        if kind is list:
            return self._array(value, path)
        if kind is dict:
            return self._object(value, path)
        self.left -= 5 if value is None or kind is bool else len(repr(value))
        return value

    def _string(self, text: str, path: str) -> str:
        keep = max(0, min(PREVIEW_STRING, self.left - 2))
        if len(text) > keep:
            self.lengths[path] = js_length(text)
            text = text[:keep]
        self.left -= len(text) + 2
        return text

    def _array(self, items: list[Any], path: str) -> list[Any]:
        out: list[Any] = []
        self.left -= 2
        for index, item in enumerate(items):
            if index >= PREVIEW_ENTRIES or self.left <= 0:
                self.lengths[path] = len(items)
                break
            self.left -= 1
            out.append(self.of(item, f"{path}/{index}"))
        return out

    def _object(self, value: dict[str, Any], path: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        self.left -= 2
        for count, key in enumerate(js_key_order(list(value))):
            if count >= PREVIEW_ENTRIES or self.left <= 0:
                self.lengths[path] = len(value)
                break
            self.left -= len(key) + 4
            out[key] = self.of(value[key], f"{path}/{tree_key(key)}")
        return out


def preview(value: Any) -> tuple[Any, dict[str, int]]:
    """A faithful preview of ``value`` and the full length of each thing it shortened, by
    JSON-tree path (``$``, ``$/rows``, ``$/a~1b``)."""
    making = _Preview()
    cut = making.of(value, "$")
    return cut, making.lengths


def json_text(value: Any) -> str:
    """The JSON text the browser parses back into ``value``."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _utf8_size(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


@dataclass(frozen=True, slots=True)
class HeldField:
    """One field held back: what the browser was told, and the whole value to serve."""

    token: int
    size: int
    lengths: dict[str, int]
    preview: Any
    whole: Any

    def wire(self) -> HeldEntry:
        """The entry of the part's ``held`` field."""
        return {"token": self.token, "size": self.size, "lengths": self.lengths}


class HeldValues:
    """Which part fields are held back, under which token; cuts fields and answers fetches."""

    def __init__(self) -> None:
        self._parts: dict[str, dict[str, HeldField]] = {}
        self._tokens = 0

    def held(self, part_id: str) -> dict[str, HeldField]:
        """The fields of ``part_id`` held back now (empty when none)."""
        return dict(self._parts.get(part_id, {}))

    def cut_part(self, part: dict[str, Any], *, reuse: bool = False) -> dict[str, Any]:
        """A wire part (``add`` op or snapshot) with its large fields previewed and ``held``
        set; ``part`` itself when nothing is large. ``reuse`` keeps the token of a field whose
        value is the very object cut before (a snapshot of an unchanged part)."""
        part_id = part["id"]
        names = HELD_FIELDS.get(part["kind"], _NO_FIELDS)
        before = self._parts.pop(part_id, {})
        if not names:
            return part
        kept: dict[str, HeldField] = {}
        for name in names:
            value = part.get(name)
            if exceeds(value):
                old = before.get(name)
                unchanged = reuse and old is not None and old.whole is value
                kept[name] = old if unchanged and old is not None else self._hold(value)
        if not kept:
            return part
        self._parts[part_id] = kept
        out = dict(part)
        for name, entry in kept.items():
            out[name] = entry.preview
        out["held"] = {name: entry.wire() for name, entry in kept.items()}
        return out

    def cut_set(self, part_id: str, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
        """The fields of a ``set`` op with large values previewed; when the part's held
        fields changed, a ``held`` key with all of them (null when none is left)."""
        names = HELD_FIELDS.get(kind, _NO_FIELDS)
        if not names or names.isdisjoint(fields):
            return fields
        entries = self._parts.get(part_id, {})
        out: dict[str, Any] | None = None
        changed = False
        for name in names.intersection(fields):
            value = fields[name]
            if exceeds(value):
                entry = self._hold(value)
                entries = {**entries, name: entry}
                out = dict(fields) if out is None else out
                out[name] = entry.preview
                changed = True
            elif name in entries:
                entries = {k: v for k, v in entries.items() if k != name}
                changed = True
        if not changed:
            return fields
        out = dict(fields) if out is None else out
        if entries:
            self._parts[part_id] = entries
            out["held"] = {name: entry.wire() for name, entry in entries.items()}
        else:
            self._parts.pop(part_id, None)
            out["held"] = None
        return out

    def find(self, part_id: str, field: str, token: int) -> HeldField | str:
        """The held field a ``fetch`` names, or why it cannot be served."""
        entry = self._parts.get(part_id, {}).get(field)
        if entry is None:
            return f"part {part_id!r} holds no field {field!r} back"
        if entry.token != token:
            return f"field {field!r} of part {part_id!r} changed since (token {token} is stale)"
        return entry

    def _hold(self, value: Any) -> HeldField:
        self._tokens += 1
        cut, lengths = preview(value)
        size = _utf8_size(json_text(value))
        return HeldField(self._tokens, size, lengths, cut, value)


def answer(
    request: object, values: HeldValues, lock: AbstractContextManager[Any] | None = None
) -> list[HeldAnswer]:
    """The ``held`` messages answering a ``fetch`` request: the whole value's JSON text in
    pieces of at most ``PIECE_BYTES``, or one message with an ``error``. Never raises on a
    malformed request. ``lock`` (held while looking the field up) guards ``values`` against a
    fold running in another thread; the JSON is written outside it."""
    if not isinstance(request, dict):
        return []
    part_id, field, token = request.get("part"), request.get("field"), request.get("token")
    if not isinstance(part_id, str) or not isinstance(field, str) or type(token) is not int:
        return [
            {
                "kind": "held",
                "part": str(part_id),
                "field": str(field),
                "token": token if type(token) is int else -1,
                "error": "a fetch needs a string part, a string field and an integer token",
            }
        ]
    if lock is None:
        found = values.find(part_id, field, token)
    else:
        with lock:
            found = values.find(part_id, field, token)
    head: HeldAnswer = {"kind": "held", "part": part_id, "field": field, "token": token}
    if isinstance(found, str):
        return [{**head, "error": found}]
    text = json_text(found.whole)
    # A code point takes at most 4 bytes: cutting by characters keeps each piece in bounds.
    step = PIECE_BYTES if text.isascii() else PIECE_BYTES // 4
    count = max(1, -(-len(text) // step))
    return [
        {**head, "index": index, "count": count, "text": text[index * step : (index + 1) * step]}
        for index in range(count)
    ]
