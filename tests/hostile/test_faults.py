"""Faults on the Python side of a StreamView: a source that raises, Stop during a tool call,
an HTTP source that disconnects mid-event or hangs, a source that goes quiet.

Each run must end (no hang), keep everything that arrived, say what happened in a visible row
and in the persisted snapshot, and ``wait()`` must re-raise what the source raised.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hostile_chunks import (
    OPENING,
    OPENING_TEXT,
    assert_opening_intact,
    chunk,
    text,
    wire_json,
)

import chunkscope as cs

#: Generous bound for a run to end on this shared, loaded machine; a hang takes forever.
END_S = 20.0


class ToolServerExploded(RuntimeError):
    """What the failing sources raise."""


STREAMING_TOOL = [
    chunk("tool-call-input-streaming-start", toolCallId="slow", toolName="crawl"),
    chunk("tool-call-delta", toolCallId="slow", toolName="crawl", argsTextDelta='{"url": "ht'),
]


def persisted_notices(view: cs.StreamView) -> list[str]:
    snapshot = view.snapshot
    assert snapshot is not None, "nothing persisted"
    wire_json(snapshot)
    return [p["message"] for p in snapshot["parts"] if p["kind"] == "notice"]


# ------------------------------------------------------------------- a source that raises


def raising_source() -> Iterator[dict[str, Any]]:
    yield from OPENING
    raise ToolServerExploded("the tool server exploded")


async def araising_source() -> AsyncIterator[dict[str, Any]]:
    for item in OPENING:
        yield item
        await asyncio.sleep(0)
    raise ToolServerExploded("the tool server exploded")


def assert_failed_visibly(view: cs.StreamView) -> None:
    state = view.state
    assert state.status == "error"
    assert_opening_intact(state)
    assert any("the tool server exploded" in p.message for p in state.errors), state.errors
    rows = [n.message for n in state.notices if n.level == "error"]
    assert len(rows) == 1 and "ToolServerExploded" in rows[0], rows
    assert "the tool server exploded" in " ".join(persisted_notices(view))


def test_a_sync_source_that_raises_mid_stream_fails_visibly_and_result_reraises() -> None:
    view = cs.show(raising_source(), display=False)
    with pytest.raises(ToolServerExploded, match="exploded"):
        view.result(END_S)
    assert_failed_visibly(view)


async def test_an_async_source_that_raises_mid_stream_is_reraised_by_wait() -> None:
    view = cs.show(araising_source(), display=False)
    with pytest.raises(ToolServerExploded, match="exploded"):
        await asyncio.wait_for(view.wait(), END_S)
    assert_failed_visibly(view)


async def test_a_sync_source_that_raises_is_reraised_by_await_view() -> None:
    view = cs.show(raising_source(), display=False)
    with pytest.raises(ToolServerExploded):
        await asyncio.wait_for(view.wait(), END_S)
    assert view.done


# ---------------------------------------------------------------- Stop during a tool call


def test_stop_during_a_streaming_tool_call_of_a_blocked_sync_source() -> None:
    release = threading.Event()

    def source() -> Iterator[dict[str, Any]]:
        yield from OPENING
        yield from STREAMING_TOOL
        release.wait(30)  # a tool that never answers
        yield text("never shown")

    view = cs.show(source(), display=False)
    try:
        wait_for(lambda: view.state.chunk_count == len(OPENING) + len(STREAMING_TOOL))
        began = time.monotonic()
        view.stop()
        state = view.result(END_S)
        assert time.monotonic() - began < 5.0
    finally:
        release.set()
    assert state.status == "aborted"
    assert_opening_intact(state)
    tool = next(t for t in state.tool_calls if t.tool_call_id == "slow")
    assert tool.args_text == '{"url": "ht' and tool.tool_name == "crawl"
    assert "never shown" not in state.text
    assert "stopped by the user" in " ".join(persisted_notices(view))


async def test_stop_during_a_streaming_tool_call_of_an_async_source() -> None:
    never = asyncio.Event()

    async def source() -> AsyncIterator[dict[str, Any]]:
        for item in [*OPENING, *STREAMING_TOOL]:
            yield item
        await never.wait()
        yield text("never shown")

    view = cs.show(source(), display=False)
    while view.state.chunk_count < len(OPENING) + len(STREAMING_TOOL):
        await asyncio.sleep(0.01)
    view.stop()
    state = await asyncio.wait_for(view.wait(), END_S)
    assert state.status == "aborted"
    assert next(t for t in state.tool_calls if t.tool_call_id == "slow").args_text
    assert_opening_intact(state)


async def test_cancelling_the_wait_stops_the_run_like_a_kernel_interrupt() -> None:
    # An interrupt while `await view.wait()` runs cancels that await; the run must stop too.
    never = asyncio.Event()

    async def source() -> AsyncIterator[dict[str, Any]]:
        for item in OPENING:
            yield item
        await never.wait()

    view = cs.show(source(), display=False)
    waiting = asyncio.ensure_future(view.wait())
    while view.state.chunk_count < len(OPENING):
        await asyncio.sleep(0.01)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert view.done and view.state.status == "aborted"
    assert_opening_intact(view.state)


def test_a_source_gone_quiet_ends_with_the_idle_timeout() -> None:
    release = threading.Event()

    def source() -> Iterator[dict[str, Any]]:
        yield from OPENING
        release.wait(30)

    view = cs.show(source(), display=False, idle_timeout=0.5)
    try:
        with pytest.raises(TimeoutError, match="idle_timeout"):
            view.result(END_S)
    finally:
        release.set()
    assert view.state.status == "error"
    assert_opening_intact(view.state)
    assert any("idle_timeout" in n for n in persisted_notices(view))


def wait_for(condition: Any, timeout_s: float = END_S) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.01)


# ------------------------------------------------------------------------- HTTP sources


@contextmanager
def raw_http_server(body: bytes, then: str) -> Iterator[str]:
    """A one-shot HTTP server on 127.0.0.1 that sends ``body`` as an SSE response and then
    closes the connection (``then="close"``) or keeps it open without sending (``"hang"``)."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    done = threading.Event()

    def serve() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)
            connection.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                b"Cache-Control: no-cache\r\nConnection: close\r\n\r\n" + body
            )
            if then == "hang":
                done.wait(30)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/stream"
    finally:
        done.set()
        listener.close()
        thread.join(5)


def sse_body(chunks: list[dict[str, Any]]) -> bytes:
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks)


def test_an_http_source_that_disconnects_mid_event_keeps_what_came_and_says_so() -> None:
    body = sse_body(OPENING) + b'data: {"type": "text-delta", "runId": "hostile-run", "pay'
    with raw_http_server(body, then="close") as url:
        view = cs.show(cs.sse(url, timeout=5), display=False)
        state = view.result(END_S)
    assert_opening_intact(state)
    assert state.text == OPENING_TEXT
    assert state.status == "error"
    message = " ".join(persisted_notices(view))
    assert "middle of an event" in message, message


def test_an_http_source_that_hangs_ends_after_its_timeout_with_a_clear_error() -> None:
    # The timeout covers connecting too: 2 s rather than 1, so a loaded machine's slow
    # accept is not taken for the hang this test is about.
    with raw_http_server(sse_body(OPENING), then="hang") as url:
        began = time.monotonic()
        view = cs.show(cs.sse(url, timeout=2.0), display=False)
        state = view.result(END_S)
        took = time.monotonic() - began
    assert took < 10.0, f"the 2 s timeout took {took:.1f} s to end the run"
    assert_opening_intact(state)
    assert state.status == "error"
    message = " ".join(persisted_notices(view))
    assert f"{url} sent nothing for 2.0 s" in message, message
    assert "after 12 events" in message


def test_a_transport_failure_is_on_run_state_errors_too() -> None:
    body = sse_body(OPENING) + b'data: {"type": "text-delta", "pay'
    with raw_http_server(body, then="close") as url:
        state = cs.show(cs.sse(url, timeout=5), display=False).result(END_S)
    assert [p.chunk_index for p in state.errors if "middle of an event" in p.message] == [
        len(OPENING)
    ]
