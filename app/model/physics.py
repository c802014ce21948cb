"""First-principles estimates: memory in GB, seconds per PPO step by phase, the DPO route, SFT and RM cost.

Conventions: sizes ``*_b`` are billions of parameters, so ``bytes_per_param × params_b`` is GB (10^9 B).
Every constant comes from ``assumptions``; the docstrings give the formula and the source.

References
[1] ZeRO, Rajbhandari et al. 2019, §3 and Fig. 1.   [2] Kaplan et al. 2020, §2.1 (6N / 2N FLOPs per token).
[3] vLLM blog 2023-06-20 (KV cache per token).     [4] OpenRLHF benchmark (A800, 1,024 rollouts per step).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.model.assumptions import (
    ASPECT,
    DECODE_BW_EFF,
    DPO_BATCH_PAIRS,
    FORWARD_MFU,
    FWD_FLOPS,
    GPUS,
    HYBRID_BATCH_PER_GPU,
    INFER_BYTES,
    KV_BYTES,
    MAX_TP,
    OVERHEAD_COLOCATED_S,
    OVERHEAD_SEPARATE_S,
    PARAMS_PER_LAYER_D2,
    SEPARATE_MIN_GPUS,
    TRAIN_BYTES,
    TRAIN_FLOPS,
    TRAIN_MFU,
    USABLE,
    GpuSpec,
)
from app.model.inputs import WorkloadInputs

GIGA = 1e9
TERA = 1e12


# --- shape and memory rules ------------------------------------------------------------------------


def kv_bytes_per_token(params_b: float) -> float:
    """KV-cache bytes per token for a dense multi-head-attention transformer of ``params_b`` B params.

    Shape rule (teaching assumption): N = 12·L·d² [2] with d = 128·L (LLaMA-7B: 4096/32, LLaMA-13B: 5120/40),
    so L = (N / (12·128²))^(1/3).  KV bytes per token = 2 (K and V) · L · d · 2 bytes [3].
    Models with grouped-query attention (Llama 3, Llama 2 70B) need 4–8× less; this rule is conservative.

    >>> round(kv_bytes_per_token(13) / 1e3)   # LLaMA-13B: ≈ 800 KB per token [3]
    837
    """
    layers = (params_b * GIGA / (PARAMS_PER_LAYER_D2 * ASPECT * ASPECT)) ** (1.0 / 3.0)
    return 2.0 * layers * (ASPECT * layers) * KV_BYTES


def zero_states_gb_per_gpu(params_b: float, n_gpus: int, stage: int) -> float:
    """Per-GPU model-state memory of mixed-precision Adam under ZeRO stage 0–3 [1, §5.1].

    Ψ = params; stage 0: 16Ψ, stage 1: 4Ψ + 12Ψ/N, stage 2: 2Ψ + 14Ψ/N, stage 3: 16Ψ/N (bytes).

    >>> round(zero_states_gb_per_gpu(7.5, 64, 1), 1)   # ZeRO Fig. 1: 31.4 GB
    31.4
    """
    psi, n = params_b, n_gpus
    if stage == 0:
        return TRAIN_BYTES * psi
    if stage == 1:
        return 4 * psi + 12 * psi / n
    if stage == 2:
        return 2 * psi + 14 * psi / n
    return TRAIN_BYTES * psi / n


@dataclass(frozen=True, slots=True)
class ModelMemory:
    """GB of each model in the PPO loop (whole model, before sharding)."""

    actor_gb: float       # policy being trained: 16 B/param [1]
    critic_gb: float      # value model, same size as the reward model: 16 B/param
    reference_gb: float   # frozen SFT copy: 2 B/param (bf16)
    reward_gb: float      # frozen reward model: 2 B/param
    generation_weights_gb: float  # the policy's bf16 copy in the inference engine, per replica

    @property
    def states_gb(self) -> float:
        return self.actor_gb + self.critic_gb + self.reference_gb + self.reward_gb


def model_memory(policy_b: float, rm_b: float) -> ModelMemory:
    return ModelMemory(
        actor_gb=TRAIN_BYTES * policy_b,
        critic_gb=TRAIN_BYTES * rm_b,
        reference_gb=INFER_BYTES * policy_b,
        reward_gb=INFER_BYTES * rm_b,
        generation_weights_gb=INFER_BYTES * policy_b,
    )


# --- GPU groups -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Groups:
    """How many GPUs do what. Colocated: every role uses all GPUs, one phase after another."""

    generation: int
    scoring: int
    training: int
    colocated: bool


def gpu_groups(gpus: int, colocated: bool) -> Groups:
    """Separate placement (teaching assumption, after OpenRLHF's 8-GPU 7B layout: 4 train, 2 vLLM, 2 ref+RM):
    training ⌈G/2⌉, generation ⌈⌊G/2⌋/2⌉, scoring the rest. Each count never falls as G grows.

    >>> gpu_groups(8, False)
    Groups(generation=2, scoring=2, training=4, colocated=False)
    """
    if colocated:
        return Groups(gpus, gpus, gpus, True)
    training = (gpus + 1) // 2
    rest = gpus - training
    generation = (rest + 1) // 2
    return Groups(generation, rest - generation, training, False)


def _rates_of(gpu: GpuSpec) -> tuple[float, float, float]:
    """(achieved forward FLOP/s, achieved decode bandwidth B/s, host link B/s) of one GPU."""
    return (
        gpu.peak_bf16_tflops * TERA * FORWARD_MFU,
        gpu.hbm_bandwidth_tb_per_s * TERA * DECODE_BW_EFF,
        gpu.host_link_gb_per_s * GIGA,
    )


# Input-independent, so computed once per known GPU (keyed by identity: hashing a GpuSpec costs more than
# the three products it saves).  Any other GpuSpec is computed on the fly.
_RATES: dict[int, tuple[GpuSpec, tuple[float, float, float]]] = {id(g): (g, _rates_of(g)) for g in GPUS.values()}


def _gpu_rates(gpu: GpuSpec) -> tuple[float, float, float]:
    known = _RATES.get(id(gpu))
    if known is not None and known[0] is gpu:
        return known[1]
    return _rates_of(gpu)


# --- generation: the decode roofline ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Generation:
    seconds: float            # wall clock for all rollouts of one step
    gpus: int
    tensor_parallel: int      # GPUs per engine replica
    replicas: int
    batch: float              # sequences decoded together per replica (average over waves)
    waves: int                # batches each replica runs one after another
    kv_gb_per_replica: float
    offloaded_gb: float       # weights + KV that do not fit and stream over the host link
    decode_step_s: float      # one decode step of one wave
    tokens_per_s: float       # generated tokens per second, all replicas
    bound: str                # "memory" | "compute" | "host_link" | "none"


NO_GENERATION = Generation(0.0, 0, 0, 0, 0.0, 0, 0.0, 0.0, 0.0, 0.0, "none")


def generation(
    policy_b: float,
    rollouts: int,
    prompt_tokens: int,
    response_tokens: int,
    gen_gpus: int,
    gpu: GpuSpec,
    resident_gb_per_gpu: float,
    step_overhead_s: float,
    batch_cap_per_gpu: float = math.inf,
) -> Generation:
    """Wall-clock seconds to generate ``rollouts`` responses on ``gen_gpus`` GPUs.

    For each tensor-parallel degree tp ∈ {1, 2, 4, …} (replicas = ⌊G/tp⌋) the engine holds the bf16 weights W
    and fills what memory is left with KV cache: batch B = ⌊(tp·M·0.9 − resident − W) / (ctx · kv)⌋.
    Each replica decodes S = R/replicas sequences in ⌈S/B⌉ waves; a wave of b sequences costs
        prefill:  b · prompt · 2N / (tp · peak · mfu_fwd)
        decode:   response · [max((W + b · (prompt + response/2) · kv) / (tp · HBM · eff),
                                  b · 2N / (tp · peak · mfu_fwd)) + overhead]
    (decoding reads the weights once per step plus the batch's KV cache: the bandwidth roofline).  What does not
    fit streams over the host link instead.  The fastest tp is taken, as an engine would be tuned.
    A hybrid engine (colocated) also caps the batch at ``batch_cap_per_gpu`` · tp: its KV cache and workspace
    are allocated beside the training states, not paged.
    """
    if rollouts <= 0 or gen_gpus <= 0:
        return NO_GENERATION
    kv_per_token = kv_bytes_per_token(policy_b)
    weights_gb = INFER_BYTES * policy_b
    kv_seq_gb = (prompt_tokens + response_tokens) * kv_per_token / GIGA
    avg_ctx = prompt_tokens + response_tokens / 2.0
    free_per_gpu_gb = gpu.memory_gb * USABLE - resident_gb_per_gpu
    flops_per_token = FWD_FLOPS * policy_b * GIGA
    peak, bandwidth, host = _gpu_rates(gpu)
    floor, ceil = math.floor, math.ceil
    # The best engine so far, kept as plain locals: one Generation is built at the end (hot path).
    best_seconds = math.inf
    best = (0, 0, 0.0, 0, 0.0, 0.0, 0.0, 0.0)
    tp = 1
    limit = min(gen_gpus, MAX_TP)
    while tp <= limit:
        replicas = gen_gpus // tp
        room_gb = tp * free_per_gpu_gb - weights_gb
        if room_gb >= kv_seq_gb:
            batch_cap = floor(room_gb / kv_seq_gb)
            offloaded_gb = 0.0
        else:
            batch_cap = 1
            offloaded_gb = min(weights_gb + kv_seq_gb, kv_seq_gb - room_gb)
        # batch_cap = max(1, min(batch_cap_per_gpu · tp, batch_cap)), waves ≥ 1 and t_mem's max(…, 0) below are
        # written as comparisons: the same values, without builtin calls in the hot loop
        hybrid_cap = batch_cap_per_gpu * tp
        if not batch_cap < hybrid_cap:
            batch_cap = hybrid_cap
        if not batch_cap > 1:
            batch_cap = 1
        seqs = rollouts / replicas
        waves = ceil(seqs / batch_cap - 1e-9)
        if not waves > 1:
            waves = 1
        b = seqs / waves
        resident_read = (weights_gb - offloaded_gb + b * avg_ctx * kv_per_token / GIGA) * GIGA
        if resident_read < 0.0:
            resident_read = 0.0
        t_mem = resident_read / (tp * bandwidth)
        if offloaded_gb:
            t_mem += offloaded_gb * GIGA / (tp * host)
        tp_peak = tp * peak
        t_compute = b * flops_per_token / tp_peak
        step = (t_compute if t_compute > t_mem else t_mem) + step_overhead_s
        prefill = b * prompt_tokens * flops_per_token / tp_peak
        seconds = waves * (prefill + response_tokens * step)
        if tp == 1 or seconds < best_seconds:  # the first engine is always a candidate
            best_seconds = seconds
            best = (tp, replicas, b, waves, offloaded_gb, step, t_mem, t_compute)
        tp *= 2
    tp, replicas, b, waves, offloaded_gb, step, t_mem, t_compute = best
    bound = "host_link" if offloaded_gb > 0 else ("memory" if t_mem >= t_compute else "compute")
    return Generation(
        seconds=best_seconds, gpus=gen_gpus, tensor_parallel=tp, replicas=replicas, batch=b, waves=waves,
        kv_gb_per_replica=b * kv_seq_gb, offloaded_gb=offloaded_gb, decode_step_s=step,
        tokens_per_s=rollouts * response_tokens / best_seconds, bound=bound,
    )


# --- scoring and training: compute bound --------------------------------------------------------------


def forward_seconds(params_b: float, tokens: float, gpus: int, gpu: GpuSpec) -> float:
    """Forward pass over ``tokens``: 2N FLOPs per token [2] at the forward utilisation."""
    return FWD_FLOPS * params_b * GIGA * tokens / (gpus * gpu.peak_bf16_tflops * TERA * FORWARD_MFU)


def train_seconds(params_b: float, tokens: float, gpus: int, gpu: GpuSpec) -> float:
    """Forward + backward over ``tokens``: 6N FLOPs per token [2] at the training utilisation [4]."""
    return TRAIN_FLOPS * params_b * GIGA * tokens / (gpus * gpu.peak_bf16_tflops * TERA * TRAIN_MFU)


# --- one PPO step ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    generation_s: float
    scoring_s: float
    training_s: float
    overlap_s: float          # scoring hidden behind generation (separate placement)
    total_s: float
    generation_share: float   # generation_s / total_s
    generation_gpu_s: float
    scoring_gpu_s: float
    training_gpu_s: float
    idle_gpu_s: float         # GPU-seconds no phase uses (separate placement waits)
    tokens: float             # rollouts · (prompt + response)
    groups: Groups
    gen: Generation


@dataclass(frozen=True, slots=True)
class Memory:
    models: ModelMemory
    per_gpu_gb: float          # the fullest GPU, before KV cache
    gpu_memory_gb: float
    usable_gb: float
    fits: bool
    min_gpus: int | None       # smallest GPU count that fits this workload (None: not even 4,096)
    training_per_gpu_gb: float
    scoring_per_gpu_gb: float
    generation_per_gpu_gb: float
    kv_gb_per_replica: float

    @property
    def total_gb(self) -> float:
        return self.models.states_gb


def _ppo_per_gpu_gb(mem: ModelMemory, groups: Groups, tp: int) -> tuple[float, float, float]:
    """(training, scoring, generation) GB per GPU, before KV cache; colocated adds them on each GPU."""
    gen = mem.generation_weights_gb / tp
    if groups.colocated:
        states = mem.states_gb / groups.training
        return states, states, states + gen
    return (
        (mem.actor_gb + mem.critic_gb) / groups.training,
        (mem.reference_gb + mem.reward_gb) / max(groups.scoring, 1),
        gen,
    )


def ppo_step(inputs: WorkloadInputs, gpu: GpuSpec) -> Step:
    """One PPO step on ``inputs.gpus`` GPUs.

    generation (decode roofline, see ``generation``) → scoring: forwards of actor (old log-probs), reference,
    reward model and critic, 2N each → training: actor and critic, 6N per token per epoch.
    Colocated: the phases run one after another on all G GPUs.  Separate: generation, scoring (reference +
    reward) and training (actor + critic) GPUs are split (``gpu_groups``); scoring streams behind generation,
    so step = max(generation, scoring) + training.
    """
    colocated = inputs.placement == "colocated"
    groups = gpu_groups(inputs.gpus, colocated)
    critic_b = inputs.rm_b  # the critic is taken to be the reward model's size
    tokens = inputs.rollouts * (inputs.prompt_tokens + inputs.response_tokens)
    # colocated, every GPU also holds its share of all model states: model_memory(...).states_gb / G, inlined
    resident = (TRAIN_BYTES * inputs.policy_b + TRAIN_BYTES * inputs.rm_b + INFER_BYTES * inputs.policy_b
                + INFER_BYTES * inputs.rm_b) / inputs.gpus if colocated else 0.0
    gen = generation(
        inputs.policy_b, inputs.rollouts, inputs.prompt_tokens, inputs.response_tokens, groups.generation, gpu,
        resident,
        *((OVERHEAD_COLOCATED_S, HYBRID_BATCH_PER_GPU) if colocated else (OVERHEAD_SEPARATE_S, math.inf)),
    )
    if colocated:
        scoring = forward_seconds(2 * inputs.policy_b + inputs.rm_b + critic_b, tokens, inputs.gpus, gpu)
        scoring_gpu_s = scoring * inputs.gpus
        total_wall = gen.seconds + scoring
        overlap = 0.0
    else:
        ref_rm = forward_seconds(inputs.policy_b + inputs.rm_b, tokens, groups.scoring, gpu)
        act_crit = forward_seconds(inputs.policy_b + critic_b, tokens, groups.training, gpu)
        scoring = max(ref_rm, act_crit)
        scoring_gpu_s = ref_rm * groups.scoring + act_crit * groups.training
        total_wall = max(gen.seconds, scoring)
        overlap = gen.seconds + scoring - total_wall
    training = train_seconds(inputs.policy_b + critic_b, tokens * inputs.epochs, groups.training, gpu)
    total = total_wall + training
    gen_gpu_s = gen.seconds * groups.generation
    train_gpu_s = training * groups.training
    used = gen_gpu_s + scoring_gpu_s + train_gpu_s
    return Step(
        generation_s=gen.seconds, scoring_s=scoring, training_s=training, overlap_s=overlap, total_s=total,
        generation_share=gen.seconds / total if total > 0 else 0.0,
        generation_gpu_s=gen_gpu_s, scoring_gpu_s=scoring_gpu_s, training_gpu_s=train_gpu_s,
        idle_gpu_s=max(0.0, total * inputs.gpus - used), tokens=tokens, groups=groups, gen=gen,
    )


def _largest_engine(gen_gpus: int) -> int:
    """The widest tensor-parallel engine the generation GPUs allow: the largest power of 2 ≤ min(G, 64)."""
    return 1 << (max(min(gen_gpus, MAX_TP), 1).bit_length() - 1)


def _fits_ppo(mem: ModelMemory, gpus: int, colocated: bool, usable_gb: float, kv_seq_gb: float) -> bool:
    groups = gpu_groups(gpus, colocated)
    tp = _largest_engine(groups.generation)
    train, score, gen = _ppo_per_gpu_gb(mem, groups, tp)
    return max(train, score) <= usable_gb and gen + kv_seq_gb / tp <= usable_gb


def _ppo_fit_test(mem: ModelMemory, colocated: bool, usable_gb: float, kv_seq_gb: float, floor_gpus: int):
    """``g -> g >= floor_gpus and _fits_ppo(mem, g, …)``, the same arithmetic with the per-call work hoisted
    out (min_gpus_that_fit calls it a dozen times per evaluation)."""
    states = mem.states_gb
    train_states = mem.actor_gb + mem.critic_gb
    score_weights = mem.reference_gb + mem.reward_gb
    gen_weights = mem.generation_weights_gb

    if colocated:
        def fits(g: int) -> bool:
            if g < floor_gpus:
                return False
            tp = 1 << (min(g, MAX_TP).bit_length() - 1)
            per_gpu = states / g
            return per_gpu <= usable_gb and per_gpu + gen_weights / tp + kv_seq_gb / tp <= usable_gb
    else:
        def fits(g: int) -> bool:
            if g < floor_gpus:
                return False
            training = (g + 1) // 2
            rest = g - training
            generation = (rest + 1) // 2
            tp = 1 << (min(generation, MAX_TP).bit_length() - 1)
            return (max(train_states / training, score_weights / max(rest - generation, 1)) <= usable_gb
                    and gen_weights / tp + kv_seq_gb / tp <= usable_gb)
    return fits


MAX_GPUS = 4096  # the top of the gpus range; min_gpus is None beyond it


def min_gpus_that_fit(fits, lo: int = 1) -> int | None:
    """Smallest G in [1, 4096] with fits(G) true; fits must be monotone in G, and false below ``lo``.

    Gallops up from ``lo`` (1, 2, 4, … past it), then bisects: a handful of calls when ``lo`` is a close lower
    bound, as the callers' memory floors are.

    >>> min_gpus_that_fit(lambda g: 100 / g <= 7.2)
    14
    >>> min_gpus_that_fit(lambda g: 100 / g <= 7.2, lo=12)
    14
    >>> min_gpus_that_fit(lambda g: False) is None
    True
    """
    hi = MAX_GPUS
    if not fits(hi):
        return None
    lo = min(max(lo, 1), hi)
    probe, width = lo, 1
    while probe < hi:
        if fits(probe):
            hi = probe
            break
        lo = probe + 1
        probe = min(hi, probe + width)
        width *= 2
    while lo < hi:  # fits(hi) is true and nothing below lo fits
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _lower_bound(gb: float, usable_gb: float, share: int = 1) -> int:
    """A G below which ``gb`` / (G / share) cannot fit in ``usable_gb``, one GPU of margin for rounding."""
    return max(1, int(gb * share / usable_gb) - 1)


def _min_gpus_for_share(total_gb: float, usable_gb: float) -> int | None:
    """``min_gpus_that_fit(lambda g: total_gb / g <= usable_gb)`` without the calls: total/g only falls as g grows,
    so step up from a lower bound (one or two steps).

    >>> _min_gpus_for_share(126.0, 72.0), _min_gpus_for_share(126.0, 36.0), _min_gpus_for_share(1e6, 72.0)
    (2, 4, None)
    """
    if not total_gb / MAX_GPUS <= usable_gb:
        return None
    g = _lower_bound(total_gb, usable_gb)
    while not total_gb / g <= usable_gb:
        g += 1
    return g


def ppo_memory(inputs: WorkloadInputs, gpu: GpuSpec, step: Step) -> Memory:
    """Model states per GPU with ZeRO-3 sharding over each group [1]; colocated GPUs also hold the
    generation engine's weights (a hybrid engine); whether it fits, and the fewest GPUs that fit."""
    colocated = inputs.placement == "colocated"
    mem = model_memory(inputs.policy_b, inputs.rm_b)
    usable = gpu.memory_gb * USABLE
    kv_seq_gb = (inputs.prompt_tokens + inputs.response_tokens) * kv_bytes_per_token(inputs.policy_b) / GIGA
    # Per-GPU figures use the same engine layout as `fits` (the widest engine the generation GPUs allow), not
    # the throughput-optimal tp that `generation` picked: that choice jumps as the policy grows, and with it the
    # engine's weights per GPU, which made the memory meter fall as the policy grew (found by a property test).
    tp = _largest_engine(step.groups.generation)
    train, score, gen = _ppo_per_gpu_gb(mem, step.groups, tp)
    floor_gpus = 1 if colocated else SEPARATE_MIN_GPUS
    # Colocated, every GPU holds states/G; separate, the training half holds (actor + critic)/⌈G/2⌉.
    lo = _lower_bound(mem.states_gb, usable) if colocated else _lower_bound(mem.actor_gb + mem.critic_gb, usable, 2)
    fit_test = _ppo_fit_test(mem, colocated, usable, kv_seq_gb, floor_gpus)
    min_g = min_gpus_that_fit(fit_test, lo)
    g = inputs.gpus
    return Memory(
        models=mem, per_gpu_gb=max(train, score, gen), gpu_memory_gb=gpu.memory_gb, usable_gb=usable,
        fits=fit_test(g) if g >= floor_gpus else _fits_ppo(mem, g, colocated, usable, kv_seq_gb), min_gpus=min_g,
        training_per_gpu_gb=train, scoring_per_gpu_gb=score, generation_per_gpu_gb=gen,
        kv_gb_per_replica=step.gen.kv_gb_per_replica,
    )


# --- the DPO route, SFT and reward-model training ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dpo:
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


def dpo(inputs: WorkloadInputs, gpu: GpuSpec) -> Dpo:
    """DPO: per pair, chosen and rejected responses (2 · (prompt + response) tokens) go through the policy
    (6N, trained) and the frozen reference (2N, log-probs; can be precomputed once) — no reward model, no critic,
    no generation [DPO paper]. Memory: 16 B/param policy + 2 B/param reference, ZeRO-3 over G."""
    tokens = 2 * (inputs.prompt_tokens + inputs.response_tokens)
    reference_pair_s = forward_seconds(inputs.policy_b, tokens, 1, gpu)
    pair_s = train_seconds(inputs.policy_b, tokens, 1, gpu) + reference_pair_s
    total_gb = (TRAIN_BYTES + INFER_BYTES) * inputs.policy_b
    usable = gpu.memory_gb * USABLE
    epoch = inputs.pairs * pair_s / inputs.gpus
    return Dpo(
        pair_s=pair_s, step_s=DPO_BATCH_PAIRS * pair_s / inputs.gpus,
        reference_step_s=DPO_BATCH_PAIRS * reference_pair_s / inputs.gpus, epoch_s=epoch, total_s=epoch * inputs.epochs,
        per_gpu_gb=total_gb / inputs.gpus, total_gb=total_gb, fits=total_gb / inputs.gpus <= usable,
        min_gpus=_min_gpus_for_share(total_gb, usable),
        tokens_per_pair=tokens,
    )


@dataclass(frozen=True, slots=True)
class Stages:
    """Cost of the stages before the RL loop, one pass over their data on all GPUs."""

    sft_epoch_s: float
    sft_per_gpu_gb: float
    rm_epoch_s: float
    rm_per_gpu_gb: float


def offline_stages(inputs: WorkloadInputs, gpu: GpuSpec) -> Stages:
    """SFT: demos · (prompt + response) tokens · 6N.  RM: pairs · 2 · (prompt + response) tokens · 6N_rm.
    Both with Adam states (16 B/param) sharded over all GPUs."""
    ctx = inputs.prompt_tokens + inputs.response_tokens
    return Stages(
        sft_epoch_s=train_seconds(inputs.policy_b, inputs.demos * ctx, inputs.gpus, gpu),
        sft_per_gpu_gb=TRAIN_BYTES * inputs.policy_b / inputs.gpus,
        rm_epoch_s=train_seconds(inputs.rm_b, 2 * inputs.pairs * ctx, inputs.gpus, gpu),
        rm_per_gpu_gb=TRAIN_BYTES * inputs.rm_b / inputs.gpus,
    )
