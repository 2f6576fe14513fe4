"""Mastra chunks arriving as they are: dicts, chunk objects or SSE events, passed through.

Used for streams that already speak Mastra (``agent.stream()`` over HTTP, recordings). Each
chunk is kept unchanged; an SSE event's JSON data is parsed; ``[DONE]`` ends the stream.
With ``expect_done`` (Mastra's agent route always sends ``data: [DONE]``) a stream that
ends without it was cut short and gets an ``error`` chunk saying so.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator
from typing import Any, overload

from ._base import SOURCE_ENDED, Relay, StreamAdapter
from ._events import sse_json
from ._json import to_jsonable
from ._writer import Chunk
from .sse_parser import SSEEvent


class MastraChunkAdapter(StreamAdapter):
    """Pass Mastra chunks through unchanged."""

    format_name = "mastra"

    def __init__(self, run_id: str | None = None, *, expect_done: bool = False) -> None:
        super().__init__(run_id)
        self.expect_done = expect_done
        """Whether a missing ``[DONE]`` means the stream was cut short."""
        self.done = False
        """Whether ``[DONE]`` was seen."""
        self.chunks_seen = 0
        """How many chunks passed through."""
        self.events_seen = 0
        """How many events arrived (chunks, ``[DONE]`` and unreadable ones), for messages."""

    def passes(self, event: Any) -> bool:
        """A chunk dict with a string ``type`` passes through as it is, without the checks of
        :meth:`handle`: nothing to translate."""
        if type(event) is dict and type(event.get("type")) is str:
            self.events_seen += 1
            self._note(event)
            return True
        return False

    def relay(
        self, advance: Callable[[], Any], tally: Callable[[int], None] | None = None
    ) -> Relay:
        """:meth:`StreamAdapter.relay` with :meth:`passes` and its note written into the loop:
        this runs once per token of every Mastra stream."""
        writer = self.writer
        run_id = writer.run_id
        relayed = 0
        try:
            while True:
                try:
                    event = advance()
                except StopIteration:
                    return SOURCE_ENDED
                if event.__class__ is not dict or event.get("type").__class__ is not str:
                    return event
                relayed += 1
                chunk_run = event.get("runId")
                if chunk_run is not run_id and isinstance(chunk_run, str):
                    writer.run_id = run_id = chunk_run
                yield event
        finally:
            self.events_seen += relayed
            self.chunks_seen += relayed
            if tally is not None:
                tally(relayed)

    def feed(self, event: Any) -> list[Chunk]:
        """As :meth:`StreamAdapter.feed`; a chunk that :meth:`passes` comes back alone."""
        if self.passes(event):
            return [*self.writer.drain(), event]
        return super().feed(event)

    def handle(self, event: Any) -> None:
        """One chunk passed through unchanged: an SSE event's JSON is parsed, JSON text or bytes
        are read and ``[DONE]`` is noted; what is not a chunk goes ``raw`` with the reason."""
        self.events_seen += 1
        value = sse_json(event)
        if value == "[DONE]":
            self.done = True
            return
        if not isinstance(value, dict):
            dumped = _json_object(value) or to_jsonable(value)
            value = dumped if isinstance(dumped, dict) and "type" in dumped else None
            if value is None:
                self.writer.raw(
                    {
                        "format": self.format_name,
                        "event": to_jsonable(event),
                        "problem": f"event {self.events_seen}: {_why_not_a_chunk(event)}",
                    }
                )
                return
        if not isinstance(value.get("type"), str):
            self.writer.raw(
                {"format": self.format_name, "event": value, "problem": "chunk without a type"}
            )
            return
        self._pass(value)

    def _note(self, chunk: dict[str, Any]) -> None:
        """Count a chunk passing through; later chunks the writer makes carry its run id."""
        self.chunks_seen += 1
        run_id = chunk.get("runId")
        if isinstance(run_id, str):
            self.writer.run_id = run_id

    def _pass(self, chunk: dict[str, Any]) -> None:
        self._note(chunk)
        self.writer.passthrough(chunk)

    def finalize(self) -> None:
        """An ``error`` chunk when ``expect_done`` and the stream ended without ``[DONE]``; nothing
        else is added to the chunks as they came."""
        if self.expect_done and not self.done and not self.writer.errored:
            self.writer.error(
                {
                    "message": f"the stream ended without [DONE] after {self.chunks_seen} "
                    "chunks: it was cut short"
                }
            )


def _json_object(value: Any) -> dict[str, Any] | None:
    """A chunk sent as JSON text or UTF-8 bytes among dicts, parsed; None if it is not one."""
    if not isinstance(value, (str, bytes, bytearray)):
        return None
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):
        return None
    return parsed if isinstance(parsed, dict) else None


def _why_not_a_chunk(event: Any) -> str:
    """What is wrong with an event that is not a Mastra chunk, as precisely as known."""
    text = event.data if isinstance(event, SSEEvent) else event
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as err:
            return f"not a Mastra chunk: not valid UTF-8 at byte {err.start}"
    if isinstance(text, str):
        try:
            text = json.loads(text)
        except (ValueError, RecursionError) as err:
            return f"not a Mastra chunk: data is not valid JSON ({err})"
    return f"not a Mastra chunk: expected a JSON object, got {type(text).__name__}"


@overload
def from_mastra(source: AsyncIterable[Any]) -> AsyncIterator[Chunk]: ...
@overload
def from_mastra(source: Iterable[Any]) -> Iterator[Chunk]: ...
def from_mastra(
    source: Iterable[Any] | AsyncIterable[Any],
) -> Iterator[Chunk] | AsyncIterator[Chunk]:
    """Mastra chunks, passed through (sync or async)."""
    return MastraChunkAdapter().stream(source)
