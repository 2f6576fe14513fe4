"""Side-by-side streaming benchmark in a real JupyterLab and headless Chromium.

    .venv/bin/python benchmarks/run.py            # full: 1k/10k/100k/1M bursts + paced, 3 runs each
    .venv/bin/python benchmarks/run.py --quick    # one run, small N: a fast check

Writes benchmarks/results.json and the generated block of benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path[:0] = [str(BENCH), str(REPO / "tests" / "e2e")]

from approaches import APPROACHES, NEEDS_CHUNKSCOPE  # noqa: E402
from lab import LabServer, launch_chromium, run_lab  # noqa: E402
from lab.paths import ARTIFACTS, kernel_pythonpath  # noqa: E402
from measure import RunResult, Scenario, measure_run  # noqa: E402
from playwright.sync_api import Browser, sync_playwright  # noqa: E402
from python_side import measure_python_side  # noqa: E402
from report import read_json, render, summarize, write_json, write_readme  # noqa: E402

FULL = [
    Scenario("1k", 1_000, None),
    Scenario("10k", 10_000, None),
    Scenario("100k", 100_000, None),
    Scenario("1M", 1_000_000, None),
    Scenario("paced", 1_000, 100.0),
]
QUICK = [Scenario("1k", 1_000, None), Scenario("10k", 10_000, None), Scenario("paced", 200, 100.0)]


def _parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="one run per cell, small N")
    parser.add_argument("--repeats", type=int, help="runs per cell (default 3, quick 1)")
    parser.add_argument("--cap", type=float, help="seconds a cell may take (default 30, quick 20)")
    parser.add_argument("--approaches", help=f"comma-separated subset of: {', '.join(APPROACHES)}")
    parser.add_argument("--scenarios", help="comma-separated subset of: 1k, 10k, 100k, 1M, paced")
    parser.add_argument(
        "--out", type=Path, default=BENCH, help="folder for README.md and results.json"
    )
    parser.add_argument(
        "--render-only",
        action="store_true",
        help="only rewrite README.md's results from the results.json in --out",
    )
    return parser.parse_args()


def _chunkscope_missing() -> str | None:
    """Why chunkscope's approaches cannot run, or None when they can."""
    sys.path[:0] = [str(p) for p in kernel_pythonpath()]
    try:
        import chunkscope
    except ImportError as error:
        return f"chunkscope is not importable ({error})"
    if not callable(getattr(chunkscope, "show", None)):
        return "chunkscope.show does not exist yet"
    return None


def _versions(browser: Browser) -> dict[str, str]:
    names = ["jupyterlab", "jupyter_server", "ipykernel", "ipywidgets", "anywidget", "playwright"]
    versions = {"python": platform.python_version(), "chromium": browser.version}
    for name in names:
        versions[name] = importlib.metadata.version(name)
    try:
        versions["chunkscope"] = importlib.metadata.version("chunkscope")
    except importlib.metadata.PackageNotFoundError:
        versions["chunkscope"] = "source tree (not installed)"
    return versions


def _machine() -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {
        "CPU": cpu,
        "cores": str(os.cpu_count()),
        "memory": f"{memory:.0f} GiB",
        "OS": f"{platform.system()} {platform.release()}",
    }


def _timed_out_smaller(runs: list[RunResult], approach: str, scenario: Scenario) -> str | None:
    """The smaller burst on which ``approach`` already hit the cap (so this one would too)."""
    if scenario.rate is not None:
        return None
    sizes = {s.label: s.n for s in FULL + QUICK if s.rate is None}
    for run in runs:
        smaller = sizes.get(run.scenario, scenario.n) < scenario.n
        if run.approach == approach and smaller and run.outcome == "timeout":
            return run.scenario
    return None


def _run_all(
    server: LabServer,
    browser: Browser,
    approaches: list[str],
    scenarios: list[Scenario],
    repeats: int,
    cap_s: float,
) -> list[RunResult]:
    runs: list[RunResult] = []
    for scenario in scenarios:
        for repeat in range(repeats):
            for approach in approaches:
                smaller = _timed_out_smaller(runs, approach, scenario)
                if smaller is not None:
                    if repeat == 0:
                        skip = RunResult(approach, scenario.label, "skipped")
                        skip.error = f"not run: did not finish {smaller} in {cap_s:.0f} s"
                        runs.append(skip)
                    continue
                result = measure_run(server, browser, approach, scenario, cap_s, ARTIFACTS)
                runs.append(result)
                shown = "–" if result.visible_s is None else f"{result.visible_s:.3f} s"
                print(
                    f"[{scenario.label} #{repeat + 1}] {approach}: {result.outcome}, {shown}, "
                    f"delivered {result.delivered}, iopub warning {result.iopub_warning}, "
                    f"wall {result.wall_s:.1f} s"
                    + (f" ({result.error[:200]})" if result.error else ""),
                    flush=True,
                )
    return runs


def main() -> int:
    args = _parse_args()
    if args.render_only:
        saved_meta, saved_rows = read_json(args.out / "results.json")
        write_readme(args.out / "README.md", render(saved_meta, saved_rows))
        return 0
    scenarios = QUICK if args.quick else FULL
    if args.scenarios:
        # A label picks this mode's scenario, or the other mode's when this one lacks it.
        pool = {s.label: s for s in (FULL + QUICK if args.quick else QUICK + FULL)}
        scenarios = [pool[label] for label in args.scenarios.split(",") if label in pool]
    repeats = args.repeats or (1 if args.quick else 3)
    cap_s = args.cap or (20.0 if args.quick else 30.0)
    approaches = args.approaches.split(",") if args.approaches else list(APPROACHES)
    unknown = [a for a in approaches if a not in APPROACHES]
    if unknown:
        print(f"unknown approach(es): {', '.join(unknown)}", file=sys.stderr)
        return 2

    skipped: dict[str, str] = {}
    missing = _chunkscope_missing()
    if missing:
        for name in NEEDS_CHUNKSCOPE & set(approaches):
            skipped[name] = missing
        approaches = [a for a in approaches if a not in skipped]
        print(f"skipping {', '.join(sorted(skipped))}: {missing}", flush=True)

    started = time.monotonic()
    pythonpath = [BENCH, *kernel_pythonpath()]
    with (
        tempfile.TemporaryDirectory(prefix="chunkscope-bench-") as workdir,
        run_lab(Path(workdir), ARTIFACTS / "bench-jupyterlab.log", pythonpath) as server,
        sync_playwright() as playwright,
    ):
        browser = launch_chromium(playwright)
        try:
            versions = _versions(browser)
            runs = _run_all(server, browser, approaches, scenarios, repeats, cap_s)
        finally:
            browser.close()
    python_side = measure_python_side(100_000 if not args.quick else 20_000, repeats)

    meta: dict[str, Any] = {
        "command": " ".join(["benchmarks/run.py", *sys.argv[1:]]),
        "finished_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "repeats": repeats,
        "cap_s": cap_s,
        "wall_s": time.monotonic() - started,
        "machine": _machine(),
        "versions": versions,
        "skipped": skipped,
        "scenarios": [{"label": s.label, "n": s.n, "rate": s.rate} for s in scenarios],
        "python_side": python_side,
    }
    rows = summarize(runs)
    args.out.mkdir(parents=True, exist_ok=True)
    write_json(args.out / "results.json", meta, rows, runs)
    write_readme(args.out / "README.md", render(meta, rows))
    print(f"wrote {args.out / 'README.md'} and results.json in {meta['wall_s'] / 60:.1f} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
