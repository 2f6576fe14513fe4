r"""Pick the right adapter by looking at the first event(s) of a stream.

:func:`detect` names the format of one event; :func:`adapt` peeks at a source (dicts, SDK
objects, SSE events, SSE bytes or text, v4 data-stream lines, ``\x1e``/newline-separated
JSON records) and runs the matching adapter over the whole of it. Mastra chunks pass
through unchanged. When nothing matches, every event is kept as a ``raw`` chunk.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator
from typing import Any, overload

from ._base import Relay, StreamAdapter, as_dict
from ._json import parse_json_text
from ._records import RecordSplitter
from ._writer import Chunk
from .ai_sdk import AISdkAdapter
from .konan import KonanAdapter
from .langchain import LangChainAdapter
from .langchain_v3 import V3_EVENTS, LangChainV3Adapter
from .legacy import DataStreamV4Adapter, LegacyWorkflowAdapter
from .mastra_chunks import MastraChunkAdapter
from .openai import OpenAIAdapter
from .pydantic_ai import PydanticAIAdapter
from .sse_parser import SSEEvent, SSEParser

ADAPTERS: dict[str, type[StreamAdapter]] = {
    "mastra": MastraChunkAdapter,
    "konan": KonanAdapter,
    "langchain": LangChainAdapter,
    "langchain_v3": LangChainV3Adapter,
    "pydantic_ai": PydanticAIAdapter,
    "openai": OpenAIAdapter,
    "ai_sdk": AISdkAdapter,
    "data_stream_v4": DataStreamV4Adapter,
    "legacy_workflow": LegacyWorkflowAdapter,
}
"""Adapter classes by the format names :func:`detect` returns."""

_KONAN_EVENTS = {"done", "error"}
_AI_SDK_TYPES = {
    "start-step",
    "finish-step",
    "tool-input-start",
    "tool-input-delta",
    "tool-input-available",
    "tool-input-error",
    "tool-output-available",
    "tool-output-error",
    "source-url",
    "source-document",
    "message-metadata",
}
_AI_SDK_SHARED = {
    "start",
    "finish",
    "abort",
    "error",
    "text-start",
    "text-delta",
    "text-end",
    "reasoning-start",
    "reasoning-delta",
    "reasoning-end",
    "file",
}
_LEGACY_WORKFLOW = {
    "start",
    "step-start",
    "step-result",
    "step-finish",
    "step-suspended",
    "step-waiting",
    "step-output",
    "finish",
}
_V4_LINE = re.compile(r"^[0-9a-k]:")
_SSE_FIELD = re.compile(r"^(data|event|id|retry)(:|\r|\n|$)|^:")


def detect_text(text: str) -> str | None:
    """Transport of a stream's first text: ``sse``, ``data_stream_v4``, ``records`` or None."""
    text = text.lstrip("\ufeff")
    if _SSE_FIELD.match(text):
        return "sse"
    if _V4_LINE.match(text):
        return "data_stream_v4"
    if text.lstrip().startswith(("{", "\x1e")):
        return "records"
    return None


def detect(event: Any) -> str | None:
    """The format name (a key of :data:`ADAPTERS`) of one event, or None when unknown."""
    if isinstance(event, SSEEvent):
        if event.event.startswith("on_") or event.event in _KONAN_EVENTS:
            return "konan"
        ok, value = parse_json_text(event.data)
        if not ok:
            return None
        if isinstance(value, dict) and event.event != "message" and "type" not in value:
            value = {**value, "type": event.event}
        return detect(value)
    if isinstance(event, tuple) and len(event) == 2 and isinstance(event[0], str):
        return (
            "konan" if event[0].startswith("on_") or event[0] in _KONAN_EVENTS else "data_stream_v4"
        )
    if getattr(event, "event_kind", None) is not None:
        return "pydantic_ai"
    data = as_dict(event)
    if data is None:
        return None
    return _detect_dict(data)


def _detect_dict(data: dict[str, Any]) -> str | None:
    name = data.get("event")
    if isinstance(name, str):
        if name in V3_EVENTS:
            return "langchain_v3"
        if "run_id" in data or "parent_ids" in data:
            return "langchain"
        if name.startswith("on_") or name in _KONAN_EVENTS:
            return "konan"
    if "event_kind" in data:
        return "pydantic_ai"
    if data.get("object") == "chat.completion.chunk" or "choices" in data:
        return "openai"
    kind = data.get("type")
    if not isinstance(kind, str):
        return None
    if kind == "chunk" and isinstance(data.get("chunk"), dict):
        return _detect_dict(data["chunk"])  # the OpenAI SDK's chat stream helper
    if kind.startswith("response.") or (kind == "error" and "sequence_number" in data):
        return "openai"
    if "from" in data or "runId" in data or kind.startswith(("workflow-", "data-")):
        return "mastra"
    if kind in _AI_SDK_TYPES:
        return "ai_sdk"
    if kind in _LEGACY_WORKFLOW and isinstance(data.get("payload"), dict):
        return "legacy_workflow"
    if kind in _AI_SDK_SHARED and "payload" not in data:
        return "ai_sdk"
    if "payload" in data or kind in ("object", "object-result"):
        return "mastra"
    return None


def _described(event: Any) -> str:
    """What an unrecognized event is, for the error that names it."""
    if isinstance(event, dict):
        keys = ", ".join(map(str, list(event)[:6]))
        return f"a dict with keys {keys}" if keys else "an empty dict"
    if isinstance(event, str):
        return f"text starting {event[:40]!r}"
    kind = type(event)
    return f"a {kind.__module__}.{kind.__qualname__}"


class _Unknown(StreamAdapter):
    """Keeps every event of an unrecognized stream as a ``raw`` chunk."""

    format_name = "unknown"

    def handle(self, event: Any) -> None:
        if isinstance(event, (bytes, bytearray)):
            event = bytes(event).decode("utf-8", "replace")
        self.writer.start()
        self.writer.raw(
            {
                "format": "unknown",
                "event": event,
                "problem": f"no adapter recognizes this stream ({_described(event)})",
            }
        )


class AutoAdapter(StreamAdapter):
    """Chooses an adapter from the first events, then delegates everything to it."""

    format_name = "auto"

    def __init__(
        self,
        run_id: str | None = None,
        *,
        format: str | None = None,
        transport: str | None = None,
        inner: StreamAdapter | None = None,
    ) -> None:
        super().__init__(run_id)
        self._run_id = run_id
        self._forced = format
        self.inner: StreamAdapter | None = inner
        """The adapter in use, once chosen (or given)."""
        self.transport: str | None = transport
        """``sse``, ``records``, ``data_stream_v4`` or ``events`` once known (or given)."""
        self._sse: SSEParser | None = None
        self._records: RecordSplitter | None = None
        self._head = ""
        self._pending: list[Any] = []
        self.events_seen = 0
        """How many events (SSE events, records or items) reached the adapter."""

    def _choose(self, event: Any) -> StreamAdapter:
        if self.inner is None:
            name = self._forced or detect(event)
            self.inner = (
                ADAPTERS[name](self._run_id) if name in ADAPTERS else _Unknown(self._run_id)
            )
        return self.inner

    def handle(self, event: Any) -> None:
        """Not used: :meth:`feed` takes every event and hands it to the chosen adapter."""
        raise NotImplementedError  # feed() is overridden

    def feed(self, event: Any) -> list[Chunk]:
        """Chunks for one event. The first text or bytes piece settles the transport (SSE,
        records, v4 lines; a short piece is held until that can be told), the first event the
        format; from then on events go to the chosen adapter."""
        if self.transport is None:
            if isinstance(event, (bytes, bytearray, str)):
                self._head += (
                    event
                    if isinstance(event, str)
                    else bytes(event[:256]).decode("utf-8", "ignore")
                )
                kind = detect_text(self._head)
                if kind is None and len(self._head) < 64 and "\n" not in self._head:
                    self._pending.append(event)
                    return []
                self.transport = kind or "events"
                pieces, self._pending = [*self._pending, event], []
                out: list[Chunk] = []
                for piece in pieces:
                    out += self._feed_text(piece)
                return out
            self.transport = "events"
        if self.transport == "events":
            self.events_seen += 1
            return self._choose(event).feed(event)
        return self._feed_text(event)

    def passes(self, event: Any) -> bool:
        """An event the chosen adapter passes through, once the stream is known to be events."""
        inner = self.inner
        if self.transport == "events" and inner is not None and inner.passes(event):
            self.events_seen += 1
            return True
        return False

    def relay(
        self, advance: Callable[[], Any], tally: Callable[[int], None] | None = None
    ) -> Relay:
        """The chosen adapter's relay itself once the stream is known to be events (a relay of
        a relay would be one more generator to resume per event), each event it passes counted
        here too."""
        inner = self.inner
        if self.transport != "events" or inner is None:
            return super().relay(advance, tally)

        def counted(relayed: int) -> None:
            self.events_seen += relayed
            if tally is not None:
                tally(relayed)

        return inner.relay(advance, counted)

    def _feed_text(self, piece: Any) -> list[Chunk]:
        if isinstance(piece, bytearray):
            piece = bytes(piece)
        if not isinstance(piece, (bytes, str)):
            return self._choose(piece).feed(piece)
        out: list[Chunk] = []
        if self.transport == "sse":
            self._sse = self._sse or SSEParser()
            for event in self._sse.feed(piece):
                self.events_seen += 1
                out += self._choose(event).feed(event)
        elif self.transport == "records":
            self._records = self._records or RecordSplitter()
            for ok, value in self._records.feed(piece):
                record = value if ok else {"unparsed": value}
                self.events_seen += 1
                out += self._choose(record).feed(record)
        elif self.transport == "data_stream_v4":
            # Text pieces of a wire may split lines: hand them over as bytes to be buffered.
            raw = piece.encode("utf-8") if isinstance(piece, str) else piece
            out += self._choose(("0", "")).feed(raw)
        else:
            out += self._choose(piece).feed(piece)
        return out

    def end(self) -> list[Chunk]:
        """Chunks that close the stream: pieces still held are fed, what the transport still
        buffers is flushed (an ``error`` chunk when it stopped mid-event or mid-record), then the
        chosen adapter ends."""
        out: list[Chunk] = []
        pieces, self._pending = self._pending, []
        for piece in pieces:
            self.transport = detect_text(self._head) or "events"
            out += self._feed_text(piece)
        inner = self.inner or _Unknown(self._run_id)
        if self._sse is not None:
            out += [c for e in self._sse.close() for c in inner.feed(e)]
            if self._sse.incomplete:
                inner.writer.error(
                    {
                        "message": "the SSE stream ended in the middle of an event, after "
                        f"{self._sse.events_dispatched} complete events"
                    }
                )
                out += inner.writer.drain()
        if self._records is not None:
            rest = self._records.close()
            if rest:
                inner.writer.error(
                    {
                        "message": "the stream ended in the middle of a JSON record after "
                        f"{self._records.records} records",
                        "partial": rest[:200],
                    }
                )
                out += inner.writer.drain()
        if self.inner is not None:
            out += self.inner.end()
        return out

    def fail(self, exc: BaseException) -> list[Chunk]:
        """The chosen adapter's report of the source raising ``exc`` (an unknown-format one when
        none was chosen yet)."""
        return (self.inner or _Unknown(self._run_id)).fail(exc)

    def stop(self, error: dict[str, Any]) -> list[Chunk]:
        """End the stream now with ``error`` (open parts closed), e.g. when a transport broke."""
        inner = self.inner or self._choose({})
        inner.writer.error(error)
        return inner.writer.drain()

    @property
    def mid_event(self) -> bool:
        """Whether the transport holds a partly received event or record."""
        return bool(
            (self._sse and self._sse.incomplete)
            or (self._records and self._records.pending.strip())
        )


@overload
def adapt(source: AsyncIterable[Any], format: str | None = None) -> AsyncIterator[Chunk]: ...
@overload
def adapt(source: Iterable[Any], format: str | None = None) -> Iterator[Chunk]: ...
def adapt(
    source: Iterable[Any] | AsyncIterable[Any], format: str | None = None
) -> Iterator[Chunk] | AsyncIterator[Chunk]:
    """Mastra chunks for any supported stream; ``format`` skips detection (see :data:`ADAPTERS`)."""
    if format is not None and format not in ADAPTERS:
        raise ValueError(f"unknown format {format!r}; known: {', '.join(ADAPTERS)}")
    return AutoAdapter(format=format).stream(source)
