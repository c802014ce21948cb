"""What every answer must satisfy, whatever was asked: the checks the hardening tests share."""

from __future__ import annotations

import html
import json
import os
import re
from urllib.parse import parse_qs, urlsplit

from support.asgi import Reply

from app.i18n import catalogue
from app.security import CSP

from .htmlcheck import StrictHTML, check_html

HTML_LANG = {"zh": "zh-CN", "en": "en"}
# Hypothesis budgets are sized to keep tests/hardening under a minute on a 2-core machine; for a deep run:
#   HARDENING_FUZZ_SCALE=20 .venv/bin/python -m pytest tests/hardening -q
FUZZ_SCALE = float(os.environ.get("HARDENING_FUZZ_SCALE", "1"))


def examples(n: int) -> int:
    return max(1, round(n * FUZZ_SCALE))
HTMX = {"HX-Request": "true"}

SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
}


def assert_security_headers(r: Reply) -> None:
    """Exactly one of each security header, with the strict value; the CSP forbids framing and inline code."""
    for name, value in SECURITY_HEADERS.items():
        got = r.all(name)
        assert got == [value], f"{name}: {got!r} on a {r.status}"
    policy = r.header("content-security-policy") or ""
    csp = dict((d.strip().split(" ", 1) + [""])[:2] for d in policy.split(";") if d.strip())
    assert csp["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert csp["script-src"] == "'self'" and csp["object-src"] == "'none'" and csp["default-src"] == "'self'"


def assert_html(r: Reply, *, full: bool, lang: str | None = None) -> StrictHTML:
    assert r.content_type == "text/html", r.header("content-type")
    assert "charset=utf-8" in (r.header("content-type") or "").lower()
    doc = check_html(r.text, full=full)
    if full and lang:
        html = doc.find("html")
        assert html and html[0].attrs.get("lang") == HTML_LANG[lang], html and html[0].attrs
    return doc


def assert_json(r: Reply) -> object:
    assert r.content_type == "application/json", r.header("content-type")
    return json.loads(r.body)


def page_state(doc: StrictHTML) -> dict[str, str]:
    """The state a page (or partial) shows, as its canonical query: on a page the language switch link's href
    (the contract: it keeps the current parameters) and the live marker's data-query, which must agree; a partial
    carries only the marker (app.js rewrites the links from it)."""
    queries = {urlsplit(e.attrs["href"]).query for e in doc.find("a", hreflang=None)}
    queries |= {e.attrs["data-query"] for e in doc.find("i", id="live-marker", data_query=None)}
    assert queries, "no language switch link and no live marker"
    assert len(queries) == 1, f"the language switch and the live marker disagree: {queries}"
    return {k: v[-1] for k, v in parse_qs(queries.pop(), keep_blank_values=True).items()}


def notice_items(doc: StrictHTML) -> list:
    """The <li> of the notice list (the lab's live region or the compare page's box)."""
    return [e for e in doc.elements if e.tag == "li" and e.inside(cls="notices")]


def t(lang: str, key: str) -> str:
    return catalogue(lang)[key]


# --- cheap regex readers, for the many requests where a full strict parse (≈15 ms a page) is too slow -------

_A_TAG = re.compile(r"<a\s[^>]*>")
_HREF = re.compile(r'\shref="([^"]*)"')
_MARKER_QUERY = re.compile(r'<i id="live-marker"[^>]*\sdata-query="([^"]*)"')
_NOTICE_LIST = re.compile(r'class="notices"[^>]*>(.*?)</ul>', re.S)


def quick_state(text: str) -> dict[str, str]:
    """Like page_state(), by regex over the <a hreflang> tags and the live marker."""
    queries = {urlsplit(html.unescape(m.group(1))).query for tag in _A_TAG.findall(text) if "hreflang=" in tag
               for m in [_HREF.search(tag)] if m}
    queries |= {html.unescape(q) for q in _MARKER_QUERY.findall(text)}
    assert len(queries) == 1, queries
    return {k: v[-1] for k, v in parse_qs(queries.pop(), keep_blank_values=True).items()}


def quick_notice_count(text: str) -> int:
    m = _NOTICE_LIST.search(text)
    return m.group(1).count("<li") if m else 0


# --- what a browser would block under the page's own Content-Security-Policy ----------------------------------

def _directives(policy: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            out.setdefault(words[0].lower(), words[1:])
    return out


def _allowed(url: str, sources: list[str], host: str = "testserver") -> bool:
    parts = urlsplit(url)
    if parts.scheme == "data":
        return "data:" in sources
    same_origin = not parts.netloc or parts.netloc == host
    if same_origin and parts.scheme in ("", "http", "https"):
        return "'self'" in sources
    for s in sources:
        if s.startswith("'"):
            continue
        src = urlsplit(s if "://" in s else "https://" + s)
        if src.netloc == parts.netloc and (not src.path or parts.path.startswith(src.path)):
            return True
    return False


def csp_violations(text: str, policy: str) -> list[str]:
    """Every script, stylesheet, inline script or style block, and image the page uses that ``policy`` forbids."""
    d = _directives(policy)
    default = d.get("default-src", [])
    scripts, styles, images = d.get("script-src", default), d.get("style-src", default), d.get("img-src", default)
    parser = StrictHTML()
    parser.feed(text)
    parser.finish()
    out: list[str] = []
    inline_ok = {"script": "'unsafe-inline'" in scripts, "style": "'unsafe-inline'" in styles}
    for e in parser.elements:
        a = e.attrs
        if e.tag == "script" and a.get("src") and not _allowed(a["src"], scripts):
            out.append(f"script {a['src']}")
        if e.tag == "link" and "stylesheet" in (a.get("rel") or "").split() and not _allowed(a["href"], styles):
            out.append(f"stylesheet {a['href']}")
        if e.tag == "link" and "icon" in (a.get("rel") or "").split() and not _allowed(a["href"], images):
            out.append(f"icon {a['href']}")
        if e.tag == "img" and a.get("src") and not _allowed(a["src"], images):
            out.append(f"image {a['src']}")
    for err in parser.errors:
        if err.startswith("inline script") and not inline_ok["script"]:
            out.append(err)
        if (err.startswith("inline <style>") or err.startswith("inline style")) and not inline_ok["style"]:
            out.append(err)
        if err.startswith("event-handler") and not inline_ok["script"]:
            out.append(err)
    return out
