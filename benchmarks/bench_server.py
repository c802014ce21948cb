"""Server side of a slider move over HTTP on 127.0.0.1: latency and throughput of htmx partials, per pattern.

    # one worker: one `rlhf-lab` process (run_all.sh starts it on a free port)
    rlhf-lab --port 8001 &
    .venv/bin/python benchmarks/bench_server.py --url http://127.0.0.1:8001 --concurrency 1:walk,32 \
        --pattern walk,unique --floor --server-pid <its pid> --json benchmarks/results/server_one.json

    # the two-core host: two processes on two ports, the clients split evenly between them
    .venv/bin/python benchmarks/bench_server.py --url http://127.0.0.1:8001,http://127.0.0.1:8002 \
        --concurrency 32 --pattern unique --server-pid <pid 1> --server-pid <pid 2> --json …/server_host.json

Only public behaviour: every request is what htmx sends for a slider move — ``GET /en/?<every parameter>`` with
``HX-Request: true``, ``HX-Current-URL: <the previous state's URL>`` and ``Accept-Encoding: gzip`` — on one
keep-alive HTTP/1.1 connection per client (benchmarks/loadgen.py).  Every answer is checked: status 200, framing,
gzip CRC and length, and that it is a partial (``hx-swap-oob``).  N clients run for ``--duration`` seconds after
``--warmup`` unrecorded seconds (or until ``--max-requests``); every request has a timeout (10 s); errors are
counted by kind.

Patterns (details in loadgen.py): ``walk`` (each client walks the rollouts ladder one notch at a time: the same
(previous, new) pairs repeat), ``unique`` (every request a state never seen before in the run: the **never-seen
partials/s** of the budget), ``class`` (learners dragging sliders as app.js does, two fetches ahead per notch).
``--floor`` adds ``GET /healthz`` at the highest concurrency: HTTP + framework alone, no model or template — the
machine's ceiling at that moment, to read the other figures against on a shared box.

Reported per level: throughput (answers / measured seconds), end-to-end latency percentiles as the client sees
them (queueing behind the other N − 1 clients included), body and wire bytes, the server processes' CPU use
(``--server-pid``, from /proc) and answers per server-CPU-second, the load generator's own CPU (on a 2-core box
client and server share the cores: when generator + server are near 2 cores, the throughput is a floor and the
answers per server-CPU-second is the better capacity estimate), and the answers per target.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from pathlib import Path

from _common import check_loopback, run_meta, summary, write_json
from budgets import BUDGETS
from loadgen import PATTERNS, REQUEST_TIMEOUT_S, Recorder, loop_factory, make_pattern, run, run_raw

MAX_DURATION_S = 120.0
MAX_CLIENTS = 256


def _cpu_seconds(pids: list[int]) -> float | None:
    """utime + stime of the processes (and their reaped children) in seconds, from /proc; None if unavailable."""
    if not pids:
        return None
    total = 0.0
    try:
        for pid in pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
    return total


async def load(bases: list[str], lang: str, clients: int, duration: float, warmup: float, max_requests: int,
               server_pids: list[int], pattern: str, verify: str, seed: int) -> dict:
    """One load level: `clients` concurrent clients split over `bases`, one keep-alive connection each."""
    pat = make_pattern(pattern, lang, seed)
    rec = Recorder()
    deadline = time.perf_counter() + warmup + duration
    tasks = await run_raw(bases, pat, clients, rec, deadline, max_requests, verify, REQUEST_TIMEOUT_S)
    try:
        await asyncio.sleep(warmup)
        rec.recording = True
        cpu0, srv0, t0 = time.process_time(), _cpu_seconds(server_pids), time.perf_counter()
        await asyncio.wait(tasks, timeout=duration + REQUEST_TIMEOUT_S + 5)
        t1, cpu1, srv1 = time.perf_counter(), time.process_time(), _cpu_seconds(server_pids)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    # The clients stop at the deadline, so the window ends when the last in-flight answer arrived.
    elapsed = t1 - t0
    gen_cpu = cpu1 - cpu0
    out = {
        "clients": clients, "targets": len(bases), "lang": lang, "pattern": pattern, "verify": verify,
        "loop": asyncio.get_running_loop().__class__.__module__.split(".")[0],
        "path": "/healthz" if pattern == "floor" else "slider moves",
        "measured_s": round(elapsed, 3), "responses": rec.done, "requests_incl_warmup": rec.total,
        "throughput_per_s": round(rec.done / elapsed, 1) if elapsed > 0 else None,
        "by_target": {f"target {k + 1}": rec.by_target.get(b, 0) for k, b in enumerate(bases)},
        "latency_ms": summary(rec.latency_ms), "wire_bytes": summary(rec.wire_bytes, 0),
        "body_bytes": summary(rec.body_bytes, 0), "errors": rec.errors,
        "loadgen_cpu_share": round(gen_cpu / elapsed, 3) if elapsed > 0 else None,
        # ms of generator CPU per answer = cores needed per 1,000 answers/s
        "loadgen_cpu_ms_per_response": round(gen_cpu * 1000.0 / rec.done, 3) if rec.done else None,
    }
    if pat.stats():
        out["pattern_stats"] = pat.stats()
    if srv0 is not None and srv1 is not None and elapsed > 0:
        used = srv1 - srv0
        out["server_cpu_share"] = round(used / elapsed, 3)
        out["responses_per_server_cpu_s"] = round(rec.done / used, 1) if used > 0 else None
        out["server_cpu_ms_per_response"] = round(used * 1000.0 / rec.done, 3) if rec.done else None
    return out


def _levels(concurrency: str, patterns: list[str]) -> list[tuple[int, str]]:
    """"1:walk,32" with patterns [walk, unique] → [(1, walk), (32, walk), (32, unique)]."""
    out: list[tuple[int, str]] = []
    for item in concurrency.split(","):
        item = item.strip()
        if not item:
            continue
        n, _, pat = item.partition(":")
        for p in ([pat] if pat else patterns):
            if p not in PATTERNS:
                raise SystemExit(f"unknown pattern {p!r} (choose from {', '.join(PATTERNS)})")
            out.append((max(1, min(int(n), MAX_CLIENTS)), p))
    return out


def _print_level(res: dict) -> None:
    lat = res["latency_ms"] or {}
    label = "floor GET /healthz" if res["pattern"] == "floor" else f"{res['pattern']:6s}"
    print(f"{label} clients={res['clients']:3d} targets={res['targets']}: {res['throughput_per_s']} /s "
          f"({res['by_target']}); latency p50 {lat.get('p50')} p95 {lat.get('p95')} p99 {lat.get('p99')} "
          f"max {lat.get('max')} ms; server CPU {res.get('server_cpu_share')} ({res.get('server_cpu_ms_per_response')} "
          f"ms/answer, {res.get('responses_per_server_cpu_s')} /server-CPU-s); loadgen CPU {res['loadgen_cpu_share']} "
          f"({res['loadgen_cpu_ms_per_response']} ms/answer); body {res['body_bytes'] and res['body_bytes']['p50']} B, "
          f"wire {res['wire_bytes'] and res['wire_bytes']['p50']} B; errors {res['errors']}; load average "
          f"{res['loadavg_after']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--url", required=True,
                    help="loopback base URL(s) of running server(s), comma-separated: the clients are split evenly")
    ap.add_argument("--concurrency", default="1,32",
                    help="comma-separated client counts, each optionally with its pattern: 1:walk,32 (default 1,32)")
    ap.add_argument("--pattern", default="walk",
                    help="comma-separated patterns for the levels without one: walk, unique, class (default walk)")
    ap.add_argument("--loop", choices=("auto", "uvloop", "asyncio"), default="auto",
                    help="event loop of the load generator (auto: uvloop if importable)")
    ap.add_argument("--verify", choices=("full", "length"), default="full",
                    help="full = also gunzip every body and check it is a partial; length = status and framing only")
    ap.add_argument("--seed", type=int, default=0, help="seed of the unique and class patterns")
    ap.add_argument("--duration", type=float, default=8.0, help="measured seconds per level (max 120)")
    ap.add_argument("--warmup", type=float, default=1.0, help="unrecorded seconds before each level")
    ap.add_argument("--max-requests", type=int, default=200_000, help="stop a level after this many requests")
    ap.add_argument("--lang", default="en", choices=("en", "zh"))
    ap.add_argument("--floor", action="store_true", help="also load GET /healthz at the highest concurrency")
    ap.add_argument("--server-pid", type=int, action="append", default=[],
                    help="a server process's PID, to report its CPU use (repeat for several)")
    ap.add_argument("--label", default="", help="what is measured, e.g. 'one worker' (stored in the JSON)")
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args()

    bases = [check_loopback(u.strip()) for u in args.url.split(",") if u.strip()]
    duration = max(0.5, min(args.duration, MAX_DURATION_S))
    warmup = max(0.0, min(args.warmup, 10.0))
    levels = _levels(args.concurrency, [p.strip() for p in args.pattern.split(",") if p.strip()])
    if not levels:
        ap.error("--concurrency names no level")
    result: dict = {"meta": run_meta(), "label": args.label, "targets": len(bases),
                    "budgets": {k: BUDGETS[k] for k in ("one_worker_per_s", "host_per_s")},
                    "loadgen": {"loop": loop_factory(args.loop)[1], "verify": args.verify,
                                "request_timeout_s": REQUEST_TIMEOUT_S}, "http": []}
    todo = [*levels, *([(max(c for c, _ in levels), "floor")] if args.floor else [])]
    for c, pattern in todo:
        res = run(load(bases, args.lang, c, duration, warmup, max(1, args.max_requests), args.server_pid, pattern,
                       args.verify, args.seed), args.loop)
        res["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
        if pattern == "floor":
            result["floor_healthz"] = res
        else:
            result["http"].append(res)
        _print_level(res)
    write_json(args.json, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
