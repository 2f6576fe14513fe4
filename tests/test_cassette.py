"""Cassettes: record once, replay after; record modes, atomic re-recording, masked secrets,
deterministic replays, ``chunkscope diff`` and the pytest option."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import chunkscope as cs
from chunkscope import pytest_plugin
from chunkscope.cassettes import (
    ENV_VAR,
    CassetteMissingError,
    CassetteRecording,
    previous_path,
    record_mode,
)
from chunkscope.cli import main
from chunkscope.recording import Replay, SecretMask


@pytest.fixture(autouse=True)
def _no_record_mode_from_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)


def never_called() -> Any:
    pytest.fail("make_source was called, but the cassette should not record")


def tool_projection(state: cs.RunState) -> list[tuple[Any, ...]]:
    return [(c.tool_name, c.args, c.result, c.error, c.state) for c in state.tool_calls]


def run_facts(state: cs.RunState) -> dict[str, Any]:
    return {
        "transcript": state.transcript(),
        "text": state.text,
        "tools": tool_projection(state),
        "usage": state.usage,
        "status": state.status,
        "finish_reason": state.finish_reason,
        "steps": len(state.steps),
    }


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# ----------------------------------------------------------------------- record, replay


def test_record_then_replay_equals_the_live_run(tmp_path: Path) -> None:
    path = tmp_path / "cassettes" / "weather.jsonl"
    source = cs.cassette(path, lambda: cs.demo.stream(speed=0))
    assert isinstance(source, CassetteRecording)
    assert not path.exists()
    live = cs.show(source, title="weather", display=False).result(timeout=30)
    assert path.is_file() and source.committed
    assert files_in(path.parent) == ["weather.jsonl"]  # no temporary file left behind

    replayed_source = cs.cassette(path, never_called)
    assert isinstance(replayed_source, Replay)
    replayed = cs.show(replayed_source, title="weather", display=False).result(timeout=30)
    assert live.status == "finished"
    assert run_facts(replayed) == run_facts(live)


async def test_an_async_source_and_a_coroutine_function_record_too(tmp_path: Path) -> None:
    async def agent() -> AsyncIterator[dict[str, Any]]:
        for chunk in cs.demo.stream(speed=0):
            yield chunk

    async def make() -> AsyncIterator[dict[str, Any]]:
        await asyncio.sleep(0)
        return agent()

    for name, make_source in (("gen.jsonl", agent), ("coro.jsonl", make)):
        path = tmp_path / name
        live = await cs.show(cs.cassette(path, make_source), display=False)
        replayed = await cs.show(cs.cassette(path, never_called, mode="none"), display=False)
        assert run_facts(replayed) == run_facts(live), name
        assert live.finish_reason == "stop"


def test_a_plain_list_and_a_foreign_format_record_as_mastra_chunks(tmp_path: Path) -> None:
    openai_events = [
        {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": w}}]}
        for w in ("Hello ", "there")
    ]
    path = tmp_path / "openai.jsonl"
    live = cs.accumulate(cs.cassette(path, lambda: openai_events))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert all("type" in line["chunk"] for line in lines)
    assert cs.accumulate(cs.cassette(path, never_called)).text == live.text == "Hello there"


def test_transient_chunks_are_not_recorded_unless_asked(tmp_path: Path) -> None:
    def kinds(path: Path) -> list[bool]:
        return [
            bool(json.loads(line)["chunk"].get("transient"))
            for line in path.read_text().splitlines()
        ]

    assert any(c.get("transient") for c in cs.demo.stream(speed=0))
    list(cs.cassette(tmp_path / "a.jsonl", lambda: cs.demo.stream(speed=0)))
    list(cs.cassette(tmp_path / "b.jsonl", lambda: cs.demo.stream(speed=0), include_transient=True))
    assert not any(kinds(tmp_path / "a.jsonl"))
    assert any(kinds(tmp_path / "b.jsonl"))


def test_a_recording_is_consumed_once(tmp_path: Path) -> None:
    source = cs.cassette(tmp_path / "x.jsonl", lambda: cs.demo.text_stream(2))
    list(source)
    with pytest.raises(RuntimeError, match="already consumed"):
        list(source)


def test_make_source_must_give_a_stream(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="make_source\\(\\) returned a int"):
        cs.cassette(tmp_path / "x.jsonl", lambda: 42)


# ----------------------------------------------------------------------- record modes


def test_mode_none_without_a_cassette_is_a_clear_error_and_calls_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "missing.jsonl"
    with pytest.raises(CassetteMissingError) as caught:
        cs.cassette(path, never_called, mode="none")
    message = str(caught.value)
    assert str(path) in message
    assert "CHUNKSCOPE_RECORD=once" in message and "mode='once'" in message
    assert isinstance(caught.value, FileNotFoundError)
    assert not path.exists()


def test_the_mode_comes_from_the_environment_when_not_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "env.jsonl"
    monkeypatch.setenv(ENV_VAR, "none")
    with pytest.raises(CassetteMissingError):
        cs.cassette(path, never_called)
    # an explicit mode wins over the environment
    list(cs.cassette(path, lambda: cs.demo.text_stream(2), mode="once"))
    assert path.is_file()
    monkeypatch.setenv(ENV_VAR, " ALL ")
    assert record_mode() == "all"
    assert isinstance(cs.cassette(path, lambda: cs.demo.text_stream(2)), CassetteRecording)
    monkeypatch.setenv(ENV_VAR, "sometimes")
    with pytest.raises(ValueError, match="CHUNKSCOPE_RECORD='sometimes' is not a record mode"):
        record_mode()
    with pytest.raises(ValueError, match="mode='never' is not a record mode"):
        cs.cassette(path, never_called, mode="never")
    monkeypatch.delenv(ENV_VAR)
    assert record_mode() == "once"


def test_mode_once_replays_an_existing_cassette(tmp_path: Path) -> None:
    path = tmp_path / "once.jsonl"
    list(cs.cassette(path, lambda: cs.demo.text_stream(3)))
    before = path.read_bytes()
    source = cs.cassette(path, never_called, mode="once")
    assert isinstance(source, Replay) and source.speed == 0
    assert cs.accumulate(source).status == "finished"
    assert path.read_bytes() == before


def test_mode_all_records_anew_and_keeps_the_previous_cassette(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    list(cs.cassette(path, lambda: cs.demo.stream(speed=0)))
    old = path.read_bytes()
    list(cs.cassette(path, lambda: cs.demo.stream(speed=0, variant="error"), mode="all"))
    previous = previous_path(path)
    assert previous == tmp_path / "run.previous.jsonl"
    assert previous.read_bytes() == old
    assert path.read_bytes() != old
    assert files_in(tmp_path) == ["run.jsonl", "run.previous.jsonl"]
    comparison = cs.compare(previous, path)
    assert not comparison.same
    assert "finish reason: stop → error" in repr(comparison)


def test_previous_path_names() -> None:
    assert previous_path("a/run.jsonl") == Path("a/run.previous.jsonl")
    assert previous_path("run.ndjson") == Path("run.previous.ndjson")
    assert previous_path("run") == Path("run.previous.jsonl")


# ----------------------------------------------------------------------- atomic re-recording


def failing_agent() -> Iterator[dict[str, Any]]:
    for index, chunk in enumerate(cs.demo.stream(speed=0, variant="error")):
        if index == 20:
            raise ConnectionError("the model's connection dropped")
        yield chunk


def test_an_interrupted_re_recording_leaves_the_old_cassette_intact(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    list(cs.cassette(path, lambda: cs.demo.stream(speed=0)))
    old = path.read_bytes()

    # the source raises mid-stream, read directly
    with pytest.raises(ConnectionError):
        list(cs.cassette(path, failing_agent, mode="all"))
    assert path.read_bytes() == old
    assert files_in(tmp_path) == ["run.jsonl"]  # no temporary file, no .previous

    # the source raises mid-stream, shown live: the view reports it, the cassette is kept
    view = cs.show(cs.cassette(path, failing_agent, mode="all"), display=False)
    with pytest.raises(ConnectionError):
        view.result(timeout=30)
    assert view.state.status == "error"
    assert path.read_bytes() == old
    assert files_in(tmp_path) == ["run.jsonl"]


def test_a_consumer_that_stops_early_leaves_the_old_cassette_intact(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    list(cs.cassette(path, lambda: cs.demo.stream(speed=0)))
    old = path.read_bytes()

    source = cs.cassette(path, lambda: cs.demo.stream(speed=0, variant="error"), mode="all")
    iterator = iter(source)
    for _ in range(10):
        next(iterator)
    assert len(files_in(tmp_path)) == 2  # the cassette and the recording in progress
    iterator.close()  # what a for loop's break does to a generator it drops
    assert path.read_bytes() == old
    assert files_in(tmp_path) == ["run.jsonl"]

    # the Stop button of a live view
    slow = cs.cassette(path, lambda: cs.demo.stream(speed=1), mode="all")
    view = cs.show(slow, display=False)
    time.sleep(0.3)
    view.stop()
    assert view.result(timeout=30).status == "aborted"
    deadline = time.monotonic() + 10
    while files_in(tmp_path) != ["run.jsonl"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert path.read_bytes() == old
    assert files_in(tmp_path) == ["run.jsonl"]


# ----------------------------------------------------------------------- deterministic replays


def test_a_cassette_replays_the_same_text_plain_every_time(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    list(cs.cassette(path, lambda: cs.demo.stream(speed=4)))

    def text_plain(view: cs.StreamView) -> str:
        bundle = view._repr_mimebundle_()
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        return str(data["text/plain"])

    outputs = []
    for _ in range(2):
        view = cs.show(cs.cassette(path, never_called, mode="none"), title="run", display=False)
        state = view.result(timeout=30)
        outputs.append((state.transcript(), repr(state), text_plain(view), state.static_html()))
    assert outputs[0] == outputs[1]
    assert outputs[0][2].startswith("StreamView(title='run')")
    assert outputs[0][0].startswith("run: status: finished")


def test_speed_paces_a_replay(tmp_path: Path) -> None:
    path = tmp_path / "timed.jsonl"
    start = {"type": "start", "runId": "r", "from": "AGENT", "payload": {}}
    path.write_text("".join(json.dumps({"t": t, "chunk": start}) + "\n" for t in (0, 150, 300)))
    began = time.monotonic()
    list(cs.cassette(path, never_called))  # default: instant
    assert time.monotonic() - began < 0.1
    began = time.monotonic()
    list(cs.cassette(path, never_called, speed=1))  # the recorded pace
    assert time.monotonic() - began >= 0.28
    with pytest.raises(ValueError, match="speed"):
        cs.cassette(path, never_called, speed=-1)


# ----------------------------------------------------------------------- secrets

FAKE_OPENAI_KEY = "sk-proj-Zq8Xw3Lr5Tn7Vb2Mk9Jh4Gf6Dd1Ss0Aa"
FAKE_BEARER = "eyJhbGciOiJIUzI1NiJ9.fakePayload42.fakeSignature99"
FAKE_COOKIE = "session=8c1f5a9e2b7d4c60"
FAKE_PASSWORD = "correct-horse-battery-staple"


def leaky_agent() -> list[dict[str, Any]]:
    base = {"runId": "r", "from": "AGENT"}
    args = {"url": "https://api.example.test/v1", "apiKey": FAKE_OPENAI_KEY}
    return [
        {**base, "type": "start", "payload": {}},
        {**base, "type": "step-start", "payload": {"messageId": "m"}},
        {**base, "type": "text-start", "payload": {"id": "t"}},
        {
            **base,
            "type": "text-delta",
            "payload": {
                "id": "t",
                "text": f"I will call it with Authorization: Bearer {FAKE_BEARER}",
            },
        },
        {**base, "type": "text-end", "payload": {"id": "t"}},
        {
            **base,
            "type": "tool-call",
            "payload": {"toolCallId": "c1", "toolName": "fetch", "args": args},
        },
        {
            **base,
            "type": "tool-result",
            "payload": {
                "toolCallId": "c1",
                "toolName": "fetch",
                "result": {
                    "status": 200,
                    "request": {"headers": {"X-Api-Key": FAKE_OPENAI_KEY, "Cookie": FAKE_COOKIE}},
                    "echo": f'{{"password": "{FAKE_PASSWORD}", "city": "Seoul"}}',
                    "note": f"used key {FAKE_OPENAI_KEY} for this",
                },
            },
        },
        {
            **base,
            "type": "finish",
            "payload": {"stepResult": {"reason": "stop"}, "output": {"usage": {}}},
        },
    ]


def test_secrets_never_reach_a_cassette(tmp_path: Path) -> None:
    path = tmp_path / "leaky.jsonl"
    live = cs.accumulate(cs.cassette(path, leaky_agent))
    written = path.read_text()
    for secret in (FAKE_OPENAI_KEY, FAKE_BEARER, FAKE_COOKIE, FAKE_PASSWORD):
        assert secret not in written
    # what is kept around the masked values is still readable
    assert "Bearer ***" in written and '"apiKey": "***"' in written
    assert '"Cookie": "***"' in written and '\\"password\\": \\"***\\"' in written
    assert "Seoul" in written and "https://api.example.test/v1" in written
    # the live run was not masked; only the file is
    assert FAKE_OPENAI_KEY in json.dumps(live.tool_calls[0].args)
    replayed = cs.accumulate(cs.cassette(path, never_called))
    assert replayed.tool_calls[0].args == {"url": "https://api.example.test/v1", "apiKey": "***"}


def test_plain_record_masks_too_unless_told_not_to(tmp_path: Path) -> None:
    cs.record(leaky_agent(), tmp_path / "masked.jsonl")
    assert FAKE_OPENAI_KEY not in (tmp_path / "masked.jsonl").read_text()
    cs.record(leaky_agent(), tmp_path / "raw.jsonl", mask=False)
    assert FAKE_OPENAI_KEY in (tmp_path / "raw.jsonl").read_text()
    asyncio.run(_arecord(leaky_agent(), tmp_path / "amasked.jsonl"))
    assert FAKE_OPENAI_KEY not in (tmp_path / "amasked.jsonl").read_text()
    view = cs.show(leaky_agent(), record=tmp_path / "shown.jsonl", display=False)
    view.result(timeout=30)
    assert FAKE_OPENAI_KEY not in (tmp_path / "shown.jsonl").read_text()


async def _arecord(chunks: list[dict[str, Any]], path: Path) -> None:
    async def source() -> AsyncIterator[dict[str, Any]]:
        for chunk in chunks:
            yield chunk

    await cs.arecord(source(), path)


@pytest.mark.parametrize(
    "secret",
    [
        "sk-ant-api03-abcdefghijklmnop",
        "sk-abcdefghijklmnopqrstuvwx",
        "AKIAIOSFODNN7EXAMPLE",
        "ghp_" + "a1B2" * 9,
        "xoxb-1234567890-abcdefghij",
        "xoxp-1234567890-abcdefghij",
    ],
)
def test_each_default_key_pattern_is_masked(secret: str) -> None:
    mask = SecretMask()
    assert mask.text(f"key={secret}; done") == "key=***; done"


@pytest.mark.parametrize(
    "key",
    [
        "authorization",
        "Authorization",
        "api-key",
        "api_key",
        "apiKey",
        "X-API-Key",
        "x_api_key",
        "cookie",
        "Set-Cookie",
        "password",
        "SECRET",
        "token",
        "access_token",
        "clientSecret",
    ],
)
def test_each_header_like_field_is_masked(key: str) -> None:
    assert SecretMask().apply({"outer": [{key: "hunter2"}]}) == {"outer": [{key: "***"}]}


def test_ordinary_fields_and_text_are_left_alone() -> None:
    mask = SecretMask()
    chunk = {
        "type": "finish",
        "payload": {"usage": {"inputTokens": 3, "totalTokens": 5}, "maxTokens": 9, "token": None},
        "text": "the admin password for the station: hunter; a task-list; sk-short",
    }
    assert mask.apply(chunk) is chunk


def test_a_mask_of_ones_own(tmp_path: Path) -> None:
    mask = SecretMask(patterns=[r"ACME-\d{6}"], keys=["session-id"], replacement="[hidden]")
    chunks = [
        {"type": "text-delta", "payload": {"id": "t", "text": "ticket ACME-123456"}},
        {"type": "data-x", "payload": {"sessionId": "s1", "apiKey": "kept"}},
    ]
    path = tmp_path / "own.jsonl"
    list(cs.cassette(path, lambda: chunks, mask=mask, adapter=None))
    text = path.read_text()
    assert "ACME-123456" not in text and "ticket [hidden]" in text
    assert '"sessionId": "[hidden]"' in text and '"apiKey": "kept"' in text
    list(cs.cassette(path, lambda: chunks, mask=False, mode="all", adapter=None))
    assert "ACME-123456" in path.read_text()


# ----------------------------------------------------------------------- chunkscope diff


@pytest.fixture
def two_runs(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    cs.record(cs.demo.stream(speed=0), a)
    cs.record(cs.demo.stream(speed=0, variant="error"), b)
    return a, b


def test_diff_of_equal_runs_exits_0(
    two_runs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, _ = two_runs
    assert main(["diff", str(a), str(a)]) == 0
    out = capsys.readouterr().out
    assert out == f"{a} vs {a}: no differences (2 steps each, 1 tool call each)\n"


def test_diff_of_different_runs_exits_1_and_says_what_changed(
    two_runs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = two_runs
    assert main(["diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert out.strip() == cs.compare(a, b, labels=(str(a), str(b))).summary()
    assert "status: finished → error" in out
    assert "finish reason: stop → error" in out


def test_diff_of_bad_input_exits_2_with_one_line(
    two_runs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, _ = two_runs
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(b"not json\n\x89PNG\r\n")
    for other, expected in (
        (tmp_path / "missing.jsonl", "no recording at"),
        (tmp_path, "no recording at"),
        (junk, "is not a JSONL recording"),
    ):
        assert main(["diff", str(a), str(other)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.startswith("chunkscope diff: ") and expected in captured.err
        assert captured.err.count("\n") == 1


def test_the_diff_command_runs_as_a_program(two_runs: tuple[Path, Path]) -> None:
    a, b = two_runs
    command = [sys.executable, "-m", "chunkscope", "diff"]
    done = subprocess.run([*command, str(a), str(b)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "finish reason: stop → error" in done.stdout
    done = subprocess.run([*command, str(a)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    done = subprocess.run(
        [*command, str(a), "nope.jsonl"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr


# ----------------------------------------------------------------------- the pytest option


class FakeConfig:
    def __init__(self, mode: str | None) -> None:
        self.mode = mode

    def getoption(self, name: str, default: Any = None) -> Any:
        assert name == "chunkscope_record"
        return self.mode


def test_the_option_sets_the_mode_for_the_session_and_restores_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = FakeConfig("all")
    pytest_plugin.pytest_configure(config)
    assert os.environ[ENV_VAR] == "all"
    pytest_plugin.pytest_unconfigure(config)
    assert ENV_VAR not in os.environ

    monkeypatch.setenv(ENV_VAR, "none")
    pytest_plugin.pytest_configure(config)
    assert os.environ[ENV_VAR] == "all"
    pytest_plugin.pytest_unconfigure(config)
    assert os.environ[ENV_VAR] == "none"

    pytest_plugin.pytest_configure(FakeConfig(None))  # no option: nothing changes
    assert os.environ[ENV_VAR] == "none"
    pytest_plugin.pytest_unconfigure(FakeConfig(None))
    assert os.environ[ENV_VAR] == "none"


def test_the_option_is_installed_with_the_package(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_mode.py").write_text(
        "import os\n\ndef test_mode():\n    assert os.environ['CHUNKSCOPE_RECORD'] == 'all'\n"
    )
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    env.pop("PYTEST_DISABLE_PLUGIN_AUTOLOAD", None)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_mode.py"]
    done = subprocess.run(
        [*command, "--chunkscope-record=all"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run(
        [*command, "--chunkscope-record=sometimes"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 4 and "invalid choice" in done.stderr
