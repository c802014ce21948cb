"""Routes: parse → compute → render.  No formula lives here; see app/model and app/view.py."""

from __future__ import annotations

import gc
import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Annotated
from urllib.parse import parse_qs, urlsplit

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import URL
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import view
from app.compression import GZip
from app.i18n import DEFAULT_LANG, LANGS
from app.model import Result, WorkloadInputs, evaluate, normalise
from app.partial_cache import PartialCacheMiddleware
from app.security import CSP, SecurityHeadersMiddleware

ROOT = Path(__file__).parent
STATIC = ROOT / "static"

app = FastAPI(
    docs_url=None,  # served below from the vendored swagger-ui-dist: no CDN, no inline script
    redoc_url=None,  # ReDoc would need a CDN; /docs is the one API page
    title="RLHF Pipeline Lab",
    summary="Workload model of an RLHF post-training pipeline: stage, meters, decisions and physical estimates.",
    version="0.1.0",
    # no OpenTelemetry here: off outright, so no request looks up the global providers to find that out
    telemetry={"tracing": False, "metrics": False, "logs": False},
)
GZIP_MIN_BYTES = 800


class LabFastPath:
    """The lab URL (``GET``/``HEAD /zh/`` and ``/en/``), the one a slider move calls, handed straight to ``lab()``:
    past the exception middleware, FastAPI's exit stack, the router's match against every route and
    request_response's wrappers, none of which the route uses (no dependencies, no handled exception: it raises
    only for a language that is not one of these paths).  Anything else, other methods on these paths included,
    goes the usual way; an error still reaches the server-error middleware outside.  The route stays registered
    below and answers the same (tests/web/test_lab_fast_path.py).  On never-seen partials this saves 3.3 % of the
    instructions (benchmarks/cold_instructions.sh)."""

    def __init__(self, app) -> None:  # noqa: ANN001 - the ASGI app inside
        self.app = app

    async def __call__(self, scope, receive, send) -> None:  # noqa: ANN001
        if scope["type"] == "http" and scope["path"] in LAB_PATHS and scope["method"] in ("GET", "HEAD"):
            scope["path_params"] = {"lang": scope["path"][1:-1]}
            response = await lab(Request(scope, receive))
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


app.add_middleware(LabFastPath)  # innermost: inside gzip, the response cache and the security headers
app.add_middleware(GZip, minimum_size=GZIP_MIN_BYTES)  # ISA-L's gzip (app/compression.py)
app.add_middleware(PartialCacheMiddleware)  # between the two: stores what gzip sent, gets the security headers
app.add_middleware(SecurityHeadersMiddleware)
app.mount("/static", StaticFiles(directory=STATIC), name="static")

LAB_PATHS = {f"/{lang}/" for lang in LANGS}


def _is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def _wants_partial(request: Request) -> bool:
    """The live regions only: an htmx request from the workload form.  Boosted links (presets, walkthrough)
    and history restores get the whole page."""
    h = request.headers
    return _is_htmx(request) and h.get("hx-boosted") != "true" and h.get("hx-history-restore-request") != "true"


def _previous_query(request: Request) -> str | None:
    """The query string of the state before this change: htmx sends the page's URL as HX-Current-URL; a plain
    form submit sends Referer.  Only a lab URL on this host counts."""
    for header in ("hx-current-url", "referer"):
        url = request.headers.get(header)
        if not url:
            continue
        parts = urlsplit(url)
        if (parts.netloc and parts.netloc != _own_netloc(request)) or parts.path not in LAB_PATHS:
            return None
        return parts.query
    return None


def _query_string(request: Request) -> str:
    """The request's raw query string.  Read from the scope, not from ``request.url``: building the URL costs a few
    µs, and its strict UTF-8 decoding raises (a 500) on a query with other bytes in it.  Latin-1 maps every byte to
    one character, as Starlette's own ``query_params`` do; a browser sends ASCII only (anything else
    percent-encoded), for which both readings agree."""
    return request.scope.get("query_string", b"").decode("latin-1")


def _own_netloc(request: Request) -> str | None:
    """``request.url.netloc`` (the Host header if valid, else the server's address) without the rest of the URL."""
    scope = request.scope
    server = scope.get("server")
    return _netloc(scope.get("scheme", "http"), request.headers.get("host"), tuple(server) if server else None)


@lru_cache(maxsize=64)  # one entry per Host a client names (a handful)
def _netloc(scheme: str, host: str | None, server: tuple | None) -> str | None:
    headers = [] if host is None else [(b"host", host.encode("latin-1"))]
    return URL(scope={"scheme": scheme, "server": server, "path": "/", "query_string": b"", "headers": headers}).netloc


@lru_cache(maxsize=1024)  # ≈ 10 KB per entry; a partial's previous state is almost always one just computed
def _state(query: str) -> tuple[WorkloadInputs, tuple, Result]:
    """Query string → normalised inputs, their notices and the model's result (all immutable)."""
    inputs, notices = normalise(_parse_query(query))
    return inputs, notices, evaluate(inputs)


def _parse_query(query: str) -> dict[str, list[str]]:
    """``parse_qs(query, keep_blank_values=True)``, split directly when nothing is percent- or plus-encoded (a
    form's own query never is: every value is a number or an id).

    >>> q = "rollouts=64&kl=&method=dpo&rollouts=128&&flag"
    >>> _parse_query(q) == parse_qs(q, keep_blank_values=True)
    True
    """
    if "%" in query or "+" in query:
        return parse_qs(query, keep_blank_values=True)
    out: dict[str, list[str]] = {}
    for pair in query.split("&"):
        if pair:
            name, _, value = pair.partition("=")
            out.setdefault(name, []).append(value)
    return out


def _cacheable(request: Request, response: Response, max_age: int) -> Response:
    """ETag + Cache-Control for GETs whose answer depends only on the URL (and the headers named in Vary)."""
    etag = '"' + hashlib.blake2b(response.body, digest_size=12).hexdigest() + '"'
    # appended to the raw list: the response is new, neither header is set yet (MutableHeaders would search it)
    cache_control = _CACHE_CONTROL.get(max_age) or f"public, max-age={max_age}".encode()
    response.raw_headers += ((b"etag", etag.encode()), (b"cache-control", cache_control))
    if request.headers.get("if-none-match") == etag:
        headers = {k: v for k, v in response.headers.items() if k.lower() in ("etag", "cache-control", "vary")}
        if len(response.body) >= GZIP_MIN_BYTES:  # the 200 varies on Accept-Encoding (gzip adds it): so does its 304
            headers["vary"] = ", ".join(filter(None, (headers.pop("vary", ""), "Accept-Encoding")))
        return Response(status_code=304, headers=headers)
    return response


_CACHE_CONTROL = {age: f"public, max-age={age}".encode() for age in (300, 3600, 86400)}


def _pick_lang(request: Request) -> str:
    cookie = request.cookies.get("lang")
    if cookie in LANGS:
        return cookie
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return DEFAULT_LANG


@app.get("/", include_in_schema=False)
def root(request: Request) -> RedirectResponse:
    query = f"?{request.url.query}" if request.url.query else ""
    response = RedirectResponse(f"/{_pick_lang(request)}/{query}", status_code=307)
    response.headers["Vary"] = "Cookie, Accept-Language"
    return response


@app.api_route("/healthz", methods=["GET", "HEAD"], include_in_schema=False)
async def healthz() -> dict[str, str]:  # async: no CPU work to hand to the thread pool
    return {"status": "ok"}


FAVICON = (STATIC / "favicon.svg").read_bytes()
# Swagger UI sets inline styles from its bundle; only this page allows them.
DOCS_CSP = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")


@app.api_route("/favicon.ico", methods=["GET", "HEAD"], include_in_schema=False)
async def favicon(request: Request) -> Response:
    return _cacheable(request, Response(FAVICON, media_type="image/svg+xml"), 86400)


@app.get("/docs", include_in_schema=False)
def docs(request: Request) -> Response:
    response = view.render(request, "docs.html", {})
    response.headers["Content-Security-Policy"] = DOCS_CSP
    return response


@app.head("/api/evaluate", include_in_schema=False)
@app.get("/api/evaluate", summary="Evaluate a workload", response_model=None)
def api_evaluate(params: Annotated[WorkloadInputs, Query()]) -> JSONResponse:
    """The model's whole result for one workload.  Out-of-range or malformed parameters: 422 naming the field."""
    return JSONResponse(view.result_json(evaluate(params)))


@app.get("/{lang}", include_in_schema=False)
def lang_no_slash(lang: str, request: Request) -> RedirectResponse:
    if lang not in LANGS:
        raise StarletteHTTPException(404)
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(f"/{lang}/{query}", status_code=308)


async def lab(request: Request) -> Response:
    """The lab page, or (htmx) the live regions that changed since the page's current URL.  A plain Starlette
    route (registered below): the hottest path has nothing for FastAPI's dependency injection to solve."""
    lang = request.path_params["lang"]
    if lang not in LANGS:
        raise StarletteHTTPException(404)
    query = _query_string(request)
    inputs, notices, result = _state(query)
    previous = None
    prev_query = _previous_query(request)
    if prev_query is not None:
        prev_inputs, _, prev_result = _state(prev_query)
        if prev_inputs != inputs:
            previous = (prev_inputs, prev_result)
    partial = _wants_partial(request)
    # presentation mode; parse_qs again only when the query could name it (a percent-encoded key included)
    present = ("present" in query or "%" in query) and parse_qs(query).get("present", [""])[-1] == "1"
    ctx = view.lab_context(lang, result, notices, previous, present=present, partial=partial)
    # The answer depends on the URL, on whether htmx asked for the live regions, and on the previous state.
    response = HTMLResponse(view.render_html("_live.html" if partial else "lab.html", ctx),
                            headers=_VARY_PARTIAL if partial else _VARY_PAGE)
    if not partial and request.cookies.get("lang") != lang:
        response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
        return response
    return _cacheable(request, response, 300)


_VARY_PARTIAL = {"Vary": "HX-Request, HX-Boosted, HX-History-Restore-Request, HX-Current-URL"}
_VARY_PAGE = {"Vary": _VARY_PARTIAL["Vary"] + ", Referer"}
app.add_route("/{lang}/", lab, methods=["GET", "HEAD"], include_in_schema=False)


@app.api_route("/{lang}/tutorial", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
async def tutorial(lang: str, request: Request) -> Response:
    if lang not in LANGS:
        raise StarletteHTTPException(404)
    return _cacheable(request, view.render(request, "tutorial.html", view.tutorial_context(lang)), 3600)


@app.api_route("/{lang}/compare", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
async def compare(lang: str, request: Request) -> Response:
    if lang not in LANGS:
        raise StarletteHTTPException(404)
    query = parse_qs(request.url.query, keep_blank_values=True)
    return view.render(request, "compare.html", view.compare_context(lang, query))


@app.exception_handler(StarletteHTTPException)
async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    if request.url.path.startswith("/api/") or exc.status_code != 404:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)
    first = request.url.path.strip("/").split("/")[0]
    lang = first if first in LANGS else _pick_lang(request)
    response = view.render(request, "404.html", view.base_context(lang, "404"))
    response.status_code = 404
    return response


# Everything made at start-up (compiled templates, catalogues, geometry, the app) lives as long as the process: moved
# out of the collector's generations, so its full collections no longer walk it (gc.freeze; docs/performance.md)
gc.freeze()
# A request's containers are freed by reference counting: no route leaves a cycle (tests/web/test_no_cycles.py), so
# the cyclic collector only ever finds the caches' survivors (a cached state's result lives ≈ 1,000 never-seen moves),
# and walks each of them again in every older-generation run.  Every 50,000 net new containers instead of 700 (≈ every
# 2,000 never-seen partials; at most a few MB of cyclic garbage would wait that long): on never-seen partials its time
# per 6,000 requests went from 152–160 ms (at 5,000) to 47–53 ms, ≈ 8 µs a request (benchmarks/cold_cpu.py prints it).
gc.set_threshold(50_000)
