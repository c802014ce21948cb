"""The app's routes in three routers (lab, pages, api) and the request helpers they share."""

from __future__ import annotations

from urllib.parse import parse_qs

from fastapi import HTTPException, Request

from app.i18n import DEFAULT_LANG, LANGS


def raw_query(request: Request) -> str:
    """The request's query string as sent.  Latin-1 maps every byte to one character, as Starlette's own
    ``query_params`` do, so a query with non-UTF-8 bytes is read (and then refused value by value) instead of
    raising; a browser sends ASCII only, for which every reading agrees."""
    return request.scope.get("query_string", b"").decode("latin-1")


def query_dict(request: Request) -> dict[str, list[str]]:
    return parse_qs(raw_query(request), keep_blank_values=True)


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise HTTPException(404)
    return lang


def pick_lang(request: Request) -> str:
    """The reader's language: the ``lang`` cookie, then Accept-Language, else zh."""
    cookie = request.cookies.get("lang")
    if cookie in LANGS:
        return cookie
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return DEFAULT_LANG
