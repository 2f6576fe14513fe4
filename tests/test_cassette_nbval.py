"""A notebook whose agent is a cassette is a regression test under ``pytest --nbval``.

The notebook is executed once and saved with its outputs (the reference); nbval then passes
as long as the cassette replays the same run, and fails with a readable diff of the
transcript when the cassette holds a different one, whether it was replaced by hand or
re-recorded from a changed agent with ``--chunkscope-record=all``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import chunkscope as cs
from chunkscope.cassettes import ENV_VAR

AGENT = """
import chunkscope as cs

VARIANT = {variant!r}

def stream():
    return cs.demo.stream(speed=0, variant=VARIANT)
"""

SHOW_CELL = """
import chunkscope as cs
import weather_agent

view = cs.show(cs.cassette("weather.jsonl", weather_agent.stream), title="weather agent")
"""

TRANSCRIPT_CELL = """
state = await view.wait()
print(state.transcript())
"""


def write_agent(folder: Path, variant: str) -> None:
    (folder / "weather_agent.py").write_text(AGENT.format(variant=variant), encoding="utf-8")
    for cached in (folder / "__pycache__").glob("weather_agent*"):
        cached.unlink()


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    env.pop("PYTEST_DISABLE_PLUGIN_AUTOLOAD", None)
    return env


def nbval(notebook: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--nbval",
            notebook.name,
            "-p",
            "no:cacheprovider",
            "--color=no",
            *options,
        ],
        cwd=notebook.parent,
        capture_output=True,
        text=True,
        env=environment(),
        timeout=600,
    )


@pytest.fixture
def checked_notebook(tmp_path: Path) -> Path:
    """A notebook in ``tmp_path`` replaying ``weather.jsonl``, executed and saved."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    write_agent(tmp_path, "default")
    cs.record(cs.demo.stream(speed=0), tmp_path / "weather.jsonl")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(SHOW_CELL.strip()),
        nbformat.v4.new_code_cell(TRANSCRIPT_CELL.strip()),
    ]
    client = NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=120,
        resources={"metadata": {"path": str(tmp_path)}},
        store_widget_state=False,
    )
    client.execute(env=environment())
    notebook.metadata.pop("widgets", None)
    path = tmp_path / "check.ipynb"
    nbformat.write(notebook, path)
    printed = notebook.cells[1].outputs[0]["text"]
    assert printed.startswith("weather agent: status: finished · finish reason: stop")
    return path


def test_nbval_passes_on_the_cassette_and_fails_with_a_diff_when_it_changes(
    checked_notebook: Path,
) -> None:
    folder = checked_notebook.parent
    passed = nbval(checked_notebook)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "2 passed" in passed.stdout

    # replay only (CI): still passes, the agent is never called
    write_agent(folder, "this agent must not run")
    replay_only = nbval(checked_notebook, "--chunkscope-record=none")
    assert replay_only.returncode == 0, replay_only.stdout + replay_only.stderr

    # a different recording in the cassette's place
    cs.record(cs.demo.stream(speed=0, variant="error"), folder / "weather.jsonl")
    failed = nbval(checked_notebook)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    report = failed.stdout
    assert "Cell outputs differ" in report
    lines = report.splitlines()
    # pytest's diff of the transcript: the run's changed first line, either way
    assert any(
        line.lstrip().startswith(("-", "+")) and "finish reason: error" in line for line in lines
    ), report
    assert any(
        line.lstrip().startswith(("-", "+")) and "finish reason: stop" in line for line in lines
    ), report


def test_re_recording_a_changed_agent_fails_nbval_and_compare_explains_it(
    checked_notebook: Path,
) -> None:
    folder = checked_notebook.parent
    cassette = folder / "weather.jsonl"
    old = cassette.read_bytes()

    write_agent(folder, "error")  # the agent changed; the cassette still replays the old run
    assert nbval(checked_notebook).returncode == 0

    rerecorded = nbval(checked_notebook, "--chunkscope-record=all", "-vv")
    assert rerecorded.returncode == 1, rerecorded.stdout + rerecorded.stderr
    assert "finish reason: error" in rerecorded.stdout
    assert "[error] APICallError: model call failed" in rerecorded.stdout  # -vv: all of it

    previous = folder / "weather.previous.jsonl"
    assert previous.read_bytes() == old
    assert cassette.read_bytes() != old
    comparison = cs.compare(previous, cassette)
    assert "finish reason: stop → error" in repr(comparison)
    done = subprocess.run(
        [sys.executable, "-m", "chunkscope", "diff", previous.name, cassette.name],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "weather.previous.jsonl vs weather.jsonl" in done.stdout
    assert "finish reason: stop → error" in done.stdout


def test_replay_only_without_a_cassette_fails_nbval_naming_the_file(
    checked_notebook: Path,
) -> None:
    (checked_notebook.parent / "weather.jsonl").unlink()
    missing = nbval(checked_notebook, "--chunkscope-record=none")
    assert missing.returncode == 1
    assert "CassetteMissingError" in missing.stdout
    assert "weather.jsonl" in missing.stdout
    assert not (checked_notebook.parent / "weather.jsonl").exists()
