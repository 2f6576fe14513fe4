"""The static HTML of a run (``RunState._repr_html_``, what nbconvert and GitHub show) holds
every XSS payload of the corpus as inert text: checked by parsing it, then by loading it in
Chromium with the canary armed."""

from __future__ import annotations

import html
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from xss_corpus import CANARY, PAYLOADS, xss_stream

import chunkscope as cs

#: Tags the static transcript is made of; anything else came from a payload.
OUR_TAGS = {"style", "div", "b", "pre", "details", "summary", "a", "img", "span", "br"}
#: Attributes that hold a URL a browser would load or navigate to.
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "data", "background"}
SAFE_URL = re.compile(r"^(https?://|mailto:|data:image/(png|jpeg|gif|webp);base64,)", re.I)

CHROMIUM = Path(os.environ.get("CHUNKSCOPE_CHROMIUM", "/usr/bin/chromium"))


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text, of an HTML document."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture(scope="module")
def static_html() -> str:
    state = cs.accumulate(xss_stream(), title=PAYLOADS[0].text)
    return state.static_html()


@pytest.fixture(scope="module")
def parsed(static_html: str) -> Elements:
    elements = Elements()
    elements.feed(static_html)
    elements.close()
    return elements


def test_the_corpus_is_large_and_covers_every_family() -> None:
    assert len(PAYLOADS) >= 100
    assert {p.category for p in PAYLOADS} >= {
        "script", "handler", "javascript-url", "data-url", "svg", "mathml", "markdown",
        "entities", "css", "template",
    }  # fmt: skip
    # Each one would set the canary or open a dialog (CSS payloads attack the layout, which
    # the browser test checks by using the page afterwards).
    for p in PAYLOADS:
        decoded = html.unescape(p.text)
        assert (
            f"{CANARY}={p.number}" in decoded
            or "alert(" in decoded
            or "base64," in decoded
            or p.category == "css"
        ), p


def test_only_our_own_tags_and_one_style_element(parsed: Elements) -> None:
    tags = [tag for tag, _ in parsed.tags]
    assert set(tags) <= OUR_TAGS, set(tags) - OUR_TAGS
    assert tags.count("style") == 1 and tags[0] == "style"
    assert "script" not in tags


def test_no_event_handler_attribute_and_no_unsafe_url(parsed: Elements) -> None:
    for tag, attrs in parsed.tags:
        for name, value in attrs:
            assert not name.startswith("on"), (tag, name, value)
            assert name != "style" or tag == "img", (tag, name, value)
            if name in URL_ATTRIBUTES:
                assert value is not None and SAFE_URL.match(value), (tag, name, value)


def test_every_payload_is_there_as_text(parsed: Elements) -> None:
    shown = "".join(parsed.text).replace("\x00", "")
    missing = [p.number for p in PAYLOADS if p.text.replace("\x00", "") not in shown]
    assert not missing, f"payloads dropped from the static HTML: {missing}"


def test_the_style_element_is_ours_alone(static_html: str) -> None:
    style = static_html[: static_html.index("</style>")]
    assert style.startswith("<style>.cs-static{")
    assert all(html.escape(p.text) not in style for p in PAYLOADS)


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}")
def test_loaded_in_chromium_no_payload_runs(static_html: str) -> None:
    from playwright.sync_api import Dialog, sync_playwright

    dialogs: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page()

            def on_dialog(dialog: Dialog) -> None:
                dialogs.append(dialog.message)
                dialog.dismiss()

            page.on("dialog", on_dialog)
            page.set_content(f"<!doctype html><html><body>{static_html}</body></html>")
            # Let onload/onerror/ontoggle/animation handlers and refreshes have their chance.
            page.wait_for_timeout(1500)
            page.mouse.move(300, 300)
            for link in page.locator("a").all()[:40]:
                link.click(modifiers=["Alt"], no_wait_after=True, timeout=2000)
            page.wait_for_timeout(300)
            canary = page.evaluate(f"() => window.{CANARY} ?? null")
            live = page.evaluate(
                """() => {
                  const bad = [];
                  for (const el of document.querySelectorAll('*')) {
                    if (el.tagName === 'SCRIPT') bad.push('script');
                    for (const a of el.attributes) if (a.name.startsWith('on')) bad.push(a.name);
                  }
                  return bad;
                }"""
            )
            details = page.locator("details").count()
        finally:
            browser.close()
    assert canary is None, f"payload {canary} ran"
    assert dialogs == []
    assert live == []
    assert details >= 1
