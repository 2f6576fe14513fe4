"""A real JupyterLab plus headless Chromium, shared by the e2e tests and the benchmarks."""

from .browser import CHROMIUM, CHROMIUM_ARGS, fresh_page, launch_chromium
from .page import IOPUB_WARNINGS, LabPage, LabPageError
from .server import LabServer, LabServerError, run_lab, stop_process_group

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "IOPUB_WARNINGS",
    "LabPage",
    "LabPageError",
    "LabServer",
    "LabServerError",
    "fresh_page",
    "launch_chromium",
    "run_lab",
    "stop_process_group",
]
