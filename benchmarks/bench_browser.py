"""Browser update latency: keyboard slider move → updated meter in the DOM, in headless Debian Chromium.

    .venv/bin/python benchmarks/bench_browser.py --url http://127.0.0.1:8765/en/ --moves 60 \
        --json benchmarks/results/browser.json

Method (all timing in the page's own clock, so the Playwright↔browser round trip is not included):

1. load the lab page once, wait until the meters show numbers and the network is idle;
2. per move: focus ``input.ladder[data-for=in-rollouts]`` (the rollouts ladder slider), arm a one-shot
   capture-phase ``keydown`` listener on ``window`` (t0 = ``performance.now()``) and a ``MutationObserver`` on
   ``document.body`` that records t1 when the text of ``[data-meter-value=rollout_load]`` differs from its value
   before the key press (htmx swaps the meter card out-of-band, i.e. replaces the element, so the observer
   watches the body subtree), then press ArrowRight / ArrowLeft alternately (512 ↔ 640 rollouts, meter 63 ↔ 66);
3. t2 = the next ``requestAnimationFrame`` after t1 (≈ the frame that paints it);
4. wait until no ``.htmx-request`` is left, plus ``--settle-ms``; then the next move.

Besides t1 − t0 ("dom", the budgeted figure) each move records where the time went, from an XHR wrapper
installed before any page script and from the request's Resource Timing entry:
``send`` (keydown → ``XMLHttpRequest.send``: input handling, htmx trigger, form serialisation),
``xhr_done`` (keydown → ``readyState 4``, before htmx's ``onload`` runs), hence ``network+server`` =
xhr_done − send and ``htmx_ms`` (printed as "swap") = dom − xhr_done (htmx's response handling + app.js's
``applyLive``); ``server_ms`` is the ``Server-Timing: app;dur`` the timed server (benchmarks/timed_app.py)
reports for that request.  A move that app.js answers from a partial it fetched ahead (the neighbouring notches
of the slider in use) makes no request at all: it is counted in ``answered_ahead`` and has no breakdown; the
``fetch()`` calls that fetch ahead are counted per move (``ahead_fetches``).  ``--tweak no-ahead`` turns the
fetch-ahead off, so every move takes the htmx round trip (the cold path).

``--tweak`` changes the page in the browser only (init script; app/ untouched), to A/B htmx settings:
``history-off`` (``hx-history="false"`` on <html>: no history snapshot), ``no-replace-url`` (the form's
``hx-replace-url`` removed: the floor without URL sync), ``manual-replace`` (no ``hx-replace-url``; app-side JS
calls ``history.replaceState`` after each response instead).  ``--pattern sweep`` walks the ladder up and down
several notches instead of alternating (fills htmx's history cache with distinct URLs, as dragging does).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from pathlib import Path

from _common import BUDGETS, CHROMIUM, CHROMIUM_ARGS, check_loopback, run_meta, summary, write_json

SLIDER = "input.ladder[data-for=in-rollouts]"
METER = "[data-meter-value=rollout_load]"
METERS = [f"[data-meter-value={m}]" for m in ("rollout_load", "scoring_load", "train_memory", "kl_risk", "eval_need")]

INIT_JS = r"""
(() => {
  const log = window.__xhrLog = [];
  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.__rec = {url: String(url), send: null, done: null};
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    const rec = this.__rec || {url: '?', send: null, done: null};
    rec.send = performance.now();
    if (log.length < 50) log.push(rec);
    // readystatechange(4) fires before the load event that htmx listens to
    this.addEventListener('readystatechange', () => {
      if (this.readyState === 4 && rec.done === null) { rec.done = performance.now(); rec.url = this.responseURL || rec.url; }
    });
    return send.apply(this, args);
  };
  // fetch() is what app.js uses to fetch the neighbouring notches' answers ahead: counted apart from the
  // move's own XHR (a move answered ahead makes no request at all)
  const ahead = window.__aheadLog = [];
  const f = window.fetch;
  window.fetch = function (input, ...rest) {
    if (ahead.length < 200) ahead.push({url: String(input), send: performance.now()});
    if (window.__noAhead) return new Promise(() => {});  // --tweak no-ahead: the answers never arrive
    return f.call(this, input, ...rest);
  };
})();
"""

TWEAKS = {
    "none": "",
    # app.js's fetch-ahead of the neighbouring notches disabled: every move is an htmx request (the cold path)
    "no-ahead": "window.__noAhead = true;",
    "history-off": "document.documentElement.setAttribute('hx-history', 'false');",
    "no-replace-url": """document.addEventListener('DOMContentLoaded', () => {
        const f = document.getElementById('workload'); if (f) f.removeAttribute('hx-replace-url'); });""",
    "manual-replace": """document.addEventListener('DOMContentLoaded', () => {
        const f = document.getElementById('workload'); if (f) f.removeAttribute('hx-replace-url');
        document.addEventListener('htmx:afterRequest', (e) => {
          if (e.detail.elt && e.detail.elt.id === 'workload' && e.detail.successful && e.detail.xhr.responseURL)
            history.replaceState(history.state, '', e.detail.xhr.responseURL);
        }); });""",
    # The floor for this server's partial: no htmx on the form; a bare fetch() of the same partial and one
    # textContent write of the watched meter (what any client must at least do per move).
    "fetch-floor": """document.addEventListener('DOMContentLoaded', () => {
        const f = document.getElementById('workload'); if (!f) return;
        f.removeAttribute('hx-get'); f.removeAttribute('hx-trigger');
        let prev = location.href;
        f.addEventListener('input', () => {
          const url = f.getAttribute('action') + '?' + new URLSearchParams(new FormData(f)).toString();
          fetch(url, {headers: {'HX-Request': 'true', 'HX-Current-URL': prev}}).then(r => r.text()).then(t => {
            const m = /data-meter-value="rollout_load">([^<]*)</.exec(t);
            const el = document.querySelector('[data-meter-value=rollout_load]');
            if (m && el) el.textContent = m[1];
            prev = new URL(url, location.href).href;
            history.replaceState(history.state, '', url);
          });
        });
      });""",
}

ARM_JS = r"""
([sel, baseline]) => {
  const st = window.__lat = {keydown: null, changed: null, frame: null, value: null, done: false};
  window.__xhrLog.length = 0;
  window.__aheadLog.length = 0;
  const read = () => { const e = document.querySelector(sel); return e ? e.textContent.trim() : null; };
  const onKey = () => { if (st.keydown === null) st.keydown = performance.now(); };
  window.addEventListener('keydown', onKey, {capture: true, once: true});
  const mo = new MutationObserver(() => {
    if (st.changed !== null) return;
    const v = read();
    if (v !== null && v !== baseline) {
      st.changed = performance.now();
      st.value = v;
      mo.disconnect();
      requestAnimationFrame(() => { st.frame = performance.now(); st.done = true; });
    }
  });
  mo.observe(document.body, {childList: true, subtree: true, characterData: true});
  window.__disarm = () => { mo.disconnect(); window.removeEventListener('keydown', onKey, {capture: true}); };
}
"""

COLLECT_JS = r"""
() => {
  const st = window.__lat;
  const xs = window.__xhrLog.slice();
  const x = xs.length ? xs[xs.length - 1] : null;
  let server = null, req = null;
  if (x && x.done !== null) {
    const entries = performance.getEntriesByName(x.url).filter(e => e.initiatorType === 'xmlhttprequest');
    const e = entries[entries.length - 1];
    if (e) {
      const t = (e.serverTiming || []).find(s => s.name === 'app');
      server = t ? t.duration : null;
      req = {start: e.startTime, requestStart: e.requestStart, responseStart: e.responseStart,
             responseEnd: e.responseEnd, encoded: e.encodedBodySize, decoded: e.decodedBodySize};
    }
  }
  performance.clearResourceTimings();
  return {lat: st, xhrs: xs.length, xhr: x, server, req, ahead: window.__aheadLog.length,
          slider: document.querySelector('input.ladder[data-for=in-rollouts]').value,
          number: document.getElementById('in-rollouts').value,
          url: location.search};
}
"""


def top_self_time(profile: dict, n: int) -> list[dict]:
    """Self time per function (name, url:line) from a CDP CPU profile, largest first."""
    nodes = {nd["id"]: nd for nd in profile["nodes"]}
    hits: dict[int, int] = {}
    for sid in profile.get("samples", []):
        hits[sid] = hits.get(sid, 0) + 1
    deltas = profile.get("timeDeltas", [])
    total_us = sum(deltas)
    per_sample_us = total_us / max(len(deltas), 1)
    agg: dict[tuple, float] = {}
    for nid, k in hits.items():
        cf = nodes[nid]["callFrame"]
        key = (cf.get("functionName") or "(anonymous)", cf.get("url", "").rsplit("/", 1)[-1], cf.get("lineNumber", -1))
        agg[key] = agg.get(key, 0.0) + k * per_sample_us / 1000.0
    ranked = sorted(agg.items(), key=lambda kv: -kv[1])[:n]
    return [{"function": f, "file": u, "line": ln + 1, "self_ms": round(ms, 2)} for (f, u, ln), ms in ranked]


def run(url: str, moves: int, warmup: int, settle_ms: int, tweak: str, pattern: str, cache: bool, timeout_ms: int,
        screenshot: str | None, cpu_profile: str | None = None, htmx_source: str | None = None) -> dict:
    from playwright.sync_api import sync_playwright

    out: dict = {"url": url, "moves": moves, "warmup": warmup, "tweak": tweak, "pattern": pattern,
                 "http_cache": cache}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        out["browser_version"] = browser.version
        ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        if not cache:  # every move reaches the server (the partials are Cache-Control: max-age=300)
            cdp.send("Network.enable")
            cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        page.add_init_script(INIT_JS + TWEAKS[tweak])
        if htmx_source:  # e.g. the unminified htmx.js of the same release, for a readable --cpu-profile
            page.route("**/static/htmx-*.js", lambda route: route.fulfill(path=htmx_source,
                                                                          content_type="text/javascript"))
        page.goto(url, wait_until="load", timeout=timeout_ms)
        page.wait_for_function(
            "(sels) => sels.every(s => { const e = document.querySelector(s); return e && /\\d/.test(e.textContent); })",
            arg=METERS, timeout=timeout_ms)
        page.wait_for_load_state("networkidle", timeout=timeout_ms)
        page.wait_for_timeout(300)

        # sweep: 6 notches up, 6 down (512 → 4096 → 512 ...); distinct URLs fill the history cache
        keys = ["ArrowRight", "ArrowLeft"] if pattern == "alternate" else ["ArrowRight"] * 6 + ["ArrowLeft"] * 6
        samples, failures = [], []
        for i in range(warmup + moves):
            if cpu_profile and i == warmup:
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": 100})
                cdp.send("Profiler.start")
            key = keys[i % len(keys)]
            page.focus(SLIDER, timeout=timeout_ms)
            baseline = page.eval_on_selector(METER, "e => e.textContent.trim()")
            before = page.eval_on_selector(SLIDER, "e => e.value")
            page.evaluate(ARM_JS, [METER, baseline])
            page.keyboard.press(key)
            try:
                page.wait_for_function("() => window.__lat && window.__lat.done", timeout=timeout_ms, polling=5)
            except Exception as exc:  # noqa: BLE001 - recorded; every wait is bounded
                page.evaluate("() => window.__disarm && window.__disarm()")
                failures.append({"i": i, "key": key, "error": str(exc).splitlines()[0]})
                page.wait_for_timeout(settle_ms)
                continue
            with contextlib.suppress(Exception):
                page.wait_for_function("() => !document.querySelector('.htmx-request')", timeout=timeout_ms)
            page.wait_for_timeout(settle_ms)
            c = page.evaluate(COLLECT_JS)
            lat, x = c["lat"], c["xhr"]
            t0 = lat["keydown"]
            rec = {"i": i, "key": key, "slider": [before, c["slider"]], "meter": [baseline, lat["value"]],
                   "rollouts": c["number"], "location": c["url"], "xhrs": c["xhrs"], "ahead_fetches": c["ahead"],
                   "answered_ahead": c["xhrs"] == 0,
                   "dom_ms": round(lat["changed"] - t0, 3), "frame_ms": round(lat["frame"] - t0, 3),
                   "send_ms": round(x["send"] - t0, 3) if x and x["send"] is not None else None,
                   "xhr_done_ms": round(x["done"] - t0, 3) if x and x["done"] is not None else None,
                   "server_ms": c["server"], "req": c["req"]}
            if rec["send_ms"] is not None and rec["xhr_done_ms"] is not None:
                rec["network_server_ms"] = round(rec["xhr_done_ms"] - rec["send_ms"], 3)
                rec["htmx_ms"] = round(rec["dom_ms"] - rec["xhr_done_ms"], 3)
            if c["req"]:
                rec["ttfb_ms"] = round(c["req"]["responseStart"] - c["req"]["requestStart"], 3)
            samples.append(rec)
        if cpu_profile:
            prof = cdp.send("Profiler.stop")["profile"]
            Path(cpu_profile).write_text(json.dumps(prof))
            out["cpu_profile_top"] = top_self_time(prof, 25)
        out["final_url"] = page.evaluate("() => location.pathname + location.search")
        if screenshot:
            page.screenshot(path=screenshot)
        ctx.close()
        browser.close()

    measured = [s for s in samples if s["i"] >= warmup]

    def col(k: str) -> list[float]:
        return [s[k] for s in measured if s.get(k) is not None]

    moved = [s for s in measured if s["slider"][0] != s["slider"][1] and s["meter"][1] != s["meter"][0]]
    out.update({
        "dom_ms": summary(col("dom_ms")), "frame_ms": summary(col("frame_ms")), "send_ms": summary(col("send_ms")),
        "xhr_done_ms": summary(col("xhr_done_ms")), "network_server_ms": summary(col("network_server_ms")),
        "htmx_ms": summary(col("htmx_ms")), "server_ms": summary(col("server_ms")), "ttfb_ms": summary(col("ttfb_ms")),
        "moves_that_moved_slider_and_meter": len(moved), "requests_per_move": summary(col("xhrs"), 0),
        "answered_ahead": sum(1 for s in measured if s["answered_ahead"]),
        "ahead_fetches_per_move": summary(col("ahead_fetches"), 0),
        "failures": failures, "samples": samples,
    })
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--url", required=True, help="loopback URL of the lab page, e.g. http://127.0.0.1:8765/en/")
    ap.add_argument("--moves", type=int, default=60, help="measured key presses (10..500)")
    ap.add_argument("--warmup", type=int, default=4, help="unmeasured key presses first (0..50)")
    ap.add_argument("--settle-ms", type=int, default=100, help="idle pause after each update (0..2000)")
    ap.add_argument("--tweak", choices=sorted(TWEAKS), default="none")
    ap.add_argument("--pattern", choices=("alternate", "sweep"), default="alternate")
    ap.add_argument("--cache", choices=("off", "on"), default="off",
                    help="browser HTTP cache: off (default; every move reaches the server) or on (repeated states "
                         "may be answered from the cache: the partials are cacheable for 300 s)")
    ap.add_argument("--cpu-profile", help="write a CDP JS CPU profile of the measured moves here; top self time is "
                                          "added to the JSON")
    ap.add_argument("--htmx-source", help="serve this file instead of the vendored htmx (profiling only)")
    ap.add_argument("--timeout-ms", type=int, default=10_000)
    ap.add_argument("--screenshot")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    url = check_loopback(args.url) + "/"
    t = time.perf_counter()
    res = run(url, max(10, min(args.moves, 500)), max(0, min(args.warmup, 50)), max(0, min(args.settle_ms, 2000)),
              args.tweak, args.pattern, args.cache == "on", max(1000, min(args.timeout_ms, 60_000)), args.screenshot,
              args.cpu_profile, args.htmx_source)
    res["meta"] = run_meta()
    res["budgets"] = {k: BUDGETS[k] for k in ("browser_update_p50_ms", "browser_update_p95_ms")}
    res["wall_s"] = round(time.perf_counter() - t, 1)
    write_json(args.json, res)
    d, f = res["dom_ms"], res["frame_ms"]
    g = lambda k, q: (res[k] or {}).get(q)  # noqa: E731
    print(f"browser [{args.tweak}/{args.pattern}/cache {args.cache}] keydown→meter in DOM over {d['n']} moves: p50 {d['p50']:.2f} "
          f"p95 {d['p95']:.2f} max {d['max']:.2f} ms (budget p50 ≤ 8, p95 ≤ 16); next frame p50 {f['p50']:.2f} "
          f"p95 {f['p95']:.2f}; breakdown p50: send {g('send_ms', 'p50')}, network+server "
          f"{g('network_server_ms', 'p50')} (server {g('server_ms', 'p50')}), swap {g('htmx_ms', 'p50')} ms; "
          f"moved {res['moves_that_moved_slider_and_meter']}/{d['n']}; answered ahead (no request) "
          f"{res['answered_ahead']}/{d['n']}, fetches ahead per move p50 {g('ahead_fetches_per_move', 'p50')}; "
          f"failures {len(res['failures'])}")
    print(json.dumps({"final_url": res["final_url"]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
