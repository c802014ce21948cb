"""CPU per partial for never-seen states, in process: the number the cold-path steps were judged by.

    .venv/bin/python benchmarks/cold_cpu.py                       # 3,000 moves, en
    .venv/bin/python benchmarks/cold_cpu.py --moves 12000 --lang zh
    PYTHONPATH=/path/to/other/checkout .venv/bin/python benchmarks/cold_cpu.py   # the same for another commit

The requests are loadgen's ``unique`` pattern (32 clients interleaved, seed 1: every state new, each diffed
against the client's previous state), sent straight through the whole ASGI app — middleware, partial cache,
gzip — on one event loop, with no socket.  Reported: CPU microseconds per request for each chunk of 1,000 (after
200 unmeasured), their minimum (the least disturbed by other jobs on a shared machine), the cyclic collector's
time and collections over the run, and the fragment cache's hits and misses.  For an A/B, run it for both
checkouts in turn, two or three times each, and compare the minima; over HTTP, ``benchmarks/ab_unique.sh``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from loadgen import make_pattern  # noqa: E402

CHUNK = 1000
WARM = 200


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=3000, help="measured requests (a multiple of 1,000)")
    ap.add_argument("--lang", choices=("en", "zh"), default="en")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--run-only", type=int, metavar="N",
                    help="send the warm-up and N more requests, untimed, and exit (benchmarks/cold_instructions.sh)")
    args = ap.parse_args()

    from app import view
    from app.main import app

    pattern = make_pattern("unique", "http://127.0.0.1:8000", args.lang, seed=args.seed)
    clients = [pattern.client(k) for k in range(32)]
    requests = [next(clients[i % 32]) for i in range(WARM + (args.moves if args.run_only is None else args.run_only))]

    async def call(req) -> None:  # noqa: ANN001 - loadgen.Req
        path, query = req.path.split("?", 1)
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query.encode(),
                 "root_path": "", "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 8000),
                 "headers": [(b"host", b"127.0.0.1:8000"), (b"hx-request", b"true"),
                             (b"hx-current-url", req.current_url.encode()), (b"accept-encoding", b"gzip")]}

        async def receive() -> dict:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict) -> None:
            if message["type"] == "http.response.start" and message["status"] != 200:
                raise RuntimeError(f"{req.path}: status {message['status']}")

        await app(scope, receive, send)

    collector = {"seconds": 0.0, "started": 0.0, "runs": [0, 0, 0]}

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            collector["started"] = time.perf_counter()
        else:
            collector["seconds"] += time.perf_counter() - collector["started"]
            collector["runs"][info["generation"]] += 1

    async def run() -> list[float]:
        for req in requests[:WARM]:
            await call(req)
        gc.callbacks.append(on_gc)
        chunks = []
        for start in range(WARM, len(requests) - CHUNK + 1, CHUNK):
            t0 = time.process_time()
            for req in requests[start:start + CHUNK]:
                await call(req)
            chunks.append((time.process_time() - t0) / CHUNK * 1e6)
        gc.callbacks.remove(on_gc)
        return chunks

    if args.run_only is not None:
        async def run_all() -> None:
            for req in requests:
                await call(req)

        asyncio.run(run_all())
        return 0
    chunks = asyncio.run(run())
    print(f"never-seen partials, {args.lang}: CPU µs per request, min {min(chunks):.0f}; "
          f"chunks of {CHUNK}: {[round(c) for c in chunks]}")
    print(f"cyclic collector: {collector['seconds'] * 1e3:.0f} ms over {len(chunks) * CHUNK} requests, "
          f"collections by generation {collector['runs']}; fragments {view.fragment_stats}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
