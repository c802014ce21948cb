"""A/B several copies of the app (e.g. HEAD and HEAD + a patch) on this noisy machine: interleaved rounds.

    bash benchmarks/patches/make_scratch.sh                 # /tmp/lab-scratch/<name> = HEAD + patch, one per patch
    .venv/bin/python benchmarks/ab.py --mode server  --rounds 5 base=/tmp/lab-scratch/base \
        async=/tmp/lab-scratch/03-async-routes
    .venv/bin/python benchmarks/ab.py --mode browser --rounds 3 base=/tmp/lab-scratch/base \
        fix=/tmp/lab-scratch/01-url-sync-without-snapshot
    .venv/bin/python benchmarks/ab.py --mode inprocess --rounds 5 base=... p2=...

Each variant is ``name=dir`` (a full copy of the repo, benchmarks/ included); ``--uvicorn name=ARGS`` adds
uvicorn options for one variant, ``--tweak name=TWEAK`` passes bench_browser.py's --tweak for one variant, ``--pythonpath name=DIR`` puts extra packages on its path (e.g. httptools and
uvloop installed with ``pip install --target``, so the project venv is untouched).  Every round runs every
variant once, in a rotated order, each with a fresh server (uvicorn, 1 worker, --no-access-log, on a free
127.0.0.1 port) killed by PID afterwards.  The table shows the median over rounds of each round's figure and
the ratio to the first variant; a ratio is far steadier than an absolute figure when the other core is busy.

Modes: ``inprocess`` (bench_server.py --inprocess-only: route function and ASGI app, no socket), ``server``
(bench_server.py at ``--clients`` concurrent clients for ``--duration`` s: throughput, Server-Timing percentiles,
server CPU ms per response), ``browser`` (bench_browser.py, ``--moves`` keyboard moves, cache off).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from _common import run_meta, write_json

METRICS = {
    "inprocess": [("route_partial_en_cpu_ms", "p50", "route fn CPU p50 ms"),
                  ("asgi_partial_en_cpu_ms", "p50", "ASGI app CPU p50 ms"), ("route_partial_en_ms", "p50", "route fn p50 ms"),
                  ("asgi_partial_en_ms", "p50", "ASGI app p50 ms"), ("route_full_en_cpu_ms", "p50", "full page CPU p50 ms")],
    "server": [("throughput_per_s", None, "resp/s"), ("server_cpu_ms_per_response", None, "server CPU ms/resp"),
               ("server_ms", "p50", "server p50 ms"), ("server_ms", "p99", "server p99 ms"),
               ("latency_ms", "p50", "e2e p50 ms"), ("latency_ms", "p99", "e2e p99 ms")],
    "browser": [("dom_ms", "p50", "DOM p50 ms"), ("dom_ms", "p95", "DOM p95 ms"), ("dom_ms", "max", "DOM max ms"),
                ("send_ms", "p50", "send p50"), ("network_server_ms", "p50", "net+server p50"),
                ("htmx_ms", "p50", "htmx p50"), ("server_ms", "p50", "app p50")],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, app_dir: Path, extra_args: list[str], pythonpath: str | None) -> None:
        self.port = free_port()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(x for x in (str(app_dir), pythonpath) if x)
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - open for the server's lifetime, closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "benchmarks.timed_app:app", "--host", "127.0.0.1", "--port",
             str(self.port), "--workers", "1", "--no-access-log", *extra_args],
            cwd=app_dir, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=2):
                    break
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.2)
        else:
            self.stop()
            raise RuntimeError(f"server in {app_dir} did not come up")
        if self.proc.poll() is not None:
            self.log.seek(0)
            raise RuntimeError(f"server in {app_dir} exited: {self.log.read()[-2000:].decode(errors='replace')}")
        with urllib.request.urlopen(self.base + "/en/", timeout=10):  # compile templates before measuring
            pass

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self.log.close()


def run_one(mode: str, name: str, app_dir: Path, args, uvicorn: list[str], pythonpath: str | None,  # noqa: ANN001
            tweak: str | None = None) -> dict:
    py = sys.executable
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        out = Path(tmp.name)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(x for x in (str(app_dir), pythonpath) if x)
    try:
        if mode == "inprocess":
            cmd = [py, "benchmarks/bench_server.py", "--inprocess-only", "--json", str(out)]
            subprocess.run(cmd, cwd=app_dir, env=env, check=True, timeout=600, capture_output=True)
            return json.loads(out.read_text())["inprocess"]
        server = Server(app_dir, uvicorn, pythonpath)
        try:
            if mode == "server":
                cmd = [py, "benchmarks/bench_server.py", "--no-inprocess", "--url", server.base, "--concurrency",
                       str(args.clients), "--duration", str(args.duration), "--server-pid", str(server.proc.pid),
                       "--json", str(out)]
                subprocess.run(cmd, cwd=app_dir, env=env, check=True, timeout=600, capture_output=True)
                return json.loads(out.read_text())["http"][0]
            cmd = [py, "benchmarks/bench_browser.py", "--url", server.base + "/en/", "--moves", str(args.moves),
                   "--json", str(out), *(["--tweak", tweak] if tweak else [])]
            subprocess.run(cmd, cwd=app_dir, env=env, check=True, timeout=600, capture_output=True)
            return json.loads(out.read_text())
        finally:
            server.stop()
    finally:
        out.unlink(missing_ok=True)


def pick(res: dict, key: str, sub: str | None):  # noqa: ANN201
    v = res.get(key)
    if sub is not None:
        v = (v or {}).get(sub)
    return v


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("variants", nargs="+", help="name=dir (the first is the reference)")
    ap.add_argument("--mode", choices=sorted(METRICS), default="server")
    ap.add_argument("--rounds", type=int, default=3, help="1..20")
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--duration", type=float, default=5.0)
    ap.add_argument("--moves", type=int, default=50)
    ap.add_argument("--uvicorn", action="append", default=[], help="name=ARGS, e.g. std='--http httptools --loop uvloop'")
    ap.add_argument("--pythonpath", action="append", default=[], help="name=DIR, extra import path for one variant")
    ap.add_argument("--tweak", action="append", default=[], help="name=TWEAK: bench_browser.py --tweak for one variant")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    variants = []
    for v in args.variants:
        name, _, d = v.partition("=")
        if not (Path(d) / "app").is_dir():
            ap.error(f"{d}: not a copy of the repo")
        variants.append((name, Path(d).resolve()))
    extra = {k: v.split() for k, _, v in (u.partition("=") for u in args.uvicorn)}
    paths = {k: v for k, _, v in (u.partition("=") for u in args.pythonpath)}
    tweaks = {k: v for k, _, v in (u.partition("=") for u in args.tweak)}
    rounds = max(1, min(args.rounds, 20))
    results: dict[str, list[dict]] = {n: [] for n, _ in variants}
    for r in range(rounds):
        order = variants[r % len(variants):] + variants[:r % len(variants)]
        for name, d in order:
            t = time.perf_counter()
            res = run_one(args.mode, name, d, args, extra.get(name, []), paths.get(name), tweaks.get(name))
            results[name].append(res)
            shown = ", ".join(f"{label} {pick(res, k, s)}" for k, s, label in METRICS[args.mode][:4])
            print(f"round {r + 1}/{rounds} {name:28s} {shown}  ({time.perf_counter() - t:.0f} s, load "
                  f"{os.getloadavg()[0]:.1f})", flush=True)
    table = {}
    ref = variants[0][0]
    for name, _ in variants:
        row = {}
        for k, s, label in METRICS[args.mode]:
            vals = [pick(x, k, s) for x in results[name]]
            vals = [v for v in vals if v is not None]
            row[label] = {"median": round(statistics.median(vals), 3) if vals else None, "rounds": vals}
        table[name] = row
    labels = [label for _, _, label in METRICS[args.mode]]
    print(f"\nmedian of {rounds} rounds (ratio to {ref}):")
    print(f"{'variant':28s}" + "".join(f"{lb:>24s}" for lb in labels))
    for name, row in table.items():
        cells = []
        for lb in labels:
            m, m0 = row[lb]["median"], table[ref][lb]["median"]
            ratio = f" ×{m / m0:.2f}" if m is not None and m0 else ""
            cells.append(f"{m}{ratio}" if m is not None else "-")
        print(f"{name:28s}" + "".join(f"{c:>24s}" for c in cells))
    write_json(args.json, {"meta": run_meta(), "mode": args.mode, "rounds": rounds,
                           "variants": {n: str(d) for n, d in variants}, "uvicorn": extra, "pythonpath": paths, "tweaks": tweaks,
                           "table": table,
                           "raw": {n: [{k: v for k, v in x.items() if k not in ("samples", "meta")} for x in xs]
                                   for n, xs in results.items()}})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
