"""Why the page looks as it does: the reasons, most important first, each a catalogue key and its arguments."""

from __future__ import annotations

from typing import NamedTuple

from app.model import meters
from app.model.inputs import WorkloadInputs
from app.model.meters import Meter, TextArgs
from app.model.physics.offline import Dpo, Stages
from app.model.physics.step import Step
from app.model.physics.step_memory import Memory
from app.model.stage_cost import loop_of, remedy_args


class Reason(NamedTuple):
    key: str
    args: TextArgs



def _at_suffix(timed_gpus: int | None, gpus: int) -> str:
    """A time reason's key suffix by the timing rule: "" on the GPUs given, "_at" on the fewest that fit, "_nofit"
    when none up to 4,096 does."""
    return "_nofit" if timed_gpus is None else "" if timed_gpus == gpus else "_at"

def reasons(i: WorkloadInputs, stage: str, step: Step, memory: Memory, dpo_cost: Dpo, offline: Stages, bottleneck: str,
            mem_meter: Meter, at_min_gpus: Step | None = None, remedies: tuple[str, ...] = (),
            timed_gpus: int | None = None, trains_rm: bool = False) -> tuple[Reason, ...]:
    """Why the page looks as it does, most important first.  ``step`` is timed on ``timed_gpus`` (the state's own
    GPUs, or the fewest that fit: ``at_min_gpus`` is then the same step); with no count that fits (None) no reason
    quotes a time."""
    timed = timed_gpus is not None
    one = "_one" if i.gpus == 1 else ""  # one card: "this GPU", not "these GPUs" or "the fullest of 1"
    out = [Reason(key=f"why.stage.{stage}", args={"pairs": i.pairs, "rollouts": i.rollouts, "eval_every": i.eval_every,
                                          "demos": i.demos, "share": step.generation_share * 100})]
    loop = loop_of(stage)  # the stage switch's one home (stage_cost)
    if loop == "rl":
        # generation ahead of the step with everything else behind it: the step *is* generation (not "the 83 s step
        # spends 83 s (100 %) generating")
        whole = bottleneck == "rollout_gen" and step.generation_is_whole
        # model states that do not fit: the bottleneck is memory (not "policy update … generation 33 h (100 %)"),
        # and the step is the one where they first fit, or none
        if not memory.fits:
            out.append(Reason(key=meters.nofit_reason(mem_meter, i.offload), args={
                "per_gpu_gb": mem_meter.per_gpu_gb, "min_gpus": mem_meter.min_gpus or 0,
                "gpus": i.gpus}))
        else:
            key = "why.bottleneck.rollout_gen_async" if whole else f"why.bottleneck.{bottleneck}"
            out.append(Reason(key=key, args={
                "generation_s": step.generation_s, "scoring_s": step.scoring_s, "training_s": step.training_s,
                "total_s": step.total_s, "share": step.generation_share * 100, "bound": step.gen.bound,
                "epochs": i.epochs, "per_gpu_gb": mem_meter.per_gpu_gb,
                "min_gpus": mem_meter.min_gpus or 0}))
        if at_min_gpus is not None:
            # a state that does not fit is not timed as if it ran: the step where it first fits, labelled
            out.append(Reason(key="why.fit.at_min_gpus", args={
                "min_gpus": timed_gpus, "total_s": at_min_gpus.total_s,
                "generation_s": at_min_gpus.generation_s, "training_s": at_min_gpus.training_s}))
        elif not timed:
            # each remedy's text quotes the values it was tried with (the largest GPU, the micro-batch, the CP degree)
            out.extend(Reason(key=f"why.fit.remedy.{name}", args=remedy_args(name)) for name in remedies)
            if not remedies:
                out.append(Reason(key="why.fit.remedy.none", args=remedy_args("none")))
        if timed and i.placement == "separate":  # no step (nothing fits): no layout, sync or tail to explain
            # no scoring GPUs (a verifier, no reference): the scoring forwards run on the training GPUs
            key = "why.placement.separate" if step.groups.scoring else "why.placement.separate_no_score"
            out.append(Reason(key=key, args={
                "gen": step.groups.generation, "score": step.groups.scoring, "train": step.groups.training,
                "hidden_s": step.scoring_hidden_s, "idle_pct": 100 * step.idle_gpu_s / (step.total_s * timed_gpus),
                "fixed_s": step.gpu_groups.fixed_step_s, "total_s": step.total_s, "sync_s": step.sync_s}))
        elif timed:
            g = step.gen
            # an engine whose replicas span nodes (pp > 1) or leave GPUs over names its GPUs: not "128 GPUs …
            # generation runs TP 8" beside an engine line of 3 replicas of TP 8 × PP 5 (120 GPUs)
            every = g.engine_gpus == timed_gpus  # the engine's replicas fill every GPU (else some wait while it generates)
            shape = "" if g.pipeline == 1 and every else "_engine_all" if every else "_engine"
            key = f"why.placement.colocated{shape}" if i.engine == "vllm" else (
                "why.placement.colocated_hf" if g.gather_s > 0 else
                "why.placement.colocated_hf_unsharded")  # one GPU: nothing to all-gather
            out.append(Reason(key=key, args={
                "gpus": timed_gpus, "tp": g.tensor_parallel, "pp": g.pipeline, "replicas": g.replicas,
                "engine_gpus": g.engine_gpus, "batch": g.batch, "sync_s": step.sync_s,
                "gather_ms": g.gather_s * 1000}))
        if timed and step.env_wait_s > 0:
            # sync: every turn's batch drains and waits; async: only what the longest trajectory's own path exposes
            out.append(Reason(key=f"why.env.{i.agent_loop}", args={
                "env_s": step.env_wait_s, "turns": i.turns, "latency_s": i.env_latency_s,
                "generation_s": step.generation_s, "share": 100 * step.env_wait_s / step.generation_s}))
        if timed and step.tail_s > 0:
            # running ahead, each step's generation still drains to its own slowest sequence: not "a synchronous
            # step waits" on a step that is not synchronous
            out.append(Reason(key="why.tail_ahead" if i.staleness >= 1 else "why.tail", args={"tail_s": step.tail_s, "generation_s": step.generation_s,
                                           "longest": i.response_max_tokens, "mean": i.response_tokens,
                                           "share": step.tail_share * 100}))
    elif loop == "dpo":
        # DPO's pass, like every time, is on the GPUs it is timed on (Dpo.timed_gpus): labelled, or none
        at = dpo_cost.timed_gpus
        out.append(Reason(key="why.dpo.removes" + _at_suffix(at, i.gpus), args={
            "ppo_gb": memory.total_gb, "dpo_gb": dpo_cost.total_gb, "epoch_s": dpo_cost.epoch_s, "pairs": i.pairs,
            "gpus": at or 0}))
    elif trains_rm:  # before the loop, the reward model trains (``StageCost.trains_rm``)
        at = offline.rm_timed_gpus
        key = "why.offline.rm" + (_at_suffix(at, i.gpus) or one)
        out.append(Reason(key=key, args={"rm_s": offline.rm_epoch_s, "pairs": i.pairs, "rm_b": i.rm_b,
                                         "gpus": at or 0}))
    else:
        at = offline.sft_timed_gpus
        key = "why.offline.sft" + (_at_suffix(at, i.gpus) or one)
        out.append(Reason(key=key, args={"sft_s": offline.sft_epoch_s, "demos": i.demos, "gpus": at or 0}))
    args = dict(mem_meter.figure_args)
    out.append(Reason(key=meters.memory_reason(mem_meter, one=i.gpus == 1), args=args))
    return tuple(out)
