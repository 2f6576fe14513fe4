"""Bad input, one case at a time, through parse_chunk, RunState and StreamView.

Every case follows the same well-formed opening (reasoning, text, a finished tool call). The
fold must not raise, must keep the opening whole, must say what was wrong and where (on
``RunState.errors`` / ``warnings`` and in a visible notice row), and must keep the wire JSON.
The same cases are replayed from a JSONL recording through a StreamView, which is how a user
meets them (``cs.show("run.jsonl")``).
"""

from __future__ import annotations

import base64
import gc
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hostile_chunks import (
    OPENING,
    OPENING_TEXT,
    OPENING_TOOL,
    assert_opening_intact,
    assert_reported,
    chunk,
    finish,
    fold,
    sse_bytes,
    start,
    text,
    tool_call,
    tool_result,
    wire_json,
    write_recording,
)

import chunkscope as cs
from chunkscope import parse_chunk
from chunkscope.chunks import InvalidChunk, UnknownChunk
from chunkscope.fold.state import ROW_JSON_LIMIT
from chunkscope.wire.held import HELD_LIMIT

#: Index of the first chunk after the opening.
BAD = len(OPENING)

#: Raised by StreamView.result when a recording takes longer than this to fold.
VIEW_TIMEOUT_S = 60.0


def nested_list(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


@dataclass(frozen=True)
class Case:
    """One bad input placed after the opening."""

    name: str
    bad: list[Any] = field(repr=False)
    #: ``errors`` or ``warnings``.
    bucket: str
    #: Words the problem's message and the notice row both contain.
    words: tuple[str, ...]
    #: Index of the offending chunk, relative to the first chunk after the opening.
    offset: int = 0
    #: What ``parse_chunk`` makes of the offending chunk: InvalidChunk, UnknownChunk, or a
    #: valid chunk (the problem is in the order, not in the chunk).
    parsed: type = InvalidChunk
    #: Whether the case can be written to a JSONL recording.
    recordable: bool = True
    marks: list[Any] = field(default_factory=list)


CASES = [
    Case(
        "malformed JSON",
        ['{"type": "text-delta", "payload": {"id": "t-1", "text": "cut'],
        "errors",
        ("not valid JSON",),
    ),
    Case("non-object JSON", ["[1, 2, 3]"], "errors", ("expected a JSON object", "array")),
    Case(
        "a JSON string instead of an object",
        ['"text-delta"'],
        "errors",
        ("expected a JSON object", "string"),
    ),
    Case(
        "an unknown type",
        [chunk("mystery-chunk", secret=1)],
        "warnings",
        ("unknown chunk type", "mystery-chunk"),
        parsed=UnknownChunk,
    ),
    Case(
        "missing required fields",
        [chunk("tool-call", args={"city": "Paris"})],
        "errors",
        ("tool-call", "toolCallId", "Field required"),
    ),
    Case(
        "a wrong field type",
        [chunk("text-delta", id="t-1", text=5)],
        "errors",
        ("text-delta", "payload.text", "valid string"),
    ),
    Case(
        "a missing type",
        [{"runId": "hostile-run", "payload": {"text": "x"}}],
        "errors",
        ("type", "missing"),
    ),
    Case(
        "a delta with no start",
        [text("orphan", part_id="t-9")],
        "warnings",
        ("t-9", "no 'text-start'"),
        parsed=cs.chunks.TextDeltaChunk,
    ),
    Case(
        "a result for an unknown tool call",
        [tool_result("call-404", "lookup", {"x": 1})],
        "warnings",
        ("unknown tool call", "call-404"),
        parsed=cs.chunks.ToolResultChunk,
    ),
    Case(
        "a duplicate tool call id",
        [tool_call(OPENING_TOOL[0], "other-tool", {"q": 2})],
        "warnings",
        (OPENING_TOOL[0],),
        parsed=cs.chunks.ToolCallChunk,
    ),
    Case(
        "a second start mid-run",
        [start()],
        "warnings",
        ("second 'start'",),
        parsed=cs.chunks.StartChunk,
    ),
    Case(
        "chunks after finish",
        [finish(), text("late")],
        "warnings",
        ("after 'finish'", "text-delta"),
        offset=1,
        parsed=cs.chunks.TextDeltaChunk,
    ),
    Case(
        "invalid UTF-8",
        [b'{"type": "text-delta", "payload": {"id": "t-1", "text": "\xff\xfe"}}'],
        "errors",
        ("not valid UTF-8",),
    ),
    Case(
        "a raw NUL byte inside JSON text",
        ['{"type": "text-delta", "payload": {"id": "t-1", "text": "a\x00b"}}'],
        "errors",
        ("not valid JSON", "control character"),
    ),
    Case(
        "JSON nested 10k levels deep",
        ['{"type": "data-deep", "data": ' + "[" * 10_000 + "]" * 10_000 + "}"],
        "errors",
        ("nested too deeply",),
    ),
    Case(
        "JSON nested 300 levels deep (parseable, deeper than pydantic dumps)",
        [tool_call("deep", "dump", {}), json.dumps(tool_result("deep", "dump", nested_list(300)))],
        "errors",
        ("tool-result", "deep"),
        offset=1,
        parsed=cs.chunks.ToolResultChunk,
    ),
    Case(
        "a Python value nested 10k levels deep",
        [tool_call("deep", "dump", {}), tool_result("deep", "dump", nested_list(10_000))],
        "errors",
        ("tool-result", "deep"),
        offset=1,
        parsed=cs.chunks.ToolResultChunk,
        recordable=False,
    ),
]


class Opaque:
    """A Python object a source might yield inside a chunk: not JSON, no way to dump it."""

    def __repr__(self) -> str:
        return "Opaque()"


CASES += [
    Case(
        "a Python object that is not JSON",
        [tool_call("obj", "dump", {}), tool_result("obj", "dump", {"value": Opaque()})],
        "errors",
        ("tool-result", "not JSON", "Opaque"),
        offset=1,
        recordable=False,
    ),
]

PARAMS = [pytest.param(case, id=case.name, marks=case.marks) for case in CASES]
RECORDABLE = [pytest.param(c, id=c.name, marks=c.marks) for c in CASES if c.recordable]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in CASES])
def test_parse_chunk_classifies_the_bad_chunk_and_keeps_it(case: Case) -> None:
    offending = case.bad[case.offset]
    parsed = parse_chunk(offending)
    assert isinstance(parsed, case.parsed)
    if isinstance(parsed, InvalidChunk):
        assert parsed.raw is offending or parsed.raw == offending.decode("utf-8", "replace")
        # The fold adds the chunk's type to the message; the parse error names the fields.
        words = [w for w in case.words if w != parsed.type]
        assert all(w.lower() in parsed.error.lower() for w in words), parsed.error


@pytest.mark.parametrize("case", PARAMS)
def test_run_state_reports_what_and_where_and_keeps_the_rest(case: Case) -> None:
    after = [text(" And more.")]
    folded = fold([*OPENING, *case.bad, *after])
    state = folded.state
    index = BAD + case.offset

    assert_reported(state, case.bucket, index, f"line {index + 1}", *case.words)
    assert_opening_intact(state)
    assert " And more." in state.text
    assert state.chunk_count == len(OPENING) + len(case.bad) + len(after)
    wire_json(state.snapshot())
    assert folded.seconds < 5.0


@pytest.mark.parametrize("case", RECORDABLE)
def test_a_recording_with_the_bad_line_shows_a_row_in_the_stream_view(
    case: Case, tmp_path: Path
) -> None:
    path = write_recording(tmp_path / "run.jsonl", [*OPENING, *case.bad, finish()])
    view = cs.show(str(path), display=False)
    state = view.result(VIEW_TIMEOUT_S)
    index = BAD + case.offset

    notice = assert_reported(state, case.bucket, index, f"line {index + 1}", *case.words)
    assert_opening_intact(state)
    persisted = view.snapshot
    assert persisted is not None and persisted["run"]["ended"]
    rows = [p for p in persisted["parts"] if p["kind"] == "notice" and p["chunk"] == index]
    assert [r["message"] for r in rows] == [notice.message]
    assert OPENING_TEXT in "".join(p["text"] for p in persisted["parts"] if p["kind"] == "text")
    wire_json(persisted)


def test_lone_surrogates_are_kept_in_the_state_and_replaced_on_the_wire() -> None:
    # Valid JSON escapes, not an error: the text is kept as received, and what crosses to the
    # browser (which must be UTF-8) has U+FFFD in their place.
    line = json.dumps(text("a\ud800b\udfffc"))
    state = fold([*OPENING, line]).state
    assert state.text == OPENING_TEXT + "a\ud800b\udfffc"
    assert not state.errors
    wire = json.loads(wire_json(state.snapshot()))
    texts = [p["text"] for p in wire["parts"] if p["kind"] == "text"]
    assert texts == [OPENING_TEXT + "a\ufffdb\ufffdc"]


def test_escaped_nul_characters_are_text_like_any_other() -> None:
    state = fold([*OPENING, json.dumps(text("a\x00b"))]).state
    assert state.text == OPENING_TEXT + "a\x00b"
    assert not state.errors
    assert "a\\u0000b" in wire_json(state.snapshot())


# ------------------------------------------------------------------------------- sizes

MB = 1_000_000


def test_a_10_mb_tool_result_is_kept_whole_and_crosses_the_wire_as_a_preview() -> None:
    result = {"rows": ["x" * 1000 for _ in range(10_000)]}
    folded = fold([*OPENING, tool_call("big", "dump", {}), tool_result("big", "dump", result)])
    state = folded.state
    assert_opening_intact(state)
    tool = next(t for t in state.tool_calls if t.tool_call_id == "big")
    assert tool.result == result and tool.state == "done"
    row = state.rows[-1]
    assert row["type"] == "tool-result" and row.get("truncated") is True
    assert len(json.dumps(row["json"])) < MB // 4
    assert len(wire_json(state.snapshot(whole=True))) > 10 * MB
    wire = wire_json(state.snapshot())
    assert len(wire) < HELD_LIMIT
    (part,) = [p for p in json.loads(wire)["parts"] if p["id"] == tool.id]
    assert part["held"]["result"]["lengths"]["$/rows"] == 10_000
    assert folded.seconds < 10.0


def test_the_inspector_row_of_a_10_mb_result_stays_near_its_size_limit() -> None:
    result = ["y" * 100_000 for _ in range(100)]
    state = fold([*OPENING, tool_call("big", "dump", {}), tool_result("big", "dump", result)]).state
    assert len(json.dumps(state.rows[-1]["json"])) <= 2 * ROW_JSON_LIMIT


def test_a_1_mb_single_delta_is_kept_whole() -> None:
    delta = "abcdefghij" * (MB // 10)
    folded = fold([*OPENING, text(delta), text("!")])
    assert folded.state.text == OPENING_TEXT + delta + "!"
    assert len(json.dumps(folded.state.rows[-1]["json"])) < 100_000
    wire_json(folded.state.snapshot())
    assert folded.seconds < 5.0


def test_a_1m_character_message_from_10k_deltas_folds_in_linear_time() -> None:
    deltas = [f"{i:09d} " for i in range(100_000)]
    folded = fold([*OPENING, *(text(d) for d in deltas)], where=False)
    assert folded.state.text == OPENING_TEXT + "".join(deltas)
    assert len(folded.state.text) >= MB
    wire_json(folded.state.snapshot())
    assert folded.seconds < 10.0


def test_50k_tool_calls_fold_in_linear_time_each_with_one_final_state() -> None:
    calls = 50_000
    chunks = [*OPENING]
    for i in range(calls):
        chunks += [tool_call(f"c{i}", "ping", {"i": i}), tool_result(f"c{i}", "ping", i)]
    # The garbage collector is paused while the folds are timed: its collections walk every
    # object alive, those earlier tests left included, and that is the interpreter's cost, not
    # the fold's (with it running, the ratio reached 20 in a clean-clone run of the suite).
    # The tenth is timed before and after the whole, and the two averaged, because this
    # machine's speed drifts by half over a few seconds.
    gc.collect()
    gc.disable()
    try:
        tenth_before = fold(chunks[: len(OPENING) + calls // 5], where=False)
        folded = fold(chunks, where=False)
        tenth_after = fold(chunks[: len(OPENING) + calls // 5], where=False)
    finally:
        gc.enable()
    tenth_seconds = (tenth_before.seconds + tenth_after.seconds) / 2
    state = folded.state
    tools = state.tool_calls
    assert len(tools) == calls + 1
    assert {t.state for t in tools} == {"done"}
    assert [t.result for t in tools[1:]] == list(range(calls))
    # Ten times the calls cost about ten times the time (a fold that looked back over the
    # calls it has would cost a hundred times); measured against itself, not a clock budget.
    ratio = folded.seconds / max(tenth_seconds, 1e-3)
    assert ratio < 20, f"10x the calls took {ratio:.0f}x the time ({folded.seconds:.1f} s)"
    wire_json(state.snapshot())


# ------------------------------------------------------------------------------- SSE


def sse_events_after_opening(bad_data: str) -> list[Any]:
    body = sse_bytes([*OPENING, bad_data, text(" And more."), finish()])
    return list(cs.adapters.adapt([body]))


def test_the_mastra_adapter_says_which_event_was_not_json_and_why() -> None:
    chunks = sse_events_after_opening('{"type": "text-delta", "payload": {"id": "t-1", "te')
    raw = [c for c in chunks if c["type"] == "raw"]
    assert len(raw) == 1
    problem = raw[0]["payload"]["problem"]
    assert problem.startswith(f"event {BAD + 1}: ")
    assert "data is not valid JSON" in problem
    assert raw[0]["payload"]["event"]["data"].startswith('{"type": "text-delta"')
    state = cs.accumulate(chunks)
    assert_opening_intact(state)
    assert state.text == OPENING_TEXT + " And more."


def test_a_chunk_sent_as_json_text_among_dicts_is_read_not_kept_raw() -> None:
    chunks = list(cs.adapters.adapt([*OPENING, json.dumps(text(" As text."))]))
    assert chunks[BAD] == text(" As text.")


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param('{"type": "text-delta", "pay', id="malformed JSON"),
        pytest.param("[1, 2]", id="non-object JSON"),
    ],
)
def test_a_bad_sse_data_line_shows_a_row_and_a_problem(bad: str) -> None:
    chunks = sse_events_after_opening(bad)
    state = cs.accumulate(chunks)
    assert_opening_intact(state)
    assert state.text == OPENING_TEXT + " And more."
    problems = state.errors + state.warnings
    assert [p.chunk_index for p in problems if f"event {BAD + 1}" in p.message] == [BAD]
    assert any(n.chunk == BAD and f"event {BAD + 1}" in n.message for n in state.notices)


@pytest.mark.parametrize(
    "part",
    [
        pytest.param({"type": "data-x"}, id="no data"),
        pytest.param({"type": "data-x", "id": 3, "data": 1}, id="a number id"),
        pytest.param({"type": "data-x", "data": 1, "payload": {"a": 1}}, id="an extra payload"),
    ],
)
def test_an_ai_sdk_data_part_out_of_shape_becomes_a_valid_chunk_and_keeps_the_rest(
    part: dict[str, Any],
) -> None:
    chunks = cs.adapters.ADAPTERS["ai_sdk"]().convert([part])
    data, raw = chunks[0], chunks[1]
    assert isinstance(parse_chunk(data), cs.chunks.DataChunk)
    assert data["data"] == part.get("data")
    assert raw["type"] == "raw" and raw["payload"]["event"] == part


def test_binary_bytes_in_a_python_chunk_are_kept_and_sent_as_base64() -> None:
    blob = b"\x89PNG\r\n\x1a\n\x00\xff"
    folded = fold([*OPENING, tool_call("bin", "read", {}), tool_result("bin", "read", blob)])
    state = folded.state
    assert not state.errors
    assert next(t for t in state.tool_calls if t.tool_call_id == "bin").result == blob
    row = json.loads(wire_json(state.snapshot()))["rows"][-1]
    assert row["json"]["payload"]["result"] == base64.urlsafe_b64encode(blob).decode()
