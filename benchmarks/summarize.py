"""The budget table from one run_all.sh result folder: each budget of benchmarks/budgets.py, the figure, met or not.

    .venv/bin/python benchmarks/summarize.py benchmarks/results            # prints; run_all.sh saves summary.txt
    .venv/bin/python benchmarks/summarize.py benchmarks/results --json out.json

Reads what run_all.sh wrote: model.json, partial_sizes.json, browser.json, first_load.json, server_one.json,
server_host.json, server_nginx.json and harness_*.json (the peers' measure_ui.py on our page and on each peer, same run).  Wall-clock
figures depend on the shared machine's load: every row says what it was measured against (the /healthz floor, the
load average), and the budgets that compare with a peer or a floor are ratios measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from _common import ROOT, write_json
from budgets import BUDGETS

# Private APIs the issue names, and any private name taken from the app or a framework (grep, informational).
PRIVATE_PATTERNS = [
    r"jinja2\.compiler", r"markupsafe\._", r"GZipResponder", r"gc\.set_threshold", r"gc\.freeze",
    r"from (app|jinja2|markupsafe|starlette|fastapi|uvicorn)[\w.]* import _\w",
    r"\b(app|jinja2|markupsafe|starlette|fastapi|uvicorn)(\.\w+)*\._[a-z]\w*",
]


def load(folder: Path, name: str) -> dict | None:
    p = folder / name
    return json.loads(p.read_text(encoding="utf-8")) if p.exists() else None


def verdict(value, budget, at_most: bool = True) -> str:  # noqa: ANN001
    if value is None:
        return "n/a"
    return "met" if (value <= budget if at_most else value >= budget) else "MISSED"


def level(server: dict | None, pattern: str, clients: int | None = None) -> dict | None:
    if not server:
        return None
    found = [lv for lv in server.get("http", []) if lv["pattern"] == pattern
             and (clients is None or lv["clients"] == clients)]
    return max(found, key=lambda lv: lv["clients"]) if found else None


def private_api_hits() -> list[str]:
    hits = []
    files = [*sorted((ROOT / "app").rglob("*.py")), *sorted((ROOT / "benchmarks").glob("*.py"))]
    rx = re.compile("|".join(PRIVATE_PATTERNS))
    for f in files:
        if f.name == "summarize.py":  # the patterns themselves
            continue
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if rx.search(line) and not line.lstrip().startswith("#"):
                hits.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    return hits


def harness_row(name: str, r: dict) -> dict:
    fl, u = r["first_load"], r.get("update") or {}
    d, s, b = u.get("dom_ms") or {}, u.get("send_ms") or {}, u.get("bytes_in_per_update") or {}
    return {"app": name, "requests": fl["requests"], "transferred_kib": round(fl["body_plus_ws_bytes"] / 1024, 1),
            "decoded_kib": round(fl["decoded_bytes_http"] / 1024, 1),
            "meters_visible_ms": fl["meters_visible_ms_median"], "update_p50_ms": d.get("p50"),
            "update_p95_ms": d.get("p95"), "update_max_ms": d.get("max"), "updates": d.get("n"),
            "key_to_send_p50_ms": s.get("p50"), "bytes_in_per_update_p50": b.get("p50"),
            "failures": len(u.get("failures", []))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    f = args.folder
    model, sizes, browser = load(f, "model.json"), load(f, "partial_sizes.json"), load(f, "browser.json")
    first, one, host = load(f, "first_load.json"), load(f, "server_one.json"), load(f, "server_host.json")
    behind = load(f, "server_nginx.json")
    harness = {p.stem.removeprefix("harness_"): harness_row(p.stem.removeprefix("harness_"),
                                                            json.loads(p.read_text(encoding="utf-8")))
               for p in sorted(f.glob("harness_*.json"))}
    ours = harness.get("ours")
    gradio = harness.get("gradio_noqueue") or harness.get("gradio")
    B = BUDGETS
    rows: list[tuple[str, str, str, str]] = []  # budget, figure, verdict, how

    # --- what the user feels -----------------------------------------------------------------------------------
    ahead = (browser or {}).get("modes", {}).get("ahead")
    if ours:
        rows.append((f"key → meters p50 ≤ {B['browser_update_p50_ms']:g} ms (fetch-ahead)",
                     f"{ours['update_p50_ms']} ms", verdict(ours["update_p50_ms"], B["browser_update_p50_ms"]),
                     f"peers' harness on our page, {ours['updates']} key presses"))
        rows.append((f"key → meters p95 ≤ {B['browser_update_p95_ms']:g} ms (fetch-ahead)",
                     f"{ours['update_p95_ms']} ms (max {ours['update_max_ms']})",
                     verdict(ours["update_p95_ms"], B["browser_update_p95_ms"]), "same run"))
    if ahead and ahead["dom_ms"]:
        d = ahead["dom_ms"]
        rows.append(("  the same, benchmarks/bench_browser.py (ahead mode)",
                     f"p50 {d['p50']} · p95 {d['p95']} · max {d['max']} ms",
                     f"{verdict(d['p50'], B['browser_update_p50_ms'])}/{verdict(d['p95'], B['browser_update_p95_ms'])}",
                     f"{ahead['answered_ahead']} of {ahead['moves']} moves answered ahead (no request)"))
    if ours and gradio and ours["update_p50_ms"]:
        ratio = gradio["update_p50_ms"] / ours["update_p50_ms"]
        rows.append((f"≥ {B['peer_ratio_p50']:g}× ahead of Gradio at p50", f"×{ratio:.1f}",
                     verdict(ratio, B["peer_ratio_p50"], at_most=False),
                     f"Gradio ({gradio['app']}) p50 {gradio['update_p50_ms']} ms / ours {ours['update_p50_ms']} ms"))
    modes = (browser or {}).get("modes", {})
    if modes.get("cold", {}).get("dom_ms") and modes.get("fetch", {}).get("dom_ms"):
        c, fl = modes["cold"], modes["fetch"]
        ratio = browser["cold_vs_fetch_p50"]
        rows.append((f"cold move ≤ {B['cold_vs_fetch_ratio']:g}× a bare fetch() + DOM write (p50)", f"×{ratio}",
                     verdict(ratio, B["cold_vs_fetch_ratio"]),
                     f"cold p50 {c['dom_ms']['p50']} / p95 {c['dom_ms']['p95']} ms; fetch p50 {fl['dom_ms']['p50']} "
                     f"/ p95 {fl['dom_ms']['p95']} ms; {browser['rounds']} interleaved rounds"))
        for name, m in (("cold", c), ("fetch", fl)):
            g = lambda k, m=m: (m.get(k) or {}).get("p50")  # noqa: E731
            rows.append((f"  where a {name} move's time goes (p50)", f"send {g('send_ms')} · network+server "
                         f"{g('network_server_ms')} · swap {g('swap_ms')} ms", "",
                         "keydown→request sent · sent→response complete · response→meter in the DOM"))
    if first:
        rows.append((f"first load ≤ {B['first_load_bytes'] / 1000:g} KB", f"{first['body_bytes'] / 1000:.1f} kB",
                     verdict(first["body_bytes"], B["first_load_bytes"]),
                     f"body bytes as transferred (gzip), median of {first['loads']} cold loads; "
                     f"+{first['header_bytes'] / 1000:.1f} kB headers"))
        rows.append((f"first load ≤ {B['first_load_requests']:g} requests", f"{first['requests']:.0f}",
                     verdict(first["requests"], B["first_load_requests"]), "the page included"))
        blocking = first["render_blocking_by_chromium"]
        only_css = all(u.split("?")[0].endswith(".css") for u in blocking) and not first["static_check"][
            "blocking_scripts"]
        rows.append(("  render-blocking: the stylesheet only", ", ".join(u.split("/")[-1] for u in blocking) or "none",
                     "met" if only_css else "MISSED", "Chromium's renderBlockingStatus + a static check of the HTML"))
    if sizes:
        g = sizes["groups"]
        rows.append((f"partial ≤ {B['partial_bytes']:,.0f} B", f"max {sizes['max_bytes']:,} B",
                     verdict(sizes["max_bytes"], B["partial_bytes"]),
                     f"{sizes['moves']} one-notch moves (defaults + {sizes['random_states']} random states, en + zh), "
                     f"uncompressed; p50 defaults en {g['defaults en']['p50']} B, random en {g['random en']['p50']} B; "
                     f"gzip max {max(x['gzip6_max'] for x in g.values())} B"))

    # --- the server ----------------------------------------------------------------------------------------------
    floor_one = (one or {}).get("floor_healthz")
    u1 = level(one, "unique")
    if u1:
        rows.append((f"≥ {B['one_worker_per_s']:,.0f} never-seen partials/s, one worker",
                     f"{u1['throughput_per_s']:,} /s", verdict(u1["throughput_per_s"], B["one_worker_per_s"], False),
                     f"one rlhf-lab process, {u1['clients']} clients; latency p50 {u1['latency_ms']['p50']} / p99 "
                     f"{u1['latency_ms']['p99']} ms; server CPU {u1.get('server_cpu_share')}, "
                     f"{u1.get('responses_per_server_cpu_s')} /server-CPU-s; loadgen CPU {u1['loadgen_cpu_share']}"))
    for pat in ("walk", "class"):
        lv = level(one, pat, 32)
        if lv:
            rows.append((f"  one worker, {pat} pattern, {lv['clients']} clients", f"{lv['throughput_per_s']:,} /s", "",
                         f"latency p50 {lv['latency_ms']['p50']} / p99 {lv['latency_ms']['p99']} ms"))
    w1 = level(one, "walk", 1)
    if w1:
        rows.append(("  one worker, one client walking the rollouts ladder", f"latency p50 {w1['latency_ms']['p50']} "
                     f"/ p99 {w1['latency_ms']['p99']} ms", "", f"{w1['throughput_per_s']:,} /s, one at a time"))
    if floor_one:
        rows.append(("  floor: GET /healthz, one worker", f"{floor_one['throughput_per_s']:,} /s", "",
                     f"{floor_one['clients']} clients; HTTP + framework alone; never-seen partials reach "
                     f"{u1['throughput_per_s'] / floor_one['throughput_per_s']:.0%} of it" if u1 else ""))
    uh = level(host, "unique")
    if uh:
        split = ", ".join(f"{v:,}" for v in uh["by_target"].values())
        rows.append((f"≥ {B['host_per_s']:,.0f} never-seen partials/s, the two-core host",
                     f"{uh['throughput_per_s']:,} /s", verdict(uh["throughput_per_s"], B["host_per_s"], False),
                     f"two rlhf-lab processes on two ports, {uh['clients']} clients split evenly (answers {split}); "
                     f"latency p50 {uh['latency_ms']['p50']} / p99 {uh['latency_ms']['p99']} ms; server CPU "
                     f"{uh.get('server_cpu_share')}, loadgen CPU {uh['loadgen_cpu_share']}"))
        fh = host.get("floor_healthz")
        if fh:
            rows.append(("  floor: GET /healthz, two processes", f"{fh['throughput_per_s']:,} /s", "",
                         f"never-seen partials reach {uh['throughput_per_s'] / fh['throughput_per_s']:.0%} of it"))
    un = level(behind, "unique")
    if un:
        fn = behind.get("floor_healthz") or {}
        rows.append(("  the same behind deploy/nginx.conf", f"{un['throughput_per_s']:,} /s",
                     verdict(un["throughput_per_s"], B["host_per_s"], False),
                     f"deploy/test_nginx.sh: two processes, nginx and the clients on the same 2 cores; /healthz "
                     f"through nginx {fn.get('throughput_per_s')} /s"))
    if model:
        r = next((x for x in model["rows"] if x["workload"].startswith("random")), model["rows"][-1])
        rows.append((f"model evaluate() median ≤ {B['model_median_us']:g} µs", f"{r['median_us']:.1f} µs "
                     f"(p95 {r['p95_us']:.1f})", verdict(r["median_us"], B["model_median_us"]),
                     f"{r['workload']} states, {model['clock']}"))
    hits = private_api_hits()
    rows.append(("no private API (app/, benchmarks/)", f"{len(hits)} found", "met" if not hits else "MISSED",
                 "grep: " + ("; ".join(hits[:3]) if hits else "jinja2.compiler, markupsafe._, GZipResponder, gc "
                             "tuning, any _private name imported from app or a framework")))

    w = max(len(r[0]) for r in rows)
    v = max(len(r[1]) for r in rows)
    lines = [f"{'budget':<{w}}  {'figure':<{v}}  {'':6}  how", "-" * (w + v + 60)]
    lines += [f"{a:<{w}}  {b:<{v}}  {c:6}  {d}" for a, b, c, d in rows]
    if harness:
        lines += ["", "peers' harness (measure_ui.py), same run, same machine, one server at a time:",
                  "| app | requests | transferred KiB | decoded KiB | meters visible ms | update p50 ms | update p95 ms "
                  "| update max ms | key→send p50 ms | bytes in / update |", "|---|---|---|---|---|---|---|---|---|---|"]
        for h in harness.values():
            lines.append(f"| {h['app']} | {h['requests']:.0f} | {h['transferred_kib']} | {h['decoded_kib']} | "
                         f"{h['meters_visible_ms']} | {h['update_p50_ms']} | {h['update_p95_ms']} | "
                         f"{h['update_max_ms']} | {h['key_to_send_p50_ms']} | {h['bytes_in_per_update_p50']} |")
    loads = {name: (d or {}).get("meta", {}).get("loadavg_at_start") for name, d in
             (("model", model), ("browser", browser), ("first load", first), ("server, one worker", one),
              ("server, two processes", host))}
    meta = next((d["meta"] for d in (browser, one, first, model, sizes) if d and "meta" in d), {})
    lines += ["", "load average (1, 5, 15 min) at the start of each: "
              + "; ".join(f"{k} {v}" for k, v in loads.items() if v),
              f"app commit {meta.get('git_commit')} (app/ files changed since: {meta.get('app_dirty_files') or 'none'}); "
              f"{meta.get('cpus')} CPUs ({meta.get('cpu')}); Python {meta.get('python')}"]
    print("\n".join(lines))
    write_json(args.json or f / "summary.json", {
        "budgets": BUDGETS, "rows": [dict(zip(("budget", "figure", "verdict", "how"), r, strict=True)) for r in rows],
        "harness": harness, "loadavg_at_start": loads, "meta": meta, "private_api_hits": hits})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
