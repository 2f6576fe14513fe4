"""The front end's built files (``static/``): the widgets' modules and styles, the markdown
libraries and the standalone page, made by ``js/build.mjs`` when the package is built."""

from __future__ import annotations

from pathlib import Path

STATIC_DIR = Path(__file__).parent / "static"
"""Where the built front end lies, inside the installed package."""


class MissingBundleError(FileNotFoundError):
    """A built front-end file is not where the package expects it (a source tree whose front
    end was never built)."""


def static_path(name: str) -> Path:
    """The path of the built file ``name`` (it may not exist yet: anywidget reads it later)."""
    return STATIC_DIR / name


def read_static(name: str) -> str:
    """The text of the built file ``name``; ``MissingBundleError`` says how to build it."""
    file = static_path(name)
    try:
        return file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MissingBundleError(
            f"the front-end bundle {str(file)!r} is missing: build it with "
            "'cd js && npm run build' (or reinstall chunkscope)"
        ) from None
