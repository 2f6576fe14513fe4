"""Mastra chunks arriving as they are: dicts, chunk objects or SSE events, passed through.

Used for streams that already speak Mastra (``agent.stream()`` over HTTP, recordings). Each
chunk is kept unchanged; an SSE event's JSON data is parsed; ``[DONE]`` ends the stream.
With ``expect_done`` (Mastra's agent route always sends ``data: [DONE]``) a stream that
ends without it was cut short and gets an ``error`` chunk saying so.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, overload

from ._base import StreamAdapter
from ._events import sse_json
from ._json import to_jsonable
from ._writer import Chunk


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

    def handle(self, event: Any) -> None:
        value = sse_json(event)
        if value == "[DONE]":
            self.done = True
            return
        if not isinstance(value, dict):
            dumped = to_jsonable(value)
            value = dumped if isinstance(dumped, dict) and "type" in dumped else None
            if value is None:
                self.writer.raw(
                    {
                        "format": self.format_name,
                        "event": to_jsonable(event),
                        "problem": "not a Mastra chunk",
                    }
                )
                return
        if not isinstance(value.get("type"), str):
            self.writer.raw(
                {"format": self.format_name, "event": value, "problem": "chunk without a type"}
            )
            return
        self.chunks_seen += 1
        if isinstance(value.get("runId"), str):
            self.writer.run_id = value["runId"]
        self.writer.passthrough(value)

    def finalize(self) -> None:
        if self.expect_done and not self.done and not self.writer.errored:
            self.writer.error(
                {
                    "message": f"the stream ended without [DONE] after {self.chunks_seen} "
                    "chunks: it was cut short"
                }
            )


@overload
def from_mastra(source: AsyncIterable[Any]) -> AsyncIterator[Chunk]: ...
@overload
def from_mastra(source: Iterable[Any]) -> Iterator[Chunk]: ...
def from_mastra(
    source: Iterable[Any] | AsyncIterable[Any],
) -> Iterator[Chunk] | AsyncIterator[Chunk]:
    """Mastra chunks, passed through (sync or async)."""
    return MastraChunkAdapter().stream(source)
