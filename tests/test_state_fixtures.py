"""RunState reproduces what the real Mastra stream's own promises resolved to.

Each recording under tests/fixtures/mastra was made by the real @mastra/core pinned in the
recorder (``MANIFEST.json`` says which); its ``.expected.json`` holds what ``text``,
``finishReason``, ``usage`` … resolved to. Other releases' recordings are checked the same
way by ``tests/fidelity/test_mastra_releases.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import chunkscope as cs

pytest.register_assert_rewrite("mastra_promises")
from mastra_promises import MASTRA_FIXTURES, assert_matches_promises, state_of  # noqa: E402

RECORDINGS = sorted(MASTRA_FIXTURES.glob("*.jsonl"))


def test_every_recording_has_its_expected_values() -> None:
    assert len(RECORDINGS) >= 30
    for path in RECORDINGS:
        assert path.with_suffix("").with_suffix(".expected.json").exists(), path.name


@pytest.mark.parametrize("path", RECORDINGS, ids=[p.stem for p in RECORDINGS])
def test_run_state_matches_mastra_promises(path: Path) -> None:
    assert_matches_promises(path)


def test_text_equals_concatenated_deltas_in_every_recording() -> None:
    for path in RECORDINGS:
        state = state_of(path)
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
        state = state_of(path)
        lines = [json.loads(x)["chunk"] for x in path.read_text().splitlines() if x.strip()]
        persisted = [c for c in lines if not c.get("transient")]
        assert sum(row["n"] for row in state.rows) == len(persisted), path.name
        assert state.chunk_count == len(lines)


def test_a_network_tool_run_names_its_tool_from_start_to_end() -> None:
    # tool-execution-start names the tool only inside `args`; the event still says which tool
    paths = [MASTRA_FIXTURES / "network-tool.jsonl"]
    paths += sorted(MASTRA_FIXTURES.glob("releases/*/network-tool.jsonl"))
    for path in paths:
        events = state_of(path).parts_of(cs.fold.parts.NetworkEvent)
        tool_events = [(e.event, e.label) for e in events if e.event.startswith("tool-execution")]
        assert tool_events == [
            ("tool-execution-start", "get-weather"),
            ("tool-execution-end", "get-weather"),
        ], path
