"""Budget table and peer comparison from one run_all.sh result folder.

    .venv/bin/python benchmarks/summarize.py benchmarks/results            # prints; run_all.sh saves summary.txt
    .venv/bin/python benchmarks/summarize.py benchmarks/results --json out.json

Reads model.json, server.json, browser.json, browser_cache_on.json, first_load.json and harness_*.json (the
peers' measure_ui.py output for our page and for each peer measured in the same run).  Figures are reported
as measured; "meets"/"misses" compares with the issue's budgets and is information, not a test (the wall-clock
figures depend on this shared 2-core machine's load — see loadavg in each JSON's meta).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from _common import BUDGETS, write_json


def load(folder: Path, name: str) -> dict | None:
    p = folder / name
    return json.loads(p.read_text(encoding="utf-8")) if p.exists() else None


def verdict(value, budget, lower_is_better: bool = True) -> str:
    if value is None:
        return "n/a"
    ok = value <= budget if lower_is_better else value >= budget
    return "meets" if ok else "MISSES"


def _pattern(level: dict) -> str:
    """A load level's request pattern; result files from before the patterns existed were ladder walks."""
    return level.get("pattern", "walk")


def _loadgen(level: dict) -> str:
    """The load generator and its CPU use, to read the throughput next to it."""
    per = level.get("loadgen_cpu_ms_per_response")
    return (f"loadgen {level.get('client', 'httpx')} CPU {level.get('loadgen_cpu_share')}"
            + (f" ({per} ms/resp)" if per is not None else ""))


def harness_row(name: str, r: dict) -> dict:
    fl, u = r["first_load"], r.get("update") or {}
    d, s, b = u.get("dom_ms") or {}, u.get("send_ms") or {}, u.get("bytes_in_per_update") or {}
    g = fl.get("gzip_estimate") or {}
    return {"app": name, "requests": fl["requests"], "ws": fl["ws_connections"],
            "transferred_kib": round(fl["body_plus_ws_bytes"] / 1024, 1),
            "decoded_kib": round(fl["decoded_bytes_http"] / 1024, 1),
            "gzip6_kib": round(g["gzip6_bytes"] / 1024, 1) if g.get("gzip6_bytes") else None,
            "meters_visible_ms": fl["meters_visible_ms_median"], "update_p50_ms": d.get("p50"),
            "update_p95_ms": d.get("p95"), "update_max_ms": d.get("max"), "key_to_send_p50_ms": s.get("p50"),
            "bytes_in_per_update_p50": b.get("p50"), "failures": len(u.get("failures", []))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    f = args.folder
    model, server, browser = load(f, "model.json"), load(f, "server.json"), load(f, "browser.json")
    cached, first = load(f, "browser_cache_on.json"), load(f, "first_load.json")
    cold = load(f, "browser_no_ahead.json")

    rows: list[tuple[str, str, str, str]] = []  # budget, measured, verdict, note
    if model:
        med = next(r for r in model["rows"] if r["workload"] == "all")
        rows.append(("model evaluate() median ≤ 100 µs", f"{med['median_us']:.1f} µs (p95 {med['p95_us']:.1f})",
                     verdict(med["median_us"], BUDGETS["model_median_us"]), "benchmarks/bench_model.py"))
    if browser:
        d, fr = browser["dom_ms"], browser["frame_ms"]
        ahead = browser.get("answered_ahead")
        how = f"{ahead} of {d['n']} answered ahead (no request)" if ahead is not None else f"{d['n']} moves"
        rows.append(("input → meters in DOM p50 ≤ 8 ms", f"{d['p50']:.1f} ms", verdict(d["p50"], 8.0),
                     f"{how}, HTTP cache off; next frame p50 {fr['p50']:.1f}"))
        rows.append(("input → meters in DOM p95 ≤ 16 ms", f"{d['p95']:.1f} ms (max {d['max']:.1f})",
                     verdict(d["p95"], 16.0), f"next frame p95 {fr['p95']:.1f}"))
    for name, run in (("", browser), ("cold path (no fetch-ahead): ", cold)):
        if not run:
            continue
        if run is cold:
            d = run["dom_ms"]
            rows.append(("  " + name + "input → meters p50 / p95", f"{d['p50']:.1f} / {d['p95']:.1f} ms (max "
                         f"{d['max']:.1f})", "", "every move an htmx round trip (--tweak no-ahead)"))
        parts = {k: (run.get(k) or {}).get("p50") for k in ("send_ms", "network_server_ms", "server_ms", "htmx_ms")}
        if parts["network_server_ms"] is not None:
            rows.append(("  " + name + "where the time goes (p50)", f"send {parts['send_ms']} · network+server "
                         f"{parts['network_server_ms']} (app {parts['server_ms']}) · swap {parts['htmx_ms']} ms", "",
                         "keydown→XHR.send · XHR.send→readyState 4 · readyState 4→meter in DOM"))
    if cached:
        d = cached["dom_ms"]
        rows.append(("  same, HTTP cache on", f"p50 {d['p50']:.1f} · p95 {d['p95']:.1f} · max {d['max']:.1f} ms", "",
                     "alternating moves repeat two states: answered from the browser cache"))
    if server:
        ip = server.get("inprocess", {})
        if ip:
            rp, ap_ = ip.get("route_partial_en_ms") or {}, ip.get("asgi_partial_en_ms") or {}
            rows.append(("  in-process partial from scratch (route fn / ASGI app)",
                         f"p50 {rp.get('p50')} / {ap_.get('p50')} ms", "", "no socket; en, one-notch move; every app cache off"))
        levels = server.get("http", [])
        at32 = [lv for lv in levels if lv["clients"] == 32]
        if at32:
            def by_pattern(key: str, field: str) -> tuple[str, float | None]:
                vals = [(_pattern(lv), (lv[key] or {}).get(field)) for lv in at32]
                shown = " · ".join(f"{p} {v}" for p, v in vals) + " ms"
                nums = [v for _, v in vals if v is not None]
                return shown, (max(nums) if nums else None)

            shown, worst = by_pattern("server_ms", "p50")
            rows.append(("server side p50 ≤ 2 ms @32 clients", shown, verdict(worst, 2.0),
                         "Server-Timing app;dur (in-app time); verdict on the worse pattern"))
            shown, worst = by_pattern("server_ms", "p99")
            e2e = "; ".join(f"{_pattern(lv)} p50 {(lv['latency_ms'] or {}).get('p50')} p99 "
                            f"{(lv['latency_ms'] or {}).get('p99')}" for lv in at32)
            rows.append(("server side p99 ≤ 10 ms @32 clients", shown, verdict(worst, 10.0),
                         f"end-to-end {e2e} ms (incl. queueing)"))
            for lv in at32:
                rows.append((f"≥ 1,000 updates/s, one worker ({_pattern(lv)})", f"{lv['throughput_per_s']} /s",
                             verdict(lv["throughput_per_s"], 1000.0, lower_is_better=False),
                             f"server CPU {lv.get('server_cpu_share')}, {lv.get('responses_per_server_cpu_s')} "
                             f"per server-CPU-s; {_loadgen(lv)}"))
        for lv in levels:
            if lv["clients"] == 32:
                continue
            srv, lat = lv["server_ms"] or {}, lv["latency_ms"] or {}
            rows.append((f"  {lv['clients']} client(s), {_pattern(lv)}", f"server p50 {srv.get('p50')} p99 "
                         f"{srv.get('p99')} ms; end-to-end p50 {lat.get('p50')} p99 {lat.get('p99')} ms", "",
                         f"{lv['throughput_per_s']} /s; {_loadgen(lv)}"))
        fl = server.get("floor_healthz")
        if fl:
            rows.append(("  floor: GET /healthz, same clients", f"{fl['throughput_per_s']} /s; server CPU "
                         f"{fl.get('server_cpu_ms_per_response')} ms/resp", "",
                         f"{fl.get('responses_per_server_cpu_s')} per server-CPU-s: HTTP + framework alone; "
                         f"{_loadgen(fl)}"))
        with_sizes = [x for x in levels if x.get("body_bytes")]
        lv = next((x for x in with_sizes if _pattern(x) == "walk"), with_sizes[0] if with_sizes else None)
        if lv:
            rows.append(("partial ≤ 15 KB uncompressed", f"p50 {lv['body_bytes']['p50']:.0f} B, max "
                         f"{lv['body_bytes']['max']:.0f} B", verdict(lv["body_bytes"]["max"], 15_000),
                         f"gzip on the wire p50 {lv['wire_bytes']['p50']:.0f} B; {_pattern(lv)} pattern, "
                         f"{lv.get('lang', 'en')}"))
    if browser:
        sizes = [s["req"]["decoded"] for s in browser["samples"] if s.get("req")]
        if sizes:
            rows.append(("  partial size in the browser run", f"max {max(sizes)} B", verdict(max(sizes), 15_000),
                         "decoded body of each move's response"))
    if first:
        sc = first["static_check"]
        rows.append(("first load ≤ 100 KB transferred", f"{first['body_bytes'] / 1000:.1f} kB body "
                     f"(+{first['header_bytes'] / 1000:.1f} kB headers)", verdict(first["body_bytes"], 100_000),
                     "compressed, as transferred; median of cold loads"))
        rows.append(("first load ≤ 6 requests", f"{first['requests']:.0f}", verdict(first["requests"], 6), ""))
        blocking = first["render_blocking_by_chromium"]
        only_css = all(u.split("?")[0].endswith(".css") for u in blocking) and not sc["blocking_scripts"]
        rows.append(("only the CSS is render-blocking", ", ".join(u.split("/")[-1] for u in blocking) or "none",
                     "meets" if only_css else "MISSES", "Chromium renderBlockingStatus + static check"))

    harness = {}
    for p in sorted(f.glob("harness_*.json")):
        harness[p.stem.removeprefix("harness_")] = harness_row(p.stem.removeprefix("harness_"),
                                                               json.loads(p.read_text(encoding="utf-8")))
    w = max(len(r[0]) for r in rows) if rows else 30
    lines = [f"{'budget':<{w}}  {'measured':<44}  {'':7}  note", "-" * (w + 70)]
    lines += [f"{a:<{w}}  {b:<44}  {c:7}  {d}" for a, b, c, d in rows]
    if harness:
        lines += ["", "peers' harness (measure_ui.py), same run, same machine:",
                  "| app | requests | transferred KiB | decoded KiB | meters visible ms | update p50 ms | update p95 ms "
                  "| update max ms | key→send p50 ms | bytes in / update |", "|---|---|---|---|---|---|---|---|---|---|"]
        for h in harness.values():
            lines.append(f"| {h['app']} | {h['requests']:.0f} | {h['transferred_kib']} | {h['decoded_kib']} | "
                         f"{h['meters_visible_ms']} | {h['update_p50_ms']} | {h['update_p95_ms']} | "
                         f"{h['update_max_ms']} | {h['key_to_send_p50_ms']} | {h['bytes_in_per_update_p50']} |")
        ours = harness.get("ours")
        for name, h in harness.items():
            if name != "ours" and ours and ours["update_p50_ms"] and h["update_p50_ms"]:
                lines.append(f"ratio {name} / ours: update p50 ×{h['update_p50_ms'] / ours['update_p50_ms']:.1f}, "
                             f"p95 ×{h['update_p95_ms'] / ours['update_p95_ms']:.1f}, transferred "
                             f"×{h['transferred_kib'] / ours['transferred_kib']:.1f}, requests "
                             f"×{h['requests'] / ours['requests']:.1f}")
    meta = (browser or server or first or {}).get("meta", {})
    if meta:
        lines += ["", f"app commit {meta.get('git_commit')} (app/ files changed since: "
                      f"{meta.get('app_dirty_files') or 'none'}); {meta.get('cpus')} CPUs ({meta.get('cpu')}); "
                      f"Python {meta.get('python')}; load average at start {meta.get('loadavg_at_start')}"]
    print("\n".join(lines))
    write_json(args.json or f / "summary.json", {"budgets": [dict(zip(("budget", "measured", "verdict", "note"), r, strict=True))
                                                              for r in rows], "harness": harness, "meta": meta})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
