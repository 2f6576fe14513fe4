"""Every teaching notebook runs top to bottom in a real JupyterLab and shows its views.

The notebooks are copied into the server's folder with the recordings they read (the
``tests/fixtures`` they reach as ``../tests/fixtures`` are linked in), opened in headless
Chromium, run with "Run All", and checked for error outputs and drawn StreamViews. A
screenshot of each lands in ``test-artifacts/screenshots/notebook-<name>.png``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lab import LabPage, LabServer
from lab.paths import REPO

NOTEBOOKS = REPO / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
# The slowest notebook runs a nested kernel and two nbval sessions: generous, not unbounded.
RUN_ALL_TIMEOUT_S = 180.0
# Every notebook whose code calls cs.show( draws at least one StreamView.
VIEW = ".cs-header"


@pytest.fixture(scope="module")
def lab_notebooks(lab_server: LabServer) -> Path:
    """The notebooks (and their data) in the server's folder, laid out as in the repo."""
    target = lab_server.root_dir / "notebooks"
    shutil.copytree(NOTEBOOKS, target, dirs_exist_ok=True)
    tests = lab_server.root_dir / "tests"
    tests.mkdir(exist_ok=True)
    fixtures = tests / "fixtures"
    if not fixtures.exists():
        fixtures.symlink_to(REPO / "tests" / "fixtures", target_is_directory=True)
    return target


@pytest.mark.e2e
@pytest.mark.parametrize("path", PATHS, ids=[path.stem for path in PATHS])
def test_notebook_runs_in_jupyterlab_without_errors(
    lab: LabPage, lab_notebooks: Path, path: Path
) -> None:
    lab.set_save_widget_state(False)
    lab.open(f"notebooks/{path.name}")
    passed = lab.run_all(timeout_s=RUN_ALL_TIMEOUT_S)
    shows_views = "cs.show(" in path.read_text(encoding="utf-8")
    if shows_views:
        lab.wait_for(VIEW)
    lab.screenshot(f"notebook-{path.stem}")
    errors = [
        f"cell {index}: {output.get('ename')}: {output.get('evalue')}"
        for index, cell in enumerate(lab.outputs())
        for output in (cell or [])
        if output.get("output_type") == "error"
    ]
    assert passed and not errors, errors or "a cell failed without an error output"
    assert not lab.iopub_warning_seen()
    failed_panels = lab.page.locator(".jp-NotebookPanel .cs-part", has_text="failed to draw")
    assert failed_panels.count() == 0, failed_panels.first.text_content()
    page_errors = [error for error in lab.console_errors if error.startswith("pageerror:")]
    assert not page_errors, page_errors
