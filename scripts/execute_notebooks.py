"""Execute the teaching notebooks and store them normalized, ready to commit.

Each notebook runs top to bottom in a fresh kernel from its own folder (as nbval runs it),
then is written back with its outputs, with sequential execution counts, without widget
state (``metadata.widgets``: its model ids change on every run) and without per-cell timing
metadata, so that a re-run changes the file only where an output changed (and in the
widget model ids, which are new on every run and which nbval does not compare).

    .venv/bin/python scripts/execute_notebooks.py                 # every notebooks/*.ipynb
    .venv/bin/python scripts/execute_notebooks.py notebooks/03-tool-calls.ipynb
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
KERNEL = "python3"
CELL_TIMEOUT_S = 120
# Only what a reader or nbval needs; the interpreter's version and the like would make every
# contributor's run rewrite the file.
KERNELSPEC = {"name": KERNEL, "display_name": "Python 3 (ipykernel)", "language": "python"}
LANGUAGE_INFO = {"name": "python", "file_extension": ".py", "mimetype": "text/x-python"}


def normalize(notebook: Any, stem: str) -> None:
    """Drop run-specific metadata and give cells stable ids, in place."""
    notebook.metadata.pop("widgets", None)
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)
    notebook.metadata["language_info"] = dict(LANGUAGE_INFO)
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"{stem[:2]}-{index:02d}"
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            for output in cell.outputs:
                # nbclient adds transient display ids; they never reach the saved file.
                output.pop("transient", None)


def execute(path: Path) -> float:
    """Run ``path`` in a fresh kernel, store it normalized; return the seconds it took."""
    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    client = NotebookClient(
        notebook,
        kernel_name=KERNEL,
        timeout=CELL_TIMEOUT_S,
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=False,
        record_timing=False,
    )
    started = time.monotonic()
    client.execute()
    elapsed = time.monotonic() - started
    normalize(notebook, path.stem)
    nbformat.validate(notebook)
    nbformat.write(notebook, path)  # type: ignore[no-untyped-call]
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "notebooks", nargs="*", type=Path, help="notebooks to run (default: notebooks/*.ipynb)"
    )
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.notebooks] or sorted(NOTEBOOKS.glob("*.ipynb"))
    if not paths:
        print(f"no notebooks found in {NOTEBOOKS}", file=sys.stderr)
        return 1
    total = 0.0
    for path in paths:
        try:
            elapsed = execute(path)
        except Exception as error:
            print(f"{path.name}: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
            return 1
        total += elapsed
        print(f"{path.name}: {elapsed:.1f} s")
    print(f"{len(paths)} notebooks in {total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
