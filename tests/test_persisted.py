"""The saved form of a run: plain when small, packed (deflated JSON in a binary buffer)
when large, so a live page never parses a large saved run it already holds."""

from __future__ import annotations

import base64
import json
import math
import zlib
from typing import Any

import pytest
from ipywidgets.widgets.widget import _remove_buffers

import chunkscope as cs
from chunkscope.wire.persisted import (
    PACK_OVER_BYTES,
    PACKED_ENCODING,
    pack_snapshot,
    unpack_snapshot,
)


def snapshot_of(n_parts: int, seq: int = 7) -> dict[str, Any]:
    parts = [
        {"id": f"p{i}", "kind": "text", "text": f"part {i} {'x' * 90}"} for i in range(n_parts)
    ]
    return {"v": 1, "seq": seq, "run": {"title": "t"}, "parts": parts, "rows": []}


def test_a_small_snapshot_is_saved_as_it_is() -> None:
    small = snapshot_of(10)
    assert pack_snapshot(small) is small
    assert unpack_snapshot(small) is small
    assert unpack_snapshot(None) is None


def test_a_large_snapshot_is_packed_with_its_seq_and_unpacks_to_the_same_run() -> None:
    large = snapshot_of(5_000, seq=42)
    assert len(json.dumps(large)) > PACK_OVER_BYTES
    packed = pack_snapshot(large)
    assert packed["encoding"] == PACKED_ENCODING
    assert packed["seq"] == 42
    assert isinstance(packed["data"], bytes)
    assert len(packed["data"]) * 5 < len(json.dumps(large))
    assert unpack_snapshot(packed) == large
    # As a saved notebook stores the buffer: base64 text.
    saved = {**packed, "data": base64.b64encode(packed["data"]).decode("ascii")}
    assert unpack_snapshot(saved) == large


def test_a_packed_snapshot_that_unpacks_past_the_limit_is_refused() -> None:
    bomb = {"v": 1, "seq": 1, "encoding": PACKED_ENCODING, "data": zlib.compress(b" " * 2_000_000)}
    with pytest.raises(ValueError, match="more than 1,000,000 bytes"):
        unpack_snapshot(bomb, max_bytes=1_000_000)


def test_packed_data_that_is_not_bytes_is_refused() -> None:
    for data in (10**12, None, ["x"]):
        with pytest.raises(ValueError, match="not bytes"):
            unpack_snapshot({"v": 1, "seq": 1, "encoding": PACKED_ENCODING, "data": data})


def test_a_snapshot_that_is_not_strict_json_is_left_to_the_widget_serializer() -> None:
    odd = snapshot_of(5_000)
    odd["run"]["elapsedMs"] = math.nan
    assert pack_snapshot(odd) is odd


def test_a_large_run_in_a_view_travels_as_a_binary_buffer() -> None:
    calls = []
    for i in range(3_000):
        calls.append(
            {
                "type": "tool-call",
                "runId": "r",
                "from": "AGENT",
                "payload": {"toolCallId": f"c{i}", "toolName": "ping", "args": {"i": i}},
            }
        )
    view = cs.show(calls, title="many calls")
    state = view.result(timeout=60)
    saved = view.snapshot
    assert saved is not None and saved["encoding"] == PACKED_ENCODING
    unpacked = unpack_snapshot(saved)
    assert unpacked is not None
    assert unpacked["run"]["ended"] is True
    assert len(unpacked["parts"]) == len(state.parts)
    assert unpacked == json.loads(json.dumps(state.snapshot(unpacked["seq"])))
    _state, paths, buffers = _remove_buffers(view.get_state())
    assert ["snapshot", "data"] in paths
    assert len(buffers) == 1
