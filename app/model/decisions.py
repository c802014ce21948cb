"""The eight decision trade-off cards: which side the workload favours and why (catalogue keys + values)."""

from __future__ import annotations

import math
from typing import NamedTuple

from app.model.assumptions import EVAL_GATE_MAX_STEPS, GPUS, KL_REFERENCE_GRPO, TRAIN_BYTES_PER_PARAM
from app.model.meters import TextArgs
from app.model.physics.step import equal_gpu_steps

DECISION_IDS = (
    "sft_vs_preference", "rm_vs_dpo", "rollout_throughput", "distributed_training", "kl_control", "eval_gating",
    "critic_vs_group", "sync_vs_async",
)
DECISION_STATES = ("needed", "useful", "trade_off", "not_yet")

# The KL coefficient DeepSeekMath's GRPO runs used (Shao et al. 2024, arXiv 2402.03300, §4.2: "the KL coefficient
# is 0.04"); the KL card compares β with it and with verl's default kl_loss_coef (KL_REFERENCE_GRPO, 0.001).
DEEPSEEKMATH_KL = 0.04


class Decision(NamedTuple):
    """One decision card (a named tuple: immutable and cheap to build)."""

    id: str
    state: str          # needed | useful | trade_off | not_yet
    reason: str         # catalogue key
    args: TextArgs      # the catalogue text's arguments


def decide(*, inputs, meters: dict, step, memory, dpo, gated: bool, cost, timed_gpus: int | None, run=None,
           stage: str = "") -> dict[str, Decision]:
    """One Decision per card. ``meters`` maps meter id → Meter; ``step``, ``memory``, ``dpo`` are physics results;
    ``cost`` the stage's ``StageCost`` (what trains, its memory, fit and fewest GPUs: no card switches on the stage
    itself; ``stage`` is kept for callers that pass it); ``timed_gpus`` the GPU count ``step`` is
    timed on (``stage_cost.timed_gpus``: None when no count fits, and then no card quotes a time); ``run`` the
    whole run (None when no step is timed)."""
    i = inputs
    rl_loop, is_dpo = cost.online, cost.dpo  # the stage's kind, decided once (stage_cost.loop_of)
    timed = timed_gpus is not None
    out: dict[str, Decision] = {}

    def put(id_: str, state: str, reason: str, **args) -> None:
        out[id_] = Decision(id=id_, state=state, reason=f"decision.{id_}.{reason}", args=args)

    # SFT vs preference data
    if i.demos == 0:
        put("sft_vs_preference", "needed", "no_sft", pairs=i.pairs)
    elif i.pairs == 0:
        if rl_loop and i.reward == "verifier":
            put("sft_vs_preference", "useful", "verifier", demos=i.demos, rollouts=i.rollouts)
        else:
            put("sft_vs_preference", "not_yet", "sft_only", demos=i.demos)
    else:
        put("sft_vs_preference", "useful", "both", demos=i.demos, pairs=i.pairs, ratio=i.pairs / i.demos)

    # Reward model vs DPO (and a verifier, which needs neither)
    ppo_gb = memory.total_gb
    if rl_loop and i.reward == "verifier":
        put("rm_vs_dpo", "trade_off", "verifier", rollouts=i.rollouts, rm_b=i.rm_b)
    elif i.pairs == 0:
        put("rm_vs_dpo", "not_yet", "no_pairs")
    elif is_dpo:
        # a DPO state's step and memory are the same workload's under PPO (evaluate), timed where PPO fits
        # and DPO's pass where DPO fits (``Dpo.timed_gpus``), labelled; none when no count fits either
        if dpo.timed_gpus is None:
            put("rm_vs_dpo", "trade_off", "dpo_never", dpo_gb=dpo.total_gb, ppo_gb=ppo_gb)
        else:
            put("rm_vs_dpo", "trade_off", "dpo" if timed else "dpo_ppo_nofit", dpo_gb=dpo.total_gb, ppo_gb=ppo_gb,
                epoch_s=dpo.epoch_s, dpo_gpus=dpo.timed_gpus, ppo_step_s=step.total_s if timed else None,
                ppo_gpus=timed_gpus)
    elif i.rollouts == 0:
        put("rm_vs_dpo", "useful", "rm_idle", rm_b=i.rm_b)
    elif i.method == "grpo" and i.kl > 0:
        # GRPO has no critic already: DPO saves only the reward model's weights (both keep a reference)
        put("rm_vs_dpo", "needed", "grpo", rollouts=i.rollouts, saved_gb=ppo_gb - dpo.total_gb)
    elif i.method == "grpo":
        # β = 0: GRPO keeps no reference, DPO needs one; the saving can be nothing (or negative)
        put("rm_vs_dpo", "needed", "grpo_no_ref", rollouts=i.rollouts, grpo_gb=ppo_gb, dpo_gb=dpo.total_gb)
    else:
        put("rm_vs_dpo", "needed", "ppo", rollouts=i.rollouts, saved_gb=ppo_gb - dpo.total_gb)

    # Rollout-generation throughput: the engine (vLLM vs HF generate), the layout, the longest response
    if not rl_loop:
        put("rollout_throughput", "not_yet", "dpo" if is_dpo else "no_rollouts")
    else:
        lvl = meters["rollout_load"].level
        g = step.gen
        args = dict(seconds=step.generation_s, share=step.generation_share * 100, tp=g.tensor_parallel,
                    replicas=g.replicas, engine_gpus=g.engine_gpus, pp=g.pipeline, batch=g.batch, tokens_per_s=g.tokens_per_s,
                    step_ms=g.decode_step_s * 1000, gather_ms=g.gather_s * 1000, tail_s=step.tail_s,
                    tail_pct=step.tail_share * 100, peak_gb=memory.peak_per_gpu_gb)
        whole = step.generation_is_whole  # asynchronous: the step is generation
        if not memory.fits and not timed:
            # no count fits: there is no step, and the engine's speed is not the problem
            put("rollout_throughput", "needed", "nofit_never", peak_gb=memory.peak_per_gpu_gb)
        elif not memory.fits:
            # the model states do not fit: first make them fit; the generation figures are those of the fewest GPUs
            # that fit (the step is timed there)
            put("rollout_throughput", "needed", "nofit", **args, min_gpus=timed_gpus)
        elif i.engine == "hf":
            # HF generate all-gathers ZeRO-3-sharded weights only inside a sharded trainer: under separate placement
            # the generation GPUs hold whole weights, and one colocated GPU has nothing to gather
            reason = ("hf_separate" if i.placement == "separate" else
                      "hf_unsharded" if g.gather_s <= 0 else "hf")
            put("rollout_throughput", "needed", reason, **args)
        elif step.tail_share >= 0.25:
            # running ahead already: each step still waits for its own last response unless that may carry over
            put("rollout_throughput", "useful", "tail_ahead" if i.staleness >= 1 else "tail", **args)
        elif whole:
            # not "83 s per step (100 %)": scoring and training hide behind it, the step is as long as generation
            put("rollout_throughput", "needed" if lvl == "hot" else "useful", "async", **args)
        elif lvl == "hot":
            put("rollout_throughput", "needed", "hot", **args)
        elif lvl == "warn" or step.generation_share >= 0.5:
            put("rollout_throughput", "useful", "warn", **args)
        else:
            # colocated, every phase already runs on every GPU: there is no split to move GPUs across
            put("rollout_throughput", "trade_off", "ok_colocated" if i.placement == "colocated" else "ok", **args)

    # Distributed policy training: sharding, offload, LoRA (the stage's memory: ``StageCost``)
    need_gb, need_min, fits = cost.total_gb, cost.min_gpus, cost.fits
    args = dict(total_gb=need_gb, gpus=i.gpus, per_gpu_gb=need_gb / i.gpus, usable_gb=memory.usable_gb,
                min_gpus=need_min or 0, host_gb=memory.host_gb, activation_gb=memory.activation_gb + memory.logits_gb)
    relieved = i.offload == "optimizer" or i.tuning == "lora"
    if not fits:
        if not need_min:
            put("distributed_training", "needed", "never", **args)
        else:
            put("distributed_training", "needed", "nofit_relieved" if relieved else "nofit", **args)
    elif i.tuning == "lora":
        put("distributed_training", "useful", "lora", **args)
    elif i.offload == "optimizer":
        put("distributed_training", "useful", "offload", **args)
    elif need_gb > memory.usable_gb:
        put("distributed_training", "needed", "sharded", **args)
    else:
        put("distributed_training", "not_yet", "single", **args)

    # KL / reference control
    if not cost.trains:
        put("kl_control", "not_yet", "no_loop")
    else:
        lvl = meters["kl_risk"].level
        args = dict(kl=i.kl, epochs=i.epochs, ref_gb=memory.models.reference_gb)
        grpo = rl_loop and i.method == "grpo"
        dpo_unit = "_dpo" if is_dpo else ""  # DPO passes over its pairs (过 N 遍), it has no PPO epochs
        if grpo:
            args.update(verl_kl=KL_REFERENCE_GRPO, deepseekmath_kl=DEEPSEEKMATH_KL, ratio=i.kl / KL_REFERENCE_GRPO)
        if rl_loop and i.kl == 0:
            put("kl_control", "trade_off" if i.reward == "verifier" else "needed",
                "no_kl_verifier" if i.reward == "verifier" else ("no_kl_grpo" if grpo else "no_kl"), **args)
        elif lvl == "hot":
            put("kl_control", "needed", "hot" + dpo_unit, **args)
        elif i.kl >= 0.5:
            put("kl_control", "trade_off", "too_strong", **args)
        elif grpo:
            # against verl's default 0.001 and DeepSeekMath's 0.04: below the one, at it, between, above the other
            reason = ("grpo_low" if i.kl < KL_REFERENCE_GRPO else "grpo" if i.kl == KL_REFERENCE_GRPO else
                      "grpo_mid" if i.kl <= DEEPSEEKMATH_KL else "grpo_high")
            # the badge follows the meter: a loose constraint (warn) is a trade-off, not "worth doing"
            put("kl_control", "useful" if reason != "grpo_high" and lvl != "warn" else "trade_off", reason, **args)
        else:
            put("kl_control", "trade_off" if lvl == "warn" else "useful", ("warn" if lvl == "warn" else "ok") + dpo_unit,
                **args)

    # Eval + safety gating
    if not cost.trains:
        put("eval_gating", "not_yet", "offline")
    else:
        lvl = meters["eval_need"].level
        args = dict(eval_every=i.eval_every, samples=meters["eval_need"].figure_args.get("samples", 0),
                    hours=meters["eval_need"].figure_args.get("hours", 0), gate_every=EVAL_GATE_MAX_STEPS,
                    evals=run.evals if run else 0, run_steps=run.steps if run else 0,
                    run_hours=run.hours if run else 0.0)
        unit = "_dpo" if is_dpo else ""  # DPO trains on preference pairs, not rollouts
        if rl_loop and not timed:
            # no count fits: how long the steps between two evals take has no answer
            state = "useful" if gated else "needed" if lvl == "hot" else "useful" if lvl == "warn" else "trade_off"
            put("eval_gating", state, "nofit", **args)
        elif run is not None and run.steps > 0 and run.evals == 0:
            # the run ends before its first eval (default: every 100 steps, a 61-step run): not "eval every 100
            # steps, 3.8 h apart" as if an eval came, but that none does
            put("eval_gating", "needed", "none_in_run" + unit, **args)
        elif gated:
            put("eval_gating", "useful", "gated" + unit, **args)
        elif lvl == "hot":
            put("eval_gating", "needed", "hot" + unit, **args)
        elif lvl == "warn":
            put("eval_gating", "useful", "warn" + unit, **args)
        else:
            put("eval_gating", "trade_off", "ok" + unit, **args)

    # Critic or group baseline
    if not rl_loop:
        put("critic_vs_group", "not_yet", "no_loop")
    elif i.method == "ppo":
        put("critic_vs_group", "trade_off", "critic" if timed else "critic_nofit", critic_gb=memory.models.critic_gb,
            rm_b=i.rm_b, training_s=step.training_s if timed else None, group=i.group)
    elif i.group == 1:
        put("critic_vs_group", "needed", "group_one", rollouts=i.rollouts)
    elif i.rollouts < i.group:
        put("critic_vs_group", "needed", "too_few", rollouts=i.rollouts, group=i.group)
    else:
        put("critic_vs_group", "useful", "group", group=i.group, prompts=step.prompts_per_step,
            saved_gb=TRAIN_BYTES_PER_PARAM * i.rm_b, rollouts=i.rollouts)

    # On-policy or k steps stale
    if not rl_loop:
        put("sync_vs_async", "not_yet", "no_loop")
    elif not timed:
        put("sync_vs_async", "not_yet", "nofit", staleness=i.staleness)
    else:
        # the equal-GPU comparison: the same GPUs colocated and synchronous against async with partial rollouts
        # on the GPUs the step is timed on (the fewest that fit, when the state's own do not)
        eq = equal_gpu_steps(i.model_copy(update={"gpus": timed_gpus}), GPUS[i.gpu], step)
        args = dict(generation_s=step.generation_s, rest_s=step.scoring_s + step.training_s, total_s=step.total_s,
                    sync_s=step.sync_step_s, saved_s=max(step.sync_step_s - step.total_s, 0.0), staleness=i.staleness,
                    tail_s=step.tail_s, gpus=timed_gpus, co_sync_s=eq.colocated_sync_s,
                    async_s=eq.async_s if math.isfinite(eq.async_s) else eq.colocated_sync_s,
                    speedup=eq.colocated_sync_s / eq.async_s if eq.async_s > 0 else 1.0)
        if i.staleness:
            put("sync_vs_async", "useful", "async", **args)
        elif i.placement == "colocated":
            put("sync_vs_async", "not_yet", "colocated", **args)
        else:
            put("sync_vs_async", "trade_off", "sync", **args)
    return out
