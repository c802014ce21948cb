"""Scoring and training: compute-bound seconds at the forward and training utilisations.

References [n]: the list in ``app/model/physics/__init__.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from app.model.assumptions import (
    FORWARD_FLOPS_PER_PARAM_TOKEN,
    FORWARD_MFU,
    INFER_BYTES_PER_PARAM,
    OFFLOAD_GPU_BYTES_PER_PARAM,
    PARAM_OFFLOAD_BYTES_PER_PARAM,
    TRAIN_FLOPS_PER_PARAM_TOKEN,
    TRAIN_MFU,
    GpuSpec,
)
from app.model.inputs import WorkloadInputs
from app.model.physics.architecture import GIGA, TERA
from app.model.physics.layout import TrainingLayout, fitting_layouts, training_layout
from app.model.physics.memory import micro_batch_tokens
from app.model.physics.network import collective_bandwidth, zero3_floor_seconds
from app.model.physics.workload import Workload


def forward_seconds(params_b: float, tokens: float, gpus: int, gpu: GpuSpec) -> float:
    """Forward pass over ``tokens``: 2N FLOPs per token [2] at the forward utilisation 0.45, s."""
    return FORWARD_FLOPS_PER_PARAM_TOKEN * params_b * GIGA * tokens / (gpus * gpu.peak_bf16_tflops * TERA * FORWARD_MFU)


def train_seconds(params_b: float, tokens: float, gpus: int, gpu: GpuSpec) -> float:
    """Forward + backward over ``tokens``: 6N FLOPs per token [2] at the training utilisation 0.35 [4], s."""
    return TRAIN_FLOPS_PER_PARAM_TOKEN * params_b * GIGA * tokens / (gpus * gpu.peak_bf16_tflops * TERA * TRAIN_MFU)


def scoring_flops(w: Workload) -> tuple[float, float]:
    """FLOPs of the scoring forwards of one step: (on the training GPUs, on the scoring GPUs).

    Training GPUs: the actor's old log-probs and, under PPO, the critic's values.  Scoring GPUs: the reference
    (kl > 0) and the reward model (reward = model); a verifier costs no GPU time (teaching assumption).  Under
    LoRA the reference is the base with adapters off, a forward on the training GPUs.  Each forward is
    2 · N_active + attention at half the sequence, per token of rollouts · (prompt + mean response).
    (Computed once per workload, in ``workload``.)"""
    return w.scoring_train_flops, w.scoring_score_flops


@dataclass(frozen=True, slots=True)
class TrainingTime:
    """One step's training on a layout, s: compute, the pipeline bubble, communication and host traffic."""

    compute_s: float          # train FLOPs / (GPUs computing · peak · 0.35)
    bubble_s: float           # pipeline bubble: compute · (p − 1) / m, m micro-batches per optimizer step
    data_parallel_s: float    # ZeRO-3 gathers (FSDP) or the shards' reduce-scatter + all-gather (Megatron)
    tensor_parallel_s: float  # sequence-parallel all-gathers / reduce-scatters inside the node
    expert_parallel_s: float  # all-to-all dispatch and combine per MoE layer
    offload_s: float          # host-link traffic of offloaded states
    total_s: float


def micro_batches_per_replica(w: Workload, layout: TrainingLayout) -> int:
    """Micro-batches one model replica (one data-parallel rank) runs per optimizer step, as a token-budget trainer
    packs them (verl ``use_dynamic_bsz``, OpenRLHF ``--train.dynamic_batch_enable``): ⌈mini-batch sequences · mean
    sequence tokens / dp / micro-batch tokens⌉, dp at most the mini-batch's sequences.  The pipeline bubble is
    (p − 1) of them.

    >>> import math
    >>> math.ceil(128 * 4_608 / 16 / 16_384)   # 128 sequences of 4,608 tokens over 16 ranks, 16,384 per micro-batch
    3
    """
    dp = max(1, min(layout.dp, w.mini_batch))
    micro = micro_batch_tokens(w.longest_seq_tokens, w.max_tokens_per_gpu)
    return max(1, math.ceil(w.mini_batch * w.seq_tokens / dp / micro - 1e-9))


def training_time(w: Workload, layout: TrainingLayout) -> TrainingTime:
    """Training one step on ``layout``, s.

    compute = Σ_models train FLOPs/token · tokens · epochs / (GPUs computing · peak · 0.35), the GPUs computing
    being dp' · TP · PP · CP with dp' = min(dp, sequences per optimizer step) (data parallelism cannot exceed
    the sequences of one optimizer step: the floor more GPUs reach).
    FSDP: max(compute, ZeRO-3 floor) [1, §5] (``zero3_floor_seconds``).
    Megatron, per optimizer step: each GPU's dense and expert shards reduce-scatter their bf16 gradients and
    all-gather the new bf16 weights over their data-parallel groups (4 B · shard · (d − 1) / d), overlapped with
    the backward pass; TP: 4 sequence-parallel collectives per layer of its stage (2 forward, 2 backward) of
    tokens · hidden · 2 B · 2 (TP − 1) / TP over NVLink; EP: 4 all-to-alls per MoE layer (dispatch and combine,
    forward and backward) of tokens / TP · k · hidden · 2 B · (EP − 1) / EP, over InfiniBand once EP · TP spans
    nodes; bubble (p − 1) / (m + p − 1) of the pipeline's time.
    step = max(compute + bubble + TP + EP, data parallel) + offload.
    Offload: each optimizer step moves each GPU's trained parameters over the host link: 4 B/param
    (``optimizer``: gradients down, weights up [6]) or 8 B/param (``params``: weights up for the forward and the
    backward, gradients down, weights back; teaching assumption); Adam on the CPU hides behind it (teaching)."""
    if layout.gpus <= 0 or w.tokens <= 0:
        return TrainingTime(compute_s=0.0, bubble_s=0.0, data_parallel_s=0.0, tensor_parallel_s=0.0,
                            expert_parallel_s=0.0, offload_s=0.0, total_s=0.0)
    gpu = w.gpu
    dp = min(layout.dp, w.mini_batch)
    model_parallel = layout.tp * layout.pp * layout.cp
    compute = w.train_flops / (dp * model_parallel * gpu.peak_bf16_tflops * TERA * w.train_mfu)
    k = w.optimizer_steps
    offload_bytes = {"optimizer": OFFLOAD_GPU_BYTES_PER_PARAM, "params": PARAM_OFFLOAD_BYTES_PER_PARAM}.get(
        w.offload, 0.0)
    offload = k * offload_bytes * layout.params_b_per_gpu * GIGA / (gpu.host_link_gb_per_s * GIGA)
    bubble = tp_s = ep_s = 0.0
    if layout.backend == "fsdp":
        comm = zero3_floor_seconds(w.arch.total_b, k, layout.gpus, gpu, w.lora)
        if w.critic:
            comm += zero3_floor_seconds(w.rm_b, k, layout.gpus, gpu, w.lora)
        return TrainingTime(compute_s=compute, bubble_s=0.0, data_parallel_s=comm, tensor_parallel_s=0.0,
                            expert_parallel_s=0.0, offload_s=offload, total_s=max(compute, comm) + offload)
    arch = w.arch
    tokens_per_replica = w.mini_batch * w.seq_tokens / dp  # one optimizer step's tokens on one model replica
    micro_batches = micro_batches_per_replica(w, layout)
    if layout.pp > 1:
        bubble = compute * (layout.pp - 1) / micro_batches
    per_gpu_tokens = tokens_per_replica / layout.cp
    if layout.tp > 1:
        payload = per_gpu_tokens * arch.hidden * INFER_BYTES_PER_PARAM * 2.0 * (layout.tp - 1) / layout.tp
        tp_s = k * 4.0 * (arch.layers / layout.pp) * payload / collective_bandwidth(gpu, layout.tp)
    if arch.moe and layout.ep > 1:
        payload = (per_gpu_tokens / layout.tp * arch.experts_per_token * arch.hidden * INFER_BYTES_PER_PARAM
                   * (layout.ep - 1) / layout.ep)
        ep_s = k * 4.0 * (arch.moe_layers / layout.pp) * payload / collective_bandwidth(gpu, layout.ep * layout.tp)
    dense_shard = arch.dense_b / (layout.tp * layout.pp) + (w.rm_b / (layout.tp * layout.pp) if w.critic else 0.0)
    expert_shard = arch.expert_b / (layout.ep * layout.pp)
    grad_and_weights = 2.0 * INFER_BYTES_PER_PARAM  # bf16 gradients reduce-scattered, bf16 weights all-gathered
    # each copy of a shard moves it once per optimizer step, however many copies there are (a ring's (d − 1) / d
    # taken at its bound, as ZeRO-3's floor is): more GPUs never add traffic per GPU
    moved_gb = grad_and_weights * (dense_shard * (layout.dp > 1) + expert_shard * (layout.expert_dp > 1))
    dp_s = k * moved_gb * GIGA / collective_bandwidth(gpu, layout.gpus) if moved_gb > 0 else 0.0
    total = max(compute + bubble + tp_s + ep_s, dp_s) + offload
    return TrainingTime(compute_s=compute, bubble_s=bubble, data_parallel_s=dp_s, tensor_parallel_s=tp_s,
                        expert_parallel_s=ep_s, offload_s=offload, total_s=total)


def generation_resident_gb(layout: TrainingLayout) -> float:
    """What a colocated trainer leaves on each GPU while the hybrid engine generates, GB.

    Megatron: nothing.  NeMo RL moves the optimizer to host memory before the refit and the model after it
    (``megatron_policy_worker.offload_before_refit`` / ``offload_after_refit``: "Offload as much as possible on the
    CPU"), as verl's Megatron MoE scripts do with param / grad / optimizer offload; the engine then gets its
    ``colocated_engine_memory_fraction`` of the GPU whatever the trainer holds between generations.  FSDP: the
    layout's states stay (verl's hybrid engine keeps them unless ``offload`` puts them on the host already)."""
    return 0.0 if layout.backend == "megatron" else layout.states_gb


def trainer_swap_seconds(w: Workload, layout: TrainingLayout) -> float:
    """A colocated Megatron trainer's states to host memory before generation and back before training, each
    step: 2 · (its states per GPU) over the host link, s (0 when the states stay, ``generation_resident_gb``)."""
    moved = layout.states_gb - generation_resident_gb(layout)
    return 2.0 * moved / w.gpu.host_link_gb_per_s if moved > 0 else 0.0


def fewer_gpu_counts(layouts: tuple[TrainingLayout, ...], n_gpus: int) -> tuple[int, ...]:
    """The GPU counts below ``n_gpus`` the trainer may run on instead (the rest left idle while it trains): the
    halvings of ``n_gpus`` and the powers of two below it, and each fitting layout's model-parallel group
    (TP · PP · CP) times 1–8 data-parallel replicas — a search over a few candidates, as the separate split's is."""
    counts = set()
    k = n_gpus
    while k > 1:
        k //= 2
        counts.add(k)
    p = 1
    while p < n_gpus:
        counts.add(p)
        p *= 2
    for layout in layouts:
        group = layout.tp * layout.pp * layout.cp
        counts.update(group * d for d in range(1, 9) if group * d < n_gpus)
    counts.discard(0)
    return tuple(sorted(counts, reverse=True))


@lru_cache(maxsize=4096)
def fastest_layout(w: Workload, n_gpus: int, colocated: bool = False, frozen: bool | None = None) -> TrainingLayout:
    """The layout the trainer takes on ``n_gpus``: the fastest of those that fit (``fitting_layouts``), as a user
    tunes it, on all the GPUs or on fewer (``fewer_gpu_counts``): a framework never runs a layout slower than one it
    could run on fewer GPUs — a small batch's data-parallel traffic over InfiniBand, or more expert-parallel ranks
    than its tokens use, can cost more than the compute it spreads — so those GPUs then sit out the training phase;
    the last one tried on all of them when none fits (``training_layout``).  ``frozen``: the reference and reward
    model live on the training GPUs (default: when colocated; a separate trainer that scores, ``trainer_scores``)."""
    frozen = colocated if frozen is None else frozen
    layouts = fitting_layouts(w, n_gpus, frozen)
    if not layouts:
        return training_layout(w, n_gpus, frozen)
    fewer = (layout for g in fewer_gpu_counts(layouts, n_gpus) for layout in fitting_layouts(w, g, frozen))

    def cost(layout: TrainingLayout) -> float:  # colocated, the states' swap to the host and back counts too
        return training_time(w, layout).total_s + (trainer_swap_seconds(w, layout) if colocated else 0.0)

    return min((*layouts, *fewer), key=cost)


def training_seconds(w: Workload, inputs: WorkloadInputs, n_gpus: int, colocated: bool = False,
                     frozen: bool | None = None) -> float:
    """Training one step on ``n_gpus``, s: ``training_time`` on the layout the trainer takes there
    (``fastest_layout``)."""
    if n_gpus <= 0 or w.tokens <= 0:
        return 0.0
    return training_time(w, fastest_layout(w, n_gpus, colocated, frozen)).total_s


def compute_seconds(flops: float, gpus: int, gpu: GpuSpec, mfu: float) -> float:
    """``flops`` on ``gpus`` at ``mfu`` of the dense BF16 peak, s."""
    if flops <= 0:
        return 0.0
    return flops / (max(gpus, 1) * gpu.peak_bf16_tflops * TERA * mfu)
