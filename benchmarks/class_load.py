"""A locust run's CSV files (``locust --csv PREFIX``, benchmarks/locustfile.py) → one JSON of the class's figures.

    .venv/bin/python benchmarks/class_load.py benchmarks/results/class_load --users 64 \
        --label "two rlhf-lab processes" --json benchmarks/results/class_load.json

Reads ``PREFIX_stats.csv`` (per request name and the aggregate: requests, failures, percentiles, requests/s) and
``PREFIX_failures.csv`` / ``PREFIX_exceptions.csv``.  Percentiles are locust's own: over its histogram of response
times in whole milliseconds (rounded to two significant figures above 100 ms), as the client saw them.  Exit status
1 if the run has no requests.
"""

from __future__ import annotations

import argparse
import csv
import os
from pathlib import Path

from _common import run_meta, write_json

PCTS = {"p50": "50%", "p95": "95%", "p99": "99%", "max": "100%"}


def number(text: str) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):  # "N/A" when a row has no answer
        return None


def row(r: dict[str, str]) -> dict:
    out = {"requests": int(r["Request Count"]), "failures": int(r["Failure Count"]),
           "requests_per_s": round(float(r["Requests/s"]), 1),
           "mean_bytes": round(float(r["Average Content Size"]))}
    out.update({k: number(r[c]) for k, c in PCTS.items()})
    return out


def read(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("prefix", help="the --csv prefix locust was given")
    ap.add_argument("--users", type=int, help="the learners (locust -u), for the record")
    ap.add_argument("--run-time", help="locust -t, for the record")
    ap.add_argument("--label", default="", help="what served the class, e.g. 'two rlhf-lab processes'")
    ap.add_argument("--loadavg-at-start", help="the load average (1, 5, 15 min) before locust started, for the record")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    stats = read(Path(f"{args.prefix}_stats.csv"))
    total = next((r for r in stats if r["Name"] == "Aggregated"), None)
    if total is None or not int(total["Request Count"]):
        print(f"no requests in {args.prefix}_stats.csv")
        return 1
    meta = run_meta()
    if args.loadavg_at_start:
        meta["loadavg_at_start"] = [float(x) for x in args.loadavg_at_start.split()[:3]]
    result = {
        "meta": meta, "label": args.label, "users": args.users, "run_time": args.run_time,
        "loadavg_at_end": [round(x, 2) for x in os.getloadavg()],
        "all": row(total),
        "by_name": {r["Name"]: row(r) for r in stats if r["Name"] != "Aggregated"},
        "failures": [{"name": r["Name"], "error": r["Error"], "occurrences": int(r["Occurrences"])}
                     for r in read(Path(f"{args.prefix}_failures.csv"))],
        "exceptions": [{"message": r["Message"], "count": int(r["Count"])}
                       for r in read(Path(f"{args.prefix}_exceptions.csv"))],
    }
    a = result["all"]
    print(f"a class of {args.users} learners ({args.label or 'one host'}), {args.run_time}: {a['requests']} requests, "
          f"{a['failures']} failures, {a['requests_per_s']} /s; p50 {a['p50']} · p95 {a['p95']} · p99 {a['p99']} · "
          f"max {a['max']} ms")
    for name, r in result["by_name"].items():
        print(f"  {name}: {r['requests']} requests, {r['failures']} failures; p50 {r['p50']} · p95 {r['p95']} · "
              f"p99 {r['p99']} ms; {r['mean_bytes']} B")
    for f in result["failures"]:
        print(f"  failure: {f['name']}: {f['error']} ×{f['occurrences']}")
    write_json(args.json, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
