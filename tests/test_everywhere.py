"""chunkscope where no JupyterLab draws the widget: notebooks executed by nbclient and
``nbconvert --execute``, their static HTML export, plain IPython, and scripts.

In each place the run must be consumed to the end, nothing may hang, the user must be able
to read the run, and a transient chunk must never be written anywhere.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient
from nbconvert import HTMLExporter

import chunkscope as cs

pytestmark = pytest.mark.timeout(240)

REPO = Path(__file__).resolve().parents[1]
RECORDING = REPO / "tests" / "fixtures" / "mastra" / "sub-agent.jsonl"
#: The demo's transient chunk (its label, type and data type): live only, never saved.
TRANSIENT_MARKERS = ("downloading readings", "data-progress", "weather-progress")
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
CDN = re.compile(r"unpkg|jsdelivr|cdn\.", re.IGNORECASE)

#: Two runs, each awaited in the cell that starts it, then a cell that displays its final
#: RunState (the static transcript). nbclient records a widget's messages only while the cell
#: whose parent they carry runs; a run awaited in a later cell is saved too, because wait()
#: sends the final snapshot again from the cell that waited.
CELLS = [
    "import chunkscope as cs\n"
    "view = cs.show(cs.demo.stream(speed=4), title='weather demo')\n"
    "state = await view.wait()",
    "state",
    f"replayed = cs.show(cs.replay({str(RECORDING)!r}, speed=0), title='sub-agent replay')\n"
    "replayed_state = await replayed.wait()",
    "replayed_state",
]


def demo_state() -> cs.RunState:
    return cs.accumulate(cs.demo.stream(speed=0), title="weather demo")


def replay_state() -> cs.RunState:
    return cs.accumulate(cs.replay(RECORDING, speed=0), title="sub-agent replay")


def new_notebook(cells: list[str] = CELLS) -> Any:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    return notebook


def saved_views(notebook: Any) -> dict[str, dict[str, Any]]:
    """Title → saved state of every StreamView model in the notebook's widget state."""
    state = notebook.metadata["widgets"][WIDGET_STATE]["state"]
    return {
        model["state"]["title"]: model["state"]
        for model in state.values()
        if model["model_name"] == "AnyModel" and "snapshot" in model["state"]
    }


def text_of(snapshot: dict[str, Any]) -> str:
    return "".join(part["text"] for part in snapshot["parts"] if part["kind"] == "text")


def first_lines(run: cs.RunState) -> list[str]:
    """The first line of each text part, as the static transcript shows it (escaped)."""
    parts = run.snapshot()["parts"]
    return [
        html.escape(part["text"].splitlines()[0], quote=True)
        for part in parts
        if part["kind"] == "text" and part["text"]
    ]


@pytest.fixture(scope="module")
def executed() -> Any:
    """The notebook executed by nbclient, keeping widget state as JupyterLab would save it."""
    notebook = new_notebook()
    NotebookClient(notebook, timeout=120, kernel_name="python3", store_widget_state=True).execute()
    return notebook


def test_nbclient_saves_each_finished_run_and_no_transient_chunk(executed: Any) -> None:
    views = saved_views(executed)
    assert set(views) == {"weather demo", "sub-agent replay"}
    demo = views["weather demo"]["snapshot"]
    assert demo["run"]["status"] == "finished" and demo["run"]["ended"] is True
    assert text_of(demo) == demo_state().full_text
    assert views["sub-agent replay"]["snapshot"]["run"]["status"] == replay_state().status
    saved = json.dumps(nbformat.writes(executed))
    for marker in TRANSIENT_MARKERS:
        assert marker not in saved


def test_a_run_awaited_in_a_later_cell_is_saved_too() -> None:
    notebook = new_notebook(
        [
            "import chunkscope as cs\nview = cs.show(cs.demo.stream(speed=8), title='later')",
            "state = await view.wait()",
        ]
    )
    NotebookClient(notebook, timeout=120, kernel_name="python3", store_widget_state=True).execute()
    snapshot = saved_views(notebook)["later"]["snapshot"]
    assert snapshot is not None and snapshot["run"]["status"] == "finished"


def test_saved_outputs_carry_the_final_transcripts(executed: Any) -> None:
    outputs = [cell.outputs for cell in executed.cells]
    assert outputs[1][0]["data"]["text/plain"] == demo_state().transcript()
    assert outputs[1][0]["data"]["text/html"] == demo_state().static_html()
    assert outputs[3][0]["data"]["text/plain"] == replay_state().transcript()
    # The view's own output, refreshed in place to the end of the run: its deterministic repr,
    # how old the output is, then the run's transcript, next to the widget reference.
    plain = outputs[0][0]["data"]["text/plain"]
    first, age, rest = plain.split("\n", 2)
    assert first == "StreamView(title='weather demo')"
    assert age.startswith("chunkscope live output: the run as it ended, ")
    assert rest == demo_state().transcript()


def test_html_export_with_widget_state_reads_without_a_kernel(executed: Any) -> None:
    """``jupyter nbconvert --to html`` of a notebook saved with widget state.

    nbconvert embeds the saved state (our bundle and every model's ``snapshot``) in a
    ``<script type="application/vnd.jupyter.widget-state+json">`` and adds a loader for
    ``@jupyter-widgets/html-manager`` from unpkg (``--HTMLExporter.jupyter_widgets_base_url``,
    ``--HTMLExporter.widget_renderer_url`` and ``--HTMLExporter.html_manager_semver_range``
    change where from). That manager then fetches anywidget itself from a CDN, so offline the
    widget from saved state stays empty: the run is read from the static transcript that the
    final ``RunState`` cell holds. The only CDN address in the page is nbconvert's own loader.
    """
    page, _ = HTMLExporter().from_notebook_node(executed)
    for run in (demo_state(), replay_state()):
        for line in first_lines(run):
            assert line in page
    for marker in TRANSIENT_MARKERS:
        assert marker not in page
    widget_state = re.search(
        r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>', page, re.S
    )
    assert widget_state is not None, "nbconvert should embed the saved widget state"
    addresses = {match.group(0) for match in re.finditer(r"https?://[^\s\"'<>]+", page)}
    cdn_addresses = {address for address in addresses if CDN.search(address)}
    assert cdn_addresses == {
        "https://unpkg.com/@jupyter-widgets/html-manager@*/dist/embed-amd.js",
        "https://unpkg.com/@jupyter-js-widgets@*/dist/embed.js",
    }
    for cell in executed.cells:
        assert not CDN.search(json.dumps(cell.outputs))


def test_html_export_of_nbconvert_execute_has_no_cdn_at_all(tmp_path: Path) -> None:
    """``jupyter nbconvert --execute --to html`` with widget state left out of the page.

    ``--ClearMetadataPreprocessor.enabled=True`` drops ``metadata.widgets``, so nbconvert
    adds no widget loader and shows each view's ``text/plain``; the runs are read from the
    static transcripts. No address of unpkg or jsDelivr remains anywhere in the page.
    """
    source = tmp_path / "runs.ipynb"
    nbformat.write(new_notebook(), source)
    done = subprocess.run(
        [
            str(Path(sys.executable).with_name("jupyter")),
            "nbconvert",
            "--to",
            "html",
            "--execute",
            "--ClearMetadataPreprocessor.enabled=True",
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    page = (tmp_path / "runs.html").read_text(encoding="utf-8")
    assert 'class="chunkscope-saved"' in page  # the view's readable output, as HTML
    for line in first_lines(demo_state()):
        assert line in page
    assert not re.search(r"unpkg|jsdelivr", page, re.IGNORECASE)
    for marker in TRANSIENT_MARKERS:
        assert marker not in page


# ---------------------------------------------------------------------------- no front end

SYNC_RUN = """
import chunkscope as cs
view = cs.show(cs.demo.stream(speed=8), title="weather demo")
state = view.result(timeout=60)
print("=== transcript")
print(state.transcript())
"""

ASYNC_RUN = """
import asyncio
import chunkscope as cs

async def main():
    view = cs.show(cs.demo.stream(speed=8), title="weather demo")
    state = await view.wait()
    print("=== transcript")
    print(state.transcript())

asyncio.run(main())
"""


def run_python(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=90, cwd=REPO)


@pytest.mark.parametrize(
    ("runner", "code"),
    [
        ("ipython", SYNC_RUN),
        ("python", SYNC_RUN),
        ("python", ASYNC_RUN),
    ],
    ids=["ipython -c, view.result()", "python -c, view.result()", "python -c, await view.wait()"],
)
def test_without_a_front_end_the_run_ends_and_the_transcript_is_printed(
    runner: str, code: str
) -> None:
    executable = Path(sys.executable).with_name(runner)
    argv = [str(executable), "--no-banner", "--colors=NoColor", "-c", code]
    if runner == "python":
        argv = [str(executable), "-c", code]
    done = run_python(argv)
    assert done.returncode == 0, done.stderr[-3000:]
    before, _, transcript = done.stdout.partition("=== transcript\n")
    # display() outside a notebook shows the view's repr and the run as it stands then.
    lines = before.strip().splitlines()
    assert lines[0] == "StreamView(title='weather demo')"
    assert lines[1].startswith("chunkscope live output: ")
    assert transcript.rstrip("\n") == demo_state().transcript()
    for marker in TRANSIENT_MARKERS:
        assert marker not in done.stdout
