"""A small chat model on langchain-core's own base class, for streams the fake models cannot
make: it reports token usage, thinks before it answers, can ask for a tool, and can fail
part way through its answer. Its events
(``astream_events`` v2 or v3) are langchain-core's, produced by the real library."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel, generate_from_stream
from langchain_core.messages import AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult

USAGE = {"input_tokens": 7, "output_tokens": 5, "total_tokens": 12}


class ScriptedModel(BaseChatModel):
    """Streams ``thought`` as reasoning, ``answer`` word by word, then (when ``tool`` is set)
    one call of that tool with ``tool_args`` in two pieces; the last chunk carries the usage
    and the finish reason. When ``fail`` is set it raises ``RuntimeError(fail)`` after the
    answer's words instead, so the call never reports its usage."""

    answer: str = "The answer is 42."
    thought: str = ""
    tool: str = ""
    tool_args: str = '{"city": "Oslo"}'
    fail: str = ""

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        # The whole answer is the streamed one put together: whether langchain-core streams
        # an `ainvoke` under astream_events depends on its release (1.7 does not here).
        return generate_from_stream(self._stream(messages, stop, run_manager, **kw))

    def _stream(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> Iterator[ChatGenerationChunk]:
        pieces: list[AIMessageChunk] = []
        if self.thought:
            pieces.append(
                AIMessageChunk(content=[{"type": "reasoning", "reasoning": self.thought}])
            )
        words = self.answer.split(" ") if self.answer else []
        pieces += [
            AIMessageChunk(content=word if i == 0 else " " + word) for i, word in enumerate(words)
        ]
        if self.tool:
            half = len(self.tool_args) // 2
            pieces.append(
                AIMessageChunk(
                    content="",
                    tool_call_chunks=[
                        {
                            "name": self.tool,
                            "args": self.tool_args[:half],
                            "id": "call-1",
                            "index": 0,
                        }
                    ],
                )
            )
            pieces.append(
                AIMessageChunk(
                    content="",
                    tool_call_chunks=[
                        {"name": None, "args": self.tool_args[half:], "id": None, "index": 0}
                    ],
                )
            )
        reason = "tool_calls" if self.tool else "stop"
        pieces.append(
            AIMessageChunk(
                content="",
                usage_metadata=USAGE,  # type: ignore[arg-type]
                response_metadata={"finish_reason": reason},
                chunk_position="last",
            )
        )
        if self.fail:
            pieces.pop()  # a failing call never sends its last chunk, the one with the usage
        for piece in pieces:
            chunk = ChatGenerationChunk(message=piece)
            if run_manager:
                run_manager.on_llm_new_token(piece.text, chunk=chunk)
            yield chunk
        if self.fail:
            raise RuntimeError(self.fail)
