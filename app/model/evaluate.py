"""Inputs → everything the page shows, as one frozen Result: the wiring from physics to meters, diagram, decisions
and reasons."""

from __future__ import annotations

from typing import NamedTuple

from app.model.assumptions import DPO_BATCH_PAIRS, GPUS
from app.model.compare import with_method
from app.model.decisions import Decision, decide
from app.model.inputs import WorkloadInputs, effective
from app.model.meters import Meter, eval_need, kl_risk, rollout_load, scoring_load
from app.model.physics.memory import Lane
from app.model.physics.offline import Dpo, Run, Stages, dpo, dpo_run, offline_stages, rl_run
from app.model.physics.step import Step, ppo_step
from app.model.physics.step_memory import Memory, ppo_memory
from app.model.physics.workload import workload
from app.model.reasons import Reason, reasons
from app.model.stage_cost import fit_remedies, stage_lanes, stage_memory_meter
from app.model.stages import (
    RL_LOOP_STAGES,
    EdgeState,
    NodeState,
    active_nodes,
    bottleneck_node,
    edge_states,
    is_gated,
    node_states,
    stage_of,
)

__all__ = ["Reason", "Result", "evaluate"]


class Result(NamedTuple):
    inputs: WorkloadInputs
    stage: str
    meters: dict[str, Meter]
    nodes: dict[str, NodeState]
    edges: tuple[EdgeState, ...]
    bottleneck: str
    decisions: dict[str, Decision]
    step: Step                # one RL step; in a DPO state, of the same workload under PPO (see evaluate)
    memory: Memory            # the RL loop's memory; likewise
    dpo: Dpo
    offline: Stages
    reasons: tuple[Reason, ...]
    run: Run                  # one pass over the prompts (DPO: over the pairs): steps, hours, GPU-hours
    step_at_min_gpus: Step | None = None  # the RL step at memory.min_gpus when it does not fit on the GPUs given
    fit_remedies: tuple[str, ...] = ()    # when no count up to 4,096 fits: the changes that would make it fit

    @property
    def memory_lanes(self) -> tuple[Lane, ...]:
        """The per-GPU memory lanes of this stage, GB per part (``physics.stage_lanes``): what the page draws."""
        return stage_lanes(self.stage, self.inputs, self.memory, self.dpo, self.offline)


def evaluate(inputs: WorkloadInputs) -> Result:
    """Everything the page shows for ``inputs``.  A DPO state's RL figures (Result.step, .memory) are those of the
    loop DPO replaces: the same workload under PPO (compare.with_method), so the DPO route is always set against a
    loop with its critic and reward model.  A state that does not fit also carries the step at the fewest GPUs
    that fit (``step_at_min_gpus``), or, when none up to 4,096 does, what would make it fit (``fit_remedies``)."""
    i = effective(inputs)
    gpu = GPUS[i.gpu]
    stage = stage_of(i)
    rl_loop = stage in RL_LOOP_STAGES
    is_dpo = stage == "dpo"
    rl = with_method(i, "ppo") if is_dpo else i
    w = workload(rl, gpu)
    step = ppo_step(rl, gpu, w)
    memory = ppo_memory(rl, gpu, step, w)
    dpo_cost = dpo(i, gpu)
    offline = offline_stages(i, gpu)
    run = dpo_run(i, dpo_cost) if is_dpo else rl_run(i, step)
    at_min = None
    if rl_loop and not memory.fits and memory.min_gpus is not None and memory.min_gpus != i.gpus:
        at_min = ppo_step(effective(rl.model_copy(update={"gpus": memory.min_gpus})), gpu)
    remedies = fit_remedies(rl) if rl_loop and memory.min_gpus is None else ()

    fits, mem_meter = stage_memory_meter(stage, i, gpu, memory, dpo_cost, offline)
    rollout = rollout_load(step.generation_s, step.generation_gpu_s, step.generation_share, rl_loop,
                                  whole=step.generation_is_whole)
    scoring = scoring_load(step.scoring_s, step.scoring_gpu_s, step.scoring_hidden_s, rl_loop,
                                  dpo_reference_s=dpo_cost.reference_step_s if is_dpo else None,
                                  hidden_any=step.scoring_hidden_any, hidden_all=step.scoring_hidden_all)
    kl = kl_risk(i.epochs, i.kl, "dpo" if is_dpo else i.method, rl_loop or is_dpo,
                        verifier=i.reward == "verifier" and not is_dpo)
    if is_dpo:
        samples = min(i.eval_every * DPO_BATCH_PAIRS, i.pairs * i.epochs)
        hours = i.eval_every * dpo_cost.step_s / 3600
    else:
        samples = i.eval_every * i.rollouts * i.epochs
        hours = i.eval_every * step.total_s / 3600
    ev = eval_need(samples, hours, rl_loop or is_dpo, is_dpo)
    meter_map = {m.id: m for m in (rollout, scoring, mem_meter, kl, ev)}

    exposed_scoring = step.scoring_s - step.scoring_hidden_s
    bottleneck = bottleneck_node(stage, fits, step.generation_s, exposed_scoring, step.training_s)
    active = active_nodes(i, stage)
    nodes = node_states(i, stage, active, {k: m.level for k, m in meter_map.items()}, fits, bottleneck,
                        tail_bound=step.tail_s > 0)
    decisions = decide(inputs=i, stage=stage, meters=meter_map, step=step, memory=memory, dpo=dpo_cost,
                       gated=is_gated(i))
    return Result(
        inputs=i, stage=stage, meters=meter_map, nodes=nodes, edges=edge_states(i, stage, active),
        bottleneck=bottleneck, decisions=decisions, step=step, memory=memory, dpo=dpo_cost, offline=offline,
        reasons=reasons(i, stage, step, memory, dpo_cost, offline, bottleneck, mem_meter, at_min, remedies), run=run,
        step_at_min_gpus=at_min, fit_remedies=remedies,
    )


def rl_step(inputs: WorkloadInputs) -> tuple[Step, Memory]:
    """One RL step and its memory on the GPUs given (a DPO state: the same workload under PPO), the wiring of
    ``evaluate``'s own without the meters, decisions and reasons: the step chart draws the step at sixteen GPU
    counts for every state.  tests/web/test_chart_sweep.py checks it against ``evaluate`` at those counts.

    >>> r = evaluate(WorkloadInputs(method="dpo"))
    >>> rl_step(WorkloadInputs(method="dpo")) == (r.step, r.memory)
    True
    """
    i = effective(inputs)
    rl = with_method(i, "ppo") if stage_of(i) == "dpo" else i
    gpu = GPUS[i.gpu]
    w = workload(rl, gpu)
    step = ppo_step(rl, gpu, w)
    return step, ppo_memory(rl, gpu, step, w)
