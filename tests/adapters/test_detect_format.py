"""Format detection and the auto adapter over every recorded fixture."""

from __future__ import annotations

import json

import pytest
from adapter_fixtures import assert_coherent, replay_list, sse_bytes

from chunkscope.adapters import adapt, detect, parse_sse
from chunkscope.adapters.detection import detect_text

CASES = [
    ("langchain", "agent_tool", "langchain"),
    ("pydantic_ai", "retry", "pydantic_ai"),
    ("openai", "chat_tools", "openai"),
    ("openai", "responses_text", "openai"),
    ("ai-sdk", "agent_tool", "ai_sdk"),
]


@pytest.mark.parametrize(("folder", "name", "expected"), CASES)
def test_first_event_of_each_recording_is_recognized(folder: str, name: str, expected: str) -> None:
    events = replay_list(folder, name)
    assert detect(events[0]) == expected
    chunks = list(adapt(events))
    assert_coherent(chunks)
    assert chunks[-1]["type"] in ("finish", "error")


def test_sse_events_and_text_transports() -> None:
    first = next(iter(parse_sse([sse_bytes("openai", "responses_text")])))
    assert detect(first) == "openai"
    assert detect_text("event: on_chat_model_start\n") == "sse"
    assert detect_text(": keep-alive\n") == "sse"
    assert detect_text('0:"hi"\n') == "data_stream_v4"
    assert detect_text('{"type":"workflow-start"}\x1e') == "records"
    assert detect_text("hello") is None


def test_mastra_chunks_pass_through_unchanged() -> None:
    chunks = [
        {"type": "start", "runId": "r1", "from": "AGENT", "payload": {}},
        {
            "type": "text-delta",
            "runId": "r1",
            "from": "AGENT",
            "payload": {"id": "t", "text": "hi"},
        },
        {"type": "data-progress", "data": {"percent": 50}, "transient": True},
        {"type": "future-chunk-type", "runId": "r1", "from": "AGENT", "payload": {"x": 1}},
    ]
    assert detect(chunks[0]) == "mastra"
    assert list(adapt(chunks)) == chunks


def test_mastra_workflow_records_split_by_record_separator() -> None:
    records = [
        {
            "type": "workflow-start",
            "runId": "w1",
            "from": "WORKFLOW",
            "payload": {"workflowId": "greet"},
        },
        {
            "type": "workflow-finish",
            "runId": "w1",
            "from": "WORKFLOW",
            "payload": {"workflowStatus": "success"},
        },
    ]
    data = "".join(json.dumps(r, ensure_ascii=False) + "\x1e" for r in records).encode()
    assert list(adapt([data[i : i + 2] for i in range(0, len(data), 2)])) == records
    cut = list(adapt([data[:-10]]))
    assert cut[0] == records[0]
    assert (
        cut[-1]["type"] == "error"
        and "middle of a JSON record" in cut[-1]["payload"]["error"]["message"]
    )


def test_forced_format_and_unknown_streams() -> None:
    assert (
        list(adapt([{"event": "on_chat_model_stream", "data": {"content": "x"}}], format="konan"))[
            -1
        ]["type"]
        == "error"
    )
    with pytest.raises(ValueError, match="unknown format"):
        adapt([], format="nope")
    chunks = list(adapt([b"hello world, not a known stream"]))
    assert chunks[-1]["type"] == "raw"
    assert chunks[-1]["payload"]["event"] == "hello world, not a known stream"
    assert detect(object()) is None
    assert list(adapt([])) == []


def test_the_formats_page_has_a_row_for_every_adapter() -> None:
    from pathlib import Path

    from chunkscope.adapters.detection import ADAPTERS

    page = (Path(__file__).parents[2] / "docs" / "formats.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| ")]
    for name in ADAPTERS:
        assert any(f"(`{name}`)" in row for row in rows), f"docs/formats.md has no row for {name}"
