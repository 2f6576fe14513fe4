"""Fuzzing what the other property tests leave out.

Already covered elsewhere: the SSE parser on arbitrary bytes and splits
(tests/adapters/test_sse_parser.py), every adapter on garbage events
(tests/adapters/test_adapter_fuzz.py), ``parse_chunk`` on any value
(tests/test_chunks_properties.py), ``RunState.handle`` never raising, text equal to its deltas
and one part per tool call (tests/test_state_properties.py). Here:

* every op ``RunState`` emits is strict JSON (no NaN, no lone surrogate) whatever the values;
* a real stream sent as SSE and cut at arbitrary points folds to the same run as the chunks;
* recorded foreign SSE streams cut anywhere give the same Mastra chunks;
* tool events in any order and number leave each call with one known final state.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hostile_chunks import OPENING, chunk, finish, sse_bytes
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import chunkscope as cs
from chunkscope.adapters import AutoAdapter
from chunkscope.fold.context import is_internal

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MASTRA_RUNS = {
    path.stem: [json.loads(line)["chunk"] for line in path.read_text().splitlines() if line]
    for path in sorted((FIXTURES / "mastra").glob("*.jsonl"))
}
FOREIGN_SSE = {
    f"{path.parent.name}/{path.stem}": path.read_bytes()
    for path in sorted((FIXTURES / "adapters").glob("*/*.sse"))
}
TOOL_STATES = {"input-streaming", "running", "awaiting-approval", "suspended", "done", "error"}

QUICK = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

hostile_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0xFFFF), max_size=8)
    | st.sampled_from(["\ud800", "a\udfffb", "\x00", "</script>", "\u2028"])
    | st.binary(max_size=6)
)
hostile_values = st.recursive(
    hostile_scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=4) | st.integers() | st.none(), inner, max_size=3)
    ),
    max_leaves=10,
)
TYPES = sorted({c["type"] for run in MASTRA_RUNS.values() for c in run} | {"data-x"})


@st.composite
def hostile_chunk(draw: st.DrawFn) -> dict[str, Any]:
    """A chunk of a real type whose payload fields hold hostile values."""
    kind = draw(st.sampled_from(TYPES))
    keys = ["id", "text", "toolCallId", "toolName", "args", "result", "error", "output"]
    payload = draw(st.dictionaries(st.sampled_from(keys), hostile_values, max_size=4))
    if draw(st.booleans()):
        payload["toolCallId"] = draw(st.sampled_from(["c1", "c2"]))
    return {"type": kind, "runId": "r", "from": "AGENT", "payload": payload, "data": payload}


def strict_json(value: Any) -> None:
    json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8")


@QUICK
@given(st.lists(hostile_chunk() | hostile_values, max_size=15))
@example(  # a lone surrogate in a tool name reached the static HTML unreplaced
    [
        {
            "type": "tool-call-input-streaming-end",
            "runId": "r",
            "from": "AGENT",
            "payload": {"toolName": "\ud800", "toolCallId": "c1"},
            "data": {"toolName": "\ud800", "toolCallId": "c1"},
        }
    ]
)
def test_every_op_and_snapshot_is_strict_json(items: list[Any]) -> None:
    state = cs.RunState()
    for index, item in enumerate(items):
        for op in state.handle(item, float(index)):
            strict_json(op)
    for op in state.close():
        strict_json(op)
    strict_json(state.snapshot())
    strict_json(state.transient)
    assert not [p.describe() for p in state.errors if is_internal(p)]
    state.static_html().encode("utf-8")
    state.transcript().encode("utf-8", "surrogatepass")


@QUICK
@given(
    name=st.sampled_from(sorted(MASTRA_RUNS)),
    cuts=st.lists(st.integers(min_value=0, max_value=10**6), max_size=20),
)
def test_a_real_stream_sent_as_sse_and_cut_anywhere_folds_the_same(
    name: str, cuts: list[int]
) -> None:
    run = MASTRA_RUNS[name]
    body = sse_bytes(run)
    points = sorted({c % (len(body) + 1) for c in cuts})
    pieces = [body[a:b] for a, b in zip([0, *points], [*points, len(body)], strict=True)]
    adapted = list(cs.adapters.adapt(pieces))
    assert adapted == run
    assert cs.accumulate(adapted).transcript() == cs.accumulate(run).transcript()


@QUICK
@given(name=st.sampled_from(sorted(FOREIGN_SSE)), seed=st.integers())
def test_recorded_foreign_sse_cut_anywhere_gives_the_same_chunks(name: str, seed: int) -> None:
    body = FOREIGN_SSE[name]
    whole = AutoAdapter("fixed-run").convert([body])
    rng = random.Random(seed)
    points = sorted(rng.sample(range(len(body) + 1), min(12, len(body) + 1)))
    pieces = [body[a:b] for a, b in zip([0, *points], [*points, len(body)], strict=True)]
    assert AutoAdapter("fixed-run").convert(pieces) == whole
    json.dumps(whole, allow_nan=False)


TOOL_EVENTS = ["input-start", "delta", "input-end", "call", "result", "error", "approval"]


def tool_event(kind: str, call: str) -> dict[str, Any]:
    ref = {"toolCallId": call, "toolName": "lookup"}
    return {
        "input-start": chunk("tool-call-input-streaming-start", **ref),
        "delta": chunk("tool-call-delta", **ref, argsTextDelta='{"q": 1'),
        "input-end": chunk("tool-call-input-streaming-end", toolCallId=call),
        "call": chunk("tool-call", **ref, args={"q": 1}),
        "result": chunk("tool-result", **ref, result={"ok": True}),
        "error": chunk("tool-error", **ref, error={"message": "failed"}),
        "approval": chunk("tool-call-approval", **ref, args={"q": 1}, resumeSchema="{}"),
    }[kind]


@QUICK
@given(
    st.lists(
        st.tuples(st.sampled_from(TOOL_EVENTS), st.sampled_from(["a", "b", "c"])),
        max_size=30,
    ),
    st.booleans(),
)
def test_tool_events_in_any_order_leave_one_known_final_state_per_call(
    events: list[tuple[str, str]], finished: bool
) -> None:
    chunks = [*OPENING, *(tool_event(kind, call) for kind, call in events)]
    if finished:
        chunks.append(finish())
    state = cs.accumulate(chunks)
    assert not [p.describe() for p in state.errors if is_internal(p)]
    calls = [t for t in state.tool_calls if t.parent is None]
    ids = [t.tool_call_id for t in calls]
    assert set(ids) <= {"call-1"} | {call for _, call in events}
    # An id used again after its call ended starts a new call, and a warning says so.
    for call in set(ids):
        reused = sum(f"tool call '{call}'" in w.message and "reuses" in w.message
                     for w in state.warnings)  # fmt: skip
        assert ids.count(call) == 1 + reused, (call, ids, state.warnings)
    for tool in calls:
        assert tool.state in TOOL_STATES, tool.state
        history = [s for _, s in tool.states] if tool.states else [tool.state]
        assert history[-1] == tool.state
    strict_json(state.snapshot())
