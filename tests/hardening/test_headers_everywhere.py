"""Security headers on every kind of answer — not only the 200s: 304, 307/308 redirects, 404 (HTML, JSON and
static), 405, 422 — and what a browser would make of them: the pages obey their own CSP, errors are not cached,
cookie-setting answers are not shared-cacheable, redirects stay on site and cannot be split.

Bugs found here (405 without ``Allow``, ``HEAD`` refused, /docs and /redoc blank under the app's CSP, a static
304 without Cache-Control) were strict xfails; all are fixed, and the tests now guard the fixes."""

from __future__ import annotations

import pytest
from support.asgi import get, request

from .checks import HTMX, assert_security_headers, csp_violations

ETAG_COOKIE = {"Cookie": "lang=en"}


def _etag(target: str, headers: dict[str, str]) -> str:
    r = get(target, headers)
    assert r.status == 200 and r.header("etag"), (target, r.status)
    return r.header("etag")


# (id, method, target, headers, status)
ANSWERS = [
    ("lab-first-visit", "GET", "/zh/", {}, 200),
    ("lab-cookie", "GET", "/en/?rollouts=64", ETAG_COOKIE, 200),
    ("partial", "GET", "/en/?rollouts=64", HTMX, 200),
    ("boosted", "GET", "/en/", {**HTMX, "HX-Boosted": "true"}, 200),
    ("compare", "GET", "/zh/compare?method=dpo", {}, 200),
    ("tutorial", "GET", "/en/tutorial", {}, 200),
    ("api", "GET", "/api/evaluate?gpus=16", {}, 200),
    ("api-422", "GET", "/api/evaluate?gpus=0", {}, 422),
    ("api-422-many", "GET", "/api/evaluate?gpus=0&method=x&kl=nan&step=99", {}, 422),
    ("openapi", "GET", "/openapi.json", {}, 200),
    ("healthz", "GET", "/healthz", {}, 200),
    ("favicon", "GET", "/favicon.ico", {}, 200),
    ("static", "GET", "/static/app.js", {}, 200),
    ("root-307", "GET", "/?rollouts=8", {"Accept-Language": "en"}, 307),
    ("lang-308", "GET", "/zh?rollouts=8", {}, 308),
    ("slash-307", "GET", "/api/evaluate/", {}, 307),
    ("404-lang", "GET", "/en/no-such-page", {}, 404),
    ("404-unknown-lang", "GET", "/xx/", {"Accept-Language": "en"}, 404),
    ("404-api", "GET", "/api/nothing", {}, 404),
    ("404-static", "GET", "/static/nothing.css", {}, 404),
    ("404-static-escape", "GET", "/static/%2e%2e/main.py", {}, 404),
    ("405-page", "POST", "/en/", {}, 405),
    ("405-api", "DELETE", "/api/evaluate", {}, 405),
    ("405-static", "PUT", "/static/app.css", {}, 405),
    ("calibrate", "GET", "/en/calibrate?gpus=16", {}, 200),
    ("calibrate-page-422", "POST", "/zh/calibrate?gpus=16", {}, 422),
    ("calibrate-api-422", "POST", "/api/calibrate?gpus=16", {}, 422),
    ("405-calibrate-api", "GET", "/api/calibrate", {}, 405),
    ("plan", "GET", "/en/plan?max_gpus=16", {}, 200),
    ("plan-clamped", "GET", "/zh/plan?max_gpus=16&deadline_h=-1", {}, 200),
    ("api-plan", "GET", "/api/plan?max_gpus=16", {}, 200),
    ("api-plan-422", "GET", "/api/plan?deadline_h=-1", {}, 422),
    ("compare-states", "GET", "/en/compare?a=gpus%3D16&b=method%3Dgrpo&present=1", {}, 200),
    ("handout", "GET", "/zh/handout?gpus=16", {}, 200),
    ("api-compare", "GET", "/api/compare?a=gpus%3D16&b=method%3Dgrpo", {}, 200),
    ("api-compare-422", "GET", "/api/compare?a=gpus%3D0&b=", {}, 422),
]


@pytest.mark.parametrize(("method", "target", "headers", "status"), [a[1:] for a in ANSWERS],
                         ids=[a[0] for a in ANSWERS])
def test_security_headers_on_every_kind_of_answer(method, target, headers, status):
    r = request(method, target, headers)
    assert r.status == status, (r.status, r.body[:200])
    assert_security_headers(r)
    cache = r.header("cache-control") or ""
    if status >= 400:
        assert "public" not in cache and "immutable" not in cache, f"an error is cacheable: {cache}"
        assert not r.header("etag") and not r.all("set-cookie")
    if 300 <= status < 400:
        location = r.header("location") or ""
        assert location.startswith("/") or location.startswith("http://testserver/"), location
        assert not location.startswith("//")


CONDITIONAL = [
    pytest.param("/en/?rollouts=64", ETAG_COOKIE, id="lab"),
    pytest.param("/zh/?rollouts=64", {"HX-Request": "true", "Cookie": "lang=zh"}, id="partial"),
    pytest.param("/zh/tutorial", {}, id="tutorial"),
    pytest.param("/static/app.css", {}, id="static"),  # was a strict xfail: no Cache-Control on the 304
]


def _tokens(value: str | None) -> set[str]:
    return {v.strip().lower() for v in (value or "").split(",") if v.strip()}


@pytest.mark.parametrize(("target", "headers"), CONDITIONAL)
def test_304_keeps_security_and_cache_headers(target, headers):
    first = get(target, headers)
    etag = _etag(target, headers)
    r = get(target, {**headers, "If-None-Match": etag})
    assert r.status == 304 and r.body == b""
    assert_security_headers(r)
    assert r.header("etag") == etag
    # a 304 must repeat what a cache needs to refresh its stored copy: Cache-Control, and the app's own Vary
    # (the gzip middleware's "Accept-Encoding" is added to bodies only — noted in docs/deploy.md)
    assert r.header("cache-control") == first.header("cache-control")
    assert _tokens(first.header("vary")) - {"accept-encoding"} <= _tokens(r.header("vary"))


def test_cookie_setting_answers_are_not_shared_cacheable():
    """A shared cache (the nginx in deploy/) must never hand one visitor's Set-Cookie to another."""
    for target, headers in (("/zh/", {}), ("/en/?rollouts=8", {"Cookie": "lang=zh"}), ("/en/", {"Cookie": "x=1"})):
        r = get(target, headers)
        cookies = r.all("set-cookie")
        assert cookies and cookies[0].startswith(f"lang={target[1:3]};"), cookies
        assert "samesite=lax" in cookies[0].lower() and "path=/" in cookies[0].lower()
        cache = r.header("cache-control") or ""
        assert "public" not in cache and not r.header("etag"), cache
    # … and the cacheable answer to the same URL sets no cookie
    r = get("/en/?rollouts=8", {"Cookie": "lang=en"})
    assert "public" in r.header("cache-control") and not r.all("set-cookie")


@pytest.mark.parametrize("target", ["/?a=%0d%0aSet-Cookie:%20evil=1", "/en?a=%0D%0ALocation:%20//evil.example",
                                    "/?%0d%0a%0d%0a<script>alert(1)</script>", "/zh?x=%E5%%0a"])
def test_redirects_cannot_be_split(target):
    r = get(target)
    assert r.status in (307, 308)
    assert not r.all("set-cookie")
    assert len(r.all("location")) == 1
    location = r.header("location")
    assert "\r" not in location and "\n" not in location and location.startswith(("/zh/", "/en/"))
    assert_security_headers(r)


@pytest.mark.parametrize("host", ["[", "a]", "[::1", "exa mple", "x:99999999", "", "evil.example", "ü"])
def test_odd_host_headers_never_fail(host):
    for target, hdrs in (("/en/", {}), ("/en/", {**HTMX, "HX-Current-URL": "http://evil.example/en/?rollouts=1"}),
                         ("/api/evaluate", {}), ("/", {}), ("/nope/", {})):
        r = get(target, [("host", host), *hdrs.items()])
        assert r.status < 500, (host, target, r.status)
        assert_security_headers(r)


PAGES = [
    pytest.param("/en/", {}, id="lab-en"),
    pytest.param("/zh/?method=dpo&step=8", {}, id="lab-zh"),
    pytest.param("/en/?rollouts=9999", {**HTMX, "HX-Current-URL": "http://testserver/en/"}, id="partial"),
    pytest.param("/zh/compare", {}, id="compare"),
    pytest.param("/en/tutorial", {}, id="tutorial-en"),
    pytest.param("/zh/tutorial", {}, id="tutorial-zh"),
    pytest.param("/en/missing", {}, id="404"),
    pytest.param("/en/plan?max_gpus=16", {}, id="plan-en"),
    pytest.param("/zh/plan?max_gpus=16", {}, id="plan-zh"),
]


@pytest.mark.parametrize(("target", "headers"), PAGES)
def test_pages_obey_their_own_csp(target, headers):
    """Everything the page loads is allowed by the CSP it is sent with (a blocked script or stylesheet is a
    broken page that no server-side test would notice)."""
    r = get(target, headers)
    assert r.status in (200, 404)
    assert csp_violations(r.text, r.header("content-security-policy")) == []


# --- bugs -----------------------------------------------------------------------------------------------------------

ALLOW = [
    pytest.param("POST", "/en/", {"GET"}, id="page"),
    pytest.param("DELETE", "/api/evaluate", {"GET"}, id="api"),
    pytest.param("TRACE", "/api/evaluate", {"GET"}, id="api-trace"),
    pytest.param("PUT", "/static/app.css", {"GET", "HEAD"}, id="static"),
]


@pytest.mark.parametrize(("method", "target", "allowed"), ALLOW)
def test_method_not_allowed_names_the_allowed_methods(method, target, allowed):
    """RFC 9110 §15.5.6 (schemathesis check ST204). Was a strict xfail: http_error dropped exc.headers."""
    r = request(method, target)
    assert r.status == 405
    assert allowed <= {m.strip() for m in (r.header("allow") or "").split(",") if m.strip()}


# RFC 9110 §9.1: general-purpose servers MUST support HEAD (`curl -I`, uptime monitors, link checkers).
# Was a strict xfail: every route but /static answered 405.
HEAD = [
    pytest.param("/en/", ETAG_COOKIE, id="lab"),
    pytest.param("/zh/tutorial", {}, id="tutorial"),
    pytest.param("/en/compare", {}, id="compare"),
    pytest.param("/api/evaluate", {}, id="api"),
    pytest.param("/healthz", {}, id="healthz"),
    pytest.param("/favicon.ico", {}, id="favicon"),
]


def test_head_on_static_files_works():
    r, g = request("HEAD", "/static/app.css"), get("/static/app.css")
    assert r.status == 200 and r.body == b"" and r.header("etag") == g.header("etag")
    assert_security_headers(r)


@pytest.mark.parametrize(("target", "headers"), HEAD)
def test_head_is_answered_like_get(target, headers):
    """Status and headers as for GET (in-process the app may still send the body: the server drops it)."""
    g = get(target, headers)
    r = request("HEAD", target, headers)
    assert r.status == g.status == 200
    assert r.content_type == g.content_type
    assert r.header("etag") == g.header("etag")
    assert_security_headers(r)


def test_api_docs_obey_their_own_csp():
    """/docs works under the CSP it is sent with (was a strict xfail: Swagger UI from a CDN plus an inline
    script); /redoc, which needs a CDN, is not served at all."""
    r = get("/docs")
    assert r.status == 200
    assert csp_violations(r.text, r.header("content-security-policy")) == []
    assert get("/redoc").status == 404
