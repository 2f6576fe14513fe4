"""Where adapter + fold time goes, per format: cProfile over the workloads of throughput.py.

    .venv/bin/python benchmarks/profile_adapters.py [FORMAT ...] [--top 25] [--min-chunks N]

Prints, per format, the functions with the most own time, and the share of the total spent
inside the adapters (``chunkscope/adapters``) and inside the chunk models and fold.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
from typing import Any

import throughput


def share(stats: pstats.Stats, needle: str) -> float:
    """Fraction of the total time spent in functions whose file path contains ``needle``."""
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(own for (_, _, own, _, _) in raw.values())
    part = sum(own for key, (_, _, own, _, _) in raw.items() if needle in key[0])
    return part / total if total else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("formats", nargs="*")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--min-chunks", type=int, default=20_000)
    args = parser.parse_args()
    throughput.pin_one_cpu()
    api = throughput.Api()
    for name, (_, runs) in throughput.workloads(api).items():
        if args.formats and name not in args.formats:
            continue
        per_pass = sum(sum(1 for _ in run()) for run in runs)
        passes = max(1, args.min_chunks // per_pass)
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(passes):
            for run in runs:
                api.accumulate(run())
        profile.disable()
        stats = pstats.Stats(profile)
        print(f"\n=== {name}: {per_pass * passes} chunks")
        for needle in ("chunkscope/adapters", "chunkscope/chunks", "chunkscope/fold"):
            print(f"  own time in {needle}: {share(stats, needle):.0%}")
        stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
