"""The channel and consumer: pacing, completeness of the wire, snapshots, failures, Stop."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

import chunkscope as cs
from chunkscope.fold.state import MERGED_ROW_TEXT
from chunkscope.live.consume import BURST_BATCHES, Allowance, Channel, Consumer


class Browser:
    """A sink that applies what it receives the way the front end's store does."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.batches: list[tuple[float, int, list[dict[str, Any]]]] = []
        self.persisted: list[dict[str, Any]] = []
        self.snapshots = 0
        self.seq = 0
        self.parts: dict[str, dict[str, Any]] = {}
        self.bytes = 0
        self.gaps = 0
        self.synced: list[int] = []

    def send_batch(self, seq: int, ops: list[dict[str, Any]]) -> None:
        with self.lock:
            self.bytes += len(json.dumps({"kind": "batch", "seq": seq, "ops": ops}))
            self.batches.append((time.monotonic(), seq, ops))
            if seq != self.seq + 1:
                self.gaps += 1
            self.seq = seq
            for op in ops:
                if op["op"] == "add":
                    self.parts[op["part"]["id"]] = dict(op["part"])
                elif op["op"] == "append":
                    part = self.parts[op["id"]]
                    part[op["field"]] = part.get(op["field"], "") + op["text"]
                elif op["op"] == "set":
                    self.parts[op["id"]].update(op["set"])

    def send_snapshot(self, snapshot: dict[str, Any], transient: list[dict[str, Any]]) -> None:
        with self.lock:
            self.bytes += len(json.dumps(snapshot))
            self.snapshots += 1
            self.seq = snapshot["seq"]
            self.parts = {p["id"]: dict(p) for p in snapshot["parts"]}

    def send_synced(self, seq: int) -> None:
        with self.lock:
            self.synced.append(seq)

    def persist(self, snapshot: dict[str, Any]) -> None:
        self.persisted.append(json.loads(json.dumps(snapshot)))

    def text(self) -> str:
        return "".join(p.get("text", "") for p in self.parts.values() if p["kind"] == "text")


def run(source: Any, *, ready: bool = True, **kw: Any) -> tuple[cs.RunState, Browser, Consumer]:
    state = cs.RunState()
    browser = Browser()
    channel = Channel(state, browser, max_rate=kw.pop("max_rate", 60.0))
    if ready:
        channel.ready()
    consumer = Consumer(source, channel, **kw)
    consumer.start()
    with contextlib.suppress(Exception):
        consumer.result(timeout=60)
    channel.join(5)
    return state, browser, consumer


def test_a_tight_loop_of_100k_deltas_costs_few_batches_and_loses_nothing() -> None:
    start = time.monotonic()
    state, browser, _ = run(cs.demo.text_stream(100_000))
    elapsed = time.monotonic() - start
    assert browser.text() == state.full_text
    assert len(state.full_text) > 100_000
    # at most max_rate batches a second, after the allowance of a few in a row, plus the last
    assert len(browser.batches) <= elapsed * 60 + BURST_BATCHES + 2
    assert browser.gaps == 0
    content = len(state.full_text)
    assert browser.bytes <= 3 * content + 200 * len(browser.batches) + 20_000


def test_a_busy_stream_sends_a_few_batches_at_once_then_paces_them() -> None:
    # A burst's first batch holds only the run's start; its text must not wait an interval.
    allowance = Allowance(0.02)
    sent = 0
    while allowance.wait(10.0) == 0:
        allowance.take(10.0)
        sent += 1
    assert sent == BURST_BATCHES
    assert allowance.wait(10.0) == pytest.approx(0.02)
    assert allowance.wait(10.015) == pytest.approx(0.005)
    assert allowance.wait(10.02) == pytest.approx(0, abs=1e-9)
    allowance.take(10.02)
    # A quiet second refills the allowance, never beyond its size.
    assert allowance.wait(11.0) == 0
    sent = 0
    while allowance.wait(11.0) == 0:
        allowance.take(11.0)
        sent += 1
    assert sent == BURST_BATCHES


def test_a_slow_stream_gets_each_delta_at_once() -> None:
    def slow() -> Iterator[dict[str, Any]]:
        chunks = list(cs.demo.text_stream(8))
        for chunk in chunks:
            time.sleep(0.05)
            yield chunk

    _, browser, _ = run(slow())
    deltas = [b for b in browser.batches if any(op["op"] == "append" for op in b[2])]
    assert len(deltas) == 8  # one batch per delta: nothing waits for a timer


def paced(chunks: list[dict[str, Any]], rate: float) -> Iterator[dict[str, Any]]:
    start = time.monotonic()
    for index, chunk in enumerate(chunks):
        time.sleep(max(0.0, start + index / rate - time.monotonic()))
        yield chunk


def test_a_model_typing_at_100_tokens_a_second_is_sent_token_by_token() -> None:
    # Above the channel's old fixed 60 batches/s, below the measured pressure rate.
    chunks = list(cs.demo.text_stream(120))
    _, browser, _ = run(paced(chunks, 100.0))
    appends = [b for b in browser.batches if any(op["op"] == "append" for op in b[2])]
    deltas = sum(1 for c in chunks if c["type"] == "text-delta")
    assert len(appends) >= deltas - 2  # a scheduling hiccup may join two, not a timer


def test_a_view_displayed_before_its_run_is_sent_batches_without_waiting_for_ready() -> None:
    state = cs.RunState()
    browser = Browser()
    channel = Channel(state, browser)
    channel.expect_view()
    consumer = Consumer(paced(list(cs.demo.text_stream(40)), 400.0), channel)
    consumer.start()
    consumer.result(timeout=60)
    channel.join(5)
    assert browser.snapshots == 0, "nothing was folded before the view, so no snapshot"
    assert browser.text() == state.full_text and browser.gaps == 0
    # The page says it holds the last batch: the answer is "synced", not the run again.
    channel.ready(have=browser.seq)
    assert browser.synced == [browser.seq] and browser.snapshots == 0
    # A page that holds nothing (a reload, a second page) gets a snapshot.
    channel.ready(have=0)
    assert browser.snapshots == 1


def test_a_view_displayed_after_its_run_began_gets_what_came_before_as_a_snapshot() -> None:
    state = cs.RunState()
    browser = Browser()
    channel = Channel(state, browser)
    chunks = list(cs.demo.text_stream(30))
    for chunk in chunks[:10]:
        channel.fold(chunk)
    channel.expect_view()
    assert browser.snapshots == 1 and browser.seq == 0
    channel.start()
    for chunk in chunks[10:]:
        channel.fold(chunk)
    channel.close()
    channel.join(5)
    assert browser.text() == state.full_text and browser.gaps == 0


def test_a_view_that_arrives_mid_stream_gets_everything_once() -> None:
    state = cs.RunState()
    browser = Browser()
    channel = Channel(state, browser)
    consumer = Consumer(cs.demo.text_stream(30_000), channel)
    consumer.start()
    time.sleep(0.02)
    channel.ready()  # snapshot of what came so far, then batches for the rest
    consumer.result(timeout=60)
    channel.join(5)
    assert browser.text() == state.full_text
    assert browser.gaps == 0


def test_persisted_snapshots_double_and_never_hold_transient_chunks() -> None:
    _state, browser, _ = run(cs.demo.stream(speed=0))
    assert browser.persisted, "the final state is persisted"
    final = browser.persisted[-1]
    assert final["run"]["status"] == "finished" and final["run"]["ended"] is True
    dumped = json.dumps(browser.persisted)
    assert "data-progress" not in dumped and "downloading readings" not in dumped

    big, big_browser, _ = run(cs.demo.text_stream(50_000))
    content = len(big.full_text)
    final = len(json.dumps(big_browser.persisted[-1]))
    # the text is saved once; inspector rows add a bounded excerpt per 33 ms, not per delta
    excerpts = MERGED_ROW_TEXT * len(big.rows)
    assert len(big.rows) < 1000
    assert final <= 1.05 * content + excerpts + 20_000
    persisted = sum(len(json.dumps(s)) for s in big_browser.persisted)
    # live messages plus every persisted snapshot: about 3x the content, never quadratic
    assert big_browser.bytes + persisted <= 3.5 * (content + excerpts) + 50_000


def test_no_front_end_means_no_queue_growth_and_the_run_still_completes() -> None:
    state, browser, consumer = run(cs.demo.text_stream(20_000), ready=False)
    assert browser.batches == []
    assert state.status == "finished"
    assert consumer.channel._pending == []


def test_an_exception_in_the_source_is_shown_kept_and_reraised() -> None:
    def broken() -> Iterator[dict[str, Any]]:
        yield from list(cs.demo.text_stream(5))[:6]
        raise ConnectionError("peer went away")

    state, _browser, consumer = run(broken())
    assert state.status == "error"
    assert state.full_text  # what arrived before is kept
    assert any(n.notice == "error" and "peer went away" in n.message for n in state.notices)
    with pytest.raises(ConnectionError):
        consumer.result()


async def test_async_source_runs_as_a_task_and_wait_reraises() -> None:
    async def agen() -> AsyncIterator[dict[str, Any]]:
        for chunk in list(cs.demo.text_stream(3))[:5]:
            await asyncio.sleep(0)
            yield chunk
        raise ValueError("bad upstream")

    state = cs.RunState()
    consumer = Consumer(agen(), Channel(state, Browser()))
    consumer.start()
    assert consumer._task is not None
    with pytest.raises(ValueError, match="bad upstream"):
        await consumer.wait()
    assert state.status == "error" and state.full_text


async def test_stop_ends_the_run_aborted_at_once() -> None:
    async def forever() -> AsyncIterator[dict[str, Any]]:
        for chunk in list(cs.demo.text_stream(1))[:4]:
            yield chunk
        while True:
            await asyncio.sleep(0.01)
            yield {
                "type": "text-delta",
                "runId": "r",
                "from": "AGENT",
                "payload": {"id": "t", "text": "."},
            }

    state = cs.RunState()
    consumer = Consumer(forever(), Channel(state, Browser()))
    consumer.start()
    await asyncio.sleep(0.05)
    consumer.stop()
    final = await consumer.wait()
    assert final.status == "aborted"
    assert any(n.notice == "abort" for n in final.notices)


def test_idle_timeout_ends_a_hanging_sync_source() -> None:
    gate = threading.Event()

    def hangs() -> Iterator[dict[str, Any]]:
        yield from list(cs.demo.text_stream(2))[:4]
        gate.wait(10)

    start = time.monotonic()
    state, _, consumer = run(hangs(), idle_timeout=0.3)
    gate.set()
    assert time.monotonic() - start < 5
    assert state.status == "error"
    assert isinstance(consumer.error, TimeoutError)
    assert "idle_timeout" in str(consumer.error)


async def test_interrupting_wait_stops_the_run() -> None:
    async def slow() -> AsyncIterator[dict[str, Any]]:
        while True:
            await asyncio.sleep(0.01)
            yield {"type": "start", "runId": "r", "from": "AGENT", "payload": {}}

    state = cs.RunState()
    consumer = Consumer(slow(), Channel(state, Browser()))
    consumer.start()
    waiter = asyncio.ensure_future(consumer.wait())
    await asyncio.sleep(0.05)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert consumer.done and state.status == "aborted"


def test_replay_keeps_the_recorded_timing(tmp_path: Any) -> None:
    path = tmp_path / "run.jsonl"
    cs.record(cs.demo.stream(speed=0), path)
    state, _, _ = run(cs.replay(path, speed=0))
    recorded = [json.loads(line)["t"] for line in path.read_text().splitlines()]
    assert state.elapsed_ms == pytest.approx(recorded[-1], abs=0.01)


async def test_result_on_the_loop_of_an_async_source_says_to_await_instead() -> None:
    async def agen() -> AsyncIterator[dict[str, Any]]:
        await asyncio.sleep(0.05)
        yield {"type": "start", "runId": "r", "from": "AGENT", "payload": {}}

    consumer = Consumer(agen(), Channel(cs.RunState(), Browser()))
    consumer.start()
    with pytest.raises(RuntimeError, match=r"await view\.wait"):
        consumer.result(timeout=1)
    await consumer.wait()


def test_a_source_that_is_both_sync_and_async_is_read_in_a_thread() -> None:
    consumer = Consumer(cs.demo.stream(speed=0), Channel(cs.RunState(), Browser()))
    consumer.start()
    assert consumer._task is None
    assert consumer.result(timeout=30).status == "finished"
