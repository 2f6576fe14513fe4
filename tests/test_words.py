"""The project's own text names things for what they are.

Formats are named after what produces them (the Konan LLM chat API's streaming events,
LangChain-style ``on_*`` SSE), never after the documents that first described them. A random
seed is a different thing and is fine.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Where the project's own words live.
PLACES = ["src", "js/src", "notebooks", "docs", "README.md", "benchmarks"]
SKIPPED_DIRS = {"node_modules", "static", "__pycache__", ".ipynb_checkpoints"}
SUFFIXES = {".py", ".ts", ".md", ".ipynb", ".css", ".rst", ".txt", ".html", ".mjs", ".toml"}

#: Phrases that name a requirement's source instead of the thing itself.
FORBIDDEN = re.compile(
    r"seed[- ](?:documents?|sse|service|chat[- ]service)"
    r"|seeds?'\s*(?:documents?|chat)"
    r"|\bthe seeds\b",
    re.IGNORECASE,
)


def _files() -> list[Path]:
    found: list[Path] = []
    for place in PLACES:
        path = ROOT / place
        if path.is_file():
            found.append(path)
            continue
        for file in sorted(path.rglob("*")):
            if not file.is_file() or file.suffix not in SUFFIXES:
                continue
            if SKIPPED_DIRS.intersection(file.relative_to(ROOT).parts):
                continue
            found.append(file)
    return found


def test_places_exist() -> None:
    assert (ROOT / "src").is_dir()
    assert len(_files()) > 20


@pytest.mark.parametrize(
    "text",
    ["the seed documents", "The seeds describe", "seed SSE service", "the seed service's run"],
)
def test_pattern_catches_requirement_words(text: str) -> None:
    assert FORBIDDEN.search(text)


@pytest.mark.parametrize("text", ["random.Random(seed)", "seed: int = 0", "seeded pacing"])
def test_pattern_allows_random_seeds(text: str) -> None:
    assert not FORBIDDEN.search(text)


def test_no_text_names_where_requirements_came_from() -> None:
    hits = []
    for file in _files():
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            if FORBIDDEN.search(line):
                hits.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert not hits, "name the thing itself, not where it was described:\n" + "\n".join(hits)
