"""Ways to show a run: the text and HTML transcripts, the standalone page, comparisons.

Importing this package registers the presenter every ``RunState`` shows itself with.
"""

from __future__ import annotations

from pathlib import Path

from ..fold.presenter import register_presenter
from ..fold.state import RunState
from . import export, transcript


class _Presenter:
    """``chunkscope.fold.presenter.Presenter`` backed by this package's modules."""

    def transcript_text(self, state: RunState) -> str:
        return transcript.transcript_text(state)

    def transcript_html(self, state: RunState) -> str:
        return transcript.transcript_html(state)

    def write_html(self, state: RunState, path: str | Path, title: str | None) -> Path:
        return export.write_html(state, path, title=title)


register_presenter(_Presenter())
