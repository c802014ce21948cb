"""The launch page (``/{lang}/launch?<the lab's query>``), its JSON (``/api/launch``), each command as a ``.sh``
download and the template files a command expects (``/launch/files/{name}``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from app import templating
from app.caching import cacheable
from app.launch import FILES, file_text
from app.launch.releases import FRAMEWORKS
from app.model import WorkloadInputs, evaluate, normalise
from app.model.inputs import refused
from app.routes import check_lang, query_dict
from app.view.api import LaunchOut
from app.view.launch import launch_context, launch_json, launch_script

router = APIRouter()
_IDS = tuple(r.framework for r in FRAMEWORKS)


@router.head("/api/launch", include_in_schema=False)
@router.get("/api/launch", summary="Launch commands for a workload")
def api_launch(params: Annotated[WorkloadInputs, Query()]) -> LaunchOut:
    """Per framework (verl, OpenRLHF, TRL): the command, its pinned version, its notes (key, arguments, en and zh
    text) and template files, or the reason it has none.  Bad parameters: 422 naming the field."""
    if errors := refused(params):  # as /api/evaluate: a longest response below the mean is a 422 naming it
        raise RequestValidationError(errors)
    return LaunchOut.model_validate(launch_json(evaluate(params)))


@router.api_route("/api/launch/{framework}.sh", methods=["GET", "HEAD"], include_in_schema=False)
def api_launch_script(framework: str, params: Annotated[WorkloadInputs, Query()]) -> Response:
    if framework not in _IDS:
        raise HTTPException(404)
    if errors := refused(params):
        raise RequestValidationError(errors)
    text = launch_script(evaluate(params), framework)
    if text is None:
        raise HTTPException(404, "no command for this state: see /api/launch for the reason")
    return PlainTextResponse(text, media_type="text/x-shellscript", headers={
        "Content-Disposition": f'attachment; filename="{framework}-launch.sh"'})


@router.api_route("/launch/files/{name}", methods=["GET", "HEAD"], include_in_schema=False)
def launch_file(name: str, request: Request) -> Response:
    if name not in FILES:
        raise HTTPException(404)
    return cacheable(request, PlainTextResponse(file_text(name), headers={
        "Content-Disposition": f'attachment; filename="{name}"'}), 3600)


@router.api_route("/{lang}/launch", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
def launch(lang: str, request: Request) -> Response:
    check_lang(lang)
    inputs, notices = normalise(query_dict(request))
    result = evaluate(inputs)
    html = templating.render_page("launch.html", launch_context(lang, result, notices))
    return cacheable(request, HTMLResponse(html), 3600)
