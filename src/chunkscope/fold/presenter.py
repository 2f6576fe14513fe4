"""How a RunState shows itself, without the fold importing the presenters.

The fold declares what it needs (``Presenter``); ``chunkscope.present`` registers the real one
when it is imported, which ``import chunkscope`` always does.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .state import RunState


class Presenter(Protocol):
    """Renders a run as text, as static HTML, and as a self-contained page."""

    def transcript_text(self, state: RunState) -> str:
        """The run as deterministic text (no ids, timestamps or durations)."""
        ...

    def transcript_html(self, state: RunState) -> str:
        """The run as static, sanitized HTML that needs no kernel and no JavaScript."""
        ...

    def write_html(self, state: RunState, path: str | Path, title: str | None) -> Path:
        """Write the run as one offline HTML page; return where it went."""
        ...


_presenter: Presenter | None = None


def register_presenter(presenter: Presenter) -> None:
    """Make ``presenter`` the one every RunState uses to show itself."""
    global _presenter
    _presenter = presenter


def presenter() -> Presenter:
    """The registered presenter."""
    if _presenter is None:
        raise RuntimeError(
            "no presenter is registered: import chunkscope (or chunkscope.present) first"
        )
    return _presenter
