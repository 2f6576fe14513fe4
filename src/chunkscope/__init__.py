"""chunkscope: Jupyter-native streaming widgets for agent and LLM streams.

>>> import chunkscope as cs
>>> view = cs.show(cs.demo.stream())        # renders live; the cell returns at once
>>> state = await view.wait()                # doctest: +SKIP

The top level holds what a notebook user types. Everything else lives in named submodules,
laid out along the path a chunk takes: ``chunkscope.adapters`` (foreign formats and live HTTP
sources) → ``chunkscope.chunks`` (Mastra's chunk models) → ``chunkscope.fold`` (the run state)
→ ``chunkscope.wire`` (what crosses to the page) → ``chunkscope.live`` (the widget and its
consumer), ``chunkscope.board`` (many runs at once) and ``chunkscope.present`` (transcripts,
static pages, comparisons).
"""

from typing import Any as _Any

from . import adapters, demo
from ._version import __version__
from .adapters import mastra, sse
from .board import RunBoard, runs
from .capture import arecord, record
from .cassettes import cassette
from .chunks import Chunk, parse_chunk
from .fold.state import RunState
from .inputs import accumulate
from .inputs import as_source as _as_source
from .live.widget import StreamView
from .present.compare import compare
from .present.export import write_html
from .recording import replay

__all__ = [
    "Chunk",
    "RunBoard",
    "RunState",
    "StreamView",
    "__version__",
    "accumulate",
    "adapters",
    "arecord",
    "cassette",
    "compare",
    "demo",
    "mastra",
    "parse_chunk",
    "record",
    "replay",
    "runs",
    "show",
    "sse",
    "write_html",
]


def show(source: _Any, *, title: str = "", display: bool = True, **options: _Any) -> StreamView:
    """Show a stream live in the notebook and consume it in the background.

    ``source`` is an iterable or async iterable of chunks (Mastra chunk dicts or models, or a
    foreign format the adapters recognise), a ``replay(...)``, or the path of a ``.jsonl``
    recording. The cell returns at once; ``await view.wait()`` (or ``await view``) gives the
    final ``RunState``. Options: ``max_rate`` (batches per second while chunks arrive faster
    than 250 a second, default 60; slower chunks are sent one by one), ``record`` (a path to
    record the run to), ``include_transient``, ``idle_timeout`` (seconds), ``adapter``
    ("auto", a format name, or None).
    """
    reading = {k: options.pop(k) for k in _READING_OPTIONS if k in options}
    # A source that cannot be read fails here, before anything is shown.
    prepared = _as_source(source, adapter=reading.pop("adapter", "auto"))
    view = StreamView(title=title, **options)
    if display:
        # Shown before the first chunk is read: the page follows the run from its first
        # batch, and the cell's own work is not slowed by a source folding in a thread.
        view.display_once(run_follows=True)
    return view.start(prepared, adapter=None, **reading)


_READING_OPTIONS = ("record", "include_transient", "idle_timeout", "adapter")
"""The options of ``show`` that are ``StreamView.start``'s."""
