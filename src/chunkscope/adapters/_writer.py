"""Build a coherent Mastra chunk stream from calls made by an adapter.

Every adapter translates foreign events into calls on one :class:`MastraWriter`. The writer
owns what makes a stream coherent, so each adapter does not have to: a ``start`` before the
first step, a ``step-start`` before any content, ``text-start`` / ``text-end`` around text
deltas, ``tool-call-input-streaming-end`` before the ``tool-call``, open parts closed
before ``step-finish``, ``finish``, ``error`` and ``abort``, usage summed over steps
for ``finish`` as Mastra does, and (for an adapter that asks) a run that raised ended as
Mastra ends one: ``error``, then the step's and the run's finish with the summed usage.

Chunks use Mastra's own field names (``payload.text``, ``argsTextDelta``, ``toolCallId``,
``stepResult.reason``, ``output.usage`` ...). Methods append to a buffer that the adapter
empties with :meth:`MastraWriter.drain` after each foreign event.
"""

from __future__ import annotations

import uuid
from typing import Any

from ._json import JSON, to_jsonable

Chunk = dict[str, Any]
"""One Mastra chunk: ``{type, runId, from, payload}``, or a bare ``data-*`` chunk."""

FINISH_REASONS = {
    "stop": "stop",
    "end_turn": "stop",
    "end": "stop",
    "complete": "stop",
    "completed": "stop",
    "stop_sequence": "stop",
    "length": "length",
    "max_tokens": "length",
    "max_output_tokens": "length",
    "tool_calls": "tool-calls",
    "tool-calls": "tool-calls",
    "tool_use": "tool-calls",
    "function_call": "tool-calls",
    "content_filter": "content-filter",
    "content-filter": "content-filter",
    "error": "error",
    "other": "other",
    "unknown": "unknown",
}


def finish_reason(value: object) -> str:
    """Map a foreign finish reason onto the AI SDK v5 vocabulary Mastra uses."""
    if value is None:
        return "unknown"
    text = str(value).lower()
    return FINISH_REASONS.get(text, "other")


def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def make_usage(
    input_tokens: object = None,
    output_tokens: object = None,
    total_tokens: object = None,
    reasoning_tokens: object = None,
    cached_input_tokens: object = None,
) -> dict[str, int]:
    """A Mastra usage record; the total defaults to input + output."""
    inp = _int(input_tokens) or 0
    out = _int(output_tokens) or 0
    total = _int(total_tokens)
    usage = {
        "inputTokens": inp,
        "outputTokens": out,
        "totalTokens": total if total is not None else inp + out,
    }
    if _int(reasoning_tokens) is not None:
        usage["reasoningTokens"] = _int(reasoning_tokens) or 0
    if _int(cached_input_tokens) is not None:
        usage["cachedInputTokens"] = _int(cached_input_tokens) or 0
    return usage


def add_usage(total: dict[str, int] | None, step: dict[str, int]) -> dict[str, int]:
    """Sum two usage records key by key (Mastra sums usage over steps)."""
    result = dict(total or {})
    for key, value in step.items():
        result[key] = result.get(key, 0) + value
    return result


def error_record(message: str, **extra: object) -> dict[str, JSON]:
    """The ``payload.error`` of an ``error`` chunk: a message plus whatever else is known."""
    record: dict[str, JSON] = {"message": message}
    record.update({k: to_jsonable(v) for k, v in extra.items() if v is not None})
    return record


class MastraWriter:
    """Accumulates Mastra chunks for one run and keeps the stream well formed."""

    def __init__(self, run_id: str | None = None, from_: str = "AGENT") -> None:
        self.run_id: str = run_id or str(uuid.uuid4())
        """``runId`` put on every chunk; an adapter may replace it before the first chunk."""
        self.from_: str = from_
        """``from`` put on every chunk (AGENT, USER, SYSTEM, WORKFLOW or NETWORK)."""
        self.started = False
        """Whether ``start`` was emitted."""
        self.step_open = False
        """Whether a step was started and not yet finished."""
        self.finished = False
        """Whether ``finish`` was emitted (later content starts a new run)."""
        self.errored = False
        """Whether an ``error`` chunk was emitted."""
        self.last_reason: str | None = None
        """Finish reason of the last finished step."""
        self.total_usage: dict[str, int] | None = None
        """Usage summed over the finished steps."""
        self.tool_names: dict[str, str] = {}
        """Tool name of every tool call seen, by ``toolCallId``."""
        self._out: list[Chunk] = []
        self._text_id: str | None = None
        self._reasoning_id: str | None = None
        self._open_inputs: dict[str, str] = {}
        self._pending_step_finish: Chunk | None = None
        self._counter = 0
        self._step_called_tools = False

    # -- plumbing ---------------------------------------------------------------------------

    def drain(self) -> list[Chunk]:
        """Return the chunks built since the last call and forget them."""
        out, self._out = self._out, []
        return out

    def new_id(self, prefix: str) -> str:
        """A short id unique within this run."""
        self._counter += 1
        return f"{prefix}-{self._counter}"

    def emit(self, type_: str, payload: dict[str, Any]) -> None:
        """Append one ``{type, runId, from, payload}`` chunk."""
        self._out.append(
            {"type": type_, "runId": self.run_id, "from": self.from_, "payload": payload}
        )

    def _ensure_start(self, payload: dict[str, Any] | None = None) -> None:
        if not self.started or self.finished:
            self.started, self.finished, self.errored = True, False, False
            self.total_usage, self.last_reason = None, None
            self.emit("start", payload or {})

    def _ensure_step(self) -> None:
        self._ensure_start()
        if not self.step_open:
            self.step_start()

    def _ensure_tool_step(self) -> None:
        """A step for a tool call: the open one, or the one whose finish is held back (a
        framework that reports tools after the model call ended still means that call's
        step; a tool no model asked for must not invent a step of its own)."""
        if self._pending_step_finish is not None and not self.step_open:
            self._ensure_start()
            return
        self._ensure_step()

    def _flush_pending_step(self) -> None:
        if self._pending_step_finish is not None:
            self._out.append(self._pending_step_finish)
            self._pending_step_finish = None

    # -- run and steps ----------------------------------------------------------------------

    def start(self, **payload: Any) -> None:
        """Emit ``start`` (once per run) with extra payload fields."""
        self._ensure_start({k: to_jsonable(v) for k, v in payload.items() if v is not None})

    def step_start(self, message_id: str | None = None, **extra: Any) -> None:
        """Close the previous step if needed and emit ``step-start``."""
        self._ensure_start()
        self._flush_pending_step()
        if self.step_open:
            self.step_finish("tool-calls" if self._step_called_tools else "unknown")
            self._flush_pending_step()
        self._step_called_tools = False
        # a foreign event's id of the wrong type must not make the step chunk invalid
        valid_id = message_id if isinstance(message_id, str) and message_id else None
        payload: dict[str, Any] = {"messageId": valid_id or self.new_id("msg"), "request": {}}
        payload.update({k: to_jsonable(v) for k, v in extra.items() if v is not None})
        self.step_open = True
        self.emit("step-start", payload)

    def step_finish(
        self,
        reason: str,
        usage: dict[str, int] | None = None,
        metadata: dict[str, Any] | None = None,
        *,
        raw_reason: object = None,
        defer: bool = False,
    ) -> None:
        """Close open parts and emit ``step-finish``.

        With ``defer`` the chunk is held until the next step, ``finish``, ``error`` or
        ``abort``, so tool results that a framework reports after the model call ended
        still land inside the step, where Mastra puts them.
        """
        self._ensure_start()
        self.close_parts()
        self._flush_pending_step()
        if not self.step_open:
            return
        self.step_open = False
        self.last_reason = reason
        if usage is not None:
            self.total_usage = add_usage(self.total_usage, usage)
        step_result: dict[str, Any] = {"reason": reason, "isContinued": False}
        if raw_reason is not None:
            step_result["rawReason"] = str(raw_reason)
        chunk: Chunk = {
            "type": "step-finish",
            "runId": self.run_id,
            "from": self.from_,
            "payload": {
                "stepResult": step_result,
                # Mastra serializes a usage whose counts are undefined as {}.
                "output": {"usage": usage if usage is not None else {}},
                "metadata": to_jsonable(metadata or {}),
            },
        }
        if defer:
            self._pending_step_finish = chunk
        else:
            self._out.append(chunk)

    def finish(
        self,
        reason: str | None = None,
        usage: dict[str, int] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        """Close everything and emit ``finish`` with the reason and the summed usage."""
        self._ensure_start()
        self.close_parts()
        self._flush_pending_step()
        if self.step_open:
            self.step_finish(reason or self.last_reason or "stop")
        final_reason = reason or self.last_reason or "stop"
        final_usage = usage if usage is not None else self.total_usage
        self.emit(
            "finish",
            {
                "stepResult": {"reason": final_reason},
                "output": {"usage": final_usage if final_usage is not None else {}},
                "metadata": to_jsonable(metadata or {}),
                "messages": {"all": [], "user": [], "nonUser": []},
            },
        )
        self.finished = True

    def error(self, error: dict[str, JSON]) -> None:
        """Close open parts and emit ``error`` with ``payload.error`` = ``error``."""
        self.close_parts()
        self._flush_pending_step()
        self.errored = True
        self.emit("error", {"error": error})

    def error_and_finish(self, error: dict[str, JSON]) -> None:
        """Emit ``error`` and end the run the way Mastra ends a run that threw.

        Mastra follows the ``error`` with the ``step-finish`` of the step the error stopped
        (reason ``error``, no usage) and a ``finish`` with reason ``error`` whose usage sums the
        steps that finished, so the run's total keeps the model calls that completed before
        the failure. A step whose model call had already ended (its finish held back for its
        tools) keeps that call's reason and usage. Before the run started, or once it
        finished, there is no run to end and only the ``error`` is emitted.
        """
        if not self.started or self.finished:
            self.error(error)
            return
        self.close_parts()
        self.errored = True
        self.emit("error", {"error": error})
        self.step_finish("error")
        self.finish("error")

    def abort(self, **payload: Any) -> None:
        """Close open parts and emit ``abort``."""
        self.close_parts()
        self._flush_pending_step()
        self.emit("abort", {k: to_jsonable(v) for k, v in payload.items()})

    # -- text and reasoning -----------------------------------------------------------------

    def text(self, delta: str, part_id: str | None = None, provider_metadata: JSON = None) -> None:
        """Emit a text delta, opening (or switching) the text part as needed."""
        if not delta:
            return
        self._ensure_step()
        if self._text_id is None or (part_id is not None and part_id != self._text_id):
            self.end_text()
            self._text_id = part_id or self.new_id("text")
            self.emit("text-start", self._meta({"id": self._text_id}, provider_metadata))
        self.emit("text-delta", self._meta({"id": self._text_id, "text": delta}, provider_metadata))

    def open_text(self, part_id: str, provider_metadata: JSON = None) -> None:
        """Emit ``text-start`` now (a source that announces parts keeps empty ones)."""
        self._ensure_step()
        self.end_text()
        self._text_id = part_id
        self.emit("text-start", self._meta({"id": part_id}, provider_metadata))

    def open_reasoning(self, part_id: str, provider_metadata: JSON = None) -> None:
        """Emit ``reasoning-start`` now."""
        self._ensure_step()
        self.end_reasoning()
        self._reasoning_id = part_id
        self.emit("reasoning-start", self._meta({"id": part_id}, provider_metadata))

    def end_text(self) -> None:
        """Emit ``text-end`` for the open text part, if any."""
        if self._text_id is not None:
            self.emit("text-end", {"id": self._text_id})
            self._text_id = None

    def reasoning(
        self, delta: str, part_id: str | None = None, provider_metadata: JSON = None
    ) -> None:
        """Emit a reasoning delta, opening (or switching) the reasoning part as needed."""
        if not delta:
            return
        self._ensure_step()
        if self._reasoning_id is None or (part_id is not None and part_id != self._reasoning_id):
            self.end_reasoning()
            self._reasoning_id = part_id or self.new_id("reasoning")
            self.emit("reasoning-start", self._meta({"id": self._reasoning_id}, provider_metadata))
        self.emit(
            "reasoning-delta",
            self._meta({"id": self._reasoning_id, "text": delta}, provider_metadata),
        )

    def end_reasoning(self, signature: str | None = None) -> None:
        """Emit ``reasoning-end`` for the open reasoning part, if any."""
        if self._reasoning_id is not None:
            payload: dict[str, Any] = {"id": self._reasoning_id}
            if signature:
                payload["signature"] = signature
            self.emit("reasoning-end", payload)
            self._reasoning_id = None

    # -- tools ------------------------------------------------------------------------------

    def tool_input_start(self, call_id: str, tool_name: str, **extra: Any) -> None:
        """Emit ``tool-call-input-streaming-start`` (once per call)."""
        if call_id in self._open_inputs:
            return
        self._ensure_tool_step()
        self._open_inputs[call_id] = tool_name
        self.tool_names[call_id] = tool_name
        payload = {"toolCallId": call_id, "toolName": tool_name}
        payload.update({k: to_jsonable(v) for k, v in extra.items() if v is not None})
        self.emit("tool-call-input-streaming-start", payload)

    def tool_input_delta(self, call_id: str, delta: str) -> None:
        """Emit ``tool-call-delta`` with ``argsTextDelta``."""
        if not delta:
            return
        if call_id not in self._open_inputs:
            self.tool_input_start(call_id, self.tool_names.get(call_id, ""))
        self.emit(
            "tool-call-delta",
            {
                "toolCallId": call_id,
                "toolName": self._open_inputs[call_id],
                "argsTextDelta": delta,
            },
        )

    def tool_input_end(self, call_id: str) -> None:
        """Emit ``tool-call-input-streaming-end`` if the call's input is streaming."""
        if self._open_inputs.pop(call_id, None) is not None:
            self.emit("tool-call-input-streaming-end", {"toolCallId": call_id})

    def tool_call(self, call_id: str, tool_name: str, args: JSON, **extra: Any) -> None:
        """Emit ``tool-call`` (ending its input streaming first)."""
        self._ensure_tool_step()
        self.tool_input_end(call_id)
        self.tool_names[call_id] = tool_name
        self._step_called_tools = True
        payload = {"toolCallId": call_id, "toolName": tool_name, "args": to_jsonable(args)}
        payload.update({k: to_jsonable(v) for k, v in extra.items() if v is not None})
        self.emit("tool-call", payload)

    def tool_result(
        self, call_id: str, tool_name: str | None, result: object, **extra: Any
    ) -> None:
        """Emit ``tool-result``."""
        self._ensure_start()
        payload = {
            "toolCallId": call_id,
            "toolName": tool_name or self.tool_names.get(call_id, ""),
            "result": to_jsonable(result),
        }
        payload.update({k: to_jsonable(v) for k, v in extra.items() if v is not None})
        self.emit("tool-result", payload)

    def tool_error(
        self, call_id: str, tool_name: str | None, error: dict[str, JSON], **extra: Any
    ) -> None:
        """Emit ``tool-error``."""
        self._ensure_start()
        payload = {
            "toolCallId": call_id,
            "toolName": tool_name or self.tool_names.get(call_id, ""),
            "error": error,
        }
        payload.update({k: to_jsonable(v) for k, v in extra.items() if v is not None})
        self.emit("tool-error", payload)

    # -- everything else --------------------------------------------------------------------

    def source(self, source_id: str, source_type: str, title: str, **extra: Any) -> None:
        """Emit ``source`` (``sourceType`` is ``url`` or ``document``)."""
        self._ensure_start()
        payload = {"id": source_id, "sourceType": source_type, "title": title}
        payload.update({k: to_jsonable(v) for k, v in extra.items() if v is not None})
        self.emit("source", payload)

    def file(self, data: str, mime_type: str, **extra: Any) -> None:
        """Emit ``file``."""
        self._ensure_start()
        payload = {"data": data, "mimeType": mime_type}
        payload.update({k: to_jsonable(v) for k, v in extra.items() if v is not None})
        self.emit("file", payload)

    def data(
        self, name: str, data: object, data_id: object = None, transient: bool | None = None
    ) -> None:
        """Emit a bare ``data-<name>`` chunk, as Mastra's ``writer.custom`` does. Its ``id``
        is a string: a number the foreign event gave is written as one, anything else (a
        list, an object) is left out rather than make a chunk Mastra would not send."""
        chunk: Chunk = {"type": f"data-{name}", "data": to_jsonable(data)}
        if isinstance(data_id, str):
            chunk["id"] = data_id
        elif isinstance(data_id, (int, float)) and not isinstance(data_id, bool):
            chunk["id"] = str(data_id)
        if transient is not None:
            chunk["transient"] = transient
        self._out.append(chunk)

    def object_result(self, value: object) -> None:
        """Emit ``object-result``: Mastra puts structured output in ``object``, not ``payload``."""
        self._out.append(
            {
                "type": "object-result",
                "runId": self.run_id,
                "from": self.from_,
                "object": to_jsonable(value),
            }
        )

    def raw(self, event: object) -> None:
        """Emit a ``raw`` chunk holding a foreign event that has no Mastra equivalent."""
        value = to_jsonable(event)
        self.emit("raw", value if isinstance(value, dict) else {"value": value})

    def passthrough(self, chunk: Chunk) -> None:
        """Append an already-Mastra chunk unchanged."""
        self._out.append(chunk)

    def close_parts(self) -> None:
        """Close every open text, reasoning and tool-input part."""
        self.end_text()
        self.end_reasoning()
        for call_id in list(self._open_inputs):
            self.tool_input_end(call_id)

    @staticmethod
    def _meta(payload: dict[str, Any], provider_metadata: JSON) -> dict[str, Any]:
        if provider_metadata:
            payload["providerMetadata"] = to_jsonable(provider_metadata)
        return payload
