"""One benchmark run: one approach, one scenario, a fresh notebook, page and kernel."""

from __future__ import annotations

import re
import time
import uuid
from contextlib import suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from approaches import RAW_COMM_TARGET, SHOWS_TAIL_ONLY
from lab import IOPUB_WARNINGS, LabPage, LabPageError, LabServer, LabServerError
from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from probe import PROBE_JS, SocketCounter, heap_used_mb, percentile
from stream_text import END_MARKER, FIRST_WORD, STAMP_PATTERN, alnum_count, expected_alnum

# A view must exist before the timed cell sends to it (messages to a missing view are lost).
# chunkscope's view loses none (a late page says ready and gets what it missed), but a view
# displayed first is timed from the same start as the others: drawn, its module loaded.
READY_SELECTOR = {
    "ipywidgets-html": ".widget-html",
    "ipywidgets-output": ".widget-output",
    "anywidget-trait": ".bench-view",
    "anywidget-message": ".bench-view",
    "anywidget-batched-33ms": ".bench-view",
    "anywidget-batched-tail": ".bench-view",
    "raw-comm": ".bench-raw",
    "chunkscope-shown-first": ".chunkscope .cs-transcript",
}

#: The page's handler of the raw-comm approach: a comm target registered with the kernel
#: connection itself (no widget manager), appending each message's text to one text node.
RAW_COMM_TARGET_JS = """
async (target) => {
  const context = window.jupyterapp.shell.currentWidget.sessionContext;
  await context.ready;
  context.session.kernel.registerCommTarget(target, (comm) => {
    const area = document.querySelector('.jp-Notebook .jp-Cell .jp-Cell-outputArea');
    const pre = document.createElement('pre');
    pre.className = 'bench-raw';
    const node = document.createTextNode('');
    pre.appendChild(node);
    area.appendChild(pre);
    comm.onMsg = (msg) => { node.appendData(msg.content.data.text); };
  });
}
"""

#: The run is over without the end marker when nothing arrived or changed for this long.
QUIET_S = 3.0

_WARNING_BLOCK = re.compile(r"IOPub (?:message|data) rate exceeded\..*?\(secs\)", re.DOTALL)


@dataclass(frozen=True)
class Scenario:
    """How many deltas, and how fast."""

    #: Row label ("1k", "10k", "100k", "paced").
    label: str
    #: Number of text deltas (the end marker comes after them).
    n: int
    #: Deltas per second, or None for as fast as the kernel can produce them.
    rate: float | None


@dataclass
class RunResult:
    """What one run measured; None where a value could not be taken (see ``outcome``)."""

    #: Approach name (``approaches.APPROACHES``).
    approach: str
    #: Scenario label.
    scenario: str
    #: "finished" (end marker shown), "lost" (the run ended, the marker never showed),
    #: "timeout" (not shown within the cap), "skipped" (a smaller burst already timed out),
    #: or "error" (see ``error``).
    outcome: str
    #: Seconds from running the cell until the end marker was on screen.
    visible_s: float | None = None
    #: Seconds from running the cell until the first word of the text was on screen.
    first_s: float | None = None
    #: Whether the server said "IOPub message/data rate exceeded".
    iopub_warning: bool = False
    #: Letters and digits shown / letters and digits in the complete text (1.0 = nothing lost).
    delivered: float | None = None
    #: Kernel websocket frames and bytes received by the page during the run.
    ws_frames: int | None = None
    ws_bytes: int | None = None
    #: Delta-to-screen lag percentiles (paced runs), in ms, and how many stamps were seen.
    lag_p50_ms: float | None = None
    lag_p95_ms: float | None = None
    lag_count: int | None = None
    #: Where the lag went, medians in ms: kernel to the page's websocket (the kernel's own
    #: pacing, ZeroMQ, the server), websocket to the DOM (the page's message handling and
    #: drawing), and DOM to painted (waiting for the frame).
    lag_wire_ms: float | None = None
    lag_page_ms: float | None = None
    lag_paint_ms: float | None = None
    #: Longest main-thread task during the run (PerformanceObserver "longtask", ≥ 50 ms).
    longest_task_ms: float | None = None
    #: The run's animation frames that blocked the page (had a task of 50 ms or more): when
    #: into the run, how long, and which scripts ran in them (Long Animation Frames API).
    long_frames: list[dict[str, Any]] = field(default_factory=list)
    #: Live JS heap after the run and a forced garbage collection, in MB.
    heap_mb: float | None = None
    #: Size of the notebook saved after the run, in bytes.
    notebook_bytes: int | None = None
    #: Wall time of the whole run including page load and kernel start, in seconds.
    wall_s: float = 0.0
    #: What went wrong, for "error" and "timeout" outcomes.
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready fields."""
        return asdict(self)


def _cells(approach: str, scenario: Scenario) -> list[str]:
    # The deltas are made in the untimed cell so the timed one only streams them.
    setup = (
        "import approaches, stream_text\n"
        f"bench = approaches.setup({approach!r})\n"
        f"deltas = stream_text.make_deltas({scenario.n})"
    )
    timed = f"approaches.run(bench, deltas, {scenario.rate!r})"
    return [setup, timed]


def _kernel_state(server: LabServer, kernel_id: str) -> str:
    return str(server.api("GET", f"/api/kernels/{kernel_id}").get("execution_state", ""))


def _wait_outcome(
    lab: LabPage, counter: SocketCounter, kernel_id: str, started: float, cap_s: float
) -> str:
    """Wait until the end marker shows, the run ends without it, or the cap passes."""
    while True:
        remaining = cap_s - (time.monotonic() - started)
        if remaining <= 0:
            return "timeout"
        try:
            lab.page.wait_for_function(
                "() => window.__bench.status().found",
                timeout=min(1000.0, remaining * 1000),
                polling="raf",
            )
            return "found"
        except PlaywrightTimeout:
            pass
        socket_quiet = time.monotonic() - counter.last_frame > QUIET_S
        if socket_quiet and _kernel_state(lab.server, kernel_id) == "idle":
            status: dict[str, Any] = lab.page.evaluate("() => window.__bench.status()")
            if status["found"]:
                return "found"
            if status["quietMs"] > QUIET_S * 1000:
                return "lost"


def _wait_kernel_idle(server: LabServer, kernel_id: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and _kernel_state(server, kernel_id) != "idle":
        time.sleep(0.1)


def _fill_from_page(result: RunResult, lab: LabPage, scenario: Scenario) -> None:
    data: dict[str, Any] = lab.page.evaluate("() => window.__bench.finish()")
    if data["visibleMs"] is not None:
        result.visible_s = data["visibleMs"] / 1000
    if data["firstMs"] is not None:
        result.first_s = data["firstMs"] / 1000
    text: str = data["text"]
    result.iopub_warning = result.iopub_warning or any(w in text for w in IOPUB_WARNINGS)
    shown = alnum_count(_WARNING_BLOCK.sub("", text))
    if result.approach not in SHOWS_TAIL_ONLY:
        result.delivered = shown / expected_alnum(scenario.n, scenario.rate is not None)
    result.longest_task_ms = float(data["longestTaskMs"])
    result.long_frames = data["longFrames"]
    if scenario.rate is not None:
        lags: list[float] = data["lags"]
        result.lag_p50_ms = percentile(lags, 0.5)
        result.lag_p95_ms = percentile(lags, 0.95)
        result.lag_count = len(lags)
        parts: list[list[float | None]] = data["parts"]
        for index, name in enumerate(("lag_wire_ms", "lag_page_ms", "lag_paint_ms")):
            values = [p[index] for p in parts if p[index] is not None]
            setattr(result, name, percentile([float(v) for v in values if v is not None], 0.5))


def measure_run(
    server: LabServer,
    browser: Browser,
    approach: str,
    scenario: Scenario,
    cap_s: float,
    artifacts: Path,
) -> RunResult:
    """Run ``approach`` on ``scenario`` in a fresh notebook, page and kernel; never raises
    for a failing approach (the result says what happened)."""
    wall = time.monotonic()
    result = RunResult(approach, scenario.label, "error")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(PROBE_JS)
    page = context.new_page()
    counter = SocketCounter()
    counter.attach(page)
    lab = LabPage(server, page, artifacts)
    path = lab.new_notebook(
        _cells(approach, scenario), f"bench-{approach}-{scenario.label}-{uuid.uuid4().hex[:8]}"
    )
    try:
        lab.open(path)
        kernel_id = lab.kernel_id()
        if approach == "raw-comm":
            page.evaluate(RAW_COMM_TARGET_JS, RAW_COMM_TARGET)
        if not lab.run_cell(0, timeout_s=120) or lab.has_error_output():
            result.error = "setup cell failed: " + lab.outputs_text()[-2000:]
            return result
        if approach in READY_SELECTOR:
            lab.wait_for(READY_SELECTOR[approach], timeout_s=60, state="attached")
        log_mark = server.log_size()
        page.evaluate(
            "([marker, stamps, first]) => window.__bench.arm(marker, stamps, first)",
            [END_MARKER, STAMP_PATTERN if scenario.rate is not None else None, FIRST_WORD],
        )
        frames0, bytes0 = counter.snapshot()
        started = time.monotonic()
        lab.run_cell(1, wait=False)
        outcome = _wait_outcome(lab, counter, kernel_id, started, cap_s)
        result.iopub_warning = any(w in server.log_text(log_mark) for w in IOPUB_WARNINGS)
        if outcome == "timeout":
            result.outcome = "timeout"
            result.error = f"did not finish in {cap_s:.0f} s"
            frames1, bytes1 = counter.snapshot()
            result.ws_frames, result.ws_bytes = frames1 - frames0, bytes1 - bytes0
            lab.interrupt_kernel()
            return result
        result.outcome = "finished" if outcome == "found" else "lost"
        _wait_kernel_idle(server, kernel_id, timeout_s=30)
        _fill_from_page(result, lab, scenario)
        frames1, bytes1 = counter.snapshot()
        result.ws_frames, result.ws_bytes = frames1 - frames0, bytes1 - bytes0
        result.iopub_warning = result.iopub_warning or any(
            w in server.log_text(log_mark) for w in IOPUB_WARNINGS
        )
        result.heap_mb = heap_used_mb(page)
        lab.save()
        result.notebook_bytes = lab.notebook_size(path)
        if result.outcome == "lost":
            result.error = "end marker never shown"
        return result
    except (LabPageError, LabServerError, PlaywrightError) as error:
        result.outcome = "error"
        result.error = str(error)[:2000]
        return result
    finally:
        result.wall_s = time.monotonic() - wall
        # Cleanup must not end the whole benchmark: a crashed page or a vanished file is fine.
        with suppress(PlaywrightError):
            context.close()
        with suppress(LabServerError):
            server.shutdown_kernels()
            server.api("DELETE", f"/api/contents/{path}")
