"""An incremental Server-Sent Events parser following the WHATWG event-stream rules.

Written here rather than taken from a library because the parsers we looked at each miss
one of the rules a live stream exercises: a CR line end whose LF arrives in the next read,
a multibyte UTF-8 character split between reads, a BOM, the ``id`` NUL rule, or invalid
UTF-8 (which must be replaced, not fatal). The rules implemented
(https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):

* the stream is UTF-8 whatever the headers say, decoded incrementally; invalid bytes become
  U+FFFD; one leading BOM is dropped;
* lines end with CRLF, LF or CR (a CR at the end of one read and an LF at the start of the
  next are one line end);
* a line starting with ``:`` is a comment; ``field: value`` loses one leading space;
* ``data`` lines join with LF; ``event`` sets the type (default ``message``); ``id`` sets the
  last event id unless it contains NUL; ``retry`` with only ASCII digits sets the
  reconnection time; other fields are ignored;
* a blank line dispatches the event, unless no ``data`` was given;
* at the end of the stream an unfinished event is discarded (:attr:`SSEParser.incomplete`
  says whether there was one, so callers can report a cut connection).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from dataclasses import dataclass

_LINE_END = re.compile("\r\n|\r|\n")


@dataclass(frozen=True)
class SSEEvent:
    """One dispatched server-sent event."""

    event: str
    """The event type (``message`` when the stream named none)."""
    data: str
    """The data lines joined with LF (no trailing LF)."""
    id: str
    """The last event id in force when the event was dispatched (may be empty)."""
    retry: int | None = None
    """The reconnection time in ms in force, if the stream set one."""


class SSEParser:
    """Feed bytes (or str) as they arrive; get back the events they complete."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._line = ""
        self._after_cr = False
        self._at_start = True
        self._data: list[str] = []
        self._has_data = False
        self._event_type = ""
        self._pending_fields = False
        self.last_event_id: str = ""
        """The stream's last event id (persists across events, as the spec says)."""
        self.retry: int | None = None
        """The reconnection time in milliseconds the stream asked for, if any."""
        self.events_dispatched: int = 0
        """How many events were dispatched so far."""
        self.bytes_fed: int = 0
        """How many bytes were fed so far."""

    @property
    def incomplete(self) -> bool:
        """True when fields or a partial line were read after the last dispatched event."""
        return self._pending_fields or bool(self._line)

    def feed(self, chunk: bytes | str) -> list[SSEEvent]:
        """Consume the next piece of the stream and return the events it completes."""
        if isinstance(chunk, str):
            text = chunk
            self.bytes_fed += len(chunk.encode("utf-8", "surrogatepass"))
        else:
            text = self._decoder.decode(bytes(chunk))
            self.bytes_fed += len(chunk)
        return self._consume(text)

    def close(self) -> list[SSEEvent]:
        """End of stream: flush the decoder; an unfinished event is discarded (see spec)."""
        tail = self._decoder.decode(b"", final=True)
        return self._consume(tail) if tail else []

    def _consume(self, text: str) -> list[SSEEvent]:
        if self._at_start and text:
            self._at_start = False
            if text.startswith("\ufeff"):
                text = text[1:]
        events: list[SSEEvent] = []
        if not text:
            return events
        position = 1 if self._after_cr and text[0] == "\n" else 0
        # A CR ending this piece already ended its line; an LF opening the next is skipped.
        self._after_cr = text[-1] == "\r"
        for match in _LINE_END.finditer(text, position):
            self._process_line(self._line + text[position : match.start()], events)
            self._line = ""
            position = match.end()
        self._line += text[position:]
        return events

    def _process_line(self, line: str, events: list[SSEEvent]) -> None:
        if not line:
            self._dispatch(events)
            return
        if line[0] == ":":
            return
        name, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        self._pending_fields = True
        if name == "data":
            self._data.append(value)
            self._has_data = True
        elif name == "event":
            self._event_type = value
        elif name == "id":
            if "\0" not in value:
                self.last_event_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self.retry = int(value)

    def _dispatch(self, events: list[SSEEvent]) -> None:
        self._pending_fields = False
        if not self._has_data:
            self._data, self._event_type = [], ""
            return
        events.append(
            SSEEvent(
                event=self._event_type or "message",
                data="\n".join(self._data),
                id=self.last_event_id,
                retry=self.retry,
            )
        )
        self.events_dispatched += 1
        self._data, self._has_data, self._event_type = [], False, ""


def parse_sse(chunks: Iterable[bytes | str]) -> Iterator[SSEEvent]:
    """Events from a sync iterable of byte (or str) pieces."""
    parser = SSEParser()
    for chunk in chunks:
        yield from parser.feed(chunk)
    yield from parser.close()


async def aparse_sse(chunks: AsyncIterable[bytes | str]) -> AsyncIterator[SSEEvent]:
    """Events from an async iterable of byte (or str) pieces."""
    parser = SSEParser()
    async for chunk in chunks:
        for event in parser.feed(chunk):
            yield event
    for event in parser.close():
        yield event
