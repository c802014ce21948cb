"""Browser update latency: keyboard slider move → updated meter in the DOM, in headless Debian Chromium, three ways
side by side in one run.

    .venv/bin/python benchmarks/bench_browser.py --url http://127.0.0.1:8765/en/ --moves 60 \
        --json benchmarks/results/browser.json

The three modes (the page and app/ are not changed; a mode is an init script that runs before any page script):

* ``ahead`` — the lab as shipped: app.js fetches the neighbouring notches' partials ahead, so a one-notch move is
  usually answered with no request at all (counted in ``answered_ahead``).  The budgeted figure.
* ``cold`` — nothing fetched ahead (app.js's ``fetch()`` calls never resolve), so every move is the htmx round
  trip: the request, the server, ``applyLive``'s swap of the changed regions.
* ``fetch`` — the floor any client pays for a round trip to this server: htmx is taken off the form, and on
  ``input`` a bare ``fetch()`` of the same partial (same URL and headers) is followed by one ``textContent`` write
  of the watched meter.  The cold move's budget is a ratio to this, measured in the same run.

The modes run in ``--rounds`` rounds (ahead, cold, fetch, ahead, cold, fetch, …), each round on a fresh page, so
the shared machine's load falls on all three alike.  The browser's HTTP cache is off in every mode (the partials
are cacheable for 300 s): every request reaches the server.

Per move (all timing in the page's own clock, so the Playwright↔browser round trip is not included): focus
``input.ladder[data-for=in-rollouts]``, arm a one-shot capture-phase ``keydown`` listener on ``window`` (t0) and a
``MutationObserver`` on ``document.body`` that records t1 when the text of ``[data-meter-value=rollout_load]``
differs from its value before the press, press ArrowRight / ArrowLeft alternately (512 ↔ 640 rollouts);
t2 = the next ``requestAnimationFrame`` (≈ the frame that paints it).  Then wait until no request is in flight,
plus ``--settle-ms``.  ``dom_ms`` = t1 − t0 is the figure; for a move that made a request, ``send`` (keydown →
``XMLHttpRequest.send`` or ``fetch``), ``network_server`` (send → response complete) and ``swap`` (response →
meter in the DOM) say where the time went.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from pathlib import Path

from _common import CHROMIUM, CHROMIUM_ARGS, check_loopback, run_meta, summary, write_json
from budgets import BUDGETS

SLIDER = "input.ladder[data-for=in-rollouts]"
METER = "[data-meter-value=rollout_load]"
METERS = [f"[data-meter-value={m}]" for m in ("rollout_load", "scoring_load", "train_memory", "kl_risk", "eval_need")]
MODES = ("ahead", "cold", "fetch")

# Records every XHR (htmx) and fetch() with its send and completion time.
INIT_JS = r"""
(() => {
  const log = window.__reqLog = [];
  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.__rec = {kind: 'xhr', url: String(url), send: null, done: null};
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    const rec = this.__rec || {kind: 'xhr', url: '?', send: null, done: null};
    rec.send = performance.now();
    if (log.length < 50) log.push(rec);
    // readystatechange(4) fires before the load event that htmx listens to
    this.addEventListener('readystatechange', () => {
      if (this.readyState === 4 && rec.done === null) rec.done = performance.now();
    });
    return send.apply(this, args);
  };
  const ahead = window.__aheadLog = [];
  const realFetch = window.__realFetch = window.fetch.bind(window);
  // app.js's fetch() calls are its fetches ahead (counted apart from the move's own request)
  window.fetch = function (input, ...rest) {
    if (ahead.length < 200) ahead.push({url: String(input), send: performance.now()});
    if (window.__noAhead) return new Promise(() => {});  // cold and fetch modes: those answers never arrive
    return realFetch(input, ...rest);
  };
})();
"""

MODE_JS = {
    "ahead": "",
    "cold": "window.__noAhead = true;",
    "fetch": r"""window.__noAhead = true;
document.addEventListener('DOMContentLoaded', () => {
  const f = document.getElementById('workload'); if (!f) return;
  f.removeAttribute('hx-get'); f.removeAttribute('hx-trigger');
  let prev = location.href;
  f.addEventListener('input', () => {
    const url = new URL(f.getAttribute('action') + '?' + new URLSearchParams(new FormData(f)), location.href).href;
    const rec = {kind: 'fetch', url, send: performance.now(), done: null};
    window.__reqLog.push(rec);
    window.__realFetch(url, {headers: {'HX-Request': 'true', 'HX-Current-URL': prev}}).then(r => r.text()).then(t => {
      rec.done = performance.now();
      const m = /data-meter-value="rollout_load">([^<]*)</.exec(t);
      const el = document.querySelector('[data-meter-value=rollout_load]');
      if (m && el) el.textContent = m[1];
      prev = url;
    });
  });
});""",
}

ARM_JS = r"""
([sel, baseline]) => {
  const st = window.__lat = {keydown: null, changed: null, frame: null, value: null, done: false};
  window.__reqLog.length = 0;
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
  const reqs = window.__reqLog.slice();
  const x = reqs.length ? reqs[reqs.length - 1] : null;
  let sizes = null;
  if (x && x.done !== null) {
    const e = performance.getEntriesByName(new URL(x.url, location.href).href).pop();
    if (e) sizes = {encoded: e.encodedBodySize, decoded: e.decodedBodySize,
                    ttfb: e.responseStart > 0 ? e.responseStart - e.requestStart : null};
  }
  performance.clearResourceTimings();
  return {lat: window.__lat, requests: reqs.length, req: x, sizes, ahead: window.__aheadLog.length,
          slider: document.querySelector('input.ladder[data-for=in-rollouts]').value};
}
"""

IDLE_JS = "() => !document.querySelector('.htmx-request') && window.__reqLog.every(r => r.done !== null)"


def measure_page(browser, url: str, mode: str, moves: int, warmup: int, settle_ms: int,  # noqa: ANN001
                 timeout_ms: int, screenshot: str | None = None) -> tuple[list[dict], list[dict]]:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    page.add_init_script(INIT_JS + MODE_JS[mode])
    page.goto(url, wait_until="load", timeout=timeout_ms)
    page.wait_for_function(
        "(sels) => sels.every(s => { const e = document.querySelector(s); return e && /\\d/.test(e.textContent); })",
        arg=METERS, timeout=timeout_ms)
    page.wait_for_load_state("networkidle", timeout=timeout_ms)
    page.wait_for_timeout(300)
    samples, failures = [], []
    keys = ("ArrowRight", "ArrowLeft")
    for i in range(warmup + moves):
        key = keys[i % 2]
        page.focus(SLIDER, timeout=timeout_ms)
        baseline = page.eval_on_selector(METER, "e => e.textContent.trim()")
        page.evaluate(ARM_JS, [METER, baseline])
        page.keyboard.press(key)
        try:
            page.wait_for_function("() => window.__lat && window.__lat.done", timeout=timeout_ms, polling=5)
        except Exception as exc:  # noqa: BLE001 - recorded; every wait is bounded
            page.evaluate("() => window.__disarm && window.__disarm()")
            failures.append({"mode": mode, "i": i, "key": key, "error": str(exc).splitlines()[0]})
            page.wait_for_timeout(settle_ms)
            continue
        with contextlib.suppress(Exception):
            page.wait_for_function(IDLE_JS, timeout=timeout_ms)
        page.wait_for_timeout(settle_ms)
        c = page.evaluate(COLLECT_JS)
        if i < warmup:
            continue
        lat, x = c["lat"], c["req"]
        t0 = lat["keydown"]
        rec = {"mode": mode, "key": key, "meter": [baseline, lat["value"]], "requests": c["requests"],
               "answered_ahead": c["requests"] == 0, "ahead_fetches": c["ahead"],
               "dom_ms": round(lat["changed"] - t0, 3), "frame_ms": round(lat["frame"] - t0, 3)}
        if x and x["send"] is not None and x["done"] is not None:
            rec.update(send_ms=round(x["send"] - t0, 3), network_server_ms=round(x["done"] - x["send"], 3),
                       swap_ms=round(lat["changed"] - x["done"], 3))
        if c["sizes"]:
            rec.update(body_decoded=c["sizes"]["decoded"], body_encoded=c["sizes"]["encoded"],
                       ttfb_ms=c["sizes"]["ttfb"])
        samples.append(rec)
    if screenshot:
        page.screenshot(path=screenshot)
    ctx.close()
    return samples, failures


def run(url: str, moves: int, rounds: int, warmup: int, settle_ms: int, timeout_ms: int,
        screenshot: str | None) -> dict:
    from playwright.sync_api import sync_playwright

    per_round = max(1, moves // rounds)
    samples: list[dict] = []
    failures: list[dict] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        version = browser.version
        for r in range(rounds):
            for mode in MODES:
                s, f = measure_page(browser, url, mode, per_round, warmup, settle_ms, timeout_ms,
                                    screenshot if (r, mode) == (rounds - 1, "ahead") else None)
                samples += s
                failures += f
        browser.close()

    out: dict = {"url": url, "browser_version": version, "moves_per_mode": per_round * rounds, "rounds": rounds,
                 "http_cache": "off", "modes": {}, "failures": failures}
    for mode in MODES:
        ms = [s for s in samples if s["mode"] == mode]

        def col(k: str, ms=ms) -> list[float]:
            return [s[k] for s in ms if s.get(k) is not None]

        out["modes"][mode] = {
            "dom_ms": summary(col("dom_ms")), "frame_ms": summary(col("frame_ms")),
            "send_ms": summary(col("send_ms")), "network_server_ms": summary(col("network_server_ms")),
            "swap_ms": summary(col("swap_ms")), "ttfb_ms": summary(col("ttfb_ms")),
            "answered_ahead": sum(1 for s in ms if s["answered_ahead"]), "moves": len(ms),
            "meter_moved": sum(1 for s in ms if s["meter"][0] != s["meter"][1]),
            "ahead_fetches_per_move": summary(col("ahead_fetches"), 0),
            "partial_decoded_bytes": summary(col("body_decoded"), 0),
            "partial_encoded_bytes": summary(col("body_encoded"), 0),
        }
    out["samples"] = samples
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--url", required=True, help="loopback URL of the lab page, e.g. http://127.0.0.1:8765/en/")
    ap.add_argument("--moves", type=int, default=60, help="measured key presses per mode (10..500)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the three modes (1..10)")
    ap.add_argument("--warmup", type=int, default=2, help="unmeasured key presses on each page first (0..20)")
    ap.add_argument("--settle-ms", type=int, default=100, help="idle pause after each update (0..2000)")
    ap.add_argument("--timeout-ms", type=int, default=10_000)
    ap.add_argument("--screenshot")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    url = check_loopback(args.url) + "/"
    t = time.perf_counter()
    res = run(url, max(10, min(args.moves, 500)), max(1, min(args.rounds, 10)), max(0, min(args.warmup, 20)),
              max(0, min(args.settle_ms, 2000)), max(1000, min(args.timeout_ms, 60_000)), args.screenshot)
    res["meta"] = run_meta()
    res["budgets"] = {k: BUDGETS[k] for k in ("browser_update_p50_ms", "browser_update_p95_ms", "cold_vs_fetch_ratio")}
    res["wall_s"] = round(time.perf_counter() - t, 1)
    m = res["modes"]
    cold, floor = m["cold"]["dom_ms"], m["fetch"]["dom_ms"]
    res["cold_vs_fetch_p50"] = round(cold["p50"] / floor["p50"], 2) if cold and floor else None
    write_json(args.json, res)
    for mode in MODES:
        r = m[mode]
        d = r["dom_ms"] or {}
        g = lambda k, r=r: (r[k] or {}).get("p50")  # noqa: E731
        print(f"{mode:5s} key→meter in DOM over {r['moves']} moves: p50 {d.get('p50')} p95 {d.get('p95')} max "
              f"{d.get('max')} ms; frame p50 {g('frame_ms')}; answered ahead {r['answered_ahead']}/{r['moves']}; "
              f"p50 send {g('send_ms')} · network+server {g('network_server_ms')} · swap {g('swap_ms')} ms; "
              f"partial {g('partial_decoded_bytes')} B decoded")
    print(f"cold / fetch p50: ×{res['cold_vs_fetch_p50']} (budget ≤ ×{BUDGETS['cold_vs_fetch_ratio']}); "
          f"failures {len(res['failures'])}")
    print(json.dumps({"wall_s": res["wall_s"]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
