"""chunkscope: Jupyter-native streaming widgets for agent and LLM streams.

>>> import chunkscope as cs
>>> view = cs.show(cs.demo.stream())        # renders live; the cell returns at once
>>> state = await view.wait()                # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from . import adapters, demo
from ._version import __version__
from .adapters import adapt, detect, mastra, sse
from .chunks.models import BaseChunk, Chunk, InvalidChunk, UnknownChunk, parse_chunk
from .fold.parts import Usage
from .fold.problems import Problem
from .fold.state import RunState, accumulate
from .live.widget import StreamView
from .present.compare import RunComparison, compare
from .present.export import write_html
from .record import Replay, arecord, record, replay

__all__ = [
    "BaseChunk",
    "Chunk",
    "InvalidChunk",
    "Problem",
    "Replay",
    "RunComparison",
    "RunState",
    "StreamView",
    "UnknownChunk",
    "Usage",
    "__version__",
    "accumulate",
    "adapt",
    "adapters",
    "arecord",
    "compare",
    "demo",
    "detect",
    "mastra",
    "parse_chunk",
    "record",
    "replay",
    "show",
    "sse",
    "write_html",
]


def show(source: Any, *, title: str = "", display: bool = True, **options: Any) -> StreamView:
    """Show a stream live in the notebook and consume it in the background.

    ``source`` is an iterable or async iterable of chunks (Mastra chunk dicts or models, or a
    foreign format the adapters recognise), a ``replay(...)``, or the path of a ``.jsonl``
    recording. The cell returns at once; ``await view.wait()`` (or ``await view``) gives the
    final ``RunState``. Options: ``max_rate`` (batches per second under load, default 60),
    ``record`` (a path to record the run to), ``include_transient``, ``idle_timeout``
    (seconds), ``adapter`` ("auto", a format name, or None).
    """
    view = StreamView(source, title=title, **options)
    if display:
        view.display_once()
    return view
