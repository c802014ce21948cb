"""Your own run: ``/{lang}/calibrate?<state>`` (the paste box; POST: the fit, drawn) and ``POST /api/calibrate?<state>``
(form field ``log``: the fit as JSON).  The paste is read by app/calibrate (bounded, never stored, never echoed: the
page's paste box comes back empty); an unreadable one is a 413 (too large) or 422 that says what was expected."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import parse_qs

from fastapi import APIRouter, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from app import templating
from app.calibrate import LogError, calibrate, read_log
from app.calibrate.fit import CalibrationError
from app.calibrate.logs import MAX_LOG_BYTES, MAX_LOG_LINES
from app.model import WorkloadInputs, normalise
from app.model.inputs import refused
from app.routes import check_lang, query_dict
from app.view.calibrate import CalibrateOut, calibrate_out, error_message, page
from app.view.lab import other

router = APIRouter()

MAX_BODY_BYTES = 3 * MAX_LOG_BYTES + 4_096  # the paste form-encoded (≤ 3 bytes a character) and the field's name
_TOO_LARGE = {"too_large", "too_many_lines"}


async def _log_text(request: Request) -> str:
    """The form field ``log`` of the request body, read no further than MAX_BODY_BYTES (LogError past it)."""
    length = request.headers.get("content-length", "")
    if length.isdecimal() and int(length) > MAX_BODY_BYTES:
        raise LogError("too_large", MAX_LOG_BYTES)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise LogError("too_large", MAX_LOG_BYTES)
    return parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True).get("log", [""])[-1]


def _status(kind: str) -> int:
    return 413 if kind in _TOO_LARGE else 422


@router.post("/api/calibrate", summary="Calibrate the lab to a run's own log", response_model=CalibrateOut,
             responses={413: {"description": "the paste is larger than the limit it names"},
                        422: {"description": "a bad parameter, or a paste that holds no readable logged step: the "
                                             "message says what was expected"}},
             openapi_extra={"requestBody": {"required": True, "content": {"application/x-www-form-urlencoded": {
                 "schema": {"type": "object", "required": ["log"], "properties": {"log": {
                     "type": "string",  # its limit is a 413, which a schema's maxLength cannot say
                     "description": f"a few logged steps: verl console lines, OpenRLHF or NeMo RL logged timings, or "
                                    f"a wandb / TensorBoard CSV export (never stored); at most {MAX_LOG_BYTES:,} bytes "
                                    f"and {MAX_LOG_LINES:,} lines, else 413"}}}}}}})
async def api_calibrate(params: Annotated[WorkloadInputs, Query()], request: Request) -> Response:
    """The lab state of a run in the query, a few of its logged steps in the form field ``log`` (verl 0.9.1's
    console lines, OpenRLHF 0.11.2's or NeMo RL's logged timings, or a wandb / TensorBoard CSV export): the phases
    measured (the median over the steps) beside the lab's, the factors the log pins (each bounded, with what pinned
    it) and ``query``, the state with those factors as inputs.  Nothing is stored."""
    if errors := refused(params):
        raise RequestValidationError(errors)
    try:
        log = read_log(await _log_text(request))
        c = await run_in_threadpool(calibrate, params, log)  # a few hundred evaluations: off the event loop
    except LogError as err:
        return _error(err.kind, err.limit)
    except CalibrationError as err:
        return _error(err.kind, 0, loc=("query",))
    return JSONResponse(calibrate_out(c).model_dump(mode="json"))


@router.api_route("/api/calibrate", methods=["GET", "HEAD", "PUT", "DELETE", "PATCH"], include_in_schema=False)
def api_calibrate_other() -> Response:
    """Only POST: answered here, or /{lang}/calibrate would take ``api`` for a language and say 404."""
    return JSONResponse({"detail": "Method Not Allowed: POST the form field log"}, status_code=405,
                        headers={"Allow": "POST"})


def _error(kind: str, limit: int, loc: tuple[str, ...] = ("body", "log")) -> JSONResponse:
    detail = [{"type": f"calibrate_{kind}", "loc": list(loc), "msg": error_message(kind, limit),
               **({"ctx": {"limit": limit}} if limit else {})}]
    return JSONResponse({"detail": detail}, status_code=_status(kind))


def _page(lang: str, request: Request, **kw) -> str:  # noqa: ANN003
    inputs, notices = normalise(query_dict(request))
    vm = page(lang, inputs, notices, max_bytes=MAX_LOG_BYTES, max_lines=MAX_LOG_LINES, **kw)
    query = vm.action.split("?", 1)[1]
    return templating.render_page("calibrate.html", {
        "lang": lang, "other_lang": other(lang), "page": "calibrate", "vm": vm, "inputs": inputs,
        "switch_url": f"/{other(lang)}/calibrate?{query}"})


@router.api_route("/{lang}/calibrate", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
def calibrate_page(lang: str, request: Request) -> HTMLResponse:
    check_lang(lang)
    return HTMLResponse(_page(lang, request))


@router.post("/{lang}/calibrate", response_class=HTMLResponse, include_in_schema=False)
async def calibrate_post(lang: str, request: Request) -> HTMLResponse:
    """The form's POST, without JavaScript: the fit drawn on the page, or why the paste could not be read."""
    check_lang(lang)
    inputs, _ = normalise(query_dict(request))
    try:
        log = read_log(await _log_text(request))
        c = await run_in_threadpool(calibrate, inputs, log)
    except (LogError, CalibrationError) as err:
        limit = getattr(err, "limit", 0)
        return HTMLResponse(_page(lang, request, error_kind=err.kind, error_limit=limit), status_code=_status(err.kind))
    return HTMLResponse(_page(lang, request, result=c), headers={"Cache-Control": "no-store"})
