"""First load of the lab page in headless Debian Chromium: requests, bytes as transferred, what blocks rendering.

    .venv/bin/python benchmarks/bench_first_load.py --url http://127.0.0.1:8765/en/ --loads 5 \
        --json benchmarks/results/first_load.json

Each load uses a fresh browser context (cold HTTP cache, no cookies).  Per load:

* every request the page makes (Playwright ``request`` events; counted after 1 s of network quiet, at most 10 s),
  its status, ``Content-Encoding`` and the body bytes as transferred (``request.sizes().responseBodySize``, i.e.
  compressed when the server compressed it) plus the response header bytes;
* render-blocking: Chromium's own verdict from Resource Timing (``renderBlockingStatus`` = blocking /
  non-blocking, Chromium ≥ 107) for every subresource, and a static check of the HTML (``<script src>`` without
  ``defer``/``async``/``type=module``, stylesheets without a non-matching ``media``) — the issue allows only the
  page's own CSS to block;
* timings from the page's clock: TTFB, first contentful paint, DOMContentLoaded, load, and when all five meters
  show a number.

A second visit (same context, same URL) is measured once: which resources still come from the network (Resource
Timing ``transferSize`` > 0) when the static files are cached (``Cache-Control: immutable``).
"""

from __future__ import annotations

import argparse
import statistics
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from _common import CHROMIUM, CHROMIUM_ARGS, check_loopback, run_meta, write_json
from budgets import BUDGETS

METERS = [f"[data-meter-value={m}]" for m in ("rollout_load", "scoring_load", "train_memory", "kl_risk", "eval_need")]

READY_JS = r"""
(() => {
  const sels = %s;
  window.__marks = {meters: null};
  const ok = () => sels.every(s => { const e = document.querySelector(s); return e && /\d/.test(e.textContent); });
  const check = () => { if (window.__marks.meters === null && ok()) window.__marks.meters = performance.now(); };
  const mo = new MutationObserver(() => { check(); if (window.__marks.meters !== null) mo.disconnect(); });
  mo.observe(document, {childList: true, subtree: true, characterData: true});
})();
"""

TIMING_JS = r"""
() => {
  const nav = performance.getEntriesByType('navigation')[0] || {};
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const res = performance.getEntriesByType('resource').map(e => ({
    name: e.name, initiator: e.initiatorType, blocking: e.renderBlockingStatus || null,
    transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize}));
  return {ttfb: nav.responseStart, dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
          nav_blocking: nav.renderBlockingStatus || null, fcp: fcp ? fcp.startTime : null,
          meters: window.__marks ? window.__marks.meters : null, resources: res};
}
"""


class _Refs(HTMLParser):
    """Same-origin resources the HTML references, and which of them would block rendering."""

    def __init__(self, base: str) -> None:
        super().__init__()
        self.base = base
        self.scripts: list[dict] = []
        self.styles: list[dict] = []
        self.other: list[str] = []
        self.in_noscript = False

    def handle_starttag(self, tag, attrs):  # noqa: ANN001
        a = dict(attrs)
        if tag == "noscript":
            self.in_noscript = True
        elif tag == "script" and a.get("src"):
            self.scripts.append({"src": a["src"], "blocking": not ("defer" in a or "async" in a
                                                                   or a.get("type") == "module")})
        elif tag == "link" and a.get("href"):
            rel = (a.get("rel") or "").lower().split()
            if "stylesheet" in rel:
                self.styles.append({"href": a["href"], "noscript": self.in_noscript,
                                    "blocking": not self.in_noscript and a.get("media", "all") in ("all", "screen")})
            elif "icon" in rel or "preload" in rel or "modulepreload" in rel:
                self.other.append(a["href"])
        elif tag in ("img", "iframe", "source", "video", "audio") and a.get("src"):
            self.other.append(a["src"])

    def handle_endtag(self, tag):  # noqa: ANN001
        if tag == "noscript":
            self.in_noscript = False


def static_check(url: str, html: str) -> dict:
    p = _Refs(url)
    p.feed(html)
    host = urlsplit(url).netloc

    def same_origin(ref: str) -> bool:
        return urlsplit(urljoin(url, ref)).netloc == host

    return {
        "scripts": p.scripts, "stylesheets": p.styles, "other": p.other,
        "blocking_scripts": [s["src"] for s in p.scripts if s["blocking"]],
        "blocking_stylesheets": [s["href"] for s in p.styles if s["blocking"]],
        "same_origin_resources_incl_page": 1 + sum(same_origin(x) for x in
                                                   [s["src"] for s in p.scripts]
                                                   + [s["href"] for s in p.styles if not s["noscript"]] + p.other),
    }


def one_load(browser, url: str, timeout_ms: int, warm_reload: bool = False) -> dict:  # noqa: ANN001
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    page.add_init_script(READY_JS % METERS)
    reqs: list = []
    last = [time.monotonic()]

    def on_request(r) -> None:  # noqa: ANN001
        reqs.append(r)
        last[0] = time.monotonic()

    page.on("request", on_request)
    page.on("requestfinished", lambda r: last.__setitem__(0, time.monotonic()))
    page.goto(url, wait_until="load", timeout=timeout_ms)
    page.wait_for_function("() => window.__marks && window.__marks.meters !== null", timeout=timeout_ms)
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline and time.monotonic() - last[0] < 1.0:
        page.wait_for_timeout(100)
    timing = page.evaluate(TIMING_JS)
    html = page.evaluate("() => document.documentElement.outerHTML")
    rows = []
    for r in reqs:
        resp = r.response()
        sizes = r.sizes() if resp else {}
        rows.append({"url": r.url, "type": r.resource_type, "status": resp.status if resp else None,
                     "encoding": (resp.headers.get("content-encoding") if resp else None),
                     "cache_control": (resp.headers.get("cache-control") if resp else None),
                     "body_bytes": sizes.get("responseBodySize", 0) or 0,
                     "header_bytes": sizes.get("responseHeadersSize", 0) or 0})
    out = {"requests": len(rows), "body_bytes": sum(x["body_bytes"] for x in rows),
           "header_bytes": sum(x["header_bytes"] for x in rows), "resources": rows,
           "ttfb_ms": timing["ttfb"], "fcp_ms": timing["fcp"], "dcl_ms": timing["dcl"], "load_ms": timing["load"],
           "meters_visible_ms": timing["meters"],
           "render_blocking_by_chromium": [e["name"] for e in timing["resources"] if e["blocking"] == "blocking"],
           "resource_timing": timing["resources"], "html": html}
    if warm_reload:  # a second visit in the same context: what still goes to the network
        page.goto(url, wait_until="load", timeout=timeout_ms)
        page.wait_for_timeout(500)
        warm = page.evaluate("""() => [performance.getEntriesByType('navigation')[0],
                                        ...performance.getEntriesByType('resource')].map(e => ({
                                          name: e.name, transfer: e.transferSize, status: e.responseStatus}))""")
        out["warm_visit"] = {"resources": len(warm), "from_network": [w["name"] for w in warm if w["transfer"] > 0],
                             "entries": warm}
    ctx.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--url", required=True, help="loopback URL of the lab page, e.g. http://127.0.0.1:8765/en/")
    ap.add_argument("--loads", type=int, default=5, help="cold loads (1..20)")
    ap.add_argument("--timeout-ms", type=int, default=15_000)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    url = check_loopback(args.url) + "/"
    timeout = max(1000, min(args.timeout_ms, 60_000))

    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        version = browser.version
        one_load(browser, url, timeout)  # unmeasured: server-side first-request work
        loads = [one_load(browser, url, timeout, warm_reload=(k == 0)) for k in range(max(1, min(args.loads, 20)))]
        browser.close()

    first = loads[0]
    check = static_check(url, first.pop("html"))
    for ld in loads[1:]:
        ld.pop("html", None)
    med = lambda k: statistics.median([ld[k] for ld in loads if ld[k] is not None])  # noqa: E731
    res = {
        "meta": run_meta(), "url": url, "browser_version": version, "loads": len(loads),
        "budgets": {k: BUDGETS[k] for k in ("first_load_bytes", "first_load_requests")},
        "requests": med("requests"), "body_bytes": med("body_bytes"), "header_bytes": med("header_bytes"),
        "body_kb": round(med("body_bytes") / 1000.0, 1),
        "ttfb_ms": med("ttfb_ms"), "fcp_ms": med("fcp_ms"), "dcl_ms": med("dcl_ms"), "load_ms": med("load_ms"),
        "meters_visible_ms": med("meters_visible_ms"),
        "meters_visible_ms_all": [ld["meters_visible_ms"] for ld in loads],
        "resources": first["resources"],
        "render_blocking_by_chromium": first["render_blocking_by_chromium"],
        "static_check": check, "warm_visit": first.get("warm_visit"), "runs": loads,
    }
    write_json(args.json, res)
    print(f"first load (median of {len(loads)} cold loads): {res['requests']} requests, {res['body_bytes']} B body as "
          f"transferred ({res['body_kb']} kB; budget ≤ {BUDGETS['first_load_bytes']:,} B, ≤ {BUDGETS['first_load_requests']} requests) + {res['header_bytes']} B headers; "
          f"TTFB {res['ttfb_ms']:.1f} ms, FCP {res['fcp_ms']:.1f} ms, DCL {res['dcl_ms']:.1f} ms, meters visible "
          f"{res['meters_visible_ms']:.1f} ms")
    for r in res["resources"]:
        print(f"  {r['status']} {r['type']:10s} {r['body_bytes']:7d} B  {r['encoding'] or 'identity':8s} "
              f"{r['url'].split('//', 1)[-1].split('/', 1)[-1][:60]}")
    print(f"render-blocking (Chromium): {res['render_blocking_by_chromium']}; static check: blocking scripts "
          f"{check['blocking_scripts']}, blocking stylesheets {check['blocking_stylesheets']}; same-origin "
          f"resources referenced incl. the page: {check['same_origin_resources_incl_page']}")
    if res["warm_visit"]:
        w = res["warm_visit"]
        print(f"second visit (warm cache): {len(w['from_network'])} of {w['resources']} resources from the network: "
              f"{[u.split('//', 1)[-1].split('/', 1)[-1][:40] for u in w['from_network']]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
