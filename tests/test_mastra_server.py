"""A real Mastra server (Node, ``tests/mastra_server``) streamed through ``chunkscope.mastra``.

The server runs ``@mastra/core`` 1.71 behind ``@mastra/deployer``'s ``createNodeServer`` on
127.0.0.1 with a scripted mock model. Each run read over HTTP into a ``StreamView`` must fold
into the same RunState as the same run's in-process ``fullStream`` recording
(``tests/mastra_server/expected/*.jsonl``): only ids and arrival times may differ, and the
``request`` bodies the server strips from ``step-finish``/``finish`` must not matter.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import pytest

import chunkscope as cs
from chunkscope.fold.state import RunState

pytestmark = pytest.mark.node

SERVER_DIR = Path(__file__).parent / "mastra_server"
EXPECTED_DIR = SERVER_DIR / "expected"

# What app.mjs exports as AGENT_MESSAGES / WORKFLOW_INPUT: the recordings were made with these.
AGENT_MESSAGES = [{"role": "user", "content": "What is the weather in Seoul?"}]
WORKFLOW_INPUT = {"name": "Ada"}

NPM_CI_TIMEOUT_S = 600.0
START_TIMEOUT_S = 45.0
"""Start-up takes about 1 s idle; a loaded 2-core CI box has been seen at 6 s."""
STOP_GRACE_S = 5.0
RUN_TIMEOUT_S = 30.0

# Part fields that hold arrival offsets, different on every run by nature.
_TIMING_FIELDS = ("t0", "t1", "marks")


# ------------------------------------------------------------------------ the server


def _install_node_modules() -> None:
    """``npm ci`` once per checkout: node_modules is gitignored (~25 s, ~256 MB)."""
    if (SERVER_DIR / "node_modules" / ".package-lock.json").is_file():
        return
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail(f"node is installed but npm is not: cannot install {SERVER_DIR}/node_modules")
    try:
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=SERVER_DIR,
            capture_output=True,
            text=True,
            timeout=NPM_CI_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"`npm ci` in {SERVER_DIR} did not finish within {NPM_CI_TIMEOUT_S:g} s")
    if done.returncode != 0:
        pytest.fail(
            f"`npm ci` in {SERVER_DIR} failed with exit status {done.returncode}:\n"
            f"{(done.stderr or done.stdout)[:4000]}"
        )


def _read_port(proc: subprocess.Popen[bytes], stderr: IO[bytes]) -> int:
    """The port from the server's one stdout line, waiting at most START_TIMEOUT_S."""
    assert proc.stdout is not None
    deadline = time.monotonic() + START_TIMEOUT_S
    received = b""
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        while b"\n" not in received:
            left = deadline - time.monotonic()
            if left <= 0 or not selector.select(left):
                problem = f"printed no port line within {START_TIMEOUT_S:g} s"
                break
            piece = os.read(proc.stdout.fileno(), 4096)
            if not piece:
                problem = f"exited with status {proc.wait(STOP_GRACE_S)} before listening"
                break
            received += piece
        else:
            line = received.split(b"\n", 1)[0]
            try:
                port = json.loads(line)["port"]
            except (ValueError, KeyError, TypeError):
                problem = f"printed {line!r} instead of a {{'port': N}} line"
            else:
                if isinstance(port, int) and port > 0:
                    return port
                problem = f"reported an unusable port {port!r}"
    stderr.seek(0)
    raise RuntimeError(
        f"node server.mjs {problem}; stderr:\n{stderr.read().decode('utf-8', 'replace')[-4000:]}"
    )


def _signal_group(group: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, sig)


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def _group_gone(group: int, within_s: float) -> bool:
    """True once no process of the group is left (killed children take a moment to go)."""
    deadline = time.monotonic() + within_s
    while _group_alive(group):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server's process group, SIGKILL what is left after a grace period."""
    group = proc.pid  # start_new_session made the server its group's leader
    _signal_group(group, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(STOP_GRACE_S)
    if _group_alive(group):
        _signal_group(group, signal.SIGKILL)
    proc.wait(STOP_GRACE_S)


@pytest.fixture(scope="module")
def mastra_url() -> Iterator[str]:
    """The base URL of a fresh ``node server.mjs`` on 127.0.0.1, stopped after the module."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("`node` is not on PATH: the real Mastra server test needs Node.js 20+")
    _install_node_modules()
    with tempfile.TemporaryFile() as stderr:
        proc = subprocess.Popen(
            [node, "server.mjs"],
            cwd=SERVER_DIR,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            start_new_session=True,
        )
        try:
            port = _read_port(proc, stderr)
            yield f"http://127.0.0.1:{port}"
        finally:
            _stop(proc)
            assert proc.stdout is not None
            proc.stdout.close()
        assert proc.returncode is not None, "the Mastra server is still running"
        assert _group_gone(proc.pid, STOP_GRACE_S), (
            "a process of the Mastra server's group survived"
        )


# ------------------------------------------------------------------------ reading runs


def _expected(name: str) -> RunState:
    return cs.accumulate(cs.replay(EXPECTED_DIR / name, speed=0))


def _agent_stream(url: str, agent_id: str = "weatherAgent") -> Any:
    return cs.mastra(url).agent(agent_id).stream(AGENT_MESSAGES)


def _workflow_stream(url: str, workflow_id: str = "greetingWorkflow") -> Any:
    return cs.mastra(url).workflow(workflow_id).stream(WORKFLOW_INPUT)


def _plain_iterator(source: Any) -> Iterator[Any]:
    """The client's sync iteration only: a generator has no ``__aiter__`` to prefer."""
    yield from source


READERS: dict[str, Callable[[Any], Any]] = {
    # show() prefers __aiter__: the client's async iteration, in the consumer's thread.
    "async-iterable": lambda source: source,
    "sync-iterable": _plain_iterator,
}


def _shown(source: Any) -> tuple[cs.StreamView, RunState]:
    view = cs.show(source, display=False)
    return view, view.result(timeout=RUN_TIMEOUT_S)


# ------------------------------------------------------------------------ comparing runs


def _structure(state: RunState) -> list[dict[str, Any]]:
    """Every part as on the wire, minus arrival offsets; state changes keep their order."""
    parts = []
    for part in state.parts:
        wire = {k: v for k, v in part.to_wire().items() if k not in _TIMING_FIELDS}
        if "states" in wire:
            wire["states"] = [name for _t, name in wire["states"]]
        if "runId" in wire:
            wire["runId"] = wire["runId"] is not None
        parts.append(wire)
    return parts


def _row_shapes(state: RunState) -> list[tuple[Any, ...]]:
    """One entry per chunk the inspector lists, without its JSON (ids and times differ).

    A row merges consecutive deltas that arrive close together (``n`` of them), so the
    grouping depends on timing; the chunks behind the rows do not.
    """
    return [
        (r["type"], r["from"], r["family"], r["part"]) for r in state.rows for _ in range(r["n"])
    ]


def _transient(state: RunState) -> list[tuple[Any, Any, Any]]:
    return [(item["type"], item["id"], item["data"]) for item in state.transient]


def _usage(state: RunState) -> tuple[Any, Any]:
    return (
        None if state.usage is None else state.usage.model_dump(),
        None if state.total_usage is None else state.total_usage.model_dump(),
    )


def assert_same_run(got: RunState, expected: RunState) -> None:
    """What a user sees of the two runs is the same, part for part."""
    assert got.status == expected.status
    assert got.finish_reason == expected.finish_reason
    assert got.error == expected.error
    assert _usage(got) == _usage(expected)
    assert got.text == expected.text
    assert got.full_text == expected.full_text
    assert got.reasoning_text == expected.reasoning_text
    assert len(got.steps) == len(expected.steps)
    assert [(t.tool_name, t.args, t.args_text) for t in got.tool_calls] == [
        (t.tool_name, t.args, t.args_text) for t in expected.tool_calls
    ]
    assert [(t.tool_name, t.result, t.error) for t in got.tool_results] == [
        (t.tool_name, t.result, t.error) for t in expected.tool_results
    ]
    assert [p.kind for p in got.parts] == [p.kind for p in expected.parts]
    assert _structure(got) == _structure(expected)
    assert _row_shapes(got) == _row_shapes(expected)
    assert _transient(got) == _transient(expected)
    assert (got.chunk_count, got.errors, got.warnings) == (
        expected.chunk_count,
        expected.errors,
        expected.warnings,
    )
    assert (got.ttft_ms is None) == (expected.ttft_ms is None)
    assert got.transcript() == expected.transcript()


def assert_transient_not_persisted(view: cs.StreamView, transient_type: str) -> None:
    """Shown live (in ``state.transient``) but absent from the synced, saved snapshot."""
    assert transient_type in [item["type"] for item in view.state.transient]
    snapshot = view.snapshot
    assert snapshot is not None and snapshot["run"]["ended"] is True
    assert transient_type not in json.dumps(snapshot)


# ------------------------------------------------------------------------ the agent


def assert_weather_agent_run(state: RunState) -> None:
    """The run app.mjs scripts, so that two equally broken states cannot pass as equal."""
    assert state.status == "finished"
    assert state.finish_reason == "stop"
    assert state.text == "It is 21 °C and sunny in Seoul."
    assert state.full_text == "Let me check.It is 21 °C and sunny in Seoul."
    assert [s.finish_reason for s in state.steps] == ["tool-calls", "stop"]
    assert state.usage is not None
    assert (state.usage.input_tokens, state.usage.output_tokens) == (20, 10)
    (call,) = state.tool_calls
    assert (call.tool_name, call.args, call.state) == ("get-weather", {"city": "Seoul"}, "done")
    assert call.result == {"city": "Seoul", "temperature": 21, "sky": "sunny"}
    assert _transient(state) == [("data-progress", None, {"percent": 50})]
    assert "[output] {" in state.transcript() and '"looking up"' in state.transcript()


def _has_request(state: RunState) -> list[bool]:
    """Per step-finish/finish chunk: does it still carry the provider request body?"""
    return [
        "request" in row["json"]["payload"]["metadata"]
        for row in state.rows
        if row["type"] in ("step-finish", "finish")
    ]


@pytest.mark.parametrize("reader", sorted(READERS))
def test_agent_over_http_folds_like_the_in_process_run(mastra_url: str, reader: str) -> None:
    view, got = _shown(READERS[reader](_agent_stream(mastra_url)))
    expected = _expected("agent-weatherAgent.jsonl")

    assert_weather_agent_run(expected)
    # The server strips the request bodies: the chunks differ, the runs must not.
    assert (_has_request(got), _has_request(expected)) == ([False] * 3, [True] * 3)
    assert_same_run(got, expected)
    assert_transient_not_persisted(view, "data-progress")


async def test_agent_over_http_on_the_event_loop(mastra_url: str) -> None:
    view = cs.show(_agent_stream(mastra_url), display=False)
    got = await view

    assert_same_run(got, _expected("agent-weatherAgent.jsonl"))
    assert_transient_not_persisted(view, "data-progress")


# ------------------------------------------------------------------------ the workflow


def assert_greeting_workflow_run(state: RunState) -> None:
    assert state.status == "finished"
    assert state.workflow is not None
    assert (state.workflow.workflow_id, state.workflow.status) == ("greeting-workflow", "success")
    assert [(s.step_id, s.state, s.output) for s in state.workflow_steps] == [
        ("greet", "success", {"greeting": "Hello, Ada!"}),
        ("measure", "success", {"greeting": "Hello, Ada!", "length": 11}),
    ]
    assert "[output] {" in state.transcript() and '"stage": "greeting"' in state.transcript()


@pytest.mark.parametrize("reader", sorted(READERS))
def test_workflow_over_http_folds_like_the_in_process_run(mastra_url: str, reader: str) -> None:
    view, got = _shown(READERS[reader](_workflow_stream(mastra_url)))
    expected = _expected("workflow-greetingWorkflow.jsonl")

    assert_greeting_workflow_run(expected)
    assert_same_run(got, expected)
    assert view.snapshot is not None and view.snapshot["run"]["status"] == "finished"


async def test_workflow_over_http_on_the_event_loop(mastra_url: str) -> None:
    view = cs.show(_workflow_stream(mastra_url), display=False)

    assert_same_run(await view, _expected("workflow-greetingWorkflow.jsonl"))


def test_workflow_over_http_keeps_the_final_result(mastra_url: str) -> None:
    _view, got = _shown(_workflow_stream(mastra_url))

    assert got.workflow is not None
    assert got.workflow.result == {"greeting": "Hello, Ada!", "length": 11}


# ------------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("open_stream", "route", "mastra_message"),
    [
        (_agent_stream, "/api/agents/nope/stream", "Agent with id nope not found"),
        (_workflow_stream, "/api/workflows/nope/create-run", "Workflow not found"),
    ],
    ids=["agent", "workflow"],
)
def test_unknown_id_ends_with_a_visible_404(
    mastra_url: str, open_stream: Callable[[str, str], Any], route: str, mastra_message: str
) -> None:
    view = cs.show(open_stream(mastra_url, "nope"), display=False)
    state = view.result(timeout=RUN_TIMEOUT_S)  # the failure is the run's, nothing raises

    assert state.status == "error"
    line = f"POST {mastra_url}{route} answered HTTP 404: {mastra_message}"
    assert state.error["message"] == line
    assert (state.error["status"], state.error["body"]) == (404, {"error": mastra_message})
    (notice,) = state.notices
    assert (notice.level, notice.message) == ("error", line)
    assert line in state.transcript()
    assert view.snapshot is not None and view.snapshot["run"]["error"] == line
