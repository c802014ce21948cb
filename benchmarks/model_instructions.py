"""Instructions per ``evaluate()`` call, counted by valgrind's callgrind: a figure a busy machine does not move.

    .venv/bin/python benchmarks/model_instructions.py          # needs valgrind (apt-get install -y valgrind)
    .venv/bin/python benchmarks/model_instructions.py --json benchmarks/results/model_instructions.json

Wall-clock and CPU-time samples of ``bench_model.py`` move by ±25 % on a shared 2-core machine, because other
processes share its caches.  The instructions the interpreter executes do not, so a change to the model is
compared here, not by timing.  The inputs are the defaults, every preset and ``random_inputs(100, seed=1)``
(108 inputs; the random ones are the first half of ``bench_model.py``'s sample).  The script runs itself
twice under callgrind with a fixed hash seed: once evaluating every input once (imports and warm-up), once
more with two further passes; the difference over 2 × 108 calls is the cost of one evaluation.  To compare two
versions, run it in each checkout.  The time budget stays in ``bench_model.py`` (``model_median_us``):
instructions only explain it, at this machine's rate of roughly 5 instructions per nanosecond.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

PASSES = 2  # extra passes over the inputs in the second run


def inputs() -> list:
    from _common import ROOT  # noqa: F401 - puts the app on sys.path

    from app.model import DEFAULTS
    from app.model.sampling import random_inputs
    from app.model.scenarios import PRESETS

    return [DEFAULTS, *(p.inputs for p in PRESETS), *random_inputs(100, 1)]


def child(passes: int) -> None:
    """What runs under callgrind: every input once, then ``passes`` more times."""
    sample = inputs()  # first: it puts this checkout's app on sys.path
    from app.model import evaluate

    for _ in range(1 + passes):
        for i in sample:
            evaluate(i)


def collected(passes: int) -> int:
    """Instructions callgrind counts for one run of ``child(passes)``."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
         "--child", str(passes)], capture_output=True, text=True, env=env, check=True).stderr
    match = re.search(r"Collected : (\d+)", out)
    if not match:
        raise SystemExit(f"callgrind printed no instruction count:\n{out[-2000:]}")
    return int(match.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the figure to this JSON file")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        child(args.child)
        return 0
    if not shutil.which("valgrind"):
        print("valgrind is not installed (apt-get install -y valgrind); nothing measured", file=sys.stderr)
        return 2
    calls = PASSES * len(inputs())
    per_call = (collected(PASSES) - collected(0)) / calls
    print(f"evaluate(): {per_call / 1e6:.4f} M instructions per call ({calls} calls, callgrind, PYTHONHASHSEED=0)")
    if args.json:
        args.json.write_text(json.dumps({"instructions_per_evaluate": round(per_call), "calls": calls}, indent=1)
                             + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
