"""The page alone under a burst: the real front end fed the kernel's real messages, nothing else
on the machine's cores.

    .venv/bin/python benchmarks/page_burst.py                      # 1M deltas, 3 runs
    .venv/bin/python benchmarks/page_burst.py --deltas 100000 --runs 5
    .venv/bin/python benchmarks/page_burst.py --bundle before.js --bundle after.js  # alternating

In the notebook benchmark (``run.py``) the page shares two cores with a kernel folding at full
speed and with the server, so a task's wall time is its own work stretched by whatever else
ran: the same code measured 51 ms one day and 70-150 ms another. Here the messages the
kernel's channel sends for a burst of text deltas are recorded first (the live widget's own
sink, its widget a recorder that keeps each message and when it was sent); headless Chromium
then shows a view of the real ``widget.js`` on a bare page and delivers each message, as JSON
text, at the time it was sent.
What the page spends is then the page's own: its main thread's busy time (the wall time of
its tasks, from a trace), its tasks of 30 and 50 ms and more, when the last delta was on the
page, and when the whole text had become markdown (the work a burst leaves for after it).
The trace's thread time is not used: in this machine's Chromium it is erratic, a busy loop
of 16-160 ms measured 54-100 % of its wall time on an otherwise idle machine, where the
kernel's own count gave a 1 s loop the whole second.

With several ``--bundle`` files the runs alternate between them, so that each bundle meets the
same load; the report gives each its medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT / "tests" / "e2e"), str(ROOT / "src")]

import stream_text  # noqa: E402
from approaches import mastra_text_chunks  # noqa: E402
from bare_view import MOUNT_JS, bundle_files, record_messages  # noqa: E402
from lab import launch_chromium  # noqa: E402
from playwright.sync_api import Browser, sync_playwright  # noqa: E402

#: The end of the last delta, looked for on the page.
END_MARKER = "END-OF-BURST"

_PAGE_JS = """
async ({ messages, marker }) => {
  const { el, deliver } = window.__bareView;
  const longtasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longtasks.push(e.duration);
  }).observe({ type: 'longtask' });
  performance.mark('burst-start');
  const t0 = performance.now();
  const start = messages[0][0];
  await new Promise((resolve) => {
    let k = 0;
    const deliverDue = () => {
      const now = performance.now() - t0;
      while (k < messages.length && messages[k][0] - start <= now) {
        deliver(messages[k][1]);
        k++;
      }
      if (k === messages.length) return resolve();
      setTimeout(deliverDue, Math.max(0, messages[k][0] - start - (performance.now() - t0)));
    };
    deliverDue();
  });
  // The marker is in the last message: wait until a frame has drawn it.
  let shown = null;
  for (let i = 0; i < 600 && shown === null; i++) {
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    // The last plain piece when the tail is plain text (reading the whole of it would add a
    // copy of megabytes to the page's work), else the markdown tail itself.
    const live = el.querySelector('.cs-md-live');
    const plain = live?.querySelector(':scope > .cs-md-plain');
    const tail = plain ? plain.lastElementChild?.lastElementChild : live;
    if (tail && tail.textContent.endsWith(marker)) shown = performance.now() - t0;
  }
  // Then until the whole text is markdown (no plain piece left), so that the work a burst
  // leaves for later is counted too.
  let settled = null;
  for (let i = 0; i < 3000 && settled === null; i++) {
    await new Promise((r) => setTimeout(r, 10));
    if (el.querySelector('.cs-md-piece') === null) settled = performance.now() - t0;
  }
  await new Promise((r) => setTimeout(r, 200));
  return { shownMs: shown, settledMs: settled, longtasks };
}
"""


def burst_messages(n: int) -> list[tuple[float, str]]:
    """The messages a live view of a run of ``n`` text deltas receives, each with the time
    (ms) the channel sent it; the last delta ends with ``END_MARKER``."""
    deltas = stream_text.make_deltas(n, seed=7)
    deltas[-1] = deltas[-1] + " " + END_MARKER
    return record_messages(mastra_text_chunks(deltas, run_id="burst"))


def main_thread_tasks(trace_path: Path) -> list[float]:
    """The page's main-thread tasks from the burst's start on: the wall ms of each."""
    data = json.loads(trace_path.read_text())
    events = data["traceEvents"] if isinstance(data, dict) else data
    mains = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
    }
    start = min((e["ts"] for e in events if e.get("name") == "burst-start"), default=0)
    tasks: dict[Any, list[float]] = {}
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if key in mains and e.get("name") == "RunTask" and e.get("ph") == "X" and e["ts"] > start:
            tasks.setdefault(key, []).append(e["dur"] / 1000.0)
    return max(tasks.values(), key=len, default=[])


def run_once(browser: Browser, bundle: Path, messages: list[Any], work: Path) -> dict[str, Any]:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto("about:blank")
        trace = work / "trace.json"
        browser.start_tracing(
            page=page,
            path=str(trace),
            categories=[
                "devtools.timeline",
                "disabled-by-default-devtools.timeline",
                "blink.user_timing",
            ],
        )
        page.evaluate(MOUNT_JS, bundle_files(bundle))
        result = page.evaluate(_PAGE_JS, {"messages": messages, "marker": END_MARKER})
        browser.stop_tracing()
        tasks = main_thread_tasks(trace)
        result["busyMs"] = sum(tasks)
        result["over30"] = sum(1 for wall in tasks if wall >= 30)
        return dict(result)
    finally:
        page.close()


def _markdown_after(result: dict[str, Any]) -> str:
    # A text that never became markdown (the libraries never came, or the wait ran out) is
    # said so: the run's busy time then leaves out the work of rendering it.
    settled = result["settledMs"]
    return "never (not within the 30 s waited)" if settled is None else f"{settled:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deltas", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bundle", type=Path, action="append")
    args = parser.parse_args()
    bundles: list[Path] = args.bundle or [ROOT / "src" / "chunkscope" / "static" / "widget.js"]

    started = time.monotonic()
    messages = burst_messages(args.deltas)
    size = sum(len(text) for _, text in messages)
    print(
        f"{len(messages)} messages, {size / 1e6:.1f} MB, sent over "
        f"{(messages[-1][0] - messages[0][0]) / 1000:.2f} s "
        f"(recorded in {time.monotonic() - started:.1f} s)"
    )

    results: dict[Path, list[dict[str, Any]]] = {bundle: [] for bundle in bundles}
    with tempfile.TemporaryDirectory() as work, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            for index in range(args.runs):
                for bundle in bundles:
                    result = run_once(browser, bundle, messages, Path(work))
                    results[bundle].append(result)
                    tasks = sorted(result["longtasks"], reverse=True)
                    print(
                        f"run {index + 1} {bundle}: shown {result['shownMs']:.0f} ms, "
                        f"all markdown {_markdown_after(result)}, "
                        f"main thread busy {result['busyMs']:.0f} ms, "
                        f"{result['over30']} tasks ≥ 30 ms, "
                        "longest tasks "
                        f"{[round(t) for t in tasks[:5]]}"
                    )
        finally:
            browser.close()

    print(
        "\n| bundle | last delta shown (ms) | all markdown (ms) | main thread busy (ms) "
        "| longest task (ms) | tasks ≥ 30 ms | tasks ≥ 50 ms |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for bundle, runs in results.items():
        shown = statistics.median(r["shownMs"] or float("nan") for r in runs)
        settled = statistics.median(r["settledMs"] or float("nan") for r in runs)
        busy = statistics.median(r["busyMs"] for r in runs)
        longest = statistics.median(max(r["longtasks"], default=0) for r in runs)
        over30 = statistics.median(r["over30"] for r in runs)
        over = statistics.median(len(r["longtasks"]) for r in runs)
        print(
            f"| {bundle} | {shown:.0f} | {settled:.0f} | {busy:.0f} "
            f"| {longest:.0f} | {over30:g} | {over:g} |"
        )


if __name__ == "__main__":
    main()
