"""The launch page (``/{lang}/launch?<the lab's query>``): a verl and an OpenRLHF command for the state."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app import templating
from app.caching import cacheable
from app.routes import check_lang, raw_query
from app.routes.lab import evaluate_query
from app.view.launch import launch_context

router = APIRouter(include_in_schema=False)


@router.api_route("/{lang}/launch", methods=["GET", "HEAD"], response_class=HTMLResponse)
def launch(lang: str, request: Request) -> Response:
    check_lang(lang)
    notices, result = evaluate_query(raw_query(request))
    html = templating.render_page("launch.html", launch_context(lang, result, notices))
    return cacheable(request, HTMLResponse(html), 3600)
