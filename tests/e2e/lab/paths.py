"""Where the repository, its sources and the test artifacts are."""

from __future__ import annotations

import importlib.util
from pathlib import Path

#: The repository root.
REPO = Path(__file__).resolve().parents[3]
#: Gitignored folder for server logs and screenshots.
ARTIFACTS = REPO / "test-artifacts"


def kernel_pythonpath() -> list[Path]:
    """The repo's ``src`` when chunkscope is not installed in this interpreter, else nothing."""
    if importlib.util.find_spec("chunkscope") is None:
        return [REPO / "src"]
    return []
