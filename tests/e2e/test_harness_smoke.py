"""The harness itself works: widgets render in a real JupyterLab and their state is saved."""

from __future__ import annotations

import sys

import pytest
from lab import LabPage, LabPageError

SLIDER_CELL = """\
import ipywidgets
slider = ipywidgets.IntSlider(value=7, min=0, max=10, description="smoke")
slider
"""

# A counter defined inline: the smallest anywidget with a synced trait and a click handler.
COUNTER_CELL = """\
import anywidget
import traitlets

class Counter(anywidget.AnyWidget):
    _esm = '''
    function render({ model, el }) {
      const button = document.createElement("button");
      button.className = "smoke-counter";
      const draw = () => { button.textContent = `count is ${model.get("value")}`; };
      button.addEventListener("click", () => {
        model.set("value", model.get("value") + 1);
        model.save_changes();
      });
      model.on("change:value", draw);
      draw();
      el.appendChild(button);
    }
    export default { render };
    '''
    value = traitlets.Int(0).tag(sync=True)

counter = Counter()
counter
"""

KERNEL_CELL = "import sys\nprint(sys.executable)"


@pytest.mark.e2e
def test_widgets_render_and_their_state_is_saved(lab: LabPage) -> None:
    lab.set_save_widget_state(True)
    path = lab.new_notebook([KERNEL_CELL, SLIDER_CELL, COUNTER_CELL], "smoke")
    lab.open(path)

    assert lab.run_all(), "a cell failed"
    lab.wait_for(".widget-slider")
    counter = lab.wait_for("button.smoke-counter")
    assert counter.text_content() == "count is 0"
    counter.click()
    lab.page.wait_for_function(
        "() => document.querySelector('button.smoke-counter').textContent === 'count is 1'"
    )
    # The kernel is the interpreter running the tests, so the package under test is importable.
    assert sys.executable in lab.outputs_text()
    assert not lab.has_error_output()
    assert not lab.iopub_warning_seen()

    lab.save()
    lab.screenshot("harness-smoke")
    saved = lab.read_notebook(path)
    widget_states = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"][
        "state"
    ]
    models = {model["model_name"]: model["state"] for model in widget_states.values()}
    assert models["IntSliderModel"]["value"] == 7
    assert models["AnyModel"]["value"] == 1
    assert not lab.console_errors, lab.console_errors


@pytest.mark.e2e
def test_dropped_iopub_messages_are_reported(rate_limited_lab: LabPage) -> None:
    lab = rate_limited_lab
    # An update of one display hands its message to the kernel's IOPub thread and goes on;
    # print(flush=True) waits for that thread every time, and on a loaded machine 400 of them
    # came slower than the limit. One output updated keeps the warning in view: JupyterLab
    # draws only a cell's first 50 outputs.
    flood = (
        "from IPython.display import display, update_display\n"
        "display(0, display_id='flood')\n"
        "for i in range(1000):\n"
        "    update_display(i, display_id='flood')"
    )
    lab.open(lab.new_notebook([flood], "flood"))
    assert not lab.iopub_warning_seen()
    lab.run_all(timeout_s=120)
    lab.page.wait_for_function(
        "() => document.body.textContent.includes('IOPub message rate exceeded')",
        timeout=60_000,
    )
    assert lab.iopub_warning_seen()


@pytest.mark.e2e
def test_a_run_that_does_not_finish_says_which_cell_was_running(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    path = lab.new_notebook(["x = 1", "import time\ntime.sleep(30)", "y = 2"], "unfinished")
    lab.open(path)
    with pytest.raises(LabPageError) as raised:
        lab.run_all(timeout_s=3)
    report = str(raised.value)
    assert "cell 0 [1] idle: x = 1" in report, report
    assert "cell 1 [None] running: import time" in report, report
    assert "kernel busy" in report, report
    assert "screenshot unfinished-run-all-cells.png" in report, report
    lab.interrupt_kernel()
