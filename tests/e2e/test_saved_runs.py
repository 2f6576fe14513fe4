"""What a notebook saved from JupyterLab keeps of a ``cs.show()`` run (docs/saving.md).

Each test runs a notebook in a real JupyterLab driven by Chromium, saves it through the
page, and reads the ``.ipynb`` on disk: the cell's output bundle (``text/plain`` and
``text/html``, refreshed in place as the run grows), the widget state when "save widget
state" is on, and the page ``jupyter nbconvert --to html`` makes of it offline. No saved
form ever holds a transient chunk. The last test checks a notebook saved this way with
``pytest --nbval`` against a fresh execution.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from lab import LabPage
from lab.paths import kernel_pythonpath
from streamview import read_view, text_parts, wait_status, wait_until
from test_streamview import letters, rendered_letters

import chunkscope as cs
from chunkscope.live.widget import LIVE_LINE
from chunkscope.wire.persisted import unpack_snapshot

pytestmark = pytest.mark.e2e

#: The labels and types of the demo's transient chunk: shown live, never saved.
TRANSIENT_MARKERS = ("downloading readings", "weather-progress", "data-progress")

#: The demo's answer ends with this line; the tool it calls is ``get-weather``.
ANSWER_END = "Enjoy the afternoon!"
TOOL = "get-weather"

#: A source that plays the demo (its transient progress chunks included) up to its last
#: chunk, then optionally a long text (enough to refresh the saved run mid-run), then hangs:
#: the run is still going when the kernel dies.
HANGING_SOURCE = """\
import os, time
import chunkscope as cs

def hanging(filler=0):
    for chunk in cs.demo.stream(speed=2):
        if chunk["type"] == "finish":
            break
        yield chunk
    if filler:
        base = {"runId": "demo-run", "from": "AGENT"}
        yield {**base, "type": "text-start", "payload": {"id": "t-filler"}}
        for i in range(filler):
            text = f"line {i} " + "." * 900 + "\\n"
            yield {**base, "type": "text-delta", "payload": {"id": "t-filler", "text": text}}
    time.sleep(600)
"""

KILL = "import os\nos._exit(1)"


def demo_transcript() -> str:
    """The transcript of the whole demo run."""
    return cs.accumulate(cs.demo.stream(speed=0)).transcript()


def joined(value: Any) -> str:
    """A notebook's multiline string (a list of lines or one string) as one string."""
    return "".join(value) if isinstance(value, list) else str(value)


def show_output(notebook: dict[str, Any], cell: int = 0) -> dict[str, str]:
    """The saved output of a ``cs.show()`` cell: its bundle's MIME type → text."""
    outputs = [
        o
        for o in notebook["cells"][cell]["outputs"]
        if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
    ]
    assert len(outputs) == 1, notebook["cells"][cell]["outputs"]
    return {mime: joined(value) for mime, value in outputs[0]["data"].items()}


def assert_no_transient(path: Path) -> None:
    """No saved form of the run (output, widget state, packed or not) holds a transient chunk."""
    raw = path.read_text(encoding="utf-8")
    texts = [raw]
    notebook = json.loads(raw)
    for state in widget_states(notebook):
        snapshot = saved_snapshot(state)
        if snapshot is not None:
            texts.append(json.dumps(snapshot))
    for text in texts:
        for marker in TRANSIENT_MARKERS:
            assert marker not in text, f"{marker!r} was saved in {path.name}"


def widget_states(notebook: dict[str, Any]) -> list[dict[str, Any]]:
    """Each saved StreamView model's state, with its binary buffers put back in place."""
    saved = notebook.get("metadata", {}).get("widgets", {})
    models = saved.get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    states = []
    for model in models.values():
        state = dict(model.get("state", {}))
        if "_instance" not in state:
            continue
        for buffer in model.get("buffers", []):
            target: Any = state
            *path, last = buffer["path"]
            for key in path:
                target = target[key]
            target[last] = base64.b64decode(buffer["data"])
        states.append(state)
    return states


def saved_snapshot(state: dict[str, Any]) -> dict[str, Any] | None:
    """The Snapshot a saved model state holds (packed or not)."""
    value = state.get("snapshot")
    return unpack_snapshot(dict(value)) if isinstance(value, dict) else None


def nbconvert_html(path: Path) -> str:
    """The page ``jupyter nbconvert --to html`` makes of the saved notebook, offline."""
    out = path.with_suffix(".html")
    env = {
        **os.environ,
        "no_proxy": "*",
        "http_proxy": "http://127.0.0.1:9",
        "https_proxy": "http://127.0.0.1:9",
    }
    subprocess.run(
        [
            sys.executable,
            "-m",
            "jupyter",
            "nbconvert",
            "--to",
            "html",
            str(path),
            "--output",
            out.name,
        ],
        check=True,
        capture_output=True,
        env=env,
        timeout=300,
    )
    return out.read_text(encoding="utf-8")


def saved_output_says(lab: LabPage, phrase: str, cell: int = 0) -> bool:
    """Whether the page's model of the cell's output already holds ``phrase``."""
    outputs = lab.outputs()[cell] or []
    return any(phrase in joined(o.get("data", {}).get("text/plain", "")) for o in outputs)


def watch_kernel(lab: LabPage) -> None:
    """Record every status the page's kernel connection goes through, from now on."""
    lab.page.evaluate(
        """(path) => {
          for (const w of window.jupyterapp.shell.widgets('main')) {
            if (!w.context || w.context.path !== path) continue;
            window.__csStatuses = [];
            w.sessionContext.statusChanged.connect((_, s) => window.__csStatuses.push(s));
          }
        }""",
        lab.path,
    )


def wait_kernel_gone_and_back(lab: LabPage, timeout_s: float = 90.0) -> None:
    """Wait until the page has seen the kernel die and come back idle (the widget manager
    marks the models of a restarted kernel disconnected)."""
    lab.page.wait_for_function(
        """() => {
          const seen = window.__csStatuses || [];
          const gone = seen.findIndex((s) => ['restarting', 'autorestarting', 'dead'].includes(s));
          return gone >= 0 && seen.slice(gone).includes('idle');
        }""",
        timeout=timeout_s * 1000,
        polling=100,
    )


def test_finished_run_not_awaited_is_readable_without_widget_state(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    path = lab.new_notebook(
        ["import chunkscope as cs\nview = cs.show(cs.demo.stream(speed=3), title='demo')"],
        "saved-finished",
    )
    lab.open(path)
    assert lab.run_cell(0)
    wait_status(lab, "finished", timeout_s=60)
    wait_until(lambda: saved_output_says(lab, "the run as it ended"), "the final refresh", 30)
    lab.save()

    file = lab.server.root_dir / path
    notebook = lab.read_notebook(path)
    assert "widgets" not in notebook["metadata"]
    bundle = show_output(notebook)
    plain, rich = bundle["text/plain"], bundle["text/html"]
    assert plain.startswith("StreamView(title='demo')\n" + LIVE_LINE + "the run as it ended")
    assert plain.endswith(demo_transcript())
    assert TOOL in rich
    assert "Weather in Seoul" in rich
    assert "<script" not in rich
    assert_no_transient(file)

    page = nbconvert_html(file)
    assert TOOL in page
    assert "Weather in Seoul" in page
    assert ANSWER_END in page
    for marker in TRANSIENT_MARKERS:
        assert marker not in page


def test_kernel_killed_mid_run_keeps_what_the_page_showed_in_widget_state(
    lab: LabPage,
) -> None:
    lab.set_save_widget_state(True)
    try:
        path = lab.new_notebook(
            [HANGING_SOURCE + "view = cs.show(hanging(), title='dies')", KILL],
            "saved-killed-state",
        )
        lab.open(path)
        assert lab.run_cell(0)
        wait_until(lambda: ANSWER_END in text_parts(lab), "the answer on the page", 60)
        shown = read_view(lab)
        assert shown is not None
        assert shown.status != "finished"
        page_text = text_parts(lab)
        watch_kernel(lab)
        lab.run_cell(1, wait=False)
        wait_kernel_gone_and_back(lab)
        time.sleep(2.5)  # past the page's next write of the run
        lab.save()
    finally:
        lab.set_save_widget_state(False)

    file = lab.server.root_dir / path
    notebook = lab.read_notebook(path)
    states = widget_states(notebook)
    assert len(states) == 1, "the dead kernel's view was not saved"
    snapshot = saved_snapshot(states[0])
    assert snapshot is not None
    texts = [p["text"] for p in snapshot["parts"] if p["kind"] == "text"]
    # The page draws the text as markdown: its letters are the saved text's, all of them.
    # (the page labels a code block with its language, "python", as the markdown does not)
    assert rendered_letters("\n".join(texts)) == letters(page_text).replace("python", "")
    assert ANSWER_END in texts[-1]
    tools = [p for p in snapshot["parts"] if p["kind"] == "tool"]
    assert [t["toolName"] for t in tools] == [TOOL]
    assert tools[0]["state"] == "done"
    assert not snapshot["run"]["ended"]
    assert_no_transient(file)


def test_kernel_killed_mid_run_keeps_the_last_refresh_without_widget_state(
    lab: LabPage,
) -> None:
    lab.set_save_widget_state(False)
    path = lab.new_notebook(
        # About 110 KB of filler: enough to pass the next refresh of the schedule, under the
        # size past which a run is saved packed and refreshes its readable output at the end
        # only (a killed run has no end).
        [HANGING_SOURCE + "view = cs.show(hanging(filler=120), title='dies')", KILL],
        "saved-killed-plain",
    )
    lab.open(path)
    assert lab.run_cell(0)
    # The filler grows the run past the refresh schedule after the answer was shown.
    wait_until(lambda: saved_output_says(lab, "line 1 "), "a refresh after the answer", 90)
    watch_kernel(lab)
    lab.run_cell(1, wait=False)
    wait_kernel_gone_and_back(lab)
    lab.save()

    file = lab.server.root_dir / path
    notebook = lab.read_notebook(path)
    assert "widgets" not in notebook["metadata"]
    bundle = show_output(notebook)
    plain, rich = bundle["text/plain"], bundle["text/html"]
    age = plain.splitlines()[1]
    assert age.startswith(LIVE_LINE + "as of ")
    assert age.endswith("chunks; the run was still going")
    assert ANSWER_END in plain
    assert f"[tool {TOOL}] done" in plain
    assert "the run was still going" in rich
    assert ANSWER_END in rich
    assert_no_transient(file)

    page = nbconvert_html(file)
    assert "the run was still going" in page
    assert ANSWER_END in page


def test_notebook_saved_from_jupyterlab_passes_nbval(lab: LabPage, tmp_path: Path) -> None:
    lab.set_save_widget_state(False)
    path = lab.new_notebook(
        [
            "import chunkscope as cs\nview = cs.show(cs.demo.stream(speed=3), title='demo')",
            "later = cs.show(cs.demo.stream(speed=3), title='second')",
            "state = await view.wait()\nstate",
            "print((await later.wait()).status)",
        ],
        "saved-nbval",
    )
    lab.open(path)
    assert lab.run_all(timeout_s=120)
    for cell in (0, 1):
        wait_until(
            lambda cell=cell: saved_output_says(lab, "the run as it ended", cell),
            f"the final refresh of cell {cell}",
            30,
        )
    lab.save()
    saved = lab.read_notebook(path)
    assert "the run as it ended" in show_output(saved, 0)["text/plain"]
    assert_no_transient(lab.server.root_dir / path)

    notebook = tmp_path / "saved-nbval.ipynb"
    notebook.write_text(json.dumps(saved), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_DISABLE_PLUGIN_AUTOLOAD"}
    extra = os.pathsep.join(str(p) for p in kernel_pythonpath())
    if extra:
        env["PYTHONPATH"] = extra + os.pathsep + env.get("PYTHONPATH", "")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval", notebook.name, "-p", "no:cacheprovider"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "4 passed" in result.stdout
