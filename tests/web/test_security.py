"""Security headers on every kind of answer, CSP-compatible HTML, and no way out of /static."""

from __future__ import annotations

import asyncio
from urllib.parse import urlencode

import pytest
from support.html import csp_directives, parse
from support.urls import HTMX, LANGS, STATES, lab_path

from app.main import app
from app.model.scenarios import PRESETS

_PPO = lab_path("en", PRESETS[2].inputs)

# (request path, headers, expected status) — one of each kind of answer the app gives
ANSWERS = [
    pytest.param("/en/", {}, 200, id="page"),
    pytest.param("/zh/", {"Cookie": "lang=zh"}, 200, id="page-cached"),
    pytest.param("/en/?rollouts=640", {**HTMX, "HX-Current-URL": "http://testserver" + _PPO}, 200, id="partial"),
    pytest.param("/en/tutorial", {}, 200, id="tutorial"),
    pytest.param("/zh/compare", {}, 200, id="compare"),
    pytest.param("/api/evaluate", {}, 200, id="api"),
    pytest.param("/api/evaluate?rollouts=-1", {}, 422, id="api-422"),
    pytest.param("/api/nope", {}, 404, id="api-404"),
    pytest.param("/static/app.css", {}, 200, id="static"),
    pytest.param("/static/htmx-2.0.11.min.js", {}, 200, id="static-js"),
    pytest.param("/favicon.ico", {}, 200, id="favicon"),
    pytest.param("/healthz", {}, 200, id="healthz"),
    pytest.param("/openapi.json", {}, 200, id="openapi"),
    pytest.param("/docs", {}, 200, id="docs"),
    pytest.param("/en/nope", {}, 404, id="404"),
    pytest.param("/static/nope.css", {}, 404, id="static-404"),
    pytest.param("/", {}, 307, id="redirect-root"),
    pytest.param("/zh", {}, 308, id="redirect-lang"),
]


def _etag_304(client):
    first = client.get("/en/tutorial")
    return client.get("/en/tutorial", headers={"If-None-Match": first.headers["etag"]})


def _check_headers(r) -> None:
    csp = csp_directives(r.headers.get("content-security-policy", ""))
    assert "script-src" in csp, "script-src must be explicit"
    assert "'self'" in csp["script-src"]
    assert not {"'unsafe-inline'", "'unsafe-eval'", "*", "data:"} & set(csp["script-src"]), csp["script-src"]
    assert csp.get("frame-ancestors") == ["'none'"]
    assert csp.get("object-src") == ["'none'"]
    assert r.headers.get("x-content-type-options") == "nosniff"
    assert r.headers.get("referrer-policy")
    assert r.headers.get("x-frame-options", "").upper() in ("DENY", "SAMEORIGIN")


@pytest.mark.parametrize(("path", "headers", "status"), ANSWERS)
def test_security_headers_on_every_answer(client, path, headers, status):
    r = client.get(path, headers=headers)
    assert r.status_code == status
    _check_headers(r)


def test_security_headers_on_304(client):
    r = _etag_304(client)
    assert r.status_code == 304
    _check_headers(r)


def test_security_headers_on_405(client):
    r = client.post("/en/")
    assert r.status_code == 405
    _check_headers(r)


# --- the HTML works under that CSP -------------------------------------------------------------------------------------

HTML_PAGES = [
    *(pytest.param(lab_path(lang, inputs), {}, id=f"{lang}-{name}") for name, inputs in STATES.items()
      for lang in LANGS),
    *(pytest.param(lab_path(lang, PRESETS[3].inputs), {**HTMX, "HX-Current-URL": "http://testserver" + _PPO},
                   id=f"{lang}-partial") for lang in LANGS),
    *(pytest.param(f"/{lang}/?present=1", {}, id=f"{lang}-present") for lang in LANGS),
    *(pytest.param(f"/{lang}/tutorial", {}, id=f"{lang}-tutorial") for lang in LANGS),
    *(pytest.param(f"/{lang}/compare?" + urlencode(PRESETS[0].inputs.query()), {}, id=f"{lang}-compare")
      for lang in LANGS),
    *(pytest.param(f"/{lang}/nope", {}, id=f"{lang}-404") for lang in LANGS),
    pytest.param("/en/?gpu=%22onmouseover%3Dalert(1)&method=%3Cscript%3E", {}, id="notices"),
]


def _csp_problems(html: str) -> list[str]:
    doc = parse(html)
    problems = []
    for e in doc.tags("script"):
        src = e.get("src")
        if not src:
            problems.append("inline <script>")
        elif not src.startswith("/") or src.startswith("//"):
            problems.append(f"cross-origin script {src}")
    problems += [f"inline script body {b[:40]!r}" for b in doc.script_bodies if b.strip()]
    for e in doc.elements:
        for name, value in e.attrs.items():
            if name == "style":
                problems.append(f"<{e.tag} style=...>")
            elif name.startswith("on"):
                problems.append(f"<{e.tag} {name}=...>")
            elif name.startswith(("hx-on", "data-hx-on")):
                problems.append(f"<{e.tag} {name}=...> (htmx inline handler needs eval)")
            elif name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith(
                    "javascript:"):
                problems.append(f"<{e.tag} {name}=javascript:...>")
    problems += [f"<{e.tag}> style element" for e in doc.tags("style")]
    return problems


@pytest.mark.parametrize(("path", "headers"), HTML_PAGES)
def test_html_needs_no_inline_script_style_or_handlers(client, path, headers):
    r = client.get(path, headers=headers)
    assert r.status_code in (200, 404)
    assert _csp_problems(r.text) == []


def test_htmx_config_keeps_eval_off(client):
    meta = [e for e in parse(client.get("/en/").text).tags("meta") if e.get("name") == "htmx-config"]
    assert len(meta) == 1
    content = meta[0].get("content")
    assert '"allowEval":false' in content.replace(" ", "")
    assert '"allowScriptTags":false' in content.replace(" ", "")
    assert '"includeIndicatorStyles":false' in content.replace(" ", "")  # an inline <style> would be blocked


def test_docs_page_works_under_the_csp(client):
    assert _csp_problems(client.get("/docs").text) == []


# --- static path traversal ------------------------------------------------------------------------------------------------

SOURCE_MARKERS = ("from fastapi import", "SecurityHeadersMiddleware", "[project]")

TRAVERSAL_URLS = [
    "/static/../main.py", "/static/%2e%2e/main.py", "/static/..%2fmain.py", "/static/%2e%2e%2fmain.py",
    "/static/..%5cmain.py", "/static/../../pyproject.toml", "/static/%2e%2e/%2e%2e/pyproject.toml",
    "/static/.%2e/security.py", "/static//etc/passwd", "/static/%2fetc%2fpasswd",
]


@pytest.mark.parametrize("url", TRAVERSAL_URLS)
def test_static_traversal_over_http(client, url):
    r = client.get(url)
    assert r.status_code == 404
    assert not any(m in r.text for m in SOURCE_MARKERS)
    assert "root:" not in r.text


def _asgi_get(path: str) -> tuple[int, bytes]:
    """Call the app with a raw, already-decoded path (what a server hands over for %2e%2e), bypassing the client's
    URL normalisation."""
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
             "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 1), "server": ("testserver", 80)}
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body


@pytest.mark.parametrize("path", ["/static/../main.py", "/static/../../pyproject.toml", "/static/..\\main.py",
                                  "/static/../security.py", "/static/./../view.py", "/static/../../.git/config"])
def test_static_traversal_with_raw_paths(path):
    status, body = _asgi_get(path)
    assert status == 404
    assert not any(m.encode() in body for m in SOURCE_MARKERS)
