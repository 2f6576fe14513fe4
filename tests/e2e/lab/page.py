"""Drive one JupyterLab page the way a user would, through JupyterLab's own commands.

``window.jupyterapp`` (exposed by the server config in ``server.py``) gives the command
registry, so running, saving and interrupting go through the same code paths as the menus,
without depending on menu layout or keyboard focus.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from playwright.sync_api import ConsoleMessage, Error, Locator, Page

from .server import LabServer, LabServerError

#: The texts the server writes into the outputs (and its log) when it drops IOPub messages.
IOPUB_WARNINGS = ("IOPub message rate exceeded", "IOPub data rate exceeded")

#: JupyterLab's widget-manager plugin, whose ``saveState`` writes widget state on save.
WIDGETS_PLUGIN = "@jupyter-widgets/jupyterlab-manager:plugin"

# Finds the open notebook panel for a path; every snippet below starts from it.
_PANEL_JS = """
const panelFor = (path) => {
  if (!window.jupyterapp || !window.jupyterapp.shell) return null;
  for (const w of window.jupyterapp.shell.widgets('main')) {
    if (w.context && w.context.path === path && w.content && w.content.model) return w;
  }
  return null;
};
"""

_KERNEL_IDLE_JS = (
    "(path) => {"
    + _PANEL_JS
    + """
  const p = panelFor(path);
  if (!p || !p.sessionContext.isReady) return false;
  const k = p.sessionContext.session && p.sessionContext.session.kernel;
  return !!k && k.status === 'idle';
}"""
)

# Starts a command on the notebook without awaiting it: a result lands in window.__labRun
# so Python can wait with its own timeout (a run whose reply is lost must not hang the page).
_START_COMMAND_JS = (
    "([path, command, cellIndex]) => {"
    + _PANEL_JS
    + """
  const app = window.jupyterapp;
  const p = panelFor(path);
  if (!p) throw new Error('notebook not open: ' + path);
  app.shell.activateById(p.id);
  if (cellIndex !== null) p.content.activeCellIndex = cellIndex;
  const token = Math.random().toString(36).slice(2);
  window.__labRun = { token, done: false, ok: null, error: null };
  const finish = (result) => {
    if (window.__labRun.token === token) Object.assign(window.__labRun, { done: true }, result);
  };
  app.commands.execute(command).then(
    (ok) => finish({ ok: ok !== false }),
    (e) => finish({ ok: false, error: String(e) }),
  );
  return token;
}"""
)

_SAVE_JS = (
    "async (path) => {"
    + _PANEL_JS
    + """
  const p = panelFor(path);
  if (!p) throw new Error('notebook not open: ' + path);
  await p.context.save();
  return !p.context.model.dirty;
}"""
)

_OUTPUTS_JS = (
    "(path) => {"
    + _PANEL_JS
    + """
  const p = panelFor(path);
  if (!p) return null;
  const cells = [];
  for (const cell of p.content.widgets) {
    if (cell.model.type !== 'code') { cells.push(null); continue; }
    cells.push(cell.model.outputs.toJSON());
  }
  return cells;
}"""
)

_OUTPUT_TEXT_JS = (
    "(path) => {"
    + _PANEL_JS
    + """
  const p = panelFor(path);
  if (!p) return '';
  return Array.from(p.content.node.querySelectorAll('.jp-OutputArea-output'))
    .map((n) => n.textContent).join('\\n');
}"""
)

# Each code cell's execution count and whether it is running, with its first line: what a
# command that did not finish left behind.
_CELL_STATES_JS = (
    "(path) => {"
    + _PANEL_JS
    + """
  const p = panelFor(path);
  if (!p) return null;
  return p.content.widgets.filter((cell) => cell.model.type === 'code').map((cell) => ({
    count: cell.model.executionCount,
    state: cell.model.executionState,
    line: cell.model.sharedModel.getSource().split('\\n')[0].slice(0, 80),
  }));
}"""
)

_KERNEL_ID_JS = (
    "(path) => {"
    + _PANEL_JS
    + """
  const p = panelFor(path);
  const k = p && p.sessionContext.session && p.sessionContext.session.kernel;
  return k ? k.id : null;
}"""
)


class LabPageError(RuntimeError):
    """The page did not reach the state a step waited for; the message says which."""


class LabPage:
    """One browser page on the JupyterLab server, with the helpers the e2e tests share."""

    def __init__(self, server: LabServer, page: Page, artifacts_dir: Path) -> None:
        #: The server this page talks to.
        self.server = server
        #: The Playwright page (one per fresh browser context).
        self.page = page
        #: Where screenshots go (``<artifacts>/screenshots``).
        self.artifacts_dir = artifacts_dir
        #: Console errors and uncaught page errors, in order, for tests to assert on.
        self.console_errors: list[str] = []
        #: The notebook path opened last; the helpers act on it.
        self.path: str | None = None
        self._log_mark = server.log_size()
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.console_errors.append(f"pageerror: {error}"))

    def _on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.console_errors.append(message.text)

    def _current(self) -> str:
        if self.path is None:
            raise LabPageError("no notebook is open: call open(path) first")
        return self.path

    # -- notebooks on the server ------------------------------------------------------------

    def new_notebook(self, cells: list[str], name: str) -> str:
        """Write a notebook of code cells (python3 kernel) through the contents API."""
        notebook = {
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": {
                "kernelspec": {
                    "name": "python3",
                    "display_name": "Python 3 (ipykernel)",
                    "language": "python",
                },
                "language_info": {"name": "python"},
            },
            "cells": [
                {
                    "cell_type": "code",
                    "id": f"cell-{index}",
                    "metadata": {},
                    "execution_count": None,
                    "outputs": [],
                    "source": source,
                }
                for index, source in enumerate(cells)
            ],
        }
        path = name if name.endswith(".ipynb") else f"{name}.ipynb"
        self.server.api(
            "PUT",
            f"/api/contents/{quote(path)}",
            {"type": "notebook", "format": "json", "content": notebook},
        )
        return path

    def read_notebook(self, path: str | None = None) -> dict[str, Any]:
        """The notebook as saved on disk."""
        file = self.server.root_dir / (path or self._current())
        data: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
        return data

    def notebook_size(self, path: str | None = None) -> int:
        """Size in bytes of the saved notebook file."""
        return (self.server.root_dir / (path or self._current())).stat().st_size

    def set_save_widget_state(self, enabled: bool) -> None:
        """Turn "Save Widget State Automatically" on or off; takes effect for pages opened after."""
        self.server.api(
            "PUT",
            f"/lab/api/settings/{WIDGETS_PLUGIN}",
            {"raw": json.dumps({"saveState": enabled})},
        )

    # -- the page ---------------------------------------------------------------------------

    def open(self, path: str, timeout_s: float = 60.0) -> None:
        """Open ``path`` in a workspace of its own and wait until its kernel is idle."""
        workspace = f"w{uuid.uuid4().hex[:12]}"
        url = (
            f"{self.server.url}/lab/workspaces/{workspace}/tree/{quote(path)}"
            f"?token={self.server.token}"
        )
        self.path = path
        self._log_mark = self.server.log_size()
        self.page.goto(url, wait_until="domcontentloaded", timeout=timeout_s * 1000)
        self._wait_ready(timeout_s)

    def _wait_ready(self, timeout_s: float) -> None:
        path = self._current()
        try:
            self.page.wait_for_function(
                _KERNEL_IDLE_JS, arg=path, timeout=timeout_s * 1000, polling=100
            )
        except Error as error:
            raise LabPageError(
                f"{path}: the kernel was not idle within {timeout_s:.0f} s ({error.message})"
            ) from error

    def reload(self, timeout_s: float = 60.0) -> None:
        """Reload the page (same workspace) and wait for the notebook's kernel again."""
        self.page.reload(wait_until="domcontentloaded", timeout=timeout_s * 1000)
        self._wait_ready(timeout_s)

    def _start(self, command: str, cell_index: int | None) -> None:
        self.page.evaluate(_START_COMMAND_JS, [self._current(), command, cell_index])

    def _wait_command(self, what: str, timeout_s: float) -> bool:
        try:
            self.page.wait_for_function(
                "() => window.__labRun && window.__labRun.done",
                timeout=timeout_s * 1000,
                polling=50,
            )
        except Error as error:
            report = self._unfinished_report(what)
            message = f"{what} did not finish within {timeout_s:.0f} s; {report}"
            raise LabPageError(message) from error
        result: dict[str, Any] = self.page.evaluate("() => window.__labRun")
        if result.get("error"):
            raise LabPageError(f"{what} failed in the page: {result['error']}")
        return bool(result.get("ok"))

    def _unfinished_report(self, what: str) -> str:
        """What the page shows when a command did not finish: the cells that ran and the one
        still running, the kernel's status, the page's errors, and a screenshot."""
        try:
            # A page whose main thread is stuck answers nothing: ask with a deadline first.
            self.page.wait_for_function("() => true", timeout=5_000)
        except Error:
            return "the page did not answer within 5 s (its main thread is busy or stuck)"
        lines: list[str] = []
        try:
            cells: list[dict[str, Any]] | None = self.page.evaluate(
                _CELL_STATES_JS, self._current()
            )
            for index, cell in enumerate(cells or []):
                lines.append(f"cell {index} [{cell['count']}] {cell['state']}: {cell['line']}")
            kernel = self.server.api("GET", f"/api/kernels/{self.kernel_id()}")
            lines.append(f"kernel {kernel.get('execution_state')}")
            shot = self.screenshot("unfinished-" + re.sub(r"\W+", "-", what).strip("-"))
            lines.append(f"screenshot {shot.name}")
        except (Error, LabPageError, LabServerError) as error:
            lines.append(f"(could not read more: {error})")
        lines += [f"page error: {error}" for error in self.console_errors[-5:]]
        return "\n  ".join(["the page shows:", *lines])

    def run_all(self, wait: bool = True, timeout_s: float = 60.0) -> bool:
        """Run every cell (``notebook:run-all-cells``); when waiting, True if none failed."""
        self._start("notebook:run-all-cells", None)
        return self._wait_command("run all cells", timeout_s) if wait else True

    def run_cell(self, index: int, wait: bool = True, timeout_s: float = 60.0) -> bool:
        """Run the cell at ``index`` (``notebook:run-cell``); when waiting, True if it passed."""
        self._start("notebook:run-cell", index)
        return self._wait_command(f"cell {index}", timeout_s) if wait else True

    def wait_run(self, timeout_s: float = 60.0) -> bool:
        """Wait for the last ``run_*`` command started without waiting; True if it passed."""
        return self._wait_command("the run command", timeout_s)

    def run_finished(self) -> bool:
        """Whether the last ``run_*`` command (started without waiting) has completed."""
        return bool(self.page.evaluate("() => !!(window.__labRun && window.__labRun.done)"))

    def wait_for(
        self,
        selector: str,
        timeout_s: float = 30.0,
        state: Literal["attached", "visible"] = "visible",
    ) -> Locator:
        """Wait until ``selector`` is visible (or just in the DOM) inside the notebook."""
        locator = self.page.locator(".jp-NotebookPanel").locator(selector).first
        locator.wait_for(state=state, timeout=timeout_s * 1000)
        return locator

    def save(self) -> None:
        """Save the notebook through its document context and wait until it is clean."""
        if not self.page.evaluate(_SAVE_JS, self._current()):
            raise LabPageError(f"{self._current()}: still dirty after save")

    def kernel_id(self) -> str:
        """Id of the open notebook's kernel."""
        kernel = self.page.evaluate(_KERNEL_ID_JS, self._current())
        if not isinstance(kernel, str):
            raise LabPageError(f"{self._current()}: no kernel attached")
        return kernel

    def interrupt_kernel(self) -> None:
        """Interrupt the kernel through the REST API (works while the page is busy)."""
        self.server.api("POST", f"/api/kernels/{self.kernel_id()}/interrupt")

    def outputs(self) -> list[list[dict[str, Any]] | None]:
        """Each cell's outputs as JupyterLab's model holds them (None for non-code cells)."""
        cells: list[list[dict[str, Any]] | None] = self.page.evaluate(_OUTPUTS_JS, self._current())
        return cells

    def outputs_text(self) -> str:
        """The visible text of every output area of the open notebook."""
        text: str = self.page.evaluate(_OUTPUT_TEXT_JS, self._current())
        return text

    def has_error_output(self) -> bool:
        """Whether any cell shows an error (a traceback output)."""
        return any(
            output.get("output_type") == "error"
            for cell in self.outputs()
            for output in (cell or [])
        )

    def iopub_warning_seen(self) -> bool:
        """Whether the server dropped IOPub messages since this notebook was opened."""
        text = self.outputs_text() + self.server.log_text(self._log_mark)
        return any(warning in text for warning in IOPUB_WARNINGS)

    def screenshot(self, name: str) -> Path:
        """Save a PNG of the page under ``<artifacts>/screenshots/<name>.png``."""
        target = self.artifacts_dir / "screenshots" / f"{name}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(target))
        return target
