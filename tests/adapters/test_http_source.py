"""Live HTTP sources against our own starlette server on 127.0.0.1 (ephemeral port)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import uvicorn
from adapter_fixtures import assert_coherent, of_type
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from test_konan_sse import service_run

from chunkscope import accumulate
from chunkscope.adapters import mastra, sse

SEED = service_run()
AGENT_CHUNKS = [
    {"type": "start", "runId": "agent-run", "from": "AGENT", "payload": {}},
    {
        "type": "step-start",
        "runId": "agent-run",
        "from": "AGENT",
        "payload": {"messageId": "m", "request": {}},
    },
    {"type": "text-start", "runId": "agent-run", "from": "AGENT", "payload": {"id": "t"}},
    {
        "type": "text-delta",
        "runId": "agent-run",
        "from": "AGENT",
        "payload": {"id": "t", "text": "서울은 "},
    },
    {"type": "data-progress", "data": {"percent": 50}, "transient": True},
    {
        "type": "text-delta",
        "runId": "agent-run",
        "from": "AGENT",
        "payload": {"id": "t", "text": "맑음"},
    },
    {"type": "text-end", "runId": "agent-run", "from": "AGENT", "payload": {"id": "t"}},
]
WORKFLOW_CHUNKS = [
    {
        "type": "workflow-start",
        "runId": "wf-run",
        "from": "WORKFLOW",
        "payload": {"workflowId": "greet"},
    },
    {
        "type": "workflow-step-result",
        "runId": "wf-run",
        "from": "WORKFLOW",
        "payload": {"id": "greet", "status": "success", "output": {"greeting": "안녕, Ada"}},
    },
    {
        "type": "workflow-finish",
        "runId": "wf-run",
        "from": "WORKFLOW",
        "payload": {"workflowStatus": "success"},
    },
]


def pieces(data: bytes, size: int, delay: float = 0.0):  # type: ignore[no-untyped-def]
    async def gen() -> AsyncIterator[bytes]:
        for i in range(0, len(data), size):
            yield data[i : i + size]
            if delay:
                await asyncio.sleep(delay)

    return gen()


async def seed(request: Request) -> Response:
    mode = request.path_params["mode"]
    if mode == "whole":
        return StreamingResponse(pieces(SEED, len(SEED)), media_type="text/event-stream")
    if mode == "bytewise":
        return StreamingResponse(pieces(SEED, 1), media_type="text/event-stream")
    if mode == "slow":
        return StreamingResponse(pieces(SEED, 400, delay=0.03), media_type="text/event-stream")
    if mode == "truncated":
        return StreamingResponse(pieces(SEED[:700], 100), media_type="text/event-stream")

    async def broken() -> AsyncIterator[bytes]:
        yield SEED[:700]
        raise ConnectionResetError("server dropped the connection")

    return StreamingResponse(broken(), media_type="text/event-stream")


async def hang(request: Request) -> Response:
    async def gen() -> AsyncIterator[bytes]:
        yield SEED[:300]
        for _ in range(100):  # bounded: at most 10 s, the client gives up long before
            await asyncio.sleep(0.1)

    return StreamingResponse(gen(), media_type="text/event-stream")


async def failure(request: Request) -> Response:
    return JSONResponse({"error": "model provider unavailable"}, status_code=500)


async def html(request: Request) -> Response:
    return Response("<html><body>Login required</body></html>", media_type="text/html")


async def endless_text(request: Request) -> Response:
    async def gen() -> AsyncIterator[bytes]:
        yield b"tick 0\n"
        for n in range(1, 100):  # bounded: at most 10 s, the client is gone long before
            await asyncio.sleep(0.1)
            yield f"tick {n}\n".encode()

    return StreamingResponse(gen(), media_type="text/plain")


async def endless_error(request: Request) -> Response:
    async def gen() -> AsyncIterator[bytes]:
        yield b"overloaded: " + b"x" * 70_000
        for _ in range(100):
            await asyncio.sleep(0.1)
            yield b"x" * 100

    return StreamingResponse(gen(), status_code=503, media_type="text/plain")


def _needs_json(request: Request) -> Response | None:
    if request.headers.get("content-type") != "application/json":
        return JSONResponse({"error": "Content-Type must be application/json"}, status_code=415)
    return None


async def agent_stream(request: Request) -> Response:
    if (problem := _needs_json(request)) is not None:
        return problem
    agent = request.path_params["agent"]
    body = await request.json()
    if agent == "missing":
        return JSONResponse({"error": "Agent with id missing not found"}, status_code=404)
    frames = [f"data: {json.dumps(c, ensure_ascii=False)}\n\n" for c in AGENT_CHUNKS]
    echo = {"type": "raw", "runId": "agent-run", "from": "AGENT", "payload": {"echo": body}}
    frames.insert(0, f"data: {json.dumps(echo)}\n\n")
    if agent != "cut":
        frames.append("data: [DONE]\n\n")
    data = "".join(frames).encode()
    # No charset in the header, as Mastra sends it: the body is UTF-8 anyway.
    return StreamingResponse(pieces(data, 7), headers={"content-type": "text/event-stream"})


async def create_run(request: Request) -> Response:
    if (problem := _needs_json(request)) is not None:
        return problem
    if request.path_params["workflow"] == "missing":
        return JSONResponse({"error": "Workflow not found"}, status_code=404)
    return JSONResponse({"runId": "wf-run"})


async def workflow_stream(request: Request) -> Response:
    if (problem := _needs_json(request)) is not None:
        return problem
    body = await request.json()
    if request.query_params.get("runId") != "wf-run" or "inputData" not in body:
        return JSONResponse({"error": "bad request"}, status_code=400)
    data = "".join(json.dumps(c, ensure_ascii=False) + "\x1e" for c in WORKFLOW_CHUNKS).encode()
    if request.path_params["workflow"] == "cut":
        data = data[:-25]
    return StreamingResponse(pieces(data, 5), headers={"content-type": "text/plain"})


APP = Starlette(
    routes=[
        Route("/seed/{mode}", seed, methods=["GET", "POST"]),
        Route("/hang", hang, methods=["POST"]),
        Route("/fail", failure, methods=["POST"]),
        Route("/html", html, methods=["POST"]),
        Route("/endless-text", endless_text, methods=["POST"]),
        Route("/endless-error", endless_error, methods=["POST"]),
        Route("/api/agents/{agent}/stream", agent_stream, methods=["POST"]),
        Route("/api/workflows/{workflow}/create-run", create_run, methods=["POST"]),
        Route("/api/workflows/{workflow}/stream", workflow_stream, methods=["POST"]),
    ]
)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    config = uvicorn.Config(APP, host="127.0.0.1", port=0, log_level="critical", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "test server did not start"
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    server.force_exit = True
    thread.join(timeout=5)


def run_both(stream: Any) -> list[dict[str, Any]]:
    """Iterate sync, then async, and check both give the same chunks (ids aside)."""
    sync_chunks = list(stream)

    async def collect() -> list[dict[str, Any]]:
        return [c async for c in stream]

    async_chunks = asyncio.run(collect())
    strip = lambda cs: [{k: v for k, v in c.items() if k != "runId"} for c in cs]  # noqa: E731
    assert strip(sync_chunks) == strip(async_chunks)
    return sync_chunks


@pytest.mark.parametrize("mode", ["whole", "bytewise", "slow"])
def test_seed_stream_arrives_whole_however_it_is_written(base_url: str, mode: str) -> None:
    chunks = run_both(sse(f"{base_url}/seed/{mode}", json={"q": "hi"}, timeout=5))
    assert_coherent(chunks)
    state = accumulate(chunks)
    assert state.text == "안녕하세요"
    assert state.status == "finished"
    assert len(of_type(chunks, "source")) == 1


def test_disconnect_mid_event_keeps_what_came_and_says_where(base_url: str) -> None:
    chunks = run_both(sse(f"{base_url}/seed/broken", timeout=5))
    assert_coherent(chunks)
    error = chunks[-1]["payload"]["error"]
    assert chunks[-1]["type"] == "error"
    assert "connection" in error["message"] and "broke after" in error["message"]
    assert "in the middle of the next one" in error["message"]
    assert of_type(chunks, "data-progress")


def test_body_ending_mid_event_is_reported(base_url: str) -> None:
    chunks = run_both(sse(f"{base_url}/seed/truncated", timeout=5))
    messages = [c["payload"]["error"]["message"] for c in of_type(chunks, "error")]
    assert messages == ["the SSE stream ended in the middle of an event, after 4 complete events"]


def test_server_error_status_with_json_body(base_url: str) -> None:
    chunks = run_both(sse(f"{base_url}/fail", timeout=5))
    (error,) = chunks
    assert error["type"] == "error"
    assert error["payload"]["error"]["status"] == 500
    assert error["payload"]["error"]["message"] == (
        f"POST {base_url}/fail answered HTTP 500: model provider unavailable"
    )


def test_non_sse_content_type(base_url: str) -> None:
    (error,) = run_both(sse(f"{base_url}/html", timeout=5))
    assert "not text/event-stream" in error["payload"]["error"]["message"]
    assert "text/html" in error["payload"]["error"]["contentType"]
    assert "Login required" in error["payload"]["error"]["body"]


def test_an_endless_body_that_is_not_sse_is_refused_at_once(base_url: str) -> None:
    started = time.monotonic()
    (error,) = run_both(sse(f"{base_url}/endless-text", timeout=5))
    # Both reads together, long before the body (ten seconds of ticks) or the timeout ends.
    assert time.monotonic() - started < 3
    assert "not a server-sent event stream" in error["payload"]["error"]["message"]
    assert error["payload"]["error"]["contentType"].startswith("text/plain")
    assert error["payload"]["error"]["body"].startswith("tick 0")


def test_an_endless_error_body_is_read_up_to_its_limit_only(base_url: str) -> None:
    started = time.monotonic()
    (error,) = run_both(sse(f"{base_url}/endless-error", timeout=5))
    assert time.monotonic() - started < 3
    assert error["payload"]["error"]["status"] == 503
    assert "answered HTTP 503: overloaded: xxx" in error["payload"]["error"]["message"]


def test_hanging_server_times_out_with_a_clear_error(base_url: str) -> None:
    started = time.monotonic()
    chunks = run_both(sse(f"{base_url}/hang", timeout=0.4))
    assert time.monotonic() - started < 4
    assert chunks[0]["type"] == "start"
    message = chunks[-1]["payload"]["error"]["message"]
    assert "sent nothing for 0.4 s" in message and "gave up waiting" in message


def test_unreachable_server() -> None:
    (error,) = list(sse("http://127.0.0.1:9/nothing", timeout=2))
    assert error["payload"]["error"]["message"].startswith(
        "could not connect to http://127.0.0.1:9/nothing"
    )


def test_unknown_adapter_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown adapter"):
        sse("http://127.0.0.1:9/", adapter="nope")


def test_mastra_agent_stream_passes_chunks_through(base_url: str) -> None:
    client = mastra(base_url, timeout=5)
    stream = client.agent("weatherAgent").stream([{"role": "user", "content": "날씨?"}], maxSteps=3)
    chunks = run_both(stream)
    assert chunks[0]["payload"]["echo"] == {
        "messages": [{"role": "user", "content": "날씨?"}],
        "maxSteps": 3,
    }
    assert chunks[1:] == AGENT_CHUNKS


def test_mastra_agent_stream_without_done_was_cut_short(base_url: str) -> None:
    chunks = run_both(mastra(base_url, timeout=5).agent("cut").stream("hi"))
    assert chunks[1:-1] == AGENT_CHUNKS
    assert chunks[-1]["type"] == "error"
    assert "without [DONE]" in chunks[-1]["payload"]["error"]["message"]


def test_mastra_agent_not_found(base_url: str) -> None:
    (error,) = run_both(mastra(base_url, timeout=5).agent("missing").stream("hi"))
    assert error["payload"]["error"]["status"] == 404
    assert error["payload"]["error"]["message"].endswith(
        "answered HTTP 404: Agent with id missing not found"
    )


def test_mastra_workflow_creates_a_run_then_streams_records(base_url: str) -> None:
    stream = mastra(base_url, timeout=5).workflow("greet").stream({"name": "Ada"})
    assert run_both(stream) == WORKFLOW_CHUNKS
    assert stream.run_id == "wf-run"


def test_mastra_workflow_cut_mid_record_and_missing_workflow(base_url: str) -> None:
    cut = run_both(mastra(base_url, timeout=5).workflow("cut").stream({"name": "Ada"}))
    assert cut[:-1] == WORKFLOW_CHUNKS[:2]
    assert "middle of a JSON record" in cut[-1]["payload"]["error"]["message"]
    (error,) = run_both(mastra(base_url, timeout=5).workflow("missing").stream({}))
    assert (
        "create-run answered HTTP 404: Workflow not found" in error["payload"]["error"]["message"]
    )


def test_workflow_errors_come_from_the_workflow(base_url: str) -> None:
    (error,) = run_both(mastra(base_url, timeout=5).workflow("missing").stream({}))
    assert error["from"] == "WORKFLOW"


def test_workflow_create_run_that_cannot_connect_names_that_request() -> None:
    (error,) = list(mastra("http://127.0.0.1:9", timeout=2).workflow("w").stream({}))
    assert error["payload"]["error"]["url"] == "http://127.0.0.1:9/api/workflows/w/create-run"
