"""Everything but the lab and the API: the language redirects, the tutorial, /docs, the favicon, /healthz, 404."""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import templating
from app.caching import cacheable
from app.routes import check_lang, pick_lang, raw_query
from app.security import CSP
from app.tutorial import render_tutorial
from app.view.lab import other, reference_context
from app.view.plan import price_rows

router = APIRouter(include_in_schema=False)

FAVICON = (templating.STATIC / "favicon.svg").read_bytes()
# Swagger UI sets inline styles from its bundle; only this page allows them.
DOCS_CSP = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")


def _with_query(path: str, request: Request) -> str:
    query = raw_query(request)
    return f"{path}?{query}" if query else path


@router.get("/")
def root(request: Request) -> RedirectResponse:
    response = RedirectResponse(_with_query(f"/{pick_lang(request)}/", request), status_code=307)
    response.headers["Vary"] = "Cookie, Accept-Language"
    return response


@router.api_route("/healthz", methods=["GET", "HEAD"])
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.api_route("/favicon.ico", methods=["GET", "HEAD"])
async def favicon(request: Request) -> Response:
    return cacheable(request, Response(FAVICON, media_type="image/svg+xml"), 86400)


@router.get("/docs")
def docs() -> HTMLResponse:
    return HTMLResponse(templating.render_page("docs.html", {"lang": "en"}), headers={"Content-Security-Policy": DOCS_CSP})


@router.get("/{lang}")
def lang_no_slash(lang: str, request: Request) -> RedirectResponse:
    check_lang(lang)
    return RedirectResponse(_with_query(f"/{lang}/", request), status_code=308)


@cache
def _tutorial_page(lang: str) -> str:
    body, toc = render_tutorial(lang)
    return templating.render_page("tutorial.html", {
        "lang": lang, "other_lang": other(lang), "page": "tutorial", "body": body, "toc": toc,
        "switch_url": f"/{other(lang)}/tutorial"})


@router.api_route("/{lang}/tutorial", methods=["GET", "HEAD"], response_class=HTMLResponse)
def tutorial(lang: str, request: Request) -> Response:
    check_lang(lang)
    return cacheable(request, HTMLResponse(_tutorial_page(lang)), 3600)


@cache
def _reference_page(lang: str) -> str:
    return templating.render_page("reference.html", {**reference_context(lang), "price_rows": price_rows()})


@router.api_route("/{lang}/reference", methods=["GET", "HEAD"], response_class=HTMLResponse)
def reference(lang: str, request: Request) -> Response:
    """The teaching assumptions, the GPU specifications and the glossary (the lab keeps a one-line summary)."""
    check_lang(lang)
    return cacheable(request, HTMLResponse(_reference_page(lang)), 3600)


def not_found_page(request: Request) -> HTMLResponse:
    first = request.url.path.strip("/").split("/")[0]
    lang = first if first in templating.LANGS else pick_lang(request)
    html = templating.render_page("404.html", {"lang": lang, "other_lang": other(lang), "page": "404",
                                                 "switch_url": f"/{other(lang)}/"})
    return HTMLResponse(html, status_code=404)
