"""Bounded mixed load against the lab on 127.0.0.1: full pages, htmx partials and JSON API calls.

    # start the app itself (`python -m app.cli`, i.e. rlhf-lab: one worker, on a free port), load it, stop it:
    .venv/bin/python benchmarks/load_test.py --spawn --clients 64 --duration 60

    # load a server that is already running (e.g. nginx in front of two app processes: deploy/test_nginx.sh does
    # this); give the app's PIDs so their memory is read:
    .venv/bin/python benchmarks/load_test.py --url http://127.0.0.1:8080 --pid 1234 --pid 1240 --duration 20

N clients (``--clients``) each behave like one browser tab: one keep-alive connection, its own cookie jar, a
current workload state.  Each step picks, by weight (``--mix page=2,partial=6,api=2,static=0``):

* ``page``: a full lab page (zh or en) for a random preset, walkthrough step or random workload — the first one
  per client without the ``lang`` cookie (the answer sets it), later ones with it, like a real visit;
* ``partial``: a slider move — one parameter one notch along its ladder from the client's current state, sent
  with ``HX-Request: true`` and ``HX-Current-URL: <current state URL>``, as htmx does;
* ``api``: ``GET /api/evaluate`` with a random valid workload;
* ``static``: a stylesheet or script (what a first visit also loads).

Every answer is checked (status 200, and a body that looks like what was asked: ``</html>``, the live regions,
JSON with a ``stage``); anything else is an error.  The run stops by itself after ``--duration`` seconds
(``--warmup`` seconds before that are not recorded), a hard timeout bounds everything, and every request has a
timeout.  Reported: requests, errors (by kind), 5xx, requests/s, p50/p90/p99/max latency overall and per kind,
the RSS (VmRSS from /proc/<pid>/status) of the server processes at start and end, the load average.

Only loopback targets are accepted.  Exit status 1 if there was any error or 5xx.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import httpx2 as httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.model.inputs import CHOICES, NUMBERS  # noqa: E402  (after the path fix, on purpose)
from app.model.scenarios import PRESETS, WALKTHROUGH  # noqa: E402

MAX_DURATION_S = 900.0
MAX_CLIENTS = 512
REQUEST_TIMEOUT_S = 15.0
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
KINDS = ("page", "partial", "api", "static")
STATIC = ("/static/app.css", "/static/app.js", "/static/htmx-2.0.11.min.js", "/favicon.ico")


# --- workloads ----------------------------------------------------------------------------------------------


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


KNOWN_STATES: list[dict[str, str]] = [p.inputs.query() for p in PRESETS] + [w.inputs.query() for w in WALKTHROUGH]


def random_state(rng: random.Random) -> dict[str, str]:
    """A valid workload: each number a notch of its ladder, each choice one of its values."""
    q = {s.name: _fmt(rng.choice(s.ladder)) for s in NUMBERS}
    q.update({s.name: rng.choice(s.choices) for s in CHOICES})
    if q["placement"] == "separate" and float(q["gpus"]) < 4:
        q["gpus"] = "8"
    return q


def slider_move(rng: random.Random, state: dict[str, str]) -> dict[str, str]:
    """One parameter one notch up or down its ladder (or the other choice), as a slider or radio does."""
    new = dict(state)
    spec = rng.choice(NUMBERS + CHOICES)
    if hasattr(spec, "ladder"):
        ladder = [_fmt(v) for v in spec.ladder]
        cur = new.get(spec.name, _fmt(spec.default))
        i = ladder.index(cur) if cur in ladder else len(ladder) // 2
        i = min(len(ladder) - 1, max(0, i + rng.choice((-1, 1))))
        new[spec.name] = ladder[i]
    else:
        new[spec.name] = rng.choice([c for c in spec.choices if c != new.get(spec.name)] or list(spec.choices))
    return new


# --- results ------------------------------------------------------------------------------------------------


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    statuses: dict[int, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    bytes_in: int = 0
    cache: dict[str, int] = field(default_factory=dict)  # X-Cache-Status values, when a proxy sends them

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def pct(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return None
    s = sorted(values)
    k = max(1, min(len(s), int(-(-q * len(s) // 100))))
    return s[k - 1]


def summary_ms(values: list[float]) -> dict:
    ms = [v * 1000 for v in values]
    return {"n": len(ms), **{f"p{q}": (round(pct(ms, q), 2) if ms else None) for q in (50, 90, 99)},
            "max": round(max(ms), 2) if ms else None}


# --- server processes ---------------------------------------------------------------------------------------


def descendants(pid: int) -> list[int]:
    """pid and every process below it (if a server forks workers, they are counted with it)."""
    out, todo = [], [pid]
    while todo and len(out) < 256:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            with contextlib.suppress(OSError):
                todo += [int(c) for c in (task / "children").read_text().split()]
    return out


def rss_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def memory(pids: list[int]) -> dict[str, int | None]:
    return {str(p): rss_kb(p) for p in pids}


def cpu_s(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (/proc/<pid>/stat fields 14 and 15)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def cpu(pids: list[int]) -> dict[str, float | None]:
    return {str(p): cpu_s(p) for p in pids}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn(port: int) -> subprocess.Popen:
    """The project's own CLI (app/cli.py, one worker) on 127.0.0.1:port."""
    cmd = [sys.executable, "-m", "app.cli", "--host", "127.0.0.1", "--port", str(port)]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def wait_healthy(url: str, proc: subprocess.Popen | None, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"server exited early: {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")
        try:
            if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"{url} not healthy after {timeout:.0f} s")


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM the process group we started, SIGKILL after 10 s."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)
    except ProcessLookupError:
        pass


# --- the load -----------------------------------------------------------------------------------------------


def _check(kind: str, r: httpx.Response) -> str | None:
    """None if the answer is what a browser expects, else a short reason."""
    if r.status_code >= 500:
        return f"{kind}: {r.status_code}"
    if r.status_code != 200:
        return f"{kind}: unexpected {r.status_code}"
    body = r.content
    if kind == "page" and not body.rstrip().endswith(b"</html>"):
        return "page: truncated"
    if kind == "partial" and (b'id="live-why"' not in body or b"<html" in body):
        return "partial: not a partial"
    if kind == "api":
        try:
            if "stage" not in json.loads(body):
                return "api: no stage"
        except ValueError:
            return "api: not JSON"
    return None


async def client(i: int, base: str, mix: list[tuple[str, float]], t_record: float, t_stop: float, stats: Stats,
                 seed: int) -> None:
    rng = random.Random(seed * 1_000 + i)
    kinds, weights = zip(*mix, strict=True)
    lang = "zh" if i % 2 else "en"
    state = dict(rng.choice(KNOWN_STATES))
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    async with httpx.AsyncClient(base_url=base, timeout=REQUEST_TIMEOUT_S, limits=limits,
                                 headers={"Accept-Encoding": "gzip", "User-Agent": "rlhf-lab-load-test"}) as http:
        while (now := time.monotonic()) < t_stop:
            kind = rng.choices(kinds, weights)[0]
            headers: dict[str, str] = {}
            if kind == "page":
                state = dict(rng.choice(KNOWN_STATES) if rng.random() < 0.5 else random_state(rng))
                path = f"/{lang}/?{urlencode(state)}"
            elif kind == "partial":
                current = f"{base}/{lang}/?{urlencode(state)}"
                state = slider_move(rng, state)
                path = f"/{lang}/?{urlencode(state)}"
                headers = {"HX-Request": "true", "HX-Current-URL": current}
            elif kind == "api":
                path = f"/api/evaluate?{urlencode(random_state(rng))}"
            else:
                path = rng.choice(STATIC)
            t0 = time.perf_counter()
            try:
                r = await http.get(path, headers=headers)
                await r.aread()
            except (httpx.HTTPError, OSError) as exc:
                if now >= t_record:
                    stats.error(f"{kind}: {type(exc).__name__}")
                continue
            dt = time.perf_counter() - t0
            if now < t_record:
                continue
            stats.statuses[r.status_code] = stats.statuses.get(r.status_code, 0) + 1
            stats.bytes_in += r.num_bytes_downloaded
            cache = r.headers.get("x-cache-status")
            if cache:
                stats.cache[f"{kind}:{cache}"] = stats.cache.get(f"{kind}:{cache}", 0) + 1
            problem = _check(kind, r)
            if problem:
                stats.error(problem)
            else:
                stats.latencies[kind].append(dt)


async def run_load(base: str, clients: int, duration: float, warmup: float, mix: list[tuple[str, float]],
                   seed: int) -> tuple[Stats, float]:
    stats = Stats()
    t_start = time.monotonic()
    t_record, t_stop = t_start + warmup, t_start + warmup + duration
    tasks = [client(i, base, mix, t_record, t_stop, stats, seed) for i in range(clients)]
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=warmup + duration + REQUEST_TIMEOUT_S + 30)
    return stats, time.monotonic() - t_record


# --- main ---------------------------------------------------------------------------------------------------


def parse_mix(text: str) -> list[tuple[str, float]]:
    mix = []
    for part in text.split(","):
        name, _, weight = part.partition("=")
        if name.strip() not in KINDS:
            raise SystemExit(f"--mix: unknown kind {name!r} (known: {', '.join(KINDS)})")
        if float(weight) > 0:
            mix.append((name.strip(), float(weight)))
    if not mix:
        raise SystemExit("--mix: nothing to do")
    return mix


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--url", help="base URL of a running server on 127.0.0.1")
    where.add_argument("--spawn", action="store_true",
                       help="start `python -m app.cli` (one worker) on a free port and stop it")
    ap.add_argument("--pid", type=int, action="append", default=[],
                    help="a server process whose RSS to report (with its children); repeatable")
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--duration", type=float, default=15.0, help="recorded seconds (default 15; the issue: 60)")
    ap.add_argument("--warmup", type=float, default=2.0, help="unrecorded seconds first")
    ap.add_argument("--mix", default="page=2,partial=6,api=2,static=0")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args(argv)

    if not 0 < args.duration <= MAX_DURATION_S or not 0 <= args.warmup <= 60:
        raise SystemExit(f"--duration must be in (0, {MAX_DURATION_S:.0f}], --warmup in [0, 60]")
    if not 0 < args.clients <= MAX_CLIENTS:
        raise SystemExit(f"--clients must be in 1..{MAX_CLIENTS}")
    mix = parse_mix(args.mix)

    proc = None
    if args.spawn:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = spawn(port)
    else:
        base = args.url.rstrip("/")
        if urlsplit(base).hostname not in LOOPBACK:
            raise SystemExit("only loopback targets (127.0.0.1, localhost) are allowed")
    try:
        wait_healthy(base, proc)
        roots = ([proc.pid] if proc else []) + args.pid
        pids = sorted({p for r in roots for p in descendants(r)})
        rss_start, cpu_start = memory(pids), cpu(pids)
        load_start = os.getloadavg()
        own_start = time.process_time()
        stats, seconds = asyncio.run(run_load(base, args.clients, args.duration, args.warmup, mix, args.seed))
        own_cpu = time.process_time() - own_start
        rss_end, cpu_end = memory(pids), cpu(pids)
        load_end = os.getloadavg()
    finally:
        if proc is not None:
            stop(proc)

    done = sum(len(v) for v in stats.latencies.values())
    failures = sum(stats.errors.values())
    fivexx = sum(n for s, n in stats.statuses.items() if s >= 500)
    every = [x for v in stats.latencies.values() for x in v]
    result = {
        "target": base, "spawned": bool(proc), "clients": args.clients,
        "duration_s": round(seconds, 2), "warmup_s": args.warmup, "mix": dict(mix),
        "requests": done + failures, "ok": done, "errors": failures, "errors_by_kind": stats.errors,
        "status_5xx": fivexx, "statuses": {str(k): v for k, v in sorted(stats.statuses.items())},
        "requests_per_s": round((done + failures) / seconds, 1) if seconds else None,
        "mb_received_on_the_wire": round(stats.bytes_in / 1e6, 1),
        "latency_ms": {"all": summary_ms(every), **{k: summary_ms(v) for k, v in stats.latencies.items() if v}},
        "rss_kb_start": rss_start, "rss_kb_end": rss_end,
        "rss_kb_total_start": sum(v or 0 for v in rss_start.values()),
        "rss_kb_total_end": sum(v or 0 for v in rss_end.values()),
        # CPU seconds each server process used during the run (warm-up included): how the work was spread over
        # the processes, and requests per server CPU-second, a capacity figure less sensitive to a busy machine
        "server_cpu_s": {p: (round(cpu_end[p] - cpu_start[p], 2) if cpu_end[p] is not None and cpu_start[p]
                             is not None else None) for p in cpu_start},
        "load_generator_cpu_s": round(own_cpu, 2),
        "loadavg_start": [round(x, 2) for x in load_start], "loadavg_end": [round(x, 2) for x in load_end],
        "x_cache_status": stats.cache, "cpus": os.cpu_count(),
    }
    server_cpu = sum(v for v in result["server_cpu_s"].values() if v)
    result["requests_per_server_cpu_s"] = round(done / server_cpu, 1) if server_cpu else None
    print(report(result))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 1 if failures or fivexx else 0


def report(r: dict) -> str:
    lines = [
        f"target {r['target']}  clients {r['clients']}  {r['duration_s']} s recorded (+{r['warmup_s']} s warm-up)  "
        f"mix {r['mix']}",
        f"requests {r['requests']}  ok {r['ok']}  errors {r['errors']}  5xx {r['status_5xx']}  "
        f"{r['requests_per_s']} req/s  {r['mb_received_on_the_wire']} MB on the wire  statuses {r['statuses']}",
    ]
    if r["errors_by_kind"]:
        lines.append(f"errors: {r['errors_by_kind']}")
    for kind, s in r["latency_ms"].items():
        lines.append(f"  {kind:8s} n={s['n']:6d}  p50 {s['p50']} ms  p90 {s['p90']} ms  p99 {s['p99']} ms  "
                     f"max {s['max']} ms")
    lines.append(f"RSS kB start {r['rss_kb_start']} (total {r['rss_kb_total_start']})")
    lines.append(f"RSS kB end   {r['rss_kb_end']} (total {r['rss_kb_total_end']})")
    lines.append(f"server CPU s {r['server_cpu_s']}  → {r['requests_per_server_cpu_s']} requests per server CPU-second;"
                 f"  load generator CPU s {r['load_generator_cpu_s']}")
    lines.append(f"load average start {r['loadavg_start']}  end {r['loadavg_end']}  ({r['cpus']} CPUs)")
    if r["x_cache_status"]:
        lines.append(f"X-Cache-Status: {r['x_cache_status']}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
