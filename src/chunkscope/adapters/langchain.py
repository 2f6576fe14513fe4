"""Adapter for LangChain ``astream_events(version="v2")`` streams (langchain-core, LangGraph).

Events arrive as the library yields them (dicts holding message objects) or as their JSON
dumps; both are handled. The mapping onto Mastra chunks:

* the root run (the event with no ``parent_ids``) is the Mastra run: its ``run_id`` is the
  ``runId``, its start is ``start``, its end is ``finish`` (reason of the last model call,
  usage summed over model calls, as Mastra sums steps);
* each chat-model call is one step. Answer text comes **only** from
  ``on_chat_model_stream`` (parsers and enclosing chains repeat the same text); reasoning
  comes from ``additional_kwargs.reasoning_content`` or ``reasoning``/``thinking`` content
  blocks; a model that did not stream gets its text from ``on_chat_model_end``;
* tool calls stream from ``tool_call_chunks`` (id and name only in the first chunk of each
  ``index``) as ``tool-call-input-streaming-start`` / ``tool-call-delta``; the parsed call
  from ``on_chat_model_end`` becomes ``tool-call``; the step's finish reason and usage come
  from the end event's message (falling back to the last chunks);
* ``on_tool_start`` carries no tool-call id, so it is matched to a call: through the
  enclosing LangGraph ``tools`` node input (``tool_call.id``) when there is one, otherwise
  the first unanswered call with the same tool name; ``on_tool_end`` becomes
  ``tool-result`` (``tool-error`` when the ToolMessage has ``status: "error"``) and
  ``on_tool_error`` becomes ``tool-error``;
* a step is one model call and the tools it asked for: a tool the chain runs itself after
  the model answered joins that call's step, and one that runs before any model call joins
  the first step, so neither makes up a step (and leaves the answer in an earlier one);
* ``on_custom_event`` becomes ``data-<name>``; retriever documents also become ``source``;
* chains, prompts, parsers and other events keep their place in the stream as ``raw``
  chunks (the original event), so nested chains stay visible in the inspector without
  repeating the answer text;
* a run that raises ends as a Mastra run that threw does: ``error`` (open parts closed), the
  ``step-finish`` of the step it stopped (reason ``error``; a model call that had finished
  keeps its reason and usage), then ``finish`` with reason ``error`` and the usage of the
  model calls that finished; the exception is re-raised.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, overload

from ._base import StreamAdapter, as_dict, on
from ._json import exception_info, parse_json_text, to_jsonable
from ._writer import Chunk, finish_reason, make_usage

_TEXT_BLOCKS = {"text", "text_delta", "output_text"}
_REASONING_BLOCKS = {"reasoning": "reasoning", "thinking": "thinking"}


@dataclass
class _ModelCall:
    """What one chat-model run has streamed so far."""

    streamed_text: bool = False
    streamed_reasoning: bool = False
    calls_by_index: dict[Any, str] = field(default_factory=dict)
    call_order: list[str] = field(default_factory=list)
    call_args: dict[str, str] = field(default_factory=dict)
    call_names: dict[str, str] = field(default_factory=dict)
    usage: dict[str, Any] | None = None
    finish_reason: str | None = None
    model_name: str | None = None


def _message(value: object) -> dict[str, Any]:
    """A message as a dict (LangChain's ``lc`` constructor dumps are unwrapped)."""
    data = as_dict(value) or {}
    if data.get("lc") == 1 and isinstance(data.get("kwargs"), dict):
        kwargs = dict(data["kwargs"])
        ident = data.get("id")
        kwargs.setdefault("type", ident[-1] if isinstance(ident, list) and ident else None)
        return kwargs
    return data


def langchain_usage(raw: object) -> dict[str, int] | None:
    """A LangChain ``usage_metadata`` as a Mastra usage record (None when there is none)."""
    if not isinstance(raw, dict):
        return None
    inp = raw.get("input_token_details") or {}
    out = raw.get("output_token_details") or {}
    return make_usage(
        raw.get("input_tokens"),
        raw.get("output_tokens"),
        raw.get("total_tokens"),
        out.get("reasoning") if isinstance(out, dict) else None,
        inp.get("cache_read") if isinstance(inp, dict) else None,
    )


def _sum_raw_usage(a: dict[str, Any] | None, b: dict[str, Any]) -> dict[str, Any]:
    if a is None:
        return dict(b)
    merged = dict(a)
    for key in ("input_tokens", "output_tokens", "total_tokens"):
        if isinstance(b.get(key), int):
            merged[key] = (merged.get(key) or 0) + b[key]
    return merged


def end_raised_run(adapter: StreamAdapter, exc: BaseException) -> list[Chunk]:
    """The chunks that end ``adapter``'s run after its stream raised ``exc``: the ``error``,
    then the step's and the run's finish, so the usage of the model calls that finished
    before the failure still reaches the run's total, as it does in Mastra."""
    info = exception_info(exc)
    info["message"] = f"{adapter.format_name} stream raised {info['name']}: {info['message']}"
    adapter.writer.error_and_finish(info)
    return adapter.writer.drain()


class LangChainAdapter(StreamAdapter):
    """``astream_events(version="v2")`` events → Mastra chunks."""

    format_name = "langchain"

    def __init__(self, run_id: str | None = None) -> None:
        super().__init__(run_id)
        self._fixed_run_id = run_id is not None
        self._root: str | None = None
        self._root_ended = False
        self._models: dict[str, _ModelCall] = {}
        self._pending_calls: list[tuple[str, str]] = []
        self._chain_tool_calls: dict[str, str] = {}
        self._tool_runs: dict[str, str] = {}
        # Tool events that came before any model call: no step to hold them yet.
        self._early_tools: list[dict[str, Any]] = []

    # -- dispatch ---------------------------------------------------------------------------

    def handle(self, event: Any) -> None:
        """One ``astream_events`` event: the first without ``parent_ids`` starts the run and the
        root run's ``*_end`` finishes it; events without a handler are kept as ``raw``."""
        if not isinstance(event, dict) or not isinstance(event.get("event"), str):
            self.writer.raw({"format": self.format_name, "event": event})
            return
        kind: str = event["event"]
        run_id = str(event.get("run_id") or "")
        parents = event.get("parent_ids") or []
        if self._root is None and not parents:
            self._root = run_id
            if not self._fixed_run_id and run_id:
                self.writer.run_id = run_id
            self.writer.start(name=event.get("name"), event=kind)
        if kind.startswith("on_tool_") and not self._models and not self._root_ended:
            # A step is one model call and the tools it asked for: a tool that runs before
            # any model call waits for the first step rather than making one up.
            self._early_tools.append(event)
            return
        handler = self.HANDLERS.get(kind)
        if handler is None:
            self._keep_raw(event)
        else:
            handler(self, event, run_id)
        if run_id and run_id == self._root and kind.endswith("_end") and not self._root_ended:
            self._flush_early_tools()
            self._root_ended = True
            self.writer.finish()

    def _flush_early_tools(self) -> None:
        early, self._early_tools = self._early_tools, []
        for event in early:
            handler = self.HANDLERS.get(event["event"])
            if handler is None:
                self._keep_raw(event)
            else:
                handler(self, event, str(event.get("run_id") or ""))

    def finalize(self) -> None:
        """Close open parts, with an ``error`` chunk when the root run started but never ended."""
        self._flush_early_tools()
        if self._root is not None and not self._root_ended and not self.writer.errored:
            self.writer.error(
                {"message": f"the event stream ended before its root run {self._root} ended"}
            )
        self.writer.close_parts()

    def fail(self, exc: BaseException) -> list[Chunk]:
        """End the run that raised ``exc`` as Mastra ends a run that threw (tools that ran
        before any model call are shown first: the failure may be theirs)."""
        self._flush_early_tools()
        return end_raised_run(self, exc)

    def _keep_raw(self, event: dict[str, Any]) -> None:
        self.writer.raw({k: event.get(k) for k in event})

    # -- chat models ------------------------------------------------------------------------

    @on("on_chat_model_start", "on_llm_start")
    def _on_chat_model_start(self, event: dict[str, Any], run_id: str) -> None:
        meta = event.get("metadata") or {}
        self._models[run_id] = _ModelCall(model_name=meta.get("ls_model_name"))
        self.writer.step_start(
            message_id=run_id,
            request={"input": event.get("data", {}).get("input")},
            name=event.get("name"),
        )
        self._flush_early_tools()

    def _model(self, run_id: str) -> _ModelCall:
        if run_id not in self._models:
            self._models[run_id] = _ModelCall()
            self.writer.step_start(message_id=run_id)
        return self._models[run_id]

    @on("on_chat_model_stream")
    def _on_chat_model_stream(self, event: dict[str, Any], run_id: str) -> None:
        call = self._model(run_id)
        chunk = _message((event.get("data") or {}).get("chunk"))
        extra = chunk.get("additional_kwargs") or {}
        reasoning = extra.get("reasoning_content") if isinstance(extra, dict) else None
        if isinstance(reasoning, str) and reasoning:
            call.streamed_reasoning = True
            self.writer.reasoning(reasoning, part_id=f"{run_id}:reasoning")
        self._content(chunk.get("content"), run_id, call)
        for piece in chunk.get("tool_call_chunks") or []:
            if isinstance(piece, dict):
                self._tool_call_chunk(piece, call)
        usage = chunk.get("usage_metadata")
        if isinstance(usage, dict):
            call.usage = _sum_raw_usage(call.usage, usage)
        meta = chunk.get("response_metadata") or {}
        if isinstance(meta, dict):
            call.finish_reason = (
                meta.get("finish_reason") or meta.get("stop_reason") or call.finish_reason
            )
            call.model_name = meta.get("model_name") or meta.get("model") or call.model_name

    @on("on_llm_stream")
    def _on_llm_stream(self, event: dict[str, Any], run_id: str) -> None:
        call = self._model(run_id)
        chunk = (event.get("data") or {}).get("chunk")
        data = as_dict(chunk)
        text = data.get("text") if data is not None else chunk
        if isinstance(text, str) and text:
            call.streamed_text = True
            self.writer.text(text, part_id=run_id)

    def _content(self, content: object, run_id: str, call: _ModelCall) -> None:
        if isinstance(content, str):
            if content:
                call.streamed_text = True
                self.writer.end_reasoning()
                self.writer.text(content, part_id=run_id)
            return
        if not isinstance(content, list):
            return
        for block in content:
            if isinstance(block, str):
                self._content(block, run_id, call)
                continue
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind in _TEXT_BLOCKS and isinstance(block.get("text"), str):
                self._content(block["text"], run_id, call)
            elif kind in _REASONING_BLOCKS:
                text = block.get(_REASONING_BLOCKS[kind]) or ""
                summary = block.get("summary")
                if not text and isinstance(summary, list):
                    text = "".join(s.get("text", "") for s in summary if isinstance(s, dict))
                if isinstance(text, str) and text:
                    call.streamed_reasoning = True
                    self.writer.reasoning(text, part_id=f"{run_id}:reasoning")
            elif kind in ("tool_call_chunk", "tool_use", "input_json_delta"):
                continue
            else:
                self.writer.raw({"event": "on_chat_model_stream", "contentBlock": block})

    def _tool_call_chunk(self, piece: dict[str, Any], call: _ModelCall) -> None:
        index = piece.get("index")
        key = index if index is not None else piece.get("id")
        call_id = call.calls_by_index.get(key) if key is not None else None
        if call_id is None:
            call_id = str(piece.get("id") or self.writer.new_id("call"))
            call.calls_by_index[key if key is not None else call_id] = call_id
            call.call_order.append(call_id)
            call.call_names[call_id] = str(piece.get("name") or "")
            call.call_args[call_id] = ""
            self.writer.tool_input_start(call_id, call.call_names[call_id])
        args = piece.get("args")
        if isinstance(args, str) and args:
            call.call_args[call_id] += args
            self.writer.tool_input_delta(call_id, args)

    @on("on_chat_model_end", "on_llm_end")
    def _on_chat_model_end(self, event: dict[str, Any], run_id: str) -> None:
        call = self._model(run_id)
        data = event.get("data") or {}
        output = _message(data.get("output"))
        if "generations" in output:
            output = self._first_generation(output)
        if not call.streamed_reasoning:
            extra = output.get("additional_kwargs") or {}
            reasoning = extra.get("reasoning_content") if isinstance(extra, dict) else None
            if isinstance(reasoning, str):
                self.writer.reasoning(reasoning, part_id=f"{run_id}:reasoning")
        if not call.streamed_text:
            content = output.get("content")
            if isinstance(content, (str, list)):
                self._content(content, run_id, call)
        self.writer.close_parts()
        called = self._emit_tool_calls(output, call)
        meta = output.get("response_metadata") or {}
        raw_reason = (
            (meta.get("finish_reason") or meta.get("stop_reason"))
            if isinstance(meta, dict)
            else None
        )
        raw_reason = raw_reason or call.finish_reason
        if raw_reason is None:
            reason = "tool-calls" if called else "stop"
        else:
            reason = finish_reason(raw_reason)
        usage = langchain_usage(output.get("usage_metadata")) or langchain_usage(call.usage)
        model = (meta.get("model_name") if isinstance(meta, dict) else None) or call.model_name
        self.writer.step_finish(
            reason,
            usage,
            {
                "modelId": model,
                "runId": run_id,
                "name": event.get("name"),
            },
            raw_reason=raw_reason,
            defer=True,
        )

    @staticmethod
    def _first_generation(output: dict[str, Any]) -> dict[str, Any]:
        generations = output.get("generations")
        if isinstance(generations, list) and generations and isinstance(generations[0], list):
            first = generations[0][0] if generations[0] else {}
            if isinstance(first, dict):
                message = first.get("message")
                return _message(message) if message else {"content": first.get("text", "")}
        return {}

    def _emit_tool_calls(self, output: dict[str, Any], call: _ModelCall) -> bool:
        final_calls = [c for c in output.get("tool_calls") or [] if isinstance(c, dict)]
        emitted: set[str] = set()
        for position, tool_call in enumerate(final_calls):
            streamed = call.call_order[position] if position < len(call.call_order) else None
            call_id = str(tool_call.get("id") or streamed or self.writer.new_id("call"))
            if streamed and streamed != call_id:
                self.writer.tool_input_end(streamed)
            name = str(tool_call.get("name") or call.call_names.get(call_id, ""))
            self.writer.tool_call(call_id, name, tool_call.get("args") or {})
            self._pending_calls.append((call_id, name))
            emitted.add(call_id)
            if streamed:
                emitted.add(streamed)
        for invalid in output.get("invalid_tool_calls") or []:
            if not isinstance(invalid, dict):
                continue
            call_id = str(invalid.get("id") or self.writer.new_id("call"))
            name = str(invalid.get("name") or "")
            self.writer.tool_call(call_id, name, {}, invalidArgs=invalid.get("args"))
            self.writer.tool_error(
                call_id,
                name,
                {
                    "message": str(
                        invalid.get("error") or "the model sent arguments that are not valid JSON"
                    ),
                    "args": invalid.get("args"),
                },
            )
            emitted.add(call_id)
        for call_id in call.call_order:
            if call_id not in emitted:
                ok, args = parse_json_text(call.call_args.get(call_id) or "{}")
                self.writer.tool_call(
                    call_id, call.call_names.get(call_id, ""), args if ok else {"_raw": args}
                )
                self._pending_calls.append((call_id, call.call_names.get(call_id, "")))
                emitted.add(call_id)
        return bool(emitted)

    # -- tools ------------------------------------------------------------------------------

    @on("on_chain_start")
    def _on_chain_start(self, event: dict[str, Any], run_id: str) -> None:
        payload = (event.get("data") or {}).get("input")
        if isinstance(payload, dict):
            tool_call = payload.get("tool_call")
            if isinstance(tool_call, dict) and tool_call.get("id"):
                self._chain_tool_calls[run_id] = str(tool_call["id"])
        if run_id != self._root:
            self._keep_raw(event)

    @on("on_chain_end")
    def _on_chain_end(self, event: dict[str, Any], run_id: str) -> None:
        self._chain_tool_calls.pop(run_id, None)
        if run_id != self._root:
            self._keep_raw(event)

    def _match_call(self, event: dict[str, Any], run_id: str) -> str | None:
        data = event.get("data") or {}
        name = str(event.get("name") or "")
        explicit = data.get("tool_call_id")
        inp = data.get("input")
        if not explicit and isinstance(inp, dict):
            explicit = inp.get("tool_call_id") or (
                inp.get("id") if inp.get("type") == "tool_call" else None
            )
        if not explicit:
            for parent in reversed(event.get("parent_ids") or []):
                if parent in self._chain_tool_calls:
                    explicit = self._chain_tool_calls[parent]
                    break
        if explicit:
            explicit = str(explicit)
            self._pending_calls = [p for p in self._pending_calls if p[0] != explicit]
            return explicit
        for position, (call_id, call_name) in enumerate(self._pending_calls):
            if call_name == name:
                del self._pending_calls[position]
                return call_id
        return None

    @on("on_tool_start")
    def _on_tool_start(self, event: dict[str, Any], run_id: str) -> None:
        name = str(event.get("name") or "")
        call_id = self._match_call(event, run_id)
        if call_id is None or call_id not in self.writer.tool_names:
            call_id = call_id or self.writer.new_id("call")
            self.writer.tool_call(call_id, name, (event.get("data") or {}).get("input") or {})
        self._tool_runs[run_id] = call_id

    def _tool_call_id(self, event: dict[str, Any], run_id: str) -> str:
        if run_id in self._tool_runs:
            return self._tool_runs.pop(run_id)
        call_id = self._match_call(event, run_id) or self.writer.new_id("call")
        if call_id not in self.writer.tool_names:
            self.writer.tool_call(
                call_id, str(event.get("name") or ""), (event.get("data") or {}).get("input") or {}
            )
        return call_id

    @on("on_tool_end")
    def _on_tool_end(self, event: dict[str, Any], run_id: str) -> None:
        call_id = self._tool_call_id(event, run_id)
        name = str(event.get("name") or "")
        output = (event.get("data") or {}).get("output")
        message = _message(output) if not isinstance(output, (str, int, float, list)) else {}
        if message.get("type") == "tool" or message.get("tool_call_id"):
            content = message.get("content")
            artifact = message.get("artifact")
            if message.get("status") == "error":
                self.writer.tool_error(call_id, name, {"message": str(content)})
            else:
                self.writer.tool_result(call_id, name, content, artifact=artifact)
        else:
            self.writer.tool_result(call_id, name, output)

    @on("on_tool_error")
    def _on_tool_error(self, event: dict[str, Any], run_id: str) -> None:
        call_id = self._tool_call_id(event, run_id)
        error = (event.get("data") or {}).get("error")
        record = to_jsonable(error)
        if not isinstance(record, dict):
            record = {"message": str(record)}
        self.writer.tool_error(call_id, str(event.get("name") or ""), record)

    # -- custom events and retrievers -------------------------------------------------------

    @on("on_custom_event")
    def _on_custom_event(self, event: dict[str, Any], run_id: str) -> None:
        name = event.get("name")
        self.writer.data(name if isinstance(name, str) and name else "custom", event.get("data"))

    @on("on_retriever_end")
    def _on_retriever_end(self, event: dict[str, Any], run_id: str) -> None:
        self._keep_raw(event)
        output = (event.get("data") or {}).get("output")
        documents = output.get("documents") if isinstance(output, dict) else output
        for item in documents if isinstance(documents, list) else []:
            doc = _message(item)
            meta = doc.get("metadata") or {}
            url = meta.get("url") or meta.get("source")
            is_url = isinstance(url, str) and url.startswith(("http://", "https://", "/"))
            text = str(doc.get("page_content") or "")
            title = str(meta.get("title") or meta.get("source") or text[:60])
            self.writer.source(
                str(doc.get("id") or self.writer.new_id("source")),
                "url" if is_url else "document",
                title,
                url=url if is_url else None,
                providerMetadata={"langchain": {"metadata": meta, "page_content": text}},
            )


@overload
def from_langchain(source: AsyncIterable[Any]) -> AsyncIterator[Chunk]: ...
@overload
def from_langchain(source: Iterable[Any]) -> Iterator[Chunk]: ...
def from_langchain(
    source: Iterable[Any] | AsyncIterable[Any],
) -> Iterator[Chunk] | AsyncIterator[Chunk]:
    """Mastra chunks for ``astream_events(version="v2")`` events (sync or async)."""
    return LangChainAdapter().stream(source)


def convert_langchain(events: Iterable[Any]) -> list[Chunk]:
    """Convert a whole list of ``astream_events`` events."""
    return LangChainAdapter().convert(events)
