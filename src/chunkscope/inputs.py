"""What a user passes, turned into what a function needs: a stream to read, or a folded run.

``show()``, ``compare()`` and ``write_html()`` take "anything that is a run": a ``RunState``,
a ``StreamView``, a recording's path, a ``replay()``, or a stream of chunks (Mastra's, or a
foreign format the adapters recognise). The rules live here once, so every entry point
accepts the same things and refuses the rest with the same clear message.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable
from pathlib import Path
from typing import Any

from .adapters.detection import adapt
from .fold.state import RunState
from .fold.stream import accumulate
from .recording import Replay, replay

_RECORDING_SUFFIXES = (".jsonl", ".ndjson")

_WHAT_A_RUN_IS = "a RunState, a StreamView, a recording path, a replay() or an iterable of chunks"


def as_source(value: Any, *, adapter: str | None = "auto", to: str = "show()") -> Any:
    """A sync or async iterable of chunks (or a ``Replay``, which keeps its timing).

    A path (or a ``.jsonl`` name) is a recording, replayed at once; any other iterable goes
    through the adapters' detection (``adapter="auto"``), a named format, or as it is
    (``adapter=None``). ``to`` names the caller in error messages.
    """
    if isinstance(value, Replay):
        return value
    if isinstance(value, Path) or (isinstance(value, str) and value.endswith(_RECORDING_SUFFIXES)):
        return Replay(value, speed=0)
    if isinstance(value, (str, bytes, bytearray, dict)):
        raise TypeError(
            f"{to} needs a stream (an iterable of chunks), not a single {type(value).__name__};"
            " wrap one chunk in a list, or pass the path of a .jsonl recording"
        )
    if not isinstance(value, (Iterable, AsyncIterable)):
        raise TypeError(
            f"{to} cannot read a {type(value).__name__}: pass an iterable or async iterable "
            "of chunks, a replay(), or the path of a .jsonl recording"
        )
    if adapter is None:
        return value
    return adapt(value, None if adapter == "auto" else adapter)


def as_run(value: Any, *, to: str, title: str = "") -> RunState:
    """The ``RunState`` of anything that is a run, folded at once when it is not one yet.

    A recording is folded with its recorded offsets, whatever speed a ``Replay`` was made
    with. ``to`` prefixes error messages (``"run_a"``, ``"write_html()"``).
    """
    if isinstance(value, RunState):
        return value
    state = getattr(value, "state", None)
    if isinstance(state, RunState):  # a StreamView: its run as folded so far
        return state
    if isinstance(value, Replay):
        value = value.path
    if isinstance(value, (str, Path)):
        path = Path(value)
        if not path.is_file():
            raise FileNotFoundError(f"{to}: no recording at {str(path)!r} (expected a .jsonl file)")
        return accumulate(replay(path, speed=0), title=title or path.stem)
    if isinstance(value, (bytes, bytearray, dict)) or not isinstance(value, Iterable):
        hint = ""
        if isinstance(value, AsyncIterable):
            hint = " (an async stream cannot be folded at once: `await cs.show(stream)` first)"
        raise TypeError(f"{to}: expected {_WHAT_A_RUN_IS}, got {type(value).__name__}{hint}")
    # iter(): a stream that is both sync and async iterable is read here the sync way
    return accumulate(as_source(iter(value), to=to), title=title)
