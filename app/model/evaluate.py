"""Inputs → everything the page shows, as one frozen Result.  Pure, deterministic, tens of microseconds."""

from __future__ import annotations

import math
from typing import NamedTuple

from app.model import meters
from app.model.assumptions import DPO_BATCH_PAIRS, GPUS, USABLE_MEMORY_FRACTION
from app.model.compare import with_method
from app.model.decisions import Decision, decide
from app.model.inputs import WorkloadInputs, effective
from app.model.physics.memory import Lane
from app.model.physics.offline import Dpo, Run, Stages, dpo, dpo_run, offline_stages, rl_run
from app.model.physics.step import Step, ppo_step
from app.model.physics.step_memory import Memory, ppo_memory, stage_lanes
from app.model.physics.workload import workload
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


class Reason(NamedTuple):
    key: str
    args: dict


class Result(NamedTuple):
    inputs: WorkloadInputs
    stage: str
    meters: dict[str, meters.Meter]
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

    @property
    def memory_lanes(self) -> tuple[Lane, ...]:
        """The per-GPU memory lanes of this stage, GB per part (``physics.stage_lanes``): what the page draws."""
        return stage_lanes(self.stage, self.inputs, self.memory, self.dpo, self.offline)


def evaluate(inputs: WorkloadInputs) -> Result:
    i = effective(inputs)
    gpu = GPUS[i.gpu]
    stage = stage_of(i)
    rl_loop = stage in RL_LOOP_STAGES
    is_dpo = stage == "dpo"
    # A DPO state's RL figures (Result.step, .memory) are those of the loop DPO replaces: the same workload under
    # PPO (compare.with_method), so the DPO route is always set against a loop with its critic and reward model.
    rl = with_method(i, "ppo") if is_dpo else i
    w = workload(rl, gpu)
    step = ppo_step(rl, gpu, w)
    memory = ppo_memory(rl, gpu, step, w)
    dpo_cost = dpo(i, gpu)
    offline = offline_stages(i, gpu)
    usable = gpu.memory_gb * USABLE_MEMORY_FRACTION
    run = dpo_run(i, dpo_cost) if is_dpo else rl_run(i, step)

    # --- meters ---------------------------------------------------------------------------------------
    exposed_scoring = step.scoring_s - step.scoring_hidden_s
    rollout = meters.rollout_load(step.generation_s, step.generation_gpu_s, step.generation_share, rl_loop)
    scoring = meters.scoring_load(
        step.scoring_s, step.scoring_gpu_s, step.scoring_hidden_s, rl_loop,
        dpo_reference_s=(dpo_cost.reference_step_s if is_dpo else None),
    )
    if rl_loop:
        fits = memory.fits
        what = meters.memory_what("grpo" if i.method == "grpo" else "ppo", memory.models.reference_gb > 0,
                                  memory.models.reward_gb > 0)
        mem_meter = meters.train_memory(memory.peak_per_gpu_gb, usable, memory.total_gb, i.gpus, gpu.memory_gb,
                                        fits, memory.min_gpus, what)
    elif is_dpo:
        fits = dpo_cost.fits
        mem_meter = meters.train_memory(dpo_cost.per_gpu_gb + dpo_cost.activation_gb + dpo_cost.logits_gb, usable,
                                        dpo_cost.total_gb,
                                        i.gpus, gpu.memory_gb, fits, dpo_cost.min_gpus, "dpo")
    else:
        # SFT (and the reward model's training when preference data exists), before the loop: ZeRO-3 over G
        per_gpu = max(offline.sft_per_gpu_gb, offline.rm_per_gpu_gb if stage == "reward_model" else 0.0)
        total = per_gpu * i.gpus
        fits = per_gpu <= usable
        mem_meter = meters.train_memory(per_gpu, usable, total, i.gpus, gpu.memory_gb, fits,
                                        math.ceil(total / usable - 1e-9), "rm" if stage == "reward_model" else "sft")
    kl = meters.kl_risk(i.epochs, i.kl, "dpo" if is_dpo else i.method, rl_loop or is_dpo,
                        verifier=i.reward == "verifier" and not is_dpo)
    if is_dpo:
        samples = min(i.eval_every * DPO_BATCH_PAIRS, i.pairs * i.epochs)
        hours = i.eval_every * dpo_cost.step_s / 3600
    else:
        samples = i.eval_every * i.rollouts * i.epochs
        hours = i.eval_every * step.total_s / 3600
    ev = meters.eval_need(samples, hours, rl_loop or is_dpo, is_dpo)
    meter_map = {m.id: m for m in (rollout, scoring, mem_meter, kl, ev)}

    # --- diagram -----------------------------------------------------------------------------------------
    bottleneck = bottleneck_node(stage, fits, step.generation_s, exposed_scoring, step.training_s)
    active = active_nodes(i, stage)
    nodes = node_states(i, stage, active, {k: m.level for k, m in meter_map.items()}, fits, bottleneck,
                        tail_bound=step.tail_s > 0)
    edges = edge_states(i, stage, active)
    decisions = decide(inputs=i, stage=stage, meters=meter_map, step=step, memory=memory, dpo=dpo_cost,
                       gated=is_gated(i))
    reasons = _reasons(i, stage, step, memory, dpo_cost, offline, bottleneck, mem_meter)
    return Result(i, stage, meter_map, nodes, edges, bottleneck, decisions, step, memory, dpo_cost, offline, reasons,
                  run)


def _reasons(i, stage, step, memory, dpo_cost, offline, bottleneck, mem_meter) -> tuple[Reason, ...]:
    """Why the page looks as it does, most important first."""
    one = "_one" if i.gpus == 1 else ""  # one card: "this GPU", not "these GPUs" or "the fullest of 1"
    out = [Reason(f"why.stage.{stage}", {"pairs": i.pairs, "rollouts": i.rollouts, "eval_every": i.eval_every,
                                          "demos": i.demos, "share": step.generation_share * 100})]
    if stage in RL_LOOP_STAGES:
        # generation ahead of the step with everything else behind it: the step *is* generation (not "the 83 s step
        # spends 83 s (100 %) generating")
        whole = bottleneck == "rollout_gen" and i.staleness and step.generation_share >= 0.995
        # model states that do not fit: the bottleneck is memory, and the timings below it are only indicative (the
        # engine is left a batch of one), not "policy update … generation 33 h (100 %)"
        key = meters.nofit_reason(mem_meter, i.offload) if not memory.fits else (
            "why.bottleneck.rollout_gen_async" if whole else f"why.bottleneck.{bottleneck}")
        out.append(Reason(key, {
            "generation_s": step.generation_s, "scoring_s": step.scoring_s, "training_s": step.training_s,
            "total_s": step.total_s, "share": step.generation_share * 100, "bound": step.gen.bound,
            "epochs": i.epochs, "per_gpu_gb": mem_meter.figure_args["per_gpu_gb"],
            "min_gpus": mem_meter.figure_args["min_gpus"]}))
        if i.placement == "separate":
            out.append(Reason("why.placement.separate", {
                "gen": step.groups.generation, "score": step.groups.scoring, "train": step.groups.training,
                "hidden_s": step.scoring_hidden_s, "idle_pct": 100 * step.idle_gpu_s / (step.total_s * i.gpus),
                "fixed_s": step.gpu_groups.fixed_step_s, "total_s": step.total_s, "sync_s": step.sync_s}))
        else:
            key = "why.placement.colocated" if i.engine == "vllm" else (
                "why.placement.colocated_hf" if step.gen.gather_s * 1000 >= 0.5 else
                "why.placement.colocated_hf_unsharded")  # one GPU: nothing to all-gather
            out.append(Reason(key, {
                "gpus": i.gpus, "tp": step.gen.tensor_parallel, "batch": step.gen.batch, "sync_s": step.sync_s,
                "gather_ms": step.gen.gather_s * 1000}))
        if step.tail_s > 0:
            out.append(Reason("why.tail", {"tail_s": step.tail_s, "generation_s": step.generation_s,
                                           "longest": i.response_max_tokens, "mean": i.response_tokens,
                                           "share": step.tail_share * 100}))
    elif stage == "dpo":
        out.append(Reason("why.dpo.removes", {"ppo_gb": memory.total_gb, "dpo_gb": dpo_cost.total_gb,
                                              "epoch_s": dpo_cost.epoch_s, "pairs": i.pairs}))
    elif stage == "reward_model":
        out.append(Reason("why.offline.rm" + one, {"rm_s": offline.rm_epoch_s, "pairs": i.pairs, "rm_b": i.rm_b}))
    else:
        out.append(Reason("why.offline.sft" + one, {"sft_s": offline.sft_epoch_s, "demos": i.demos}))
    args = dict(mem_meter.figure_args)
    out.append(Reason(meters.memory_reason(mem_meter, one=i.gpus == 1), args))
    return tuple(out)
