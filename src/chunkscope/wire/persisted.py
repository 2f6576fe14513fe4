"""The form of the ``snapshot`` trait: the run as it is saved in the notebook.

A small run is saved as the plain Snapshot object, readable in the ``.ipynb``. A large one
is saved packed: its JSON deflated into one binary buffer, with ``seq`` beside it. Binary
buffers travel to the browser without being parsed, so a page that already holds the run
from the live messages skips a packed update by its ``seq`` and never decodes tens of
megabytes; the saved notebook shrinks by an order of magnitude too.
"""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from .schema import MAX_UNPACKED_BYTES as MAX_UNPACKED_BYTES
from .schema import PACKED_ENCODING as PACKED_ENCODING
from .schema import PackedSnapshot

PACK_OVER_BYTES = 256 * 1024
"""Snapshots whose JSON is longer than this are packed."""

_LEVEL = 1
"""zlib level: the fastest one already shrinks repetitive run JSON about tenfold."""


def pack_snapshot(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The trait value for ``snapshot``: itself when small, packed when large."""
    return packed_and_size(snapshot)[0]


def packed_and_size(
    snapshot: dict[str, Any], *, always: bool = False
) -> tuple[dict[str, Any], int]:
    """``pack_snapshot``'s value (packed whatever its size when ``always``), and the length
    of the snapshot's JSON (0 when it is not strict JSON), from one serialisation."""
    try:
        text = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        # Not strict JSON (parts are clipped for the wire, so this is a bug elsewhere): the
        # widget's own serializer copes with it as it always did.
        return snapshot, 0
    if len(text) <= PACK_OVER_BYTES and not always:
        return snapshot, len(text)
    packed: PackedSnapshot = {
        "v": snapshot.get("v", 1),
        "seq": snapshot.get("seq", 0),
        "encoding": "deflate-json",
        "data": zlib.compress(text.encode("utf-8"), _LEVEL),
    }
    return dict(packed), len(text)


def unpack_snapshot(
    value: dict[str, Any] | None, *, max_bytes: int = MAX_UNPACKED_BYTES
) -> dict[str, Any] | None:
    """The Snapshot a ``snapshot`` trait value holds, packed or not (None stays None).

    Accepts the packed data as bytes, or as the base64 text a saved notebook's widget state
    stores buffers in. A saved notebook is untrusted input: data that unpacks to more than
    ``max_bytes`` raises ``ValueError`` rather than filling the memory.
    """
    if value is None or value.get("encoding") != PACKED_ENCODING:
        return value
    data = value.get("data")
    if isinstance(data, str):
        data = base64.b64decode(data)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ValueError(f"the packed snapshot's data is a {type(data).__name__}, not bytes")
    inflater = zlib.decompressobj()
    text = inflater.decompress(bytes(data), max_bytes)
    if inflater.unconsumed_tail:
        raise ValueError(f"the packed snapshot unpacks to more than {max_bytes:,} bytes")
    unpacked: dict[str, Any] = json.loads(text.decode("utf-8"))
    return unpacked
