"""``GET /api/evaluate``: the model's whole result as JSON.  Strict: a bad parameter is a 422 naming the field."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.exceptions import RequestValidationError

from app.model import WorkloadInputs, evaluate
from app.model.inputs import refused
from app.model.scenarios import open_step
from app.view.api import EvaluateOut, evaluate_out
from app.view.compare_api import CompareOut, CompareParams, compare_out, prices_of, strict_side

router = APIRouter()
# /api/compare has a router of its own, included before the lab's: the lab's /{lang}/compare would take it for a page
# in a language called "api"
compare_router = APIRouter()


@router.head("/api/evaluate", include_in_schema=False)
@router.get("/api/evaluate", summary="Evaluate a workload")
def api_evaluate(params: Annotated[WorkloadInputs, Query()], request: Request) -> EvaluateOut:
    """The model's whole result for one workload.  Out-of-range or malformed parameters: 422 naming the field; so is
    a longest response (``response_max_tokens``) below the mean (``response_tokens``), which the page raises to the
    mean with a notice.  A bare ``step`` (no other parameter) is that walkthrough step's own workload, as on the
    page."""
    if errors := refused(params):
        raise RequestValidationError(errors)
    return evaluate_out(evaluate(open_step(params, request.query_params)))


@compare_router.head("/api/compare", include_in_schema=False)
@compare_router.get("/api/compare", summary="Compare two lab states")
def api_compare(params: Annotated[CompareParams, Query()]) -> CompareOut:
    """Two lab states side by side (each ``a`` / ``b`` a lab query or a whole lab URL): every phase time, the step,
    memory per GPU, the fewest GPUs, one pass's hours, GPU-hours and dollars (GPU-hours × the price of the side's
    GPU type: ``price_<gpu id>``, else the planner's prices.toml), and the diagram components one side has and the
    other not.  A bad parameter of a side: 422 whose ``loc`` names the side and the field (``query.a.gpus``)."""
    (a, errors_a), (b, errors_b) = strict_side("a", params.a), strict_side("b", params.b)
    if errors := errors_a + errors_b:
        raise RequestValidationError(errors)
    return compare_out(a, b, prices_of(params))
