"""The run planner: what to rent to finish a workload by a deadline, and what it costs.

For one workload (the lab's query) the search tries every GPU type × whole-node count (1 node up to the search
bound, on ``NODE_LADDER``) × placement, and — only where the user allows them, since they change the experiment and
not only its cost — staleness (one step off), offload and LoRA.  Every option is one ``evaluate`` of the lab's own
model, read through ``_figures`` (one place), so each option's hours are those ``/api/evaluate`` answers for its
query.  Its cost is its GPU-hours × the price of its GPU type ($ per GPU-hour, ``PRICES`` from
``data/prices.toml`` unless the query gives ``price_<gpu id>``).

The answer (``Planned``): every option searched, ``cheapest`` (meets the deadline, least dollars), ``fastest``
(within the budget, fewest hours), the ``frontier`` (the Pareto set of hours against dollars), what comes closest when
nothing meets the deadline or the budget, and ``searched`` (what was tried, what was pruned and why, whether the
search was cut at ``MAX_EVALUATIONS``).

Pruning, each from what the model knows, never a skipped evaluation it cannot justify:

* **below the fewest GPUs that fit** (``Plan.min_gpus``, one probe per GPU type and variant): a count below
  it does not fit; the first count searched is that minimum (whole nodes);
* **past the point where the step stops falling**: the step never rises with the GPU count (tests/model/
  test_frontier.py, ``test_more_gpus_never_slow_a_fitting_step``), so once one more rung of the ladder leaves it
  where it was, more GPUs only cost more for the same hours.

Offload is not pruned where less offload fits: the memory it frees can buy a larger micro-batch, a larger KV cache or
another layout, and the model then times the step shorter (tests/model/test_planner.py keeps such a case).

Pure Python: no web imports.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from app.model.assumptions import GPUS
from app.model.evaluate import Result, evaluate
from app.model.inputs import Notice, NumberSpec, WorkloadInputs, _number, effective, fmt_param
from app.model.physics.memory import MAX_GPUS

PRICES_FILE = Path(__file__).parent / "data" / "prices.toml"

# Whole-node counts searched (× the GPUs of one node: 8 on HGX, 4 on a GB200 tray), up to the search bound; the
# fewest nodes that fit is added for each GPU type and variant.  Roughly × 1.5 per rung: the step falls smoothly
# with the count, and a rung between two of these is at most 1.5× the GPUs of the one below.
NODE_LADDER = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
DEFAULT_MAX_GPUS = 1024      # the default search bound (GPUs); a query may raise it to MAX_GPUS
MAX_EVALUATIONS = 2500       # a request never makes the server do more evaluations than this: the search is cut
DEFAULT_DEADLINE_H = 24.0
DEFAULT_BUDGET_USD = 10_000.0
OFFLOADS = ("none", "optimizer", "params")  # in order of what they move to the host


@dataclass(frozen=True, slots=True, kw_only=True)
class Price:
    """One GPU type's default price: $ per GPU-hour and where it comes from (``source`` empty: a teaching
    assumption)."""

    gpu: str
    usd_per_gpu_hour: float
    provider: str
    instance: str
    source: str
    read: str            # the date the price was read
    transcribed: str     # the public file that copies the provider's page ("" when read from the page itself)

    @property
    def teaching(self) -> bool:
        return not self.source


def load_prices(path: Path = PRICES_FILE) -> dict[str, Price]:
    """The default prices, one per GPU id of ``GPUS`` (a missing or extra id stops the app at import)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    if set(data) != set(GPUS):
        raise ValueError(f"{path.name}: prices for {sorted(data)}, GPUs are {sorted(GPUS)}")
    return {g: Price(gpu=g, usd_per_gpu_hour=float(data[g]["usd_per_gpu_hour"]), provider=data[g]["provider"],
                     instance=data[g]["instance"], source=data[g]["source"], read=data[g]["read"],
                     transcribed=data[g]["transcribed"]) for g in GPUS}


PRICES = load_prices()
DEFAULT_PRICES: tuple[tuple[str, float], ...] = tuple((g, p.usd_per_gpu_hour) for g, p in PRICES.items())


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanQuery:
    """What the planner is asked besides the workload: the deadline, the budget, the prices, the opt-ins."""

    deadline_h: float = DEFAULT_DEADLINE_H
    budget_usd: float = DEFAULT_BUDGET_USD
    prices: tuple[tuple[str, float], ...] = DEFAULT_PRICES   # (gpu id, $ per GPU-hour), every GPU id
    allow_staleness: bool = False
    allow_offload: bool = False
    allow_lora: bool = False
    max_gpus: int = DEFAULT_MAX_GPUS

    def price(self, gpu: str) -> float:
        return dict(self.prices)[gpu]


def with_prices(prices: Mapping[str, float | None]) -> tuple[tuple[str, float], ...]:
    """Every GPU id's price: the one given, else the default."""
    return tuple((g, float(prices[g]) if prices.get(g) is not None else p) for g, p in DEFAULT_PRICES)


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionFigures:
    """What the planner reads of one evaluated state (``_figures``): whether it fits on its own GPUs, and then the
    run's hours, GPU-hours, steps, step and memory per GPU (None when it does not fit)."""

    fits: bool
    hours: float | None
    gpu_hours: float | None
    steps: int | None
    step_s: float | None
    memory_per_gpu_gb: float
    min_gpus: int | None


def _figures(result: Result) -> OptionFigures:
    """The one place the planner reads the model's answer for a state: its resolved ``Plan`` (``Result.plan``:
    ``run_hours``, ``gpu_hours``, ``step_s``, ``memory_per_gpu_gb``, whole-host ``min_gpus``, the run's steps).  A
    state fits when its stage's models fit on its own GPUs and the run is timed there: the model times a state that
    does not fit at the fewest GPUs that do, which is another option, not this one."""
    p = result.plan
    fits = bool(p.fits and p.run_hours is not None and p.timed_gpus == result.inputs.gpus)
    return OptionFigures(
        fits=fits, hours=p.run_hours if fits else None, gpu_hours=p.gpu_hours if fits else None,
        steps=p.batch.steps if fits else None, step_s=p.step_s if fits else None,
        memory_per_gpu_gb=p.memory_per_gpu_gb, min_gpus=p.min_gpus)


@dataclass(frozen=True, slots=True, kw_only=True)
class Option:
    """One configuration searched: the hardware, the variant, its figures and its cost, and the inputs that
    reproduce it in the lab (``query``)."""

    gpu: str
    gpus: int
    nodes: int
    placement: str
    staleness: int
    offload: str
    tuning: str
    fits: bool
    hours: float | None
    gpu_hours: float | None
    cost_usd: float | None
    steps: int | None
    step_s: float | None
    memory_per_gpu_gb: float
    usd_per_gpu_hour: float
    inputs: WorkloadInputs

    @property
    def query(self) -> dict[str, str]:
        """The lab's canonical query of this option (``/{lang}/?…``, ``/api/evaluate?…``)."""
        return self.inputs.query()

    @property
    def key(self) -> str:
        return f"{self.gpu}-{self.gpus}-{self.placement}-s{self.staleness}-{self.offload}-{self.tuning}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Searched:
    """What the search tried: GPU types, variants (placement × staleness × offload × tuning), node counts, the
    evaluations it made, the counts it pruned and why (below the fewest GPUs that fit; past a step that stopped
    falling), its bound, and whether it was cut."""

    gpus: tuple[str, ...]
    variants: tuple[str, ...]
    node_ladder: tuple[int, ...]
    max_gpus: int
    evaluations: int
    options: int
    pruned_below_min: int
    pruned_flat: int
    cut: bool
    max_evaluations: int = MAX_EVALUATIONS


@dataclass(frozen=True, slots=True, kw_only=True)
class Planned:
    """The planner's answer for one workload and one ``PlanQuery``."""

    workload: WorkloadInputs
    query: PlanQuery
    loop: str                                # rl | dpo | none (nothing trains: no run to plan)
    options: tuple[Option, ...]
    cheapest: Option | None                  # meets the deadline, least dollars
    fastest: Option | None                   # within the budget, fewest hours
    frontier: tuple[Option, ...]             # the Pareto set of hours against dollars, cheapest first
    closest_to_deadline: Option | None       # nothing meets the deadline: the fastest option that fits
    late_by_h: float | None
    closest_to_budget: Option | None         # nothing is within the budget: the cheapest option that fits
    over_budget_by_usd: float | None
    searched: Searched

    @property
    def fitting(self) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.fits)

    @property
    def nothing_fits(self) -> bool:
        return not self.fitting

    @property
    def status(self) -> str:
        """ok (an option meets the deadline) | late (options fit, none in time) | nothing_fits | no_loop."""
        if self.loop == "none":
            return "no_loop"
        if self.nothing_fits:
            return "nothing_fits"
        return "ok" if self.cheapest is not None else "late"


def _variant_name(placement: str, staleness: int, offload: str, tuning: str) -> str:
    return f"{placement}-s{staleness}-{offload}-{tuning}"


def variants(base: WorkloadInputs, q: PlanQuery, loop: str) -> tuple[tuple[tuple[str, int, str], tuple[str, ...]], ...]:
    """The variants searched on every GPU type: ((placement, staleness, tuning), the offloads in order).  The
    workload's own staleness, offload and tuning always; with an opt-in, the others too (staleness: on-policy and
    one step off).  A staleness of one step or more runs separately (``effective``); DPO has no placement."""
    stalenesses = sorted({base.staleness} | ({0, 1} if q.allow_staleness and loop == "rl" else set()))
    tunings = sorted({base.tuning} | ({"full", "lora"} if q.allow_lora else set()))
    offloads = tuple(o for o in OFFLOADS if o == base.offload or q.allow_offload)
    out = []
    for s in stalenesses:
        placements = (("colocated", "separate") if s == 0 else ("separate",)) if loop == "rl" else ("colocated",)
        out += [((p, s, t), offloads) for p in placements for t in tunings]
    return tuple(out)


def counts_of(gpu: str, max_gpus: int) -> tuple[int, ...]:
    """The whole-node GPU counts of ``NODE_LADDER`` on ``gpu`` up to ``max_gpus`` (at least one node).

    >>> counts_of("h100_80g", 64), counts_of("gb200_186g", 24)
    ((8, 16, 24, 32, 48, 64), (4, 8, 12, 16, 24))
    """
    node = GPUS[gpu].node_gpus
    return tuple(n * node for n in NODE_LADDER if n * node <= max(max_gpus, node))


def pareto(options: tuple[Option, ...] | list[Option]) -> tuple[Option, ...]:
    """The options no other beats on both hours and dollars (fitting options only), cheapest first.

    Sorted by (cost, hours), an option is on the frontier exactly when it is faster than every cheaper one."""
    out: list[Option] = []
    best = math.inf
    for o in sorted((o for o in options if o.fits), key=lambda o: (o.cost_usd, o.hours, o.gpus)):
        if o.hours < best:  # type: ignore[operator]
            out.append(o)
            best = o.hours  # type: ignore[assignment]
    return tuple(out)


def choose(options: tuple[Option, ...], deadline_h: float, budget_usd: float) -> dict[str, object]:
    """``cheapest``, ``fastest`` and, when there is none, what comes closest and by how much."""
    fit = [o for o in options if o.fits]
    cheapest = min((o for o in fit if o.hours <= deadline_h), key=lambda o: (o.cost_usd, o.hours, o.gpus),  # type: ignore[operator]
                   default=None)
    fastest = min((o for o in fit if o.cost_usd <= budget_usd), key=lambda o: (o.hours, o.cost_usd, o.gpus),  # type: ignore[operator]
                  default=None)
    late = min(fit, key=lambda o: (o.hours, o.cost_usd, o.gpus), default=None) if cheapest is None else None
    over = min(fit, key=lambda o: (o.cost_usd, o.hours, o.gpus), default=None) if fastest is None else None
    return dict(cheapest=cheapest, fastest=fastest,
                closest_to_deadline=late, late_by_h=late.hours - deadline_h if late else None,  # type: ignore[operator]
                closest_to_budget=over, over_budget_by_usd=over.cost_usd - budget_usd if over else None)  # type: ignore[operator]


def plan(workload: WorkloadInputs, q: PlanQuery = PlanQuery()) -> Planned:
    """Search the options for ``workload`` (the module docstring says what and how), price them and choose among
    them.  The search depends on the workload, the bound and the opt-ins only (``search``, cached): a new deadline,
    budget or price reprices the same options."""
    base = effective(workload).model_copy(update={"step": None, "generation_gpus": 0})
    max_gpus = min(max(q.max_gpus, 1), MAX_GPUS)
    loop, unpriced, searched = search(base, max_gpus, q.allow_staleness, q.allow_offload, q.allow_lora,
                                      MAX_EVALUATIONS)
    found = tuple(_priced(o, q.price(o.gpu)) for o in unpriced)
    return Planned(workload=base, query=replace(q, max_gpus=max_gpus), loop=loop, options=found,
                   frontier=pareto(found), searched=searched, **choose(found, q.deadline_h, q.budget_usd))  # type: ignore[arg-type]


def _priced(o: Option, price: float) -> Option:
    return replace(o, usd_per_gpu_hour=price, cost_usd=o.gpu_hours * price if o.fits else None)  # type: ignore[operator]


@lru_cache(maxsize=128)
def search(base: WorkloadInputs, max_gpus: int, allow_staleness: bool, allow_offload: bool, allow_lora: bool,
           max_evaluations: int = MAX_EVALUATIONS) -> tuple[str, tuple[Option, ...], Searched]:
    """The options searched for ``base`` (effective inputs, no split, no walkthrough step), unpriced (a price of
    0, no cost), with what was searched: (the loop, the options, ``Searched``).  A pure function of its
    arguments, cached."""
    loop = evaluate(base).plan.kind  # what trains: rl | dpo | none (the plan's answer, one home for the stage)
    flags = PlanQuery(allow_staleness=allow_staleness, allow_offload=allow_offload, allow_lora=allow_lora)
    vs = variants(base, flags, loop) if loop != "none" else ()
    names = tuple(_variant_name(p, s, o, t) for (p, s, t), offs in vs for o in offs)
    options: list[Option] = []
    evaluations = below = flat = 0
    cut = False

    def option(gpu: str, gpus: int, p: str, s: int, o: str, t: str) -> tuple[Option, OptionFigures]:
        nonlocal evaluations
        evaluations += 1
        inputs = base.model_copy(update={"gpu": gpu, "gpus": gpus, "placement": p, "staleness": s, "offload": o,
                                         "tuning": t})
        f = _figures(evaluate(inputs))
        return Option(gpu=gpu, gpus=gpus, nodes=gpus // GPUS[gpu].node_gpus, placement=p, staleness=s, offload=o,
                      tuning=t, fits=f.fits, hours=f.hours, gpu_hours=f.gpu_hours, cost_usd=None, steps=f.steps,
                      step_s=f.step_s, memory_per_gpu_gb=f.memory_per_gpu_gb, usd_per_gpu_hour=0.0,
                      inputs=inputs), f

    for gpu in GPUS:
        node = GPUS[gpu].node_gpus
        ladder = counts_of(gpu, max_gpus)
        for (p, s, t), offs in vs:
            for o in offs:
                if evaluations >= max_evaluations:
                    cut = True
                    break
                probe, f = option(gpu, ladder[0], p, s, o, t)
                if f.min_gpus is None or f.min_gpus > ladder[-1]:
                    below += len(ladder)
                    continue
                first = math.ceil(f.min_gpus / node) * node
                counts = sorted({c for c in ladder if c >= first} | {first})
                below += sum(1 for c in ladder if c < first)
                previous: float | None = None
                for k, c in enumerate(counts):
                    if evaluations >= max_evaluations:
                        cut = True
                        break
                    opt, g = (probe, f) if c == ladder[0] else option(gpu, c, p, s, o, t)
                    options.append(opt)
                    if not g.fits:
                        continue
                    if previous is not None and g.step_s >= previous:  # type: ignore[operator]
                        flat += len(counts) - k - 1
                        break
                    previous = g.step_s
            if cut:
                break
        if cut:
            break
    found = tuple(options)
    return loop, found, Searched(gpus=tuple(GPUS), variants=names, node_ladder=NODE_LADDER, max_gpus=max_gpus,
                                 evaluations=evaluations, options=len(found), pruned_below_min=below,
                                 pruned_flat=flat, cut=cut, max_evaluations=max_evaluations)


# --- the planner's own parameters: names, ranges, defaults; strict (the API) and clamped with notices (the page) ---

MAX_DEADLINE_H = 100_000.0   # about 11 years
MAX_BUDGET_USD = 1e9
MAX_PRICE = 1_000.0          # $ per GPU-hour
PLAN_NUMBERS: tuple[NumberSpec, ...] = (
    NumberSpec("deadline_h", DEFAULT_DEADLINE_H, 0.1, MAX_DEADLINE_H, False, "h", (), "plan",
               "the run must finish within this many hours (wall clock)"),
    NumberSpec("budget_usd", DEFAULT_BUDGET_USD, 0, MAX_BUDGET_USD, False, "$", (), "plan",
               "the most the run may cost, in dollars"),
    NumberSpec("max_gpus", DEFAULT_MAX_GPUS, 1, MAX_GPUS, True, "GPUs", (), "plan",
               "the search bound: the most GPUs an option may rent"),
    *(NumberSpec(f"price_{g}", p, 0.01, MAX_PRICE, False, "$ per GPU-hour", (), "price",
                 f"the price of one {g} GPU for an hour (default {p})") for g, p in DEFAULT_PRICES),
)
PLAN_SPECS = {s.name: s for s in PLAN_NUMBERS}
OPT_INS = ("allow_staleness", "allow_offload", "allow_lora")
_TRUE, _FALSE = ("1", "on", "true", "yes"), ("0", "off", "false", "no", "")


def plan_query(deadline_h: float = DEFAULT_DEADLINE_H, budget_usd: float = DEFAULT_BUDGET_USD,
               max_gpus: int = DEFAULT_MAX_GPUS, prices: Mapping[str, float | None] | None = None,
               **opt_ins: bool) -> PlanQuery:
    """A ``PlanQuery`` from its parameters (the API's validated ones, the CLI's)."""
    return PlanQuery(deadline_h=float(deadline_h), budget_usd=float(budget_usd), max_gpus=int(max_gpus),
                     prices=with_prices(prices or {}), **{k: bool(opt_ins.get(k, False)) for k in OPT_INS})


def normalise_plan(query: Mapping[str, str | Sequence[str]]) -> tuple[PlanQuery, tuple[Notice, ...]]:
    """The page's reading of the planner's parameters: a value out of range is clamped, one that is not a number
    takes the default, each with a ``Notice`` naming the field (as ``inputs.normalise`` does for the workload).
    Never raises.

    >>> q, n = normalise_plan({"deadline_h": "-3", "price_h100_80g": "abc", "allow_lora": "1"})
    >>> q.deadline_h, q.price("h100_80g") == PRICES["h100_80g"].usd_per_gpu_hour, q.allow_lora, [x.kind for x in n]
    (0.1, True, True, ['below_min', 'invalid'])
    """
    values: dict[str, float | int] = {}
    notices: list[Notice] = []
    for spec in PLAN_NUMBERS:
        raw = query.get(spec.name)
        if raw is None:
            continue
        text = (raw if isinstance(raw, str) else (raw[-1] if raw else "")).strip()
        if text == "" and spec.group == "price":
            continue  # an empty price field: the default, silently (the form shows the default as a placeholder)
        value, kind = _number(spec, text)
        if kind:
            notices.append(Notice(spec.name, kind, text[:40], fmt_param(spec.default if value is None else value)))
        if value is not None:
            values[spec.name] = value
    flags: dict[str, bool] = {}
    for name in OPT_INS:
        raw = query.get(name)
        if raw is None:
            continue
        text = (raw if isinstance(raw, str) else (raw[-1] if raw else "")).strip().lower()
        flags[name] = text in _TRUE
        if text not in _TRUE + _FALSE:
            notices.append(Notice(name, "invalid", text[:40], "0"))
    prices = {g: values.get(f"price_{g}") for g in GPUS}
    q = plan_query(deadline_h=values.get("deadline_h", DEFAULT_DEADLINE_H),
                   budget_usd=values.get("budget_usd", DEFAULT_BUDGET_USD),
                   max_gpus=int(values.get("max_gpus", DEFAULT_MAX_GPUS)), prices=prices, **flags)
    return q, tuple(notices)
