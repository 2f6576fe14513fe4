"""Adapter for a LangChain chat model's ``astream_events(version="v3")`` stream.

langchain-core 1.8 streams a chat model in version 3 as protocol events of one message:
``message-start``, ``content-block-start`` / ``-delta`` / ``-finish`` keyed by the block's
``index`` (text, reasoning, streamed tool calls), and ``message-finish`` with the usage and
finish reason. (Version 3 exists only for chat models and compiled graphs; a runnable
sequence refuses it.) The mapping onto Mastra chunks:

* the message is one step of one run: ``message-start`` starts both (the message id is the
  step's ``messageId``), ``message-finish`` ends the step with its usage and finish reason,
  and the end of the stream finishes the run; a stream that stops before ``message-finish``
  was cut short and ends with an ``error`` chunk; a stream that raises ends as a Mastra run
  that threw: ``error``, the step's finish (reason ``error`` when the message had not
  finished), then ``finish`` with reason ``error`` and the usage of a finished message;
* ``text`` blocks become text parts and ``reasoning`` blocks reasoning parts, one per block;
* a ``tool_call_chunk`` block becomes ``tool-call-input-streaming-start``, its
  ``tool-call-delta`` deltas ``tool-call-delta``, and its finish (a parsed ``tool_call``)
  ``tool-call`` with the arguments as parsed;
* blocks and deltas of other kinds are kept as ``raw``.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, overload

from ._base import StreamAdapter, on
from ._writer import Chunk, finish_reason
from .langchain import end_raised_run, langchain_usage

#: The events of one message, as version 3 names them.
V3_EVENTS = frozenset(
    {
        "message-start",
        "content-block-start",
        "content-block-delta",
        "content-block-finish",
        "message-finish",
    }
)


class LangChainV3Adapter(StreamAdapter):
    """``astream_events(version="v3")`` events of a chat model → Mastra chunks."""

    format_name = "langchain_v3"

    def __init__(self, run_id: str | None = None) -> None:
        super().__init__(run_id)
        self._message = "message"
        self._blocks: dict[object, tuple[str, str]] = {}
        self._called = False
        self._finished_message = False

    def handle(self, event: Any) -> None:
        """One event to the handler of its ``event`` name; anything else goes ``raw``."""
        kind = event.get("event") if isinstance(event, dict) else None
        handler = self.HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            self.writer.start()
            self.writer.raw({"format": self.format_name, "event": event})
            return
        handler(self, event)

    def finalize(self) -> None:
        """Finish the run after its message, or say the stream was cut short."""
        if self._finished_message:
            self.writer.finish()
        elif not self.writer.errored:
            self.writer.error(
                {"message": "the event stream ended before its message-finish: it was cut short"}
            )
        self.writer.close_parts()

    def fail(self, exc: BaseException) -> list[Chunk]:
        """End the run that raised ``exc`` as Mastra ends a run that threw."""
        return end_raised_run(self, exc)

    @on("message-start")
    def _on_message_start(self, event: dict[str, Any]) -> None:
        message_id = event.get("id")
        self._message = message_id if isinstance(message_id, str) and message_id else "message"
        self._blocks.clear()
        self._called = False
        self.writer.start()
        self.writer.step_start(message_id=self._message)

    def _part_id(self, index: object) -> str:
        return f"{self._message}:{index}"

    @on("content-block-start")
    def _on_block_start(self, event: dict[str, Any]) -> None:
        index = event.get("index")
        block = event.get("content") or event.get("content_block") or {}
        kind = block.get("type") if isinstance(block, dict) else None
        part = self._part_id(index)
        if kind == "text":
            self.writer.open_text(part)
            self.writer.text(str(block.get("text") or ""), part)
        elif kind == "reasoning":
            self.writer.open_reasoning(part)
            self.writer.reasoning(str(block.get("reasoning") or ""), part)
        elif kind == "tool_call_chunk":
            given = block.get("id")
            call_id = given if isinstance(given, str) and given else part
            self.writer.tool_input_start(call_id, str(block.get("name") or ""))
            self._blocks[index] = ("tool", call_id)
            if block.get("args"):
                self.writer.tool_input_delta(call_id, str(block["args"]))
            return
        else:
            self.writer.raw({"format": self.format_name, "event": event})
            return
        self._blocks[index] = (str(kind), part)

    @on("content-block-delta")
    def _on_block_delta(self, event: dict[str, Any]) -> None:
        delta = event.get("delta") or {}
        kind = delta.get("type") if isinstance(delta, dict) else None
        _, part = self._blocks.get(event.get("index"), ("", self._part_id(event.get("index"))))
        if kind == "text-delta":
            self.writer.text(str(delta.get("text") or ""), part)
        elif kind == "reasoning-delta":
            self.writer.reasoning(str(delta.get("reasoning") or ""), part)
        elif kind == "tool-call-delta":
            if delta.get("args"):
                self.writer.tool_input_delta(part, str(delta["args"]))
        else:
            self.writer.raw({"format": self.format_name, "event": event})

    @on("content-block-finish")
    def _on_block_finish(self, event: dict[str, Any]) -> None:
        block = event.get("content") or event.get("content_block") or {}
        kind = block.get("type") if isinstance(block, dict) else None
        known, part = self._blocks.get(event.get("index"), ("", ""))
        if kind == "tool_call":
            given = block.get("id")
            call_id = given if isinstance(given, str) and given else part
            if known == "tool":
                self.writer.tool_input_end(part)
            self.writer.tool_call(call_id, str(block.get("name") or ""), block.get("args"))
            self._called = True
        elif kind == "text" and known == "text":
            self.writer.end_text()
        elif kind == "reasoning" and known == "reasoning":
            self.writer.end_reasoning()
        elif kind not in ("text", "reasoning"):
            self.writer.raw({"format": self.format_name, "event": event})

    @on("message-finish")
    def _on_message_finish(self, event: dict[str, Any]) -> None:
        metadata = event.get("metadata") or {}
        raw_reason = metadata.get("finish_reason") if isinstance(metadata, dict) else None
        if raw_reason is None:
            reason = "tool-calls" if self._called else "stop"
        else:
            reason = finish_reason(raw_reason)
        model = metadata.get("model_name") if isinstance(metadata, dict) else None
        self.writer.step_finish(
            reason, langchain_usage(event.get("usage")), {"modelId": model}, raw_reason=raw_reason
        )
        self._finished_message = True


@overload
def from_langchain_v3(
    events: AsyncIterable[Any], run_id: str | None = None
) -> AsyncIterator[Chunk]: ...
@overload
def from_langchain_v3(events: Iterable[Any], run_id: str | None = None) -> Iterator[Chunk]: ...
def from_langchain_v3(
    events: Iterable[Any] | AsyncIterable[Any], run_id: str | None = None
) -> Iterator[Chunk] | AsyncIterator[Chunk]:
    """Mastra chunks for a chat model's ``astream_events(version="v3")`` events."""
    return LangChainV3Adapter(run_id).stream(events)


def convert_langchain_v3(events: Iterable[Any], run_id: str | None = None) -> list[Chunk]:
    """A whole list of ``astream_events(version="v3")`` events as Mastra chunks."""
    return LangChainV3Adapter(run_id).convert(events)
