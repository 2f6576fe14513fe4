"""Workflow runs keep what their chunks say, however much of the stream was seen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chunkscope as cs

MASTRA = Path(__file__).parents[1] / "fixtures" / "mastra"


def _chunks(name: str) -> list[dict[str, Any]]:
    lines = (MASTRA / f"{name}.jsonl").read_text().splitlines()
    return [json.loads(line)["chunk"] for line in lines if line.strip()]


def _from_first_result(chunks: list[dict[str, Any]], step_id: str) -> list[dict[str, Any]]:
    """The stream observed from the step's result on (its start never seen)."""
    at = next(
        i
        for i, c in enumerate(chunks)
        if c["type"] == "workflow-step-result" and c["payload"]["id"] == step_id
    )
    return chunks[at:]


def test_a_step_first_seen_at_its_failed_result_keeps_its_error() -> None:
    chunks = _from_first_result(_chunks("workflow-step-error"), "explode")
    state = cs.accumulate(chunks)
    (step,) = [s for s in state.workflow_steps if s.step_id == "explode"]
    assert step.state == "failed"
    assert step.error == {"message": "step exploded on purpose", "name": "Error"}
    assert step.t1 is not None


def test_a_step_first_seen_at_its_result_keeps_its_output() -> None:
    chunks = _chunks("workflow-writer")
    results = [c for c in chunks if c["type"] == "workflow-step-result"]
    state = cs.accumulate(_from_first_result(chunks, results[0]["payload"]["id"]))
    seen = {s.step_id: s for s in state.workflow_steps}
    for result in results:
        step = seen[result["payload"]["id"]]
        assert step.output == result["payload"]["output"]
        assert step.t1 is not None


def test_a_failed_workflow_keeps_the_reason_its_finish_metadata_gives() -> None:
    expected = json.loads((MASTRA / "workflow-invalid-input.expected.json").read_text())
    reason = expected["result"]["__throws__"]
    state = cs.accumulate(cs.replay(MASTRA / "workflow-invalid-input.jsonl", speed=0))
    assert state.status == "error"
    assert state.workflow is not None and state.workflow.status == "failed"
    assert state.error["message"] == reason
    assert state.workflow.error == state.error
    shown = [n for n in state.notices if n.notice == "error"]
    assert shown and reason in shown[0].message
    assert reason.splitlines()[0] in state.transcript()


def test_a_suspended_step_keeps_its_suspend_payload() -> None:
    chunks = _chunks("workflow-suspend")
    (suspended,) = [c for c in chunks if c["type"] == "workflow-step-suspended"]
    state = cs.accumulate(chunks)
    step = next(s for s in state.workflow_steps if s.step_id == suspended["payload"]["id"])
    assert step.state == "suspended"
    assert step.suspend_payload == {"reason": "value 42 needs a human"}
    # observed from the suspension on, the payload is kept too
    late = cs.accumulate(chunks[chunks.index(suspended) :])
    (only,) = late.workflow_steps
    assert only.suspend_payload == {"reason": "value 42 needs a human"}


def _live(chunks: list[dict[str, Any]]) -> tuple[cs.RunState, list[dict[str, Any]]]:
    """Fold as a live view does, keeping the ops a page would get."""
    state = cs.RunState()
    ops: list[dict[str, Any]] = []
    for chunk in chunks:
        ops += state.handle(chunk) or []
    state.close()
    return state, ops


def test_the_page_gets_the_suspend_payload_and_the_failure_reason() -> None:
    state, ops = _live(_chunks("workflow-suspend"))
    (wstep,) = [
        p for p in state.snapshot()["parts"] if p["kind"] == "wstep" and p["suspendPayload"]
    ]
    assert wstep["suspendPayload"] == {"reason": "value 42 needs a human"}
    assert any(
        op.get("set", {}).get("suspendPayload") == {"reason": "value 42 needs a human"}
        for op in ops
        if op["op"] == "set"
    )

    failed, ops = _live(_chunks("workflow-invalid-input"))
    (workflow,) = [p for p in failed.snapshot()["parts"] if p["kind"] == "workflow"]
    assert workflow["error"] == failed.error
    assert any(op["op"] == "set" and "error" in op["set"] for op in ops)
