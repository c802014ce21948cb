"""Hypothesis throws arbitrary query strings — arbitrary keys and values, every percent-encoding (including
invalid ones), repeated keys, empty pairs, very long values, unicode, markup — and arbitrary htmx / Referer /
cookie / Accept-Language headers at every route.  Whatever arrives: no 5xx, the expected status, the security
headers, and a body that is well-formed HTML (a whole document, or a fragment for the htmx partial) or JSON,
with nothing of the input turned into markup.

Targets are byte-exact (see asgi.py) and limited to what an HTTP/1.1 server passes on: visible ASCII without
'#' (uvicorn answers 400 itself to raw bytes ≥ 0x80, spaces or control characters)."""

from __future__ import annotations

from urllib.parse import parse_qsl, quote, quote_plus

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.asgi import get

from app.model.inputs import PARAM_NAMES

from .checks import assert_html, assert_json, assert_security_headers
from .checks import examples as scaled

PARAMS = [*PARAM_NAMES, "step", "present"]
PAYLOADS = [
    "<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "\"onmouseover=alert(1) x=\"",
    "javascript:alert(1)", "</textarea></title></style>", "{{7*7}}{% raw %}", "${7*7}", "' OR 1=1 --",
    "\u202e\u200b\ufeff", "🙂" * 8, "中文参数", "\x00\x01\x7f", "NaN", "-inf", "1e309", "-1e309", "0x10",
    "1_000", "1,000", "٣", "²", "１２８", " 64 ", "", "=", "&", "%", "+",
]

_printable = st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="#")
_any_text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30)
_numberish = st.one_of(
    st.integers(-10**12, 10**12).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.floats(allow_nan=True, allow_infinity=True).map(lambda x: f"{x:e}"),
)
_value = st.one_of(_numberish, st.sampled_from(PAYLOADS), _any_text,
                   st.integers(1_000, 20_000).map(lambda n: "9" * n))
_key = st.one_of(st.sampled_from(PARAMS), st.sampled_from(PARAMS).map(lambda k: "b_" + k), _any_text)


@st.composite
def _encoded(draw, strategy) -> str:
    """One key or value, encoded one of several ways a client (or an attacker) might."""
    text = draw(strategy)
    how = draw(st.sampled_from(["quote", "quote_plus", "raw", "bytes", "bad_escapes"]))
    if how == "quote":
        return quote(text, safe="")
    if how == "quote_plus":
        return quote_plus(text)
    if how == "raw":  # printable ASCII sent as is ('&' and '=' included: they re-split the pair)
        return "".join(c if "!" <= c <= "~" and c != "#" else quote(c, safe="") for c in text)
    if how == "bytes":  # arbitrary bytes, percent-encoded: invalid UTF-8 included
        return "".join(f"%{b:02X}" for b in draw(st.binary(max_size=24)))
    bits = st.sampled_from(["%", "%z", "%zz", "%e4%b8", "%ff", "%00", "%2", "%%", "a"])
    return "".join(draw(st.lists(bits, max_size=8)))


@st.composite
def queries(draw) -> str:
    pairs = draw(st.lists(st.tuples(_encoded(_key), _encoded(_value)), max_size=12))
    if pairs and draw(st.booleans()):  # repeat some keys
        pairs += draw(st.lists(st.sampled_from(pairs), max_size=4))
    sep = draw(st.sampled_from(["&", "&", "&&", ";"]))
    parts = [f"{k}={v}" if draw(st.integers(0, 9)) else k for k, v in pairs]
    extra = draw(st.text(_printable, max_size=12))
    return sep.join(parts) + (extra if draw(st.booleans()) else "")


_header_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=200)


@st.composite
def headers(draw, lab: bool) -> dict[str, str]:
    out: dict[str, str] = {}
    if draw(st.booleans()):
        out["Cookie"] = "lang=" + draw(st.sampled_from(["zh", "en", "fr", "", "<x>", '"en"']))
    if draw(st.booleans()):
        out["Accept-Language"] = draw(st.one_of(st.sampled_from(["en-US,en;q=0.9", "zh-CN", "*", ";;,,"]),
                                                _header_text))
    if lab and draw(st.booleans()):
        url = draw(st.sampled_from(["http://testserver/en/?", "http://testserver/zh/?", "http://evil.example/en/?",
                                    "/en/?", "javascript:alert(1)//", ""]))
        out[draw(st.sampled_from(["HX-Current-URL", "Referer"]))] = url + draw(queries())[:2000]
    return out


ROUTES = [
    # (path, extra headers, expected statuses, body: full | fragment | json | redirect, examples)
    ("/zh/", {}, {200}, "full", 25),
    ("/en/", {}, {200}, "full", 25),
    ("/en/", {"HX-Request": "true"}, {200}, "fragment", 30),
    ("/zh/", {"HX-Request": "true"}, {200}, "fragment", 20),
    ("/zh/", {"HX-Request": "true", "HX-Boosted": "true"}, {200}, "full", 12),
    ("/en/", {"HX-Request": "true", "HX-History-Restore-Request": "true"}, {200}, "full", 12),
    ("/api/evaluate", {}, {200, 422}, "json", 60),
    ("/zh/compare", {}, {200}, "full", 25),
    ("/en/compare", {"HX-Request": "true"}, {200}, "full", 15),
    ("/en/tutorial", {}, {200}, "full", 12),
    ("/zh/tutorial", {"HX-Request": "true"}, {200}, "full", 12),
    ("/", {}, {307}, "redirect", 25),
    ("/en", {}, {308}, "redirect", 25),
    ("/fr/", {}, {404}, "full", 15),
]


def _check(path: str, query: str, hdrs: dict[str, str], statuses: set[int], kind: str) -> None:
    target = f"{path}?{query}" if query else path
    r = get(target, hdrs)
    assert r.status < 500, (target[:200], hdrs, r.body[:500])
    assert r.status in statuses, (target[:200], hdrs, r.status, r.body[:300])
    assert_security_headers(r)
    if kind == "json":
        body = assert_json(r)
        if r.status == 422:
            assert body["detail"] and all(e["loc"][0] == "query" for e in body["detail"])
    elif kind == "redirect":
        location = r.header("location") or ""
        assert location.startswith(("/zh/", "/en/")), location  # never off-site
        # the query is carried over: re-quoted perhaps ('\\' → %5C), but the same parameters
        carried = location.partition("?")[2]
        assert parse_qsl(carried, keep_blank_values=True) == parse_qsl(query, keep_blank_values=True)
    else:
        lang = path.strip("/").split("/")[0]
        assert_html(r, full=kind == "full", lang=lang if lang in ("zh", "en") else None)


@pytest.mark.parametrize(("path", "extra", "statuses", "kind", "examples"), ROUTES,
                         ids=[f"{p}{'+' + '+'.join(h) if h else ''}" for p, h, *_ in ROUTES])
def test_fuzz_route(path, extra, statuses, kind, examples):
    lab = path in ("/zh/", "/en/")

    @settings(max_examples=scaled(examples), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(query=queries(), hdrs=headers(lab))
    def run(query: str, hdrs: dict[str, str]) -> None:
        _check(path, query, {**hdrs, **extra}, statuses, kind)

    run()


# --- the path itself ---------------------------------------------------------------------------------------------

_segment = st.one_of(st.sampled_from(["zh", "en", "api", "static", "compare", "tutorial", "evaluate", "..", ".",
                                      "%2e%2e", "%2F", "%5C", "", "favicon.ico", "healthz", "openapi.json"]),
                     st.text(_printable.filter(lambda c: c not in "?"), max_size=12))


@settings(max_examples=scaled(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(segments=st.lists(_segment, min_size=1, max_size=5), trailing=st.booleans(),
       htmx=st.booleans())
def test_fuzz_paths(segments, trailing, htmx):
    """Arbitrary paths: no 5xx; a 404 is an HTML page in a known language (JSON under /api/)."""
    path = "/" + "/".join(segments) + ("/" if trailing else "")
    r = get(path, {"HX-Request": "true"} if htmx else {})
    assert r.status < 500, (path, r.body[:300])
    assert_security_headers(r)
    if r.status == 404:
        if path.startswith("/api/"):
            assert_json(r)
        else:
            doc = assert_html(r, full=True)
            assert doc.find("html")[0].attrs.get("lang") in ("zh-CN", "en")
