"""The eight decision trade-off cards: which side the workload favours and why (catalogue keys + values).

One typed function per card (``DECISIONS``, in page order), each reading the state's ``Facts`` and answering a
``Verdict``; ``decide`` names them.  The cards grouped by topic: ``data`` (what the run learns from), ``generation``
(the rollouts), ``training`` (the policy's update).
"""

from __future__ import annotations

from collections.abc import Callable

from app.model.assumptions import GPUS
from app.model.decisions.data import critic_vs_group, rm_vs_dpo, sft_vs_preference
from app.model.decisions.generation import rollout_throughput, sync_vs_async
from app.model.decisions.record import DECISION_STATES, Decision, Facts, Verdict
from app.model.decisions.training import DEEPSEEKMATH_KL, distributed_training, eval_gating, kl_control
from app.model.inputs import WorkloadInputs
from app.model.meters import Meter
from app.model.physics.offline import Dpo, Run
from app.model.physics.step import Step, equal_gpu_steps
from app.model.physics.step_memory import Memory
from app.model.stage_cost import StageCost

DECISIONS: dict[str, Callable[[Facts], Verdict]] = {
    "sft_vs_preference": sft_vs_preference,
    "rm_vs_dpo": rm_vs_dpo,
    "rollout_throughput": rollout_throughput,
    "distributed_training": distributed_training,
    "kl_control": kl_control,
    "eval_gating": eval_gating,
    "critic_vs_group": critic_vs_group,
    "sync_vs_async": sync_vs_async,
}
DECISION_IDS = tuple(DECISIONS)


def decide(*, inputs: WorkloadInputs, meters: dict[str, Meter], step: Step, memory: Memory, dpo: Dpo, gated: bool,
           cost: StageCost, timed_gpus: int | None, run: Run | None = None) -> dict[str, Decision]:
    """One Decision per card, from the model's figures for the state (``Facts``)."""
    # The sync-vs-async card's equal-GPU comparison runs up to two more RL steps.  It belongs beside the other
    # figures in evaluate(), carried on Result; until evaluate.py takes it, it is computed here, once per state.
    equal = None
    if cost.online and timed_gpus is not None:
        equal = equal_gpu_steps(inputs.model_copy(update={"gpus": timed_gpus}), GPUS[inputs.gpu], step)
    facts = Facts(inputs=inputs, meters=meters, step=step, memory=memory, dpo=dpo, cost=cost, timed_gpus=timed_gpus,
                  gated=gated, run=run, equal_gpus=equal)
    out: dict[str, Decision] = {}
    for card, rule in DECISIONS.items():
        v = rule(facts)
        out[card] = Decision(id=card, state=v.state, reason=f"decision.{card}.{v.reason}", args=v.args)
    return out


__all__ = ["DECISIONS", "DECISION_IDS", "DECISION_STATES", "DEEPSEEKMATH_KL", "Decision", "Facts", "Verdict", "decide"]
