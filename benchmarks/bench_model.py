"""Time ``app.model.evaluate`` — the work the server does on every slider move.

    .venv/bin/python benchmarks/bench_model.py            # full run, a few seconds
    .venv/bin/python benchmarks/bench_model.py --quick    # fewer repeats
    .venv/bin/python benchmarks/bench_model.py --profile  # cProfile of the random sample, top 25 functions
    .venv/bin/python benchmarks/bench_model.py --cpu      # process CPU time instead of wall clock

Three workloads: the default inputs, every preset, and a seeded random sample of valid inputs (numbers from the
slider ladders or uniform in range, choices uniform).  Each sample is the mean of ``number`` back-to-back calls
of ``evaluate`` on one input (timeit; garbage collection off during a sample, as timeit does); the script prints
the median and 95th percentile of those samples in µs per evaluation.  Information only: issue 23 retired the
µs budget (a figure no user feels; the user's budgets are in benchmarks/budgets.py).

Nothing is cached between calls: every call recomputes the whole Result from the inputs.  On a shared 2-core
machine other processes inflate wall-clock samples (the p95 first); ``--cpu`` times with the process's CPU clock,
which preemption does not inflate, to compare two versions of the model while something else is running.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import statistics
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.model import DEFAULTS, WorkloadInputs, evaluate  # noqa: E402
from app.model.sampling import random_inputs  # noqa: E402
from app.model.scenarios import PRESETS  # noqa: E402


def samples_us(inputs: list[WorkloadInputs], repeat: int, number: int, clock=time.perf_counter) -> list[float]:
    """µs per evaluation, one sample per (input, repeat)."""
    out: list[float] = []
    for inp in inputs:
        evaluate(inp)  # warm-up
        timer = timeit.Timer(lambda inp=inp: evaluate(inp), timer=clock)
        out.extend(t / number * 1e6 for t in timer.repeat(repeat=repeat, number=number))
    return out


def summarise(name: str, samples: list[float]) -> dict:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"workload": name, "samples": len(samples), "median_us": statistics.median(samples), "p95_us": p95,
            "min_us": ordered[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a rough figure in about a second)")
    parser.add_argument("--random", type=int, default=200, help="size of the random sample (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the random sample and exit")
    parser.add_argument("--cpu", action="store_true", help="time with the process CPU clock, not wall clock")
    args = parser.parse_args()

    load_at_start = os.getloadavg()
    sample = random_inputs(args.random, args.seed)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(20):
            for inp in sample:
                evaluate(inp)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0

    scale = 4 if args.quick else 1
    clock = time.process_time if args.cpu else time.perf_counter
    workloads = {
        "default": samples_us([DEFAULTS], repeat=400 // scale, number=20, clock=clock),
        "presets": samples_us([p.inputs for p in PRESETS], repeat=100 // scale, number=20, clock=clock),
        f"random ({args.random})": samples_us(sample, repeat=10 // scale or 1, number=10, clock=clock),
    }
    workloads["all"] = [s for v in workloads.values() for s in v]
    rows = [summarise(name, s) for name, s in workloads.items()]

    kind = "CPU time" if args.cpu else "wall clock"
    print(f"evaluate() on Python {platform.python_version()} ({platform.machine()}), µs per evaluation, {kind}")
    print(f"{'workload':<16}{'samples':>9}{'median':>10}{'p95':>10}{'min':>10}")
    for r in rows:
        print(f"{r['workload']:<16}{r['samples']:>9}{r['median_us']:>10.1f}{r['p95_us']:>10.1f}{r['min_us']:>10.1f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        meta = {"python": platform.python_version(), "loadavg_at_start": [round(x, 2) for x in load_at_start]}
        args.json.write_text(json.dumps({"python": platform.python_version(), "clock": kind, "rows": rows,
                                         "meta": meta}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
