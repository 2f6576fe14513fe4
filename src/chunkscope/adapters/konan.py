"""Adapter for the Konan LLM chat API's streaming events (LangChain-style ``on_*`` SSE).

The service sends ``event: <name>`` + ``data: <flat JSON>`` frames:
``on_chat_model_start/stream/end``, ``on_chain_start/stream/end``, ``on_tool_start/end``,
``on_custom_event``, ``done`` and ``error``. The mapping onto Mastra chunks:

* the top-level chain (``parent_id: null``) is the run: its id becomes ``runId`` and its
  start becomes ``start``; ``done`` becomes ``finish`` (reason of the last model call,
  usage summed over model calls); a stream that ends without ``done`` was cut short and
  ends with an ``error`` chunk saying so;
* each chat-model call is one step: ``step-start`` … ``step-finish`` with the call's
  ``finish_reason`` and ``usage_metadata``; ``content`` is text and
  ``additional_kwargs.reasoning_content`` is reasoning;
* nested chains (agents called by agents) become ``data-chain`` chunks keyed by the chain
  id (``status`` running → done, with ``parentId``), and ``on_chain_stream`` progress text
  becomes ``data-progress`` chunks: they are status lines, not part of the answer;
* tools become ``tool-call`` / ``tool-result`` (the event ``id`` is the ``toolCallId``);
  retriever results (``[{cid, content, page, title, url, uuid}]``) also become ``source``
  chunks;
* ``on_custom_event`` becomes ``data-<name>`` (``data-custom`` when it names none);
* ``error`` becomes ``error`` with ``payload.error = {message, finishReason}``;
* anything else becomes ``raw`` with the original event.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, overload

from ._base import StreamAdapter, on
from ._events import named_event
from ._writer import Chunk, finish_reason, make_usage


class KonanAdapter(StreamAdapter):
    """Konan LLM chat API streaming events → Mastra chunks."""

    format_name = "konan-sse"

    def __init__(self, run_id: str | None = None) -> None:
        super().__init__(run_id)
        self._fixed_run_id = run_id is not None
        self._done = False

    def handle(self, event: Any) -> None:
        """One named SSE event to the handler of its name (data that is not an object is taken as
        ``content``); an event name without a handler goes ``raw`` with its data."""
        name, data = named_event(event)
        body: dict[str, Any] = data if isinstance(data, dict) else {"content": data}
        handler = self.HANDLERS.get(name)
        if handler is None:
            self.writer.raw({"event": name, "data": data})
            return
        handler(self, body)

    def finalize(self) -> None:
        """Close open parts; without the ``done`` event the response was cut short, and an
        ``error`` chunk says so."""
        if not self._done and not self.writer.errored:
            self.writer.error(
                {"message": "the stream ended before its `done` event: the response was cut short"}
            )
        self.writer.close_parts()

    # -- run and chains ---------------------------------------------------------------------

    def _claim_run(self, body: dict[str, Any]) -> None:
        if not self.writer.started and not self._fixed_run_id:
            run_id = body.get("id") if body.get("parent_id") is None else body.get("parent_id")
            if isinstance(run_id, str) and run_id:
                self.writer.run_id = run_id

    @on("on_chain_start")
    def _on_on_chain_start(self, body: dict[str, Any]) -> None:
        if body.get("parent_id") is None and not self.writer.started:
            self._claim_run(body)
            self.writer.start(name=body.get("name"), id=body.get("id"), time=body.get("time"))
            return
        self._claim_run(body)
        self.writer.start()
        self.writer.data("chain", self._chain_data(body, "running"), data_id=body.get("id"))

    @on("on_chain_stream")
    def _on_on_chain_stream(self, body: dict[str, Any]) -> None:
        self._claim_run(body)
        self.writer.start()
        progress = {
            "text": body.get("content"),
            "name": body.get("name"),
            "chainId": body.get("id"),
            "parentId": body.get("parent_id"),
        }
        self.writer.data("progress", progress)

    @on("on_chain_end")
    def _on_on_chain_end(self, body: dict[str, Any]) -> None:
        if body.get("parent_id") is None:
            self.writer.raw({"event": "on_chain_end", "data": body})
            return
        self.writer.data("chain", self._chain_data(body, "done"), data_id=body.get("id"))

    @staticmethod
    def _chain_data(body: dict[str, Any], status: str) -> dict[str, Any]:
        return {
            "name": body.get("name"),
            "status": status,
            "parentId": body.get("parent_id"),
            "time": body.get("time"),
        }

    # -- model calls ------------------------------------------------------------------------

    @on("on_chat_model_start")
    def _on_on_chat_model_start(self, body: dict[str, Any]) -> None:
        self._claim_run(body)
        self.writer.step_start(
            message_id=body.get("id"), parentId=body.get("parent_id"), time=body.get("time")
        )

    @on("on_chat_model_stream")
    def _on_on_chat_model_stream(self, body: dict[str, Any]) -> None:
        self._claim_run(body)
        part = str(body.get("id") or "message")
        extra = body.get("additional_kwargs")
        reasoning = extra.get("reasoning_content") if isinstance(extra, dict) else None
        if isinstance(reasoning, str) and reasoning:
            self.writer.reasoning(reasoning, part_id=f"{part}:reasoning")
        content = body.get("content")
        if isinstance(content, str) and content:
            self.writer.end_reasoning()
            self.writer.text(content, part_id=part)
        elif content not in (None, ""):
            self.writer.raw({"event": "on_chat_model_stream", "data": body})

    @on("on_chat_model_end")
    def _on_on_chat_model_end(self, body: dict[str, Any]) -> None:
        raw_usage = body.get("usage_metadata")
        usage = None
        if isinstance(raw_usage, dict):
            in_details = raw_usage.get("input_token_details") or {}
            out_details = raw_usage.get("output_token_details") or {}
            usage = make_usage(
                raw_usage.get("input_tokens"),
                raw_usage.get("output_tokens"),
                raw_usage.get("total_tokens"),
                out_details.get("reasoning") if isinstance(out_details, dict) else None,
                in_details.get("cache_read") if isinstance(in_details, dict) else None,
            )
        raw_reason = body.get("finish_reason")
        metadata = {
            "modelId": body.get("model"),
            "id": body.get("id"),
            "time": body.get("time"),
            "usageMetadata": raw_usage,
        }
        if not self.writer.step_open:
            self.writer.step_start(message_id=body.get("id"))
        self.writer.step_finish(
            finish_reason(raw_reason or "stop"), usage, metadata, raw_reason=raw_reason, defer=True
        )

    # -- tools ------------------------------------------------------------------------------

    @on("on_tool_start")
    def _on_on_tool_start(self, body: dict[str, Any]) -> None:
        self._claim_run(body)
        call_id = str(body.get("id") or self.writer.new_id("tool"))
        args = body.get("input", body.get("args", {}))
        self.writer.tool_call(
            call_id,
            str(body.get("name") or ""),
            args if args is not None else {},
            providerMetadata={
                "konan": {"parentId": body.get("parent_id"), "time": body.get("time")}
            },
        )

    @on("on_tool_end")
    def _on_on_tool_end(self, body: dict[str, Any]) -> None:
        call_id = str(body.get("id") or "")
        name = str(body.get("name") or self.writer.tool_names.get(call_id, ""))
        if call_id not in self.writer.tool_names:
            self.writer.tool_call(call_id or self.writer.new_id("tool"), name, {})
        content = body.get("content")
        self.writer.tool_result(call_id, name, content)
        if isinstance(content, list):
            for item in content:
                self._source(item)

    def _source(self, item: object) -> None:
        if not isinstance(item, dict) or not ({"url", "cid", "uuid"} & item.keys()):
            return
        url = item.get("url")
        title = str(item.get("title") or url or item.get("cid") or "").strip()
        self.writer.source(
            str(item.get("cid") or item.get("uuid") or url),
            "url" if url else "document",
            title,
            url=url,
            providerMetadata={
                "konan": {k: item.get(k) for k in ("cid", "uuid", "page", "content") if k in item}
            },
        )

    # -- custom events, end and errors ------------------------------------------------------

    @on("on_custom_event")
    def _on_on_custom_event(self, body: dict[str, Any]) -> None:
        name = body.get("name")
        if isinstance(name, str) and name:
            data = (
                body["data"] if "data" in body else {k: v for k, v in body.items() if k != "name"}
            )
            self.writer.data(name, data, data_id=body.get("id"))
        else:
            self.writer.data("custom", body)

    @on("done")
    def _on_done(self, body: dict[str, Any]) -> None:
        self._done = True
        self.writer.finish("error" if self.writer.errored else None)

    @on("error")
    def _on_error(self, body: dict[str, Any]) -> None:
        message = body.get("content") or body.get("message") or "the service reported an error"
        self.writer.error(
            {"message": str(message), "finishReason": body.get("finish_reason", "error")}
        )


@overload
def from_konan(source: AsyncIterable[Any]) -> AsyncIterator[Chunk]: ...
@overload
def from_konan(source: Iterable[Any]) -> Iterator[Chunk]: ...
def from_konan(
    source: Iterable[Any] | AsyncIterable[Any],
) -> Iterator[Chunk] | AsyncIterator[Chunk]:
    """Mastra chunks for Konan LLM chat API events (SSE events, ``{event, data}`` dicts, pairs)."""
    return KonanAdapter().stream(source)


def convert_konan(events: Iterable[Any]) -> list[Chunk]:
    """Convert a whole list of Konan LLM chat API events."""
    return KonanAdapter().convert(events)
