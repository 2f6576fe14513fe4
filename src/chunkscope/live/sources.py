"""What ``show()`` accepts, turned into something the consumer can read.

Mastra chunks (models, dicts, JSON lines) pass through; a path is a recording to replay; a
``Replay`` keeps its recorded timing; anything else goes through the adapters' auto-detection,
which recognises foreign formats from their first events and leaves Mastra chunks alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..record import Replay


def as_source(source: Any, *, adapter: str | None = "auto") -> Any:
    """A sync or async iterable of chunks (or a ``Replay``) for ``source``."""
    if isinstance(source, Replay):
        return source
    if isinstance(source, Path) or (
        isinstance(source, str) and source.endswith((".jsonl", ".ndjson"))
    ):
        return Replay(source, speed=0)
    if isinstance(source, (str, bytes, dict)):
        raise TypeError(
            f"show() needs a stream (an iterable of chunks), not a single {type(source).__name__};"
            " wrap one chunk in a list, or pass the path of a .jsonl recording"
        )
    if not (hasattr(source, "__iter__") or hasattr(source, "__aiter__")):
        raise TypeError(
            f"show() cannot read a {type(source).__name__}: pass an iterable or async iterable "
            "of chunks, a Replay, or the path of a .jsonl recording"
        )
    if adapter is None:
        return source
    try:
        from ..adapters.detect import adapt
    except ImportError:
        return source
    return adapt(source, None if adapter == "auto" else adapter)
