"""Recordings of other ``@mastra/core`` 1.x releases fold to what their promises resolved to.

``tests/fixtures/mastra/releases/<version>/`` holds the recorder's scenarios recorded under
that release (``npm run record -- --release <version>``), each folder with a
``MANIFEST.json`` naming the recordings made and the scenarios the release could not run.
The top-level folder is the pinned release, checked by ``tests/test_state_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.register_assert_rewrite("mastra_promises")
from mastra_promises import (  # noqa: E402
    MASTRA_FIXTURES,
    assert_matches_promises,
    expected_of,
    state_of,
)

RELEASES = sorted(
    (p for p in (MASTRA_FIXTURES / "releases").iterdir() if p.is_dir()),
    key=lambda p: tuple(int(n) for n in p.name.split(".")),
)
RECORDINGS = [path for folder in RELEASES for path in sorted(folder.glob("*.jsonl"))]


def _manifest(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "MANIFEST.json").read_text())


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split("."))


def _stems(folder: Path, suffix: str) -> set[str]:
    return {p.name[: -len(suffix)] for p in folder.glob(f"*{suffix}")}


def test_releases_span_the_1x_line_up_to_the_pinned_release() -> None:
    pinned = _manifest(MASTRA_FIXTURES)["mastraCore"]
    versions = [folder.name for folder in RELEASES]
    assert len(versions) >= 2, versions
    assert all(v.startswith("1.") and _version(v) < _version(pinned) for v in versions)
    assert {_manifest(folder)["mastraCore"] for folder in RELEASES} == set(versions)


@pytest.mark.parametrize(
    "folder", [MASTRA_FIXTURES, *RELEASES], ids=["pinned", *[f.name for f in RELEASES]]
)
def test_manifest_names_exactly_the_recordings_in_its_folder(folder: Path) -> None:
    manifest = _manifest(folder)
    recorded = [entry["name"] for entry in manifest["recorded"]]
    missing = [name for entry in manifest["notAvailable"] for name in entry["recordings"]]

    assert len(recorded) == len(set(recorded))
    assert set(recorded) == _stems(folder, ".jsonl") == _stems(folder, ".expected.json")
    assert not set(recorded) & set(missing)
    assert all(entry["reason"].strip() for entry in manifest["notAvailable"])
    # every scenario the pinned release records is either recorded or said to be missing
    pinned = _manifest(MASTRA_FIXTURES)
    everything = {e["name"] for e in pinned["recorded"]} | {
        n for e in pinned["notAvailable"] for n in e["recordings"]
    }
    assert set(recorded) | set(missing) == everything


@pytest.mark.parametrize("path", RECORDINGS, ids=[f"{p.parent.name}/{p.stem}" for p in RECORDINGS])
def test_release_recording_matches_mastra_promises(path: Path) -> None:
    assert_matches_promises(path, earlier_release=True)


def _chunks(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line)["chunk"] for line in path.read_text().splitlines() if line.strip()]


def _release(version: str, name: str) -> Path:
    return MASTRA_FIXTURES / "releases" / version / f"{name}.jsonl"


def test_a_workflow_finish_without_its_result_resolves_to_the_last_step_output() -> None:
    # 1.0.4 sends no finalWorkflowResult; the run's result is what its last top-level step
    # returned, not what a nested workflow's last step returned.
    path = _release("1.0.4", "workflow-nested")
    (finish,) = [c for c in _chunks(path) if c["type"] == "workflow-finish"]
    assert "finalWorkflowResult" not in finish["payload"]
    expected = expected_of(path)["result"]["result"]

    state = state_of(path)

    assert state.workflow is not None
    assert state.workflow.result == expected == {"value": 22}
    inner = [s for s in state.workflow_steps if s.step_id == "inner-wf.inner-step-2"]
    assert inner and inner[0].output != expected


def test_a_failed_workflow_whose_error_reached_json_empty_says_why() -> None:
    # In 1.35 `metadata.error` is a live Error, which JSON writes as {}; the message is in
    # `metadata.errorMessage`.
    path = _release("1.35.0", "workflow-invalid-input")
    (finish,) = [c for c in _chunks(path) if c["type"] == "workflow-finish"]
    assert finish["payload"]["metadata"]["error"] == {}
    reason = expected_of(path)["result"]["__throws__"]

    state = state_of(path)

    assert state.status == "error"
    assert state.error["message"] == reason
    assert state.workflow is not None and state.workflow.error == state.error
    shown = [n.message for n in state.notices if n.notice == "error"]
    assert shown == [f"the workflow failed: {reason}"]
    assert reason.splitlines()[0] in state.transcript()
