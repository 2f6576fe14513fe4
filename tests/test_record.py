"""record / replay: the JSONL format, timing, transient chunks, bad lines."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

import chunkscope as cs


def test_round_trip_keeps_every_persisted_chunk(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    chunks = list(cs.demo.stream(speed=0))
    count = cs.record(chunks, path)
    persisted = [c for c in chunks if not c.get("transient")]
    assert count == len(persisted)
    assert list(cs.replay(path, speed=0)) == persisted


def test_include_transient_keeps_live_only_chunks(tmp_path: Path) -> None:
    path = tmp_path / "all.jsonl"
    chunks = list(cs.demo.stream(speed=0))
    assert cs.record(chunks, path, include_transient=True) == len(chunks)


def test_replay_scales_the_original_timing(tmp_path: Path) -> None:
    path = tmp_path / "timed.jsonl"
    lines = [
        {"t": t, "chunk": {"type": "start", "runId": "r", "from": "AGENT", "payload": {}}}
        for t in (0, 100, 200)
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    start = time.monotonic()
    assert len(list(cs.replay(path, speed=2))) == 3
    assert 0.09 <= time.monotonic() - start < 0.5
    start = time.monotonic()
    list(cs.replay(path, speed=0))
    assert time.monotonic() - start < 0.05
    with pytest.raises(ValueError):
        cs.replay(path, speed=-1)


def test_async_replay(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    cs.record(cs.demo.text_stream(3), path)

    async def collect() -> list[object]:
        return [c async for c in cs.replay(path, speed=0)]

    assert len(asyncio.run(collect())) == 9


async def test_arecord(tmp_path: Path) -> None:
    async def source():  # type: ignore[no-untyped-def]
        for c in cs.demo.text_stream(2):
            yield c

    assert await cs.arecord(source(), tmp_path / "x.jsonl") == 8


def test_a_malformed_line_is_shown_at_its_line_and_the_rest_survives(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    good = [json.dumps({"t": i, "chunk": c}) for i, c in enumerate(cs.demo.text_stream(3))]
    good.insert(4, '{"t": 4, "chunk": {"type": "text-delta", "payload": ')
    good.insert(5, "[1, 2, 3]")
    path.write_text("\n".join(good) + "\n")
    state = cs.accumulate(cs.replay(path, speed=0))
    assert [e.where for e in state.errors] == ["line 5", "line 6"]
    assert "line 5" in state.errors[0].describe()
    assert state.status == "finished"
    assert len(state.full_text) > 0
    invalid = [n for n in state.notices if n.notice == "invalid"]
    assert len(invalid) == 2 and "line 5" in invalid[0].message


def test_invalid_utf8_line_is_reported_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "bytes.jsonl"
    path.write_bytes(b'{"t": 0, "chunk": {"type": "start", "payload": {}}}\n\xff\xfe\x00oops\n')
    state = cs.accumulate(cs.replay(path, speed=0))
    assert state.errors and state.errors[0].where == "line 2"


def test_a_replay_reads_every_kind_of_line_as_each_line_alone_would_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Lines are decoded a block at a time; whatever the block, each line must come out as
    # reading its bytes alone gives, with its own line number.
    from chunkscope import recording

    start = json.dumps({"t": 0, "chunk": {"type": "start", "payload": {}}}).encode()
    delta = json.dumps({"t": 1.5, "chunk": {"type": "text-delta", "payload": {"text": "é"}}})
    lines = [
        b"\xef\xbb\xbf" + start,  # a byte order mark
        delta.encode() + b"\r",  # CRLF
        b"",
        b"   ",
        b'{"type": "text-delta", "payload": {"id": "t", "text": "bare"}}',
        b'"a JSON string"',
        b"[1, 2]",
        b'{"t": 2, "chunk": {"type": "finish", "payl',
        b"\xff\xfe not UTF-8",
        b'{"t": true, "chunk": {"type": "finish", "payload": {}}}',
        b'{"t": 3, "chunk": {"type": "finish", "payload": {}}}',  # no newline at the end
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines))
    expected = [
        (*recording._read_line(raw), f"line {number}")
        for number, raw in enumerate(lines, start=1)
        if raw.strip()
    ]
    for block in (7, 64, 1 << 20):
        monkeypatch.setattr(recording, "_BLOCK_BYTES", block)
        assert list(cs.replay(path, speed=0).lines()) == expected, block
    assert expected[0][:2] == (0.0, {"type": "start", "payload": {}})
    assert expected[-1][2] == "line 11"
