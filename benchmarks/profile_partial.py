"""Where the server's time goes for one slider move (in-process, no HTTP): a cost breakdown, per-region template
render times, and a cProfile (or pyinstrument, if installed in the venv as a dev tool) of the partial route.

    .venv/bin/python benchmarks/profile_partial.py                 # breakdown + regions + cProfile top 30
    .venv/bin/python benchmarks/profile_partial.py --lang zh --top 50
    .venv/bin/python benchmarks/profile_partial.py --pyinstrument   # needs `pip install pyinstrument` (dev only)
    .venv/bin/python benchmarks/profile_partial.py --json benchmarks/results/profile.json

The move is the one the browser benchmark makes: rollouts 512 → 640 with every other input at its default, the
previous state taken from HX-Current-URL.  Each step below is timed on its own (median of ``--samples`` runs, µs):
parsing + validation (``normalise``), the model (``evaluate``, twice: new and previous state), the diff
(``view.diff``), the context (``view.lab_context``), the Jinja render of ``_live.html``, the ETag hash, and gzip of
the body at levels 1 and 6 (what ``GZipMiddleware(compresslevel=6)`` does to every partial).  The route total is
``app.main.lab`` end to end.  Region rows render each live region's template alone with the partial's context.
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import hashlib
import io
import pstats
import statistics
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from _common import ROOT, call_route, ladder_walk, run_meta, write_json


def median_us(fn, samples: int) -> float:
    for _ in range(5):
        fn()
    ts = []
    for _ in range(samples):
        t = time.perf_counter_ns()
        fn()
        ts.append((time.perf_counter_ns() - t) / 1000.0)
    return round(statistics.median(ts), 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--lang", default="en", choices=("en", "zh"))
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--pyinstrument", action="store_true")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    samples = max(20, min(args.samples, 5000))

    from starlette.requests import Request

    from app import view
    from app.main import lab
    from app.model import evaluate, normalise

    urls, start = ladder_walk(args.lang)
    prev_url, cur_url = urls[start], urls[start + 1]
    path, query = cur_url.split("?", 1)
    headers = [(b"host", b"127.0.0.1:8000"), (b"hx-request", b"true"),
               (b"hx-current-url", f"http://127.0.0.1:8000{prev_url}".encode())]

    def request() -> Request:
        return Request({"type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
                        "path_params": {"lang": args.lang},
                        "query_string": query.encode(), "headers": headers, "scheme": "http",
                        "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 50000), "root_path": "",
                        "http_version": "1.1"})

    q = parse_qs(query, keep_blank_values=True)
    pq = parse_qs(urlsplit(prev_url).query)
    inputs, notices = normalise(q)
    prev_inputs, _ = normalise(pq)
    result, prev_result = evaluate(inputs), evaluate(prev_inputs)
    previous = (prev_inputs, prev_result)
    ctx = view.lab_context(args.lang, result, notices, previous, partial=True)
    tmpl = view.env.get_template("_live.html")
    body = tmpl.render(ctx).encode()

    steps = {
        "parse_qs + normalise (x2: new and previous state)": lambda: (normalise(parse_qs(query, keep_blank_values=True)),
                                                                       normalise(parse_qs(urlsplit(prev_url).query))),
        "evaluate (x2)": lambda: (evaluate(inputs), evaluate(prev_inputs)),
        "view.diff": lambda: view.diff(previous, result),
        "view.changed_regions": lambda: view.changed_regions(previous, result),
        "view.lab_context (incl. diff, regions)": lambda: view.lab_context(args.lang, result, notices, previous,
                                                                           partial=True),
        "  of which controls()": lambda: view.controls(inputs),
        "  of which _walk() (walkthrough URLs)": lambda: view._walk(args.lang, inputs),
        "  of which presets URLs": lambda: [(p.id, view.lab_url(args.lang, p.inputs)) for p in view.PRESETS],
        "  of which self/switch/compare URLs": lambda: (view.lab_url(args.lang, inputs),
                                                        view.lab_url("zh", inputs), view.lab_url(args.lang, inputs,
                                                                                                 "compare")),
        "render _live.html (partial)": lambda: tmpl.render(ctx),
        "ETag blake2b": lambda: hashlib.blake2b(body, digest_size=12).hexdigest(),
        "gzip level 6": lambda: gzip.compress(body, 6),
        "gzip level 1": lambda: gzip.compress(body, 1),
        "route total: app.main.lab (partial)": lambda: call_route(lab, request()),
    }
    breakdown = {}
    print(f"one slider move ({args.lang}, rollouts 512 → 640), median µs of {samples} runs; partial body "
          f"{len(body)} B, gzip-6 {len(gzip.compress(body, 6))} B")
    for name, fn in steps.items():
        breakdown[name] = median_us(fn, samples)
        print(f"  {breakdown[name]:9.1f}  {name}")

    # Each live region alone, with every region switched on (what a move that changes everything sends).
    regions = {}
    full_ctx = dict(ctx, regions=view.ALL_REGIONS)
    print("per region (rendered alone, partial context, all regions on), median µs / bytes:")
    for name in ("_meters.html", "_estimates.html", "_why.html", "_decisions.html", "_diagram.html", "_lang.html"):
        try:
            t = view.env.get_template(name)
        except Exception:  # noqa: BLE001 - a template the app no longer has
            continue
        size = len(t.render(full_ctx).encode())
        regions[name] = {"us": median_us(lambda t=t: t.render(full_ctx), samples), "bytes": size}
        print(f"  {regions[name]['us']:9.1f}  {size:6d} B  {name}")
    all_body = tmpl.render(full_ctx).encode()
    regions["_live.html (all regions)"] = {"us": median_us(lambda: tmpl.render(full_ctx), samples),
                                           "bytes": len(all_body)}
    print(f"  {regions['_live.html (all regions)']['us']:9.1f}  {len(all_body):6d} B  _live.html with every region")

    out = {"meta": run_meta(), "lang": args.lang, "samples": samples, "partial_bytes": len(body),
           "breakdown_us": breakdown, "regions": regions}
    if args.pyinstrument:
        try:
            from pyinstrument import Profiler
        except ImportError:
            print("pyinstrument is not installed (pip install pyinstrument into the venv; it is a dev tool only)")
        else:
            prof = Profiler(interval=0.0001)
            prof.start()
            for _ in range(samples):
                call_route(lab, request())
            prof.stop()
            print(prof.output_text(unicode=True, color=False, show_all=False))
    else:
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(samples):
            call_route(lab, request())
        pr.disable()
        buf = io.StringIO()
        stats = pstats.Stats(pr, stream=buf).strip_dirs().sort_stats("cumulative")
        stats.print_stats(args.top)
        text = buf.getvalue()
        print(text)
        out["cprofile_top_cumulative"] = text.replace(str(ROOT), ".")
    write_json(args.json, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
