"""Adapters for Mastra's legacy streams: the AI SDK v4 data stream and legacy workflow events.

**AI SDK v4 data stream** (``agent.streamLegacy()`` over HTTP, header
``x-vercel-ai-data-stream: v1``): one ``<code>:<json>`` line per part. Codes: ``f`` step
start, ``0`` text, ``g`` reasoning, ``i`` redacted reasoning, ``j`` reasoning signature,
``h`` source, ``k`` file, ``2`` data, ``8`` message annotations, ``3`` error, ``9`` tool
call, ``a`` tool result, ``b`` tool-call streaming start, ``c`` tool-call args delta,
``e`` step finish, ``d`` message finish. Accepted: text lines (one or more whole lines per
item), ``(code, value)`` pairs, or bytes split anywhere (buffered into lines, UTF-8 decoded
incrementally). ``2:`` becomes
``data-v4`` and ``8:`` ``data-v4-annotations``; usage ``{promptTokens, completionTokens}``
becomes Mastra usage. Without a ``d:`` line the stream was cut short (an ``error`` chunk).

**Legacy workflow events** (``start``, ``step-start``, ``step-result``, ``step-finish``,
``step-suspended``, ``step-waiting``, ``step-output``, ``finish``: the names before the
``workflow-`` prefix) become the matching ``workflow-*`` chunks with ``from: "WORKFLOW"``;
``finish`` gets a ``workflowStatus`` worked out from the step results when it has none.
"""

from __future__ import annotations

import codecs
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, overload

from ._base import StreamAdapter, as_dict, on
from ._json import parse_json_text, to_jsonable
from ._writer import Chunk, finish_reason, make_usage

DATA_STREAM_HEADER = "x-vercel-ai-data-stream"
"""The response header that marks an AI SDK v4 data stream (value ``v1``)."""

DATA_STREAM_CODES = frozenset("0123456789abcdefghijk")
"""Part codes of the v4 data stream protocol."""

_TEXT_CODES = frozenset("0g")
"""Codes whose value is text: a value of another kind is kept as a raw chunk."""


def v4_usage(raw: object) -> dict[str, int] | None:
    """Mastra usage from a v4 ``{promptTokens, completionTokens}`` record."""
    if not isinstance(raw, dict):
        return None
    return make_usage(raw.get("promptTokens"), raw.get("completionTokens"), raw.get("totalTokens"))


class DataStreamV4Adapter(StreamAdapter):
    """AI SDK v4 data stream lines → Mastra chunks."""

    format_name = "ai-sdk-v4-data-stream"

    def __init__(self, run_id: str | None = None) -> None:
        super().__init__(run_id)
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._ended = False

    def handle(self, event: Any) -> None:
        """Bytes (buffered into lines), whole text lines or a ``(code, value)`` pair as Mastra
        chunks; anything else goes ``raw``."""
        if isinstance(event, (bytes, bytearray)):
            # Bytes are pieces of the wire, split anywhere: buffer until a newline.
            self._buffer += self._decoder.decode(bytes(event))
            *lines, self._buffer = self._buffer.split("\n")
            for line in lines:
                self._line(line)
        elif isinstance(event, str):
            # Text items are whole lines (with or without their newline).
            for line in event.split("\n"):
                self._line(line)
        elif isinstance(event, tuple) and len(event) == 2:
            self._part(str(event[0]), to_jsonable(event[1]), f"{event[0]}:{event[1]!r}")
        else:
            self.writer.raw({"format": self.format_name, "event": event})

    def finalize(self) -> None:
        """Read the last buffered line, then close open parts; without a ``d:`` finish line the
        stream was cut short (an ``error`` chunk)."""
        tail = self._buffer + self._decoder.decode(b"", final=True)
        self._buffer = ""
        if tail.strip():
            self._line(tail)
        if not self._ended and not self.writer.errored:
            self.writer.error(
                {"message": "the data stream ended without its `d:` finish line: it was cut short"}
            )
        self.writer.close_parts()

    def _line(self, line: str) -> None:
        line = line.rstrip("\r")
        if not line.strip():
            return
        code, sep, rest = line.partition(":")
        ok, value = parse_json_text(rest) if sep else (False, line)
        if not ok or code not in DATA_STREAM_CODES:
            self.writer.raw(
                {"format": self.format_name, "line": line, "problem": "not a `<code>:<json>` line"}
            )
            return
        self._part(code, value, line)

    def _part(self, code: str, value: Any, line: str) -> None:
        handler = self.HANDLERS.get(code)
        if handler is None or (code in _TEXT_CODES and not isinstance(value, str)):
            self.writer.raw({"format": self.format_name, "line": line})
            return
        handler(self, value, value if isinstance(value, dict) else {})

    # One handler per part code of the v4 protocol; ``body`` is the value when it is a
    # record, else empty.

    @on("f")
    def _step_start(self, value: Any, body: dict[str, Any]) -> None:
        self.writer.step_start(message_id=body.get("messageId"))

    @on("0")
    def _text(self, value: Any, body: dict[str, Any]) -> None:
        self.writer.end_reasoning()
        self.writer.text(value)

    @on("g")
    def _reasoning(self, value: Any, body: dict[str, Any]) -> None:
        self.writer.reasoning(value)

    @on("j")
    def _reasoning_signature(self, value: Any, body: dict[str, Any]) -> None:
        self.writer.end_reasoning(body.get("signature"))

    @on("h")
    def _source(self, value: Any, body: dict[str, Any]) -> None:
        writer = self.writer
        writer.source(
            str(body.get("id") or writer.new_id("source")),
            str(body.get("sourceType") or "url"),
            str(body.get("title") or body.get("url") or ""),
            url=body.get("url"),
            providerMetadata=body.get("providerMetadata"),
        )

    @on("k")
    def _file(self, value: Any, body: dict[str, Any]) -> None:
        self.writer.file(
            str(body.get("data") or ""), str(body.get("mimeType") or "application/octet-stream")
        )

    @on("2")
    def _data(self, value: Any, body: dict[str, Any]) -> None:
        self.writer.data("v4", value)

    @on("8")
    def _annotations(self, value: Any, body: dict[str, Any]) -> None:
        self.writer.data("v4-annotations", value)

    @on("3")
    def _error(self, value: Any, body: dict[str, Any]) -> None:
        self.writer.error({"message": str(value)})

    @on("9")
    def _tool_call(self, value: Any, body: dict[str, Any]) -> None:
        self.writer.tool_call(
            str(body.get("toolCallId")), str(body.get("toolName") or ""), body.get("args")
        )

    @on("a")
    def _tool_result(self, value: Any, body: dict[str, Any]) -> None:
        self.writer.tool_result(
            str(body.get("toolCallId")), body.get("toolName"), body.get("result")
        )

    @on("b")
    def _tool_input_start(self, value: Any, body: dict[str, Any]) -> None:
        self.writer.tool_input_start(str(body.get("toolCallId")), str(body.get("toolName") or ""))

    @on("c")
    def _tool_input_delta(self, value: Any, body: dict[str, Any]) -> None:
        self.writer.tool_input_delta(
            str(body.get("toolCallId")), str(body.get("argsTextDelta") or "")
        )

    @on("e")
    def _step_finish(self, value: Any, body: dict[str, Any]) -> None:
        writer = self.writer
        if not writer.step_open:
            writer.step_start()
        writer.step_finish(
            finish_reason(body.get("finishReason")),
            v4_usage(body.get("usage")),
            {"isContinued": body.get("isContinued")},
        )

    @on("d")
    def _finish(self, value: Any, body: dict[str, Any]) -> None:
        self._ended = True
        reason = finish_reason(body.get("finishReason")) if body.get("finishReason") else None
        self.writer.finish(reason, v4_usage(body.get("usage")))


_WORKFLOW_EVENTS = {
    "start": "workflow-start",
    "step-start": "workflow-step-start",
    "step-result": "workflow-step-result",
    "step-finish": "workflow-step-finish",
    "step-suspended": "workflow-step-suspended",
    "step-waiting": "workflow-step-waiting",
    "step-output": "workflow-step-output",
    "step-progress": "workflow-step-progress",
    "finish": "workflow-finish",
    "canceled": "workflow-canceled",
    "paused": "workflow-paused",
}
"""Legacy workflow event names and the ``workflow-*`` chunk types they became."""


class LegacyWorkflowAdapter(StreamAdapter):
    """Legacy (un-prefixed) workflow events → ``workflow-*`` chunks."""

    format_name = "mastra-legacy-workflow"

    def __init__(self, run_id: str | None = None) -> None:
        super().__init__(run_id)
        self.writer.from_ = "WORKFLOW"
        self._fixed_run_id = run_id is not None
        self._statuses: dict[str, str] = {}
        self._claimed = False

    def handle(self, event: Any) -> None:
        """One legacy event as its ``workflow-*`` chunk (a ``finish`` without a status gets one
        from the step results); ``workflow-*`` and ``data-*`` chunks pass through."""
        data = as_dict(event)
        kind = data.get("type") if data else None
        if data is None or not isinstance(kind, str):
            self.writer.raw({"format": self.format_name, "event": event})
            return
        payload = data.get("payload")
        payload = dict(payload) if isinstance(payload, dict) else {}
        run_id = data.get("runId") or payload.get("runId")
        if not self._claimed and not self._fixed_run_id and isinstance(run_id, str) and run_id:
            self.writer.run_id = run_id
            self._claimed = True
        if kind.startswith(("workflow-", "data-")):
            self.writer.passthrough(data)
            return
        target = _WORKFLOW_EVENTS.get(kind)
        if target is None:
            self.writer.raw({"format": self.format_name, "event": data})
            return
        if kind == "step-result" and isinstance(payload.get("id"), str):
            self._statuses[payload["id"]] = str(payload.get("status") or "")
        if kind == "finish" and "workflowStatus" not in payload:
            payload["workflowStatus"] = self._status()
        self.writer.emit(target, to_jsonable(payload))

    def _status(self) -> str:
        statuses = set(self._statuses.values())
        for status in ("failed", "suspended", "waiting", "canceled"):
            if status in statuses:
                return status
        return "success"


@overload
def from_data_stream_v4(source: AsyncIterable[Any]) -> AsyncIterator[Chunk]: ...
@overload
def from_data_stream_v4(source: Iterable[Any]) -> Iterator[Chunk]: ...
def from_data_stream_v4(
    source: Iterable[Any] | AsyncIterable[Any],
) -> Iterator[Chunk] | AsyncIterator[Chunk]:
    """Mastra chunks for an AI SDK v4 data stream (lines, or bytes split anywhere)."""
    return DataStreamV4Adapter().stream(source)


def convert_data_stream_v4(lines: Iterable[Any]) -> list[Chunk]:
    """Convert a whole v4 data stream."""
    return DataStreamV4Adapter().convert(lines)


@overload
def from_legacy_workflow(source: AsyncIterable[Any]) -> AsyncIterator[Chunk]: ...
@overload
def from_legacy_workflow(source: Iterable[Any]) -> Iterator[Chunk]: ...
def from_legacy_workflow(
    source: Iterable[Any] | AsyncIterable[Any],
) -> Iterator[Chunk] | AsyncIterator[Chunk]:
    """``workflow-*`` chunks for legacy workflow events."""
    return LegacyWorkflowAdapter().stream(source)


def convert_legacy_workflow(events: Iterable[Any]) -> list[Chunk]:
    """Convert a whole list of legacy workflow events."""
    return LegacyWorkflowAdapter().convert(events)
