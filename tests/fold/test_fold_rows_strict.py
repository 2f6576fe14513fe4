"""The fold's own contracts: a row links to what its chunk touched, rows made on demand equal
rows made as the chunks arrive, and strict mode lets a handler's failure through."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import chunkscope as cs
from chunkscope.fold import dispatch
from chunkscope.fold.context import INTERNAL_FAILURE, is_internal
from chunkscope.fold.parts import Notice
from chunkscope.fold.state import RunState

FIXTURES = Path(__file__).parent.parent / "fixtures" / "mastra"
RECORDINGS = sorted(FIXTURES.glob("*.jsonl"))


def chunk(type_: str, **payload: Any) -> dict[str, Any]:
    return {"type": type_, "runId": "r", "from": "AGENT", "payload": payload}


OPENING = [
    chunk("start"),
    chunk("step-start", request={}),
    chunk("text-start", id="t"),
    chunk("text-delta", id="t", text="Hello"),
]


def test_a_raw_chunk_with_an_adapter_error_links_its_row_to_its_own_warning() -> None:
    state = RunState()
    for index, item in enumerate(OPENING):
        state.handle(item, float(index * 100))
    state.handle(chunk("raw", adapterError="could not translate this event"), 500.0)
    state.handle(chunk("raw", problem="an event with no chunk type"), 600.0)
    state.close()
    *_, first, second = state.chunk_rows()
    for row, words in ((first, "could not translate"), (second, "no chunk type")):
        part = state.part(row["part"])
        assert isinstance(part, Notice) and part.notice == "warning", (row, part)
        assert words in part.message
    plain_raw = RunState()
    plain_raw.handle(chunk("raw", value=1), 0.0)
    assert plain_raw.chunk_rows()[0]["part"] is None


@pytest.mark.parametrize("path", RECORDINGS, ids=[p.stem for p in RECORDINGS])
def test_rows_made_on_demand_equal_rows_made_while_folding(path: Path) -> None:
    timed = list(cs.replay(path, speed=0).timed(wait=False))
    lazy, eager = RunState(), RunState()
    eager.row_ops = True
    sent: list[dict[str, Any]] = []
    for t, item, where in timed:
        assert not any(op["op"] == "rows" for op in lazy.handle(item, t, where=where))
        sent += [row for op in eager.handle(item, t, where=where) if op["op"] == "rows"
                 for row in op["rows"]]  # fmt: skip
    lazy.close()
    sent += [row for op in eager.close() if op["op"] == "rows" for row in op["rows"]]
    rows = json.loads(json.dumps(lazy.chunk_rows()))
    assert rows == json.loads(json.dumps(eager.chunk_rows()))
    # every row the eager fold made was sent, the same objects it keeps
    assert {id(r) for r in sent} == {id(r) for r in eager.rows}
    assert len(rows) == lazy.row_count
    assert sum(row["n"] for row in rows) == lazy.chunk_count - len(lazy.transient)


def test_a_row_made_later_shows_the_chunk_as_it_was_handed_over() -> None:
    state = RunState()
    items = [*copy.deepcopy(OPENING), chunk("tool-call", toolCallId="c", toolName="f", args={})]
    for index, item in enumerate(items):
        state.handle(item, float(index * 100))
    before = json.loads(json.dumps(_refold(items).rows))
    for item in items:
        item["payload"]["id"] = "changed"
        item["payload"]["text"] = "changed"
        item["type"] = "changed"
    assert json.loads(json.dumps(state.rows)) == before


def _refold(items: list[dict[str, Any]]) -> RunState:
    state = RunState()
    for index, item in enumerate(copy.deepcopy(items)):
        state.handle(item, float(index * 100))
    return state


def test_strict_mode_lets_a_handler_failure_through(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> None:
        raise ZeroDivisionError("handler bug")

    monkeypatch.setitem(dispatch.HANDLERS, "text-end", broken)
    strict = RunState(strict=True)
    strict.handle(OPENING[2], 0.0)
    with pytest.raises(ZeroDivisionError, match="handler bug"):
        strict.handle(chunk("text-end", id="t"), 1.0)

    lenient = RunState(strict=False)
    lenient.handle(OPENING[2], 0.0)
    lenient.handle(chunk("text-end", id="t"), 1.0)
    (problem,) = lenient.errors
    assert is_internal(problem) and problem.message.startswith(INTERNAL_FAILURE)
    assert "ZeroDivisionError" in problem.message and problem.chunk_index == 1
    (notice,) = lenient.notices
    assert notice.notice == "invalid" and INTERNAL_FAILURE in notice.message


def test_the_environment_switch_sets_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHUNKSCOPE_STRICT_FOLD", "1")
    assert RunState().strict and not RunState(strict=False).strict
    monkeypatch.setenv("CHUNKSCOPE_STRICT_FOLD", "0")
    assert not RunState().strict and RunState(strict=True).strict
