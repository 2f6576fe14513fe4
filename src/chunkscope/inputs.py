"""What a user passes, turned into what a function needs: a stream to read, or a folded run.

``show()``, ``accumulate()``, ``record()``, ``compare()`` and ``write_html()`` take
"anything that is a run": a ``RunState``, a ``StreamView``, a recording's path, a
``replay()``, or a stream of chunks (Mastra's, or a foreign format the adapters recognise),
as the framework hands it over: a context manager that yields the stream (pydantic-ai's
``run_stream_events()``, the OpenAI SDK's ``stream()`` helpers) is entered for the caller
and closed when the stream ends. The rules live here once, so every entry point accepts the
same things and refuses the rest with the same clear message.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any

from .adapters.detection import adapt, detect
from .fold.state import RunState
from .fold.stream import fold_chunks
from .recording import Replay, replay

RECORDING_SUFFIXES = (".jsonl", ".ndjson")

_WHAT_A_RUN_IS = "a RunState, a StreamView, a recording path, a replay() or an iterable of chunks"


def entered(value: Any) -> Any:
    """``value``, or the stream of a context manager that is not itself iterable, entered when
    the stream is first read and exited when it ends or is closed; a coroutine that returns a
    stream is awaited when the stream is first read."""
    # A path is a context manager too on older Pythons, and never a stream.
    if isinstance(value, (Iterable, AsyncIterable, Path)):
        return value
    if inspect.iscoroutine(value):  # `model.astream_events(version="v3")`, not yet awaited
        return _awaited(value)
    if hasattr(value, "__aenter__") and hasattr(value, "__aexit__"):
        return _async_within(value)
    if hasattr(value, "__enter__") and hasattr(value, "__exit__"):
        return _within(value)
    return value


def _within(manager: Any) -> Iterator[Any]:
    with manager as stream:
        yield from stream


async def _awaited(coroutine: Any) -> AsyncIterator[Any]:
    stream = await coroutine
    async for event in entered(stream):
        yield event


async def _async_within(manager: Any) -> AsyncIterator[Any]:
    async with manager as stream:
        async for event in stream:
            yield event


def as_source(value: Any, *, adapter: str | None = "auto", to: str = "show()") -> Any:
    """A sync or async iterable of chunks (or a ``Replay``, which keeps its timing).

    A path (or a ``.jsonl`` name) is a recording, replayed at once; any other iterable goes
    through the adapters' detection (``adapter="auto"``), a named format, or as it is
    (``adapter=None``). ``to`` names the caller in error messages.
    """
    if isinstance(value, Replay):
        return value
    if isinstance(value, Path) or (isinstance(value, str) and value.endswith(RECORDING_SUFFIXES)):
        return Replay(value, speed=0)
    if isinstance(value, (str, bytes, bytearray, dict)):
        raise TypeError(
            f"{to} needs a stream (an iterable of chunks), not a single {type(value).__name__};"
            " wrap one chunk in a list, or pass the path of a .jsonl recording"
        )
    value = entered(value)
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
    value = entered(value)
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
    return fold_chunks(as_source(iter(value), to=to), title=title)


def sync_chunks(value: Any, *, adapter: str | None = "auto", to: str) -> Iterable[Any]:
    """Mastra chunks of a sync stream, for the entry points that read one at once.

    A stream that starts like Mastra's (or with JSON text, which the fold parses) is read as
    it is, so that folding a Mastra stream costs nothing more; one that starts like another
    format goes through its adapter, and so does a stream of objects no adapter recognises
    (it then ends with an error that says so, never as an empty run).
    """
    if isinstance(value, Replay):
        return value
    source = as_source(value, adapter=None, to=to)
    if isinstance(source, Replay):
        return source
    if not isinstance(source, Iterable):
        raise TypeError(
            f"{to} reads a stream at once and cannot read the async {type(value).__name__}: "
            "`await cs.show(stream)` folds it, or `async for` it into a list first"
        )
    if adapter is None:
        return source
    if adapter != "auto":
        return adapt(source, adapter)
    items = iter(source)
    first = next(items, _NOTHING)
    if first is _NOTHING:
        return ()
    whole = itertools.chain((first,), items)
    if isinstance(first, (str, bytes, bytearray)):
        return whole
    found = detect(first)
    if found == "mastra" or (found is None and isinstance(first, dict)):
        # a dict no adapter claims is a malformed chunk: the fold shows it in place
        return whole
    return adapt(whole)


_NOTHING = object()


def accumulate(stream: Any, title: str = "", *, adapter: str | None = "auto") -> RunState:
    """Fold a whole stream into a RunState, at once.

    ``stream`` is anything ``show()`` reads the sync way: Mastra chunks (dicts, ``Chunk``
    models or JSON lines), a recording's path or ``replay()``, or a stream the adapters
    recognise (OpenAI, pydantic-ai, LangChain, the AI SDK, Konan's SSE events), context
    managers included. ``adapter`` names a format instead of detecting it, or ``None`` to fold
    the items as Mastra chunks whatever they look like.
    """
    if isinstance(stream, (str, Path)):
        return as_run(stream, to="accumulate()", title=title)
    return fold_chunks(sync_chunks(stream, adapter=adapter, to="accumulate()"), title=title)
