"""StreamView in a real JupyterLab driven by headless Chromium, as a user sees it.

The demo agent drives every run: it is offline, scripted and paced like a real agent, so
the transcript has time to grow, tools to stream and the user to reload or press Stop.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from lab import LabPage
from streamview import (
    DARK_THEME,
    JUMP_BUTTON,
    LIGHT_THEME,
    STOP_BUTTON,
    WIDGET,
    Scroll,
    ViewReading,
    assert_grew_while_streaming,
    cell_json,
    change_theme,
    colours,
    luminance,
    read_view,
    sample_until_ended,
    scroll,
    scroll_if_drawn,
    scroll_transcript_to,
    wait_status,
    wait_transcript_settled,
    wait_until,
    wait_view,
    widget_screenshot,
)

import chunkscope as cs

pytestmark = pytest.mark.e2e

#: Cell 1 of every notebook below: start the demo (the cell returns at once).
SHOW_DEMO = (
    "import json\nimport chunkscope as cs\n"
    "view = cs.show(cs.demo.stream(speed={speed}), title='demo')"
)
#: Cell 1 of a run that waits after its tool call until ``gate.set()`` runs in the kernel.
SHOW_GATED_DEMO = """\
import asyncio
import json
import chunkscope as cs
gate = asyncio.Event()
async def gated_demo():
    waited = False
    async for chunk in cs.demo.stream(speed=0.5):
        yield chunk
        if chunk["type"] == "tool-call" and not waited:
            waited = True
            await gate.wait()
view = cs.show(gated_demo(), title='demo')
"""
#: Cell 2 of a gated run: let it go on.
RELEASE_GATE = "gate.set()"
#: Cell 2: wait for the end in the kernel and say what the kernel holds.
AWAIT_END = """\
state = await view.wait()
print(json.dumps({"status": state.status, "text": state.text, "batches": view.batches_sent}))
"""
#: Cell 2 for a run stopped from the page: read the state without waiting.
READ_STATE = 'print(json.dumps({"status": view.state.status, "done": view.done}))'

#: The transient chunk's label and type: shown live, never saved.
TRANSIENT_MARKERS = ("downloading readings", "data-progress", "weather-progress")


def demo_chunks() -> list[dict[str, Any]]:
    """The demo run's chunks, as the kernel will read them."""
    return list(cs.demo.stream(speed=0))


def demo_text() -> str:
    """Every text delta of the demo run, in order (both steps)."""
    return "".join(
        chunk["payload"]["text"] for chunk in demo_chunks() if chunk["type"] == "text-delta"
    )


def letters(text: str) -> str:
    """Only the letters and digits: what markdown rendering never adds nor removes."""
    return re.sub(r"[^A-Za-z0-9]", "", text)


def rendered_letters(markdown: str) -> str:
    """The letters and digits of ``markdown`` once rendered (a fence's language is not shown)."""
    return letters(re.sub(r"^```\w*", "", markdown, flags=re.MULTILINE))


def chunk_count(reading: ViewReading) -> int:
    """The chunk count the status bar shows."""
    match = re.search(r"(\d+) chunks", reading.status_bar)
    assert match, f"no chunk count in the status bar: {reading.status_bar!r}"
    return int(match.group(1))


def start_demo(lab: LabPage, name: str, speed: float, second_cell: str = AWAIT_END) -> None:
    """Write a notebook that shows the demo at ``speed``, open it and run its first cell."""
    path = lab.new_notebook([SHOW_DEMO.format(speed=speed), second_cell], name)
    lab.open(path)
    assert lab.run_cell(0), "the cell that shows the demo failed"


def start_gated_demo(lab: LabPage, name: str, *more_cells: str) -> None:
    """Like ``start_demo``, for a run that waits after its tool call: cell 1 lets it go on."""
    path = lab.new_notebook([SHOW_GATED_DEMO, RELEASE_GATE, *more_cells], name)
    lab.open(path)
    assert lab.run_cell(0), "the cell that shows the demo failed"


def test_transcript_grows_with_reasoning_tool_card_status_and_live_activity(
    lab: LabPage,
) -> None:
    lab.set_save_widget_state(False)
    start_demo(lab, "grow", speed=1.0)

    samples = sample_until_ended(lab)
    lab.screenshot("streamview-finished")
    widget_screenshot(lab, "streamview-finished-widget")

    live = [s for s in samples if s.status == "running"]
    assert_grew_while_streaming(live)
    assert any(r.summary == "Thinking…" and r.open for s in live for r in s.reasoning), (
        "the reasoning was never shown open while it streamed"
    )
    tool_badges = {t.badge for s in live for t in s.tools if t.name == "get-weather"}
    assert tool_badges - {"done"}, f"the tool card was only ever seen done: {tool_badges}"
    live_activity = [s for s in live if s.activity_visible]
    assert live_activity, "the transient progress never appeared in the activity strip"
    assert "live only, not saved" in live_activity[-1].activity
    assert "data-progress #weather-progress" in live_activity[-1].activity

    end = samples[-1]
    assert end.status == "finished"
    assert [(r.open, r.summary.startswith("Thought for ")) for r in end.reasoning] == [
        (False, True)
    ], end.reasoning
    assert [(t.name, t.badge) for t in end.tools] == [("get-weather", "done")]
    expected_chunks = len(demo_chunks())
    for figure in (f"{expected_chunks} chunks", "in 161", "out 128", "total 289", "finish: stop"):
        assert figure in end.status_bar, f"{figure!r} missing from the status bar: {end.status_bar}"
    assert not end.stop_enabled, "Stop can still be pressed after the run ended"
    for marker in ("data-progress", "weather-progress"):
        assert marker not in end.transcript, f"transient {marker!r} drawn in the transcript"
    assert letters(end.text) == rendered_letters(demo_text())

    assert lab.run_cell(1), "awaiting the run failed"
    kernel = cell_json(lab, 1)
    assert kernel["status"] == "finished"
    assert "Weather in Seoul" in kernel["text"]
    assert not lab.has_error_output()
    assert not lab.console_errors, lab.console_errors


def test_transcript_sticks_to_the_bottom_unless_the_user_scrolls_up(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    start_demo(lab, "scroll", speed=0.3)

    def overflowing() -> Scroll | None:
        now = scroll_if_drawn(lab)
        return now if now is not None and now.height > now.client + 40 else None

    following = wait_until(overflowing, "the transcript outgrowing its box")
    now = read_view(lab)
    assert now is not None and now.status == "running", now
    assert following.from_bottom <= 24, f"not following the stream: {following}"

    scroll_transcript_to(lab, 0)

    def grown() -> Scroll | None:
        now = scroll_if_drawn(lab)
        return now if now is not None and now.height > following.height + 40 else None

    held = wait_until(grown, "the transcript growing while scrolled up")
    lab.screenshot("streamview-scrolled-up")
    assert held.top <= 1, f"the view moved away from where the user scrolled: {held}"
    assert held.jump_shown, "no way back to the latest content"

    lab.page.locator(JUMP_BUTTON).first.click()
    wait_status(lab, "finished")
    back = wait_transcript_settled(lab)  # the end's refresh draws the output again
    assert back.from_bottom <= 24 and not back.jump_shown, back
    assert not lab.console_errors, lab.console_errors


#: A burst of 300k text deltas (2.4 MB of paragraphs, headings and lists), folded as fast as
#: the kernel can: the page shows it as plain text first, and the text becomes markdown
#: above the reader for seconds after the last delta.
SHOW_BURST = """\
import chunkscope as cs

def burst():
    yield {"type": "start", "runId": "burst", "from": "AGENT", "payload": {}}
    yield {"type": "text-start", "runId": "burst", "from": "AGENT", "payload": {"id": "t"}}
    for i in range(300_000):
        text = f"word{i % 1000:03d} "
        if i % 400 == 0:
            text = f"\\n\\n## Part {i // 400}\\n\\n"
        elif i % 60 == 59:
            text += "\\n\\n- a point\\n- another\\n\\n"
        yield {"type": "text-delta", "runId": "burst", "from": "AGENT",
               "payload": {"id": "t", "text": text}}
    yield {"type": "text-end", "runId": "burst", "from": "AGENT", "payload": {"id": "t"}}
    yield {"type": "finish", "runId": "burst", "from": "AGENT",
           "payload": {"stepResult": {"reason": "stop"}, "output": {"usage": {}}}}

view = cs.show(burst(), title="burst")
"""

#: Watches the transcript from inside the page, four times a second, until told to stop: how
#: far from the end it was and whether the jump control showed.
_WATCH_SCROLL_JS = """
() => {
  const samples = [];
  window.__scrollSamples = samples;
  window.__scrollWatch = setInterval(() => {
    const s = document.querySelector('.chunkscope .cs-transcript');
    const jump = document.querySelector('.chunkscope .cs-jump');
    if (s) samples.push({ fromBottom: s.scrollHeight - s.scrollTop - s.clientHeight,
                          jump: !!jump && !jump.hidden, plain: !!s.querySelector('.cs-md-plain') });
  }, 250);
}
"""

#: What the transcript shows of a long markdown text: the rendered elements in its box (held
#: pages lay nothing out), how much of the box they fill, and the last heading before them.
_SHOWN_TEXT_JS = """
() => {
  const s = document.querySelector('.chunkscope .cs-transcript');
  const box = s.getBoundingClientRect();
  const shown = [...s.querySelectorAll('.cs-md-page:not([hidden]) .cs-md-block > *')]
    .map((e) => [e, e.getBoundingClientRect()])
    .filter(([, r]) => r.height > 0 && r.bottom > box.top && r.top < box.bottom);
  if (shown.length === 0) return null;
  const first = shown[0][0];
  let part = null;
  for (const h of s.querySelectorAll('.cs-md h2')) {
    if (h === first || h.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING) {
      part = Number(h.textContent.replace('Part ', ''));
    }
  }
  const filled = shown.reduce((sum, [, r]) =>
    sum + Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top), 0);
  return { part, filled: filled / box.height, text: first.textContent.slice(0, 60) };
}
"""


def test_a_reader_following_a_long_burst_stays_at_its_end(lab: LabPage) -> None:
    # Following the end of a long burst, the reader must still be there when the text has
    # become markdown: the browser moves the view by itself as the text above changes size,
    # and that move once read as the reader scrolling up, leaving them far from the end.
    lab.set_save_widget_state(False)
    path = lab.new_notebook([SHOW_BURST], "burst-follow")
    lab.open(path)
    lab.page.evaluate(_WATCH_SCROLL_JS)
    assert lab.run_cell(0, timeout_s=120), "the cell that shows the burst failed"
    wait_status(lab, "finished", timeout_s=120)
    settled = wait_transcript_settled(lab, timeout_s=120)
    lab.page.evaluate("() => clearInterval(window.__scrollWatch)")
    samples: list[dict[str, Any]] = lab.page.evaluate("() => window.__scrollSamples")
    assert any(sample["plain"] for sample in samples), "the burst never outran markdown"
    jumps = [sample for sample in samples if sample["jump"]]
    assert not jumps, f"the view stopped following the end: {jumps[:3]} of {len(samples)}"
    assert settled.from_bottom <= 24 and not settled.jump_shown, settled

    # Scrolled to the middle, the reader sees the middle of the text: the pages there, kept
    # out of layout while the burst poured in, are drawn once they are on screen.
    scroll_transcript_to(lab, (settled.height - settled.client) / 2)

    def drawn() -> dict[str, Any] | None:
        shown: dict[str, Any] | None = lab.page.evaluate(_SHOWN_TEXT_JS)
        return shown if shown is not None and shown["filled"] > 0.5 else None

    shown = wait_until(drawn, "the middle of the text drawn after scrolling there", 30)
    assert shown["part"] is not None and 75 <= shown["part"] <= 675, shown
    assert "word" in shown["text"] or "point" in shown["text"] or "Part" in shown["text"], shown
    assert not lab.console_errors, lab.console_errors


def test_saved_notebook_keeps_the_run_and_no_transient_data(lab: LabPage) -> None:
    lab.set_save_widget_state(True)
    start_demo(lab, "saved", speed=4.0)
    assert lab.run_cell(1), "awaiting the run failed"
    end = wait_status(lab, "finished")
    # The transient chunk reached the page, so the save below had it at hand.
    assert end.activity_visible and "weather-progress" in end.activity
    lab.save()
    lab.screenshot("streamview-saved")

    path = lab.path or ""
    text = (lab.server.root_dir / path).read_text(encoding="utf-8")
    for marker in TRANSIENT_MARKERS:
        assert marker not in text, f"transient {marker!r} found in the saved .ipynb"

    notebook = json.loads(text)
    states = notebook["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    snapshots = [
        model["state"]["snapshot"]
        for model in states.values()
        if isinstance(model.get("state", {}).get("snapshot"), dict)
    ]
    assert len(snapshots) == 1, f"expected one StreamView in the widget state: {list(states)}"
    snapshot = snapshots[0]
    assert snapshot["run"]["status"] == "finished"
    assert snapshot["run"]["ended"] is True
    parts = snapshot["parts"]
    tools = [p for p in parts if p["kind"] == "tool"]
    assert [(t["toolName"], t["state"]) for t in tools] == [("get-weather", "done")]
    texts = "".join(p["text"] for p in parts if p["kind"] == "text")
    assert "Weather in Seoul" in texts and "Enjoy the afternoon!" in texts
    assert [p["dataType"] for p in parts if p["kind"] == "data"] == ["data-summary"]

    outputs = notebook["cells"][0]["outputs"]
    bundle = next(o["data"] for o in outputs if "data" in o)
    # the view's own output: its repr, then the run as a reader without the widget sees it
    plain = "".join(bundle["text/plain"]).splitlines()
    assert plain[0] == "StreamView(title='demo')"
    assert plain[1].startswith("chunkscope live output: ")
    assert "get-weather" in "\n".join(plain)
    view_model = bundle["application/vnd.jupyter.widget-view+json"]["model_id"]
    assert view_model in states

    # Reopened after its kernel is gone, the notebook draws the run from the saved state.
    lab.server.shutdown_kernels()
    lab.open(path)
    wait_status(lab, "finished")
    # Its first draw shows the text as plain text until the markdown parser has warmed up.
    wait_transcript_settled(lab)
    reopened = read_view(lab)
    assert reopened is not None
    lab.screenshot("streamview-reopened")
    assert letters(reopened.text) == rendered_letters(demo_text())
    assert [(t.name, t.badge) for t in reopened.tools] == [("get-weather", "done")]
    assert "total 289" in reopened.status_bar
    assert not reopened.activity_visible, "transient items came back from the saved file"
    assert not reopened.stop_enabled, "Stop can be pressed on a run that ended"
    assert not lab.console_errors, lab.console_errors


def test_reload_mid_stream_brings_the_history_back_and_keeps_growing(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    # The run waits in the kernel after its tool call until the test lets it go on, so it is
    # still running once the page is back however long a loaded machine takes to reload.
    start_gated_demo(lab, "reload")
    before = wait_view(
        lab,
        lambda v: any(t.name == "get-weather" for t in v.tools) and "Let me check" in v.text,
        "the tool card after the first text",
    )
    assert before.status == "running"
    # A reloaded page shows the outputs of the file on disk: save them first, as a user would.
    lab.save()
    lab.screenshot("streamview-reload-before")

    lab.reload()
    # A run still streaming shows its text plain until the markdown parser has warmed up,
    # then as markdown, as it was before the reload.
    back = wait_view(
        lab,
        lambda v: bool(v.transcript) and v.text.startswith(before.text),
        "the transcript after reload, as it was before",
        30,
    )
    lab.screenshot("streamview-reload-after")
    assert back.status == "running", f"the run ended before the page was back: {back.status}"
    assert "Let me check the weather station for you." in back.text
    assert any(t.name == "get-weather" for t in back.tools)
    assert chunk_count(back) >= chunk_count(before), (before.status_bar, back.status_bar)

    assert lab.run_cell(1), "the cell that lets the run go on failed"
    samples = sample_until_ended(lab, timeout_s=90)
    lengths = [len(s.transcript) for s in samples if s.status == "running"]
    assert lengths and lengths[-1] > len(back.transcript), "nothing arrived after the reload"
    end = samples[-1]
    lab.screenshot("streamview-reload-finished")
    assert end.status == "finished"
    assert letters(end.text) == rendered_letters(demo_text()), "text incomplete after reload"
    assert [(t.name, t.badge) for t in end.tools] == [("get-weather", "done")]
    assert not lab.console_errors, lab.console_errors


def test_a_run_shown_and_awaited_in_one_cell_is_live_while_the_cell_runs(lab: LabPage) -> None:
    # The kernel reads no message from the page while a cell runs, so the view's "ready"
    # waits until the cell ends: the run must reach the page without it.
    cell = (
        "import chunkscope as cs\n"
        "view = cs.show(cs.demo.stream(speed=0.1), title='demo')\n"
        "state = await view.wait()\n"
        "print('ended', state.status)"
    )
    lab.open(lab.new_notebook([cell], "one-cell"))
    lab.run_cell(0, wait=False)
    live = wait_view(lab, lambda v: "Let me check" in v.text, "the first text while the cell runs")
    assert not lab.run_finished(), "the cell ended before the view showed any text"
    assert live.status == "running"
    assert lab.wait_run(timeout_s=90), "the cell that awaits the run failed"
    end = wait_status(lab, "finished")
    assert letters(end.text) == rendered_letters(demo_text())
    assert not lab.console_errors, lab.console_errors


#: Marks the view's element, so that a test can tell the same element from a new one.
_MARK_VIEW_JS = "() => { document.querySelector('.chunkscope').dataset.testMark = 'first'; }"
#: How many views the page holds, and whether the one there is the marked one.
_VIEWS_JS = """
() => {
  const roots = document.querySelectorAll('.chunkscope');
  return { count: roots.length, marked: roots[0]?.dataset.testMark === 'first' };
}
"""


def test_a_display_refresh_keeps_the_view_as_the_reader_left_it(lab: LabPage) -> None:
    # `await view.wait()` refreshes the output's readable text, and JupyterLab then draws the
    # output again: the reader's view must come back as it was, not as a new view.
    lab.set_save_widget_state(False)
    start_demo(lab, "refresh", speed=0, second_cell="await view.wait()")
    wait_status(lab, "finished")
    lab.page.evaluate(_MARK_VIEW_JS)
    box = wait_transcript_settled(lab)
    assert box.height > box.client + 40, f"the demo run does not overflow its box: {box}"
    middle = round((box.height - box.client) / 2)
    scroll_transcript_to(lab, middle)

    assert lab.run_cell(1), "awaiting the view failed"
    lab.page.wait_for_timeout(1500)  # the output drawn again, and a few frames after it
    views = lab.page.evaluate(_VIEWS_JS)
    assert views == {"count": 1, "marked": True}, f"the output was drawn as a new view: {views}"
    kept = scroll(lab)
    assert abs(kept.top - middle) <= 2, f"the reader lost their place: {middle} in {box} → {kept}"

    lab.page.locator(f"{WIDGET} .cs-tab", has_text="Timeline").first.click()
    assert lab.run_cell(1), "awaiting the view again failed"
    lab.page.wait_for_timeout(1500)
    assert lab.page.evaluate(_VIEWS_JS) == {"count": 1, "marked": True}
    selected = lab.page.locator(f"{WIDGET} .cs-tab[aria-selected='true']").first
    assert selected.text_content() == "Timeline", "the open tab went back to the transcript"
    assert not lab.console_errors, lab.console_errors


def test_a_second_view_opened_mid_stream_catches_up_and_stays_in_sync(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    start_gated_demo(lab, "two-views", "view")
    wait_view(lab, lambda v: any(t.name == "get-weather" for t in v.tools), "the tool card")
    assert lab.run_cell(2), "showing the view again failed"
    second = wait_view(lab, lambda v: bool(v.transcript), "the second view's transcript", index=1)
    assert second.status == "running", "the run ended before the second view came"
    assert "Let me check the weather station for you." in second.text
    assert lab.run_cell(1), "the cell that lets the run go on failed"

    first_end, second_end = (wait_status(lab, "finished", index=i) for i in (0, 1))
    lab.screenshot("streamview-two-views")
    assert letters(second_end.text) == letters(first_end.text) == rendered_letters(demo_text())
    assert second_end.tools == first_end.tools
    assert chunk_count(second_end) == chunk_count(first_end) == len(demo_chunks())
    assert not lab.console_errors, lab.console_errors


def test_stop_button_aborts_the_run(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    # Stop while the source is waiting (as on a slow model) ends the run at once.
    start_gated_demo(lab, "stop", READ_STATE)
    wait_view(
        lab,
        lambda v: v.stop_enabled and any(t.name == "get-weather" for t in v.tools),
        "a running tool call with Stop enabled",
    )
    lab.page.locator(STOP_BUTTON).first.click()

    end = wait_status(lab, "aborted")
    lab.screenshot("streamview-stopped")
    assert any(n.startswith("Aborted") for n in end.notices), f"no abort row: {end.notices}"
    assert not end.stop_enabled
    assert "Enjoy the afternoon!" not in end.text, "the run went on to the end after Stop"

    assert lab.run_cell(2), "reading the state failed"
    assert cell_json(lab, 2) == {"status": "aborted", "done": True}
    assert not lab.console_errors, lab.console_errors


#: A source that fails after a dozen chunks, as a dropped connection would.
BROKEN_SOURCE = """\
import itertools
import chunkscope as cs

def broken_source():
    yield from itertools.islice(cs.demo.stream(speed=0), 12)
    raise ConnectionError("the agent server hung up")

broken = cs.show(broken_source(), title='broken')
"""


def test_source_error_and_tripwire_show_as_rows(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    tripwire = "tripped = cs.show(cs.demo.stream(speed=0, variant='tripwire'), title='tripwire')"
    path = lab.new_notebook([BROKEN_SOURCE, tripwire, "await broken.wait()"], "failures")
    lab.open(path)
    assert lab.run_cell(0) and lab.run_cell(1), "showing the runs failed"

    broken = wait_status(lab, "error", index=0)
    tripped = wait_status(lab, "tripwire", index=1)
    lab.screenshot("streamview-error-and-tripwire")
    assert "the agent server hung up" in broken.status_bar
    assert any("ConnectionError" in n and "the agent server hung up" in n for n in broken.notices)
    assert any(
        n.startswith("Tripwire") and "Output blocked: the answer contained a credential" in n
        for n in tripped.notices
    ), tripped.notices
    assert not broken.stop_enabled and not tripped.stop_enabled

    # Awaiting the broken run raises what the source raised: the failure is not swallowed.
    assert not lab.run_cell(2), "awaiting a failed run did not raise"
    errors = [o for o in lab.outputs()[2] or [] if o.get("output_type") == "error"]
    assert [(e["ename"], e["evalue"]) for e in errors] == [
        ("ConnectionError", "the agent server hung up")
    ]
    assert not lab.console_errors, lab.console_errors


def test_a_source_error_is_reported_once_not_twice(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    lab.open(lab.new_notebook([BROKEN_SOURCE], "error-once"))
    assert lab.run_cell(0), "showing the run failed"
    broken = wait_status(lab, "error")
    rows = [n for n in broken.notices if "the agent server hung up" in n]
    assert len(rows) == 1, f"one exception from the source drawn as {len(rows)} error rows: {rows}"


def test_widget_follows_the_jupyterlab_theme(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    start_demo(lab, "theme", speed=0)
    wait_status(lab, "finished")
    change_theme(lab, LIGHT_THEME)
    light = colours(lab)
    lab.screenshot("streamview-theme-light")
    widget_screenshot(lab, "streamview-theme-light-widget")
    try:
        change_theme(lab, DARK_THEME)
        dark = colours(lab)
        lab.screenshot("streamview-theme-dark")
        widget_screenshot(lab, "streamview-theme-dark-widget")
    finally:
        # The theme is a user setting shared by the session's server: put it back.
        change_theme(lab, LIGHT_THEME)
    assert light.background != dark.background and light.color != dark.color, (light, dark)
    assert luminance(light.background) > luminance(dark.background), (light, dark)
    assert luminance(dark.color) > luminance(dark.background), (light, dark)
    assert not lab.console_errors, lab.console_errors
