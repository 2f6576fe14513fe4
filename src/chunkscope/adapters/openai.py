"""Adapter for OpenAI Python SDK streams: Chat Completions chunks and Responses events.

Accepted: the SDK's objects (``ChatCompletionChunk``, ``Response*Event``), their dicts, or
the raw server-sent events (:class:`~chunkscope.adapters.sse_parser.SSEEvent`, ``data: [DONE]``
included). One adapter handles both APIs; each event says which it belongs to.

Chat Completions: one stream is one step. ``delta.content`` is text,
``delta.reasoning_content`` (or ``reasoning``; servers such as DeepSeek and vLLM send it)
is reasoning, ``delta.refusal`` is text marked ``providerMetadata.openai.refusal``; tool
calls stream by ``index`` (id and name only in the first delta of each index); the
finish reason arrives before the final usage chunk (``choices: []``), so ``step-finish``
and ``finish`` are emitted at ``[DONE]`` or at the end of the stream. Choices other
than index 0 are kept as ``raw``.

Responses: ``response.created`` starts the run and its one step; output text, reasoning
summary and reasoning text deltas are keyed by item id (and content / summary index);
function-call argument deltas carry only the item id, so the ``call_id`` and name are
remembered from ``response.output_item.added``; URL and file citations become ``source``;
``response.completed`` / ``response.incomplete`` give the finish reason and usage;
``response.failed`` and ``error`` become ``error``. Events that only repeat what the
deltas already carried (``*.done``, ``content_part.*``, ``summary_part.*``) add nothing;
other events become ``raw``. A stream that ends without its final event was cut short
and ends with an ``error`` chunk.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, overload

from ._base import StreamAdapter, as_dict, on
from ._events import sse_json
from ._json import parse_json_text
from ._writer import Chunk, finish_reason, make_usage

#: Event types of the SDK's chat stream helper that repeat what its ``chunk`` events carry.
_CHAT_HELPER_EVENTS = ("content.", "refusal.", "tool_calls.function.arguments.", "logprobs.")

_REDUNDANT = {
    "response.output_text.done",
    "response.content_part.added",
    "response.content_part.done",
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_part.done",
    "response.reasoning_summary_text.done",
    "response.reasoning_text.done",
    "response.refusal.done",
    "response.function_call_arguments.done",
}
_INCOMPLETE_REASONS = {"max_output_tokens": "length", "content_filter": "content-filter"}


def chat_usage(raw: object) -> dict[str, int] | None:
    """Mastra usage from a Chat Completions ``usage`` record."""
    if not isinstance(raw, dict):
        return None
    prompt = raw.get("prompt_tokens_details") or {}
    completion = raw.get("completion_tokens_details") or {}
    return make_usage(
        raw.get("prompt_tokens"),
        raw.get("completion_tokens"),
        raw.get("total_tokens"),
        completion.get("reasoning_tokens") if isinstance(completion, dict) else None,
        prompt.get("cached_tokens") if isinstance(prompt, dict) else None,
    )


def responses_usage(raw: object) -> dict[str, int] | None:
    """Mastra usage from a Responses ``usage`` record."""
    if not isinstance(raw, dict):
        return None
    inp = raw.get("input_tokens_details") or {}
    out = raw.get("output_tokens_details") or {}
    return make_usage(
        raw.get("input_tokens"),
        raw.get("output_tokens"),
        raw.get("total_tokens"),
        out.get("reasoning_tokens") if isinstance(out, dict) else None,
        inp.get("cached_tokens") if isinstance(inp, dict) else None,
    )


class OpenAIAdapter(StreamAdapter):
    """OpenAI Chat Completions chunks or Responses events → Mastra chunks."""

    format_name = "openai"

    def __init__(self, run_id: str | None = None) -> None:
        super().__init__(run_id)
        self._fixed_run_id = run_id is not None
        self._ended = False
        self._chat_reason: str | None = None
        self._chat_usage: dict[str, int] | None = None
        self._chat_model: str | None = None
        self._chat_calls: dict[int, str] = {}
        self._chat_args: dict[str, str] = {}
        self._items: dict[str, tuple[str, str]] = {}
        self._response_called_tools = False

    def handle(self, event: Any) -> None:
        """One Chat Completions chunk or Responses event (SDK object, dict or SSE event);
        ``[DONE]`` ends the chat step and run, and what is neither goes ``raw``. Of the
        events the SDK's ``chat.completions.stream()`` helper yields, the ``chunk`` ones carry
        the chunks; the others are derived from them and are skipped."""
        kind = event.get("type") if isinstance(event, dict) else getattr(event, "type", None)
        if kind == "chunk":
            event = event.get("chunk") if isinstance(event, dict) else getattr(event, "chunk", None)
        elif isinstance(kind, str) and kind.startswith(_CHAT_HELPER_EVENTS):
            return
        value = sse_json(event)
        if value == "[DONE]":
            self._chat_done()
            return
        data = as_dict(value)
        if data is None:
            self.writer.raw({"format": self.format_name, "event": value})
        elif data.get("object") == "chat.completion.chunk" or "choices" in data:
            self._chat(data)
        elif isinstance(data.get("type"), str):
            self._response_event(data)
        else:
            self.writer.raw({"format": self.format_name, "event": data})

    def finalize(self) -> None:
        """End a chat stream that stopped without ``[DONE]`` after its finish reason, then close
        open parts; a stream without its final event gets an ``error`` chunk."""
        if self._chat_reason is not None and not self._ended:
            self._chat_done()
        if not self._ended and not self.writer.errored:
            self.writer.error(
                {"message": "the OpenAI stream ended before its final event: it was cut short"}
            )
        self.writer.close_parts()

    def _claim(self, run_id: object) -> None:
        if (
            not self.writer.started
            and not self._fixed_run_id
            and isinstance(run_id, str)
            and run_id
        ):
            self.writer.run_id = run_id

    # -- Chat Completions -------------------------------------------------------------------

    def _chat(self, chunk: dict[str, Any]) -> None:
        if not self.writer.started:
            self._claim(chunk.get("id"))
            self.writer.start(model=chunk.get("model"), id=chunk.get("id"))
            self.writer.step_start(message_id=chunk.get("id"))
        self._chat_model = chunk.get("model") or self._chat_model
        if chunk.get("usage"):
            self._chat_usage = chat_usage(chunk["usage"])
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict):
                continue
            if choice.get("index", 0) != 0:
                self.writer.raw(
                    {"format": self.format_name, "choice": choice, "id": chunk.get("id")}
                )
                continue
            self._chat_delta(choice.get("delta") or {}, str(chunk.get("id") or "message"))
            if choice.get("finish_reason"):
                self._chat_reason = choice["finish_reason"]
                self._chat_tool_calls()

    def _chat_delta(self, delta: dict[str, Any], part: str) -> None:
        reasoning = delta.get("reasoning_content") or delta.get("reasoning")
        if isinstance(reasoning, str) and reasoning:
            self.writer.reasoning(reasoning, part_id=f"{part}:reasoning")
        if isinstance(delta.get("content"), str) and delta["content"]:
            self.writer.end_reasoning()
            self.writer.text(delta["content"], part_id=part)
        if isinstance(delta.get("refusal"), str) and delta["refusal"]:
            self.writer.text(
                delta["refusal"],
                part_id=f"{part}:refusal",
                provider_metadata={"openai": {"refusal": True}},
            )
        for call in delta.get("tool_calls") or []:
            if not isinstance(call, dict):
                continue
            index = int(call.get("index") or 0)
            function = call.get("function") or {}
            call_id = self._chat_calls.get(index)
            if call_id is None:
                call_id = str(call.get("id") or self.writer.new_id("call"))
                self._chat_calls[index] = call_id
                self._chat_args[call_id] = ""
                self.writer.tool_input_start(call_id, str(function.get("name") or ""))
            args = function.get("arguments")
            if isinstance(args, str) and args:
                self._chat_args[call_id] += args
                self.writer.tool_input_delta(call_id, args)

    def _chat_tool_calls(self) -> None:
        self.writer.close_parts()
        for index in sorted(self._chat_calls):
            call_id = self._chat_calls[index]
            ok, args = parse_json_text(self._chat_args.get(call_id) or "{}")
            self.writer.tool_call(
                call_id, self.writer.tool_names.get(call_id, ""), args if ok else {"_raw": args}
            )
        self._chat_calls.clear()

    def _chat_done(self) -> None:
        if self._ended:
            return
        if self._chat_reason is None:
            self.writer.error({"message": "the chat stream sent [DONE] before any finish_reason"})
            self._ended = True
            return
        self._ended = True
        reason = finish_reason(self._chat_reason)
        metadata = {"modelId": self._chat_model}
        self.writer.step_finish(reason, self._chat_usage, metadata, raw_reason=self._chat_reason)
        self.writer.finish(reason, metadata=metadata)

    # -- Responses --------------------------------------------------------------------------

    def _response_event(self, event: dict[str, Any]) -> None:
        kind: str = event["type"]
        if kind in _REDUNDANT:
            return
        handler = self.HANDLERS.get(kind)
        if handler is None:
            if not self.writer.started:
                self.writer.start()
            self.writer.raw({"format": self.format_name, "event": event})
            return
        handler(self, event)

    def _ensure_response(self, response: dict[str, Any] | None = None) -> None:
        if not self.writer.started:
            response = response or {}
            self._claim(response.get("id"))
            self.writer.start(model=response.get("model"), id=response.get("id"))
            self.writer.step_start(message_id=response.get("id"))

    @on("response.created")
    def _r_response_created(self, event: dict[str, Any]) -> None:
        self._ensure_response(event.get("response") or {})

    @on("response.output_item.added")
    def _r_response_output_item_added(self, event: dict[str, Any]) -> None:
        self._ensure_response()
        item = event.get("item") or {}
        if item.get("type") == "function_call":
            call_id = str(item.get("call_id") or item.get("id") or self.writer.new_id("call"))
            name = str(item.get("name") or "")
            self._items[str(item.get("id"))] = (call_id, name)
            self._response_called_tools = True
            self.writer.tool_input_start(
                call_id, name, providerMetadata={"openai": {"itemId": item.get("id")}}
            )
            if item.get("arguments"):
                self.writer.tool_input_delta(call_id, str(item["arguments"]))
        elif item.get("type") not in ("message", "reasoning"):
            self.writer.raw({"format": self.format_name, "event": event})

    @on("response.output_text.delta")
    def _r_response_output_text_delta(self, event: dict[str, Any]) -> None:
        self._ensure_response()
        self.writer.end_reasoning()
        part = f"{event.get('item_id')}:{event.get('content_index', 0)}"
        self.writer.text(str(event.get("delta") or ""), part_id=part)

    @on("response.refusal.delta")
    def _r_response_refusal_delta(self, event: dict[str, Any]) -> None:
        self._ensure_response()
        part = f"{event.get('item_id')}:refusal"
        self.writer.text(
            str(event.get("delta") or ""),
            part_id=part,
            provider_metadata={"openai": {"refusal": True}},
        )

    @on("response.reasoning_summary_text.delta")
    def _r_response_reasoning_summary_text_delta(self, event: dict[str, Any]) -> None:
        self._ensure_response()
        part = f"{event.get('item_id')}:summary:{event.get('summary_index', 0)}"
        self.writer.reasoning(str(event.get("delta") or ""), part_id=part)

    @on("response.reasoning_text.delta")
    def _r_response_reasoning_text_delta(self, event: dict[str, Any]) -> None:
        self._ensure_response()
        part = f"{event.get('item_id')}:reasoning:{event.get('content_index', 0)}"
        self.writer.reasoning(str(event.get("delta") or ""), part_id=part)

    @on("response.function_call_arguments.delta")
    def _r_response_function_call_arguments_delta(self, event: dict[str, Any]) -> None:
        self._ensure_response()
        item_id = str(event.get("item_id"))
        call_id, _ = self._items.get(item_id, (item_id, ""))
        self.writer.tool_input_delta(call_id, str(event.get("delta") or ""))

    @on("response.output_text.annotation.added")
    def _r_response_output_text_annotation_added(self, event: dict[str, Any]) -> None:
        annotation = event.get("annotation") or {}
        source_id = f"{event.get('item_id')}:{event.get('annotation_index', 0)}"
        if annotation.get("type") == "url_citation":
            self.writer.source(
                source_id,
                "url",
                str(annotation.get("title") or annotation.get("url") or ""),
                url=annotation.get("url"),
                providerMetadata={"openai": annotation},
            )
        elif annotation.get("type") in ("file_citation", "container_file_citation", "file_path"):
            filename = annotation.get("filename") or annotation.get("file_id")
            self.writer.source(
                source_id,
                "document",
                str(filename or ""),
                filename=filename,
                providerMetadata={"openai": annotation},
            )
        else:
            self.writer.raw({"format": self.format_name, "event": event})

    @on("response.output_item.done")
    def _r_response_output_item_done(self, event: dict[str, Any]) -> None:
        item = event.get("item") or {}
        kind = item.get("type")
        if kind == "function_call":
            call_id, name = self._items.get(
                str(item.get("id")), (str(item.get("call_id") or ""), "")
            )
            ok, args = parse_json_text(str(item.get("arguments") or "{}"))
            self.writer.tool_call(
                str(item.get("call_id") or call_id),
                str(item.get("name") or name),
                args if ok else {"_raw": args},
            )
        elif kind == "message":
            self.writer.end_text()
        elif kind == "reasoning":
            self.writer.end_reasoning(item.get("encrypted_content"))
        else:
            self.writer.raw({"format": self.format_name, "event": event})

    def _response_finish(self, event: dict[str, Any], reason: str) -> None:
        response = event.get("response") or {}
        self._ensure_response(response)
        self._ended = True
        usage = responses_usage(response.get("usage"))
        metadata = {
            "modelId": response.get("model"),
            "responseId": response.get("id"),
            "status": response.get("status"),
        }
        self.writer.step_finish(reason, usage, metadata)
        self.writer.finish(reason, metadata=metadata)

    @on("response.completed")
    def _r_response_completed(self, event: dict[str, Any]) -> None:
        self._response_finish(event, "tool-calls" if self._response_called_tools else "stop")

    @on("response.incomplete")
    def _r_response_incomplete(self, event: dict[str, Any]) -> None:
        details = (event.get("response") or {}).get("incomplete_details") or {}
        self._response_finish(event, _INCOMPLETE_REASONS.get(str(details.get("reason")), "other"))

    @on("response.failed")
    def _r_response_failed(self, event: dict[str, Any]) -> None:
        response = event.get("response") or {}
        error = response.get("error") or {}
        self._ensure_response(response)
        self._ended = True
        self.writer.error(
            {
                "message": str(error.get("message") or "the response failed"),
                "code": error.get("code"),
                "responseId": response.get("id"),
            }
        )

    @on("error")
    def _r_error(self, event: dict[str, Any]) -> None:
        self._ensure_response()
        self._ended = True
        self.writer.error(
            {
                "message": str(event.get("message") or "the API reported an error"),
                "code": event.get("code"),
                "param": event.get("param"),
            }
        )


@overload
def from_openai(source: AsyncIterable[Any]) -> AsyncIterator[Chunk]: ...
@overload
def from_openai(source: Iterable[Any]) -> Iterator[Chunk]: ...
def from_openai(
    source: Iterable[Any] | AsyncIterable[Any],
) -> Iterator[Chunk] | AsyncIterator[Chunk]:
    """Mastra chunks for an OpenAI chat or responses stream (sync or async)."""
    return OpenAIAdapter().stream(source)


def convert_openai(events: Iterable[Any]) -> list[Chunk]:
    """Convert a whole list of OpenAI stream events."""
    return OpenAIAdapter().convert(events)
