"""The front end's timeline tests read snapshots the Python fold made of real recordings; they
must be what the fold makes of them today, or the front end is tested against an old wire."""

from __future__ import annotations

import importlib.util
from pathlib import Path

MAKER = (
    Path(__file__).resolve().parents[1]
    / "js"
    / "tests"
    / "views"
    / "timeline"
    / "fixtures"
    / "make_fixtures.py"
)


def test_the_generated_typescript_fixtures_are_current() -> None:
    spec = importlib.util.spec_from_file_location("make_fixtures", MAKER)
    assert spec is not None and spec.loader is not None
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    stale = maker.stale()
    assert stale == [], (
        f"regenerate with `.venv/bin/python {MAKER.relative_to(MAKER.parents[5])}`: {stale}"
    )
