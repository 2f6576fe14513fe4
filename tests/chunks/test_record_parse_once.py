"""The recorder reuses a chunk the caller already parsed, and parses a chunk at most once."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from chunkscope.chunks import parse_chunk
from chunkscope.recording import Recorder

record_module = sys.modules["chunkscope.recording"]

CHUNKS: list[Any] = [
    {"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": "t", "text": "hi"}},
    '{"type": "text-end", "runId": "r", "from": "AGENT", "payload": {"id": "t"}}',
    b'{"type": "data-progress", "data": 1, "transient": true}',
    b"not json",
    {"type": "data-report", "data": {"ok": True}},
]


def lines(path: Path) -> list[Any]:
    return [json.loads(line)["chunk"] for line in path.read_text().splitlines()]


@pytest.mark.parametrize("include_transient", [False, True])
def test_a_parsed_chunk_is_not_parsed_again(tmp_path: Path, include_transient: bool) -> None:
    plain = Recorder(tmp_path / "plain.jsonl", include_transient=include_transient)
    for chunk in CHUNKS:
        plain.write(chunk, 1.0)
    plain.close()
    reused = Recorder(tmp_path / "reused.jsonl", include_transient=include_transient)
    parsed = [parse_chunk(chunk) for chunk in CHUNKS]
    with mock.patch.object(record_module, "parse_chunk", side_effect=AssertionError("parsed")):
        for chunk, model in zip(CHUNKS, parsed, strict=True):
            reused.write(chunk, 1.0, parsed=model)
    reused.close()
    assert lines(tmp_path / "reused.jsonl") == lines(tmp_path / "plain.jsonl")
    assert reused.count == plain.count == (5 if include_transient else 4)


def test_text_is_parsed_once(tmp_path: Path) -> None:
    recorder = Recorder(tmp_path / "r.jsonl")
    with mock.patch.object(record_module, "parse_chunk", wraps=parse_chunk) as spy:
        recorder.write(CHUNKS[1], 1.0)
    recorder.close()
    assert spy.call_count == 1
