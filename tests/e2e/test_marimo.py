"""StreamView in marimo (``mo.ui.anywidget``), served by ``marimo run`` on 127.0.0.1.

marimo runs the widget's ``initialize``/``render`` and forwards custom messages both ways,
but it handles the front end's messages (our ``ready``) only between cell runs: the example
therefore never waits for the run in a cell. A second app checks the other case: a cell that
awaits the run holds the view at *waiting*, and the whole run still arrives once it ends.
marimo draws an anywidget inside a shadow root; Playwright's CSS locators pierce it.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from lab import stop_process_group
from lab.paths import ARTIFACTS, REPO
from lab.server import free_port, start_logged, wait_until_up
from playwright.sync_api import Browser, Page, Route, expect
from streamview import assert_grew_while_streaming, assert_progress_showed_live, sample_readings

pytestmark = pytest.mark.e2e

EXAMPLE = REPO / "examples" / "marimo_demo.py"
STARTUP_TIMEOUT_S = 60.0

# The first StreamView on the page, looked for inside shadow roots too.
_READ_JS = """
() => {
  const find = (node) => {
    const hit = node.querySelector('.chunkscope');
    if (hit) return hit;
    for (const el of node.querySelectorAll('*')) {
      if (el.shadowRoot) { const inner = find(el.shadowRoot); if (inner) return inner; }
    }
    return null;
  };
  const root = find(document);
  // Not drawn yet while a fresh view shows its first words' sketch.
  if (!root || !root.querySelector('.cs-status')) return null;
  const badge = root.querySelector('.cs-status > .cs-badge');
  const blocks = root.querySelector('.cs-blocks');
  const activity = root.querySelector('.cs-activity');
  return {
    status: badge ? badge.textContent : '',
    transcript: blocks ? blocks.textContent : '',
    activityVisible: !!activity && !activity.hidden,
    activity: activity ? activity.textContent : '',
  };
}
"""

#: An app whose second cell awaits the run: marimo answers ``ready`` only after that cell.
AWAITING_APP = """
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    import chunkscope as cs

    view = cs.StreamView(cs.demo.stream(speed=2.0), title="awaited")
    widget = mo.ui.anywidget(view)
    widget
    return (view,)


@app.cell
async def _(view):
    state = await view.wait()
    state.status
    return
"""


@dataclass(frozen=True)
class Reading:
    """One picture of the view."""

    status: str
    transcript: str
    activity_visible: bool
    activity: str


@contextmanager
def run_marimo(app: Path, workdir: Path, log_path: Path) -> Iterator[str]:
    """``marimo run app`` on 127.0.0.1 with its config and caches in ``workdir``."""
    port = free_port()
    env = dict(os.environ)
    for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
        env[name] = str(workdir / name.lower())
    argv = [
        *(sys.executable, "-m", "marimo", "run", str(app)),
        *("--host", "127.0.0.1", "--port", str(port), "--headless", "--no-token"),
    ]
    process = start_logged(argv, workdir, env, log_path)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(
            process,
            lambda: httpx.get(f"{url}/health", timeout=2).status_code == 200,
            "marimo",
            lambda: log_path.read_text(errors="replace"),
            STARTUP_TIMEOUT_S,
        )
        yield url
    finally:
        stop_process_group(process)


class MarimoPage:
    """A page on a marimo app; requests to anything but the marimo server are refused."""

    def __init__(self, browser: Browser, url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 1000})
        self.external: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.url = url

    def _route(self, route: Route) -> None:
        if route.request.url.startswith(self.url):
            route.continue_()
        else:
            self.external.append(route.request.url)
            route.abort()

    def read(self) -> Reading | None:
        raw: dict[str, Any] | None = self.page.evaluate(_READ_JS)
        if raw is None:
            return None
        return Reading(raw["status"], raw["transcript"], raw["activityVisible"], raw["activity"])

    def sample_until_ended(self, timeout_s: float = 60.0) -> list[Reading]:
        return sample_readings(self.read, timeout_s)

    def screenshot(self, name: str) -> None:
        target = ARTIFACTS / "screenshots" / f"{name}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(target), full_page=True)


@pytest.fixture
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="chunkscope-marimo-") as directory:
        yield Path(directory)


def test_example_streams_the_demo_live_in_marimo(browser: Browser, workdir: Path) -> None:
    with run_marimo(EXAMPLE, workdir, ARTIFACTS / "marimo.log") as url:
        marimo = MarimoPage(browser, url)
        try:
            marimo.page.goto(url, wait_until="domcontentloaded")
            marimo.page.locator(".chunkscope .cs-part-text").first.wait_for(timeout=30_000)
            marimo.screenshot("marimo-streaming")
            samples = marimo.sample_until_ended()
            marimo.screenshot("marimo-finished")

            live = [s for s in samples if s.status == "running"]
            assert_grew_while_streaming(live)
            assert_progress_showed_live(live)
            end = samples[-1]
            assert end.status == "finished"
            assert "Weather in Seoul" in end.transcript
            assert "weather-progress" not in end.transcript

            page = marimo.page
            page.get_by_role("tab", name="Timeline").click()
            page.locator(".chunkscope .cs-timeline-canvas").wait_for()
            outline = page.locator(".chunkscope .cs-timeline-outline").text_content() or ""
            assert "get-weather" in outline
            page.get_by_role("tab", name="Chunks").click()
            # The rows come from the kernel when the tab first opens.
            counter = page.locator(".chunkscope .cs-inspector-count")
            expect(counter).to_have_text(re.compile(r"[\d,]+ rows"), timeout=15_000)
            count = counter.text_content() or ""
            # How many deltas merge into one row depends on the pace; every chunk is counted.
            assert re.fullmatch(r"\d+ rows", count) and int(count.split()[0]) >= 20, count
            types = page.locator(".chunkscope .cs-inspector-list .cs-row-type").all_text_contents()
            assert types[:2] == ["start", "step-start"], types
            marimo.screenshot("marimo-chunks")

            page.get_by_role("button", name="Show the final transcript").click()
            final = page.get_by_text("finish reason: stop")
            final.wait_for(timeout=15_000)
            assert "Weather in Seoul" in (page.locator("body").text_content() or "")
            assert marimo.external == [], f"the page reached out: {marimo.external}"
            assert not marimo.errors, marimo.errors
        finally:
            marimo.context.close()


def test_a_cell_awaiting_the_run_holds_the_view_then_shows_the_whole_run(
    browser: Browser, workdir: Path
) -> None:
    app = workdir / "awaiting.py"
    app.write_text(AWAITING_APP, encoding="utf-8")
    with run_marimo(app, workdir, ARTIFACTS / "marimo-awaiting.log") as url:
        marimo = MarimoPage(browser, url)
        try:
            marimo.page.goto(url, wait_until="domcontentloaded")
            samples = marimo.sample_until_ended()
            marimo.screenshot("marimo-awaited-finished")
            assert {s.status for s in samples[:-1]} <= {"waiting"}, (
                "marimo now answers the front end while a cell runs: the example can await"
            )
            end = samples[-1]
            assert end.status == "finished"
            assert "Weather in Seoul" in end.transcript
            assert not marimo.errors, marimo.errors
        finally:
            marimo.context.close()
