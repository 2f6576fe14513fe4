"""A board of many runs in a real JupyterLab and headless Chromium, as a user sees it.

100 runs stream at once (about 100 chunks a second each) into one board: nothing is lost, the
rows move at least ten times a second, and a row opened mid-run shows the run so far and then
goes on live. 2,000 recorded runs load into a board that sorts and filters, and the saved
notebook stays under its stated size. Measurements, with what the frames over 50 ms spent
their time on, go to ``test-artifacts/board.json``.

The main-thread budget is that of the other browser tests, not 50 ms. On this two-core
machine, where the kernel folding 10,000 chunks a second and the server share the cores with
the page, the current code measures no long task while the hundred runs stream or while 2,000
rows are sorted and filtered, and while 2,000 recorded runs load none in most runs and one of
50-51 ms in about one run in ten (2026-12-06, 22 loadings). A 50 ms budget would fail the
suite at random. Earlier code measured tasks of 0-62 ms while the hundred runs stream
(laying out and painting the rows and the opened run, and JupyterLab answering the final
display update),
0-70 ms for a sort of 2,000 rows (most of it JupyterLab making the clicked cell active),
60-95 ms for the board's first render (its module, then JupyterLab placing the output), and
50-85 ms while 2,000 recorded runs load (the saved board arrives in parts of 250 KB; in one
13 MB message it was a 150-230 ms task). On a busier day the same code measured 88-221 ms
while the runs load, with the same bundle: wall time, much of it spent waiting for a core.
Playwright's own instrumentation of the page's websocket adds to every message received: a
4 MB binary message is a 67 ms task under it, and no long task in the same Chromium driven
without it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from board_page import BOARD_JS, OBSERVE_JS
from lab import LabPage
from playwright.sync_api import expect
from streamview import cell_stdout, wait_until

pytestmark = pytest.mark.e2e

BOARD = ".chunkscope.cs-board"

#: The longest main-thread task allowed while a board streams, loads 2,000 recorded runs (the
#: saved board's messages included) or is sorted and filtered (ms).
LONGTASK_BUDGET_MS = 200.0

#: The longest main-thread task allowed while 2,000 recorded runs load (ms). Loading sends
#: the most messages of the three and measured up to 221 ms on a busy day; a board saved in
#: one message, as before its kept runs went in parts, took 489 ms, which this still catches.
LOADING_BUDGET_MS = 350.0

#: What a saved notebook with a board of 2,000 runs may weigh: the kept runs' packed
#: snapshots (``keep_total``, 10 MB, base64 in the file: 4/3 of it) and every row.
SAVED_BOARD_LIMIT_BYTES = 16_000_000

PACED = """\
import json, time
import chunkscope as cs

RUNS, DELTAS, RATE = 100, 600, 100.0

def chunk(label, kind, **payload):
    return {"type": kind, "runId": label, "from": "AGENT", "payload": payload}

def paced(label):
    yield chunk(label, "start")
    yield chunk(label, "step-start", request={})
    yield chunk(label, "text-start", id="t")
    begin = time.monotonic()
    for i in range(DELTAS):
        delay = begin + i / RATE - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        yield chunk(label, "text-delta", id="t", text=f"{label}-{i} ")
    yield chunk(label, "text-end", id="t")
    usage = {"inputTokens": 3, "outputTokens": DELTAS, "totalTokens": DELTAS + 3}
    yield chunk(label, "step-finish", stepResult={"reason": "stop"}, output={"usage": usage})
    yield chunk(label, "finish", stepResult={"reason": "stop"}, output={"usage": usage})

expected = {f"run{n:03d}": "".join(f"run{n:03d}-{i} " for i in range(DELTAS)) for n in range(RUNS)}
"""

START_BOARD = (
    "board = cs.runs({label: (lambda label=label: paced(label)) for label in expected}, "
    "title='hundred runs')"
)

CHECK_KERNEL = """\
states = await board.wait()
print(json.dumps({
    "equal": sum(states[label].text == text for label, text in expected.items()),
    "statuses": sorted({state.status for state in states.values()}),
}))
"""


# Every row's cells, read by scrolling the windowed table from top to bottom.
_READ_ROWS_JS = (
    """
async () => {
  const board = """
    + BOARD_JS
    + """;
  const scroller = board.querySelector('.cs-board-scroll');
  const rows = {};
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  scroller.scrollTop = 0;
  for (let guard = 0; guard < 1000; guard++) {
    await frame(); await frame();
    for (const row of board.querySelectorAll('.cs-brow')) {
      const cell = (id) => row.querySelector('.cs-bc-' + id)?.textContent ?? '';
      rows[row.dataset.id] = {
        label: cell('label'), status: cell('status'), tail: cell('tail'), out: cell('out'),
      };
    }
    if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) break;
    scroller.scrollTop += Math.max(40, scroller.clientHeight - 40);
  }
  return rows;
}
"""
)

MEASURED: dict[str, Any] = {}


def _write_measured(lab: LabPage) -> None:
    target = lab.artifacts_dir / "board.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(MEASURED, indent=1))


def test_a_hundred_runs_stream_into_one_board_with_nothing_lost(lab: LabPage) -> None:
    path = lab.new_notebook([PACED, START_BOARD, CHECK_KERNEL], "board-hundred")
    lab.open(path)
    assert lab.run_cell(0), "the setup cell failed"
    lab.page.evaluate(OBSERVE_JS)
    assert lab.run_cell(1, timeout_s=60), "the board's cell failed"
    lab.page.locator(f"{BOARD} .cs-brow").first.wait_for(timeout=30_000)
    started = lab.page.evaluate("() => performance.now()")
    # The board's first render (loading its module) is measured apart from the streaming.
    first_render: list[float] = lab.page.evaluate("() => window.__longtasks.splice(0)")

    # Open a row while its run streams: the run so far at once, then live.
    lab.page.wait_for_timeout(1500)
    first_row = lab.page.locator(f'{BOARD} .cs-brow[data-id="r0"] .cs-bc-label')
    first_row.click()
    opened = lab.page.locator(f"{BOARD} .cs-board-opened .cs-part-text").first
    opened.wait_for(timeout=15_000)
    at_open = len(opened.text_content() or "")
    assert at_open > 50, f"the opened run shows what came before it was opened ({at_open})"
    wait_until(
        lambda: len(opened.text_content() or "") > at_open + 200, "the opened run going on", 20
    )

    assert lab.run_cell(2, timeout_s=120), "waiting for the board failed"
    kernel = json.loads(cell_stdout(lab, 2))
    assert kernel == {"equal": 100, "statuses": ["finished"]}
    lab.page.wait_for_function(
        f"() => /finished 100\\b/.test(({BOARD_JS})?.querySelector('.cs-board-counts')"
        "?.textContent ?? '')",
        timeout=30_000,
        polling=250,
    )
    ended = lab.page.evaluate("() => performance.now()")
    lab.page.wait_for_timeout(500)

    draws: list[float] = lab.page.evaluate("() => window.__rowDraws")
    streaming = [t for t in draws if started <= t <= ended]
    seconds = (ended - started) / 1000
    rate = len(streaming) / seconds
    tasks: list[float] = lab.page.evaluate("() => window.__longtasks")
    rows = lab.page.evaluate(_READ_ROWS_JS)
    opened_text = opened.text_content() or ""
    frames: list[Any] = lab.page.evaluate("() => window.__longframes")
    MEASURED["hundred"] = {
        "frames_over_50ms": sorted(frames, key=lambda f: -f["ms"])[:8],
        "row_draws_per_s": round(rate, 1),
        "streaming_s": round(seconds, 1),
        "first_render_longest_task_ms": max(first_render, default=0),
        "longest_task_ms": max(tasks, default=0),
        "tasks_over_50ms": len([t for t in tasks if t > 50]),
    }
    _write_measured(lab)
    lab.screenshot("board-hundred")

    assert not lab.iopub_warning_seen(), "the server dropped IOPub messages"
    assert len(rows) == 100, f"{len(rows)} rows in the table"
    for row in rows.values():
        assert row["status"] == "finished", row
        assert row["tail"].endswith(f"{row['label']}-599"), row
        assert row["out"] == "600", row
    assert opened_text.strip() == ("".join(f"run000-{i} " for i in range(600))).strip()
    assert rate >= 10, f"rows changed {rate:.1f} times a second while the runs streamed"
    assert max(tasks, default=0) <= LONGTASK_BUDGET_MS, f"long tasks: {sorted(tasks)[-10:]}"


RECORDED = """\
import json
from pathlib import Path
import chunkscope as cs

# Beside the notebook, in the server's folder for this test session, which the session removes.
folder = Path("board-recordings")
folder.mkdir(exist_ok=True)

def line(t, kind, **payload):
    chunk = {"type": kind, "runId": "rec", "from": "AGENT", "payload": payload}
    return json.dumps({"t": t, "chunk": chunk}) + "\\n"

for n in range(2000):
    fail = n % 7 == 3
    lines = [line(0, "start"), line(1, "step-start", request={}), line(2, "text-start", id="t")]
    lines += [line(3 + i, "text-delta", id="t", text=f"w{n}-{i} ") for i in range(980)]
    lines += [line(990, "text-end", id="t"),
              line(991, "tool-call", toolCallId="c", toolName="lookup", args={"n": n})]
    if fail:
        lines.append(line(995, "tool-error", toolCallId="c", toolName="lookup", error="no row"))
    else:
        lines.append(line(995, "tool-result", toolCallId="c", toolName="lookup", result=n))
    usage = {"inputTokens": n % 50, "outputTokens": 980, "totalTokens": 980 + n % 50}
    lines += [line(998, "step-finish", stepResult={"reason": "stop"}, output={"usage": usage}),
              line(999 + n % 300, "finish", stepResult={"reason": "stop"}, output={"usage": usage})]
    (folder / f"run{n:04d}.jsonl").write_text("".join(lines))
"""

LOAD_RECORDED = "board = cs.runs(folder, title='two thousand recordings')"

WAIT_RECORDED = """\
states = await board.wait()
print(json.dumps({"runs": len(states), "statuses": sorted({s.status for s in states.values()}),
                  "kept": len(board.kept())}))
"""


def test_two_thousand_recorded_runs_sort_and_filter_without_a_long_task(lab: LabPage) -> None:
    lab.set_save_widget_state(True)
    path = lab.new_notebook([RECORDED, LOAD_RECORDED, WAIT_RECORDED], "board-recorded")
    lab.open(path)
    assert lab.run_cell(0, timeout_s=120), "writing the recordings failed"
    lab.page.evaluate(OBSERVE_JS)
    assert lab.run_cell(1, timeout_s=60)
    assert lab.run_cell(2, timeout_s=240), "loading the recordings failed"
    kernel = json.loads(cell_stdout(lab, 2))
    assert kernel["runs"] == 2000 and kernel["statuses"] == ["finished"]
    lab.page.wait_for_function(
        f"() => /finished 2,000\\b/.test(({BOARD_JS})?.querySelector('.cs-board-counts')"
        "?.textContent ?? '')",
        timeout=60_000,
        polling=250,
    )
    lab.page.wait_for_timeout(1500)  # the saved board arrives after the last row
    loading: list[float] = lab.page.evaluate("() => window.__longtasks.splice(0)")

    board = lab.page.locator(BOARD)
    header = board.locator(".cs-board-head")
    for column in ("Out", "Run", "Tool errors", "Elapsed", "Run"):
        header.locator(".cs-bsort", has_text=column).first.click()
        lab.page.wait_for_timeout(150)
    filter_box = board.locator(".cs-board-filter")
    filter_box.fill("w1999-979")
    lab.page.wait_for_timeout(300)
    visible = board.locator(".cs-brow")
    expect(visible).to_have_count(1)  # drawn in a frame after the keystroke
    assert "run1999" in (visible.first.text_content() or "")
    filter_box.fill("")
    lab.page.wait_for_timeout(300)
    sorting: list[float] = lab.page.evaluate("() => window.__longtasks.splice(0)")

    lab.save()
    size = lab.notebook_size()
    frames = lab.page.evaluate("() => window.__longframes")
    MEASURED["recorded"] = {
        "frames_over_50ms": sorted(frames, key=lambda f: -f["ms"])[:8],
        "kept_runs": kernel["kept"],
        "loading_longest_task_ms": max(loading, default=0),
        "loading_tasks_ms": loading,
        "sort_filter_longest_task_ms": max(sorting, default=0),
        "sort_filter_tasks_ms": sorting,
        "saved_notebook_bytes": size,
    }
    _write_measured(lab)
    lab.screenshot("board-recorded")
    assert max(sorting, default=0) <= LONGTASK_BUDGET_MS, f"sort/filter tasks: {sorting}"
    assert max(loading, default=0) <= LOADING_BUDGET_MS, f"loading tasks: {loading}"
    assert size <= SAVED_BOARD_LIMIT_BYTES, f"the saved notebook weighs {size:,} bytes"
    assert kernel["kept"] > 0, "the saved board keeps the runs that fit its budget whole"

    # Reopened with no kernel: the last kept run comes from the last of the saved board's
    # parts (each sent in a message of its own), and opens whole.
    lab.server.shutdown_kernels()
    lab.reload()
    board = lab.page.locator(BOARD)
    board.locator(".cs-brow").first.wait_for(timeout=60_000)
    last = kernel["kept"] - 1
    board.locator(".cs-board-filter").fill(f"run{last:04d}")
    board.locator(f'.cs-brow[data-id="r{last}"] .cs-bc-label').click()
    text = board.locator(".cs-board-opened .cs-part-text").first
    text.wait_for(timeout=30_000)
    assert f"w{last}-979" in (text.text_content() or "")


COMPARE = """\
import chunkscope as cs
board = cs.runs({
    "good": lambda: cs.demo.stream(speed=4),
    "broken": lambda: cs.demo.stream(speed=4, variant="error"),
}, title="pair")
"""


def test_pick_two_rows_to_compare_and_reopen_a_saved_board_without_its_kernel(
    lab: LabPage,
) -> None:
    lab.set_save_widget_state(True)
    path = lab.new_notebook([COMPARE, "await board.wait()\nprint('ended')"], "board-compare")
    lab.open(path)
    assert lab.run_cell(0)
    assert lab.run_cell(1, timeout_s=90)
    board = lab.page.locator(BOARD)
    expect(board.locator(".cs-brow")).to_have_count(2)  # the board's first frame drawn
    # The board's own sheet styles it inside its shadow root (a windowed row is placed
    # absolutely), and the theme's light/dark mark on the page's body is copied in.
    styled = lab.page.evaluate(
        "() => { const board = " + BOARD_JS + "; const row = board.querySelector('.cs-brow');"
        " return { row: getComputedStyle(row).position,"
        " mark: board.parentElement.getAttribute('data-jp-theme-light'),"
        " page: document.body.getAttribute('data-jp-theme-light') }; }"
    )
    assert styled["row"] == "absolute"
    assert styled["page"] is not None and styled["mark"] == styled["page"]
    # Keys typed into the filter box are the box's, though it is in a shadow root where the
    # page sees only the root's host: none reaches JupyterLab's command-mode shortcuts (`d d`
    # deletes a cell, `a` and `b` insert one, `m` makes it Markdown).
    filter_box = board.locator(".cs-board-filter")
    filter_box.click()
    filter_box.press_sequentially("ddabm")
    assert filter_box.input_value() == "ddabm"
    expect(board.locator(".cs-brow")).to_have_count(0)  # drawn in the next frame
    cells = lab.page.locator(".jp-Notebook .jp-Cell")
    assert cells.count() == 2 and lab.page.locator(".jp-Notebook .jp-MarkdownCell").count() == 0
    filter_box.fill("")
    board.locator(".cs-bpick").nth(0).check()
    board.locator(".cs-bpick").nth(1).check()
    board.locator(".cs-board-compare").click()
    pane = board.locator(".cs-board-comparison")
    pane.wait_for(timeout=15_000)
    wait_until(lambda: "error" in (pane.text_content() or ""), "the comparison", 15)
    assert "good" in (pane.text_content() or "") and "broken" in (pane.text_content() or "")
    # The board's module leaves the markdown libraries out: a run opened on it asks the
    # kernel for them, and its text becomes markdown.
    board.locator('.cs-brow[data-id="r0"] .cs-bc-label').click()
    opened = board.locator(".cs-board-opened")
    opened.locator("h2", has_text="Weather in Seoul").wait_for(timeout=15_000)
    lab.page.wait_for_timeout(1200)
    lab.save()

    # Reopened with no kernel answering: the rows from the saved board, a run from its
    # packed snapshot.
    lab.server.shutdown_kernels()
    lab.reload()
    board = lab.page.locator(BOARD)
    board.locator(".cs-brow").first.wait_for(timeout=30_000)
    assert board.locator(".cs-brow").count() == 2
    board.locator('.cs-brow[data-id="r0"] .cs-bc-label').click()
    text = board.locator(".cs-board-opened .cs-part-text").first
    text.wait_for(timeout=15_000)
    assert "Enjoy the afternoon" in (board.locator(".cs-board-opened").text_content() or "")
    # As markdown: the saved notebook keeps the libraries the board's model received.
    opened = board.locator(".cs-board-opened")
    opened.locator("h2", has_text="Weather in Seoul").wait_for(timeout=15_000)
    assert opened.locator("strong", has_text="21 °C").count() == 1
