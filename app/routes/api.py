"""``GET /api/evaluate``: the model's whole result as JSON.  Strict: a bad parameter is a 422 naming the field."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.exceptions import RequestValidationError

from app.model import WorkloadInputs, evaluate
from app.model.inputs import refused
from app.model.scenarios import open_step
from app.view.api import EvaluateOut, evaluate_out

router = APIRouter()


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
