"""Two methods on the same workload: the counterpart the compare view shows by default, which pipeline nodes one
side has that the other does not, and what each phase and meter does between them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.model.inputs import WorkloadInputs
from app.model.stages import NODE_IDS, RL_LOOP_STAGES

if TYPE_CHECKING:  # evaluate uses with_method: the Result type is for annotations only
    from app.model.evaluate import Result

METHODS = ("ppo", "grpo", "dpo")

# The KL coefficient each method starts from when the compare view switches to it: InstructGPT's β = 0.02 for PPO
# (arXiv 2203.02155 App. C.4), the DPO paper's β = 0.1 (arXiv 2305.18290 App. B), and GRPO's kl_loss_coef = 0.001,
# verl's documented default (verl docs, "Group Relative Policy Optimization (GRPO)": actor.kl_loss_coef,
# https://verl.readthedocs.io/en/latest/algo/grpo.html)
METHOD_KL = {"ppo": 0.02, "grpo": 0.001, "dpo": 0.1}
# Responses per prompt when switching to GRPO: the contract's default `group` (8). verl's GRPO page asks only for
# rollout.n > 1; DeepSeekMath sampled 64 (arXiv 2402.03300 §4.2); 8 is a teaching assumption between the two.
GRPO_GROUP = 8

# The default pair: PPO → GRPO (the 2026 comparison), GRPO → PPO, DPO → PPO
DEFAULT_OTHER = {"ppo": "grpo", "grpo": "ppo", "dpo": "ppo"}
# The pairs the compare page offers, left → right
PAIRS: tuple[tuple[str, str], ...] = (("ppo", "grpo"), ("ppo", "dpo"), ("grpo", "dpo"))


def with_method(inputs: WorkloadInputs, method: str) -> WorkloadInputs:
    """The same workload under ``method``, with that method's usual KL coefficient (and under GRPO its usual
    group); the walkthrough step is dropped.

    >>> x = with_method(WorkloadInputs(method="ppo"), "grpo")
    >>> x.method, x.kl, x.group
    ('grpo', 0.001, 8)
    """
    update: dict[str, object] = {"method": method, "kl": METHOD_KL[method], "step": None}
    if method == "grpo":
        update["group"] = GRPO_GROUP
    return inputs.model_copy(update=update)


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


def _phase_rows(r: Result) -> dict[str, float | None]:
    """Seconds per step of each phase, memory of the fullest GPU, the fewest GPUs that fit, and one pass over the
    data (``result.run``): steps, wall clock and GPU-hours.

    An RL step has generation, scoring, training and sync; a DPO step has no generation and no sync (its scoring
    is the reference's forward, its training the policy's, per 64-pair batch); before the loop (SFT, RM) there is
    no step."""
    if r.stage in RL_LOOP_STAGES:
        s = r.step
        return {"generation_s": s.generation_s, "scoring_s": s.scoring_s, "training_s": s.training_s,
                "sync_s": s.sync_s, "step_s": s.total_s, "memory_gb": r.memory.peak_per_gpu_gb,
                "states_gb": r.memory.total_gb, "min_gpus": r.memory.min_gpus, "run_steps": r.run.steps,
                "run_s": 3600 * r.run.hours, "gpu_hours": r.run.gpu_hours}
    if r.stage == "dpo":
        d = r.dpo
        return {"generation_s": None, "scoring_s": d.reference_step_s, "training_s": d.step_s - d.reference_step_s,
                "sync_s": None, "step_s": d.step_s, "memory_gb": d.per_gpu_gb + d.activation_gb,
                "states_gb": d.total_gb, "min_gpus": d.min_gpus, "run_steps": r.run.steps,
                "run_s": 3600 * r.run.hours, "gpu_hours": r.run.gpu_hours}
    a = r.meters["train_memory"].figure_args
    return {"generation_s": None, "scoring_s": None, "training_s": None, "sync_s": None, "step_s": None,
            "memory_gb": a["per_gpu_gb"], "states_gb": a["total_gb"], "min_gpus": a["min_gpus"] or None,
            "run_steps": None, "run_s": None, "gpu_hours": None}


ROW_UNITS = {"generation_s": "dur", "scoring_s": "dur", "training_s": "dur", "sync_s": "dur", "step_s": "dur",
             "memory_gb": "gb", "states_gb": "gb", "min_gpus": "gpus", "run_steps": "n", "run_s": "dur",
             "gpu_hours": "g3"}
ROW_IDS = tuple(ROW_UNITS)


def phase_rows(a: Result, b: Result) -> tuple[Row, ...]:
    """What each phase and the memory and the run do between ``a`` and ``b`` (rows in ``ROW_IDS`` order)."""
    fa, fb = _phase_rows(a), _phase_rows(b)
    return tuple(Row(k, fa[k], fb[k], ROW_UNITS[k]) for k in ROW_IDS)
