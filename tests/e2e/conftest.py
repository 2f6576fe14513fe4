"""Fixtures for the end-to-end tests: one JupyterLab and one Chromium per session,
a fresh browser context (and so a fresh page) per test."""

from __future__ import annotations

import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from lab import LabPage, LabServer, fresh_page, launch_chromium, run_lab
from lab.paths import ARTIFACTS, kernel_pythonpath
from playwright.sync_api import Browser, sync_playwright

_SERVER_KEY = pytest.StashKey[LabServer]()
_LOG_TAIL_BYTES = 20_000


@pytest.fixture(scope="session")
def lab_server(pytestconfig: pytest.Config) -> Iterator[LabServer]:
    """JupyterLab on 127.0.0.1 with default server settings, stopped by process group."""
    with (
        tempfile.TemporaryDirectory(prefix="chunkscope-lab-") as workdir,
        run_lab(
            Path(workdir), ARTIFACTS / "jupyterlab.log", extra_pythonpath=kernel_pythonpath()
        ) as server,
    ):
        pytestconfig.stash[_SERVER_KEY] = server
        yield server
        del pytestconfig.stash[_SERVER_KEY]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless Debian Chromium, closed (with Playwright's driver) at the end of the session."""
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def lab(lab_server: LabServer, browser: Browser) -> Iterator[LabPage]:
    """A page in a fresh browser context with the notebook helpers; kernels stop afterwards."""
    with fresh_page(browser) as page:
        try:
            yield LabPage(lab_server, page, ARTIFACTS)
        finally:
            lab_server.shutdown_kernels()


@pytest.fixture
def rate_limited_lab(browser: Browser) -> Iterator[LabPage]:
    """A page on a JupyterLab of its own whose IOPub limit (50 msgs/s) is easy to exceed."""
    limit = ["--ZMQChannelsWebsocketConnection.iopub_msg_rate_limit=50"]
    with (
        tempfile.TemporaryDirectory(prefix="chunkscope-lab-limited-") as workdir,
        run_lab(
            Path(workdir),
            ARTIFACTS / "jupyterlab-rate-limited.log",
            extra_pythonpath=kernel_pythonpath(),
            server_args=limit,
        ) as server,
        fresh_page(browser) as page,
    ):
        yield LabPage(server, page, ARTIFACTS)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Attach the tail of the JupyterLab log to every failing e2e test's report."""
    report = yield
    server = item.config.stash.get(_SERVER_KEY, None)
    if report.failed and server is not None:
        text = server.log_text(max(0, server.log_size() - _LOG_TAIL_BYTES))
        report.sections.append((f"JupyterLab log (tail of {server.log_path})", text))
    return report
