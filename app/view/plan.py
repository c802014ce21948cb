"""The planner's answer as JSON (``GET /api/plan``, pydantic models: OpenAPI documents every field) and as the page
(``/{lang}/plan``: frozen view-models; the chart's coordinates and every flag the template tests are computed here,
the template compares nothing)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal
from urllib.parse import urlencode

from pydantic import BaseModel, Field, create_model

from app.model import WorkloadInputs
from app.model.assumptions import GPUS
from app.model.bands import band_of
from app.model.inputs import Notice
from app.model.physics.memory import MAX_GPUS
from app.model.planner import (
    DEFAULT_BUDGET_USD,
    DEFAULT_DEADLINE_H,
    DEFAULT_MAX_GPUS,
    MAX_BUDGET_USD,
    MAX_DEADLINE_H,
    MAX_PRICE,
    OPT_INS,
    PRICES,
    Option,
    Planned,
    PlanQuery,
    plan,
    plan_query,
)
from app.view.lab import other
from app.view.links import canonical_query

# --- the API ---------------------------------------------------------------------------------------------------

PlanParams = create_model(  # the workload's parameters (as /api/evaluate) and the planner's own
    "PlanParams",
    __base__=WorkloadInputs,
    __doc__="A workload (the lab's parameters) and what the planner is asked: deadline, budget, prices, opt-ins.",
    deadline_h=(float, Field(DEFAULT_DEADLINE_H, gt=0, le=MAX_DEADLINE_H,
                             description="the run must finish within this many hours (wall clock)")),
    budget_usd=(float, Field(DEFAULT_BUDGET_USD, ge=0, le=MAX_BUDGET_USD, description="the most the run may cost ($)")),
    max_gpus=(int, Field(DEFAULT_MAX_GPUS, ge=1, le=MAX_GPUS,
                         description="the search bound: the most GPUs an option may rent")),
    allow_staleness=(bool, Field(False, description="also search one-step-off generation (staleness 0 and 1): "
                                                    "changes the experiment, off by default")),
    allow_offload=(bool, Field(False, description="also search optimizer / parameter offload where it makes a "
                                                  "count fit: changes the step, off by default")),
    allow_lora=(bool, Field(False, description="also search LoRA adapters and full fine-tuning: changes the "
                                               "experiment, off by default")),
    **{f"price_{g}": (float | None, Field(None, gt=0, le=MAX_PRICE, description=(
        f"$ per GPU-hour of {g}; absent: {p.usd_per_gpu_hour} "
        f"({'teaching assumption' if p.teaching else p.provider + ', ' + p.source})")))
       for g, p in PRICES.items()},
)
PlanParams.__module__ = __name__
_WORKLOAD_FIELDS = tuple(WorkloadInputs.model_fields)


def split_params(params: BaseModel) -> tuple[WorkloadInputs, PlanQuery]:
    """The validated query → the workload and the ``PlanQuery``."""
    workload = WorkloadInputs.model_construct(**{k: getattr(params, k) for k in _WORKLOAD_FIELDS})
    q = plan_query(deadline_h=params.deadline_h, budget_usd=params.budget_usd, max_gpus=params.max_gpus,
                   prices={g: getattr(params, f"price_{g}") for g in GPUS},
                   **{k: getattr(params, k) for k in OPT_INS})
    return workload, q


class BandOut(BaseModel):
    kind: str = Field(description="h100 | h20 | gb200_dense | gb200_moe | all: the published rows of this kind of "
                                  "run (app/model/bands.py)")
    low: float = Field(description="on those rows the lab's step was low–high × the published one")
    high: float
    median: float
    rows: int


class OptionOut(BaseModel):
    """One configuration searched."""

    gpu: str
    gpus: int
    nodes: int = Field(description="whole nodes: 8 GPUs each (HGX), 4 on a GB200 tray")
    placement: Literal["colocated", "separate"]
    staleness: int
    offload: Literal["none", "optimizer", "params"]
    tuning: Literal["full", "lora"]
    fits: bool = Field(description="the models fit on these GPUs and the run is timed on them")
    hours: float | None = Field(description="the run's wall clock (equal to /api/evaluate's run.hours for query)")
    gpu_hours: float | None
    cost_usd: float | None = Field(description="gpu_hours × usd_per_gpu_hour")
    steps: int | None
    step_s: float | None
    memory_per_gpu_gb: float
    usd_per_gpu_hour: float
    band: BandOut
    query: dict[str, str] = Field(description="the lab state that reproduces it: /{lang}/?…, /api/evaluate?…")


class PriceOut(BaseModel):
    usd_per_gpu_hour: float = Field(description="the price used")
    default: float
    given: bool = Field(description="the query set it (price_<gpu id>)")
    teaching: bool = Field(description="the default is a teaching assumption, not a published list price")
    provider: str
    instance: str
    source: str
    read: str


class SearchedOut(BaseModel):
    gpus: list[str]
    variants: list[str] = Field(description="placement-staleness-offload-tuning combinations searched")
    node_ladder: list[int]
    max_gpus: int
    evaluations: int
    options: int
    pruned_below_min: int = Field(description="counts below the fewest GPUs that fit: they do not fit")
    pruned_flat: int = Field(description="counts past the point where the step stopped falling: only dearer")
    cut: bool = Field(description="the search reached max_evaluations and stopped")
    max_evaluations: int


class PlanOut(BaseModel):
    """The planner's answer."""

    status: Literal["ok", "late", "nothing_fits", "no_loop"]
    message: str = Field(description="the answer in one English sentence")
    deadline_h: float
    budget_usd: float
    options: list[OptionOut]
    cheapest: OptionOut | None = Field(description="meets deadline_h, least dollars")
    fastest: OptionOut | None = Field(description="within budget_usd, fewest hours")
    frontier: list[OptionOut] = Field(description="the Pareto set of hours against dollars, cheapest first")
    closest_to_deadline: OptionOut | None = Field(description="when nothing meets the deadline: the fastest option")
    late_by_h: float | None
    closest_to_budget: OptionOut | None = Field(description="when nothing is within the budget: the cheapest option")
    over_budget_by_usd: float | None
    searched: SearchedOut
    prices: dict[str, PriceOut]
    workload: dict[str, str] = Field(description="the workload's canonical query")


def _option_out(o: Option | None, p: Planned) -> dict | None:
    if o is None:
        return None
    b = band_of(p.workload, o.gpu)
    return dict(gpu=o.gpu, gpus=o.gpus, nodes=o.nodes, placement=o.placement, staleness=o.staleness,
                offload=o.offload, tuning=o.tuning, fits=o.fits, hours=o.hours, gpu_hours=o.gpu_hours,
                cost_usd=o.cost_usd, steps=o.steps, step_s=o.step_s, memory_per_gpu_gb=o.memory_per_gpu_gb,
                usd_per_gpu_hour=o.usd_per_gpu_hour, band=dict(kind=b.kind, low=b.low, high=b.high, median=b.median, rows=b.rows),
                query=o.query)


def _name(o: Option) -> str:
    return f"{o.gpu} × {o.gpus} ({o.placement}{', staleness ' + str(o.staleness) if o.staleness else ''}" \
           f"{', offload ' + o.offload if o.offload != 'none' else ''}{', LoRA' if o.tuning == 'lora' else ''})"


def message(p: Planned) -> str:
    """The answer in one sentence (the API's ``message``, the command line's last line)."""
    q = p.query
    if p.status == "no_loop":
        return "nothing to plan: this state trains no RL or DPO loop (SFT or the reward model only)"
    if p.status == "nothing_fits":
        return f"nothing fits: no GPU type holds this workload on up to {q.max_gpus:,} GPUs"
    if p.status == "late":
        o = p.closest_to_deadline
        return (f"nothing meets the deadline of {q.deadline_h:g} h: closest is {_name(o)} at {o.hours:.1f} h, "  # type: ignore[union-attr]
                f"by {p.late_by_h:.1f} h (${o.cost_usd:,.0f})")  # type: ignore[union-attr]
    o = p.cheapest
    return (f"cheapest within {q.deadline_h:g} h: {_name(o)}, {o.hours:.1f} h, ${o.cost_usd:,.0f}")  # type: ignore[union-attr]


def plan_out(p: Planned) -> dict:
    """The answer as the API's JSON (``PlanOut``'s fields)."""
    q = p.query
    return dict(
        status=p.status, message=message(p), deadline_h=q.deadline_h, budget_usd=q.budget_usd,
        options=[_option_out(o, p) for o in p.options], cheapest=_option_out(p.cheapest, p),
        fastest=_option_out(p.fastest, p), frontier=[_option_out(o, p) for o in p.frontier],
        closest_to_deadline=_option_out(p.closest_to_deadline, p), late_by_h=p.late_by_h,
        closest_to_budget=_option_out(p.closest_to_budget, p), over_budget_by_usd=p.over_budget_by_usd,
        searched=dict(gpus=list(p.searched.gpus), variants=list(p.searched.variants),
                      node_ladder=list(p.searched.node_ladder), max_gpus=p.searched.max_gpus,
                      evaluations=p.searched.evaluations, options=p.searched.options,
                      pruned_below_min=p.searched.pruned_below_min, pruned_flat=p.searched.pruned_flat,
                      cut=p.searched.cut,
                      max_evaluations=p.searched.max_evaluations),
        prices={g: dict(usd_per_gpu_hour=q.price(g), default=pr.usd_per_gpu_hour,
                        given=q.price(g) != pr.usd_per_gpu_hour, teaching=pr.teaching, provider=pr.provider,
                        instance=pr.instance, source=pr.source, read=pr.read, transcribed=pr.transcribed)
                for g, pr in PRICES.items()},
        workload=p.workload.query())


@lru_cache(maxsize=256)
def planned(workload: WorkloadInputs, q: PlanQuery) -> Planned:
    """The search, once per (workload, query): the answer is a pure function of them."""
    return plan(workload, q)


@lru_cache(maxsize=256)
def plan_json(workload: WorkloadInputs, q: PlanQuery) -> bytes:
    return json.dumps(plan_out(planned(workload, q)), ensure_ascii=False, separators=(",", ":")).encode()


# --- the page --------------------------------------------------------------------------------------------------

W, H = 640, 380                        # the chart's viewBox
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 16, 44


@dataclass(frozen=True, slots=True, kw_only=True)
class Tick:
    pos: float           # on its axis
    value: float
    label_x: float       # where its label goes
    label_y: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Mark:
    """The ring (cheapest) or square (fastest) around a chart point and its label's place."""

    x: float
    y: float
    corner_x: float
    corner_y: float
    label_x: float
    label_y: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Row:
    """One option as the page shows it: its figures, its links, its band and what it is."""

    key: str
    gpu: str
    gpus: int
    nodes: int
    placement: str
    staleness: int
    offload: str
    tuning: str
    hours: float
    cost_usd: float
    gpu_hours: float
    step_s: float
    usd_per_gpu_hour: float
    lab_url: str
    launch_url: str
    band_key: str
    band_low: float
    band_high: float
    band_median: float
    band_rows: int
    frontier: bool
    cheapest: bool
    fastest: bool
    x: float = 0.0                      # the chart's coordinates
    y: float = 0.0
    compare_url: str = ""               # the compare page of the answer (cheapest, else fastest) and this option

    @property
    def gpu_key(self) -> str:
        return f"choice.gpu.{self.gpu}"

    @property
    def placement_key(self) -> str:
        return f"choice.placement.{self.placement}"

    @property
    def offload_key(self) -> str:
        return f"choice.offload.{self.offload}"

    @property
    def separate(self) -> bool:
        return self.placement == "separate"

    @property
    def offloaded(self) -> bool:
        return self.offload != "none"

    @property
    def lora(self) -> bool:
        return self.tuning == "lora"

    @property
    def radius(self) -> int:
        return 6 if self.frontier else 4

    @property
    def css(self) -> str:
        return f"pt gpu-{self.gpu}" + (" sep" if self.separate else "") + (" fr" if self.frontier else "")


@dataclass(frozen=True, slots=True, kw_only=True)
class Chart:
    width: int
    height: int
    x0: float              # the plot area: x0..x1 (left to right), y0..y1 (top to bottom)
    x1: float
    y0: float
    y1: float
    points: tuple[Row, ...]
    frontier_path: str
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    deadline_y: float
    deadline_label_x: float
    deadline_label_y: float
    budget_x: float
    budget_label_x: float
    budget_label_y: float
    x_label_x: float
    x_label_y: float
    y_label_x: float
    y_label_y: float
    y_label_rotate: str
    cheapest: Mark | None
    fastest: Mark | None


def read_key(transcribed: str) -> str:
    """A price's reading line: the date, and the public file that copies the provider's page where it was read there
    (zh 「（读取于 2026-09-20，转录自 …）」)."""
    return "plan.ref.read_line" if transcribed else "plan.ref.read_only"


@dataclass(frozen=True, slots=True, kw_only=True)
class PriceField:
    gpu: str
    name: str
    value: float
    default: float
    given: bool
    teaching: bool
    provider: str
    instance: str
    source: str
    read: str
    transcribed: str

    @property
    def read_key(self) -> str:
        return read_key(self.transcribed)

    @property
    def gpu_key(self) -> str:
        return f"choice.gpu.{self.gpu}"


@dataclass(frozen=True, slots=True, kw_only=True)
class SortLink:
    key: str
    url: str
    current: bool

    @property
    def label_key(self) -> str:
        return f"plan.sort.{self.key}"


SORTS = ("cost", "hours", "gpus", "gpu")


def _scale(lo: float, hi: float, a: float, b: float):  # noqa: ANN202
    """A log scale from [lo, hi] to [a, b]."""
    llo, lhi = math.log10(lo), math.log10(hi)
    span = (lhi - llo) or 1.0
    return lambda v: round(a + (math.log10(max(v, lo)) - llo) / span * (b - a), 1)


def _ticks(lo: float, hi: float) -> tuple[float, ...]:
    """1, 2, 5 × 10^k within [lo, hi] (at most about eight)."""
    out = []
    for k in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1):
        for m in (1, 2, 5):
            v = m * 10.0 ** k
            if lo <= v <= hi:
                out.append(v)
    while len(out) > 8:
        out = out[::2]
    return tuple(out)


def _compare_url(lang: str, answer: Option | None, o: Option, q: PlanQuery) -> str:
    """The compare page of two options (the answer as ``a``, ``o`` as ``b``), at the planner's prices; none for the
    answer itself, or without one."""
    if answer is None or o is answer:
        return ""
    prices = {f"price_{g}": f"{q.price(g):g}" for g in GPUS if q.price(g) != PRICES[g].usd_per_gpu_hour}
    return f"/{lang}/compare?{urlencode({'a': canonical_query(answer.inputs), 'b': canonical_query(o.inputs), **prices})}"


def _row(o: Option, p: Planned, lang: str, frontier: frozenset[str]) -> Row:
    b = band_of(p.workload, o.gpu)
    query = canonical_query(o.inputs)
    return Row(key=o.key, gpu=o.gpu, gpus=o.gpus, nodes=o.nodes, placement=o.placement, staleness=o.staleness,
               offload=o.offload, tuning=o.tuning, hours=o.hours, cost_usd=o.cost_usd, gpu_hours=o.gpu_hours,  # type: ignore[arg-type]
               step_s=o.step_s, usd_per_gpu_hour=o.usd_per_gpu_hour, lab_url=f"/{lang}/?{query}",  # type: ignore[arg-type]
               launch_url=f"/{lang}/launch?{query}", band_key=f"plan.band.{b.kind}", band_low=b.low,
               band_high=b.high, band_median=b.median, band_rows=b.rows, frontier=o.key in frontier, cheapest=o is p.cheapest, fastest=o is p.fastest,
               compare_url=_compare_url(lang, p.cheapest or p.fastest, o, p.query))


def chart(p: Planned, rows: tuple[Row, ...]) -> Chart:
    """Hours (y, log) against dollars (x, log): every fitting option a point, the frontier a line, the deadline and
    the budget as lines; the ranges include both."""
    q = p.query
    costs = [r.cost_usd for r in rows] + [q.budget_usd]
    hours = [r.hours for r in rows] + [q.deadline_h]
    x_lo, x_hi = max(min(costs), 1e-2) / 1.25, max(max(costs), 1e-2) * 1.25
    y_lo, y_hi = max(min(hours), 1e-3) / 1.25, max(max(hours), 1e-3) * 1.25
    sx = _scale(x_lo, x_hi, LEFT, W - RIGHT)
    sy = _scale(y_lo, y_hi, H - BOTTOM, TOP)
    placed = tuple(replace(r, x=sx(r.cost_usd), y=sy(r.hours)) for r in rows)
    # the frontier and the two choices drawn last, on top
    placed = tuple(sorted(placed, key=lambda r: (r.frontier, r.cheapest or r.fastest)))
    front = sorted((r for r in placed if r.frontier), key=lambda r: r.cost_usd)
    x0, x1, y0, y1 = LEFT, W - RIGHT, TOP, H - BOTTOM
    dy, bx = sy(q.deadline_h), sx(q.budget_usd)
    cheap = next((r for r in placed if r.cheapest), None)
    fast = next((r for r in placed if r.fastest), None)
    return Chart(width=W, height=H, x0=x0, x1=x1, y0=y0, y1=y1, points=placed,
                 frontier_path=" ".join(f"{r.x},{r.y}" for r in front),
                 x_ticks=tuple(Tick(pos=sx(v), value=v, label_x=sx(v), label_y=y1 + 16) for v in _ticks(x_lo, x_hi)),
                 y_ticks=tuple(Tick(pos=sy(v), value=v, label_x=x0 - 6, label_y=sy(v) + 4)
                               for v in _ticks(y_lo, y_hi)),
                 deadline_y=dy, deadline_label_x=x1 - 4, deadline_label_y=dy - 4,
                 budget_x=bx, budget_label_x=bx + 4, budget_label_y=y0 + 12,
                 x_label_x=(x0 + x1) / 2, x_label_y=H - 6, y_label_x=14, y_label_y=(y0 + y1) / 2,
                 y_label_rotate=f"rotate(-90 14 {(y0 + y1) / 2})",
                 cheapest=Mark(x=cheap.x, y=cheap.y, corner_x=cheap.x - 10, corner_y=cheap.y - 10,
                               label_x=cheap.x + 14, label_y=cheap.y + 16) if cheap else None,
                 fastest=Mark(x=fast.x, y=fast.y, corner_x=fast.x - 10, corner_y=fast.y - 10,
                              label_x=fast.x + 14, label_y=fast.y - 12) if fast else None)


def _sorted(rows: tuple[Row, ...], sort: str) -> tuple[Row, ...]:
    key = {"cost": lambda r: (r.cost_usd, r.hours), "hours": lambda r: (r.hours, r.cost_usd),
           "gpus": lambda r: (r.gpus, r.cost_usd), "gpu": lambda r: (r.gpu, r.gpus, r.cost_usd)}[sort]
    return tuple(sorted(rows, key=key))


def plan_query_string(workload: WorkloadInputs, q: PlanQuery, **extra: str) -> str:
    """The page's own query: the workload's canonical query, then the planner's parameters that differ from their
    defaults (a price only when it is not the default)."""
    parts = {"deadline_h": f"{q.deadline_h:g}", "budget_usd": f"{q.budget_usd:g}"}
    if q.max_gpus != DEFAULT_MAX_GPUS:
        parts["max_gpus"] = str(q.max_gpus)
    parts |= {f"price_{g}": f"{q.price(g):g}" for g in GPUS if q.price(g) != PRICES[g].usd_per_gpu_hour}
    parts |= {k: "1" for k in OPT_INS if getattr(q, k)}
    parts |= extra
    return canonical_query(workload) + "&" + urlencode(parts)


def price_rows(q: PlanQuery | None = None) -> tuple[PriceField, ...]:
    """Every GPU type's price: the one used (``q``; else the default), the default and its source."""
    return tuple(PriceField(gpu=g, name=f"price_{g}", value=q.price(g) if q else pr.usd_per_gpu_hour,
                            default=pr.usd_per_gpu_hour, given=bool(q) and q.price(g) != pr.usd_per_gpu_hour,
                            teaching=pr.teaching, provider=pr.provider, instance=pr.instance, source=pr.source,
                            read=pr.read, transcribed=pr.transcribed)
                 for g, pr in PRICES.items())


def plan_context(lang: str, workload: WorkloadInputs, q: PlanQuery, notices: tuple[Notice, ...],
                 sort: str = "cost") -> dict:
    """Everything plan.html shows."""
    p = planned(workload, q)
    sort = sort if sort in SORTS else "cost"
    on_frontier = frozenset(o.key for o in p.frontier)
    rows = tuple(_row(o, p, lang, on_frontier) for o in p.options if o.fits)
    ch = chart(p, rows)
    by_key = {r.key: r for r in ch.points}
    frontier = _sorted(tuple(by_key[o.key] for o in p.frontier), sort)
    w = p.workload
    here = plan_query_string(workload, q)
    return {
        "lang": lang, "other_lang": other(lang), "page": "plan", "notices": notices, "plan": p, "q": q,
        "status": p.status, "ok": p.status == "ok", "late": p.status == "late",
        "nothing_fits": p.status == "nothing_fits", "no_loop": p.status == "no_loop",
        "chart": ch, "has_points": bool(ch.points), "frontier": frontier,
        "cheapest": by_key.get(p.cheapest.key) if p.cheapest else None,
        "fastest": by_key.get(p.fastest.key) if p.fastest else None,
        "closest": by_key.get(p.closest_to_deadline.key) if p.closest_to_deadline else None,
        "closest_budget": by_key.get(p.closest_to_budget.key) if p.closest_to_budget else None,
        "over_budget": p.fastest is None and p.closest_to_budget is not None,
        "searched": p.searched, "workload": w,
        "workload_fields": tuple((k, v) for k, v in w.query().items()),
        "prices": price_rows(q),
        "opt_ins": tuple((k, f"input.{k}.label", getattr(q, k)) for k in OPT_INS),
        "sorts": tuple(SortLink(key=s, url=f"/{lang}/plan?{plan_query_string(workload, q, sort=s)}#plan-table",
                                current=s == sort) for s in SORTS),
        "method_key": f"method.short.{w.method}", "arch_key": f"choice.arch.{w.arch}",
        "points_count": len(ch.points), "frontier_count": len(frontier),
        "lab_url": f"/{lang}/?{canonical_query(w)}",
        "api_url": f"/api/plan?{here}",
        "switch_url": f"/{other(lang)}/plan?{here}",
        "options_fit": len(rows), "options_all": len(p.options),
    }
