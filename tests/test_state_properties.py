"""Property tests: no input makes RunState.handle raise, and text is its deltas joined."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, get_args

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkscope as cs
from chunkscope.fold.context import is_internal
from chunkscope.fold.parts import TextPart, ToolCall
from chunkscope.wire.schema import ToolState

RECORDINGS = sorted((Path(__file__).parent / "fixtures" / "mastra").glob("*.jsonl"))
REAL = [
    [json.loads(x)["chunk"] for x in p.read_text().splitlines() if x.strip()] for p in RECORDINGS
]
TYPES = sorted({c["type"] for run in REAL for c in run} | {"data-x", "bogus"})

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

chunk_like = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={
        "runId": st.one_of(st.text(max_size=4), st.integers()),
        "from": st.sampled_from(["AGENT", "USER", "NOPE"]),
        "payload": st.one_of(
            json_values,
            st.fixed_dictionaries(
                {},
                optional={
                    "id": st.sampled_from(["a", "b", 3]),
                    "text": st.one_of(st.text(max_size=5), st.integers()),
                    "toolCallId": st.sampled_from(["t1", "t2", None]),
                    "argsTextDelta": st.text(max_size=5),
                    "stepResult": json_values,
                    "output": json_values,
                    "taskId": st.sampled_from(["k1", 1]),
                },
            ),
        ),
        "data": json_values,
        "id": st.sampled_from(["d1", "d2", 7]),
        "transient": st.booleans(),
    },
)

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def fold_all(chunks: list[Any]) -> cs.RunState:
    state = cs.RunState()
    for index, chunk in enumerate(chunks):
        state.handle(chunk, float(index))
    state.snapshot()
    state.transcript()
    state.static_html()
    state.close()
    json.dumps(state.snapshot())
    assert not [p.describe() for p in state.errors if is_internal(p)]
    return state


@FAST
@given(st.lists(st.one_of(json_values, chunk_like, st.binary(max_size=20)), max_size=25))
def test_arbitrary_input_never_raises(chunks: list[Any]) -> None:
    state = fold_all(chunks)
    assert state.chunk_count == len(chunks)


@FAST
@given(st.data())
def test_truncated_and_shuffled_real_streams_never_raise(data: st.DataObject) -> None:
    run = data.draw(st.sampled_from(REAL))
    cut = data.draw(st.integers(min_value=0, max_value=len(run)))
    chunks = list(run[:cut])
    random.Random(data.draw(st.integers())).shuffle(chunks)
    fold_all(chunks)


@FAST
@given(
    st.lists(st.tuples(st.sampled_from(["a", "b"]), st.text(max_size=6)), max_size=40),
    st.booleans(),
)
def test_text_equals_the_concatenation_of_its_deltas(
    deltas: list[tuple[str, str]], with_starts: bool
) -> None:
    chunks: list[dict[str, Any]] = [{"type": "start", "runId": "r", "from": "AGENT", "payload": {}}]
    if with_starts:
        chunks += [
            {"type": "text-start", "runId": "r", "from": "AGENT", "payload": {"id": i}}
            for i in ("a", "b")
        ]
    chunks += [
        {"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": i, "text": text}}
        for i, text in deltas
    ]
    state = fold_all(chunks)
    for block in ("a", "b"):
        expected = "".join(text for i, text in deltas if i == block)
        got = "".join(p.text for p in state.parts if isinstance(p, TextPart) and p.text_id == block)
        assert got == expected


@FAST
@given(st.data())
def test_each_tool_call_has_one_final_state(data: st.DataObject) -> None:
    run = data.draw(st.sampled_from(REAL))
    chunks = list(run)
    random.Random(data.draw(st.integers())).shuffle(chunks)
    state = fold_all(chunks)
    states = set(get_args(ToolState))  # what the wire (and so the page) knows
    for tool in state.parts:
        if isinstance(tool, ToolCall):
            assert tool.state in states
            assert tool.states[-1][1] == tool.state
            assert tool.t1 is not None  # closed: the stream ended
