"""The budget table from one run_all.sh result folder: each budget of benchmarks/budgets.py, the figure, met or not.

    .venv/bin/python benchmarks/summarize.py benchmarks/results            # prints; run_all.sh saves summary.txt
    .venv/bin/python benchmarks/summarize.py benchmarks/results --json out.json

Reads what run_all.sh wrote: browser.json, first_load.json, harness_*.json (the peers' measure_ui.py on our page and
on each peer, same run), class_load.json (locust, the two-core host), and as information model.json,
partial_sizes.json and nginx_load.json.  Wall-clock figures depend on the shared machine's load: every row says what
it was measured against, and the budgets that compare with a peer or a bare fetch are ratios measured in the same
run.  A budget with no figure in the folder is "n/a", never met.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from _common import write_json
from budgets import BUDGETS


def load(folder: Path, name: str) -> dict | None:
    p = folder / name
    return json.loads(p.read_text(encoding="utf-8")) if p.exists() else None


def verdict(value, budget, at_most: bool = True) -> str:  # noqa: ANN001
    if value is None:
        return "n/a"
    return "met" if (value <= budget if at_most else value >= budget) else "MISSED"


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
    first, klass, behind = load(f, "first_load.json"), load(f, "class_load.json"), load(f, "nginx_load.json")
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
    else:
        rows.append((f"key → meters p50 ≤ {B['browser_update_p50_ms']:g} ms / p95 ≤ {B['browser_update_p95_ms']:g} ms "
                     "(fetch-ahead)", "none", "n/a", "no harness_ours.json (PEERS_DIR)"))
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
    else:
        rows.append((f"≥ {B['peer_ratio_p50']:g}× ahead of Gradio at p50", "none", "n/a",
                     "needs harness_ours.json and harness_gradio_noqueue.json from the same run (PEERS_VENV)"))
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
    else:
        rows.append((f"cold move ≤ {B['cold_vs_fetch_ratio']:g}× a bare fetch() + DOM write (p50)", "none", "n/a",
                     "no browser.json"))
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
        rows.append(("  render-blocking", ", ".join(u.split("/")[-1] for u in blocking) or "none", "",
                     ("the stylesheet only" if only_css else "more than the stylesheet")
                     + ": Chromium's renderBlockingStatus + a static check of the HTML"))
    else:
        rows.append((f"first load ≤ {B['first_load_bytes'] / 1000:g} KB, ≤ {B['first_load_requests']:g} requests",
                     "none", "n/a", "no first_load.json"))
    if sizes:
        g = sizes["groups"]
        rows.append(("partial size, every one-notch move (information)", f"max {sizes['max_bytes']:,} B, gzip max "
                     f"{max(x['gzip6_max'] for x in g.values()):,} B", "",
                     f"{sizes['over_budget']} over the size guard of {sizes['budget_bytes']:,} B (budgets.py, "
                     f"tests/test_budgets.py); {sizes['moves']} one-notch moves (defaults + {sizes['random_states']} "
                     f"random states, en + zh); uncompressed p50 defaults en {g['defaults en']['p50']} B, random en "
                     f"{g['random en']['p50']} B"))

    # --- a class of learners --------------------------------------------------------------------------------------
    n = int(B["class_learners"])
    if klass:
        a = klass["all"]
        rows.append((f"a class of {n} learners, two-core host: p95 ≤ {B['class_p95_ms']:g} ms",
                     f"{a['p95']:g} ms", verdict(a["p95"], B["class_p95_ms"]) if klass["users"] == n else "n/a",
                     f"{klass['users']} learners (locust), {klass['run_time']}, {klass['label']}; {a['requests']:,} "
                     f"requests, {a['requests_per_s']} /s; p50 {a['p50']:g} · p99 {a['p99']:g} · max {a['max']:g} ms"))
        rows.append(("  … and no error", f"{a['failures']} failures", verdict(a["failures"], B["class_failures"])
                     if klass["users"] == n else "n/a",
                     "; ".join(f"{x['name']}: {x['error']} ×{x['occurrences']}" for x in klass["failures"][:3])
                     or "every answer checked: status, a partial is a partial, a page is whole, the API has the stage"))
        for name, r in klass["by_name"].items():
            rows.append((f"  {name}", f"p50 {r['p50']:g} · p95 {r['p95']:g} ms", "",
                         f"{r['requests']:,} requests, {r['failures']} failures, {r['mean_bytes']:,} B on average"))
    else:
        rows.append((f"a class of {n} learners, two-core host: p95 ≤ {B['class_p95_ms']:g} ms, no error", "none",
                     "n/a", "no class_load.json (locust not installed?)"))
    if behind:
        a = behind["all"]
        rows.append(("  the same class behind deploy/nginx.conf (information)", f"p95 {a['p95']:g} ms, "
                     f"{a['failures']} failures", "", f"{behind['users']} learners, {behind['run_time']}; "
                     f"{a['requests']:,} requests; nginx and the app on the same two cores"))

    # --- information, not budgets ----------------------------------------------------------------------------------
    if model:
        r = next((x for x in model["rows"] if x["workload"].startswith("random")), model["rows"][-1])
        rows.append(("evaluate(): median and p95 (information)", f"{r['median_us']:.1f} µs · p95 {r['p95_us']:.1f} µs",
                     "", f"{r['workload']} states, {model['clock']}; the µs budget is retired"))
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
             (("model", model), ("browser", browser), ("first load", first), ("the class", klass))}
    meta = next((d["meta"] for d in (browser, first, klass, sizes, model) if d and "meta" in d), {})
    lines += ["", "load average (1, 5, 15 min) at the start of each: "
              + "; ".join(f"{k} {v}" for k, v in loads.items() if v),
              f"app commit {meta.get('git_commit')} (app/ files changed since: {meta.get('app_dirty_files') or 'none'}); "
              f"{meta.get('cpus')} CPUs ({meta.get('cpu')}); Python {meta.get('python')}"]
    print("\n".join(lines))
    write_json(args.json or f / "summary.json", {
        "budgets": BUDGETS, "rows": [dict(zip(("budget", "figure", "verdict", "how"), r, strict=True)) for r in rows],
        "harness": harness, "loadavg_at_start": loads, "meta": meta})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
