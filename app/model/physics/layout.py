"""The training layout: how the trained models are cut over the training GPUs, and what each GPU then holds.

Two backends, chosen as the frameworks do (verl docs/perf/dpsk.md, NeMo RL performance recipes): FSDP / ZeRO-3 for
dense models up to ``fsdp_max_dense_b`` (verl's FSDP workers, NeMo RL's DTensor policy); Megatron for mixtures of
experts and larger dense models (tensor parallelism ≤ 8 inside a node × pipeline × expert × context parallelism,
the distributed optimizer over the data-parallel ranks).

Memory per GPU.  FSDP: every model state sharded over all G GPUs, 16 B/param / G (ZeRO-3 [1]).  Megatron: a GPU
holds the shard of its model-parallel group, the dense part / (TP · PP) and the experts / (EP · PP), at
``6 + 12 / d`` bytes per parameter (bf16 weights and fp32 gradients stay, the fp32 main weights and Adam moments are
sharded over the d data-parallel copies of that shard; Megatron-LM distributed optimizer).  Activations of one
micro-batch of ``max_tokens_per_gpu`` tokens are split by TP (sequence parallelism) and by context parallelism; the
log-probs' logits are computed in chunks of ``logits_chunk_tokens`` (fp32, split by TP: vocabulary parallel).

Conventions: sizes ``*_b`` are billions of parameters, so ``bytes_per_param × params_b`` is GB (10^9 B).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from app.model.assumptions import (
    FSDP_MAX_DENSE_B,
    GPUS_PER_NODE,
    INFER_BYTES_PER_PARAM,
    LORA_TRAINABLE_FRACTION,
    MEGATRON_MAX_EXPERT_PARALLEL,
    MEGATRON_MAX_PIPELINE,
    MEGATRON_RESIDENT_BYTES_PER_PARAM,
    MEGATRON_SHARDED_BYTES_PER_PARAM,
    Arch,
)
from app.model.physics.memory import (
    MAX_GPUS,
    activation_gb,
    logits_gb,
    micro_batch_tokens,
    min_gpus_that_fit,
    trained_bytes_per_param,
)
from app.model.physics.workload import Workload


@dataclass(frozen=True, slots=True)
class TrainingLayout:
    """The trainer's parallel layout on ``gpus`` GPUs and what one GPU holds in the training phase, GB."""

    backend: str              # "fsdp" | "megatron"
    tp: int                   # tensor parallel (inside a node)
    pp: int                   # pipeline stages
    ep: int                   # expert parallel (1 for a dense model)
    cp: int                   # context parallel
    dp: int                   # data-parallel copies of the dense shard: G / (TP · PP · CP)
    expert_dp: int            # data-parallel copies of the experts' shard: G / (EP · PP)
    gpus: int
    actor_gb: float           # the policy's states on one GPU
    critic_gb: float          # the value model's states (PPO)
    reference_gb: float       # the frozen reference on the training GPUs (colocated)
    reward_gb: float          # the frozen reward model on the training GPUs (colocated)
    activation_gb: float      # checkpointed activations of one micro-batch (split by TP and CP)
    logits_gb: float          # one chunk of fp32 logits (split by TP)
    params_b_per_gpu: float   # trained parameters whose shard one GPU updates (host traffic under offload)
    usable_gb: float
    host_gb: float = 0.0      # offloaded states of all training GPUs, in host memory

    @property
    def states_gb(self) -> float:
        return self.actor_gb + self.critic_gb + self.reference_gb + self.reward_gb

    @property
    def extra_gb(self) -> float:
        """Activations and logits of the training phase."""
        return self.activation_gb + self.logits_gb

    @property
    def peak_gb(self) -> float:
        """The training phase's fullest moment: states + activations + logits."""
        return self.states_gb + self.extra_gb

    @property
    def fits(self) -> bool:
        return self.peak_gb <= self.usable_gb + 1e-9


def backend_for(arch: Arch) -> str:
    """Megatron for a mixture of experts or a dense model above ``fsdp_max_dense_b``, FSDP otherwise.

    >>> from app.model.assumptions import ARCHS
    >>> backend_for(ARCHS["llama3_70b"]), backend_for(ARCHS["llama3_405b"]), backend_for(ARCHS["qwen3_30b_a3b"])
    ('fsdp', 'megatron', 'megatron')
    """
    return "megatron" if arch.moe or arch.total_b > FSDP_MAX_DENSE_B else "fsdp"


def megatron_bytes_per_param(d: int, offload: str, tuning: str) -> tuple[float, float]:
    """(GPU, host) bytes per parameter of a Megatron shard held by d data-parallel copies: 6 + 12 / d [distributed
    optimizer]; ``offload=optimizer``: 6 on the GPU, 12 / d on the host; ``params``: all on the host.  LoRA: the
    frozen bf16 base (2 B) plus adapters of 0.5 % at 6 + 12 / d.

    >>> megatron_bytes_per_param(16, "none", "full"), megatron_bytes_per_param(1, "none", "full")
    ((6.75, 0.0), (18.0, 0.0))
    """
    resident, sharded = MEGATRON_RESIDENT_BYTES_PER_PARAM, MEGATRON_SHARDED_BYTES_PER_PARAM / max(d, 1)
    if tuning == "lora":
        adapters = LORA_TRAINABLE_FRACTION * (resident + sharded)
        if offload == "params":
            return 0.0, INFER_BYTES_PER_PARAM + adapters
        return INFER_BYTES_PER_PARAM + adapters, 0.0
    if offload == "optimizer":
        return resident, sharded
    if offload == "params":
        return 0.0, resident + sharded
    return resident + sharded, 0.0


def megatron_states_gb(arch: Arch, tp: int, pp: int, ep: int, gpus: int, offload: str = "none",
                       tuning: str = "full") -> tuple[float, float, float]:
    """(GPU GB, host GB per GPU, parameters in B) of one model's states on one GPU of a Megatron layout: the dense
    part / (TP · PP) at 6 + 12 / d, d = G / (TP · PP); the experts / (EP · PP) at 6 + 12 / d_e, d_e = G / (EP · PP).

    DeepSeek-V3 on 256 GPUs at EP 16 × PP 16 (TP 1): 653.9 / 256 = 2.55 B expert parameters at 18 B (d_e = 1) and
    17.1 / 16 = 1.07 B dense at 6.75 B (d = 16): ≈ 53 GB before activations.

    >>> from app.model.assumptions import ARCHS
    >>> round(megatron_states_gb(ARCHS["deepseek_v3"], 1, 16, 16, 256)[0], 1)
    53.2
    """
    dense_b, expert_b = arch.dense_b / (tp * pp), arch.expert_b / (ep * pp)
    d, d_e = gpus // (tp * pp), gpus // (ep * pp)
    dense_gpu, dense_host = megatron_bytes_per_param(d, offload, tuning)
    expert_gpu, expert_host = megatron_bytes_per_param(d_e, offload, tuning)
    return (dense_b * dense_gpu + expert_b * expert_gpu, dense_b * dense_host + expert_b * expert_host,
            dense_b + expert_b)


def _layout(w: Workload, backend: str, tp: int, pp: int, ep: int, gpus: int, colocated: bool) -> TrainingLayout:
    """The layout of one (TP, PP, EP) on ``gpus`` training GPUs, with what each GPU holds."""
    cp = w.context_parallel
    micro = micro_batch_tokens(w.longest_seq_tokens, w.max_tokens_per_gpu)
    act = activation_gb(w.arch, micro) / (tp * cp)
    logit = logits_gb(w.arch.vocab, micro / cp) / tp
    if w.critic:
        act = max(act, activation_gb(w.critic_arch, micro) / (tp * cp))
    mem = w.mem
    if backend == "fsdp":
        gpu_bytes, host_bytes = trained_bytes_per_param(w.offload, w.tuning)
        actor = mem.actor_gb / gpus
        critic = mem.critic_gb / gpus
        reference = mem.reference_gb / gpus
        host = host_bytes * w.trained_b
        params = w.trained_b / gpus
    else:
        actor, host_actor, params = megatron_states_gb(w.arch, tp, pp, ep, gpus, w.offload, w.tuning)
        critic, host_critic, critic_params = (megatron_states_gb(w.critic_arch, tp, pp, 1, gpus, w.offload, w.tuning)
                                              if w.critic else (0.0, 0.0, 0.0))
        params += critic_params
        reference = INFER_BYTES_PER_PARAM * (w.arch.dense_b / (tp * pp) + w.arch.expert_b / (ep * pp)) if (
            w.reference) else 0.0
        host = (host_actor + host_critic) * gpus
    return TrainingLayout(
        backend=backend, tp=tp, pp=pp, ep=ep, cp=cp, dp=max(gpus // (tp * pp * cp), 1),
        expert_dp=max(gpus // (ep * pp), 1) if w.arch.moe else max(gpus // (tp * pp * cp), 1), gpus=gpus,
        actor_gb=actor, critic_gb=critic, reference_gb=reference if colocated else 0.0,
        reward_gb=mem.reward_gb / gpus if colocated else 0.0, activation_gb=act, logits_gb=logit,
        params_b_per_gpu=params, usable_gb=w.usable_gb, host_gb=host,
    )


def megatron_candidates(arch: Arch, gpus: int, cp: int, max_tp: int = GPUS_PER_NODE) -> list[tuple[int, int, int]]:
    """(TP, PP, EP) in the order a Megatron user tries them: pipeline stages as few as possible (1, 2, 4, … up to
    ``megatron_max_pipeline``), and
    for each the tensor-parallel degree 1 → 8 inside a host (``max_tp``: ``GpuSpec.node_gpus``, 8 on HGX, a GB200
    tray's 4 — NeMo RL's GB200 recipes train at TP 1–4, and a launch command's TP stays on one host); experts over as many GPUs as the stage's ranks allow,
    up to ``megatron_max_expert_parallel`` (every NeMo RL MoE recipe uses EP 8–16); TP · PP · CP and EP · PP divide
    the GPUs (Megatron-Core refuses a remainder).  A pipeline need not divide the layers: Megatron places the rest
    with ``num_layers_in_first/last_pipeline_stage`` (verl's DeepSeek-V3 recipe: 61 layers over 16 stages)."""
    out = []
    pp = 1
    while pp <= min(arch.layers, gpus, MEGATRON_MAX_PIPELINE):
        per_stage = gpus // pp
        ep = 1
        if arch.moe:
            while ep * 2 <= min(arch.experts, MEGATRON_MAX_EXPERT_PARALLEL, per_stage):
                ep *= 2
        while ep > 1 and gpus % (ep * pp):
            ep //= 2
        for tp in (1, 2, 4, 8):
            # Megatron-Core's parallel state: the world divides into TP · PP · CP model-parallel groups and EP · PP
            # expert groups (megatron/core/parallel_state.py ``initialize_model_parallel`` raises when "world_size
            # … is not divisible by tensor_model_parallel_size … x pipeline_model_parallel_size … x
            # context_parallel_size")
            if tp <= max_tp and gpus % (tp * pp * cp) == 0:
                out.append((tp, pp, ep))
        pp *= 2
    return out


@lru_cache(maxsize=4096)
def training_layout(w: Workload, gpus: int, colocated: bool) -> TrainingLayout:
    """The trainer's layout on ``gpus`` GPUs: FSDP over all of them, or the first Megatron (TP, PP, EP) whose
    training phase fits (``megatron_candidates``); the last one tried when none fits (it does not fit).  Each
    workload's layout on a GPU count is worked out once (the fit search and the step ask for the same ones)."""
    gpus = max(gpus, 1)
    backend = backend_for(w.arch)
    if backend == "fsdp":
        return _layout(w, "fsdp", 1, 1, 1, gpus, colocated)
    candidates = megatron_candidates(w.arch, gpus, w.context_parallel, w.gpu.node_gpus) or [(1, 1, 1)]
    layout = None
    for tp, pp, ep in candidates:
        layout = _layout(w, "megatron", tp, pp, ep, gpus, colocated)
        if layout.fits:
            return layout
    return layout  # type: ignore[return-value]


@lru_cache(maxsize=4096)
def fitting_layouts(w: Workload, gpus: int, colocated: bool) -> tuple[TrainingLayout, ...]:
    """Every layout on ``gpus`` GPUs whose training phase fits (FSDP: the one; Megatron: each candidate that
    fits), for the step to take the fastest of (``training.fastest_layout``)."""
    gpus = max(gpus, 1)
    if backend_for(w.arch) == "fsdp":
        layout = _layout(w, "fsdp", 1, 1, 1, gpus, colocated)
        return (layout,) if layout.fits else ()
    candidates = (_layout(w, "megatron", tp, pp, ep, gpus, colocated)
                  for tp, pp, ep in megatron_candidates(w.arch, gpus, w.context_parallel, w.gpu.node_gpus))
    return tuple(layout for layout in candidates if layout.fits)


def training_fits(w: Workload, gpus: int, colocated: bool) -> bool:
    """Whether some layout on ``gpus`` GPUs fits.  Megatron: for each pipeline depth the widest TP holds the least per
    GPU — states 6 · N / (TP · PP) + 12 · N / G and activations / TP fall as TP grows — so those few are checked."""
    gpus = max(gpus, 1)
    if backend_for(w.arch) == "fsdp":
        return _layout(w, "fsdp", 1, 1, 1, gpus, colocated).fits
    widest: dict[int, tuple[int, int, int]] = {}
    for tp, pp, ep in megatron_candidates(w.arch, gpus, w.context_parallel, w.gpu.node_gpus):
        widest[pp] = (tp, pp, ep)  # candidates come in rising TP for each PP
    return any(_layout(w, "megatron", tp, pp, ep, gpus, colocated).fits for tp, pp, ep in widest.values())


def megatron_counts(node_gpus: int) -> tuple[int, ...]:
    """The GPU counts a Megatron trainer is given, smallest first: powers of 2 up to a host, then whole hosts.

    >>> megatron_counts(8)[:6], megatron_counts(4)[:5], megatron_counts(8)[-1]
    ((1, 2, 4, 8, 16, 24), (1, 2, 4, 8, 12), 4096)
    """
    small = tuple(2 ** k for k in range(node_gpus.bit_length()) if 2 ** k <= node_gpus)
    return small + tuple(range(2 * node_gpus, MAX_GPUS + 1, node_gpus))


def min_training_gpus(w: Workload, colocated: bool = False) -> int | None:
    """The fewest training GPUs whose layout fits (at least one per trained model), None beyond 4,096: found by
    galloping and bisection (``min_gpus_that_fit``) from a floor below which the states cannot fit — every GPU holds
    at least its share of the resident bytes, Σ parameters · bytes per parameter as d grows without bound / G."""
    layout = training_layout(w, 1, colocated)
    if layout.backend == "fsdp":
        floor_gb, room = layout.states_gb, w.usable_gb - layout.extra_gb
    else:  # activations and logits split by TP up to a node's 8 GPUs
        resident = megatron_bytes_per_param(MAX_GPUS, w.offload, w.tuning)[0]
        floor_gb = resident * (w.arch.total_b + (w.rm_b if w.critic else 0.0))
        room = w.usable_gb - layout.extra_gb / GPUS_PER_NODE
    lo = max(1, math.floor(floor_gb / room)) if room > 0 else 1
    if layout.backend == "fsdp":
        found = min_gpus_that_fit(lambda g: training_fits(w, g, colocated), lo=min(lo, MAX_GPUS))
    else:
        # Megatron's groups divide the GPUs (TP · PP · CP, EP · PP), so a count with few divisors may not fit where
        # a smaller one does: the counts a Megatron run is given, powers of 2 within a host then whole hosts, are
        # searched in order instead (``megatron_counts``)
        found = next((g for g in megatron_counts(w.gpu.node_gpus) if g >= min(lo, MAX_GPUS)
                      and training_fits(w, g, colocated)), None)
    n_models = 2 if w.critic else 1
    return None if found is None else max(found, n_models)
