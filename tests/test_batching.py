"""Coalescing a batch never changes what applying it gives, and it makes fast runs smaller."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunkscope.fold.state import RunState
from chunkscope.wire.batching import Op, coalesce


def apply(ops: list[Op]) -> dict[str, dict[str, Any]]:
    """The parts a page holds after ``ops``, by the rules of docs/wire.md."""
    parts: dict[str, dict[str, Any]] = {}
    for op in copy.deepcopy(ops):
        if op["op"] == "add":
            parts[op["part"]["id"]] = op["part"]
        elif op["op"] == "append" and op["id"] in parts:
            part = parts[op["id"]]
            before = part.get(op["field"])
            part[op["field"]] = (before if isinstance(before, str) else "") + op["text"]
        elif op["op"] == "set" and op["id"] in parts:
            part = parts[op["id"]]
            part.update({k: v for k, v in op["set"].items() if k != "id"})
            if "state" in op["set"] and "states" not in op["set"]:
                part["states"] = [*part.get("states", []), [op["t"], str(op["set"]["state"])]]
    return parts


IDS = st.sampled_from(["a", "b"])
VALUES = st.one_of(st.none(), st.integers(), st.text(max_size=3), st.sampled_from(["done", "x"]))
SET_FIELDS = st.dictionaries(
    st.sampled_from(["state", "result", "t1", "held", "args", "states", "text"]),
    VALUES,
    max_size=3,
).map(lambda f: {**f, "states": [[0.0, "s"]]} if "states" in f else f)
OPS = st.one_of(
    st.builds(
        lambda i, kind: {"op": "add", "part": {"id": i, "kind": kind, "states": [], "text": ""}},
        IDS,
        st.sampled_from(["tool", "text"]),
    ),
    st.builds(
        lambda i, t, fields: {"op": "set", "id": i, "set": fields, "t": t},
        IDS,
        st.floats(0, 100),
        SET_FIELDS,
    ),
    st.builds(
        lambda i, text: {"op": "append", "id": i, "field": "text", "text": text, "t": 1.0},
        IDS,
        st.text(max_size=3),
    ),
)


@settings(max_examples=1000, deadline=None)
@given(st.lists(OPS, max_size=25))
@example(  # a set that cannot fold keeps the later ones after it
    [
        {"op": "add", "part": {"id": "a", "kind": "tool", "states": []}},
        {"op": "set", "id": "a", "set": {"state": None}, "t": 1.0},
        {"op": "set", "id": "a", "set": {"state": "done"}, "t": 2.0},
    ]
)
def test_coalescing_keeps_what_the_ops_give(ops: list[Op]) -> None:
    before = copy.deepcopy(ops)
    assert apply(coalesce(ops)) == apply(ops)
    assert ops == before, "coalescing changed the ops it was given"


def tool_calls(count: int) -> list[Op]:
    def chunk(kind: str, **payload: Any) -> dict[str, Any]:
        return {"type": kind, "runId": "r", "from": "AGENT", "payload": payload}

    state = RunState()
    ops = state.handle(chunk("start"), 0.0) + state.handle(chunk("step-start", request={}), 0.0)
    for i in range(count):
        call = {"toolCallId": f"c{i}", "toolName": "ping"}
        ops += state.handle(chunk("tool-call", args={"i": i}, **call), float(i))
        ops += state.handle(chunk("tool-result", result=i, **call), i + 0.5)
    return ops


def test_a_tool_call_and_its_result_in_one_batch_cross_as_one_add() -> None:
    ops = tool_calls(100)
    batch = coalesce(ops, keep_rows=False)
    adds = [op for op in batch if op["op"] == "add" and op["part"]["kind"] == "tool"]
    assert len(adds) == 100
    call_ids = {add["part"]["id"] for add in adds}
    assert not any(op["op"] == "set" and op["id"] in call_ids for op in batch)
    last = adds[-1]["part"]
    assert (last["state"], last["result"], last["t1"]) == ("done", 99, 99.5)
    assert last["states"] == [[99.0, "running"], [99.5, "done"]]
    assert apply(batch) == apply(ops)
    unfolded = [op for op in ops if op["op"] in ("add", "set")]
    assert len(json.dumps(batch)) < 0.8 * len(json.dumps(unfolded))


def test_a_set_after_an_append_to_the_same_part_stays_after_it() -> None:
    ops: list[Op] = [
        {"op": "add", "part": {"id": "t", "kind": "text", "text": ""}},
        {"op": "append", "id": "t", "field": "text", "text": "ab", "t": 1.0},
        {"op": "set", "id": "t", "set": {"text": "replaced"}, "t": 2.0},
    ]
    batch = coalesce(ops)
    assert [op["op"] for op in batch] == ["add", "append", "set"]
    assert apply(batch)["t"]["text"] == "replaced"
