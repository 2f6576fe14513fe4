"""Chunk builders and checks shared by the hostile-input tests.

Every bad input is placed after the same well-formed opening (``OPENING``): reasoning, some
text and a finished tool call, so each test can check that what arrived before the bad chunk
is still there, whole, afterwards.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chunkscope as cs
from chunkscope.fold.parts import Notice
from chunkscope.fold.problems import Problem

RUN_ID = "hostile-run"
#: The opening's answer text, as the deltas spell it.
OPENING_TEXT = "Checking the weather. "
#: The opening's reasoning text.
OPENING_REASONING = "The user wants the weather."
#: The opening tool call's id, name, arguments and result.
OPENING_TOOL = ("call-1", "get-weather", {"city": "Seoul"}, {"temperature": 21})


def chunk(type_: str, **payload: Any) -> dict[str, Any]:
    """A ``{type, runId, from, payload}`` chunk of the hostile run."""
    return {"type": type_, "runId": RUN_ID, "from": "AGENT", "payload": payload}


def start() -> dict[str, Any]:
    """The run's ``start``."""
    return chunk("start", id="agent", messageId="m-1")


def step_start() -> dict[str, Any]:
    """A ``step-start`` with the fields Mastra always sends."""
    return chunk("step-start", request={}, warnings=[], messageId="m-1")


def finish(reason: str = "stop") -> dict[str, Any]:
    """A well-formed ``finish``."""
    return chunk(
        "finish",
        stepResult={"reason": reason, "isContinued": False},
        output={"usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3}},
        metadata={},
        messages={"all": [], "user": [], "nonUser": []},
    )


def text(delta: str, part_id: str = "t-1") -> dict[str, Any]:
    """A text delta."""
    return chunk("text-delta", id=part_id, text=delta)


def tool_call(call_id: str, name: str, args: Any) -> dict[str, Any]:
    """A whole ``tool-call``."""
    return chunk("tool-call", toolCallId=call_id, toolName=name, args=args)


def tool_result(call_id: str, name: str, result: Any) -> dict[str, Any]:
    """A ``tool-result``."""
    return chunk("tool-result", toolCallId=call_id, toolName=name, result=result)


OPENING: list[dict[str, Any]] = [
    start(),
    step_start(),
    chunk("reasoning-start", id="r-1"),
    *(chunk("reasoning-delta", id="r-1", text=w) for w in ("The user ", "wants the weather.")),
    chunk("reasoning-end", id="r-1"),
    chunk("text-start", id="t-1"),
    *(text(w) for w in ("Checking ", "the ", "weather. ")),
    tool_call(*OPENING_TOOL[:3]),
    tool_result(OPENING_TOOL[0], OPENING_TOOL[1], OPENING_TOOL[3]),
]


@dataclass
class Folded:
    """A RunState after folding, with the CPU seconds the fold took."""

    state: cs.RunState
    #: CPU time of the folding thread, not wall time nor the process's: neither the shared
    #: machine's load nor threads that earlier tests left running may decide a size test.
    seconds: float


def fold(chunks: Iterable[Any], where: bool = True) -> Folded:
    """Fold ``chunks`` (chunk i is at ``line i+1`` when ``where``) and close the run."""
    state = cs.RunState("hostile")
    began = time.thread_time()
    for index, item in enumerate(chunks):
        state.handle(item, float(index), where=f"line {index + 1}" if where else None)
    state.close()
    return Folded(state, time.thread_time() - began)


def wire_json(snapshot: dict[str, Any]) -> str:
    """The snapshot as the wire sends it; fails if it is not JSON or not UTF-8 encodable."""
    text = json.dumps(snapshot, ensure_ascii=False, allow_nan=False)
    text.encode("utf-8")
    return text


def assert_opening_intact(state: cs.RunState) -> None:
    """Everything the opening sent is still there, unchanged."""
    assert state.text.startswith(OPENING_TEXT), state.text[:200]
    assert state.reasoning_text.startswith(OPENING_REASONING)
    call_id, name, args, result = OPENING_TOOL
    tool = next(t for t in state.tool_calls if t.tool_call_id == call_id)
    assert (tool.tool_name, tool.args, tool.result, tool.state) == (name, args, result, "done")


def problem_at(problems: list[Problem], index: int, *words: str) -> Problem:
    """The one problem at chunk ``index`` whose message has every word of ``words``."""
    found = [
        p
        for p in problems
        if p.chunk_index == index and all(w.lower() in p.message.lower() for w in words)
    ]
    assert len(found) == 1, f"no single problem at chunk {index} with {words}: {problems}"
    return found[0]


def notice_at(state: cs.RunState, index: int, *words: str) -> Notice:
    """The visible notice row for chunk ``index`` whose message has every word of ``words``."""
    found = [
        n
        for n in state.notices
        if n.chunk == index and all(w.lower() in n.message.lower() for w in words)
    ]
    assert len(found) == 1, (
        f"no single notice at chunk {index} with {words}: "
        f"{[(n.chunk, n.notice, n.message) for n in state.notices]}"
    )
    return found[0]


def assert_reported(
    state: cs.RunState, bucket: str, index: int, where: str | None, *words: str
) -> Notice:
    """A problem in ``state.<bucket>`` and a visible row agree on what and where."""
    problem = problem_at(getattr(state, bucket), index, *words)
    notice = notice_at(state, index, *words)
    place = where or f"chunk {index}"
    assert problem.where == where
    assert place in problem.describe()
    assert place in notice.message, f"the row does not say where: {notice.message!r}"
    return notice


def write_recording(path: Path, lines: Iterable[bytes | str | dict[str, Any]]) -> Path:
    """A JSONL recording; dicts become ``{"t", "chunk"}`` lines, text and bytes go as is."""
    with path.open("wb") as file:
        for t, line in enumerate(lines):
            if isinstance(line, dict):
                file.write(json.dumps({"t": float(t), "chunk": line}).encode("utf-8"))
            else:
                file.write(line.encode("utf-8") if isinstance(line, str) else line)
            file.write(b"\n")
    return path


def sse_bytes(events: Iterable[dict[str, Any] | str]) -> bytes:
    """A Mastra SSE body: one ``data:`` event per chunk (text goes as is), then ``[DONE]``."""
    body = b""
    for event in events:
        data = event if isinstance(event, str) else json.dumps(event)
        body += b"data: " + data.encode("utf-8") + b"\n\n"
    return body + b"data: [DONE]\n\n"
