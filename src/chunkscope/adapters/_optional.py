"""Optional dependencies: imported when present, a clear error naming the extra when not.

The base install has no HTTP client; ``chunkscope[http]`` adds httpx. A module that needs an
optional package imports it through :func:`optional_import` so that ``import chunkscope``
always works, and the first use of the missing feature says which extra to install.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class MissingExtra:
    """Stands in for a package that is not installed; any use raises a clear ImportError."""

    def __init__(self, module: str, extra: str) -> None:
        self.module = module
        """The package that is missing."""
        self.extra = extra
        """The chunkscope extra that installs it."""

    def error(self, feature: str | None = None) -> ImportError:
        """The error to raise: what is missing and the command that installs it."""
        what = feature or f"this part of chunkscope ({self.module})"
        return ImportError(
            f"{what} needs the '{self.module}' package, which the base install leaves out: "
            f"pip install 'chunkscope[{self.extra}]'"
        )

    def __getattr__(self, name: str) -> Any:
        raise self.error()


def optional_import(module: str, *, extra: str) -> ModuleType | MissingExtra:
    """``module`` if it can be imported, else a stand-in that says which extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return MissingExtra(module, extra)


def require(module: ModuleType | MissingExtra, feature: str) -> None:
    """Raise the install hint at once when ``module`` is missing (call it where the feature
    starts, so the error comes from the user's own call, not from deep inside a stream)."""
    if isinstance(module, MissingExtra):
        raise module.error(feature)
