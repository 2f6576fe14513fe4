"""Folding a real Mastra recording against what that run's own promises resolved to.

A recording ``<name>.jsonl`` (one ``{"t", "chunk"}`` per line) sits next to
``<name>.expected.json``, which the recorder (``tests/fixtures/mastra/recorder``) filled with
what ``text``, ``finishReason``, ``usage`` … of the real stream resolved to. Both the pinned
release's recordings and every ``releases/<version>/`` folder are checked with
``assert_matches_promises``.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import chunkscope as cs

MASTRA_FIXTURES = Path(__file__).parent / "fixtures" / "mastra"

# Mastra's `status` getter next to ours: ours says why a run stopped, Mastra's does not always
# (after a tripwire Mastra still reads "running").
STATUS = {
    "success": {"finished"},
    "failed": {"error"},
    "canceled": {"aborted"},
    "suspended": {"suspended", "awaiting-approval"},
    "running": {"tripwire"},
}


def _rejected(expected: dict[str, Any]) -> dict[str, str]:
    """The agent promises that rejected, with their reasons (a workflow's ``result`` is
    checked with the workflow)."""
    return {
        key: value["__throws__"]
        for key, value in expected.items()
        if key != "result" and isinstance(value, dict) and "__throws__" in value
    }


def _as_pinned_release_reads(expected: dict[str, Any], state: cs.RunState) -> dict[str, Any]:
    """An earlier release's promise values, as the pinned release reads the same chunks.

    Three readings changed between 1.35 and 1.71 while the chunks stayed the same, so the
    fold, which follows 1.71, cannot give both; each earlier value is turned into the 1.71
    one only where the recording is the case that changed:

    - after the model's stream failed, the ``status`` getter says "success" while ``error``
      says why; 1.71 says "failed";
    - after the caller aborted (an ``abort`` chunk), ``status`` says "success",
      ``finishReason`` "tripwire" (the finish chunk's ``stepResult.reason``) and
      ``tripwire`` a processor tripwire no processor raised; 1.71 says "canceled",
      "aborted" and no tripwire;
    - ``text`` joins the text of every step (``full_text``); 1.71 gives the last step's.
    """
    seen = dict(expected)
    if expected["status"] == "success" and expected.get("error"):
        seen["status"] = "failed"
    aborted = any(n.notice == "abort" for n in state.notices)
    if aborted and expected["status"] == "success" and expected.get("finishReason") == "tripwire":
        seen["status"], seen["finishReason"], seen["tripwire"] = "canceled", "aborted", None
    if "text" in expected and expected["text"] == state.full_text:
        seen["text"] = state.text
    return seen


def expected_of(path: Path) -> dict[str, Any]:
    """What the recording's promises resolved to."""
    return json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())


def state_of(path: Path) -> cs.RunState:
    """The recording folded, as a notebook replaying it would fold it."""
    return cs.accumulate(cs.replay(path, speed=0))


def _usage(ours: Any) -> Any:
    # exactly the framework's form: `{}` and `{"totalTokens": 0}` included
    return None if ours is None else ours.model_dump(by_alias=True, exclude_none=True)


def _source(payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "sourceType": payload.get("sourceType"),
        "title": payload.get("title"),
        "url": payload.get("url"),
        "mimeType": payload.get("mimeType"),
        "filename": payload.get("filename"),
    }


def _file_data(payload: dict[str, Any]) -> Any:
    """A file's content as base64: a ``Uint8Array`` reaches JSON as ``{"0": 137, ...}``."""
    if "base64" in payload:
        return payload["base64"]
    data = payload.get("data")
    if isinstance(data, dict) and all(k.isdigit() for k in data):
        return base64.b64encode(bytes(data[str(i)] for i in range(len(data)))).decode()
    return data


def _assert_no_unreported_problems(state: cs.RunState) -> None:
    # no chunk, top-level or nested, failed its model (InvalidChunk) or was of an unknown type
    invalid = [n.message for n in state.notices if n.notice in ("invalid", "unknown")]
    assert not invalid, invalid
    # an error the stream itself reported is on state.errors; nothing else may be
    reported_types = ("error", "workflow-finish")  # a failed workflow's reason is reported
    bad = [p.describe() for p in state.errors if p.type not in reported_types]
    assert not bad, bad
    reported = [p for p in state.errors if p.type in reported_types]
    assert bool(reported) == any(n.notice == "error" for n in state.notices)
    assert not state.warnings, [w.describe() for w in state.warnings]


def _assert_agent_values(state: cs.RunState, expected: dict[str, Any]) -> None:
    if "text" in expected:
        assert state.text == expected["text"]
    if "reasoningText" in expected:
        assert state.reasoning_text == (expected["reasoningText"] or "")
    if "finishReason" in expected:
        assert state.finish_reason == expected["finishReason"]
    if "stepCount" in expected:
        finished_steps = [s for s in state.steps if s.finish_reason is not None]
        assert len(finished_steps) == expected["stepCount"]
    if "toolCalls" in expected:
        calls = [c["payload"] for c in expected["toolCalls"]]
        assert [(c.tool_call_id, c.tool_name, c.args) for c in state.tool_calls] == [
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
    if "sources" in expected:
        top = [s for s in state.sources if s.parent is None]
        assert [
            {
                "sourceType": s.source_type,
                "title": s.title,
                "url": s.url,
                "mimeType": s.mime_type,
                "filename": s.filename,
            }
            for s in top
        ] == [_source(s["payload"]) for s in expected["sources"]]
    if "files" in expected:
        top = [f for f in state.files if f.parent is None]
        assert [(f.mime_type, f.data) for f in top] == [
            (f["payload"].get("mimeType"), _file_data(f["payload"])) for f in expected["files"]
        ]
    if "error" in expected and expected["error"] and "workflowStatus" not in expected:
        assert expected["error"]["message"] in str(state.error)
    if "tripwire" in expected:
        if expected["tripwire"] is None:
            assert state.tripwire is None
        else:
            assert state.tripwire is not None
            assert state.tripwire["reason"] == expected["tripwire"]["reason"]
            assert state.tripwire.get("processorId") == expected["tripwire"].get("processorId")
    if "object" in expected:
        assert state.object == expected["object"]


def _assert_workflow_values(state: cs.RunState, expected: dict[str, Any]) -> None:
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


def assert_matches_promises(path: Path, *, earlier_release: bool = False) -> None:
    """Folding the recording at ``path`` gives what its run's promises resolved to.

    ``earlier_release``: the recording is of a release before the pinned one, whose promise
    values are first read as the pinned release reads the same chunks.
    """
    expected = expected_of(path)
    state = state_of(path)
    if earlier_release:
        expected = _as_pinned_release_reads(expected, state)
    pending = [
        key for key, value in expected.items() if isinstance(value, dict) and "__pending__" in value
    ]
    assert not pending, f"promises that never settled when recorded: {pending}"

    _assert_no_unreported_problems(state)
    assert state.status in STATUS[expected["status"]], (state.status, expected["status"])
    rejected = _rejected(expected)
    for key, reason in rejected.items():
        # the promise rejected: the run failed, and says why
        assert state.status == "error", key
        assert state.error is not None and state.error.get("message") == reason, key
    expected = {k: v for k, v in expected.items() if k not in rejected}
    for key, ours in (("usage", state.usage), ("totalUsage", state.total_usage)):
        if key in expected:
            assert _usage(ours) == expected[key], (key, _usage(ours), expected[key])
    _assert_agent_values(state, expected)
    if "workflowStatus" in expected:
        _assert_workflow_values(state, expected)
