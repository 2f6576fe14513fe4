"""RunState: the fold's rules, its warnings for impossible orders, and its wire ops."""

from __future__ import annotations

import json
from typing import Any

import chunkscope as cs
from chunkscope.fold.parts import TextPart, ToolCall


def c(type_: str, payload: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    chunk: dict[str, Any] = {
        "type": type_,
        "runId": "r1",
        "from": "AGENT",
        "payload": payload or {},
    }
    chunk.update(extra)
    return chunk


STEP_FINISH = {
    "stepResult": {"reason": "stop"},
    "output": {"usage": {"inputTokens": 3, "outputTokens": 4, "totalTokens": 7}},
    "metadata": {},
}
FINISH = {**STEP_FINISH, "messages": {"all": [], "user": [], "nonUser": []}}


def fold(chunks: list[Any]) -> cs.RunState:
    state = cs.RunState()
    for index, chunk in enumerate(chunks):
        state.handle(chunk, float(index))
    state.close()
    return state


def test_text_is_the_last_steps_text_and_full_text_has_all() -> None:
    state = fold(
        [
            c("start"),
            c("step-start"),
            c("text-start", {"id": "a"}),
            c("text-delta", {"id": "a", "text": "first "}),
            c("text-end", {"id": "a"}),
            c("step-finish", STEP_FINISH),
            c("step-start"),
            c("text-start", {"id": "a"}),
            c("text-delta", {"id": "a", "text": "sec"}),
            c("text-delta", {"id": "a", "text": "ond"}),
            c("text-end", {"id": "a"}),
            c("step-finish", STEP_FINISH),
            c("finish", FINISH),
        ]
    )
    assert state.text == "second"
    assert state.full_text == "first second"
    assert state.status == "finished"
    assert [s.finish_reason for s in state.steps] == ["stop", "stop"]
    assert state.usage is not None and state.usage.total_tokens == 7


def test_delta_with_no_start_is_kept_and_warned_about() -> None:
    state = fold([c("start"), c("text-delta", {"id": "x", "text": "orphan"})])
    assert state.full_text == "orphan"
    assert any("no 'text-start'" in w.message for w in state.warnings)
    warning = [p for p in state.notices if p.notice == "warning"]
    assert warning and "chunk 1" in warning[0].message


def test_result_for_unknown_tool_call_creates_the_call_and_warns() -> None:
    state = fold(
        [
            c("start"),
            c("step-start"),
            c("tool-result", {"toolCallId": "nope", "toolName": "t", "result": 1}),
        ]
    )
    assert state.tool_calls[0].result == 1
    assert state.tool_calls[0].state == "done"
    assert any("unknown tool call 'nope'" in w.message for w in state.warnings)


def test_second_start_mid_run_and_chunks_after_finish_are_warnings() -> None:
    state = fold(
        [
            c("start"),
            c("step-start"),
            c("start"),
            c("finish", FINISH),
            c("text-delta", {"id": "a", "text": "late"}),
        ]
    )
    messages = [w.message for w in state.warnings]
    assert any("second 'start'" in m for m in messages)
    assert any("after 'finish'" in m for m in messages)


def test_tool_lifecycle_with_partial_arguments() -> None:
    state = cs.RunState()
    state.handle(c("tool-call-input-streaming-start", {"toolCallId": "1", "toolName": "w"}), 0)
    state.handle(c("tool-call-delta", {"toolCallId": "1", "argsTextDelta": '{"city": "Se'}), 40)
    tool = state.tool_calls[0]
    assert tool.state == "input-streaming"
    assert tool.args == {"city": "Se"}
    state.handle(c("tool-call-delta", {"toolCallId": "1", "argsTextDelta": 'oul"}'}), 80)
    state.handle(c("tool-call-input-streaming-end", {"toolCallId": "1"}), 81)
    assert tool.args == {"city": "Seoul"}
    assert tool.args_text == '{"city": "Seoul"}'
    state.handle(
        c("tool-call", {"toolCallId": "1", "toolName": "w", "args": {"city": "Seoul"}}), 82
    )
    assert tool.state == "running"
    state.handle(
        c("tool-output", {"toolCallId": "1", "output": {"progress": 1}}, **{"from": "USER"}), 90
    )
    state.handle(
        c("tool-error", {"toolCallId": "1", "toolName": "w", "error": {"message": "down"}}), 100
    )
    assert tool.state == "error"
    assert [s for _, s in tool.states] == ["input-streaming", "running", "error"]
    outputs = [p for p in state.children(tool.id) if p.kind == "output"]
    assert len(outputs) == 1


def test_data_parts_reconcile_by_id_and_transient_ones_stay_apart() -> None:
    state = fold(
        [
            {"type": "data-status", "id": "s", "data": {"n": 1}},
            {"type": "data-status", "id": "s", "data": {"n": 2}},
            {"type": "data-progress", "id": "p", "data": {"percent": 10}, "transient": True},
            {"type": "data-progress", "id": "p", "data": {"percent": 90}, "transient": True},
        ]
    )
    assert [p.data for p in state.data] == [{"n": 2}]
    assert [t["data"] for t in state.transient] == [{"percent": 90}]
    snapshot = json.dumps(state.snapshot())
    assert "data-progress" not in snapshot and "percent" not in snapshot


def test_invalid_and_unknown_chunks_are_visible_and_do_not_stop_the_fold() -> None:
    state = fold(
        [
            c("start"),
            c("step-start", {"request": {}}),
            c("text-start", {"id": "a"}),
            c("text-delta", {"id": "a", "text": "kept"}),
            "{not json",
            {"type": "tool-call", "payload": {"toolName": 5}},
            {"type": "brand-new-type", "payload": {"x": 1}},
            c("text-delta", {"id": "a", "text": " still"}),
        ]
    )
    assert state.full_text == "kept still"
    assert len(state.errors) == 2
    assert "chunk 4" in state.errors[0].describe()
    kinds = [n.notice for n in state.notices]
    assert kinds.count("invalid") == 2 and "unknown" in kinds
    assert any("brand-new-type" in w.message for w in state.warnings)
    # an invalid tool-call is its error row only: no call the stream did not validly make
    assert state.tool_calls == []


def test_invalid_known_chunk_is_folded_leniently() -> None:
    state = fold(
        [
            c("start"),
            c("step-start", {"request": 1}),
            c("text-start", {"id": "a"}),
            c("text-delta", {"id": "a", "text": "x"}),
            c("step-start", {"request": 1}),
            c("text-start", {"id": "a"}),
            c("text-delta", {"id": "a", "text": "y"}),
        ]
    )
    assert [e.message.split(":")[0] for e in state.errors] == [
        "invalid 'step-start' chunk at chunk 1",
        "invalid 'step-start' chunk at chunk 4",
    ]
    assert len(state.steps) == 2
    assert state.text == "y"


def test_ops_rebuild_the_snapshot() -> None:
    """Applying the ops in order gives the same parts as the snapshot: the wire is complete."""
    state = cs.RunState()
    parts: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    for index, chunk in enumerate(cs.demo.stream(speed=0)):
        for op in state.handle(chunk, float(index * 5)):
            if op["op"] == "add":
                parts[op["part"]["id"]] = dict(op["part"])
                order.append(op["part"]["id"])
            elif op["op"] == "append":
                parts[op["id"]][op["field"]] = parts[op["id"]].get(op["field"], "") + op["text"]
            elif op["op"] == "set":
                parts[op["id"]].update(op["set"])
    snapshot = state.snapshot()
    for wire in snapshot["parts"]:
        ours = parts[wire["id"]]
        for key in ("text", "argsText", "state", "status", "result", "args", "data"):
            if key in wire:
                assert ours.get(key) == wire[key], (wire["kind"], key)
    assert [p["id"] for p in snapshot["parts"]] == order


def test_marks_grow_with_time_not_with_deltas() -> None:
    state = cs.RunState()
    state.handle(c("text-start", {"id": "a"}), 0)
    for i in range(1000):
        state.handle(c("text-delta", {"id": "a", "text": "x"}), i * 0.1)
    part = next(p for p in state.parts if isinstance(p, TextPart))
    assert len(part.marks) <= 4
    assert part.marks[-1][1] == 1000
    assert sum(row["n"] for row in state.rows) == 1001
    assert len(state.rows) <= 6


def test_nested_sub_agent_chunks_become_a_nested_run() -> None:
    inner = [
        c("start"),
        c("step-start"),
        c("text-start", {"id": "i"}),
        c("text-delta", {"id": "i", "text": "inner words"}),
        c("finish", FINISH),
    ]
    chunks = [
        c("start"),
        c("step-start"),
        c("tool-call", {"toolCallId": "t", "toolName": "agent-x", "args": {}}),
    ]
    chunks += [
        c(
            "tool-output",
            {"toolCallId": "t", "toolName": "agent-x", "output": {**x, "runId": "sub"}},
        )
        for x in inner
    ]
    state = fold(chunks)
    tool = next(p for p in state.parts if isinstance(p, ToolCall))
    nested = state.nested_runs
    assert len(nested) == 1 and nested[0].parent == tool.id
    assert nested[0].status == "finished"
    assert state.full_text == ""
    inner_text = [p for p in state.parts if isinstance(p, TextPart)]
    assert inner_text[0].text == "inner words"


def test_close_marks_error_stop_and_incomplete() -> None:
    broken = cs.RunState()
    broken.handle(c("start"), 0)
    broken.close(error=RuntimeError("socket closed"))
    assert broken.status == "error"
    assert "RuntimeError: socket closed" in broken.run_info()["error"]

    stopped = cs.RunState()
    stopped.handle(c("start"), 0)
    stopped.close(stopped=True)
    assert stopped.status == "aborted"

    cut = cs.RunState()
    cut.handle(c("start"), 0)
    cut.close()
    assert cut.status == "incomplete"
    assert "ended before a finish" in cut.warnings[-1].message


def test_transcript_is_deterministic_and_has_no_ids_or_times() -> None:
    a = cs.accumulate(cs.demo.stream(speed=0)).transcript()
    b = cs.accumulate(cs.demo.stream(speed=0, seed=7)).transcript()
    assert a == b
    assert "demo-run" not in a and "call-weather" not in a and " ms" not in a
    assert "[tool get-weather] done" in a
    assert "── step 2 (stop)" in a


def test_static_html_escapes_everything() -> None:
    state = fold(
        [
            c("start"),
            c("step-start"),
            c("text-start", {"id": "a"}),
            c("text-delta", {"id": "a", "text": "<script>alert(1)</script>"}),
            c(
                "source",
                {"id": "s", "sourceType": "url", "title": "<b>x</b>", "url": "javascript:alert(1)"},
            ),
        ]
    )
    html = state.static_html()
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    assert "javascript:" not in html


def test_agent_workflow_step_is_one_nested_run_under_its_step() -> None:
    from pathlib import Path

    path = Path(__file__).parent / "fixtures" / "mastra" / "workflow-agent-step.jsonl"
    state = cs.accumulate(cs.replay(path, speed=0))
    runs = state.nested_runs
    assert len(runs) == 1
    poet = next(s for s in state.workflow_steps if s.step_id == "poet")
    assert runs[0].parent == poet.id and runs[0].label == "poet"
    assert runs[0].status == "finished"
