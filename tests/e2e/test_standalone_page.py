"""The standalone run page (``chunkscope export``) opened in headless Chromium from a file URL.

Every request that is not for a ``file:`` URL is aborted and counted: the page must draw the
transcript, the timeline and the chunk inspector from what it holds, with zero attempts.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lab.paths import ARTIFACTS
from playwright.sync_api import BrowserContext, Page, Route
from playwright.sync_api import Error as PlaywrightError

import chunkscope as cs
from chunkscope.present.export import write_html

pytestmark = pytest.mark.e2e

#: Text a model could produce to break out of the embedded JSON if it were not escaped.
BREAKOUT = "</script><script>window.__x=1</script>"
#: What the demo's transient chunk shows live; a page holds only the persisted run.
TRANSIENT_MARKERS = ("downloading readings", "data-progress")


class OfflinePage:
    """A page whose every non-file request is aborted and remembered."""

    def __init__(self, context: BrowserContext) -> None:
        self.blocked: list[str] = []
        self.console_errors: list[str] = []
        context.route("**/*", self._route)
        self.page: Page = context.new_page()
        self.page.set_default_timeout(15_000)
        self.page.on("request", self._on_request)
        self.page.on("console", lambda m: m.type == "error" and self.console_errors.append(m.text))
        self.page.on("pageerror", lambda e: self.console_errors.append(f"pageerror: {e}"))

    def _route(self, route: Route) -> None:
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            route.abort()

    def _on_request(self, request: Any) -> None:
        if not request.url.startswith("file:"):
            self.blocked.append(request.url)

    def open(self, file: Path) -> None:
        self.page.goto(file.resolve().as_uri(), wait_until="load")

    def screenshot(self, name: str) -> None:
        target = ARTIFACTS / "screenshots" / f"{name}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(target), full_page=True)

    def unexpected_errors(self) -> list[str]:
        # The markdown sanitizer probes itself with an <img onerror> in an inert document;
        # the page's policy refuses to compile that handler and says so. Nothing else may.
        return [
            e
            for e in self.console_errors
            if not e.startswith("Executing inline event handler violates")
        ]


@pytest.fixture
def offline(browser: Any) -> Iterator[OfflinePage]:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    try:
        yield OfflinePage(context)
    finally:
        context.close()


@pytest.fixture(scope="module")
def demo_recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo run recorded with its real pacing (about 0.4 s at speed 4)."""
    path = tmp_path_factory.mktemp("standalone") / "weather.jsonl"
    cs.record(cs.demo.stream(speed=4), path)
    return path


def _letters(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "", text)


def _rendered_letters(markdown: str) -> str:
    """The letters of ``markdown`` once rendered (a code fence's language is not shown)."""
    return _letters(re.sub(r"^```\w*", "", markdown, flags=re.MULTILINE))


def test_exported_demo_draws_transcript_timeline_and_chunks_offline(
    offline: OfflinePage, demo_recording: Path, tmp_path: Path
) -> None:
    page_file = tmp_path / "weather.html"
    subprocess.run(
        [sys.executable, "-m", "chunkscope", "export", str(demo_recording), "-o", str(page_file)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    state = cs.accumulate(cs.replay(demo_recording, speed=0))
    offline.open(page_file)
    page = offline.page

    page.wait_for_selector(".chunkscope .cs-part-text")
    # A new page draws the text plain while the markdown parser warms up, then as markdown.
    page.wait_for_function("() => !document.querySelector('.chunkscope .cs-md-plain')")
    assert page.locator(".chunkscope .cs-title").text_content() == "weather"
    assert page.locator(".chunkscope .cs-status > .cs-badge").text_content() == "finished"
    shown = page.locator(".chunkscope .cs-blocks").text_content() or ""
    assert _letters("It is 21 °C and mostly sunny right now") in _letters(shown)
    assert _rendered_letters(state.text) in _letters(shown)
    assert page.locator(".chunkscope .cs-stop").is_hidden()
    offline.screenshot("standalone-transcript")

    page.get_by_role("tab", name="Timeline").click()
    page.wait_for_selector(".chunkscope .cs-timeline-canvas")
    lanes = page.locator(
        ".chunkscope .cs-timeline-outline .cs-outline-lane-label"
    ).all_text_contents()
    assert {"Run", "Text", "Tools"} <= set(lanes)
    outline = page.locator(".chunkscope .cs-timeline-outline").text_content() or ""
    assert "get-weather" in outline
    canvas_width = page.evaluate("() => document.querySelector('.cs-timeline-canvas').width")
    assert canvas_width > 0
    offline.screenshot("standalone-timeline")

    page.get_by_role("tab", name="Chunks").click()
    page.wait_for_selector(".chunkscope .cs-inspector-list .cs-row")
    rows = len(state.snapshot()["rows"])
    assert page.locator(".chunkscope .cs-inspector-count").text_content() == f"{rows} rows"
    types = page.locator(".chunkscope .cs-inspector-list .cs-row-type").all_text_contents()
    assert types[0] == "start" and "tool-call" in types
    offline.screenshot("standalone-chunks")

    body = page.locator("body").text_content() or ""
    html_source = page_file.read_text(encoding="utf-8")
    for marker in TRANSIENT_MARKERS:
        assert marker not in body
        assert marker not in html_source
    assert offline.blocked == []
    assert offline.unexpected_errors() == []


def test_text_that_closes_the_script_element_is_shown_not_run(
    offline: OfflinePage, tmp_path: Path
) -> None:
    chunks = [
        {"type": "start", "runId": "r", "from": "AGENT", "payload": {}},
        {"type": "text-start", "runId": "r", "from": "AGENT", "payload": {"id": "t"}},
        # Raw HTML in markdown is sanitized away; as inline code it is shown as typed.
        {
            "type": "text-delta",
            "runId": "r",
            "from": "AGENT",
            "payload": {"id": "t", "text": f"`{BREAKOUT}`"},
        },
        {"type": "text-end", "runId": "r", "from": "AGENT", "payload": {"id": "t"}},
        {
            "type": "finish",
            "runId": "r",
            "from": "AGENT",
            "payload": {"stepResult": {"reason": "stop"}},
        },
    ]
    page_file = write_html(cs.accumulate(chunks, title=BREAKOUT), tmp_path / "breakout.html")
    offline.open(page_file)
    page = offline.page
    page.wait_for_selector(".chunkscope .cs-part-text")

    assert page.evaluate("() => window.__x") is None
    assert page.evaluate("() => document.scripts.length") == 2
    assert BREAKOUT in (page.locator(".chunkscope .cs-blocks").text_content() or "")
    assert page.title() == BREAKOUT
    assert page.locator(".chunkscope .cs-title").text_content() == BREAKOUT
    assert offline.blocked == []
    assert offline.unexpected_errors() == []


def test_reader_without_javascript_sees_the_static_transcript(
    browser: Any, demo_recording: Path, tmp_path: Path
) -> None:
    page_file = write_html(demo_recording, tmp_path / "plain.html")
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(page_file.resolve().as_uri())
        static = page.locator(".cs-static")
        static.wait_for(state="visible", timeout=10_000)
        assert "Weather in Seoul" in (static.text_content() or "")
        assert page.locator(".chunkscope").count() == 0
    except PlaywrightError:
        page.screenshot(path=str(ARTIFACTS / "screenshots" / "standalone-noscript-failed.png"))
        raise
    finally:
        context.close()
