"""The cards about the rollouts: the generation engine's throughput, and on-policy or k steps stale."""

from __future__ import annotations

import math

from app.model.assumptions import GENERATION_SHARE_WORTH_WORK, TAIL_SHARE_WORTH_WORK
from app.model.decisions.record import Facts, Verdict, verdict


def rollout_throughput(f: Facts) -> Verdict:
    """The engine (vLLM or HF generate), the layout, the longest response."""
    i, step, memory = f.inputs, f.step, f.memory
    if not f.cost.online:
        return verdict("not_yet", "dpo" if f.cost.dpo else "no_rollouts")
    if not memory.fits and not f.timed:
        # no count fits: there is no step, and the engine's speed is not the problem
        return verdict("needed", "nofit_never", peak_gb=memory.peak_per_gpu_gb)
    lvl, g = f.meters["rollout_load"].level, step.gen
    args = dict(seconds=step.generation_s, share=step.generation_share * 100, tp=g.tensor_parallel,
                replicas=g.replicas, engine_gpus=g.engine_gpus, pp=g.pipeline, batch=g.batch, tokens_per_s=g.tokens_per_s,
                step_ms=g.decode_step_s * 1000, gather_ms=g.gather_s * 1000, tail_s=step.tail_s,
                tail_pct=step.tail_share * 100, peak_gb=memory.peak_per_gpu_gb)
    if not memory.fits:
        # the model states do not fit: first make them fit; the generation figures are those of the fewest GPUs
        # that fit (the step is timed there)
        return verdict("needed", "nofit", **args, min_gpus=f.timed_gpus)
    if i.engine == "hf":
        # HF generate all-gathers ZeRO-3-sharded weights only inside a sharded trainer: under separate placement
        # the generation GPUs hold whole weights, and one colocated GPU has nothing to gather
        reason = "hf_separate" if i.placement == "separate" else "hf_unsharded" if g.gather_s <= 0 else "hf"
        return verdict("needed", reason, **args)
    if step.tail_share >= TAIL_SHARE_WORTH_WORK:
        # running ahead already: each step still waits for its own last response unless that may carry over
        return verdict("useful", "tail_ahead" if i.staleness >= 1 else "tail", **args)
    if step.generation_is_whole:
        # asynchronous, the step is generation: not "83 s per step (100 %)": scoring and training hide behind it
        return verdict("needed" if lvl == "hot" else "useful", "async", **args)
    if lvl == "hot":
        return verdict("needed", "hot", **args)
    if lvl == "warn" or step.generation_share >= GENERATION_SHARE_WORTH_WORK:
        return verdict("useful", "warn", **args)
    # colocated, every phase already runs on every GPU: there is no split to move GPUs across
    return verdict("trade_off", "ok_colocated" if i.placement == "colocated" else "ok", **args)


def sync_vs_async(f: Facts) -> Verdict:
    """The equal-GPU comparison: the same GPUs colocated and synchronous against async with partial rollouts, on
    the GPUs the step is timed on (the fewest that fit, when the state's own do not)."""
    i, step, eq = f.inputs, f.step, f.equal_gpus
    if not f.cost.online:
        return verdict("not_yet", "no_loop")
    if eq is None:  # no count fits: no step to compare
        return verdict("not_yet", "nofit", staleness=i.staleness)
    args = dict(generation_s=step.generation_s, rest_s=step.scoring_s + step.training_s, total_s=step.total_s,
                sync_s=step.sync_step_s, saved_s=max(step.sync_step_s - step.total_s, 0.0), staleness=i.staleness,
                tail_s=step.tail_s, gpus=f.timed_gpus, co_sync_s=eq.colocated_sync_s,
                async_s=eq.async_s if math.isfinite(eq.async_s) else eq.colocated_sync_s,
                speedup=eq.colocated_sync_s / eq.async_s if eq.async_s > 0 else 1.0)
    if i.staleness:
        return verdict("useful", "async", **args)
    if i.placement == "colocated":
        return verdict("not_yet", "colocated", **args)
    return verdict("trade_off", "sync", **args)
