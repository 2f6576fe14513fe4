"""A real Mastra server (Node, ``tests/mastra_server``) streamed through ``chunkscope.mastra``.

The server runs ``@mastra/core`` 1.71 behind ``@mastra/deployer``'s ``createNodeServer`` on
127.0.0.1 with scripted mock models: an agent and a workflow of its own, and the recorder's
scenarios (``tests/fixtures/mastra/recorder``) that its HTTP routes can start, each under its
recording name. In the same test session ``record-inprocess.mjs`` records every one of those
runs in process, with the same release. Each run read over HTTP into a ``StreamView`` must fold
into the same RunState as the in-process recording: only ids, wall-clock times and arrival
times may differ, and the ``request`` bodies the server strips from ``step-finish``/``finish``
must not matter.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pytest

import chunkscope as cs
from chunkscope.fold.flow_parts import NestedRun, NetworkEvent, WorkflowRun
from chunkscope.fold.parts import TextPart
from chunkscope.fold.state import RunState

pytestmark = pytest.mark.node

SERVER_DIR = Path(__file__).parent / "mastra_server"
EXPECTED_DIR = SERVER_DIR / "expected"
FIXTURES_DIR = Path(__file__).parent / "fixtures" / "mastra"
"""The recorder's committed recordings of the same scenarios."""

# What app.mjs exports as AGENT_MESSAGES / WORKFLOW_INPUT: the recordings were made with these.
AGENT_MESSAGES = [{"role": "user", "content": "What is the weather in Seoul?"}]
WORKFLOW_INPUT = {"name": "Ada"}

NPM_CI_TIMEOUT_S = 600.0
START_TIMEOUT_S = 45.0
"""Start-up takes about 1 s idle; a loaded 2-core CI box has been seen at 6 s."""
RECORD_TIMEOUT_S = 120.0
"""Recording every served run in process takes about 3 s idle."""
STOP_GRACE_S = 5.0
RUN_TIMEOUT_S = 30.0

# Part fields that hold arrival offsets, different on every run by nature.
_TIMING_FIELDS = ("t0", "t1", "marks")

# What differs between two runs of the same scenario inside the payloads that parts keep
# (network events keep theirs whole): ids, wall-clock times, and durations.
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")
_CLOCK_KEYS = ("createdAt", "startedAt", "endedAt", "completedAt", "timestamp", "duration")
_CLOCK_IN_TEXT = re.compile(r'("(?:' + "|".join(_CLOCK_KEYS) + r')":)\d+(?:\.\d+)?')


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


def _stop_if_running(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        _stop(proc)


def _recording_failed(recorder: subprocess.Popen[bytes], stderr: IO[bytes]) -> str | None:
    """Why ``record-inprocess.mjs`` did not record (None once it has), waiting for it to end."""
    try:
        status = recorder.wait(RECORD_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        _signal_group(recorder.pid, signal.SIGKILL)
        recorder.wait(STOP_GRACE_S)
        return f"did not finish within {RECORD_TIMEOUT_S:g} s"
    if status == 0:
        return None
    stderr.seek(0)
    return f"exited with status {status}:\n{stderr.read().decode('utf-8', 'replace')[-4000:]}"


@dataclass(frozen=True)
class MastraSession:
    """A running server, and the same runs recorded in process in the same session."""

    url: str
    """The server's base URL."""
    recorded: Path
    """The folder ``record-inprocess.mjs`` wrote: ``<run>.jsonl`` and ``calls.json``."""
    calls: dict[str, dict[str, Any]]
    """Per served scenario: the route kind and what to send (``calls.json``)."""


@pytest.fixture(scope="module")
def mastra_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MastraSession]:
    """A fresh ``node server.mjs`` on 127.0.0.1 (stopped after the module) and, recorded while it
    starts, the in-process runs of everything it serves."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("`node` is not on PATH: the real Mastra server test needs Node.js 20+")
    _install_node_modules()
    recorded = tmp_path_factory.mktemp("mastra-in-process")
    with (
        tempfile.TemporaryFile() as stderr,
        tempfile.TemporaryFile() as recorder_stderr,
        contextlib.ExitStack() as cleanup,
    ):
        recorder = subprocess.Popen(
            [node, "record-inprocess.mjs", str(recorded)],
            cwd=SERVER_DIR,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=recorder_stderr,
            start_new_session=True,
        )
        cleanup.callback(_stop_if_running, recorder)
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
            problem = _recording_failed(recorder, recorder_stderr)
            if problem is not None:
                raise RuntimeError(f"node record-inprocess.mjs {problem}")
            calls = json.loads((recorded / "calls.json").read_text(encoding="utf-8"))
            yield MastraSession(f"http://127.0.0.1:{port}", recorded, calls)
        finally:
            _stop(proc)
            assert proc.stdout is not None
            proc.stdout.close()
        assert proc.returncode is not None, "the Mastra server is still running"
        assert _group_gone(proc.pid, STOP_GRACE_S), (
            "a process of the Mastra server's group survived"
        )


@pytest.fixture(scope="module")
def mastra_url(mastra_session: MastraSession) -> str:
    """The base URL of the module's server."""
    return mastra_session.url


# ------------------------------------------------------------------------ reading runs


def _folded(path: Path) -> RunState:
    return cs.accumulate(cs.replay(path, speed=0))


def _in_process(session: MastraSession, run: str) -> RunState:
    """The session's in-process recording of ``run`` (a served scenario or the app's own run)."""
    return _folded(session.recorded / (run if run.endswith(".jsonl") else f"{run}.jsonl"))


def _agent_stream(url: str, agent_id: str = "weatherAgent") -> Any:
    return cs.mastra(url).agent(agent_id).stream(AGENT_MESSAGES)


def _workflow_stream(url: str, workflow_id: str = "greetingWorkflow") -> Any:
    return cs.mastra(url).workflow(workflow_id).stream(WORKFLOW_INPUT)


def _scenario_stream(session: MastraSession, name: str) -> Any:
    """The served scenario ``name`` started over HTTP as ``calls.json`` says, through the client."""
    call = session.calls[name]
    options = call.get("options") or {}
    client = cs.mastra(session.url)
    if call["kind"] == "agent":
        return client.agent(name).stream(call["messages"], **options)
    if call["kind"] == "network":
        return client.agent(name).network(call["messages"], **options)
    assert call["kind"] == "workflow", call
    return client.workflow(name).stream(call["inputData"], **options)


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


def _steady(value: Any, key: str | None = None) -> Any:
    """``value`` with ids, wall-clock times and durations replaced by placeholders, also inside
    strings (a network's result is JSON text holding run ids and step times)."""
    if isinstance(value, dict):
        return {k: _steady(v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_steady(v) for v in value]
    if isinstance(value, str):
        text = _ISO_TIME.sub("<time>", _UUID.sub("<id>", value))
        return _CLOCK_IN_TEXT.sub(r'\1"<ms>"', text)
    if key in _CLOCK_KEYS and isinstance(value, (int, float)) and not isinstance(value, bool):
        return "<ms>"
    return value


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


def _problems(problems: list[Any]) -> list[tuple[Any, ...]]:
    """Errors or warnings without where they were read (an HTTP event or a recording's line)."""
    return [(p.message, p.chunk_index, p.type) for p in problems]


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


def _seen(state: RunState) -> dict[str, Any]:
    """What a user sees of a run, value by value, with ids and clock readings steadied."""
    workflow = state.workflow
    return _steady(
        {
            "status": state.status,
            "finish reason": state.finish_reason,
            "error": state.error,
            "usage": _usage(state),
            "text": state.text,
            "full text": state.full_text,
            "reasoning": state.reasoning_text,
            "step usage": [None if s.usage is None else s.usage.model_dump() for s in state.steps],
            "tool calls": [
                (t.tool_name, t.args, t.args_text, t.state, t.result, t.error)
                for t in state.tool_calls
            ],
            "tool results": [(t.tool_name, t.result, t.error) for t in state.tool_results],
            "tripwire": state.tripwire,
            "files": [(f.mime_type, f.data, f.filename) for f in state.files],
            "sources": [(s.source_type, s.title, s.url, s.filename) for s in state.sources],
            "workflow": None
            if workflow is None
            else (workflow.workflow_id, workflow.status, workflow.result, workflow.error),
            "workflow steps": [
                (s.step_id, s.state, s.input, s.output, s.error) for s in state.workflow_steps
            ],
            "parts": [p.kind for p in state.parts],
            "structure": _structure(state),
            "rows": _row_shapes(state),
            "transient": _transient(state),
            "chunks": state.chunk_count,
            "errors": _problems(state.errors),
            "warnings": _problems(state.warnings),
            "has ttft": state.ttft_ms is not None,
            "transcript": state.transcript().splitlines(),
        }
    )


def assert_same_run(got: RunState, expected: RunState) -> None:
    """What a user sees of the two runs is the same, part for part (ids, wall-clock times and
    arrival times aside)."""
    seen, wanted = _seen(got), _seen(expected)
    for key, value in wanted.items():
        assert seen[key] == value, key


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
def test_agent_over_http_folds_like_the_in_process_run(
    mastra_session: MastraSession, reader: str
) -> None:
    view, got = _shown(READERS[reader](_agent_stream(mastra_session.url)))
    expected = _in_process(mastra_session, "agent-weatherAgent")

    assert_weather_agent_run(expected)
    # The server strips the request bodies: the chunks differ, the runs must not.
    assert (_has_request(got), _has_request(expected)) == ([False] * 3, [True] * 3)
    assert_same_run(got, expected)
    assert_transient_not_persisted(view, "data-progress")


async def test_agent_over_http_on_the_event_loop(mastra_session: MastraSession) -> None:
    view = cs.show(_agent_stream(mastra_session.url), display=False)
    got = await view

    assert_same_run(got, _in_process(mastra_session, "agent-weatherAgent"))
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
def test_workflow_over_http_folds_like_the_in_process_run(
    mastra_session: MastraSession, reader: str
) -> None:
    view, got = _shown(READERS[reader](_workflow_stream(mastra_session.url)))
    expected = _in_process(mastra_session, "workflow-greetingWorkflow")

    assert_greeting_workflow_run(expected)
    assert_same_run(got, expected)
    assert view.snapshot is not None and view.snapshot["run"]["status"] == "finished"


async def test_workflow_over_http_on_the_event_loop(mastra_session: MastraSession) -> None:
    view = cs.show(_workflow_stream(mastra_session.url), display=False)

    assert_same_run(await view, _in_process(mastra_session, "workflow-greetingWorkflow"))


def test_workflow_over_http_keeps_the_final_result(mastra_url: str) -> None:
    _view, got = _shown(_workflow_stream(mastra_url))

    assert got.workflow is not None
    assert got.workflow.result == {"greeting": "Hello, Ada!", "length": 11}


# ------------------------------------------------------------------------ the recorder's scenarios

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png(state: RunState) -> bytes:
    """The one file of the run, decoded: a PNG image."""
    (file,) = state.files
    assert file.mime_type == "image/png"
    data = base64.b64decode(file.data, validate=True)
    assert data.startswith(PNG_SIGNATURE)
    return data


def _tokens(usage: Any) -> tuple[Any, Any]:
    assert usage is not None
    return (usage.input_tokens, usage.output_tokens)


def _finished(state: RunState, text: str, step_tokens: list[tuple[int, int]]) -> None:
    """An agent run that finished with ``text``, its steps reporting these token counts."""
    assert (state.status, state.finish_reason, state.error) == ("finished", "stop", None)
    assert state.text == text
    assert [_tokens(s.usage) for s in state.steps] == step_tokens
    assert _tokens(state.usage) == tuple(map(sum, zip(*step_tokens, strict=True)))


def _calls(state: RunState) -> list[tuple[str, Any, str, Any]]:
    return [(c.tool_name, c.args, c.state, c.result) for c in state.tool_calls]


def _workflow(state: RunState) -> tuple[str | None, str | None, Any]:
    assert state.workflow is not None
    return (state.workflow.workflow_id, state.workflow.status, state.workflow.result)


def _wsteps(state: RunState) -> list[tuple[str, str, Any]]:
    return [(s.step_id, s.state, s.output) for s in state.workflow_steps]


def _network_events(state: RunState) -> list[tuple[str, str]]:
    return [(p.event, p.label) for p in state.parts_of(NetworkEvent)]


def _network_result(state: RunState) -> Any:
    (finish,) = [p for p in state.parts_of(NetworkEvent) if p.event.endswith("-finish")]
    return finish.payload["result"]


def _nested(state: RunState) -> list[tuple[str, str | None, str]]:
    """Each nested run's label and status, with the text it wrote."""
    return [
        (
            run.label,
            run.status,
            "".join(t.text for t in state.parts_of(TextPart) if t.parent == run.id),
        )
        for run in state.parts_of(NestedRun)
    ]


def _routed(*middle: tuple[str, str]) -> list[tuple[str, str]]:
    """A network's events when the routing agent picks one primitive, which completes the task."""
    label = middle[-1][1]
    return [
        ("routing-agent-start", "routing-agent"),
        ("routing-agent-end", label),
        *middle,
        ("network-validation-start", ""),
        ("network-validation-end", ""),
        ("network-execution-event-finish", label),
    ]


HAIKU = "Chunks drift downstream / each token a small bright fish / the widget keeps up"


def check_plain_text(state: RunState) -> None:
    _finished(state, "Hello! Streaming works, one word at a time.", [(10, 5)])


def check_reasoning(state: RunState) -> None:
    _finished(state, "I pick 7.", [(12, 20)])
    assert state.reasoning_text == "The user wants a number. Seven is prime and friendly."


def check_tool_streamed_input(state: RunState) -> None:
    _finished(state, "It is 21 °C in Seoul.", [(20, 8), (40, 9)])
    assert state.full_text == "Let me check.It is 21 °C in Seoul."
    seoul = {"city": "Seoul", "unit": "C"}
    assert _calls(state) == [("get-weather", seoul, "done", {**seoul, "temperature": 21})]
    (call,) = state.tool_calls
    assert call.args_text == '{"city":"Seoul","unit":"C"}'


def check_tool_writer(state: RunState) -> None:
    _finished(state, "All 3 items are processed.", [(10, 5), (10, 5)])
    assert _calls(state) == [("long-task", {"items": 3}, "done", {"processed": 3})]
    assert _transient(state) == [
        ("data-progress", None, {"done": n, "total": 3}) for n in (1, 2, 3)
    ]
    assert [(d.data_type, d.data) for d in state.data] == [
        ("data-report", {"summary": "3 items processed"})
    ]


def check_tool_throws(state: RunState) -> None:
    # Every step shows its own usage, the run their sum (see README.md: a recording that turns
    # chunks into JSON after the stream ended shows the sum on the last step instead).
    _finished(state, "The lookup failed, sorry.", [(10, 5), (10, 5)])
    assert _calls(state) == [("flaky-lookup", {"query": "mastra"}, "error", None)]
    (call,) = state.tool_calls
    assert call.error["cause"]["message"] == "lookup service unavailable"
    assert state.tool_results == []


def check_tripwire_input(state: RunState) -> None:
    assert state.status == "tripwire"
    assert state.tripwire is not None
    assert (state.tripwire["reason"], state.tripwire["processorId"]) == (
        "Input mentions a password",
        "block-secrets",
    )
    assert (state.steps, state.text, state.chunk_count) == ([], "", 1)


def check_tripwire_output(state: RunState) -> None:
    assert state.status == "tripwire"
    assert state.tripwire is not None
    assert state.tripwire["reason"] == "Output contains a forbidden word"
    assert state.text == "Here comes a "


def check_sources_and_files(state: RunState) -> None:
    assert state.status == "finished"
    assert [(s.source_type, s.title, s.url) for s in state.sources] == [
        ("url", "Mastra docs", "https://mastra.ai/docs"),
        ("document", "Design notes", None),
    ]
    assert state.text == "See the sources; here is a picture."
    _png(state)


def check_file_bytes(state: RunState) -> None:
    assert (state.status, state.text) == ("finished", "Here is a picture.")
    (row,) = [r for r in state.rows if r["type"] == "file"]
    sent = row["json"]["payload"]["data"]
    # The model's Uint8Array is sent as JSON makes it, an object of byte indices...
    assert isinstance(sent, dict) and (sent["0"], sent["1"]) == (137, 80)
    # ...and shown as the bytes it holds.
    assert _png(state) == bytes(sent[str(i)] for i in range(len(sent)))


def _model_error(state: RunState, message: str, text: str) -> None:
    assert (state.status, state.finish_reason) == ("error", "error")
    assert state.error["message"] == message
    assert state.text == text
    (problem,) = state.errors
    assert problem.message == f"the stream reported an error: Error: {message}"


def check_model_error_in_stream(state: RunState) -> None:
    _model_error(state, "upstream model overloaded", "Starting to answer")


def check_model_error_thrown(state: RunState) -> None:
    _model_error(state, "model endpoint refused the request", "")


def check_parallel_tool_calls(state: RunState) -> None:
    _finished(state, "Seoul 21 °C, Paris 21 °C, New York 21 °F.", [(30, 24), (60, 12)])
    asked = [("Seoul", "C"), ("Paris", "C"), ("New York", "F")]
    assert _calls(state) == [
        ("get-weather", {"city": c, "unit": u}, "done", {"city": c, "temperature": 21, "unit": u})
        for c, u in asked
    ]


def check_raw_chunks(state: RunState) -> None:
    _finished(state, "Raw chunks ride along.", [(10, 5)])
    raw = [r["json"]["payload"] for r in state.rows if r["type"] == "raw"]
    assert raw == [
        {"provider_event": "message_start", "index": 0},
        {"provider_event": "message_stop"},
    ]


def check_tool_approval(state: RunState) -> None:
    assert (state.status, state.finish_reason) == ("awaiting-approval", "suspended")
    assert _calls(state) == [
        ("delete-file", {"path": "/tmp/report.txt"}, "awaiting-approval", None)
    ]


def check_tool_suspend(state: RunState) -> None:
    assert (state.status, state.finish_reason) == ("suspended", "suspended")
    assert _calls(state) == [("book-flight", {"flight": "KE123"}, "suspended", None)]
    (call,) = state.tool_calls
    assert call.suspend_payload == {"question": "Which seat on KE123?", "options": ["12A", "12C"]}


def check_sub_agent(state: RunState) -> None:
    _finished(state, "The researcher says Busan is sunny.", [(10, 5), (10, 5)])
    (call,) = state.tool_calls
    assert (call.tool_name, call.args, call.state) == (
        "agent-researcher",
        {"prompt": "Weather in Busan?"},
        "done",
    )
    assert call.result["text"] == "Busan is sunny, 21 °C."
    (run,) = state.parts_of(NestedRun)
    assert (run.label, run.status) == ("agent-researcher", "finished")
    assert "[tool get-weather] done" in state.transcript()  # the sub-agent's own call


def check_workflow_tool(state: RunState) -> None:
    _finished(state, "The workflow said HELLO, ADA!", [(10, 5), (10, 5)])
    (call,) = state.tool_calls
    assert (call.tool_name, call.args, call.state) == (
        "workflow-greetingWorkflow",
        {"inputData": {"name": "Ada"}},
        "done",
    )
    (workflow,) = state.parts_of(WorkflowRun)
    assert (workflow.workflow_id, workflow.status, workflow.result) == (
        "greeting-workflow",
        "success",
        {"greeting": "HELLO, ADA!", "length": 11},
    )


def check_agent_network(state: RunState) -> None:
    assert state.status == "finished"
    assert _network_events(state) == _routed(
        ("agent-execution-start", "writer"), ("agent-execution-end", "writer")
    )
    assert _nested(state) == [("writer", "finished", HAIKU)]
    assert _network_result(state) == HAIKU
    assert _tokens(state.usage) == (20, 10)


def check_network_workflow(state: RunState) -> None:
    assert state.status == "finished"
    assert _network_events(state) == _routed(
        ("workflow-execution-start", "greeting-workflow"),
        ("workflow-execution-end", "greetingWorkflow"),
    )
    (workflow,) = state.parts_of(WorkflowRun)
    assert (workflow.workflow_id, workflow.status, workflow.result) == (
        "greeting-workflow",
        "success",
        {"greeting": "HELLO, ADA!", "length": 11},
    )
    assert [(s.step_id, s.state) for s in state.workflow_steps] == [
        ("shout", "success"),
        ("count", "success"),
    ]


def check_network_tool(state: RunState) -> None:
    assert state.status == "finished"
    assert _network_events(state) == _routed(
        ("tool-execution-start", "get-weather"), ("tool-execution-end", "get-weather")
    )
    assert _network_result(state) == {"city": "Seoul", "temperature": 21, "unit": "C"}


def check_workflow_writer(state: RunState) -> None:
    assert state.status == "finished"
    result = {"greeting": "HELLO, ADA!", "length": 11}
    assert _workflow(state) == ("greeting-workflow", "success", result)
    assert _wsteps(state) == [
        ("shout", "success", {"greeting": "HELLO, ADA!"}),
        ("count", "success", result),
    ]
    assert '"stage": "shouting"' in state.transcript()


def check_workflow_agent_step(state: RunState) -> None:
    line = "Roses are red, streams are too."
    assert state.status == "finished"
    assert state.workflow is not None
    assert (state.workflow.workflow_id, state.workflow.status, state.workflow.result) == (
        "poem-workflow",
        "success",
        {"text": line},
    )
    assert [(s.step_id, s.state, s.output) for s in state.workflow_steps] == [
        ("make-prompt", "success", {"prompt": "Write a line about streams."}),
        ("poet", "success", {"text": line}),
    ]
    assert _nested(state) == [("poet", "finished", line)]


def check_workflow_step_error(state: RunState) -> None:
    assert state.status == "error"
    assert _workflow(state) == ("failing-workflow", "failed", None)
    assert _wsteps(state) == [("add-one", "success", {"value": 2}), ("explode", "failed", None)]
    assert state.workflow_steps[1].error["message"] == "step exploded on purpose"


def check_workflow_invalid_input(state: RunState) -> None:
    assert state.status == "error"
    assert state.workflow is not None
    assert (state.workflow.workflow_id, state.workflow.status) == ("strict-workflow", "failed")
    assert state.workflow_steps == []
    assert state.error["message"].startswith("Invalid input data")
    (problem,) = state.errors
    assert problem.message.startswith("the workflow failed: Invalid input data")


def check_workflow_suspend(state: RunState) -> None:
    assert state.status == "suspended"
    assert _workflow(state) == ("approval-workflow", "suspended", None)
    assert _wsteps(state) == [
        ("double-check", "success", {"value": 42}),
        ("await-approval", "suspended", None),
    ]
    assert state.workflow_steps[1].suspend_payload == {"reason": "value 42 needs a human"}


def check_workflow_foreach(state: RunState) -> None:
    squares = [{"value": 1}, {"value": 4}, {"value": 9}]
    assert state.status == "finished"
    assert _workflow(state) == ("foreach-workflow", "success", squares)
    assert _wsteps(state) == [("square", "success", squares)]
    progress = state.workflow_steps[0].progress
    assert progress is not None
    assert (progress["completedCount"], progress["totalCount"]) == (3, 3)


def check_workflow_parallel(state: RunState) -> None:
    assert state.status == "finished"
    assert _workflow(state) == ("parallel-workflow", "success", {"value": 112})
    assert _wsteps(state) == [
        ("add-ten", "success", {"value": 11}),
        ("add-hundred", "success", {"value": 101}),
        ("merge", "success", {"value": 112}),
    ]


def check_workflow_sleep(state: RunState) -> None:
    assert state.status == "finished"
    assert _workflow(state) == ("sleep-workflow", "success", {"value": 3})
    steps = _wsteps(state)
    assert [s[0].split("_")[0] for s in steps] == ["before-sleep", "sleep", "after-sleep"]
    assert [s[1:] for s in steps] == [
        ("success", {"value": 2}),
        ("success", {"value": 2}),
        ("success", {"value": 3}),
    ]


def check_workflow_nested(state: RunState) -> None:
    assert state.status == "finished"
    assert state.workflow is not None
    assert (state.workflow.workflow_id, state.workflow.result) == ("outer-wf", {"value": 22})
    assert [(s.step_id, s.output) for s in state.workflow_steps] == [
        ("outer-first", {"value": 1}),
        ("inner-wf", {"value": 21}),
        ("inner-wf.inner-step", {"value": 11}),
        ("inner-wf.inner-step-2", {"value": 21}),
        ("outer-last", {"value": 22}),
    ]


SCENARIOS: dict[str, Callable[[RunState], None]] = {
    "plain-text": check_plain_text,
    "reasoning": check_reasoning,
    "tool-streamed-input": check_tool_streamed_input,
    "tool-writer": check_tool_writer,
    "tool-throws": check_tool_throws,
    "tripwire-input": check_tripwire_input,
    "tripwire-output": check_tripwire_output,
    "sources-and-files": check_sources_and_files,
    "file-bytes": check_file_bytes,
    "model-error-in-stream": check_model_error_in_stream,
    "model-error-thrown": check_model_error_thrown,
    "parallel-tool-calls": check_parallel_tool_calls,
    "raw-chunks": check_raw_chunks,
    "tool-approval": check_tool_approval,
    "tool-approval-decline": check_tool_approval,
    "tool-suspend": check_tool_suspend,
    "sub-agent": check_sub_agent,
    "workflow-tool": check_workflow_tool,
    "agent-network": check_agent_network,
    "network-workflow": check_network_workflow,
    "network-tool": check_network_tool,
    "workflow-writer": check_workflow_writer,
    "workflow-agent-step": check_workflow_agent_step,
    "workflow-step-error": check_workflow_step_error,
    "workflow-invalid-input": check_workflow_invalid_input,
    "workflow-suspend": check_workflow_suspend,
    "workflow-foreach": check_workflow_foreach,
    "workflow-parallel": check_workflow_parallel,
    "workflow-sleep": check_workflow_sleep,
    "workflow-nested": check_workflow_nested,
}
"""Every recorder scenario the server serves, with what its run must show."""


def test_every_served_scenario_is_checked(mastra_session: MastraSession) -> None:
    assert sorted(mastra_session.calls) == sorted(SCENARIOS)


def _chunk_types(path: Path) -> list[str]:
    return [json.loads(line)["chunk"]["type"] for line in path.read_text("utf-8").splitlines()]


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_scenario_over_http_folds_like_the_in_process_run(
    mastra_session: MastraSession, name: str
) -> None:
    _view, got = _shown(_scenario_stream(mastra_session, name))

    SCENARIOS[name](got)
    assert_same_run(got, _in_process(mastra_session, name))
    # What the session recorded is the recorder's scenario: the chunks of its recording.
    assert _chunk_types(mastra_session.recorded / f"{name}.jsonl") == _chunk_types(
        FIXTURES_DIR / f"{name}.jsonl"
    )


@pytest.mark.parametrize("name", ["tool-throws", "agent-network"])
def test_every_request_replays_the_scenario_afresh(
    mastra_session: MastraSession, name: str
) -> None:
    """The recorder's models count their calls and a network keeps memory: a second request
    must not start where the first left off."""
    first = _shown(_scenario_stream(mastra_session, name))[1]
    second = _shown(_scenario_stream(mastra_session, name))[1]

    SCENARIOS[name](second)
    assert_same_run(second, first)


def test_the_reference_recordings_are_what_the_app_records(
    mastra_session: MastraSession,
) -> None:
    """``expected/`` (``npm run record``) shows the app's own runs as this release records them."""
    for name in ("agent-weatherAgent.jsonl", "workflow-greetingWorkflow.jsonl"):
        assert_same_run(_folded(EXPECTED_DIR / name), _in_process(mastra_session, name))


# ------------------------------------------------------------------------ errors


def _network_stream(url: str, agent_id: str) -> Any:
    return cs.mastra(url).agent(agent_id).network("Write a haiku about streams.")


@pytest.mark.parametrize(
    ("open_stream", "route", "mastra_message"),
    [
        (_agent_stream, "/api/agents/nope/stream", "Agent with id nope not found"),
        (_network_stream, "/api/agents/nope/network", "Agent with id nope not found"),
        (_workflow_stream, "/api/workflows/nope/create-run", "Workflow not found"),
    ],
    ids=["agent", "network", "workflow"],
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
