"""StreamView in Jupyter Notebook 7 (the classic-looking notebook built on JupyterLab's parts).

Notebook 7 is served on 127.0.0.1 from a throwaway root and config, like the JupyterLab of
the other e2e tests, and driven through the same ``window.jupyterapp`` commands: only the
server command and the page URL differ.
"""

from __future__ import annotations

import itertools
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from lab import LabPage, LabServer, LabServerError, stop_process_group
from lab.paths import ARTIFACTS, kernel_pythonpath
from lab.server import STARTUP_TIMEOUT_S, free_port
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError
from streamview import (
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


def _write_config(config_dir: Path, root_dir: Path, port: int, token: str) -> None:
    config = {
        "ServerApp": {
            "ip": "127.0.0.1",
            "port": port,
            "port_retries": 0,
            "open_browser": False,
            "allow_root": True,
            "root_dir": str(root_dir),
        },
        "IdentityProvider": {"token": token},
        # window.jupyterapp gives the test the notebook's own command registry.
        "JupyterNotebookApp": {"expose_app_in_browser": True},
    }
    (config_dir / "jupyter_server_config.json").write_text(json.dumps(config, indent=1))


@contextmanager
def run_notebook7(workdir: Path, log_path: Path) -> Iterator[LabServer]:
    """Start ``jupyter notebook`` (Notebook 7) in ``workdir``; stop it by process group."""
    dirs = {name: workdir / name for name in ("root", "config", "data", "ipython", "runtime")}
    for directory in dirs.values():
        directory.mkdir(parents=True, exist_ok=True)
    port, token = free_port(), secrets.token_hex(24)
    _write_config(dirs["config"], dirs["root"], port, token)
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(dirs["config"]),
        JUPYTER_DATA_DIR=str(dirs["data"]),
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        IPYTHONDIR=str(dirs["ipython"]),
        JUPYTER_PLATFORM_DIRS="1",
    )
    extra = [str(p) for p in kernel_pythonpath()]
    if extra:
        env["PYTHONPATH"] = os.pathsep.join([*extra, env.get("PYTHONPATH", "")])
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "notebook"],
            cwd=dirs["root"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    client = httpx.Client(base_url=url, headers={"Authorization": f"token {token}"}, timeout=30.0)
    server = LabServer(url, token, dirs["root"], log_path, process, client)
    try:
        _wait_until_up(server)
        yield server
    finally:
        client.close()
        stop_process_group(process)


def _wait_until_up(server: LabServer) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise LabServerError(f"Notebook 7 exited; log:\n{server.log_text()}")
        try:
            if server.client.get("/api/status", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    raise LabServerError(f"Notebook 7 did not start; log:\n{server.log_text()}")


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
    with (
        tempfile.TemporaryDirectory(prefix="chunkscope-nb7-") as workdir,
        run_notebook7(Path(workdir), ARTIFACTS / "notebook7.log") as server,
    ):
        yield server


@pytest.fixture
def notebook7(notebook7_server: LabServer, browser: Browser) -> Iterator[NotebookPage]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        yield NotebookPage(notebook7_server, page, ARTIFACTS)
    finally:
        context.close()
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
    lengths = [len(s.transcript) for s in live]
    growths = sum(1 for a, b in itertools.pairwise(lengths) if b > a)
    assert growths >= 2, f"the transcript did not grow while streaming: {lengths}"
    assert any(
        s.activity_visible and "data-progress #weather-progress" in s.activity for s in live
    ), "the transient progress never showed live"
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
