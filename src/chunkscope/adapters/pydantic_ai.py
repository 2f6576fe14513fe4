"""Adapter for pydantic-ai ``Agent.run_stream_events()`` streams.

Events arrive as pydantic-ai's dataclasses or as their JSON dumps (both carry the
``event_kind`` / ``part_kind`` / ``part_delta_kind`` discriminators). The mapping:

* ``part_start`` / ``part_delta`` / ``part_end`` become ``text-*``, ``reasoning-*`` (thinking
  parts, with their signature on ``reasoning-end``) and
  ``tool-call-input-streaming-start`` / ``tool-call-delta``; the first content arrives
  inside ``part_start`` and is emitted as the first delta. Tool arguments may arrive as
  string pieces, one whole string or a dict (a dict is shown as its JSON text); the
  ``part_end`` of a tool-call part gives the final arguments for ``tool-call``;
* part indexes restarting at 0 mark a new model response: a new Mastra step. A step that
  called tools ends with reason ``tool-calls``, otherwise ``stop``; tool results land in
  the step that called them, as in Mastra. pydantic-ai reports usage only for the whole
  run, so ``step-finish`` carries no usage and ``finish`` carries the run's usage;
* ``function_tool_result`` / ``output_tool_result`` become ``tool-result``, or
  ``tool-error`` when the tool asked for a retry (``ModelRetry``; outcome ``retried``,
  ``failed``, or a ``retry-prompt`` part) with the message sent back to the model;
* ``agent_run_result`` becomes ``finish`` (and ``object-result`` first when the output is
  structured data); ``final_result`` and event kinds without a Mastra equivalent become
  ``raw``;
* custom events (``RunContext.emit``, ``event_kind: "custom"``) become ``data-<name>`` with
  the event's payload, as pydantic-ai's own AI SDK encoding sends them: ``to_payload()`` of
  a live event, the fields beside the envelope (name, tool call, kind) of a dumped one;
* a stream without ``agent_run_result`` was cut short and ends with an ``error`` chunk; a
  run that raises ends with ``error`` and the exception is re-raised.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, overload

from ._base import StreamAdapter, as_dict, on
from ._json import parse_json_text, to_jsonable
from ._writer import Chunk, make_usage

_ERROR_OUTCOMES = {"retried", "failed", "error", "denied"}

#: What identifies and attributes a custom event, as opposed to its payload.
_CUSTOM_ENVELOPE = frozenset({"name", "tool_call_id", "tool_name", "event_kind"})


def _normalize(event: Any) -> dict[str, Any] | None:
    """The event as a dict; a run result keeps its output and usage (a property)."""
    if isinstance(event, dict):
        return event
    if getattr(event, "event_kind", None) == "agent_run_result":
        result = getattr(event, "result", None)
        usage = getattr(result, "usage", None)
        if callable(usage) and not hasattr(usage, "input_tokens"):
            usage = usage()
        return {
            "event_kind": "agent_run_result",
            "result": {
                "output": to_jsonable(getattr(result, "output", None)),
                "usage": to_jsonable(usage),
            },
        }
    return as_dict(event)


class PydanticAIAdapter(StreamAdapter):
    """``run_stream_events()`` events → Mastra chunks."""

    format_name = "pydantic-ai"

    def __init__(self, run_id: str | None = None) -> None:
        super().__init__(run_id)
        self._step = 0
        self._step_has_parts = False
        self._step_tools = False
        self._parts: dict[int, dict[str, Any]] = {}
        self._finished = False

    def handle(self, event: Any) -> None:
        """One event (dataclass or dict) to the handler of its ``event_kind``; an unknown kind or
        an unreadable event goes ``raw``."""
        to_payload = getattr(event, "to_payload", None)
        if getattr(event, "event_kind", None) == "custom" and callable(to_payload):
            # The event's own idea of its payload (a subclass may shape it).
            self._custom(getattr(event, "name", None), to_payload())
            return
        data = _normalize(event)
        kind = data.get("event_kind") if data else None
        handler = self.HANDLERS.get(kind) if isinstance(kind, str) else None
        if data is None or handler is None:
            self.writer.start()
            self.writer.raw(
                {"format": self.format_name, "event": data if data is not None else event}
            )
            return
        handler(self, data)

    def finalize(self) -> None:
        """Close open parts; without ``agent_run_result`` the stream was cut short (an ``error``
        chunk)."""
        if not self._finished and not self.writer.errored:
            self.writer.error(
                {
                    "message": "the event stream ended before the agent's run result: "
                    "it was cut short"
                }
            )
        self.writer.close_parts()

    # -- steps ------------------------------------------------------------------------------

    def _end_step(self) -> None:
        if self.writer.step_open:
            self.writer.step_finish("tool-calls" if self._step_tools else "stop")
        self._step_has_parts = False
        self._step_tools = False
        self._parts.clear()

    def _begin_part(self, index: int) -> None:
        if index == 0 and self._step_has_parts:
            self._end_step()
        if not self.writer.step_open:
            self._step += 1
            self.writer.step_start(message_id=f"response-{self._step}")
        self._step_has_parts = True

    def _part_id(self, index: int) -> str:
        return f"part-{self._step}-{index}"

    # -- parts ------------------------------------------------------------------------------

    @on("part_start")
    def _on_part_start(self, event: dict[str, Any]) -> None:
        index = int(event.get("index") or 0)
        part = event.get("part") or {}
        self._begin_part(index)
        state: dict[str, Any] = {
            "kind": part.get("part_kind"),
            "args": "",
            "name": str(part.get("tool_name") or ""),
        }
        self._parts[index] = state
        kind = part.get("part_kind")
        meta = self._provider(part)
        if kind == "text":
            self.writer.text(part.get("content") or "", self._part_id(index), meta)
        elif kind == "thinking":
            state["signature"] = part.get("signature")
            self.writer.reasoning(part.get("content") or "", self._part_id(index), meta)
        elif kind in ("tool-call", "builtin-tool-call"):
            call_id = str(part.get("tool_call_id") or self.writer.new_id("call"))
            state["id"] = call_id
            self._step_tools = True
            self.writer.tool_input_start(
                call_id,
                state["name"],
                providerExecuted=True if kind == "builtin-tool-call" else None,
            )
            self._args_piece(state, part.get("args"))
        elif kind == "builtin-tool-return":
            self.writer.tool_result(
                str(part.get("tool_call_id") or ""),
                part.get("tool_name"),
                part.get("content"),
                providerExecuted=True,
            )
        else:
            self.writer.raw({"format": self.format_name, "event": event})

    def _args_piece(self, state: dict[str, Any], args: object) -> None:
        if isinstance(args, str) and args:
            state["args"] += args
            self.writer.tool_input_delta(state["id"], args)
        elif isinstance(args, dict) and args:
            text = json.dumps(args, ensure_ascii=False)
            state["args"] = text
            self.writer.tool_input_delta(state["id"], text)

    @on("part_delta")
    def _on_part_delta(self, event: dict[str, Any]) -> None:
        index = int(event.get("index") or 0)
        delta = event.get("delta") or {}
        state = self._parts.get(index)
        kind = delta.get("part_delta_kind")
        if state is None:
            self._on_part_start(
                {
                    "index": index,
                    "part": {
                        "part_kind": "tool-call" if kind == "tool_call" else kind,
                        "tool_call_id": delta.get("tool_call_id"),
                        "tool_name": delta.get("tool_name_delta"),
                    },
                }
            )
            state = self._parts[index]
        meta = self._provider(delta)
        if kind == "text":
            self.writer.text(delta.get("content_delta") or "", self._part_id(index), meta)
        elif kind == "thinking":
            if delta.get("signature_delta"):
                state["signature"] = (state.get("signature") or "") + delta["signature_delta"]
            self.writer.reasoning(delta.get("content_delta") or "", self._part_id(index), meta)
        elif kind == "tool_call":
            if delta.get("tool_name_delta"):
                state["name"] += delta["tool_name_delta"]
            self._args_piece(state, delta.get("args_delta"))
        else:
            self.writer.raw({"format": self.format_name, "event": event})

    @on("part_end")
    def _on_part_end(self, event: dict[str, Any]) -> None:
        index = int(event.get("index") or 0)
        part = event.get("part") or {}
        state = self._parts.get(index, {})
        kind = part.get("part_kind")
        if kind == "text":
            self.writer.end_text()
        elif kind == "thinking":
            self.writer.end_reasoning(part.get("signature") or state.get("signature"))
        elif kind in ("tool-call", "builtin-tool-call"):
            call_id = str(part.get("tool_call_id") or state.get("id") or self.writer.new_id("call"))
            self._emit_call(
                call_id, part.get("tool_name") or state.get("name") or "", part.get("args"), state
            )

    def _emit_call(self, call_id: str, name: str, args: object, state: dict[str, Any]) -> None:
        if state.get("called"):
            return
        state["called"] = True
        if isinstance(args, str):
            ok, parsed = parse_json_text(args or "{}")
            args = parsed if ok else {"_raw": args}
        elif args is None:
            ok, parsed = parse_json_text(state.get("args") or "{}")
            args = parsed if ok else {"_raw": state.get("args")}
        self.writer.tool_call(call_id, name, args)

    # -- tool execution ---------------------------------------------------------------------

    @on("function_tool_call", "output_tool_call")
    def _on_function_tool_call(self, event: dict[str, Any]) -> None:
        part = event.get("part") or {}
        call_id = str(part.get("tool_call_id") or "")
        if call_id and call_id in self.writer.tool_names:
            return
        self._step_tools = True
        self._emit_call(
            call_id or self.writer.new_id("call"), part.get("tool_name") or "", part.get("args"), {}
        )

    @on("function_tool_result", "output_tool_result")
    def _on_function_tool_result(self, event: dict[str, Any]) -> None:
        part = event.get("result") or event.get("part") or {}
        call_id = str(part.get("tool_call_id") or event.get("tool_call_id") or "")
        name = part.get("tool_name")
        outcome = part.get("outcome")
        if part.get("part_kind") == "retry-prompt" or outcome in _ERROR_OUTCOMES:
            content = part.get("content")
            message = content if isinstance(content, str) else json.dumps(to_jsonable(content))
            self.writer.tool_error(
                call_id,
                name,
                {"message": message, "outcome": outcome or "retry", "retry": part.get("retry")},
            )
        else:
            extra = event.get("content")
            self.writer.tool_result(
                call_id, name, part.get("content"), metadata=part.get("metadata"), userContent=extra
            )

    # -- end of run -------------------------------------------------------------------------

    @on("custom")
    def _on_custom(self, event: dict[str, Any]) -> None:
        payload = {k: v for k, v in event.items() if k not in _CUSTOM_ENVELOPE}
        self._custom(event.get("name"), payload)

    def _custom(self, name: object, payload: object) -> None:
        if not isinstance(name, str) or not name:
            self.writer.start()
            self.writer.raw(
                {
                    "format": self.format_name,
                    "event": {"event_kind": "custom", "name": name, "payload": payload},
                    "problem": "custom event without a name",
                }
            )
            return
        self.writer.start()
        self.writer.data(name, payload)

    @on("agent_run_result")
    def _on_agent_run_result(self, event: dict[str, Any]) -> None:
        result = event.get("result") or {}
        output = result.get("output")
        self.writer.close_parts()
        if output is not None and not isinstance(output, str):
            self.writer.object_result(output)
        usage_raw = result.get("usage") if isinstance(result.get("usage"), dict) else None
        usage = None
        if usage_raw is not None:
            usage = make_usage(
                usage_raw.get("input_tokens"),
                usage_raw.get("output_tokens"),
                None,
                usage_raw.get("output_reasoning_tokens")
                or (usage_raw.get("details") or {}).get("reasoning_tokens"),
                usage_raw.get("cache_read_tokens"),
            )
        self._end_step()
        self._finished = True
        self.writer.finish(
            None,
            usage,
            {
                "requests": (usage_raw or {}).get("requests"),
                "toolCalls": (usage_raw or {}).get("tool_calls"),
            },
        )

    @staticmethod
    def _provider(item: dict[str, Any]) -> dict[str, Any] | None:
        name = item.get("provider_name")
        details = item.get("provider_details")
        if not name and not details:
            return None
        return {"pydantic-ai": {"provider": name, "details": details}}


@overload
def from_pydantic_ai(source: AsyncIterable[Any]) -> AsyncIterator[Chunk]: ...
@overload
def from_pydantic_ai(source: Iterable[Any]) -> Iterator[Chunk]: ...
def from_pydantic_ai(
    source: Iterable[Any] | AsyncIterable[Any],
) -> Iterator[Chunk] | AsyncIterator[Chunk]:
    """Mastra chunks for ``run_stream_events()`` events (sync or async)."""
    return PydanticAIAdapter().stream(source)


def convert_pydantic_ai(events: Iterable[Any]) -> list[Chunk]:
    """Convert a whole list of ``run_stream_events()`` events."""
    return PydanticAIAdapter().convert(events)
