"""Cassettes: record a real agent's stream once, replay it on every later run.

>>> import chunkscope as cs
>>> source = cs.cassette("data/weather.jsonl", lambda: agent.stream("Weather in Seoul?"))
>>> state = await cs.show(source)                          # doctest: +SKIP

``cassette(path, make_source)`` is a source. When the recording at ``path`` exists it is
replayed (instantly by default, ``speed=1`` for the recorded pace) and ``make_source`` is not
called, so a notebook re-run under ``pytest --nbval`` needs no network, no key and no model.
When it does not exist, ``make_source()`` is called and its stream is recorded while it is
consumed: the view shows it live, and the cassette appears once the stream ends.

The record mode comes from ``mode=`` or else the ``CHUNKSCOPE_RECORD`` environment variable
(``pytest --chunkscope-record=…`` sets it for a test session):

- ``none``: replay only; a missing cassette raises ``CassetteMissingError``, naming the file
  and how to record it, and ``make_source`` is never called (CI);
- ``once`` (the default): record when the cassette is missing, else replay;
- ``all``: always record anew. The cassette it replaces is kept beside it as
  ``<name>.previous.jsonl`` (``run.jsonl`` → ``run.previous.jsonl``), so that
  ``cs.compare("run.previous.jsonl", "run.jsonl")`` or ``chunkscope diff`` explains what
  changed.

Recording is all or nothing. Chunks go to a hidden temporary file in the cassette's folder,
which replaces the cassette (``os.replace``, atomic) only when the stream ends normally: a
source that raises, or a consumer that stops early, leaves the old cassette as it was.
Transient ``data-*`` chunks are not recorded unless ``include_transient=True``, and secrets
(API keys, bearer tokens, header-like fields) are masked as ``***`` before a line is written
(``mask=``, see ``chunkscope.recording.SecretMask``).

What nbval compares. nbval re-runs each cell and compares every output with the saved one,
MIME type by MIME type, except the ones it skips: output metadata, tracebacks, images, and
``application/vnd.jupyter.widget-view+json``, the live widget view, whose model id is new on
every run. So the live view is never compared; what is compared is text. A replayed
cassette gives byte-identical text on every run: a ``RunState``'s ``text/plain`` (its
transcript, also ``print(state.transcript())``) and its static ``text/html`` have no ids,
timestamps, durations or memory addresses, and replay speed never reaches them; a
``StreamView``'s ``text/plain`` is ``StreamView(title='…')``. End a regression cell with
the transcript.
"""

from __future__ import annotations

import inspect
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from .adapters.detection import adapt
from .recording import MaskOption, Recorder, Replay

RecordMode = Literal["none", "once", "all"]
"""How a cassette records: ``none`` (replay only), ``once`` (if missing), ``all`` (always)."""

RECORD_MODES: tuple[RecordMode, ...] = ("none", "once", "all")
"""Every record mode."""

ENV_VAR = "CHUNKSCOPE_RECORD"
"""The environment variable that sets the record mode when ``mode=`` is not given."""

DEFAULT_MODE: RecordMode = "once"
"""The record mode when neither ``mode=`` nor ``CHUNKSCOPE_RECORD`` says one."""


class CassetteMissingError(FileNotFoundError):
    """A cassette was to be replayed (record mode ``none``) but its file does not exist."""


def record_mode(mode: str | None = None) -> RecordMode:
    """The record mode in force: ``mode`` when given, else ``CHUNKSCOPE_RECORD``, else ``once``."""
    given = mode if mode is not None else os.environ.get(ENV_VAR, "")
    value = given.strip().lower() or DEFAULT_MODE
    for known in RECORD_MODES:
        if value == known:
            return known
    where = "mode" if mode is not None else ENV_VAR
    raise ValueError(f"{where}={given!r} is not a record mode; use one of none, once, all")


def previous_path(path: str | Path) -> Path:
    """Where mode ``all`` keeps the cassette it replaced: ``run.jsonl`` → ``run.previous.jsonl``."""
    path = Path(path)
    suffix = path.suffix or ".jsonl"
    return path.with_name(f"{path.stem if path.suffix else path.name}.previous{suffix}")


def cassette(
    path: str | Path,
    make_source: Callable[[], Any],
    *,
    mode: str | None = None,
    include_transient: bool = False,
    mask: MaskOption = True,
    speed: float = 0.0,
    adapter: str | None = "auto",
) -> Any:
    """A source that replays the recording at ``path``, recording it first when needed.

    ``make_source`` is called (with no arguments) only to record: it returns a sync or async
    iterable of chunks (Mastra's, or a format the adapters recognise, ``adapter`` as in
    ``show``), or is a coroutine function returning one. ``mode`` is ``none``, ``once`` or
    ``all`` (default: ``CHUNKSCOPE_RECORD``, else ``once``; see the module's docstring).
    ``speed`` paces a replay: 0 (the default) at once, 1 at the recorded pace.
    ``include_transient`` records transient chunks too; ``mask`` (default on) masks secrets.

    Returns a ``Replay`` when the cassette is replayed, a ``CassetteRecording`` (iterable
    once) when it is recorded. Raises ``CassetteMissingError`` in mode ``none`` when there
    is no cassette.
    """
    path = Path(path)
    if speed < 0:
        raise ValueError("speed must be 0 (no waiting) or positive")
    chosen = record_mode(mode)
    if chosen != "all" and path.is_file():
        return Replay(path, speed)
    if chosen == "none":
        raise CassetteMissingError(
            f"no cassette at {str(path)!r} and the record mode is 'none' (replay only): "
            f"to record it, set {ENV_VAR}=once or pass mode='once' "
            "(or run pytest with --chunkscope-record=once)"
        )
    options: dict[str, Any] = {
        "include_transient": include_transient,
        "mask": mask,
        "adapter": adapter,
    }
    if inspect.iscoroutinefunction(make_source):
        return _AsyncRecording(path, make_source, **options)
    source = make_source()
    if inspect.isawaitable(source):
        return _AsyncRecording(path, _awaited(source), **options)
    is_async = hasattr(source, "__aiter__")
    is_sync = hasattr(source, "__iter__") and not isinstance(source, (str, bytes, dict))
    if is_async and is_sync:
        return _DualRecording(path, source, **options)
    if is_async:
        return _AsyncRecording(path, _given(source), **options)
    if is_sync:
        return _SyncRecording(path, source, **options)
    raise TypeError(
        f"make_source() returned a {type(source).__name__}: it must return an iterable or "
        "async iterable of chunks (or be a coroutine function returning one)"
    )


class CassetteRecording:
    """A live stream being recorded into a cassette; iterate it once, sync or async.

    Each chunk is written (masked) to a temporary file beside the cassette as it passes; the
    file becomes the cassette only when the stream ends normally. ``committed`` says whether
    it did.
    """

    def __init__(
        self,
        path: Path,
        *,
        include_transient: bool = False,
        mask: MaskOption = True,
        adapter: str | None = "auto",
    ) -> None:
        self.path = path
        """The cassette being recorded."""
        self.include_transient = include_transient
        """Record transient chunks too."""
        self.mask: MaskOption = mask
        """How secrets are masked in the file."""
        self.adapter = adapter
        """How the live stream is turned into Mastra chunks (as ``show``'s ``adapter``)."""
        self.count = 0
        """Chunks written so far."""
        self.committed = False
        """True once the stream ended and the cassette was written."""
        self._used = False

    def _begin(self) -> tuple[Recorder, Path]:
        if self._used:
            raise RuntimeError(
                f"this recording of {str(self.path)!r} was already consumed; "
                "call cs.cassette(...) again to replay it"
            )
        self._used = True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(f".{self.path.name}.{uuid.uuid4().hex[:12]}.tmp")
        recorder = Recorder(temporary, include_transient=self.include_transient, mask=self.mask)
        return recorder, temporary

    def _write(self, recorder: Recorder, chunk: Any) -> None:
        recorder.write(chunk)
        self.count = recorder.count

    def _end(self, recorder: Recorder, temporary: Path, *, complete: bool) -> None:
        try:
            recorder.close()
            if complete:
                if self.path.is_file():
                    _keep_previous(self.path)
                os.replace(temporary, self.path)
                self.committed = True
        finally:
            if not self.committed:
                temporary.unlink(missing_ok=True)

    def _adapted(self, source: Any) -> Any:
        if self.adapter is None:
            return source
        return adapt(source, None if self.adapter == "auto" else self.adapter)

    def _record_sync(self, source: Any) -> Iterator[Any]:
        recorder, temporary = self._begin()
        complete = False
        chunks = iter(self._adapted(iter(source)))
        try:
            for chunk in chunks:
                self._write(recorder, chunk)
                yield chunk
            complete = True
        finally:
            try:
                close = getattr(chunks, "close", None)
                if close is not None and not complete:
                    close()
            finally:
                self._end(recorder, temporary, complete=complete)

    async def _record_async(self, source: Awaitable[Any]) -> AsyncIterator[Any]:
        recorder, temporary = self._begin()
        complete = False
        chunks: Any = None
        try:
            stream = await source
            if not hasattr(stream, "__aiter__"):
                stream = _as_async(stream)
            chunks = self._adapted(stream.__aiter__())
            async for chunk in chunks:
                self._write(recorder, chunk)
                yield chunk
            complete = True
        finally:
            try:
                close = getattr(chunks, "aclose", None)
                if close is not None and not complete:
                    await close()
            finally:
                self._end(recorder, temporary, complete=complete)

    def __repr__(self) -> str:
        state = "recorded" if self.committed else "recording"
        return f"CassetteRecording({str(self.path)!r}, {state})"


class _SyncRecording(CassetteRecording):
    """A recording of a sync source: a sync iterable only."""

    def __init__(self, path: Path, source: Any, **options: Any) -> None:
        super().__init__(path, **options)
        self._source = source

    def __iter__(self) -> Iterator[Any]:
        return self._record_sync(self._source)


class _AsyncRecording(CassetteRecording):
    """A recording of an async source (or of one a coroutine makes): async iterable only."""

    def __init__(self, path: Path, make: Callable[[], Awaitable[Any]], **options: Any) -> None:
        super().__init__(path, **options)
        self._make = make

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._record_async(self._make())


class _DualRecording(CassetteRecording):
    """A recording of a source that is both sync and async iterable (the demo agent)."""

    def __init__(self, path: Path, source: Any, **options: Any) -> None:
        super().__init__(path, **options)
        self._source = source

    def __iter__(self) -> Iterator[Any]:
        return self._record_sync(self._source)

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._record_async(_given(self._source)())


def _given(source: Any) -> Callable[[], Awaitable[Any]]:
    async def ready() -> Any:
        return source

    return ready


def _awaited(awaitable: Awaitable[Any]) -> Callable[[], Awaitable[Any]]:
    async def result() -> Any:
        return await awaitable

    return result


async def _as_async(source: Any) -> AsyncIterator[Any]:
    if not hasattr(source, "__iter__") or isinstance(source, (str, bytes, dict)):
        raise TypeError(
            f"the cassette's source is a {type(source).__name__}: it must be an iterable or "
            "async iterable of chunks"
        )
    for chunk in source:
        yield chunk


def _keep_previous(path: Path) -> None:
    """Copy the cassette about to be replaced to ``previous_path(path)``, atomically."""
    target = previous_path(path)
    temporary = path.with_name(f".{target.name}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        shutil.copyfile(path, temporary)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
