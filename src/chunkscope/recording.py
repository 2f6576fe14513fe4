"""Record a stream to JSONL and replay it with its original timing.

A recording has one chunk a line, ``{"t": <ms since the stream began>, "chunk": {...}}``, the
same format as the project's real Mastra fixtures. Transient ``data-*`` chunks are left out
unless asked for: they are live-only by definition.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from .chunks import BaseChunk, Chunk, is_transient, parse_chunk
from .wire.safejson import clip_for_wire


def _chunk_json(chunk: Any, parsed: Chunk | None) -> Any:
    """What a recording line keeps: a dict as given, a model or text as its chunk's JSON."""
    if isinstance(chunk, BaseChunk):
        return chunk.model_dump(by_alias=True, exclude_unset=True, mode="json")
    if isinstance(chunk, (str, bytes)):
        if parsed is None:
            parsed = parse_chunk(chunk)
        return (
            getattr(parsed, "raw", None)
            if not isinstance(parsed, BaseChunk)
            else (parsed.model_dump(by_alias=True, exclude_unset=True, mode="json"))
        )
    return clip_for_wire(chunk, max_depth=10_000)


class Recorder:
    """Writes chunks to a JSONL file as they pass; used by ``record`` and ``show(record=…)``."""

    def __init__(self, path: str | Path, *, include_transient: bool = False) -> None:
        self.path = Path(path)
        """Where the recording goes."""
        self.include_transient = include_transient
        """Keep transient ``data-*`` chunks too."""
        self.count = 0
        """Chunks written so far."""
        self._file: IO[str] | None = None
        self._origin: float | None = None

    def write(self, chunk: Any, t: float | None = None, *, parsed: Chunk | None = None) -> None:
        """Append one chunk with its arrival offset (measured here when not given).

        ``parsed`` is ``parse_chunk(chunk)`` when the caller already has it (the fold parses
        every chunk): the chunk is then not parsed again here. Without it, the chunk is
        parsed at most once, and only when its JSON or its transience needs it.
        """
        if not self.include_transient:
            if parsed is None:
                parsed = parse_chunk(chunk)
            if is_transient(parsed):
                return
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("w", encoding="utf-8")
        if t is None:
            now = time.monotonic()
            if self._origin is None:
                self._origin = now
            t = (now - self._origin) * 1000.0
        line = {"t": round(t, 3), "chunk": _chunk_json(chunk, parsed)}
        self._file.write(json.dumps(line, ensure_ascii=False) + "\n")
        self.count += 1

    def close(self) -> None:
        """Flush and close the file (an empty recording still creates it)."""
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.touch()
        else:
            self._file.close()
            self._file = None


def record(source: Iterable[Any], path: str | Path, *, include_transient: bool = False) -> int:
    """Consume a sync source, writing every chunk to ``path``; return how many were written."""
    recorder = Recorder(path, include_transient=include_transient)
    try:
        for chunk in source:
            recorder.write(chunk)
    finally:
        recorder.close()
    return recorder.count


async def arecord(source: Any, path: str | Path, *, include_transient: bool = False) -> int:
    """``record`` for an async source."""
    recorder = Recorder(path, include_transient=include_transient)
    try:
        async for chunk in source:
            recorder.write(chunk)
    finally:
        recorder.close()
    return recorder.count


class Replay:
    """Chunks of a recording, as a sync or an async iterable, paced like the original.

    ``speed`` scales time: 1 is the original pace, 2 twice as fast, 0 no waiting at all. A
    line that is not valid JSON, or not a chunk, is yielded as is so that the fold shows it
    as an invalid chunk at that line instead of the replay failing.
    """

    def __init__(self, path: str | Path, speed: float = 1.0) -> None:
        if speed < 0:
            raise ValueError("speed must be 0 (no waiting) or positive")
        self.path = Path(path)
        """The recording."""
        self.speed = speed
        """Time scale: 1 original pace, 0 no waiting."""

    def lines(self) -> Iterator[tuple[float | None, Any, str]]:
        """(recorded offset, chunk or raw line, "line N") for each non-blank line."""
        with self.path.open("rb") as file:
            for number, raw in enumerate(file, start=1):
                if not raw.strip():
                    continue
                yield (*_read_line(raw), f"line {number}")

    def timed(self, wait: bool = True) -> Iterator[tuple[float, Any, str]]:
        """(offset ms on the replay's clock, chunk, where), sleeping between them if ``wait``."""
        start = time.monotonic()
        last = 0.0
        for recorded, chunk, where in self.lines():
            t = last if recorded is None else self._scaled(recorded)
            last = t
            if wait and self.speed > 0:
                delay = start + t / 1000.0 - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            yield t, chunk, where

    async def atimed(self) -> AsyncIterator[tuple[float, Any, str]]:
        """``timed`` with asyncio sleeps."""
        start = time.monotonic()
        last = 0.0
        for recorded, chunk, where in self.lines():
            t = last if recorded is None else self._scaled(recorded)
            last = t
            if self.speed > 0:
                delay = start + t / 1000.0 - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
            yield t, chunk, where

    def _scaled(self, recorded: float) -> float:
        return recorded / self.speed if self.speed > 0 else recorded

    def __iter__(self) -> Iterator[Any]:
        for _, chunk, _ in self.timed():
            yield chunk

    async def __aiter__(self) -> AsyncIterator[Any]:
        async for _, chunk, _ in self.atimed():
            yield chunk

    def __repr__(self) -> str:
        return f"Replay({str(self.path)!r}, speed={self.speed})"


def _read_line(raw: bytes) -> tuple[float | None, Any]:
    """A recording line: ``{"t", "chunk"}``, a bare chunk, or bad bytes kept for the fold."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return None, raw.rstrip(b"\r\n")
    if isinstance(value, dict) and "chunk" in value and set(value) <= {"t", "chunk"}:
        t = value.get("t")
        offset = float(t) if isinstance(t, (int, float)) and not isinstance(t, bool) else None
        return offset, value["chunk"]
    if not isinstance(value, dict):
        # A JSON string would be read again as JSON text by the fold; the line as written
        # lets it say "expected a JSON object, got string".
        return None, raw.rstrip(b"\r\n")
    return None, value


def replay(path: str | Path, speed: float = 1.0) -> Replay:
    """Replay a JSONL recording (see ``Replay``)."""
    return Replay(path, speed)
