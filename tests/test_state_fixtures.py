"""RunState reproduces what the real Mastra stream's own promises resolved to.

Each recording under tests/fixtures/mastra was made by the real @mastra/core 1.71.0; its
``.expected.json`` holds what ``text``, ``finishReason``, ``usage`` … resolved to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import chunkscope as cs

FIXTURES = Path(__file__).parent / "fixtures" / "mastra"
RECORDINGS = sorted(FIXTURES.glob("*.jsonl"))

# Mastra's `status` getter next to ours: ours says why a run stopped, Mastra's does not always
# (after a tripwire Mastra still reads "running").
STATUS = {
    "success": {"finished"},
    "failed": {"error"},
    "canceled": {"aborted"},
    "suspended": {"suspended", "awaiting-approval"},
    "running": {"tripwire"},
}


def _expected(path: Path) -> dict[str, Any]:
    return json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())


def _state(path: Path) -> cs.RunState:
    return cs.accumulate(cs.replay(path, speed=0))


def test_every_recording_has_its_expected_values() -> None:
    assert len(RECORDINGS) >= 30
    for path in RECORDINGS:
        assert path.with_suffix("").with_suffix(".expected.json").exists(), path.name


@pytest.mark.parametrize("path", RECORDINGS, ids=[p.stem for p in RECORDINGS])
def test_run_state_matches_mastra_promises(path: Path) -> None:
    expected = _expected(path)
    state = _state(path)

    # an error the stream itself reported is on state.errors; nothing else may be
    reported_types = ("error", "workflow-finish")  # a failed workflow's reason is reported
    bad = [p.describe() for p in state.errors if p.type not in reported_types]
    assert not bad, bad
    reported = [p for p in state.errors if p.type in reported_types]
    assert bool(reported) == any(n.notice == "error" for n in state.notices)
    assert not state.warnings, [w.describe() for w in state.warnings]
    assert state.status in STATUS[expected["status"]], (state.status, expected["status"])

    if "text" in expected:
        assert state.text == expected["text"]
    if "reasoningText" in expected:
        assert state.reasoning_text == (expected["reasoningText"] or "")
    if "finishReason" in expected:
        assert state.finish_reason == expected["finishReason"]
    for key, ours in (("usage", state.usage), ("totalUsage", state.total_usage)):
        if key in expected:
            # exactly the framework's form: `{}` and `{"totalTokens": 0}` included
            dumped = None if ours is None else ours.model_dump(by_alias=True, exclude_none=True)
            assert dumped == expected[key], (key, dumped, expected[key])
    if "stepCount" in expected:
        finished_steps = [s for s in state.steps if s.finish_reason is not None]
        assert len(finished_steps) == expected["stepCount"]
    if "toolCalls" in expected:
        calls = [c["payload"] for c in expected["toolCalls"]]
        assert [(c.tool_call_id, c.tool_name, c.args) for c in state.tool_calls][: len(calls)] == [
            (c["toolCallId"], c["toolName"], c.get("args")) for c in calls
        ]
    if "toolResults" in expected:
        assert [c.tool_call_id for c in state.tool_results] == [
            r["payload"]["toolCallId"] for r in expected["toolResults"]
        ]
        results = {r["payload"]["toolCallId"]: r["payload"] for r in expected["toolResults"]}
        ours = {c.tool_call_id: c for c in state.tool_calls if c.has_result}
        for call_id, payload in results.items():
            assert call_id in ours
            assert ours[call_id].result == payload.get("result")
    if "error" in expected and expected["error"] and "workflowStatus" not in expected:
        assert expected["error"]["message"] in str(state.error)
    if "tripwire" in expected:
        if expected["tripwire"] is None:
            assert state.tripwire is None
        else:
            assert state.tripwire is not None
            assert state.tripwire["reason"] == expected["tripwire"]["reason"]
            assert state.tripwire.get("processorId") == expected["tripwire"].get("processorId")
    if "workflowStatus" in expected:
        assert state.workflow is not None
        thrown = expected["result"].get("__throws__")
        if thrown is not None:
            # `run.stream()`'s result promise rejected: the run failed with that reason
            assert state.workflow.status == "failed"
            assert state.error["message"] == thrown
            assert state.workflow.error == state.error
        else:
            assert state.workflow.status == expected["workflowStatus"]
        if "result" in expected["result"]:
            assert state.workflow.result == expected["result"]["result"]
    if path.stem == "structured-output":
        assert state.object == expected["object"]


def test_text_equals_concatenated_deltas_in_every_recording() -> None:
    for path in RECORDINGS:
        state = _state(path)
        for part in state.parts:
            if isinstance(part, cs.fold.parts.TextPart):
                pieces = [
                    row["json"]["payload"].get("text", "")
                    for row in state.rows
                    if row["part"] == part.id and row["type"] == "text-delta"
                ]
                if part.parent is None:
                    assert "".join(pieces) == part.text, path.name


def test_inspector_rows_cover_every_persisted_chunk() -> None:
    for path in RECORDINGS:
        state = _state(path)
        lines = [json.loads(x)["chunk"] for x in path.read_text().splitlines() if x.strip()]
        persisted = [c for c in lines if not c.get("transient")]
        assert sum(row["n"] for row in state.rows) == len(persisted), path.name
        assert state.chunk_count == len(lines)
