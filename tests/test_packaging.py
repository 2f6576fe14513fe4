"""The wheel carries the built front end; the package is typed."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_contains_the_front_end_bundle(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        timeout=600,
    )
    wheels = list(tmp_path.glob("chunkscope-*.whl"))
    assert len(wheels) == 1
    names = zipfile.ZipFile(wheels[0]).namelist()
    assert "chunkscope/static/widget.js" in names
    assert "chunkscope/static/widget.css" in names
    assert "chunkscope/static/libraries.js" in names
    assert "chunkscope/static/standalone.js" in names
    assert "chunkscope/py.typed" in names
    bundle = zipfile.ZipFile(wheels[0]).read("chunkscope/static/widget.js")
    assert len(bundle) > 10_000
    assert b"export" in bundle  # an ES module, as anywidget loads it


def test_the_package_imports_without_a_front_end_and_exposes_its_api() -> None:
    code = "import chunkscope as cs; print(sorted(set(cs.__all__) - set(dir(cs))))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"
