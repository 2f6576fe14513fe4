"""Format detection and the auto adapter over every recorded fixture."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from adapter_fixtures import assert_coherent, replay_list, sse_bytes

from chunkscope.adapters import adapt, detect, parse_sse
from chunkscope.adapters.detection import AutoAdapter, detect_text
from chunkscope.adapters.mastra_chunks import MastraChunkAdapter

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


def _delta(text: str, run_id: str = "r1") -> dict[str, object]:
    return {
        "type": "text-delta",
        "runId": run_id,
        "from": "AGENT",
        "payload": {"id": "t", "text": text},
    }


def test_mastra_items_that_are_not_chunk_dicts_are_read_between_chunks() -> None:
    # After a chunk dict, the next ones are relayed in one loop; an item of another kind
    # in the middle (JSON text, an unreadable value) still gets the adapter's reading, and
    # the dicts after it pass through again.
    start = {"type": "start", "runId": "r1", "from": "AGENT", "payload": {}}
    items = [start, _delta("a"), json.dumps(_delta("b")), _delta("c"), 42, _delta("d")]
    chunks = list(adapt(items))
    assert chunks[:4] == [start, _delta("a"), _delta("b"), _delta("c")]
    assert chunks[4]["type"] == "raw"
    assert "event 5" in json.dumps(chunks[4]["payload"])
    assert chunks[5] == _delta("d")
    assert len(chunks) == 6


def test_a_mastra_source_that_raises_mid_stream_ends_with_an_error_for_its_run() -> None:
    def source() -> Iterator[object]:
        yield {"type": "start", "runId": "r1", "from": "AGENT", "payload": {}}
        yield _delta("a")
        yield _delta("b", run_id="r2")
        raise ConnectionError("the connection dropped")

    chunks: list[dict[str, object]] = []
    with pytest.raises(ConnectionError, match="the connection dropped"):
        for chunk in adapt(source()):
            chunks.append(chunk)
    assert [c["type"] for c in chunks] == ["start", "text-delta", "text-delta", "error"]
    # the error carries the run id of the last chunk relayed, as chunks the adapter makes do
    assert chunks[-1]["runId"] == "r2"
    assert "the connection dropped" in json.dumps(chunks[-1]["payload"])


def test_the_auto_adapter_counts_every_chunk_it_relays() -> None:
    adapter = AutoAdapter()
    items = [_delta(str(i)) for i in range(50)]
    relayed = adapter.iter_sync(items)
    assert [next(relayed) for _ in range(20)] == items[:20]
    relayed.close()  # a reader that stops part way: what was relayed is counted
    assert adapter.events_seen == 20
    inner = adapter.inner
    assert isinstance(inner, MastraChunkAdapter)
    assert (inner.events_seen, inner.chunks_seen) == (20, 20)
    assert list(AutoAdapter().iter_sync(items)) == items


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
