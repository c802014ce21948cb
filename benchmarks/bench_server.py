"""Server side of a slider move: in-process render time, then latency and throughput over HTTP on 127.0.0.1.

    # in-process only (no server needed): the route function and the whole ASGI stack, no socket
    .venv/bin/python benchmarks/bench_server.py --inprocess-only

    # against a running server (run_all.sh starts one: uvicorn benchmarks.timed_app:app, 1 worker)
    .venv/bin/python benchmarks/bench_server.py --url http://127.0.0.1:8765 --concurrency 1:walk,32 \
        --pattern walk,unique --duration 8 --floor --server-pid <uvicorn pid> --json benchmarks/results/server.json

Every request is a slider move: ``GET /en/?<all 14 parameters>`` with ``HX-Request: true``, ``HX-Current-URL:
<the previous state's URL>`` and ``Accept-Encoding: gzip`` like htmx in a browser, one keep-alive HTTP/1.1
connection per client.  N clients run for a fixed time (``--duration``, after ``--warmup`` unrecorded seconds)
or until ``--max-requests``, whichever comes first; every request has a timeout (10 s); errors are counted by
kind (``status_<code>``, ``timeout``, ``incomplete_response``, ``not_a_partial``, ...).

Options for the HTTP levels:

* ``--concurrency 1:walk,32`` — client counts; a count with ``:<pattern>`` runs that pattern only, a bare count
  runs every pattern of ``--pattern`` (default ``walk``).
* ``--pattern walk,unique`` — ``walk``: each client walks the rollouts ladder up and down one notch (realistic;
  state pairs repeat, so a response cache would serve them); ``unique``: every request goes to a state not seen
  before in the run (random one-notch moves of random parameters among all 14, seeded by ``--seed``; the cold
  figure no response cache can help).  Details in benchmarks/loadgen.py.
* ``--client raw`` (default) — benchmarks/loadgen.py: raw asyncio streams, pre-encoded requests, minimal
  response parsing (Content-Length or chunked), status 200 and body length checked; measured 0.15–0.2 ms of
  generator CPU per response at 300–500 partials/s, 0.05 ms at 2,600 /healthz/s; ``--client httpx`` — the old
  asyncio + httpx generator (≈ 3 ms of CPU per response at 32 clients: on this 2-core box it, not the server,
  limited the throughput).
* ``--loop auto|uvloop|asyncio`` — the generator's event loop (auto: uvloop if importable).
* ``--verify full|length`` (raw client) — full: also gunzip every body (CRC and length checked) and check it is a
  partial (``hx-swap-oob``); length: status and framing only.
* ``--floor`` — after the levels, ``GET /healthz`` with the same headers at the highest concurrency: the HTTP +
  framework cost alone.

Reported per level (text and ``--json``, each level named by its pattern and client):

* end-to-end latency percentiles as the client sees them (includes queueing behind the other N-1 clients);
* server-side time percentiles from the ``Server-Timing: app;dur=`` header (benchmarks/timed_app.py), i.e. the
  app's own work per request — the figure the issue's "server side p50 ≤ 2 ms, p99 ≤ 10 ms" budget is about;
* throughput (completed responses / measured seconds), the server process's CPU use (``--server-pid``),
  responses per server-CPU-second, and the load generator's own CPU use (``time.process_time``; share of a core
  and ms per response): on this 2-core box client and server share the CPUs, so if generator + server are near
  2 cores the throughput figure is a floor, and ``responses per server CPU-second`` is the better capacity
  estimate.

In-process (``--inprocess`` is on by default): ``app.main.lab`` called directly with a Starlette Request (route
work: parse, model, diff, context, template; no middleware), and the whole ASGI app called directly (adds
routing, FastAPI's threadpool hop, security headers, gzip, ETag) — the difference to the HTTP figures is uvicorn
+ socket overhead.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import time
from pathlib import Path

from _common import (
    BUDGETS,
    app_dir,
    call_route,
    check_loopback,
    ladder_walk,
    run_meta,
    summary,
    write_json,
)
from loadgen import (
    PARTIAL_MARKER,
    PATTERNS,
    REQUEST_TIMEOUT_S,
    Recorder,
    loop_factory,
    make_pattern,
    run,
    run_raw,
    server_timing_ms,
)

MAX_DURATION_S = 120.0
MAX_CLIENTS = 256


# --- in-process ------------------------------------------------------------------------------------------------


def _scope(path: str, query: str, headers: list[tuple[bytes, bytes]]) -> dict:
    return {"type": "http", "method": "GET", "path": path, "path_params": {"lang": path.strip("/").split("/")[0]}, "raw_path": path.encode(), "query_string": query.encode(),
            "headers": [(b"host", b"127.0.0.1:8000"), *headers], "scheme": "http", "server": ("127.0.0.1", 8000),
            "client": ("127.0.0.1", 50000), "root_path": "", "http_version": "1.1", "asgi": {"version": "3.0"}}


def _partial_headers(lang: str, prev_url: str, gzip: bool = True) -> list[tuple[bytes, bytes]]:
    h = [(b"hx-request", b"true"), (b"hx-current-url", f"http://127.0.0.1:8000{prev_url}".encode())]
    if gzip:
        h.append((b"accept-encoding", b"gzip, deflate, br, zstd"))
    return h


def _time_calls(fn, n: int, max_s: float) -> tuple[list[float], list[float]]:
    """ms per call of fn(), n samples (bounded by max_s seconds): wall time and this thread's CPU time (the latter
    does not count time the OS gave to other processes, so it is steadier on a shared machine); gc disabled while
    timing, as timeit does."""
    wall: list[float] = []
    cpu: list[float] = []
    deadline = time.perf_counter() + max_s
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(n):
            c, t = time.thread_time(), time.perf_counter()
            fn()
            wall.append((time.perf_counter() - t) * 1000.0)
            cpu.append((time.thread_time() - c) * 1000.0)
            if time.perf_counter() > deadline:
                break
    finally:
        if gc_was:
            gc.enable()
    return wall, cpu


def inprocess(samples: int, max_s: float) -> dict:
    """Route function and whole-ASGI-app timings for one-notch rollouts moves (en and zh) and the full page, with
    the app's caches off (the repeated request would otherwise be answered from them): the cost of a move from
    scratch — parse, model, diff, render, gzip, ETag."""
    os.environ["RLHF_LAB_PARTIAL_CACHE_MB"] = "0"  # read when app.main builds its middleware
    os.environ["RLHF_LAB_FRAGMENTS"] = "0"
    from starlette.requests import Request

    import app.main as lab_main
    from app import view
    from app.main import app, lab

    view.fragment_stats["enabled"] = False
    forget = lab_main._state.cache_clear

    out: dict = {"samples_per_case": samples}
    for lang in ("en", "zh"):
        urls, start = ladder_walk(lang)
        prev, cur = urls[start], urls[start + 1]
        path, query = cur.split("?", 1)

        def route_partial(path=path, query=query, lang=lang, prev=prev) -> None:
            forget()
            call_route(lab, Request(_scope(path, query, _partial_headers(lang, prev, gzip=False))))

        def route_full(path=path, query=query, lang=lang) -> None:
            forget()
            call_route(lab, Request(_scope(path, query, [(b"cookie", f"lang={lang}".encode())])))

        for _ in range(20):  # warm-up: template compilation, caches
            route_partial()
            route_full()
        wall, cpu = _time_calls(route_partial, samples, max_s)
        out[f"route_partial_{lang}_ms"], out[f"route_partial_{lang}_cpu_ms"] = summary(wall), summary(cpu)
        wall, cpu = _time_calls(route_full, max(samples // 4, 10), max_s)
        out[f"route_full_{lang}_ms"], out[f"route_full_{lang}_cpu_ms"] = summary(wall), summary(cpu)

        async def asgi_once(path=path, query=query, lang=lang, prev=prev) -> tuple[int, int]:
            body = bytearray()
            status = 0

            async def receive() -> dict:
                return {"type": "http.request", "body": b"", "more_body": False}

            async def send(message) -> None:  # noqa: ANN001
                nonlocal status
                if message["type"] == "http.response.start":
                    status = message["status"]
                elif message["type"] == "http.response.body":
                    body.extend(message.get("body", b""))

            forget()
            await app(_scope(path, query, _partial_headers(lang, prev)), receive, send)
            return status, len(body)

        async def asgi_series(n: int) -> tuple[list[float], list[float]]:
            for _ in range(20):
                await asgi_once()
            wall: list[float] = []
            cpu: list[float] = []
            deadline = time.perf_counter() + max_s
            for _ in range(n):
                c, t = time.process_time(), time.perf_counter()  # process: a sync route runs in a worker thread
                await asgi_once()
                wall.append((time.perf_counter() - t) * 1000.0)
                cpu.append((time.process_time() - c) * 1000.0)
                if time.perf_counter() > deadline:
                    break
            return wall, cpu

        wall, cpu = asyncio.run(asgi_series(samples))
        out[f"asgi_partial_{lang}_ms"], out[f"asgi_partial_{lang}_cpu_ms"] = summary(wall), summary(cpu)
    return out


# --- over HTTP -------------------------------------------------------------------------------------------------


def _cpu_seconds(pid: int | None) -> float | None:
    """utime + stime of a process (and its reaped children) in seconds, from /proc; None if unavailable."""
    if not pid:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return sum(int(x) for x in fields[11:15]) / ticks
    except (OSError, ValueError, IndexError):
        return None


async def _httpx_client(client, reqs, rec: Recorder, deadline: float, max_requests: int,  # noqa: ANN001
                        expect_partial: bool) -> None:
    """The old generator's client: httpx.AsyncClient (kept for comparison, ``--client httpx``)."""
    while time.perf_counter() < deadline and rec.total < max_requests:
        req = next(reqs)
        headers = {"HX-Request": "true", "HX-Current-URL": req.current_url, "Accept-Encoding": "gzip"}
        t = time.perf_counter()
        try:
            r = await client.get(req.path, headers=headers)
            body = r.content
        except Exception as exc:  # noqa: BLE001 - counted, the run continues (bounded by deadline)
            rec.error(type(exc).__name__)
            rec.total += 1
            await asyncio.sleep(0.01)
            continue
        dt = (time.perf_counter() - t) * 1000.0
        rec.total += 1
        if r.status_code != 200:
            rec.error(f"status_{r.status_code}")
        elif expect_partial and PARTIAL_MARKER not in body:
            rec.error("not_a_partial")
        elif rec.recording:
            rec.done += 1
            rec.latency_ms.append(dt)
            st = server_timing_ms(r.headers.get("server-timing"))
            if st is not None:
                rec.server_ms.append(st)
            rec.wire_bytes.append(r.num_bytes_downloaded)
            rec.body_bytes.append(len(body))


async def load(base: str, lang: str, clients: int, duration: float, warmup: float, max_requests: int,
               server_pid: int | None, pattern: str = "walk", client_kind: str = "raw", verify: str = "full",
               seed: int = 0) -> dict:
    """One load level: `clients` concurrent clients, one keep-alive connection each, `pattern` requests."""
    pat = make_pattern(pattern, base, lang, seed)
    rec = Recorder()
    t_start = time.perf_counter()
    deadline = t_start + warmup + duration
    httpx_client = None
    if client_kind == "httpx":
        import httpx

        limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
        httpx_client = httpx.AsyncClient(base_url=base, limits=limits, timeout=httpx.Timeout(REQUEST_TIMEOUT_S),
                                         http2=False)
        tasks = [asyncio.create_task(_httpx_client(httpx_client, pat.client(k), rec, deadline, max_requests,
                                                   pat.expect_partial)) for k in range(clients)]
    else:
        tasks = await run_raw(base, pat, clients, rec, deadline, max_requests, verify, REQUEST_TIMEOUT_S)
    try:
        await asyncio.sleep(warmup)
        rec.recording = True
        cpu0, srv0, t0 = time.process_time(), _cpu_seconds(server_pid), time.perf_counter()
        await asyncio.wait(tasks, timeout=warmup + duration + REQUEST_TIMEOUT_S + 5)
        t1, cpu1, srv1 = time.perf_counter(), time.process_time(), _cpu_seconds(server_pid)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if httpx_client is not None:
            await httpx_client.aclose()
    elapsed = t1 - t0
    # Throughput over the measured window: the clients stop at the deadline, so the window ends when the last
    # in-flight response arrived (at most one request per client after the deadline).
    gen_cpu = cpu1 - cpu0
    out = {
        "clients": clients, "lang": lang, "pattern": pattern, "client": client_kind,
        "loop": asyncio.get_running_loop().__class__.__module__.split(".")[0],
        "verify": verify if client_kind == "raw" else "full",
        "path": "/healthz" if pattern == "floor" else "slider moves",
        "measured_s": round(elapsed, 3), "responses": rec.done, "requests_incl_warmup": rec.total,
        "throughput_per_s": round(rec.done / elapsed, 1) if elapsed > 0 else None,
        "latency_ms": summary(rec.latency_ms), "server_ms": summary(rec.server_ms),
        "wire_bytes": summary(rec.wire_bytes, 0), "body_bytes": summary(rec.body_bytes, 0),
        "errors": rec.errors,
        "loadgen_cpu_share": round(gen_cpu / elapsed, 3) if elapsed > 0 else None,
        # ms of generator CPU per response = cores needed per 1,000 responses/s
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
    lat, srv = res["latency_ms"] or {}, res["server_ms"] or {}
    label = "floor GET /healthz" if res["pattern"] == "floor" else f"http {res['pattern']:6s}"
    print(f"{label} c={res['clients']:3d} [{res['client']}/{res['loop']}]: {res['throughput_per_s']} resp/s; "
          f"end-to-end p50 {lat.get('p50')} p95 {lat.get('p95')} p99 {lat.get('p99')} max {lat.get('max')} ms; "
          f"server-side p50 {srv.get('p50')} p99 {srv.get('p99')} ms; server CPU {res.get('server_cpu_share')} "
          f"({res.get('server_cpu_ms_per_response')} ms/resp, {res.get('responses_per_server_cpu_s')} "
          f"resp/server-CPU-s); loadgen CPU {res['loadgen_cpu_share']} ({res['loadgen_cpu_ms_per_response']} "
          f"ms/resp); wire {res['wire_bytes'] and res['wire_bytes']['p50']} B, body "
          f"{res['body_bytes'] and res['body_bytes']['p50']} B; errors {res['errors']}"
          + (f"; repeated (new, previous) pairs {res['pattern_stats']['repeat_share']:.0%}"
             if "repeat_share" in res.get("pattern_stats", {}) else ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--url", help="loopback base URL of a running server, e.g. http://127.0.0.1:8765")
    ap.add_argument("--concurrency", default="1,32",
                    help="comma-separated client counts, each optionally with its pattern: 1:walk,32 (default 1,32)")
    ap.add_argument("--pattern", default="walk",
                    help="comma-separated patterns for the levels without one: walk, unique, class (default walk)")
    ap.add_argument("--client", choices=("raw", "httpx"), default="raw",
                    help="load generator: raw (benchmarks/loadgen.py, default) or httpx (the old one)")
    ap.add_argument("--loop", choices=("auto", "uvloop", "asyncio"), default="auto",
                    help="event loop of the load generator (auto: uvloop if importable)")
    ap.add_argument("--verify", choices=("full", "length"), default="full",
                    help="raw client: full = also gunzip every body and check it is a partial; length = status "
                         "and framing only")
    ap.add_argument("--seed", type=int, default=0, help="seed of the unique pattern")
    ap.add_argument("--duration", type=float, default=8.0, help="measured seconds per level (max 120)")
    ap.add_argument("--warmup", type=float, default=1.0, help="unrecorded seconds before each level")
    ap.add_argument("--max-requests", type=int, default=200_000, help="stop a level after this many requests")
    ap.add_argument("--lang", default="en", choices=("en", "zh"))
    ap.add_argument("--floor", action="store_true", help="also load GET /healthz at the highest concurrency: the "
                                                         "HTTP + framework ceiling, no model or template")
    ap.add_argument("--server-pid", type=int, help="uvicorn's PID, to report server CPU use")
    ap.add_argument("--inprocess-samples", type=int, default=400)
    ap.add_argument("--no-inprocess", dest="inprocess", action="store_false")
    ap.add_argument("--inprocess-only", action="store_true")
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args()

    result: dict = {"meta": run_meta(), "budgets": {k: BUDGETS[k] for k in (
        "server_partial_p50_ms", "server_partial_p99_ms", "throughput_per_s")}, "app_dir": app_dir()}
    if args.inprocess or args.inprocess_only:
        ip = inprocess(max(10, min(args.inprocess_samples, 5000)), max_s=30.0)
        result["inprocess"] = ip
        for k, v in ip.items():
            if isinstance(v, dict):
                print(f"in-process {k:24s} p50 {v['p50']:7.3f}  p95 {v['p95']:7.3f}  p99 {v['p99']:7.3f}  (n={v['n']})")
    if not args.inprocess_only:
        if not args.url:
            ap.error("--url is required unless --inprocess-only")
        base = check_loopback(args.url)
        duration = max(0.5, min(args.duration, MAX_DURATION_S))
        warmup = max(0.0, min(args.warmup, 10.0))
        levels = _levels(args.concurrency, [p.strip() for p in args.pattern.split(",") if p.strip()])
        if not levels:
            ap.error("--concurrency names no level")
        result["loadgen"] = {"client": args.client, "loop": loop_factory(args.loop)[1], "verify": args.verify,
                             "request_timeout_s": REQUEST_TIMEOUT_S}
        opts = {"client_kind": args.client, "verify": args.verify, "seed": args.seed}
        result["http"] = []
        for c, pattern in levels:
            res = run(load(base, args.lang, c, duration, warmup, max(1, args.max_requests), args.server_pid,
                           pattern, **opts), args.loop)
            result["http"].append(res)
            _print_level(res)
        if args.floor:
            c = max(c for c, _ in levels)
            res = run(load(base, args.lang, c, duration, warmup, max(1, args.max_requests), args.server_pid,
                           "floor", **opts), args.loop)
            result["floor_healthz"] = res
            _print_level(res)
    write_json(args.json, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
