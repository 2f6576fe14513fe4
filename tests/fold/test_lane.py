"""The fast lane for text and reasoning deltas folds exactly as the full fold does.

Each stream is folded twice: once as the dicts it was recorded as (deltas take the lane when
they can) and once as chunk models (which never do). Every ``handle()`` must return the same
ops, and the runs must end with the same parts, rows, problems and values.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import chunkscope as cs
from chunkscope import parse_chunk
from chunkscope.fold import lane
from chunkscope.fold.state import RunState
from chunkscope.live.consume import Channel
from chunkscope.wire.batching import coalesce

FIXTURES = Path(__file__).parent.parent / "fixtures"
RECORDINGS = sorted(FIXTURES.rglob("*.jsonl"))


def _lines(path: Path) -> list[tuple[float, Any]]:
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("chunk"), dict):
            out.append((float(record.get("t", number)), record["chunk"]))
        elif isinstance(record, dict):
            out.append((float(number), record))
    return out


def _fold(items: list[tuple[float, Any]], as_models: bool, rows_from: int | None = None) -> Any:
    state = RunState()
    ops = []
    for index, (t, item) in enumerate(items):
        if rows_from is not None and index == rows_from:
            state.row_ops = True
            ops.append(("rows", state.chunk_rows()))
        chunk = parse_chunk(item) if as_models and isinstance(item, dict) else item
        ops.append(state.handle(chunk, t))
    ops.append(state.close())
    return (
        ops,
        state.snapshot(whole=True, rows=True),
        [p.describe() for p in state.errors],
        [p.describe() for p in state.warnings],
        state.text,
        state.reasoning_text,
        state.ttft_ms,
        state.chunk_count,
    )


def _same_both_ways(items: list[tuple[float, Any]], rows_from: int | None = None) -> None:
    assert _fold(items, False, rows_from) == _fold(items, True, rows_from)


def test_every_recording_folds_the_same_on_the_lane() -> None:
    folded = 0
    for path in RECORDINGS:
        items = _lines(path)
        if not items:
            continue
        _same_both_ways(items)
        _same_both_ways(items, rows_from=len(items) // 2)
        folded += 1
    assert folded >= 30


def test_the_lane_is_taken_for_the_usual_deltas(monkeypatch: Any) -> None:
    taken = []
    original = lane.fold_delta

    def counting(*args: Any) -> Any:
        result = original(*args)
        taken.append(result is not None)
        return result

    monkeypatch.setattr("chunkscope.fold.state.fold_delta", counting)
    state = RunState()
    state.handle({"type": "start", "runId": "r", "from": "AGENT", "payload": {}}, 0.0)
    state.handle({"type": "text-start", "runId": "r", "from": "AGENT", "payload": {"id": "a"}}, 1)
    for i in range(100):
        delta = {"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": "a"}}
        delta["payload"]["text"] = f"w{i} "
        state.handle(delta, 2.0 + i)
    assert taken == [True] * 100
    assert state.text == "".join(f"w{i} " for i in range(100))


def test_a_delta_that_names_the_run_gives_an_anonymous_run_its_id_on_the_lane() -> None:
    # The lane opened while the run had no id; the delta that names one must still set it.
    def delta(**top: Any) -> dict[str, Any]:
        return {"type": "text-delta", **top, "payload": {"id": "b", "text": "x"}}

    items = [(0.0, delta(**{"from": "AGENT"})), (10.0, delta(**{"from": "AGENT"}))]
    items.append((20.0, delta(runId="r", **{"from": "AGENT"})))
    _same_both_ways(items)
    state = RunState()
    for t, chunk in items:
        state.handle(chunk, t)
    assert state.run_id == "r"


_IDS = st.sampled_from(["a", "b", ""])
_TEXTS = st.sampled_from(["x", "", "é", "\ud800", 3, None])
_TOP = st.sampled_from(["plain", "no-run-id", "extra-key", "none-from", "four-odd"])


@st.composite
def _chunk(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(
        st.sampled_from(
            [
                "text-delta",
                "text-delta",
                "reasoning-delta",
                "text-start",
                "text-end",
                "reasoning-start",
                "step-start",
                "start",
                "abort",
            ]
        )
    )
    payload: dict[str, Any] = {"id": draw(_IDS)}
    if kind.endswith("-delta"):
        payload["text"] = draw(_TEXTS)
        if draw(st.booleans()) and draw(st.booleans()):
            payload["providerMetadata"] = {"x": {}}
    if kind == "step-start":
        payload = {"request": {}}
    chunk: dict[str, Any] = {"type": kind, "runId": "r", "from": "AGENT", "payload": payload}
    shape = draw(_TOP)
    if shape == "no-run-id":
        del chunk["runId"]
    elif shape == "extra-key":
        chunk["metadata"] = {"k": 1}
    elif shape == "none-from":
        chunk["from"] = None
    elif shape == "four-odd":
        del chunk["from"]
        chunk["other"] = 1
    return chunk


@settings(max_examples=300, deadline=None)
@given(st.lists(_chunk(), max_size=40), st.one_of(st.none(), st.integers(0, 40)))
def test_random_streams_fold_the_same_on_the_lane(
    chunks: list[dict[str, Any]], rows_from: int | None
) -> None:
    items = [(float(i * 10 % 70), chunk) for i, chunk in enumerate(chunks)]
    _same_both_ways(items, rows_from)


class _Batches:
    """A front end that keeps the ops of every batch."""

    def __init__(self) -> None:
        self.batches: list[list[dict[str, Any]]] = []

    def send_batch(self, seq: int, ops: list[dict[str, Any]]) -> None:
        self.batches.append(ops)

    def send_snapshot(self, snapshot: dict[str, Any], transient: list[dict[str, Any]]) -> None:
        pass

    def send_synced(self, seq: int) -> None:
        pass

    def send_rows(self, seq: int, offset: int, total: int, rows: list[dict[str, Any]]) -> None:
        pass

    def persist(self, snapshot: dict[str, Any]) -> None:
        pass


def _without_run_ops(ops: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [op for op in ops if op["op"] != "run"]


def _through_channel(items: list[tuple[float, Any]], flush_every: int | None) -> list[Any]:
    """The ops of every batch a live channel sends for ``items`` (flushed every
    ``flush_every`` chunks, else once at the end)."""
    sink = _Batches()
    channel = Channel(RunState(), sink)
    channel.ready()
    for index, (t, item) in enumerate(items):
        channel.fold(item, t, index)
        if flush_every and index % flush_every == flush_every - 1:
            with channel.lock:
                channel._flush_locked()
    channel.close()
    return sink.batches


def _interleaved_blocks() -> list[tuple[float, Any]]:
    """Deltas of a reasoning block and two text blocks open at once, taking turns."""

    def chunk(type_: str, **payload: Any) -> dict[str, Any]:
        return {"type": type_, "runId": "r", "from": "AGENT", "payload": payload}

    chunks = [chunk("start"), chunk("step-start", request={}, messageId="m")]
    chunks += [chunk("reasoning-start", id="r0"), chunk("text-start", id="a")]
    chunks.append(chunk("text-start", id="b"))
    turns = [("reasoning-delta", "r0"), ("text-delta", "a"), ("text-delta", "b")]
    for i in range(60):
        kind, block = turns[(i // 3) % 3] if i % 5 else turns[i % 3]
        chunks.append(chunk(kind, id=block, text=f"{block}{i} "))
    chunks += [chunk("reasoning-end", id="r0"), chunk("text-end", id="a")]
    chunks += [chunk("text-end", id="b"), chunk("finish", stepResult={"reason": "stop"})]
    return [(float(i), c) for i, c in enumerate(chunks)]


def test_the_live_channel_merges_deltas_into_the_ops_coalesce_would_make() -> None:
    # The channel takes runs of deltas on the lane without an op each and sends one merged
    # append per block and batch: what coalescing the ops of ``handle`` gives.
    compared = 0
    for path in [*RECORDINGS, None]:
        items = _lines(path) if path is not None else _interleaved_blocks()
        if not items:
            continue
        state = RunState()
        direct: list[dict[str, Any]] = []
        for t, item in items:
            direct.extend(state.handle(item, t))
        direct.extend(state.close())
        expected = _without_run_ops(coalesce(direct, keep_rows=False))
        (batch,) = _through_channel(items, None)
        assert _without_run_ops(batch) == expected, path
        batches = _through_channel(items, 7)
        joined = [op for ops in batches for op in _without_run_ops(ops)]
        assert _without_run_ops(coalesce(joined, keep_rows=False)) == expected, path
        compared += 1
    assert compared >= 30


def test_a_long_run_of_deltas_is_one_append_per_block_and_batch() -> None:
    items = [(float(i), c) for i, c in enumerate(cs.demo.text_stream(2_000))]
    (batch,) = _through_channel(items, None)
    appends = [op for op in batch if op["op"] == "append"]
    state = cs.accumulate(c for _, c in items)
    assert len(appends) == 1
    assert appends[0]["text"] == state.text
    assert appends[0]["t"] == items[-4][0]  # the last delta's: text-end and two finishes follow
