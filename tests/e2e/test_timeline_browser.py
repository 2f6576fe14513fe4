"""The Timeline, the scrubber and the chunk inspector in JupyterLab + headless Chromium.

Real Mastra recordings (tests/fixtures/mastra) are replayed with ``speed=0``: no waiting,
but every chunk keeps its recorded offset, so the timeline has the recorded shape. Several
runs share one notebook to keep the suite fast; each widget is found by its title.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest
from lab import LabPage
from lab.paths import REPO
from timeline_page import (
    Hit,
    Outline,
    bar_colour,
    canvas_box,
    click_canvas,
    drag_on_canvas,
    hits_starting,
    offset_ms,
    poll,
    read_outline,
    read_rows,
    read_scrubber,
    read_transcript,
    scan_canvas,
    show_tab,
    wait_ended,
    wait_outline,
    widget,
)

pytestmark = pytest.mark.e2e

FIXTURES = REPO / "tests" / "fixtures" / "mastra"

#: The recordings whose timelines are checked, in notebook order.
RECORDINGS = (
    "tool-streamed-input",
    "parallel-tool-calls",
    "background-task-success",
    "background-task-failure",
    "workflow-parallel",
    "workflow-foreach",
    "workflow-nested",
    "tripwire-output",
    "abort",
)

#: First cell of every notebook here.
IMPORTS = "import chunkscope as cs\nfrom pathlib import Path\nFIXTURES = Path({fixtures!r})"


def show_cell(name: str) -> str:
    """A cell that replays recording ``name`` into a StreamView titled ``name``."""
    return f"cs.show(cs.replay(FIXTURES / '{name}.jsonl', speed=0), title='{name}')"


def open_runs(lab: LabPage, names: tuple[str, ...], notebook: str) -> None:
    """Write and open a notebook showing each recording, run it, wait for every run to end."""
    cells = [IMPORTS.format(fixtures=str(FIXTURES)), *(show_cell(name) for name in names)]
    lab.open(lab.new_notebook(cells, notebook))
    assert lab.run_all(), "running the notebook failed"
    for name in names:
        wait_ended(lab, name)


def open_timeline(lab: LabPage, name: str) -> Outline:
    """Show the Timeline tab of run ``name`` and return its outline once the run has ended."""
    show_tab(lab, name, "Timeline")
    return wait_outline(
        lab,
        name,
        lambda o: bool(o.lanes) and o.lanes[0].items[0].what.split(" · ")[-1]
        not in ("running", "waiting"),
        "the timeline of the ended run",
    )


def timeline_screenshot(lab: LabPage, name: str) -> None:
    """Save the widget (showing its timeline) under screenshots/timeline-<name>.png."""
    target = lab.artifacts_dir / "screenshots" / f"timeline-{name}.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    widget(lab, name).screenshot(path=str(target))


def rgb_is(colour: tuple[int, int, int], hue: str) -> bool:
    """Whether ``colour`` is clearly red or clearly green."""
    r, g, b = colour
    if hue == "red":
        return r > g + 60 and r > b + 60
    return g > r + 30 and g > b + 30


def test_timelines_of_real_recordings_show_their_lanes_and_markers(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    open_runs(lab, RECORDINGS, "timelines")
    outlines: dict[str, Outline] = {}
    hits: dict[str, list[Hit]] = {}
    for name in RECORDINGS:
        outlines[name] = open_timeline(lab, name)
        hits[name] = scan_canvas(lab, name)
        timeline_screenshot(lab, name)

    # Tool over two steps: both steps with their finish reasons, one tool, two text spans.
    two_steps = outlines["tool-streamed-input"]
    assert two_steps.lane("Run").whats == [
        "tool-streamed-input · finished",
        "step 1 · tool-calls",
        "step 2 · stop",
    ]
    assert two_steps.lane("Tools").whats == ["get-weather · done"]
    assert two_steps.lane("Text").whats == ["text", "text"]
    assert two_steps.marker_kinds == ["ttft"]

    # Parallel tools: three calls stacked in three distinct rows, on the canvas too.
    parallel = outlines["parallel-tool-calls"]
    tools = parallel.lane("Tools")
    assert tools.whats == ["get-weather · done"] * 3
    assert (tools.rows, sorted(item.row for item in tools.items)) == (3, [0, 1, 2])
    tool_hits = hits_starting(hits["parallel-tool-calls"], "get-weather · done")
    cities = sorted(city for hit in tool_hits for city in ("Seoul", "Paris", "New York") if city in hit.text)
    assert len(tool_hits) == 3, [h.text for h in tool_hits]
    bands = sorted((hit.y0, hit.y1) for hit in tool_hits)
    assert all(a[1] < b[0] for a, b in zip(bands, bands[1:], strict=False)), (
        f"the three tool bars are not drawn in distinct rows: {bands}"
    )
    assert len(set(cities)) == 3, f"hovering did not tell the three calls apart: {cities}"

    # Background tasks: the task's own lane, its outcome in words and in colour.
    for name, outcome, hue in (
        ("background-task-success", "completed", "green"),
        ("background-task-failure", "failed", "red"),
    ):
        outline = outlines[name]
        task = outline.lane("Background")
        assert task.whats == [f"deep-research · {outcome}"], (name, task)
        assert "continuation turn 1 · finished" in outline.lane("Run").whats, name
        [task_hit] = hits_starting(hits[name], f"background deep-research · {outcome}")
        colour = bar_colour(lab, name, task_hit)
        assert rgb_is(colour, hue), f"{name}: the task bar is painted {colour}, not {hue}"

    # Workflows: parallel branches stacked, foreach progress, nested steps indented.
    branches = outlines["workflow-parallel"].lane("Workflow")
    assert branches.whats == ["add-ten · success", "add-hundred · success", "merge · success"]
    assert branches.rows == 2
    assert [item.row for item in branches.items[:2]] == [0, 1]
    assert outlines["workflow-foreach"].lane("Workflow").whats == ["square · 3/3 · success"]
    nested = outlines["workflow-nested"]
    outer, inner = nested.lane("Workflow"), nested.lane("inner-wf")
    assert outer.whats == ["outer-first · success", "inner-wf · success", "outer-last · success"]
    assert inner.whats == ["inner-step · success", "inner-step-2 · success"]
    assert (outer.depth, inner.depth) == (0, 1)
    labels = [lane.label for lane in nested.lanes]
    assert labels.index("inner-wf") == labels.index("Workflow") + 1, labels
    for step in ("step inner-wf.inner-step · success", "step outer-last · success"):
        assert hits_starting(hits["workflow-nested"], step), f"no bar for {step!r} on the canvas"

    # Output tripwire: the run ends red, with a marker whose hover names reason and processor.
    tripwire = outlines["tripwire-output"]
    assert tripwire.lane("Run").whats[0] == "tripwire-output · tripwire"
    assert tripwire.marker_kinds == ["ttft", "tripwire"]
    [trip_hover] = hits_starting(hits["tripwire-output"], "tripwire @")
    assert "Output contains a forbidden word" in trip_hover.text, trip_hover.text
    assert "block-forbidden-word" in trip_hover.text, trip_hover.text
    assert trip_hover.y0 < 22, "the tripwire marker is not on the ruler"

    # Abort: an abort marker and a muted run bar.
    aborted = outlines["abort"]
    assert aborted.lane("Run").whats[0] == "abort · aborted"
    assert "abort" in aborted.marker_kinds
    assert hits_starting(hits["abort"], "aborted @"), "no abort marker under the pointer"

    assert not lab.console_errors, lab.console_errors
