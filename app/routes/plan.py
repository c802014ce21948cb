"""The run planner: ``GET /api/plan`` (strict: a bad parameter is a 422 naming the field) and the page
``/{lang}/plan`` (clamped, with a notice).  Both answer from the cache after the first request of a query: the answer
is a pure function of it (ETag, ``Cache-Control``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response

from app import templating
from app.caching import cacheable
from app.model import normalise
from app.model.inputs import refused
from app.model.planner import normalise_plan
from app.routes import check_lang, query_dict
from app.view.plan import PlanOut, PlanParams, plan_context, plan_json, split_params

router = APIRouter()


@router.head("/api/plan", include_in_schema=False)
@router.get("/api/plan", summary="Plan a run: what to rent to finish by a deadline, and what it costs",
            response_model=PlanOut)
def api_plan(params: Annotated[PlanParams, Query()], request: Request) -> Response:
    """Every GPU type × whole-node count × placement (and, when allowed, staleness, offload, LoRA) for one
    workload: the options, the cheapest that meets ``deadline_h``, the fastest within ``budget_usd``, the Pareto
    frontier of hours against dollars and what was searched.  Bad parameters: 422 naming the field."""
    workload, q = split_params(params)
    if errors := refused(workload):
        raise RequestValidationError(errors)
    return cacheable(request, Response(plan_json(workload, q), media_type="application/json"), 3600)


@router.api_route("/{lang}/plan", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
def plan_page(lang: str, request: Request) -> Response:
    check_lang(lang)
    query = query_dict(request)
    workload, notices = normalise(query)
    q, plan_notices = normalise_plan(query)
    sort = (query.get("sort") or ["cost"])[-1]
    html = templating.render_page("plan.html", plan_context(lang, workload, q, notices + plan_notices, sort))
    return cacheable(request, HTMLResponse(html), 3600)
