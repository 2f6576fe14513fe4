"""StreamView in Jupyter Notebook 7 (the classic-looking notebook built on JupyterLab's parts).

Notebook 7 is served on 127.0.0.1 from a throwaway root and config, like the JupyterLab of
the other e2e tests, and driven through the same ``window.jupyterapp`` commands: only the
server command and the page URL differ.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from lab import LabPage, LabServer, fresh_page, run_lab
from lab.paths import ARTIFACTS, kernel_pythonpath
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError
from streamview import (
    assert_grew_while_streaming,
    assert_progress_showed_live,
    cell_json,
    sample_until_ended,
    wait_view,
    widget_screenshot,
)

import chunkscope as cs

pytestmark = pytest.mark.e2e

SHOW_DEMO = (
    "import json\nimport chunkscope as cs\nview = cs.show(cs.demo.stream(speed=1), title='demo')"
)
AWAIT_END = """\
state = await view.wait()
print(json.dumps({"status": state.status, "text": state.text}))
"""
TRANSIENT_MARKERS = ("downloading readings", "data-progress", "weather-progress")


class NotebookPage(LabPage):
    """A LabPage whose notebooks open in Notebook 7's single-document page."""

    def __init__(self, server: LabServer, page: Page, artifacts_dir: Path) -> None:
        super().__init__(server, page, artifacts_dir)
        #: Uncaught errors thrown by Notebook 7's own bundle (top stack frame in it).
        self.notebook_errors: list[str] = []
        page.on("pageerror", self._on_page_error)

    def _on_page_error(self, error: PlaywrightError) -> None:
        frames = [
            line for line in (error.stack or "").splitlines() if line.strip().startswith("at ")
        ]
        if frames and "/static/notebook/" in frames[0]:
            self.notebook_errors.append(f"pageerror: {error}")

    def errors_not_from_notebook(self) -> list[str]:
        """Console and page errors, without those Notebook 7 itself throws (it throws one
        reading a plugin's settings schema even on an empty notebook)."""
        return [e for e in self.console_errors if e not in self.notebook_errors]

    def open(self, path: str, timeout_s: float = 60.0) -> None:
        self.path = path
        self._log_mark = self.server.log_size()
        url = f"{self.server.url}/notebooks/{quote(path)}?token={self.server.token}"
        self.page.goto(url, wait_until="domcontentloaded", timeout=timeout_s * 1000)
        self._wait_ready(timeout_s)


@pytest.fixture(scope="module")
def notebook7_server() -> Iterator[LabServer]:
    """``jupyter notebook`` (Notebook 7) on 127.0.0.1, stopped by process group."""
    with (
        tempfile.TemporaryDirectory(prefix="chunkscope-nb7-") as workdir,
        run_lab(
            Path(workdir),
            ARTIFACTS / "notebook7.log",
            extra_pythonpath=kernel_pythonpath(),
            app="notebook",
        ) as server,
    ):
        yield server


@pytest.fixture
def notebook7(notebook7_server: LabServer, browser: Browser) -> Iterator[NotebookPage]:
    with fresh_page(browser) as page:
        try:
            yield NotebookPage(notebook7_server, page, ARTIFACTS)
        finally:
            notebook7_server.shutdown_kernels()


def test_demo_streams_live_in_notebook7_and_saves_no_transient_data(
    notebook7: NotebookPage,
) -> None:
    path = notebook7.new_notebook([SHOW_DEMO, AWAIT_END], "nb7-demo")
    notebook7.open(path)
    assert notebook7.page.locator("#main-panel .jp-NotebookPanel").count() == 1, (
        "not Notebook 7's single-document page"
    )
    assert notebook7.run_cell(0), "the cell that shows the demo failed"

    wait_view(notebook7, lambda s: s.status == "running" and bool(s.text), "text streaming")
    notebook7.screenshot("notebook7-streaming")
    samples = sample_until_ended(notebook7)
    live = [s for s in samples if s.status == "running"]
    mid = next((s for s in live if s.tools), None)
    assert mid is not None, "no picture showed the tool call while the run streamed"
    assert_grew_while_streaming(live)
    assert_progress_showed_live(live)
    end = samples[-1]
    assert end.status == "finished"
    assert "Weather in Seoul" in end.transcript
    assert not end.stop_enabled
    assert f"{len(list(cs.demo.stream(speed=0)))} chunks" in end.status_bar
    notebook7.screenshot("notebook7-finished")
    widget_screenshot(notebook7, "notebook7-finished-widget")

    assert notebook7.run_cell(1), "awaiting the run failed"
    assert cell_json(notebook7, 1)["status"] == "finished"
    notebook7.save()
    saved = json.dumps(notebook7.read_notebook())
    for marker in TRANSIENT_MARKERS:
        assert marker not in saved, f"transient {marker!r} in the saved notebook"
    assert not notebook7.has_error_output()
    assert not notebook7.errors_not_from_notebook(), notebook7.console_errors
