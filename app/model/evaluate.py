"""Inputs → everything the page shows, as one frozen Result: the wiring from physics to meters, diagram, decisions
and reasons."""

from __future__ import annotations

from typing import NamedTuple

from app.model.assumptions import DPO_BATCH_PAIRS, GPUS
from app.model.decisions import Decision, decide
from app.model.inputs import WorkloadInputs, effective, with_method
from app.model.meters import Meter, eval_need, kl_risk, rollout_load, scoring_load, train_load
from app.model.physics.memory import Lane
from app.model.physics.offline import Dpo, Run, Stages, dpo_run, dpo_timed, offline_stages, rl_run
from app.model.physics.step import Step, ppo_step
from app.model.physics.step_memory import Memory, ppo_memory
from app.model.physics.workload import workload
from app.model.plan import Plan, resolve, rl_memory_by_phase
from app.model.reasons import Reason, reasons
from app.model.stage_cost import (
    StageCost,
    fit_remedies,
    loop_of,
    stage_cost,
    stage_lanes,
    stage_memory_meter,
    timed_gpus,
)
from app.model.stages import (
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
    step: Step                # one RL step, on timed_gpus GPUs; in a DPO state, of the same workload under PPO
    memory: Memory            # the RL loop's memory on the GPUs given; likewise
    dpo: Dpo
    offline: Stages
    reasons: tuple[Reason, ...]
    run: Run | None           # one pass over the prompts (DPO: over the pairs): steps, hours, GPU-hours on
    #                           timed_gpus; None when no step is timed
    step_at_min_gpus: Step | None = None  # the RL step at memory.min_gpus when it does not fit on the GPUs given
    fit_remedies: tuple[str, ...] = ()    # when no count up to 4,096 fits: the changes that would make it fit
    timed_gpus: int | None = None  # the GPU count ``step`` is timed on: the state's own when its models fit, the
    #                                fewest that fit when they do not, None when none up to 4,096 does (no time)
    cost: StageCost | None = None  # the stage's memory, fit and step by phase (``stage_cost``)
    plan: Plan | None = None       # the resolved run every surface and launch command reads (``plan.resolve``)

    @property
    def timed(self) -> bool:
        """Whether the RL step has a time to show: some GPU count up to 4,096 fits (``timed_gpus``)."""
        return self.timed_gpus is not None

    @property
    def timed_elsewhere(self) -> bool:
        """The step's times are at the fewest GPUs that fit, not the GPUs given: each says "at N GPUs"."""
        return self.timed_gpus is not None and self.timed_gpus != self.inputs.gpus

    @property
    def memory_lanes(self) -> tuple[Lane, ...]:
        """The per-GPU memory lanes of this stage, GB per part (``physics.stage_lanes``): what the page draws."""
        return stage_lanes(self.stage, self.inputs, self.memory, self.dpo, self.offline)


def evaluate(inputs: WorkloadInputs) -> Result:
    """Everything the page shows for ``inputs``.  A DPO state's RL figures (Result.step, .memory) are those of the
    loop DPO replaces: the same workload under PPO (``with_method``), so the DPO route is always set against a
    loop with its critic and reward model.

    The memory is that of the GPUs given; the step follows the timing rule (``stage_cost.timed_gpus``): on the
    GPUs given when the models fit, on the fewest that fit when they do not (``timed_gpus``, also
    ``step_at_min_gpus``), and, when none up to 4,096 does, nowhere (``timed`` is False; the step record is then the
    one on the GPUs given, which no surface shows, and ``fit_remedies`` says what would make it fit)."""
    i = effective(inputs)
    gpu = GPUS[i.gpu]
    stage = stage_of(i)
    loop = loop_of(stage)  # what trains: rl | dpo | none (the stage switch's one home, stage_cost)
    rl_loop, is_dpo = loop == "rl", loop == "dpo"
    rl = with_method(i, "ppo") if is_dpo else i
    w = workload(rl, gpu)
    given = ppo_step(rl, gpu, w)
    memory = ppo_memory(rl, gpu, given, w)
    timed_at = timed_gpus(memory.fits, memory.min_gpus, i.gpus)
    timed = timed_at is not None
    at_min = None
    if timed and timed_at != i.gpus:
        at_min = ppo_step(effective(rl.model_copy(update={"gpus": timed_at})), gpu)
    step = at_min or given
    dpo_cost = dpo_timed(i, gpu)  # DPO's own step follows the same timing rule
    offline = offline_stages(i, gpu)
    if is_dpo:
        run = dpo_run(i.model_copy(update={"gpus": dpo_cost.timed_gpus}), dpo_cost) if (
            dpo_cost.timed_gpus is not None) else None
    else:
        run = rl_run(i.model_copy(update={"gpus": timed_at}), step) if timed else None
    remedies = fit_remedies(rl) if rl_loop and not timed else ()

    # the state's own GPUs as nvidia-smi shows them, phase by phase (the step on the GPUs given, fit or not)
    phases = rl_memory_by_phase(rl, given, memory) if rl_loop else ()
    cost = stage_cost(stage, i, gpu, memory, dpo_cost, offline, step, timed_at, phases)
    mem_meter = stage_memory_meter(cost, i, gpu)
    at = timed_at if at_min is not None else None  # a time figure's label "at N GPUs", when not the state's own
    dpo_at = dpo_cost.timed_gpus if dpo_cost.timed_gpus != i.gpus else None  # the same for DPO's own step
    rollout = rollout_load(step.generation_s, step.generation_gpu_s, step.generation_share, rl_loop,
                           whole=step.generation_is_whole, at_gpus=at, untimed=not timed)
    scoring = scoring_load(step.scoring_s, step.scoring_gpu_s, step.scoring_hidden_s, rl_loop,
                           dpo_reference_s=dpo_cost.reference_step_s if is_dpo else None,
                           hidden_any=step.scoring_hidden_any, hidden_all=step.scoring_hidden_all,
                           at_gpus=dpo_at if is_dpo else at,
                           untimed=dpo_cost.timed_gpus is None if is_dpo else not timed)
    kl = kl_risk(i.epochs, i.kl, "dpo" if is_dpo else i.method, rl_loop or is_dpo,
                 verifier=i.reward == "verifier" and not is_dpo)
    if is_dpo:
        samples = min(i.eval_every * DPO_BATCH_PAIRS, i.pairs * i.epochs)
        hours = i.eval_every * dpo_cost.step_s / 3600 if dpo_cost.timed_gpus is not None else None
    else:
        samples = i.eval_every * i.rollouts * i.epochs
        hours = i.eval_every * step.total_s / 3600 if timed else None
    ev = eval_need(samples, hours, rl_loop or is_dpo, is_dpo, at_gpus=dpo_at if is_dpo else at,
                   run=(run.steps, run.hours) if run is not None and run.steps > 0 and run.evals == 0 else None)
    training = train_load(step.training_s, step.training_gpu_s, rl_loop, at_gpus=dpo_at if is_dpo else at,
                          untimed=dpo_cost.timed_gpus is None if is_dpo else not timed,
                          dpo_step_s=dpo_cost.step_s if is_dpo and dpo_cost.timed_gpus is not None else None)
    meter_map = {m.id: m for m in (rollout, scoring, mem_meter, kl, ev, training)}

    exposed_scoring = step.scoring_s - step.scoring_hidden_s
    bottleneck = bottleneck_node(stage, cost.fits, step.generation_s, exposed_scoring, step.training_s)
    active = active_nodes(i, stage)
    nodes = node_states(i, stage, active, {k: m.level for k, m in meter_map.items()}, cost.fits, bottleneck,
                        tail_bound=timed and step.tail_s > 0, env_bound=timed and step.env_wait_s > step.tail_s)
    decisions = decide(inputs=i, meters=meter_map, step=step, memory=memory, dpo=dpo_cost,
                       gated=is_gated(i), cost=cost, timed_gpus=timed_at, run=run)
    if at_min is None:
        plan_w, plan_memory, plan_phases = w, memory, cost.memory_by_phase
    else:  # the plan is the run on the fewest GPUs that fit
        at = effective(rl.model_copy(update={"gpus": timed_at}))
        plan_w, plan_memory, plan_phases = workload(at, gpu), ppo_memory(at, gpu, at_min), ()
    plan = resolve(inputs=rl if rl_loop else i, kind=loop, gpu=gpu, w=plan_w, step=step, memory=plan_memory,
                   dpo=dpo_cost, run=run, fits=cost.fits, min_gpus=cost.min_gpus, timed_gpus=cost.timed_gpus,
                   step_s=cost.step_s, usable_gb=cost.usable_gb, stage_per_gpu_gb=cost.per_gpu_gb,
                   memory_by_phase=plan_phases)
    return Result(
        inputs=i, stage=stage, meters=meter_map, nodes=nodes, edges=edge_states(i, stage, active),
        bottleneck=bottleneck, decisions=decisions, step=step, memory=memory, dpo=dpo_cost, offline=offline,
        reasons=reasons(i, stage, step, memory, dpo_cost, offline, bottleneck, mem_meter, at_min, remedies,
                        timed_gpus=timed_at, trains_rm=cost.trains_rm),
        run=run, step_at_min_gpus=at_min, fit_remedies=remedies, timed_gpus=timed_at, cost=cost, plan=plan,
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
