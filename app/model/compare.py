"""Two methods on the same workload: the counterpart the compare view shows by default, which pipeline nodes one
side has that the other does not, and what each phase and meter does between them."""

from __future__ import annotations

from dataclasses import dataclass

from app.model.evaluate import Result
from app.model.inputs import GRPO_GROUP, METHOD_KL, WorkloadInputs, with_method
from app.model.planner import PlanQuery
from app.model.stages import NODE_IDS

# with_method, METHOD_KL and GRPO_GROUP live in inputs (an input transformation, which evaluate uses too: no import
# cycle); they stay importable from here
__all__ = ["DEFAULT_OTHER", "GRPO_GROUP", "METHOD_KL", "METHODS", "PAIRS", "ROW_IDS", "ROW_UNITS", "Row",
           "counterpart", "node_diff", "phase_rows", "with_method"]

METHODS = ("ppo", "grpo", "dpo")

# The default pair: PPO → GRPO (the 2026 comparison), GRPO → PPO, DPO → PPO
DEFAULT_OTHER = {"ppo": "grpo", "grpo": "ppo", "dpo": "ppo"}
# The pairs the compare page offers, left → right
PAIRS: tuple[tuple[str, str], ...] = (("ppo", "grpo"), ("ppo", "dpo"), ("grpo", "dpo"))


def counterpart(inputs: WorkloadInputs) -> WorkloadInputs:
    """The same workload under the default other method (``DEFAULT_OTHER``).

    >>> counterpart(WorkloadInputs(method="ppo")).method, counterpart(WorkloadInputs(method="dpo")).method
    ('grpo', 'ppo')
    """
    return with_method(inputs, DEFAULT_OTHER[inputs.method])


def node_diff(a: Result, b: Result) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(nodes active in ``a`` only: what ``b`` removes, nodes active in ``b`` only: what it adds)."""
    removed = tuple(n for n in NODE_IDS if a.nodes[n].active and not b.nodes[n].active)
    added = tuple(n for n in NODE_IDS if b.nodes[n].active and not a.nodes[n].active)
    return removed, added


@dataclass(frozen=True, slots=True)
class Row:
    """One figure of both sides: its id, the two values (None: the side has no such phase), the unit the page
    formats it in (a catalogue format spec: ``dur`` seconds, ``gb``, ``gpus``, ``n``, ``g3``) and the change b − a."""

    id: str
    a: float | None
    b: float | None
    unit: str

    @property
    def delta(self) -> float | None:
        return None if self.a is None or self.b is None else self.b - self.a

    @property
    def ratio(self) -> float | None:
        """b / a, when both are positive."""
        return self.b / self.a if self.a and self.b and self.a > 0 else None


def _phase_rows(r: Result, usd_per_gpu_hour: float) -> dict[str, float | None]:
    """Seconds per step of each phase, memory of the fullest GPU, the fewest GPUs that fit (the stage's
    ``StageCost``: an RL step, DPO's per 64-pair batch, none before the loop or when no step is timed), one
    pass over the data (``result.run``): steps, wall clock and GPU-hours, and what that pass costs: GPU-hours ×
    the price of the side's GPU type (``usd_per_gpu_hour``, the planner's price: ``PlanQuery.price``)."""
    c, run = r.cost, r.run
    has_run = run is not None and c.step_s is not None
    gpu_hours = run.gpu_hours if has_run else None
    return {"generation_s": c.generation_s, "scoring_s": c.scoring_s, "training_s": c.training_s,
            "sync_s": c.sync_s, "step_s": c.step_s, "timed_gpus": c.timed_gpus if c.step_s is not None else None,
            "memory_gb": c.per_gpu_gb,
            "training_gb": next((p.gb for p in c.memory_by_phase if p.phase == "training"), None),
            "states_gb": c.total_gb,
            "min_gpus": c.min_gpus or None, "run_steps": run.steps if has_run else None,
            "run_s": 3600 * run.hours if has_run else None, "gpu_hours": gpu_hours,
            "usd_per_gpu_hour": usd_per_gpu_hour,
            "usd": gpu_hours * usd_per_gpu_hour if gpu_hours is not None else None}


ROW_UNITS = {"generation_s": "dur", "scoring_s": "dur", "training_s": "dur", "sync_s": "dur", "step_s": "dur",
             "timed_gpus": "gpus",
             "memory_gb": "gb", "training_gb": "gb", "states_gb": "gb", "min_gpus": "gpus", "run_steps": "n", "run_s": "dur",
             "gpu_hours": "g3", "usd_per_gpu_hour": "usd_cents", "usd": "usd"}
ROW_IDS = tuple(ROW_UNITS)


DEFAULT_PRICES = PlanQuery()  # the planner's defaults: prices.toml


def phase_rows(a: Result, b: Result, prices: PlanQuery = DEFAULT_PRICES) -> tuple[Row, ...]:
    """What each phase and the memory and the run do between ``a`` and ``b`` (rows in ``ROW_IDS`` order); the
    dollars at ``prices`` (the planner's: prices.toml unless the query gives ``price_<gpu id>``)."""
    fa, fb = _phase_rows(a, prices.price(a.inputs.gpu)), _phase_rows(b, prices.price(b.inputs.gpu))
    return tuple(Row(id=k, a=fa[k], b=fb[k], unit=ROW_UNITS[k]) for k in ROW_IDS)
