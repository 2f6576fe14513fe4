"""A source that yields 100k text deltas as fast as it can, shown in a real JupyterLab.

The server keeps its default IOPub limits (3,000 messages per 3 s): the widget must batch so
nothing is dropped, and the whole text must reach the page.
"""

from __future__ import annotations

import hashlib
import json
import re
import time

import pytest
from lab import LabPage
from lab.paths import ARTIFACTS
from streamview import cell_json, status_bar_text, text_parts, wait_status, wait_until

import chunkscope as cs

pytestmark = pytest.mark.e2e

DELTAS = 100_000

START = f"""\
import hashlib, json, time
import chunkscope as cs
started = time.monotonic()
view = cs.show(cs.demo.text_stream({DELTAS}), title='load')
"""

REPORT = """\
state = await view.wait()
seconds = time.monotonic() - started
print(json.dumps({
    "status": state.status,
    "seconds": seconds,
    "batches": view.batches_sent,
    "length": len(state.text),
    "sha256": hashlib.sha256(state.text.encode()).hexdigest(),
}))
"""


def expected_text() -> str:
    """The text the run must end with: every delta, in order."""
    return "".join(
        chunk["payload"]["text"]
        for chunk in cs.demo.text_stream(DELTAS)
        if chunk["type"] == "text-delta"
    )


def rendered_letters(text: str) -> str:
    """Letters and digits of markdown once rendered (a fence's language is not shown)."""
    return re.sub(r"[^A-Za-z0-9]", "", re.sub(r"^```\w*", "", text, flags=re.MULTILINE))


def test_100k_deltas_arrive_whole_without_iopub_warning(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    path = lab.new_notebook([START, REPORT], "load")
    lab.open(path)
    expected = expected_text()

    started = time.monotonic()
    assert lab.run_cell(0), "starting the run failed"
    wait_status(lab, "finished", timeout_s=50)
    want = rendered_letters(expected)

    def whole_text() -> str | None:
        shown = rendered_letters(text_parts(lab))
        return shown if len(shown) >= len(want) else None

    # The last frame may still be drawing the final markdown when the badge flips.
    shown = wait_until(whole_text, f"{len(want)} letters of text in the DOM", timeout_s=20)
    on_screen_s = time.monotonic() - started
    lab.screenshot("streamview-load-100k")

    assert lab.run_cell(1, timeout_s=60), "awaiting the run failed"
    kernel = cell_json(lab, 1)
    assert kernel["status"] == "finished"
    assert kernel["length"] == len(expected)
    assert kernel["sha256"] == hashlib.sha256(expected.encode()).hexdigest()
    assert len(shown) == len(want), "the DOM holds more or less text than the run"
    assert shown == want, "the DOM's text differs from the run's"
    assert f"{DELTAS + 6} chunks" in status_bar_text(lab)

    assert not lab.iopub_warning_seen(), "the server dropped IOPub messages"
    assert not lab.has_error_output()
    assert not lab.console_errors, lab.console_errors

    figures = {
        "deltas": DELTAS,
        "kernel_seconds": round(kernel["seconds"], 3),
        "on_screen_seconds": round(on_screen_s, 3),
        "batches_sent": kernel["batches"],
        "text_chars": len(expected),
    }
    (ARTIFACTS / "streamview-load.json").write_text(json.dumps(figures, indent=1) + "\n")
    print(f"\n100k deltas: {json.dumps(figures)}")
    # One message per delta would be 100k; under load at most 60 batches a second go out.
    assert kernel["batches"] <= 60 * kernel["seconds"] + 5, figures
