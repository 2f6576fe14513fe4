"""A file is drawn whatever form its data came in: base64, a serialised Uint8Array (what a
Mastra server or ``JSON.stringify`` sends: ``{"0": 137, "1": 80, ...}``), or a ``data:`` URL
(the AI SDK UI message stream)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import chunkscope as cs
from chunkscope.adapters import convert_ai_sdk

FIXTURES = Path(__file__).parents[1] / "fixtures"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def test_a_file_sent_as_byte_indices_is_drawn_as_base64() -> None:
    path = FIXTURES / "mastra" / "file-bytes.jsonl"
    raw = [json.loads(line)["chunk"] for line in path.read_text().splitlines()]
    (sent,) = [c for c in raw if c["type"] == "file"]
    assert isinstance(sent["payload"]["data"], dict) and "base64" not in sent["payload"]
    state = cs.accumulate(cs.replay(path, speed=0))
    (file,) = state.files
    assert file.mime_type == "image/png"
    assert base64.b64decode(file.data) == PNG
    transcript = state.transcript()
    assert "[file] image/png" in transcript and " 0 characters" not in transcript


def test_a_file_sent_as_a_data_url_is_drawn_as_base64() -> None:
    path = FIXTURES / "adapters" / "ai-sdk" / "file.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    state = cs.accumulate(convert_ai_sdk(lines))
    (file,) = state.files
    assert file.mime_type == "image/png"
    assert base64.b64decode(file.data) == PNG
    assert state.text == "Here is a picture."
