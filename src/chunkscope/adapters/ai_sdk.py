"""Adapter for the AI SDK v5 UI message stream (what ``@mastra/ai-sdk`` sends to a browser).

``toAISdkV5Stream`` and ``chatRoute`` turn a Mastra stream into AI SDK UI message chunks
(``start``, ``start-step``, ``text-*``, ``reasoning-*``, ``tool-input-*``, ``tool-output-*``,
``source-*``, ``file``, ``data-*``, ``finish-step``, ``finish``, ``abort``, ``error``),
framed over HTTP as ``data: <json>`` server-sent events ending with ``data: [DONE]``.
Accepted here: the chunk dicts, or the SSE events. The mapping back to Mastra:

* field names go back to Mastra's: ``delta`` → ``payload.text``, ``inputTextDelta`` →
  ``argsTextDelta``, ``input`` → ``args``, ``output`` → ``result``, ``mediaType`` →
  ``mimeType``, ``errorText`` → ``error.message`` (a JSON ``errorText``, as Mastra sends for
  tool failures, is parsed and kept whole);
* ``tool-output-*`` chunks carry no tool name: it is taken from the call;
* the UI stream has no per-step finish reason and no usage: a step that called tools
  ends with ``tool-calls``, a step with an ``error`` with ``error``, others with ``stop``;
  ``finish`` uses ``finishReason`` when the stream gives one;
* ``data-*`` chunks pass through unchanged (``transient`` kept); other chunk types become
  ``raw``. A stream with neither ``finish`` nor ``error`` nor ``abort`` was cut short and
  ends with an ``error`` chunk.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, overload

from ._base import StreamAdapter, as_dict, on
from ._events import sse_json
from ._json import JSON, parse_json_text
from ._writer import Chunk, finish_reason


def error_from_text(error_text: object) -> dict[str, JSON]:
    """An ``error`` record from an ``errorText`` (parsed when it is JSON)."""
    text = str(error_text) if error_text is not None else "unknown error"
    ok, value = parse_json_text(text)
    if ok and isinstance(value, dict):
        cause = value.get("cause")
        message = value.get("message") or (
            cause.get("message") if isinstance(cause, dict) else None
        )
        details = value.get("details")
        if not message and isinstance(details, dict):
            message = details.get("errorMessage")
        return {**value, "message": str(message or text)}
    return {"message": text}


_DATA_FIELDS = frozenset({"type", "data", "id", "transient"})
"""The fields of a Mastra data chunk."""


class AISdkAdapter(StreamAdapter):
    """AI SDK v5 UI message chunks → Mastra chunks."""

    format_name = "ai-sdk-ui"

    def __init__(self, run_id: str | None = None) -> None:
        super().__init__(run_id)
        self._fixed_run_id = run_id is not None
        self._ended = False
        self._step_tools = False
        self._step_error = False

    def handle(self, event: Any) -> None:
        """One UI message chunk (a dict or an SSE event) as Mastra chunks: ``[DONE]`` adds
        nothing, ``data-*`` parts pass through and chunk types without a handler go ``raw``."""
        value = sse_json(event)
        if value == "[DONE]":
            return
        chunk = as_dict(value)
        kind = chunk.get("type") if chunk else None
        if chunk is None or not isinstance(kind, str):
            self.writer.raw({"format": self.format_name, "event": value})
            return
        if kind.startswith("data-"):
            self._data_part(kind, chunk)
            return
        handler = self.HANDLERS.get(kind)
        if handler is None:
            self.writer.raw({"format": self.format_name, "event": chunk})
            return
        handler(self, chunk)

    def _data_part(self, kind: str, chunk: dict[str, Any]) -> None:
        """A ``data-*`` part as Mastra's bare data chunk; fields it has no place for go raw."""
        data_id, transient = chunk.get("id"), chunk.get("transient")
        if (
            set(chunk) <= _DATA_FIELDS
            and "data" in chunk
            and isinstance(data_id, (str, type(None)))
            and isinstance(transient, (bool, type(None)))
        ):
            self.writer.passthrough(chunk)
            return
        self.writer.data(
            kind[len("data-") :],
            chunk.get("data"),
            data_id if isinstance(data_id, str) else None,
            transient if isinstance(transient, bool) else None,
        )
        self.writer.raw(
            {"format": self.format_name, "event": chunk, "problem": "data part not in Mastra shape"}
        )

    def finalize(self) -> None:
        """Close open parts; a stream that never sent ``finish``, ``abort`` or ``error`` was cut
        short, and an ``error`` chunk says so."""
        if not self._ended and not self.writer.errored:
            self.writer.error(
                {"message": "the UI message stream ended without `finish`: it was cut short"}
            )
        self.writer.close_parts()

    @on("start")
    def _start(self, chunk: dict[str, Any]) -> None:
        if not self._fixed_run_id and not self.writer.started and chunk.get("messageId"):
            self.writer.run_id = str(chunk["messageId"])
        self.writer.start(
            messageId=chunk.get("messageId"), messageMetadata=chunk.get("messageMetadata")
        )

    @on("start-step")
    def _start_step(self, chunk: dict[str, Any]) -> None:
        self._step_tools = self._step_error = False
        self.writer.step_start()

    @on("finish-step")
    def _finish_step(self, chunk: dict[str, Any]) -> None:
        reason = "error" if self._step_error else "tool-calls" if self._step_tools else "stop"
        self.writer.step_finish(reason)

    @on("finish")
    def _finish(self, chunk: dict[str, Any]) -> None:
        self._ended = True
        raw = chunk.get("finishReason")
        self.writer.finish(
            finish_reason(raw) if raw else None,
            metadata={"messageMetadata": chunk.get("messageMetadata")}
            if chunk.get("messageMetadata")
            else None,
        )

    @on("abort")
    def _abort(self, chunk: dict[str, Any]) -> None:
        self._ended = True
        self.writer.abort(**{k: v for k, v in chunk.items() if k != "type"})

    @on("error")
    def _error(self, chunk: dict[str, Any]) -> None:
        self._step_error = True
        self.writer.error(error_from_text(chunk.get("errorText")))

    @on("message-metadata")
    def _message_metadata(self, chunk: dict[str, Any]) -> None:
        self.writer.raw({"format": self.format_name, "event": chunk})

    # -- text and reasoning -----------------------------------------------------------------

    @on("text-start")
    def _text_start(self, chunk: dict[str, Any]) -> None:
        self.writer.open_text(str(chunk.get("id")), chunk.get("providerMetadata"))

    @on("text-delta")
    def _text_delta(self, chunk: dict[str, Any]) -> None:
        self.writer.text(
            str(chunk.get("delta") or ""), str(chunk.get("id")), chunk.get("providerMetadata")
        )

    @on("text-end")
    def _text_end(self, chunk: dict[str, Any]) -> None:
        self.writer.end_text()

    @on("reasoning-start")
    def _reasoning_start(self, chunk: dict[str, Any]) -> None:
        self.writer.open_reasoning(str(chunk.get("id")), chunk.get("providerMetadata"))

    @on("reasoning-delta")
    def _reasoning_delta(self, chunk: dict[str, Any]) -> None:
        self.writer.reasoning(
            str(chunk.get("delta") or ""), str(chunk.get("id")), chunk.get("providerMetadata")
        )

    @on("reasoning-end")
    def _reasoning_end(self, chunk: dict[str, Any]) -> None:
        self.writer.end_reasoning()

    # -- tools ------------------------------------------------------------------------------

    @on("tool-input-start")
    def _tool_input_start(self, chunk: dict[str, Any]) -> None:
        self._step_tools = True
        self.writer.tool_input_start(
            str(chunk.get("toolCallId")),
            str(chunk.get("toolName") or ""),
            providerExecuted=chunk.get("providerExecuted"),
            dynamic=chunk.get("dynamic"),
        )

    @on("tool-input-delta")
    def _tool_input_delta(self, chunk: dict[str, Any]) -> None:
        self.writer.tool_input_delta(
            str(chunk.get("toolCallId")), str(chunk.get("inputTextDelta") or "")
        )

    @on("tool-input-available")
    def _tool_input_available(self, chunk: dict[str, Any]) -> None:
        self._step_tools = True
        self.writer.tool_call(
            str(chunk.get("toolCallId")),
            str(chunk.get("toolName") or ""),
            chunk.get("input"),
            providerExecuted=chunk.get("providerExecuted"),
            providerMetadata=chunk.get("providerMetadata"),
        )

    @on("tool-input-error")
    def _tool_input_error(self, chunk: dict[str, Any]) -> None:
        call_id = str(chunk.get("toolCallId"))
        self.writer.tool_call(call_id, str(chunk.get("toolName") or ""), chunk.get("input"))
        self.writer.tool_error(
            call_id, chunk.get("toolName"), error_from_text(chunk.get("errorText"))
        )

    @on("tool-output-available")
    def _tool_output_available(self, chunk: dict[str, Any]) -> None:
        self.writer.tool_result(
            str(chunk.get("toolCallId")),
            None,
            chunk.get("output"),
            providerExecuted=chunk.get("providerExecuted"),
            preliminary=chunk.get("preliminary"),
        )

    @on("tool-output-error")
    def _tool_output_error(self, chunk: dict[str, Any]) -> None:
        self.writer.tool_error(
            str(chunk.get("toolCallId")),
            None,
            error_from_text(chunk.get("errorText")),
            providerExecuted=chunk.get("providerExecuted"),
        )

    # -- sources and files ------------------------------------------------------------------

    @on("source-url")
    def _source_url(self, chunk: dict[str, Any]) -> None:
        self.writer.source(
            str(chunk.get("sourceId")),
            "url",
            str(chunk.get("title") or chunk.get("url") or ""),
            url=chunk.get("url"),
            providerMetadata=chunk.get("providerMetadata"),
        )

    @on("source-document")
    def _source_document(self, chunk: dict[str, Any]) -> None:
        self.writer.source(
            str(chunk.get("sourceId")),
            "document",
            str(chunk.get("title") or ""),
            mimeType=chunk.get("mediaType"),
            filename=chunk.get("filename"),
            providerMetadata=chunk.get("providerMetadata"),
        )

    @on("file")
    def _file(self, chunk: dict[str, Any]) -> None:
        self.writer.file(
            str(chunk.get("url") or ""),
            str(chunk.get("mediaType") or "application/octet-stream"),
            providerMetadata=chunk.get("providerMetadata"),
        )


@overload
def from_ai_sdk(source: AsyncIterable[Any]) -> AsyncIterator[Chunk]: ...
@overload
def from_ai_sdk(source: Iterable[Any]) -> Iterator[Chunk]: ...
def from_ai_sdk(
    source: Iterable[Any] | AsyncIterable[Any],
) -> Iterator[Chunk] | AsyncIterator[Chunk]:
    """Mastra chunks for an AI SDK v5 UI message stream (sync or async)."""
    return AISdkAdapter().stream(source)


def convert_ai_sdk(events: Iterable[Any]) -> list[Chunk]:
    """Convert a whole list of UI message chunks."""
    return AISdkAdapter().convert(events)
