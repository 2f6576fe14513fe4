"""Large part fields cross the wire as a preview and are served back whole in pieces."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chunkscope as cs
from captured_view import Captured
from chunkscope.fold.state import RunState
from chunkscope.wire.held import (
    HELD_LIMIT,
    PIECE_BYTES,
    PREVIEW_ENTRIES,
    PREVIEW_STRING,
    HeldValues,
    answer,
    exceeds,
    preview,
)
from chunkscope.wire.safejson import clip_for_wire
from test_export import embedded_snapshot


def chunk(kind: str, **payload: Any) -> dict[str, Any]:
    return {"type": kind, "runId": "r", "from": "AGENT", "payload": payload}


def with_result(result: Any) -> tuple[RunState, list[dict[str, Any]]]:
    """A run whose one tool returns ``result``; the ops of the whole fold."""
    state = RunState()
    ops: list[dict[str, Any]] = []
    for c in (
        chunk("start"),
        chunk("step-start", request={}, messageId="m"),
        chunk("tool-call", toolCallId="c", toolName="dump", args={"table": "all"}),
        chunk("tool-result", toolCallId="c", toolName="dump", result=result),
    ):
        ops += state.handle(c)
    return state, ops


def result_sets(ops: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [op["set"] for op in ops if op["op"] == "set" and "result" in op["set"]]


def big_result() -> dict[str, Any]:
    return {"rows": [f"row {i:05d} " + "x" * 990 for i in range(9_000)], "blob": "y" * 1_000_000}


def reassemble(messages: list[Any]) -> Any:
    assert [m["index"] for m in messages] == list(range(len(messages)))
    assert all(m["count"] == len(messages) for m in messages)
    return json.loads("".join(m["text"] for m in messages))


def fetch(state: RunState, part: str, field: str, token: Any) -> list[Any]:
    return list(answer({"kind": "fetch", "part": part, "field": field, "token": token}, state.held))


# ------------------------------------------------------------------------------ measuring


def test_exceeds_measures_json_size_with_an_early_exit() -> None:
    assert not exceeds(None) and not exceeds(12) and not exceeds(1.5) and not exceeds(True)
    assert not exceeds("x" * (HELD_LIMIT - 2))
    assert exceeds("x" * (HELD_LIMIT - 1))
    assert exceeds([{"k": "v" * 1000}] * 300)
    assert not exceeds([{"k": "v" * 1000}] * 200)
    # A huge list: the walk stops long before its end (it would take seconds otherwise).
    assert exceeds(["x" * 100] * 10_000_000)


# ------------------------------------------------------------------------------- previews


def test_a_preview_is_faithful_small_and_records_full_lengths() -> None:
    value = big_result()
    cut, lengths = preview(value)
    size = len(json.dumps(cut))
    assert size < HELD_LIMIT // 4
    assert cut["blob"] == "y" * len(cut["blob"]) and 0 < len(cut["blob"]) <= PREVIEW_STRING
    assert cut["rows"] == [row[:PREVIEW_STRING] for row in value["rows"][:PREVIEW_ENTRIES]]
    assert lengths["$/rows"] == 9_000
    assert lengths["$/blob"] == 1_000_000
    assert lengths["$/rows/0"] == 1_000
    assert "$" not in lengths, "the root object kept all its keys"
    assert "…" not in json.dumps(cut), "no marker strings inside the value"


def test_preview_paths_use_the_json_tree_escaping_and_javascript_key_order() -> None:
    cut, lengths = preview({"a/b~c": "z" * 5000})
    assert lengths == {"$/a~1b~0c": 5000}
    value = {"last": 1, **{str(k): k for k in range(300, 0, -1)}}
    cut, lengths = preview(value)
    assert lengths == {"$": 301}
    # JavaScript lists array-index keys first, ascending: the preview keeps those.
    assert list(cut)[:3] == ["1", "2", "3"]


def test_string_lengths_count_utf16_units_as_javascript_does() -> None:
    cut, lengths = preview("😀" * 1000)
    assert lengths["$"] == 2000
    assert cut == "😀" * PREVIEW_STRING


# --------------------------------------------------------------------------- on the wire


def test_small_values_cross_untouched_and_cost_nothing() -> None:
    result = {"temperature": 21, "rows": list(range(50))}
    state, ops = with_result(result)
    (fields,) = result_sets(ops)
    assert fields["result"] is result, "the very same object: no copy, no preview"
    assert "held" not in fields
    snapshot = state.snapshot()
    tool = next(p for p in snapshot["parts"] if p["kind"] == "tool")
    assert "held" not in tool and tool["result"] is result


def test_a_large_result_crosses_as_a_preview_with_out_of_band_metadata() -> None:
    state, ops = with_result(big_result())
    (fields,) = result_sets(ops)
    assert len(json.dumps(fields)) < HELD_LIMIT
    entry = fields["held"]["result"]
    tool = state.tool_calls[0]
    whole = json.dumps(tool.result, ensure_ascii=False, separators=(",", ":"))
    assert entry["size"] == len(whole.encode())
    assert entry["lengths"]["$/rows"] == 9_000
    assert isinstance(entry["token"], int)
    assert tool.result == big_result(), "the state keeps the whole value"
    args = next(op["part"] for op in ops if op["op"] == "add" and op["part"]["kind"] == "tool")
    assert "held" not in args


def test_a_value_that_looks_like_held_metadata_is_just_a_value() -> None:
    forged = {"held": {"result": {"token": 1, "size": 10, "lengths": {"$": 5}}}}
    state, ops = with_result(forged)
    (fields,) = result_sets(ops)
    assert fields == {**fields, "result": forged} and "held" not in fields
    tool = next(p for p in state.snapshot()["parts"] if p["kind"] == "tool")
    assert "held" not in tool
    (reply,) = fetch(state, tool["id"], "result", 1)
    assert "error" in reply and "text" not in reply


def test_the_token_changes_when_the_field_is_cut_again() -> None:
    held = HeldValues()
    first = held.cut_set("p1", "tool", {"result": "a" * HELD_LIMIT})
    second = held.cut_set("p1", "tool", {"result": "b" * HELD_LIMIT})
    assert first["held"]["result"]["token"] != second["held"]["result"]["token"]
    # Smaller again: the held entry goes, and the set says so.
    third = held.cut_set("p1", "tool", {"result": "small"})
    assert third == {"result": "small", "held": None}
    assert held.held("p1") == {}


def test_a_set_of_one_field_keeps_the_other_held_fields_of_the_part() -> None:
    held = HeldValues()
    held.cut_set("p1", "tool", {"args": ["x" * 1000] * 300})
    both = held.cut_set("p1", "tool", {"result": ["y" * 1000] * 300, "state": "done"})
    assert set(both["held"]) == {"args", "result"} and both["state"] == "done"
    untouched = held.cut_set("p1", "tool", {"state": "error"})
    assert untouched == {"state": "error"}


def test_streamed_text_and_file_contents_are_never_held() -> None:
    held = HeldValues()
    text = {"id": "p1", "kind": "text", "text": "t" * HELD_LIMIT * 2, "marks": []}
    assert held.cut_part(text) is text
    image = {"id": "p2", "kind": "file", "data": "A" * HELD_LIMIT * 2, "mimeType": "image/png"}
    assert held.cut_part(image) is image
    assert held.cut_set("p3", "tool", {"argsText": "{" * HELD_LIMIT * 2})["argsText"].startswith(
        "{" * 1000
    )


def test_the_snapshot_holds_the_preview_under_the_same_token_and_whole_keeps_everything() -> None:
    state, ops = with_result(big_result())
    (fields,) = result_sets(ops)
    token = fields["held"]["result"]["token"]
    snapshot = state.snapshot(3)
    assert len(json.dumps(snapshot)) < HELD_LIMIT
    tool = next(p for p in snapshot["parts"] if p["kind"] == "tool")
    assert tool["held"]["result"]["token"] == token, "an unchanged value keeps its token"
    assert tool["result"] == fields["result"]
    whole = state.snapshot(3, whole=True)
    tool = next(p for p in whole["parts"] if p["kind"] == "tool")
    assert "held" not in tool and tool["result"] == big_result()


def test_the_exported_page_embeds_the_whole_value(tmp_path: Any) -> None:
    state, _ = with_result({"blob": "q" * 600_000})
    page = cs.present.export.page_html(state)
    assert "q" * 600_000 in page
    snapshot = embedded_snapshot(page)
    assert all("held" not in part for part in snapshot["parts"])


# ------------------------------------------------------------------------------ fetching


def test_fetched_pieces_reassemble_to_exactly_the_clipped_value() -> None:
    # A lone surrogate and NaN: what the browser gets whole is what clip_for_wire made.
    result = {"rows": ["r\ud800" + "x" * 2000] * 400, "nan": float("nan"), "ünï": "ç" * 300_000}
    state, ops = with_result(result)
    (fields,) = result_sets(ops)
    tool = state.tool_calls[0]
    messages = fetch(state, tool.id, "result", fields["held"]["result"]["token"])
    assert len(messages) > 1
    assert all(len(m["text"].encode()) <= PIECE_BYTES for m in messages)
    assert reassemble(messages) == clip_for_wire(result) != result


def test_a_stale_token_or_an_unknown_part_gets_one_error_answer() -> None:
    state, ops = with_result(big_result())
    (fields,) = result_sets(ops)
    token = fields["held"]["result"]["token"]
    tool = state.tool_calls[0]
    for part, field, stale in ((tool.id, "result", token + 1), ("p999", "result", token)):
        (reply,) = fetch(state, part, field, stale)
        assert reply["kind"] == "held" and reply["error"] and "text" not in reply
        assert (reply["part"], reply["field"], reply["token"]) == (part, field, stale)
    (reply,) = fetch(state, tool.id, "args", token)
    assert "error" in reply


@pytest.mark.parametrize(
    "request_",
    [
        {"kind": "fetch"},
        {"kind": "fetch", "part": 3, "field": "result", "token": 1},
        {"kind": "fetch", "part": "p1", "field": "result", "token": "1"},
        {"kind": "fetch", "part": "p1", "field": "result", "token": True},
    ],
)
def test_a_malformed_fetch_is_answered_with_an_error_not_an_exception(
    request_: dict[str, Any],
) -> None:
    (reply,) = answer(request_, HeldValues())
    assert reply["kind"] == "held" and "error" in reply


def test_the_widget_answers_a_fetch_message_with_pieces() -> None:
    result = big_result()
    view = Captured(
        [
            chunk("start"),
            chunk("tool-call", toolCallId="c", toolName="dump", args={}),
            chunk("tool-result", toolCallId="c", toolName="dump", result=result),
        ]
    )
    view.result(timeout=30)
    snapshot = view.snapshot
    assert snapshot is not None and len(json.dumps(snapshot)) < HELD_LIMIT
    tool = next(p for p in snapshot["parts"] if p["kind"] == "tool")
    token = tool["held"]["result"]["token"]
    view.sent.clear()
    request = {"kind": "fetch", "part": tool["id"], "field": "result", "token": token}
    view._on_front_end_message(view, request, [])
    assert reassemble(view.sent) == result
    view.sent.clear()
    view._on_front_end_message(view, {**request, "token": token + 7}, [])
    (reply,) = view.sent
    assert "error" in reply
