"""The DPO route, SFT and reward-model training before the loop, and a whole run.

References [n]: the list in ``app/model/physics/__init__.py``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from app.model.assumptions import (
    DPO_BATCH_PAIRS,
    FORWARD_MFU,
    INFER_BYTES_PER_PARAM,
    TRAIN_BYTES_PER_PARAM,
    TRAIN_MFU,
    USABLE_MEMORY_FRACTION,
    GpuSpec,
)
from app.model.inputs import WorkloadInputs
from app.model.physics.architecture import forward_flops_per_token, policy_arch, train_flops_per_token
from app.model.physics.memory import (
    MAX_GPUS,
    activation_gb,
    logits_gb,
    micro_batch_tokens,
    trained_bytes_per_param,
    whole_hosts,
)
from app.model.physics.step import Step
from app.model.physics.training import compute_seconds, train_seconds
from app.model.physics.workload import _group


class Dpo(NamedTuple):
    """The DPO route on the same GPUs (``dpo``): time per pair, batch and pass, memory, and whether it fits."""

    pair_s: float            # GPU-seconds per preference pair (policy train + reference forward)
    step_s: float            # wall clock for one DPO batch on all GPUs
    reference_step_s: float  # of which the reference model's forward (log-probs of chosen and rejected)
    epoch_s: float           # wall clock for one pass over `pairs`
    total_s: float           # `epochs` passes
    per_gpu_gb: float        # policy states + reference weights, ZeRO-3 over all GPUs
    total_gb: float
    fits: bool
    min_gpus: int | None
    tokens_per_pair: int
    activation_gb: float = 0.0  # checkpointed activations of one micro-batch on each GPU
    logits_gb: float = 0.0      # its logits (bf16 + fp32)
    timed_gpus: int | None = None  # the GPUs its times are on (``dpo_timed``): the given, the fewest that fit, or none


def dpo(inputs: WorkloadInputs, gpu: GpuSpec) -> Dpo:
    """DPO: per pair, chosen and rejected responses (2 · (prompt + response) tokens) go through the policy
    (trained: 6 · N_active + attention per token; LoRA 4 · N_active) and the frozen reference (2 · N_active; can be
    precomputed once) — no reward model, no critic, no generation [DPO paper].  Memory: the trained bytes per
    parameter (16; 4 with offload; ≈ 2.08 with LoRA) + the 2 B/param reference (none under LoRA), ZeRO-3 over G,
    plus one micro-batch's activations and logits per GPU."""
    arch = policy_arch(inputs)
    lora = inputs.tuning == "lora"
    seq = inputs.prompt_tokens + inputs.response_tokens
    tokens = 2 * seq
    ctx = seq / 2.0
    reference_pair_s = compute_seconds(forward_flops_per_token(arch, ctx) * tokens, 1, gpu, FORWARD_MFU)
    pair_s = compute_seconds(train_flops_per_token(arch, ctx, lora) * tokens, 1, gpu, TRAIN_MFU) + reference_pair_s
    gpu_bytes, _ = trained_bytes_per_param(inputs.offload, inputs.tuning)
    total_gb = (gpu_bytes + (0.0 if lora else INFER_BYTES_PER_PARAM)) * arch.total_b
    micro = micro_batch_tokens(seq, inputs.max_tokens_per_gpu)
    act, logit = activation_gb(arch, micro), logits_gb(arch.vocab, micro)
    extra = act + logit
    usable = gpu.memory_gb * USABLE_MEMORY_FRACTION
    epoch = inputs.pairs * pair_s / inputs.gpus
    return Dpo(
        pair_s=pair_s, step_s=DPO_BATCH_PAIRS * pair_s / inputs.gpus,
        reference_step_s=DPO_BATCH_PAIRS * reference_pair_s / inputs.gpus, epoch_s=epoch, total_s=epoch * inputs.epochs,
        per_gpu_gb=total_gb / inputs.gpus, total_gb=total_gb, fits=total_gb / inputs.gpus + extra <= usable,
        min_gpus=whole_hosts(_dpo_min_gpus(total_gb, extra, usable), gpu.node_gpus),
        tokens_per_pair=tokens, activation_gb=act, logits_gb=logit, timed_gpus=inputs.gpus,
    )


def dpo_timed(inputs: WorkloadInputs, gpu: GpuSpec) -> Dpo:
    """The DPO route's memory on the GPUs given and its times by the timing rule (``stage_cost.timed_gpus``): on
    the GPUs given when it fits, on the fewest that fit when it does not (``timed_gpus`` then says how many, and
    every surface labels them "at N GPUs"), and nowhere when none up to 4,096 does (``timed_gpus`` None: the times
    are the given GPUs', which no surface shows)."""
    d = dpo(inputs, gpu)
    if d.fits:
        return d
    if d.min_gpus is None:
        return d._replace(timed_gpus=None)
    at = dpo(inputs.model_copy(update={"gpus": d.min_gpus}), gpu)
    return d._replace(step_s=at.step_s, reference_step_s=at.reference_step_s, epoch_s=at.epoch_s,
                      total_s=at.total_s, timed_gpus=d.min_gpus)


def _dpo_min_gpus(total_gb: float, per_gpu_extra_gb: float, usable_gb: float) -> int | None:
    """The fewest G with total / G + extra ≤ usable: ⌈total / (usable − extra)⌉, None beyond 4,096 or when the
    micro-batch alone does not fit.

    >>> _dpo_min_gpus(126.0, 17.2, 72.0), _dpo_min_gpus(126.0, 80.0, 72.0)
    (3, None)
    """
    room = usable_gb - per_gpu_extra_gb
    if room <= 0:
        return None
    g = max(1, math.ceil(total_gb / room - 1e-9))
    return g if g <= MAX_GPUS else None


class Stages(NamedTuple):
    """Cost of the stages before the RL loop, one pass over their data on all GPUs."""

    sft_epoch_s: float
    sft_per_gpu_gb: float
    rm_epoch_s: float
    rm_per_gpu_gb: float
    sft_timed_gpus: int | None = None  # the GPUs each epoch is timed on (the timing rule, ``_timed_on``)
    rm_timed_gpus: int | None = None


def _timed_on(total_gb: float, usable_gb: float, gpus: int) -> int | None:
    """The timing rule for a stage whose states shard over G (``stage_cost.timed_gpus``): G when they fit, the
    fewest that fit (⌈total / usable⌉) when they do not, None beyond 4,096.

    >>> _timed_on(112.0, 72.0, 8), _timed_on(112.0, 72.0, 1), _timed_on(1e6, 72.0, 1)
    (8, 2, None)
    """
    if total_gb / gpus <= usable_gb:
        return gpus
    least = max(1, math.ceil(total_gb / usable_gb - 1e-9))
    return least if least <= MAX_GPUS else None


def offline_stages(inputs: WorkloadInputs, gpu: GpuSpec) -> Stages:
    """SFT: demos · (prompt + response) tokens · 6 · N_active.  RM: pairs · 2 · (prompt + response) tokens · 6N_rm.
    Both with Adam states (16 B/param of the total parameters) sharded over all GPUs; each epoch timed on the GPUs
    given when its states fit, else on the fewest that do (``sft_timed_gpus`` / ``rm_timed_gpus``; None: none up
    to 4,096 does, and its time is the given GPUs', which no surface shows)."""
    ctx = inputs.prompt_tokens + inputs.response_tokens
    arch = policy_arch(inputs)
    usable = gpu.memory_gb * USABLE_MEMORY_FRACTION
    sft_gb, rm_gb = TRAIN_BYTES_PER_PARAM * arch.total_b, TRAIN_BYTES_PER_PARAM * inputs.rm_b
    sft_at, rm_at = _timed_on(sft_gb, usable, inputs.gpus), _timed_on(rm_gb, usable, inputs.gpus)
    return Stages(
        sft_epoch_s=train_seconds(arch.active_b, inputs.demos * ctx, sft_at or inputs.gpus, gpu),
        sft_per_gpu_gb=sft_gb / inputs.gpus,
        rm_epoch_s=train_seconds(inputs.rm_b, 2 * inputs.pairs * ctx, rm_at or inputs.gpus, gpu),
        rm_per_gpu_gb=rm_gb / inputs.gpus,
        sft_timed_gpus=sft_at, rm_timed_gpus=rm_at,
    )


class Run(NamedTuple):
    """One pass over the data: steps, wall clock and GPU-hours (what a budget is written in), and the part of the
    wall clock validation takes (a pass every ``eval_every`` steps, ``Step.validation_s``)."""

    steps: int
    hours: float
    gpu_hours: float
    validation_hours: float = 0.0
    evals: int = 0   # evaluations within the run, ⌊steps / eval_every⌋: 0 when the run ends before its first eval


def rl_run(inputs: WorkloadInputs, step: Step) -> Run:
    """``passes`` over ``prompts``: passes · ⌈prompts · group / rollouts⌉ steps (group = 1 for PPO), × step time,
    + ⌊steps / eval_every⌋ validation passes (``Step.validation_s``), × G.

    >>> from app.model.physics.generation import NO_GENERATION
    >>> from app.model.physics.step import gpu_groups
    >>> rl_run(WorkloadInputs(prompts=31_000, rollouts=512), Step(0, 0, 0, 0, 3600.0, 0, 0, 0, 0, 0, 0,
    ...        gpu_groups(8, True), NO_GENERATION)).steps
    61
    """
    if inputs.rollouts <= 0 or inputs.prompts <= 0:
        return Run(0, 0.0, 0.0)
    steps = inputs.passes * math.ceil(inputs.prompts * _group(inputs) / inputs.rollouts - 1e-9)
    evals = steps // inputs.eval_every
    validation_hours = evals * step.validation_s / 3600.0
    hours = steps * step.total_s / 3600.0 + validation_hours
    return Run(steps, hours, hours * inputs.gpus, validation_hours, evals)


def dpo_run(inputs: WorkloadInputs, d: Dpo) -> Run:
    """DPO: ⌈pairs / 64⌉ · epochs steps; wall clock = epochs · one pass over the pairs."""
    steps = math.ceil(inputs.pairs / DPO_BATCH_PAIRS) * inputs.epochs
    hours = d.total_s / 3600.0
    return Run(steps, hours, hours * inputs.gpus, evals=steps // inputs.eval_every)
