"""Headless Debian Chromium for Playwright.

Playwright cannot download its own browser here, so the system Chromium is used through
``executable_path``. Each ``launch`` gets a fresh temporary profile from Playwright itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, Playwright

#: The browser binary; override with ``CHUNKSCOPE_CHROMIUM`` on machines that keep it elsewhere.
CHROMIUM = Path(os.environ.get("CHUNKSCOPE_CHROMIUM", "/usr/bin/chromium"))

#: Flags that keep a headless Chromium quiet, offline and deterministic on a shared machine.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Exposes performance.memory with exact (not bucketed) numbers for the heap measurement.
    "--enable-precise-memory-info",
]


def launch_chromium(playwright: Playwright) -> Browser:
    """Start headless Chromium; raise a clear error when the binary is missing."""
    if not CHROMIUM.exists():
        raise FileNotFoundError(
            f"Chromium not found at {CHROMIUM}; install Debian's chromium or set "
            "CHUNKSCOPE_CHROMIUM to the browser binary"
        )
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )


@contextmanager
def fresh_page(browser: Browser, height: int = 900) -> Iterator[Page]:
    """A page in a browser context of its own (no cookies or storage shared with other
    tests), 1280 px wide, with a 30 s default timeout; the context closes afterwards."""
    context = browser.new_context(viewport={"width": 1280, "height": height})
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        yield page
    finally:
        context.close()
