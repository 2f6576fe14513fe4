"""The Timeline, the scrubber and the chunk inspector in JupyterLab + headless Chromium.

Real Mastra recordings (tests/fixtures/mastra) are replayed with ``speed=0``: no waiting,
but every chunk keeps its recorded offset, so the timeline has the recorded shape. Several
runs share one notebook to keep the suite fast; each widget is found by its title.
"""

from __future__ import annotations

import itertools
import json
import statistics

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
    loaded_rows,
    offset_ms,
    poll,
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


def show_cell(name: str, speed: float = 0) -> str:
    """A cell that replays recording ``name`` into a StreamView titled ``name``."""
    return f"cs.show(cs.replay(FIXTURES / '{name}.jsonl', speed={speed}), title='{name}')"


def open_runs(lab: LabPage, names: tuple[str, ...], notebook: str, speed: float = 0) -> None:
    """Write and open a notebook showing each recording, run it, wait for every run to end."""
    cells = [IMPORTS.format(fixtures=str(FIXTURES)), *(show_cell(name, speed) for name in names)]
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
        lambda o: (
            bool(o.lanes)
            and o.lanes[0].items[0].what.split(" · ")[-1] not in ("running", "waiting")
        ),
        "the timeline of the ended run",
    )


def timeline_screenshot(lab: LabPage, name: str, file: str | None = None) -> None:
    """Save widget ``name`` (showing its timeline) under screenshots/timeline-<file>.png."""
    target = lab.artifacts_dir / "screenshots" / f"timeline-{file or name}.png"
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
    cities = sorted(
        city for hit in tool_hits for city in ("Seoul", "Paris", "New York") if city in hit.text
    )
    assert len(tool_hits) == 3, [h.text for h in tool_hits]
    bands = sorted((hit.y0, hit.y1) for hit in tool_hits)
    assert all(a[1] < b[0] for a, b in itertools.pairwise(bands)), (
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


def test_clicking_a_tool_bar_scrolls_to_its_card_and_scrubbing_shows_the_past(
    lab: LabPage,
) -> None:
    lab.set_save_widget_state(False)
    open_runs(lab, ("parallel-tool-calls", "tool-streamed-input"), "click-and-scrub")

    # The transcript scrolled to its end, the first call's card out of view...
    name = "parallel-tool-calls"
    widget(lab, name).locator(".cs-transcript").evaluate("(s) => { s.scrollTop = s.scrollHeight; }")
    open_timeline(lab, name)
    [seoul] = [
        hit
        for hit in hits_starting(scan_canvas(lab, name), "get-weather · done")
        if "Seoul" in hit.text
    ]
    # ...a click on that call's bar brings the transcript back with the card in view, selected.
    click_canvas(lab, name, *seoul.centre)
    shown = poll(
        lambda: (r := read_transcript(lab, name))["shown"] and r["selected"] and r,
        "the transcript with a selected card",
    )
    [card] = shown["selected"]
    assert "Seoul" in card["text"] and "New York" not in card["text"], card["text"]
    assert card["visible"], f"the selected card is scrolled out of view: {shown}"
    lab.screenshot("timeline-click-tool-bar")

    # Scrubbing by dragging on the ruler to just before the second step starts.
    name = "tool-streamed-input"
    open_timeline(lab, name)
    hits = scan_canvas(lab, name)
    [step_two] = hits_starting(hits, "step 2")
    ruler_y = 10
    drag_on_canvas(lab, name, (step_two.x0 - 60, ruler_y), (step_two.x0 - 8, ruler_y))
    scrubbed = read_scrubber(lab, name)
    assert scrubbed["liveEnabled"], scrubbed
    assert 26 < offset_ms(scrubbed["readout"]) < 63.7, scrubbed
    timeline_screenshot(lab, name, "tool-streamed-input-scrubbed")
    show_tab(lab, name, "Transcript")
    past = read_transcript(lab, name)
    assert "Let me check." in past["text"], past
    assert "It is" not in past["text"], f"the second step's text shows before it arrived: {past}"
    assert past["banner"].startswith("viewing t = "), past
    assert past["tools"] == 1, past

    # To the end with the range control: the second step's text is there.
    show_tab(lab, name, "Timeline")
    range_input = widget(lab, name).locator(".cs-scrub-range")
    range_input.fill(str(read_scrubber(lab, name)["max"]))
    show_tab(lab, name, "Transcript")
    end = read_transcript(lab, name)
    assert "It is 21 °C in Seoul." in end["text"], end
    assert end["banner"], "scrubbed to the end, but no longer said to be a past view"

    # "Live" returns to the edge.
    show_tab(lab, name, "Timeline")
    widget(lab, name).locator(".cs-scrub-live").click()
    live = read_scrubber(lab, name)
    assert (live["readout"], live["liveEnabled"]) == ("live", False), live
    show_tab(lab, name, "Transcript")
    back = read_transcript(lab, name)
    assert not back["banner"] and "It is 21 °C in Seoul." in back["text"], back
    assert not lab.console_errors, lab.console_errors


def recorded_offsets(name: str) -> list[tuple[float, str]]:
    """(recorded offset, chunk type) of every line of recording ``name``."""
    lines = (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [(entry["t"], entry["chunk"]["type"]) for entry in map(json.loads, lines) if entry]


def test_chunk_inspector_lists_filters_and_shows_json_and_live_rows_go_on_reload(
    lab: LabPage,
) -> None:
    lab.set_save_widget_state(False)
    name = "tool-writer"
    # Slowed 20x (about 1.6 s in all) so the transient chunks reach a page that is listening:
    # sent before the view exists, they are never shown, as they are never saved.
    speed = 0.05
    open_runs(lab, (name,), "inspector", speed=speed)
    root = widget(lab, name)
    show_tab(lab, name, "Chunks")

    listed = loaded_rows(lab, name, "the chunk rows")
    rows = listed["rows"]
    offsets = [offset_ms(row["t"]) for row in rows]
    assert offsets == sorted(offsets), f"rows not in arrival order: {offsets}"
    recorded = recorded_offsets(name)
    assert (rows[0]["type"], rows[0]["from"]) == (recorded[0][1], "AGENT"), rows[0]
    # Offsets follow the replay's clock: the recorded ones stretched by 1/speed.
    last_t = recorded[-1][0] / speed
    assert 0.8 * last_t < offset_ms(rows[-1]["t"]) < 3 * last_t, (rows[-1], last_t)
    total = int(listed["count"].split()[0])
    lab.screenshot("inspector-all-rows")

    # Live-only rows: the three transient progress chunks.
    root.locator(".cs-inspector-type").fill("data-progress")
    progress = read_rows(lab, name)["rows"]
    assert [(r["type"], r["live"]) for r in progress] == [("data-progress", "live only")] * 3

    # Family "tools": only tool rows.
    root.locator(".cs-inspector-type").fill("")
    root.locator(".cs-chip[data-family=tools]").click()
    tools = read_rows(lab, name)
    assert tools["rows"] and {r["family"] for r in tools["rows"]} == {"tools"}, tools["rows"]
    assert all(r["type"].startswith("tool-") for r in tools["rows"]), tools["rows"]
    assert tools["count"].endswith(f"of {total} rows"), tools["count"]

    # The selected row's JSON.
    root.locator(".cs-row", has_text="tool-call").filter(has_not_text="tool-call-").first.click()
    detail = read_rows(lab, name)["detail"]
    assert detail.startswith("tool-call · "), detail
    for text in ('toolName: "long-task"', 'toolCallId: "call-task-1"'):
        assert text in detail, f"{text} missing from the selected chunk's JSON: {detail[:400]}"
    lab.screenshot("inspector-tools-selected")

    # After a reload the transient rows are gone, everything else is back.
    lab.save()
    lab.reload()
    wait_ended(lab, name)
    show_tab(lab, name, "Chunks")
    again = loaded_rows(lab, name, "the chunk rows after reload")
    assert int(again["count"].split()[0]) == total - 3, (again["count"], total)
    root.locator(".cs-inspector-type").fill("data-progress")
    assert read_rows(lab, name)["rows"] == [], "transient rows came back after a reload"
    root.locator(".cs-inspector-type").fill("data-report")
    assert [r["live"] for r in read_rows(lab, name)["rows"]] == [""], "the saved data row is gone"


#: Kernel code: a recording of one run with 10k tool calls, three in flight at a time.
MAKE_10K = """
import json
base = [json.loads(line)["chunk"] for line in (FIXTURES / "tool-streamed-input.jsonl").open()]
first = {c["type"]: c for c in base}
run_id = first["start"]["runId"]
lines = [(0.0, first["start"]), (0.5, first["step-start"])]
for i in range(10_000):
    t = 1.0 + i * 2.0
    call = {"toolCallId": f"call-{i}", "toolName": f"tool-{i % 7}"}
    lines.append((t, {"type": "tool-call", "runId": run_id, "from": "AGENT",
                      "payload": {**call, "args": {"i": i}}}))
    lines.append((t + 5.0, {"type": "tool-result", "runId": run_id, "from": "AGENT",
                            "payload": {**call, "result": {"ok": i}}}))
end = 1.0 + 10_000 * 2.0 + 10.0
lines += [(end, first["step-finish"]), (end + 1, first["finish"])]
lines.sort(key=lambda line: line[0])
with open("ten-k.jsonl", "w") as out:
    for t, chunk in lines:
        out.write(json.dumps({"t": t, "chunk": chunk}) + "\\n")
"""

#: Installs a frame recorder: gaps between animation frames and long tasks, until stopped.
_FRAMES_START_JS = """
() => {
  const rec = { gaps: [], longtasks: [], running: true };
  window.__csFrames = rec;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (rec.running) rec.longtasks.push(e.duration);
  }).observe({ type: 'longtask' });
  let last = performance.now();
  const tick = (now) => {
    if (!rec.running) return;
    rec.gaps.push(now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
"""
_FRAMES_STOP_JS = """
async () => {
  await new Promise((r) => setTimeout(r, 100));
  const rec = window.__csFrames;
  rec.running = false;
  return { gaps: rec.gaps, longtasks: rec.longtasks };
}
"""


_PRESS_TIMELINE_JS = """
(title) => {
  const root = Array.from(document.querySelectorAll('.chunkscope'))
    .find((r) => r.querySelector('.cs-title').textContent === title);
  root.scrollIntoView();
  Array.from(root.querySelectorAll('.cs-tab')).find((b) => b.textContent === 'Timeline').click();
}
"""
_TEN_K_DRAWN_JS = """
(title) => {
  const root = Array.from(document.querySelectorAll('.chunkscope'))
    .find((r) => r.querySelector('.cs-title').textContent === title);
  const lane = root.querySelector('.cs-outline-lane[data-kind=tools]');
  return !!lane && lane.dataset.count === '10000';
}
"""


def frame_stats(raw: dict[str, list[float]]) -> dict[str, float]:
    """Max, p95 and count of frame gaps, and the long tasks, in ms."""
    gaps = sorted(raw["gaps"]) or [0.0]
    return {
        "frames": len(raw["gaps"]),
        "max_gap_ms": round(gaps[-1], 1),
        "p95_gap_ms": round(gaps[int(0.95 * (len(gaps) - 1))], 1),
        "median_gap_ms": round(statistics.median(gaps), 1),
        "longtasks": len(raw["longtasks"]),
        "max_longtask_ms": round(max(raw["longtasks"], default=0.0), 1),
    }


def test_ten_thousand_timeline_elements_draw_and_pan_within_frame_budget(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    name = "ten-k"
    cells = [
        IMPORTS.format(fixtures=str(FIXTURES)),
        MAKE_10K,
        f"cs.show(cs.replay('ten-k.jsonl', speed=0), title='{name}')",
    ]
    lab.open(lab.new_notebook(cells, "ten-k"))
    assert lab.run_all(timeout_s=120), "building or showing the 10k-call run failed"
    wait_ended(lab, name, timeout_s=120)

    # First draw: opening the tab lays out and paints 10k bars. The tab is pressed and the
    # outline read with plain DOM calls: Playwright's locators would search the 10k cards of
    # the transcript on the page's main thread and spoil the measurement.
    lab.page.evaluate(_FRAMES_START_JS)
    lab.page.evaluate(_PRESS_TIMELINE_JS, name)
    lab.page.wait_for_function(_TEN_K_DRAWN_JS, arg=name, polling=100, timeout=60_000)
    opening = frame_stats(lab.page.evaluate(_FRAMES_STOP_JS))

    # Pan and zoom with the mouse: drags across the whole run, then zoomed in 16x.
    box = canvas_box(lab, name)
    mouse = lab.page.mouse
    mid_y = box["y"] + box["height"] * 0.6
    left, right = box["x"] + 200, box["x"] + box["width"] - 20
    lab.page.evaluate(_FRAMES_START_JS)
    for _ in range(2):
        mouse.move(left, mid_y)
        mouse.down()
        mouse.move(right, mid_y, steps=40)
        mouse.move(left, mid_y, steps=40)
        mouse.up()
    mouse.move((left + right) / 2, mid_y)
    lab.page.keyboard.down("Control")
    for _ in range(6):
        mouse.wheel(0, -300)
    lab.page.keyboard.up("Control")
    for _ in range(2):
        mouse.move(right, mid_y)
        mouse.down()
        mouse.move(left, mid_y, steps=40)
        mouse.up()
    for _ in range(20):
        mouse.wheel(120, 0)
    panning = frame_stats(lab.page.evaluate(_FRAMES_STOP_JS))
    timeline_screenshot(lab, name)

    report = {"elements": 10_000, "opening": opening, "panning": panning}
    target = lab.artifacts_dir / "timeline-10k-frames.json"
    target.write_text(json.dumps(report, indent=1))
    print(f"\n10k timeline elements: {json.dumps(report)}")
    # Generous bounds for a shared 2-core machine; the numbers above are the measurement. The
    # worst single gap is reported, not bounded: it comes from the page holding the transcript's
    # 10k tool cards (style and layout work outside the timeline), not from drawing or panning.
    assert panning["frames"] > 100, panning
    assert panning["p95_gap_ms"] < 50, f"panning 10k elements drops frames: {report}"
    assert panning["median_gap_ms"] < 34, f"panning 10k elements drops frames: {report}"
