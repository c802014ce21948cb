"""The JSON answer of ``GET /api/compare?a=<lab query>&b=<lab query>``: two lab states side by side, as pydantic models
(OpenAPI at /docs documents every field).  Strict, as every API of the app: a side's bad parameter is a 422 whose
``loc`` names the side and the field (``["query", "a", "gpus"]``); the page (/{lang}/compare) clamps instead."""

from __future__ import annotations

from urllib.parse import parse_qs

from pydantic import BaseModel, Field, ValidationError, create_model

from app.model import WorkloadInputs, evaluate
from app.model.compare import node_diff, phase_rows
from app.model.inputs import refused
from app.model.planner import MAX_PRICE, PRICES, PlanQuery, plan_query
from app.model.scenarios import open_step
from app.view.compare import MAX_STATE_CHARS, state_query
from app.view.links import canonical_query

_SIDE = ("a lab state: its query (URL-encoded, e.g. method%3Dppo%26gpus%3D16) or a whole lab URL, whose query "
         f"part is read; at most {MAX_STATE_CHARS} characters")
CompareParams = create_model(
    "CompareParams",
    __doc__="Two lab states and, optionally, the price of a GPU type (the planner's parameter).",
    a=(str, Field(max_length=MAX_STATE_CHARS, description="the left side: " + _SIDE)),
    b=(str, Field(max_length=MAX_STATE_CHARS, description="the right side: " + _SIDE)),
    **{f"price_{g}": (float | None, Field(None, gt=0, le=MAX_PRICE, description=(
        f"$ per GPU-hour of {g}; absent: {p.usd_per_gpu_hour} "
        f"({'teaching assumption' if p.teaching else p.provider + ', ' + p.source})")))
       for g, p in PRICES.items()},
)
CompareParams.__module__ = __name__


class CompareRowOut(BaseModel):
    """A figure of both sides (``ROW_IDS`` of app/model/compare.py): null where a side has no such phase."""

    id: str
    unit: str = Field(description="dur (seconds) | gb | gpus | n | g3 (GPU-hours) | usd_cents ($ per GPU-hour) | usd")
    a: float | None
    b: float | None
    delta: float | None = Field(description="b − a")
    ratio: float | None = Field(description="b / a, when both are positive")


class CompareSideOut(BaseModel):
    query: str = Field(description="the side's canonical lab query (/{lang}/?query, /api/evaluate?query)")
    stage: str
    gpu: str
    gpus: int
    usd_per_gpu_hour: float = Field(description="the price its dollars use: price_<gpu> if given, else prices.toml's")
    price_given: bool
    price_teaching: bool = Field(description="prices.toml's price is a teaching assumption (no public list price)")
    price_source: str = Field(description="where prices.toml's price comes from (empty: a teaching assumption)")


class CompareOut(BaseModel):
    a: CompareSideOut
    b: CompareSideOut
    rows: list[CompareRowOut]
    removed: list[str] = Field(description="diagram components active in a only")
    added: list[str] = Field(description="diagram components active in b only")


def strict_side(name: str, text: str) -> tuple[WorkloadInputs | None, list[dict]]:
    """One side, validated as /api/evaluate validates its query (the last of a repeated parameter); the errors'
    ``loc`` is ``("query", name, field)``."""
    raw = {k: v[-1] for k, v in parse_qs(state_query(text), keep_blank_values=True).items()}
    try:
        inputs = WorkloadInputs.model_validate(raw)
    except ValidationError as e:
        return None, [{**err, "loc": ("query", name, *err["loc"])}
                      for err in e.errors(include_url=False, include_context=False)]
    # a bare step link (``a=step=13``) is that step's own workload, as /api/evaluate and the lab read it
    return open_step(inputs, raw), [{**err, "loc": ("query", name, *err["loc"][1:])} for err in refused(inputs)]


def prices_of(params: BaseModel) -> PlanQuery:
    return plan_query(prices={g: getattr(params, f"price_{g}") for g in PRICES})


def _side(inputs: WorkloadInputs, stage: str, q: PlanQuery) -> CompareSideOut:
    pr = PRICES[inputs.gpu]
    return CompareSideOut(query=canonical_query(inputs), stage=stage, gpu=inputs.gpu, gpus=inputs.gpus,
                          usd_per_gpu_hour=q.price(inputs.gpu), price_given=q.price(inputs.gpu) != pr.usd_per_gpu_hour,
                          price_teaching=pr.teaching, price_source=pr.source)


def compare_out(a: WorkloadInputs, b: WorkloadInputs, q: PlanQuery) -> CompareOut:
    ra, rb = evaluate(a), evaluate(b)
    removed, added = node_diff(ra, rb)
    return CompareOut(a=_side(a, ra.stage, q), b=_side(b, rb.stage, q),
                      rows=[CompareRowOut(id=r.id, unit=r.unit, a=r.a, b=r.b, delta=r.delta, ratio=r.ratio)
                            for r in phase_rows(ra, rb, q)],
                      removed=list(removed), added=list(added))
