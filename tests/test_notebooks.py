"""The teaching notebooks are committed the way nbval can check them strictly.

``pytest --nbval notebooks/`` re-runs every notebook and compares its outputs with the saved
ones; this module checks what nbval does not: that every code cell was executed and saved
with its outputs, in order, without widget state, that each notebook opens with a title
and a sentence of purpose, and that it leaves no scratch folder behind.
``scripts/execute_notebooks.py`` writes notebooks that pass.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
# Machine-specific text that must never be saved as an output: memory addresses, the path of
# this checkout, and the random names of the scratch folders the notebooks make.
VOLATILE = re.compile(
    rf" at 0x[0-9a-f]{{6,}}|{re.escape(str(REPO))}|chunkscope-\d\d-[a-z0-9_]{{8}}"
)
# Ways of making a file or folder that nothing removes: each run of a notebook (nbval runs
# them all) would leave one more in the temporary folder. A kernel that nbval stops is killed,
# so nothing is removed at its exit either.
LEFT_BEHIND = re.compile(r"\btempfile\.(mkdtemp|mkstemp)\(|\bdelete=False\b")
# A ``tempfile.TemporaryDirectory`` kept in a name, outside ``with``: its ``cleanup()`` must
# come in a later cell.
KEPT_SCRATCH = re.compile(r"^\s*(\w+)\s*=\s*tempfile\.TemporaryDirectory\(", re.MULTILINE)


def load(path: Path) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return notebook


def code_cells(notebook: dict[str, Any]) -> list[dict[str, Any]]:
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]


def source(cell: dict[str, Any]) -> str:
    text = cell["source"]
    return "".join(text) if isinstance(text, list) else str(text)


def problems_of(notebook: dict[str, Any]) -> list[str]:
    """Every way ``notebook`` falls short of the committed form, as readable lines."""
    problems: list[str] = []
    if "widgets" in notebook.get("metadata", {}):
        problems.append("metadata.widgets is saved (widget state; its model ids change every run)")
    cells = notebook.get("cells", [])
    first = cells[0] if cells else None
    lines = source(first).strip().splitlines() if first else []
    if not first or first["cell_type"] != "markdown" or not lines or not lines[0].startswith("# "):
        problems.append("the first cell is not a markdown cell opening with a '# ' title")
    elif not any(line.strip() and not line.startswith("#") for line in lines[1:]):
        problems.append("the first cell has a title but no sentence of purpose under it")
    expected = 1
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code" or not source(cell).strip():
            continue
        count = cell.get("execution_count")
        if count is None:
            problems.append(f"cell {index} was not executed (execution_count is null)")
        elif count != expected:
            problems.append(f"cell {index} has execution_count {count}, expected {expected}")
        expected = (count if isinstance(count, int) else expected) + 1
        code = source(cell)
        left = LEFT_BEHIND.search(code)
        if left:
            problems.append(f"cell {index} makes a scratch file nothing removes ({left.group()})")
        for kept in KEPT_SCRATCH.finditer(code):
            later = "".join(
                source(other) for other in cells[index:] if other["cell_type"] == "code"
            )
            if f"{kept.group(1)}.cleanup()" not in later:
                problems.append(f"cell {index} makes {kept.group(1)!r}, never cleaned up")
        outputs = cell.get("outputs")
        if not outputs:
            problems.append(f"cell {index} has code but no saved outputs")
            continue
        for output in outputs:
            if output.get("output_type") == "error":
                problems.append(f"cell {index} saved an error: {output.get('ename')}")
            text = json.dumps(output.get("data", output.get("text", "")))
            match = VOLATILE.search(text)
            if match:
                problems.append(f"cell {index} output has machine-specific text {match.group()!r}")
    return problems


def test_there_is_a_curriculum() -> None:
    numbers = [path.name[:2] for path in PATHS]
    assert numbers == sorted(set(numbers)), f"numbers repeat or are out of order: {numbers}"
    assert {"01", "02", "03", "04", "05", "06", "07", "09"} <= set(numbers), numbers


@pytest.mark.parametrize("path", PATHS, ids=[path.stem for path in PATHS])
def test_notebook_is_committed_executed_and_clean(path: Path) -> None:
    assert problems_of(load(path)) == []


@pytest.mark.parametrize("path", PATHS, ids=[path.stem for path in PATHS])
def test_notebook_shows_runs_from_offline_sources_only(path: Path) -> None:
    code = "\n".join(source(cell) for cell in code_cells(load(path)))
    assert "http://" not in code and "https://" not in code, "notebooks never call a network"
    assert "cs.show(" in code or "cs.compare(" in code, "every notebook shows a run"


# The checks above must be able to fail: each broken copy of a good notebook is caught.

GOOD: dict[str, Any] = {
    "metadata": {},
    "cells": [
        {"cell_type": "markdown", "source": "# 99 · Example\n\nShow a run; you will see it."},
        {
            "cell_type": "code",
            "execution_count": 1,
            "source": "state",
            "outputs": [{"output_type": "execute_result", "data": {"text/plain": "ok"}}],
        },
        {
            "cell_type": "code",
            "execution_count": 2,
            "source": "print(1)",
            "outputs": [{"output_type": "stream", "name": "stdout", "text": "1\n"}],
        },
    ],
}


def broken(change: str) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads(json.dumps(GOOD))
    cells = notebook["cells"]
    if change == "widget state":
        notebook["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {}}
    elif change == "unexecuted cell":
        cells[1]["execution_count"] = None
    elif change == "missing outputs":
        cells[2]["outputs"] = []
    elif change == "out of order":
        cells[1]["execution_count"], cells[2]["execution_count"] = 2, 1
    elif change == "no title":
        cells[0]["source"] = "Some words first.\n\n# 99 · Example"
    elif change == "no purpose":
        cells[0]["source"] = "# 99 · Example"
    elif change == "error output":
        cells[2]["outputs"] = [{"output_type": "error", "ename": "ValueError", "evalue": "x"}]
    elif change == "memory address":
        cells[1]["outputs"][0]["data"]["text/plain"] = "<Thing object at 0x7f3a2b1c4d50>"
    elif change == "scratch left behind":
        cells[2]["source"] = "folder = tempfile.mkdtemp()\nprint(1)"
    elif change == "scratch never cleaned up":
        cells[1]["source"] = "scratch = tempfile.TemporaryDirectory()\nstate"
    elif change == "scratch folder":
        cells[2]["outputs"][0]["text"] = "wrote /tmp/chunkscope-05-k2j4h5g6/run.jsonl\n"
    return notebook


def test_a_good_notebook_has_no_problems() -> None:
    assert problems_of(GOOD) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("widget state", "metadata.widgets is saved"),
        ("unexecuted cell", "cell 1 was not executed"),
        ("missing outputs", "cell 2 has code but no saved outputs"),
        ("out of order", "cell 1 has execution_count 2, expected 1"),
        ("no title", "not a markdown cell opening with a '# ' title"),
        ("no purpose", "no sentence of purpose"),
        ("error output", "cell 2 saved an error: ValueError"),
        ("memory address", "machine-specific text ' at 0x7f3a2b1c4d50'"),
        ("scratch folder", "machine-specific text 'chunkscope-05-k2j4h5g6'"),
        ("scratch left behind", "cell 2 makes a scratch file nothing removes (tempfile.mkdtemp("),
        ("scratch never cleaned up", "cell 1 makes 'scratch', never cleaned up"),
    ],
)
def test_each_way_of_committing_badly_is_caught(change: str, expected: str) -> None:
    problems = problems_of(broken(change))
    assert any(expected in problem for problem in problems), problems
