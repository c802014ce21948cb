"""First-principles estimates: memory in GB, seconds per RL step by phase, the chosen GPU layout, the DPO route,
SFT and RM cost, and a whole run.

Conventions: sizes ``*_b`` are billions of parameters, so ``bytes_per_param × params_b`` is GB (10^9 B).
Every constant comes from ``assumptions``; each docstring gives the formula, its units and the source.
Records are immutable NamedTuples (cheap to build: evaluate() makes dozens; a frozen dataclass takes 2–3× as
long).  The JSON answer embeds some of them as objects (``Generation``, ``GpuLayout``, ``ModelMemory``, ``Dpo``,
``Run``): app/view/api.py derives their schema from the fields declared here.

References
[1] ZeRO, Rajbhandari et al. 2019, §3, §5 and Fig. 1.     [2] Kaplan et al. 2020, §2.1 and Table 1.
[3] vLLM blog 2023-06-20 (KV cache per token, 14–24× over HF generate).
[4] OpenRLHF benchmark (A800, 1,024 rollouts per step).    [5] DeepSeekMath (GRPO), arXiv 2402.03300.
[6] ZeRO-Offload, arXiv 2101.06840.                        [7] LoRA, arXiv 2106.09685.
[8] verl: performance tuning guide and config defaults.    [9] nccl-tests PERFORMANCE.md (bus bandwidth).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import NamedTuple

from app.model.assumptions import (
    ACTIVATION_BYTES_PER_VALUE,
    ARCHS,
    COLLECTIVE_BUS_EFFICIENCY,
    COLLECTIVE_LATENCY_S,
    COLOCATED_ENGINE_MEMORY_FRACTION,
    D_MODEL_PER_LAYER,
    DECODE_BANDWIDTH_EFFICIENCY,
    DECODE_STEP_OVERHEAD_HF_S,
    DECODE_STEP_OVERHEAD_VLLM_S,
    DPO_BATCH_PAIRS,
    FORWARD_FLOPS_PER_PARAM_TOKEN,
    FORWARD_MFU,
    GPUS_PER_NODE,
    HF_BATCH_PER_GPU,
    INFER_BYTES_PER_PARAM,
    KV_BYTES_PER_VALUE,
    LOGITS_BYTES_PER_VALUE,
    LORA_TRAIN_FLOPS_PER_PARAM_TOKEN,
    LORA_TRAINABLE_FRACTION,
    MICRO_BATCH_TOKENS_PER_GPU,
    MINI_BATCH_SEQUENCES,
    OFFLOAD_GPU_BYTES_PER_PARAM,
    PARAMS_PER_LAYER_D2,
    SEPARATE_MIN_GPUS,
    TRAIN_BYTES_PER_PARAM,
    TRAIN_FLOPS_PER_PARAM_TOKEN,
    TRAIN_MFU,
    USABLE_MEMORY_FRACTION,
    Arch,
    GpuSpec,
    c,
)
from app.model.inputs import WorkloadInputs

GIGA = 1e9
TERA = 1e12
MAX_GPUS = 4096  # the top of the gpus range; min_gpus is None beyond it


# --- architecture: shape, KV cache, FLOPs per token ---------------------------------------------------------


@lru_cache(maxsize=256)
def custom_arch(params_b: float) -> Arch:
    """The ``custom`` architecture: a dense GQA transformer of ``params_b`` B parameters (teaching assumption).

    Shape rule: N = 12 · L · d² [2] with d = 128 · L (LLaMA-7B 4096/32, LLaMA-13B 5120/40), so
    L = (N / (12 · 128²))^(1/3); 8 KV heads of head dim 128 (as Llama 3 and Qwen 3), fewer when d < 1,024;
    Llama 3's vocabulary of 128,256 tokens.

    >>> a = custom_arch(12 * 32 * 4096**2 / 1e9); round(a.layers, 6), round(a.hidden), a.kv_heads
    (32.0, 4096, 8.0)
    """
    layers = (params_b * GIGA / (PARAMS_PER_LAYER_D2 * D_MODEL_PER_LAYER**2)) ** (1.0 / 3.0)
    head_dim = c("custom_head_dim")
    hidden = D_MODEL_PER_LAYER * layers
    heads = hidden / head_dim
    return Arch("custom", layers, hidden, heads, min(c("custom_kv_heads"), heads), head_dim,  # type: ignore[arg-type]
                int(c("custom_vocab")), params_b, params_b, "gqa")


def policy_arch(inputs: WorkloadInputs) -> Arch:
    """The policy's architecture: a named one from its config.json, or the custom shape rule at ``policy_b``."""
    return ARCHS[inputs.arch] if inputs.arch != "custom" else custom_arch(inputs.policy_b)


def kv_bytes_per_token(arch: Arch) -> float:
    """KV-cache bytes per token [3], B.

    MHA / GQA: 2 (K and V) · layers · kv_heads · head_dim · 2 B.  MLA (DeepSeek-V3): layers · (kv_lora_rank +
    rope_dim) · 2 B — one latent vector per layer instead of K and V per head.

    >>> kv_bytes_per_token(ARCHS["llama3_8b"]), kv_bytes_per_token(ARCHS["deepseek_v3"])
    (131072.0, 70272.0)
    """
    if arch.attention == "mla":
        return arch.layers * (arch.kv_lora_rank + arch.rope_dim) * KV_BYTES_PER_VALUE
    return 2.0 * arch.layers * arch.kv_heads * arch.head_dim * KV_BYTES_PER_VALUE


def attention_flops_per_token(arch: Arch, context_tokens: float) -> float:
    """Forward FLOPs per token of causal attention over ``context_tokens`` earlier tokens [2, Table 1]:
    2 · layers · d_attn · context, d_attn = heads · head dim.  For a whole sequence of S tokens the average
    context is S / 2."""
    return 2.0 * arch.layers * arch.attn_dim * context_tokens


def forward_flops_per_token(arch: Arch, context_tokens: float) -> float:
    """2 · N_active + attention [2], FLOP per token (a mixture of experts computes with its active parameters)."""
    return FORWARD_FLOPS_PER_PARAM_TOKEN * arch.active_b * GIGA + attention_flops_per_token(arch, context_tokens)


def train_flops_per_token(arch: Arch, context_tokens: float, lora: bool = False) -> float:
    """Forward + backward, FLOP per token: 6 · N_active + 3 × attention [2]; LoRA 4 · N_active (no weight
    gradients of the frozen base [7])."""
    per_param = LORA_TRAIN_FLOPS_PER_PARAM_TOKEN if lora else TRAIN_FLOPS_PER_PARAM_TOKEN
    return per_param * arch.active_b * GIGA + 3.0 * attention_flops_per_token(arch, context_tokens)


def decode_weight_bytes(arch: Arch, batch: float) -> float:
    """Weight bytes one decode step reads for a batch of ``batch`` sequences, B.

    Dense: all 2 B/param.  Mixture of experts: 2 B · (dense + routed · (1 − (1 − k/E)^b)), the experts that at
    least one of b tokens is routed to (k of E per token, routed uniformly: a teaching assumption).

    >>> round(decode_weight_bytes(ARCHS["deepseek_v3"], 64) / 2e9 / ARCHS["deepseek_v3"].total_b, 2)
    0.87
    """
    if not arch.experts:
        return INFER_BYTES_PER_PARAM * arch.total_b * GIGA
    touched = 1.0 - (1.0 - arch.experts_per_token / arch.experts) ** max(batch, 1.0)
    return INFER_BYTES_PER_PARAM * (arch.dense_b + arch.routed_b * touched) * GIGA


# --- memory rules ----------------------------------------------------------------------------------------------


def zero_states_gb_per_gpu(params_b: float, n_gpus: int, stage: int) -> float:
    """Per-GPU model-state memory of mixed-precision Adam under ZeRO stage 0–3 [1, §5.1], GB.

    Ψ = params; stage 0: 16Ψ, stage 1: 4Ψ + 12Ψ/N, stage 2: 2Ψ + 14Ψ/N, stage 3: 16Ψ/N (bytes).

    >>> round(zero_states_gb_per_gpu(7.5, 64, 1), 1)   # ZeRO Fig. 1: 31.4 GB
    31.4
    """
    psi, n = params_b, n_gpus
    if stage == 0:
        return TRAIN_BYTES_PER_PARAM * psi
    if stage == 1:
        return 4 * psi + 12 * psi / n
    if stage == 2:
        return 2 * psi + 14 * psi / n
    return TRAIN_BYTES_PER_PARAM * psi / n


def trained_bytes_per_param(offload: str, tuning: str) -> tuple[float, float]:
    """(GPU, host) bytes per parameter of a model being trained.

    full: 16 B on the GPU [1]; with ``offload=optimizer`` 4 B (bf16 weights + gradients) on the GPU and 12 B
    (fp32 master, Adam m and v) in host memory [6].  lora: the frozen bf16 base (2 B) plus adapters of 0.5 % of
    the parameters with their own 16 B/param [7] (their optimizer states offloaded too under ``optimizer``).

    >>> trained_bytes_per_param("none", "full"), trained_bytes_per_param("optimizer", "full")
    ((16.0, 0.0), (4.0, 12.0))
    """
    if tuning == "lora":
        adapters = LORA_TRAINABLE_FRACTION
        if offload == "optimizer":
            return INFER_BYTES_PER_PARAM + OFFLOAD_GPU_BYTES_PER_PARAM * adapters, 12.0 * adapters
        return INFER_BYTES_PER_PARAM + TRAIN_BYTES_PER_PARAM * adapters, 0.0
    if offload == "optimizer":
        return OFFLOAD_GPU_BYTES_PER_PARAM, TRAIN_BYTES_PER_PARAM - OFFLOAD_GPU_BYTES_PER_PARAM
    return TRAIN_BYTES_PER_PARAM, 0.0


class ModelMemory(NamedTuple):
    """GB of each model in the RL loop (whole model, before sharding), on GPUs; ``host_gb`` in host memory."""

    actor_gb: float       # policy being trained: 16 B/param [1] (4 with offload, ≈ 2.08 with LoRA)
    critic_gb: float      # value model, the reward model's size (PPO only; 0 under GRPO)
    reference_gb: float   # frozen SFT copy: 2 B/param (0 when kl = 0, or under LoRA: the base with adapters off)
    reward_gb: float      # frozen reward model: 2 B/param (0 with a verifier)
    generation_weights_gb: float  # the policy's bf16 copy in the inference engine, per replica
    host_gb: float = 0.0  # offloaded optimizer states (fp32 master, Adam m and v)

    @property
    def states_gb(self) -> float:
        """Model states on GPUs: actor + critic + reference + reward."""
        return self.actor_gb + self.critic_gb + self.reference_gb + self.reward_gb

    @property
    def training_gb(self) -> float:
        return self.actor_gb + self.critic_gb

    @property
    def scoring_gb(self) -> float:
        return self.reference_gb + self.reward_gb


def model_memory(policy_b: float, rm_b: float, *, critic: bool = True, reference: bool = True, reward: bool = True,
                 offload: str = "none", tuning: str = "full") -> ModelMemory:
    """GB of the models an RL step holds: bytes per parameter × billions of parameters.

    >>> model_memory(7, 7).states_gb                                        # PPO: 112 + 112 + 14 + 14
    252.0
    >>> model_memory(7, 7, critic=False, reward=False).states_gb            # GRPO with a verifier: 112 + 14
    126.0
    """
    gpu_bytes, host_bytes = trained_bytes_per_param(offload, tuning)
    trained_b = policy_b + (rm_b if critic else 0.0)
    return ModelMemory(
        actor_gb=gpu_bytes * policy_b,
        critic_gb=gpu_bytes * rm_b if critic else 0.0,
        reference_gb=INFER_BYTES_PER_PARAM * policy_b if reference and tuning != "lora" else 0.0,
        reward_gb=INFER_BYTES_PER_PARAM * rm_b if reward else 0.0,
        generation_weights_gb=INFER_BYTES_PER_PARAM * policy_b,
        host_gb=host_bytes * trained_b,
    )


def micro_batch_tokens(sequence_tokens: float) -> float:
    """Tokens per GPU in one training micro-batch: 16,384 [8] (``ppo_max_token_len_per_gpu``), or one whole
    sequence if it is longer (a sequence is never split)."""
    return max(MICRO_BATCH_TOKENS_PER_GPU, sequence_tokens)


def activation_gb(arch: Arch, tokens: float) -> float:
    """Checkpointed activations, GB: the saved layer inputs, layers · d · 2 B per token of the micro-batch.

    >>> round(activation_gb(ARCHS["llama3_8b"], 32_768), 2)   # 32 · 4,096 · 2 · 32,768
    8.59
    """
    return arch.layers * arch.hidden * ACTIVATION_BYTES_PER_VALUE * tokens / GIGA


def logits_gb(vocab: float, tokens: float) -> float:
    """Logits for the log-probs, GB: vocab · (2 + 4) B per token (bf16 and an fp32 copy), not chunked.

    >>> round(logits_gb(128_256, 32_768), 1)
    25.2
    """
    return vocab * LOGITS_BYTES_PER_VALUE * tokens / GIGA


# --- interconnect -------------------------------------------------------------------------------------------


def collective_bandwidth(gpu: GpuSpec, n_gpus: int) -> float:
    """Bandwidth of a collective over ``n_gpus``, B/s: inside one node (≤ 8 GPUs) NVLink, one direction
    (half the datasheet's bidirectional figure) × 0.77 bus efficiency [9] (≈ 230 GB/s on A100); once the group
    spans nodes, the InfiniBand bandwidth per GPU."""
    if n_gpus <= GPUS_PER_NODE:
        return gpu.nvlink_gb_per_s / 2.0 * COLLECTIVE_BUS_EFFICIENCY * GIGA
    return gpu.ib_gb_per_s * GIGA


def all_gather_seconds(total_gb: float, n_gpus: int, gpu: GpuSpec) -> float:
    """All-gather of ``total_gb`` sharded over ``n_gpus``: each GPU receives (n − 1)/n of it [9], s.

    >>> from app.model.assumptions import GPUS
    >>> round(all_gather_seconds(14.0, 8, GPUS["a100_80g"]) * 1e3)   # 7 B bf16 on 8 A100s: ≈ 53 ms
    53
    """
    if n_gpus <= 1:
        return 0.0
    return total_gb * GIGA * (n_gpus - 1) / n_gpus / collective_bandwidth(gpu, n_gpus)


def tp_all_reduce_seconds(arch: Arch, batch: float, tp: int, gpu: GpuSpec) -> float:
    """Tensor-parallel all-reduces of one decode step: 2 per layer of b · d · 2 B, ring cost 2(tp − 1)/tp of
    it over NVLink, plus 10 µs latency each (teaching), s."""
    if tp <= 1:
        return 0.0
    payload = batch * arch.hidden * INFER_BYTES_PER_PARAM * 2.0 * (tp - 1) / tp
    return 2.0 * arch.layers * (payload / collective_bandwidth(gpu, tp) + COLLECTIVE_LATENCY_S)


# --- generation: the decode roofline --------------------------------------------------------------------------


class Generation(NamedTuple):
    """One step's rollout generation on the engine the search chose (``schedule``): its wall clock, shape and bound."""

    seconds: float            # wall clock for all rollouts of one step (≥ the longest response's floor)
    gpus: int
    tensor_parallel: int      # GPUs per engine replica in a node (× pipeline stages)
    replicas: int
    batch: float              # sequences decoded together per replica (average over waves)
    waves: int                # batches each replica runs one after another
    kv_gb_per_replica: float
    offloaded_gb: float       # weights + KV that do not fit and stream over the host link
    decode_step_s: float      # one decode step of one wave
    tokens_per_s: float       # generated tokens per second, all replicas
    bound: str                # "memory" | "compute" | "host_link" | "none"
    pipeline: int = 1         # pipeline stages of one replica (an engine larger than a node)
    throughput_s: float = 0.0  # waves · (prefill + mean response · step): the batch's own time
    tail_floor_s: float = 0.0  # longest response · one small-batch decode step: the synchronous floor
    gather_s: float = 0.0     # per decode step: ZeRO-3 all-gather of the weights (HF generate in the trainer)
    all_reduce_s: float = 0.0  # per decode step: tensor-parallel all-reduces
    engine: str = "vllm"

    @property
    def tail_s(self) -> float:
        """How much the longest response holds the step beyond the batch's own time, s."""
        return max(0.0, self.tail_floor_s - self.throughput_s)


TP_DEGREES = (1, 2, 4, 8)  # tensor-parallel degrees within a node of 8 GPUs


NO_GENERATION = Generation(0.0, 0, 0, 0, 0.0, 0, 0.0, 0.0, 0.0, 0.0, "none")


def tensor_parallel_options(arch: Arch, gen_gpus: int, engine: str) -> tuple[int, ...]:
    """Tensor-parallel degrees an engine may use: powers of 2 ≤ min(8 GPUs per node, KV heads, GPUs) [8]
    (verl: prefer small TP and more replicas); HF generate has no tensor parallelism (1)."""
    if engine == "hf":
        return (1,)
    limit = max(1, min(GPUS_PER_NODE, int(arch.kv_heads), gen_gpus))
    return TP_DEGREES[:limit.bit_length()]  # the powers of 2 ≤ limit: bit_length(limit) of them


class EnginePlan(NamedTuple):
    """One engine replica's shape and per-step costs, independent of how many replicas run (``engine_plan``)."""

    arch: Arch
    gpu: GpuSpec
    engine: str
    tp: int
    pipeline: int
    gpus: int                 # GPUs per replica: tp · pipeline
    batch_cap: int            # sequences one replica holds at once
    kv_footprint_gb: float    # one sequence's KV over the replica (MLA: the latent on every tp rank)
    offloaded_gb: float       # what streams over the host link each step (does not fit)
    prompt_tokens: int
    response_tokens: int
    avg_context: float        # prompt + mean / 2: the KV a decode step reads per sequence
    prompts_per_sequence: float  # prefill per sequence: 1 / group with a shared prefix (vllm), else 1
    fixed_step_s: float       # overhead + all-gather per decode step
    floor_s: float            # longest response · one small-batch step: the synchronous floor
    kv_per_token: float
    kv_split: int
    hbm_rate: float = 0.0       # n · HBM bandwidth · 0.6, B/s
    compute_rate: float = 0.0   # n · peak · 0.45, FLOP/s
    host_s: float = 0.0         # offloaded bytes over the host link, s per step
    prefill_flops: float = 0.0  # prefill FLOPs per sequence: prompts per sequence · prompt · F(prompt / 2)
    decode_flops: float = 0.0   # F(avg context) per generated token


class _EngineWorkload(NamedTuple):
    """What every tensor-parallel degree's plan shares: computed once per step (``engine_plans``)."""

    arch: Arch
    gpu: GpuSpec
    engine: str
    engine_memory_gb: float
    max_gpus: int
    prompt_tokens: int
    response_tokens: int
    longest_tokens: int
    kv_per_token: float
    weights_gb: float
    kv_seq_gb: float
    prompts_per_sequence: float
    fixed_step_s: float       # overhead + (hf) all-gather per decode step
    avg_context: float
    floor_context: float
    decode_flops: float
    floor_flops: float
    prefill_flops: float      # per sequence


def _engine_workload(arch: Arch, gpu: GpuSpec, engine_memory_gb: float, max_gpus: int, prompt_tokens: int,
                     response_tokens: int, longest_tokens: int, group: int, engine: str,
                     gather_gpus: int) -> _EngineWorkload:
    kv_per_token = kv_bytes_per_token(arch)
    weights_gb = INFER_BYTES_PER_PARAM * arch.total_b
    if engine == "hf":
        kv_seq_gb = (prompt_tokens + longest_tokens) * kv_per_token / GIGA
        prompts_per_sequence = 1.0
        fixed = DECODE_STEP_OVERHEAD_HF_S + all_gather_seconds(weights_gb, gather_gpus, gpu)
    else:
        kv_seq_gb = (prompt_tokens / group + response_tokens) * kv_per_token / GIGA
        prompts_per_sequence = 1.0 / group
        fixed = DECODE_STEP_OVERHEAD_VLLM_S
    avg_context = prompt_tokens + response_tokens / 2.0
    floor_context = prompt_tokens + longest_tokens / 2.0
    return _EngineWorkload(
        arch, gpu, engine, engine_memory_gb, max_gpus, prompt_tokens, response_tokens, longest_tokens, kv_per_token,
        weights_gb, kv_seq_gb, prompts_per_sequence, fixed, avg_context, floor_context,
        forward_flops_per_token(arch, avg_context), forward_flops_per_token(arch, floor_context),
        prompts_per_sequence * prompt_tokens * forward_flops_per_token(arch, prompt_tokens / 2.0),
    )


def _plan(e: _EngineWorkload, tp: int) -> EnginePlan:
    """The engine replica of one tensor-parallel degree (see ``engine_plan``)."""
    gpu = e.gpu
    kv_split = tp if e.arch.attention == "mla" else 1  # the MLA latent is not split across tensor-parallel ranks
    kv_footprint_gb = e.kv_seq_gb * kv_split
    pp = 1
    if tp * e.engine_memory_gb < e.weights_gb + kv_footprint_gb and tp >= min(GPUS_PER_NODE, e.max_gpus):
        pp = max(1, math.ceil((e.weights_gb + kv_footprint_gb) / (tp * e.engine_memory_gb)))
    n = max(1, min(tp * pp, e.max_gpus))
    room_gb = n * e.engine_memory_gb - e.weights_gb
    if room_gb >= kv_footprint_gb:
        cap = math.floor(room_gb / kv_footprint_gb)
        offloaded_gb = 0.0
    else:
        cap = 1
        offloaded_gb = min(e.weights_gb + kv_footprint_gb, kv_footprint_gb - room_gb)
    if e.engine == "hf":
        cap = min(cap, int(HF_BATCH_PER_GPU) * n)
    hbm_rate = n * gpu.hbm_bandwidth_tb_per_s * TERA * DECODE_BANDWIDTH_EFFICIENCY
    compute_rate = n * gpu.peak_bf16_tflops * TERA * FORWARD_MFU
    host_s = offloaded_gb * GIGA / (n * gpu.host_link_gb_per_s * GIGA) if offloaded_gb else 0.0
    one = step_seconds(e.arch, gpu, tp, 1.0, e.floor_context, e.floor_flops, hbm_rate, compute_rate, host_s,
                       offloaded_gb, e.kv_per_token * kv_split, e.fixed_step_s)[0]
    return EnginePlan(e.arch, gpu, e.engine, tp, pp, n, max(cap, 1), kv_footprint_gb, offloaded_gb, e.prompt_tokens,
                      e.response_tokens, e.avg_context, e.prompts_per_sequence, e.fixed_step_s,
                      e.longest_tokens * one, e.kv_per_token, kv_split, hbm_rate, compute_rate, host_s,
                      e.prefill_flops, e.decode_flops)


def engine_plan(arch: Arch, gpu: GpuSpec, engine_memory_gb: float, tp: int, *, prompt_tokens: int,
                response_tokens: int, longest_tokens: int, group: int, engine: str, gather_gpus: int,
                max_gpus: int) -> EnginePlan:
    """The engine replica for one tensor-parallel degree.

    Weights W = 2 · N_total; pipeline stages pp only when one node's tp GPUs cannot hold W and one sequence.
    Batch cap B = ⌊(n · M_engine − W) / kv_seq⌋ (n = tp · pp GPUs), kv_seq one sequence's KV cache:
    vllm (paged; the ``group`` responses of a prompt share its prompt KV): (prompt / group + mean) · kv/token;
    hf (no paging: a sequence reserves its full length): (prompt + longest) · kv/token, and B ≤ 16 per GPU.
    What does not fit streams over the host link.  Fixed cost per decode step: overhead (vllm 4 ms, hf 10 ms)
    plus, for hf inside a ZeRO-3 trainer, an all-gather of W over the trainer's G GPUs (``all_gather_seconds``).
    Floor = longest · step(b = 1) at the context prompt + longest / 2."""
    return _plan(_engine_workload(arch, gpu, engine_memory_gb, max_gpus, prompt_tokens, response_tokens,
                                  longest_tokens, group, engine, gather_gpus), tp)


def step_seconds(arch: Arch, gpu: GpuSpec, tp: int, batch: float, context: float, flops_per_token: float,
                 hbm_rate: float, compute_rate: float, host_s: float, offloaded_gb: float, kv_bytes: float,
                 fixed_s: float) -> tuple[float, float, float, float]:
    """One decode step of ``batch`` sequences at ``context`` tokens each on one replica: (seconds, t_mem,
    t_compute, tensor-parallel all-reduce), s.

        t_mem     = (W_read(b) − offloaded + b · context · kv/token) / (n · HBM · 0.6) + offloaded / (n · host)
        t_compute = b · (2 · N_active + attention(context)) / (n · peak · 0.45)
        step      = max(t_mem, t_compute) + all-reduces + overhead (+ all-gather)
    (decoding reads the weights once per step plus the batch's KV cache: the bandwidth roofline [3]);
    ``flops_per_token`` = 2 · N_active + attention(context), ``kv_bytes`` the KV bytes per token on the replica."""
    t_mem = (max(decode_weight_bytes(arch, batch) - offloaded_gb * GIGA, 0.0) + batch * context * kv_bytes) / hbm_rate
    t_mem += host_s
    t_compute = batch * flops_per_token / compute_rate
    reduce = tp_all_reduce_seconds(arch, batch, tp, gpu) if tp > 1 else 0.0
    return max(t_mem, t_compute) + reduce + fixed_s, t_mem, t_compute, reduce


def schedule_seconds(plan: EnginePlan, rollouts: int, gen_gpus: int) -> tuple[float, ...]:
    """``rollouts`` responses on ``gen_gpus`` GPUs of replicas shaped by ``plan``: replicas = ⌊G / n⌋, each decodes
    S = R / replicas sequences in ⌈S / B⌉ waves of b = S / waves.
        prefill    = b · prompts per sequence · prompt · F(prompt / 2) / (n · peak · 0.45)
        throughput = waves · (prefill + mean · step(b))
        seconds    = max(throughput, floor)     (a synchronous step waits for its longest response)
    Returns (seconds, replicas, waves, b, step, t_mem, t_compute, all-reduce, throughput)."""
    replicas = gen_gpus // plan.gpus or 1
    seqs = rollouts / replicas
    waves = math.ceil(seqs / plan.batch_cap - 1e-9) or 1
    b = seqs / waves
    step, t_mem, t_compute, reduce = step_seconds(
        plan.arch, plan.gpu, plan.tp, b, plan.avg_context, plan.decode_flops, plan.hbm_rate, plan.compute_rate,
        plan.host_s, plan.offloaded_gb, plan.kv_per_token * plan.kv_split, plan.fixed_step_s)
    throughput = waves * (b * plan.prefill_flops / plan.compute_rate + plan.response_tokens * step)
    seconds = throughput if throughput > plan.floor_s else plan.floor_s
    return seconds, replicas, waves, b, step, t_mem, t_compute, reduce, throughput


def schedule(plan: EnginePlan, rollouts: int, gen_gpus: int, times: tuple[float, ...] | None = None) -> Generation:
    """The ``Generation`` of ``schedule_seconds`` (``times``: its answer when already computed)."""
    seconds, replicas, waves, b, step, t_mem, t_compute, reduce, throughput = (
        times or schedule_seconds(plan, rollouts, gen_gpus))
    bound = "host_link" if plan.offloaded_gb > 0 else ("memory" if t_mem >= t_compute else "compute")
    overhead = DECODE_STEP_OVERHEAD_HF_S if plan.engine == "hf" else DECODE_STEP_OVERHEAD_VLLM_S
    return Generation(
        seconds=seconds, gpus=gen_gpus, tensor_parallel=plan.tp, replicas=replicas, batch=b, waves=waves,
        kv_gb_per_replica=b * plan.kv_footprint_gb, offloaded_gb=plan.offloaded_gb, decode_step_s=step,
        tokens_per_s=rollouts * plan.response_tokens / seconds, bound=bound, pipeline=plan.pipeline,
        throughput_s=throughput, tail_floor_s=plan.floor_s, gather_s=plan.fixed_step_s - overhead,
        all_reduce_s=reduce, engine=plan.engine,
    )


def engine_plans(arch: Arch, gpu: GpuSpec, engine_memory_gb: float, max_gpus: int, *, prompt_tokens: int,
                 response_tokens: int, longest_tokens: int, group: int = 1, engine: str = "vllm",
                 gather_gpus: int = 0) -> tuple[EnginePlan, ...]:
    """One plan (``engine_plan``) per tensor-parallel degree the engine may use on up to ``max_gpus`` GPUs."""
    e = _engine_workload(arch, gpu, engine_memory_gb, max_gpus, prompt_tokens, response_tokens, longest_tokens,
                         group, engine, gather_gpus)
    return tuple([_plan(e, tp) for tp in tensor_parallel_options(arch, max_gpus, engine)])


def fastest(plans: Iterable[EnginePlan], rollouts: int, gen_gpus: int
            ) -> tuple[EnginePlan, tuple[float, ...]] | None:
    """The fastest plan on ``gen_gpus`` GPUs over those whose tensor-parallel degree fits, with its
    ``schedule_seconds`` (the engine is tuned, as in practice); None with nothing to generate."""
    best = None
    if rollouts > 0 and gen_gpus > 0:
        for plan in plans:
            if plan.tp <= gen_gpus:
                times = schedule_seconds(plan, rollouts, gen_gpus)
                if best is None or times[0] < best[1][0]:
                    best = (plan, times)
    return best


class Engines:
    """The engine plans of one step, made when first needed (one per tensor-parallel degree), and the fastest of
    them per generation GPU count — each count scheduled once, however many layouts the search tries with it."""

    __slots__ = ("_best", "_engine", "_options", "_plans", "rollouts")

    def __init__(self, engine: _EngineWorkload | None, options: tuple[int, ...], rollouts: int) -> None:
        self._engine = engine
        self._options = options
        self._plans: dict[int, EnginePlan] = {}
        self.rollouts = rollouts
        self._best: dict[int, tuple[EnginePlan, tuple[float, ...]] | None] = {}

    def plan(self, tp: int) -> EnginePlan:
        plan = self._plans.get(tp)
        if plan is None:
            plan = self._plans[tp] = _plan(self._engine, tp)  # type: ignore[arg-type]
        return plan

    def _fastest(self, gen_gpus: int) -> tuple[EnginePlan, tuple[float, ...]] | None:
        if gen_gpus not in self._best:
            plans = (self.plan(tp) for tp in self._options if tp <= gen_gpus) if self._engine else ()
            self._best[gen_gpus] = fastest(plans, self.rollouts, gen_gpus)
        return self._best[gen_gpus]

    def seconds(self, gen_gpus: int) -> float:
        """Generation seconds on ``gen_gpus`` GPUs (0 with nothing to generate)."""
        best = self._fastest(gen_gpus)
        return best[1][0] if best else 0.0

    def throughput(self, gen_gpus: int) -> float:
        """The fastest engine's batch time on ``gen_gpus`` GPUs, without the longest-response floor."""
        best = self._fastest(gen_gpus)
        return best[1][8] if best else 0.0

    def generation(self, gen_gpus: int) -> Generation:
        best = self._fastest(gen_gpus)
        return schedule(best[0], self.rollouts, gen_gpus, best[1]) if best else NO_GENERATION


def step_engines(w: Workload, i: WorkloadInputs, engine_memory_gb: float, max_gpus: int,
                 gather_gpus: int = 0) -> Engines:
    """The engines a step can use on up to ``max_gpus`` generation GPUs."""
    if i.rollouts <= 0:
        return Engines(None, (), 0)
    e = _engine_workload(w.arch, w.gpu, engine_memory_gb, max_gpus, i.prompt_tokens, i.response_tokens,
                         i.response_max_tokens, _group(i), i.engine, gather_gpus)
    return Engines(e, tensor_parallel_options(w.arch, max_gpus, i.engine), i.rollouts)


def generation(
    arch: Arch,
    rollouts: int,
    prompt_tokens: int,
    response_tokens: int,
    gen_gpus: int,
    gpu: GpuSpec,
    engine_memory_gb: float,
    *,
    longest_tokens: int | None = None,
    group: int = 1,
    engine: str = "vllm",
    gather_gpus: int = 0,
    tensor_parallel: int | None = None,
) -> Generation:
    """Wall-clock seconds to generate ``rollouts`` responses on ``gen_gpus`` GPUs, each with ``engine_memory_gb``
    for the engine's weights and KV cache: the fastest ``schedule`` over the ``engine_plan`` of each
    tensor-parallel degree (or of ``tensor_parallel`` alone)."""
    if rollouts <= 0 or gen_gpus <= 0:
        return NO_GENERATION
    longest = response_tokens if longest_tokens is None else longest_tokens
    kw = dict(prompt_tokens=prompt_tokens, response_tokens=response_tokens, longest_tokens=longest, group=group,
              engine=engine, gather_gpus=gather_gpus)
    if tensor_parallel:
        return schedule(engine_plan(arch, gpu, engine_memory_gb, tensor_parallel, max_gpus=gen_gpus, **kw),  # type: ignore[arg-type]
                        rollouts, gen_gpus)
    best = fastest(engine_plans(arch, gpu, engine_memory_gb, gen_gpus, **kw), rollouts, gen_gpus)  # type: ignore[arg-type]
    return schedule(best[0], rollouts, gen_gpus, best[1]) if best else NO_GENERATION


# --- scoring and training: compute bound --------------------------------------------------------------------


def forward_seconds(params_b: float, tokens: float, gpus: int, gpu: GpuSpec) -> float:
    """Forward pass over ``tokens``: 2N FLOPs per token [2] at the forward utilisation 0.45, s."""
    return FORWARD_FLOPS_PER_PARAM_TOKEN * params_b * GIGA * tokens / (gpus * gpu.peak_bf16_tflops * TERA * FORWARD_MFU)


def train_seconds(params_b: float, tokens: float, gpus: int, gpu: GpuSpec) -> float:
    """Forward + backward over ``tokens``: 6N FLOPs per token [2] at the training utilisation 0.35 [4], s."""
    return TRAIN_FLOPS_PER_PARAM_TOKEN * params_b * GIGA * tokens / (gpus * gpu.peak_bf16_tflops * TERA * TRAIN_MFU)


def zero3_floor_seconds(params_b: float, optimizer_steps: int, n_gpus: int, gpu: GpuSpec,
                        lora: bool = False) -> float:
    """ZeRO-3's communication floor for training one model [1, §5]: every optimizer step each GPU moves at least
    3 · 2Ψ bytes (all-gather forward and backward, reduce-scatter of gradients); LoRA 2 · 2Ψ (no gradients of the
    frozen base).  Over NVLink inside a node, InfiniBand once the group spans nodes, s."""
    if n_gpus <= 1:
        return 0.0
    moved_gb = (2.0 if lora else 3.0) * INFER_BYTES_PER_PARAM * params_b
    return optimizer_steps * moved_gb * GIGA / collective_bandwidth(gpu, n_gpus)


# --- one workload, prepared once ----------------------------------------------------------------------------------


class Workload(NamedTuple):
    """Everything about the inputs the phase estimates share: computed once per evaluation."""

    arch: Arch
    critic_arch: Arch
    gpu: GpuSpec
    method: str
    engine: str
    critic: bool              # PPO trains a value model; GRPO does not [5]
    reference: bool           # a reference forward (kl > 0) on its own weights (not under LoRA)
    reference_forward: bool   # kl > 0: the reference's log-probs are computed
    reward_model: bool        # reward = model
    lora: bool
    mem: ModelMemory
    tokens: float             # rollouts · (prompt + mean response)
    seq_tokens: float         # prompt + mean response
    longest_seq_tokens: float  # prompt + longest response
    optimizer_steps: int      # epochs · ⌈rollouts / 128⌉
    mini_batch: int           # sequences per optimizer step: data parallelism cannot exceed it
    usable_gb: float
    train_peak_extra_gb: float  # activations + logits on a training GPU
    score_extra_gb: float     # logits on a scoring GPU
    kv_seq_gb: float          # one longest sequence's KV cache (what an engine must hold at least)
    activation_gb: float
    logits_gb: float
    kv_bytes_per_token: float
    scoring_train_flops: float  # forwards on the training GPUs per step (``scoring_flops``)
    scoring_score_flops: float  # forwards on the scoring GPUs per step
    train_flops: float          # Σ over trained models of train FLOPs per token · tokens · epochs
    trained_b: float            # Σ over trained models of their total parameters (ZeRO-3 and offload traffic)
    role_minimums: tuple[int | None, int, int | None] = (None, 0, None)  # see ``role_minimums``


def workload(inputs: WorkloadInputs, gpu: GpuSpec) -> Workload:
    i = inputs
    arch = policy_arch(i)
    critic_arch = custom_arch(i.rm_b)
    online = i.method != "dpo"
    critic = i.method == "ppo"
    reference_forward = i.kl > 0
    lora = i.tuning == "lora"
    reward_model = i.reward == "model"
    mem = model_memory(arch.total_b, i.rm_b, critic=critic, reference=reference_forward, reward=reward_model,
                       offload=i.offload, tuning=i.tuning)
    longest_seq = i.prompt_tokens + i.response_max_tokens
    micro = micro_batch_tokens(longest_seq)
    act = activation_gb(arch, micro)
    logit = logits_gb(arch.vocab, micro)
    critic_act = activation_gb(critic_arch, micro) if critic else 0.0
    kv = kv_bytes_per_token(arch)
    usable = gpu.memory_gb * USABLE_MEMORY_FRACTION
    tokens = float(i.rollouts * (i.prompt_tokens + i.response_tokens))
    ctx = (i.prompt_tokens + i.response_tokens) / 2.0
    policy_fwd = forward_flops_per_token(arch, ctx) * tokens
    critic_fwd = forward_flops_per_token(critic_arch, ctx) * tokens
    has_critic = critic and online
    scoring_train = policy_fwd + (critic_fwd if has_critic else 0.0) + (policy_fwd if reference_forward and lora else 0.0)
    scoring_score = (policy_fwd if reference_forward and not lora else 0.0) + (critic_fwd if reward_model else 0.0)
    train_per_token = train_flops_per_token(arch, ctx, lora) + (
        train_flops_per_token(critic_arch, ctx, lora) if has_critic else 0.0)
    return Workload(
        arch=arch, critic_arch=critic_arch, gpu=gpu, method=i.method, engine=i.engine, critic=has_critic,
        reference=reference_forward and not lora, reference_forward=reference_forward, reward_model=reward_model,
        lora=lora, mem=mem, tokens=tokens,
        seq_tokens=float(i.prompt_tokens + i.response_tokens), longest_seq_tokens=float(longest_seq),
        optimizer_steps=i.epochs * max(1, math.ceil(i.rollouts / MINI_BATCH_SEQUENCES)),
        mini_batch=max(1, min(i.rollouts, int(MINI_BATCH_SEQUENCES))),
        usable_gb=usable,
        train_peak_extra_gb=max(act + logit, critic_act), score_extra_gb=logit if reference_forward else 0.0,
        kv_seq_gb=longest_seq * kv / GIGA, activation_gb=act, logits_gb=logit, kv_bytes_per_token=kv,
        scoring_train_flops=scoring_train, scoring_score_flops=scoring_score,
        train_flops=train_per_token * tokens * i.epochs, trained_b=arch.total_b + (i.rm_b if has_critic else 0.0),
        role_minimums=role_minimums(mem, has_critic, reference_forward and not lora, reward_model, usable,
                                    max(act + logit, critic_act), logit if reference_forward else 0.0,
                                    INFER_BYTES_PER_PARAM * arch.total_b + longest_seq * kv / GIGA),
    )


def scoring_flops(w: Workload) -> tuple[float, float]:
    """FLOPs of the scoring forwards of one step: (on the training GPUs, on the scoring GPUs).

    Training GPUs: the actor's old log-probs and, under PPO, the critic's values.  Scoring GPUs: the reference
    (kl > 0) and the reward model (reward = model); a verifier costs no GPU time (teaching assumption).  Under
    LoRA the reference is the base with adapters off, a forward on the training GPUs.  Each forward is
    2 · N_active + attention at half the sequence, per token of rollouts · (prompt + mean response).
    (Computed once per workload, in ``workload``.)"""
    return w.scoring_train_flops, w.scoring_score_flops


def training_seconds(w: Workload, inputs: WorkloadInputs, n_gpus: int) -> float:
    """Training one step on ``n_gpus``, s: max(compute, ZeRO-3 floor) + offload traffic.

    compute = Σ_models train FLOPs/token · tokens · epochs / (dp · peak · 0.35), dp = min(G, sequences per
    mini-batch) — data parallelism cannot exceed the sequences of one optimizer step; ZeRO-3 floor
    (``zero3_floor_seconds``) over the group; with ``offload=optimizer`` each optimizer step also moves each GPU's
    shard of gradients down and weights up, 4 B/param · Ψ / G over the host link [6] (Adam on the CPU is taken
    to hide behind it: teaching assumption)."""
    if n_gpus <= 0 or w.tokens <= 0:
        return 0.0
    gpu = w.gpu
    comm = zero3_floor_seconds(w.arch.total_b, w.optimizer_steps, n_gpus, gpu, w.lora)
    if w.critic:
        comm += zero3_floor_seconds(inputs.rm_b, w.optimizer_steps, n_gpus, gpu, w.lora)
    dp = min(n_gpus, w.mini_batch)
    compute = w.train_flops / (dp * gpu.peak_bf16_tflops * TERA * TRAIN_MFU)
    offload = 0.0
    if inputs.offload == "optimizer":
        shard_bytes = OFFLOAD_GPU_BYTES_PER_PARAM * w.trained_b * GIGA / n_gpus
        offload = w.optimizer_steps * shard_bytes / (gpu.host_link_gb_per_s * GIGA)
    return max(compute, comm) + offload


def compute_seconds(flops: float, gpus: int, gpu: GpuSpec, mfu: float) -> float:
    """``flops`` on ``gpus`` at ``mfu`` of the dense BF16 peak, s."""
    if flops <= 0:
        return 0.0
    return flops / (max(gpus, 1) * gpu.peak_bf16_tflops * TERA * mfu)


# --- GPU groups and the layout search ----------------------------------------------------------------------------


class Groups(NamedTuple):
    """How many GPUs do what. Colocated: every role uses all GPUs, one phase after another."""

    generation: int
    scoring: int
    training: int
    colocated: bool


def gpu_groups(gpus: int, colocated: bool) -> Groups:
    """The fixed reference split (OpenRLHF's 8-GPU 7B layout: 4 train, 2 vLLM, 2 ref + RM): training ⌈G/2⌉,
    generation ⌈⌊G/2⌋/2⌉, scoring the rest.  ``separate`` compares every layout it searches with this one.

    >>> gpu_groups(8, False)
    Groups(generation=2, scoring=2, training=4, colocated=False)
    """
    if colocated:
        return Groups(gpus, gpus, gpus, True)
    training = (gpus + 1) // 2
    rest = gpus - training
    generation = (rest + 1) // 2
    return Groups(generation, rest - generation, training, False)


class GpuLayout(NamedTuple):
    """The layout a step runs on: GPU counts per role, the engine's shape, and the fixed ½ / ¼ / ¼ split's step
    time it was compared with (separate placement; colocated: every role on all GPUs)."""

    generation: int
    scoring: int
    training: int
    engine_tp: int
    replicas: int
    colocated: bool
    fixed_step_s: float       # the step on gpu_groups(G) (the same step when colocated)
    searched: bool            # True when the search found a layout faster than the fixed split


class Phases(NamedTuple):
    """One layout's phase times, s."""

    generation: Generation
    scoring_s: float
    scoring_train_s: float    # the forwards on the training GPUs
    scoring_score_s: float    # the forwards on the scoring GPUs
    training_s: float
    sync_s: float
    total_s: float


def _sync_link(gpu: GpuSpec, generation_gpus: int, training_gpus: int) -> float:
    """The link a weight broadcast from the trainer to the engines uses: NVLink when both fit in one node,
    InfiniBand otherwise, B/s."""
    return collective_bandwidth(gpu, generation_gpus + training_gpus)


def _separate_phases(w: Workload, i: WorkloadInputs, engines: Engines, gen: int, score: int, train: int) -> Phases:
    """Disaggregated: generation, scoring and training on their own GPUs.  Scoring streams behind generation;
    each step broadcasts the new weights to the engines, 2 · N_total / link (``_sync_link``).
    Synchronous: max(generation, scoring) + training + sync; with staleness ≥ 1 generation runs ahead:
    max(generation, scoring + training) + sync."""
    gpu = w.gpu
    g = engines.generation(gen)
    s_train = compute_seconds(w.scoring_train_flops, min(train, w.mini_batch), gpu, FORWARD_MFU)
    s_score = compute_seconds(w.scoring_score_flops, score, gpu, FORWARD_MFU)
    scoring = max(s_train, s_score)
    training = training_seconds(w, i, train)
    sync = INFER_BYTES_PER_PARAM * w.arch.total_b * GIGA / _sync_link(gpu, gen, train) if i.rollouts > 0 else 0.0
    total = max(g.seconds, scoring + training) + sync if i.staleness else max(g.seconds, scoring) + training + sync
    return Phases(g, scoring, s_train, s_score, training, sync, total)


def _separate_total(w: Workload, i: WorkloadInputs, engines: Engines, gen: int, score: int, train: int) -> float:
    """``_separate_phases(...).total_s`` without building the records: what the layout search compares."""
    gpu = w.gpu
    generation_s = engines.seconds(gen)
    scoring = max(compute_seconds(w.scoring_train_flops, min(train, w.mini_batch), gpu, FORWARD_MFU),
                  compute_seconds(w.scoring_score_flops, score, gpu, FORWARD_MFU))
    training = training_seconds(w, i, train)
    sync = INFER_BYTES_PER_PARAM * w.arch.total_b * GIGA / _sync_link(gpu, gen, train) if i.rollouts > 0 else 0.0
    if i.staleness:
        return max(generation_s, scoring + training) + sync
    return max(generation_s, scoring) + training + sync


def _colocated_phases(w: Workload, i: WorkloadInputs, n: int) -> Phases:
    """Colocated: phases take turns on all G GPUs.  vllm = the hybrid engine (verl, OpenRLHF
    --colocate_all_models, NeMo RL): the engine gets min(0.6 · M, usable − resident states) of each GPU and each
    step pays a refit, 2 · N_total / G bytes per GPU over the group's link (with more than one node, at best
    2 · N_total / 8 over NVLink: each node refits from its own copy).  hf = HF generate inside the trainer:
    the ZeRO-3-sharded weights are all-gathered every decode step, the KV cache in what the states leave.
    step = generation + scoring + training + refit."""
    gpu = w.gpu
    resident = w.mem.states_gb / n
    free = w.usable_gb - resident
    if i.engine == "vllm":
        engine_memory = min(COLOCATED_ENGINE_MEMORY_FRACTION * gpu.memory_gb, free)
    else:
        engine_memory = free + INFER_BYTES_PER_PARAM * w.arch.total_b / n  # the gathered weights replace the shard
    g = step_engines(w, i, max(engine_memory, 0.01), n, gather_gpus=n if i.engine == "hf" else 0).generation(n)
    scoring = compute_seconds(w.scoring_train_flops + w.scoring_score_flops, min(n, w.mini_batch), gpu, FORWARD_MFU)
    training = training_seconds(w, i, n)
    sync = 0.0
    if i.engine == "vllm" and i.rollouts > 0:
        weights = INFER_BYTES_PER_PARAM * w.arch.total_b * GIGA
        sync = weights / n / collective_bandwidth(gpu, n)
        if n > GPUS_PER_NODE:
            sync = min(sync, weights / GPUS_PER_NODE / collective_bandwidth(gpu, GPUS_PER_NODE))
    total = g.seconds + scoring + training + sync
    return Phases(g, scoring, scoring, 0.0, training, sync, total)


def _group(i: WorkloadInputs) -> int:
    """Responses per prompt: ``group`` under GRPO, 1 otherwise (one response per prompt)."""
    return i.group if i.method == "grpo" else 1


def _engine_min_gpus(need_gb: float, engine_memory_gb: float) -> int | None:
    """GPUs of the smallest engine replica that holds ``need_gb`` (the weights and one longest sequence's KV):
    a power of 2 within a node, whole nodes beyond; None beyond 4,096."""
    n = max(1, math.ceil(need_gb / engine_memory_gb - 1e-9))
    if n > MAX_GPUS:
        return None
    if n <= GPUS_PER_NODE:
        return 1 << (n - 1).bit_length()
    return GPUS_PER_NODE * math.ceil(n / GPUS_PER_NODE)


def role_minimums(mem: ModelMemory, critic: bool, reference: bool, reward_model: bool, usable_gb: float,
                  train_extra_gb: float, score_extra_gb: float, engine_need_gb: float
                  ) -> tuple[int | None, int, int | None]:
    """(training, scoring, generation) GPUs each role needs at least when placed apart.

    training: ≥ one GPU per trained model (actor, critic) and (actor + critic states) / T + activations + logits
    ≤ usable; scoring: ≥ one GPU per frozen model placed there (reference, reward model: OpenRLHF and verl give
    each role its own workers) and weights / S + logits ≤ usable; generation: one engine replica holding the
    weights and one longest sequence's KV.  None: the role never fits.

    >>> role_minimums(model_memory(7, 7), True, True, True, 72.0, 7.4, 3.1, 14.4)   # PPO 7 B / 7 B, A100-80GB
    (4, 2, 1)
    """
    n_train = 2 if critic else 1
    room = usable_gb - train_extra_gb
    t_min = None if room <= 0 else max(n_train, math.ceil(mem.training_gb / room - 1e-9))
    n_score = int(reference) + int(reward_model)
    s_min = 0
    if n_score:
        room_s = usable_gb - score_extra_gb
        s_min = MAX_GPUS + 1 if room_s <= 0 else max(n_score, math.ceil(mem.scoring_gb / room_s - 1e-9))
    return t_min, s_min, _engine_min_gpus(engine_need_gb, usable_gb)


def _balanced(w: Workload, i: WorkloadInputs, engines: Engines, gpus: int, t_min: int, s_min: int,
              g_min: int) -> list[tuple[int, int, int]]:
    """Layouts near the split that balances the phases, for ``gpus`` GPUs.

    With generation ≈ A / x, scoring ≈ B / s and training ≈ C / t (A, B, C in GPU-seconds; A measured on the
    generation GPUs of the first layout below), the step max(A / x, B / s) + C / t under x + s + t = G is least at
    s = x · B / A and x = G / (k + √(k · C / A)), k = 1 + B / A.  The layouts: the roles' minimums (training t_min,
    scoring s_min, generation the rest), and that point, rounded and held to each role's minimum."""
    n = max(gpus - t_min - s_min, 1)
    a = engines.throughput(n) * n
    b = compute_seconds(w.scoring_score_flops, 1, w.gpu, FORWARD_MFU)
    c = training_seconds(w, i, 1)
    out = [(gpus - t_min - s_min, s_min, t_min)]
    if a > 0 and c > 0:
        k = 1.0 + b / a
        gen = max(round(gpus / (k + math.sqrt(k * c / a))), g_min)
        score = max(s_min, round(gen * b / a)) if s_min else 0
        if gpus - gen - score >= t_min:
            out.append((gen, score, gpus - gen - score))
    return out


# --- one RL step --------------------------------------------------------------------------------------------------


class Step(NamedTuple):
    generation_s: float
    scoring_s: float
    training_s: float
    overlap_s: float          # scoring (separate) or scoring + training (async) hidden behind generation
    total_s: float
    generation_share: float   # generation_s / total_s
    generation_gpu_s: float
    scoring_gpu_s: float
    training_gpu_s: float
    idle_gpu_s: float         # GPU-seconds no phase uses (separate placement waits)
    tokens: float             # rollouts · (prompt + mean response)
    groups: Groups
    gen: Generation
    sync_s: float = 0.0       # refit (colocated) or weight broadcast (separate) per step
    gpu_groups: GpuLayout | None = None
    tail_s: float = 0.0       # seconds the longest response adds beyond the batch's own generation time
    tail_share: float = 0.0   # tail_s / generation_s
    staleness: int = 0
    sync_step_s: float = 0.0  # the same layout run synchronously (equals total_s when staleness = 0)
    prompts_per_step: float = 0.0

    @property
    def scoring_hidden_s(self) -> float:
        """Scoring seconds hidden behind generation (overlap_s counts training too when the step runs ahead)."""
        return min(self.overlap_s, self.scoring_s)


def ppo_step(inputs: WorkloadInputs, gpu: GpuSpec, w: Workload | None = None) -> Step:
    """One RL step (PPO or GRPO) on ``inputs.gpus`` GPUs.

    generation (decode roofline, see ``generation``) → scoring (``scoring_flops``) → training
    (``training_seconds``) → sync.  Colocated: ``_colocated_phases``.  Separate: the split between roles is
    searched (``_candidates``) to minimise the step subject to fitting (``role_minimums``), and the fixed
    ½ / ¼ / ¼ split (``gpu_groups``) is always a candidate, so the search is never slower than it.
    """
    w = w or workload(inputs, gpu)
    i = inputs
    colocated = i.placement == "colocated"
    if colocated:
        groups = gpu_groups(i.gpus, True)
        phases = _colocated_phases(w, i, i.gpus)
        layout_step = phases.total_s
        searched = False
        if i.gpus > GPUS_PER_NODE and i.rollouts > 0 and _fits_colocated(w, GPUS_PER_NODE, i.engine):
            # a step never has to span a second node: one node is tried when it could be faster — with a paged
            # engine its generation is never faster than on all G, so generation(G) + one node's scoring and
            # training bound it below (HF generate's all-gather is faster on one node: always tried)
            n = GPUS_PER_NODE
            one_node_bound = 0.0 if i.engine == "hf" else (phases.generation.seconds
                              + compute_seconds(w.scoring_train_flops + w.scoring_score_flops, min(n, w.mini_batch),
                                                gpu, FORWARD_MFU)
                              + w.train_flops / (min(n, w.mini_batch) * gpu.peak_bf16_tflops * TERA * TRAIN_MFU))
            if one_node_bound < phases.total_s:
                one_node = _colocated_phases(w, i, n)
                if one_node.total_s < phases.total_s * (1 - 1e-12):
                    groups, phases, searched = gpu_groups(n, True), one_node, True
    else:
        engines = step_engines(w, i, w.usable_gb, i.gpus)
        fixed = gpu_groups(i.gpus, False)
        fixed_layout = (fixed.generation, fixed.scoring, fixed.training)
        layout_step = _separate_total(w, i, engines, *fixed_layout)
        groups, searched = fixed, False
        t_min, s_min, g_min = w.role_minimums
        if i.rollouts > 0 and t_min is not None and g_min is not None and t_min + s_min + g_min <= i.gpus:
            fixed_fits = fixed.training >= t_min and fixed.scoring >= s_min and fixed.generation >= g_min
            best_layout, best_s = (fixed_layout, layout_step) if fixed_fits else (None, math.inf)

            def consider(layouts: list[tuple[int, int, int]]) -> None:
                nonlocal best_layout, best_s
                for layout in dict.fromkeys(layouts):
                    if layout == fixed_layout or layout[1] < s_min or layout[2] < t_min or layout[0] < max(g_min, 1):
                        continue
                    total = _separate_total(w, i, engines, *layout)
                    if total < best_s * (1 - 1e-12):
                        best_layout, best_s = layout, total

            consider(_balanced(w, i, engines, i.gpus, t_min, s_min, g_min))
            node = GPUS_PER_NODE
            if i.gpus > node and t_min + s_min + g_min <= node:
                # one node's layouts too: a step never has to span a second node (the other GPUs then idle).
                # None of them beats generation on the most GPUs a node leaves it plus (async: or) training on the
                # most GPUs a node leaves it: tried only when that bound is faster than the best so far.
                most = node - t_min - s_min  # generation is never faster on fewer GPUs than on the fixed split's
                gen_bound = engines.seconds(fixed.generation if fixed.generation >= most else most)
                train_bound = w.train_flops / (min(node - s_min - g_min, w.mini_batch) * gpu.peak_bf16_tflops
                                               * TERA * TRAIN_MFU)
                if (max(gen_bound, train_bound) if i.staleness else gen_bound + train_bound) < best_s:
                    one_node = gpu_groups(node, False)
                    consider([(one_node.generation, one_node.scoring, one_node.training),
                              *_balanced(w, i, engines, node, t_min, s_min, g_min)])
            if best_layout is not None and best_layout != fixed_layout:
                groups, searched = Groups(*best_layout, False), True
        phases = _separate_phases(w, i, engines, groups.generation, groups.scoring, groups.training)
    g = phases.generation
    total = phases.total_s
    n = i.gpus
    if colocated:
        on = groups.training
        gen_gpu_s = g.seconds * on
        scoring_gpu_s = phases.scoring_s * on
        train_gpu_s = phases.training_s * on
        overlap = 0.0
    else:
        gen_gpu_s = g.seconds * groups.generation
        scoring_gpu_s = phases.scoring_score_s * groups.scoring + phases.scoring_train_s * groups.training
        train_gpu_s = phases.training_s * groups.training
        if i.staleness:
            overlap = g.seconds + phases.scoring_s + phases.training_s - (total - phases.sync_s)
        else:
            overlap = g.seconds + phases.scoring_s - max(g.seconds, phases.scoring_s)
    sync_total = total
    if i.staleness and not colocated:
        sync_total = max(g.seconds, phases.scoring_s) + phases.training_s + phases.sync_s
    used = gen_gpu_s + scoring_gpu_s + train_gpu_s
    layout = GpuLayout(groups.generation, groups.scoring, groups.training, g.tensor_parallel * g.pipeline,
                       g.replicas, colocated, layout_step, searched)
    tail = g.tail_s
    return Step(
        generation_s=g.seconds, scoring_s=phases.scoring_s, training_s=phases.training_s, overlap_s=max(overlap, 0.0),
        total_s=total, generation_share=g.seconds / total if total > 0 else 0.0,
        generation_gpu_s=gen_gpu_s, scoring_gpu_s=scoring_gpu_s, training_gpu_s=train_gpu_s,
        idle_gpu_s=max(0.0, total * n - used), tokens=w.tokens, groups=groups, gen=g,
        sync_s=phases.sync_s, gpu_groups=layout, tail_s=tail, tail_share=tail / g.seconds if g.seconds > 0 else 0.0,
        staleness=i.staleness, sync_step_s=sync_total, prompts_per_step=i.rollouts / _group(i),
    )


# --- memory of an RL step ---------------------------------------------------------------------------------------


class Lane(NamedTuple):
    """One GPU group's memory, per GPU: its parts in GB (model part → GB), their total, and whether it is over
    the usable memory."""

    lane: str                 # all | train | score | gen | dpo | sft | rm
    gpus: int
    parts: tuple[tuple[str, float], ...]
    total_gb: float
    over: bool


class Memory(NamedTuple):
    models: ModelMemory
    per_gpu_gb: float          # the fullest GPU's model states and weights (before KV cache and activations)
    gpu_memory_gb: float
    usable_gb: float
    fits: bool
    min_gpus: int | None       # smallest GPU count that fits this workload (None: not even 4,096)
    training_per_gpu_gb: float
    scoring_per_gpu_gb: float
    generation_per_gpu_gb: float
    kv_gb_per_replica: float
    kv_bytes_per_token: float = 0.0
    activation_gb: float = 0.0  # checkpointed activations on a training GPU (one micro-batch)
    logits_gb: float = 0.0      # logits for the log-probs on a training GPU
    host_gb: float = 0.0        # optimizer states in host memory (offload=optimizer)
    engine_gb_per_gpu: float = 0.0  # memory the inference engine may use on each generation GPU
    peak_per_gpu_gb: float = 0.0    # the fullest GPU at its fullest phase: states, weights, activations, logits —
    #                                 not the engine's KV cache, which takes whatever memory is left (paged)
    lanes: tuple[Lane, ...] = ()

    @property
    def total_gb(self) -> float:
        return self.models.states_gb


def _widest_engine(w: Workload, gen_gpus: int, engine: str) -> int:
    """The engine layout memory figures use: the widest tensor-parallel degree the generation GPUs allow
    (independent of the speed-optimal choice, which jumps as the policy grows)."""
    return tensor_parallel_options(w.arch, max(gen_gpus, 1), engine)[-1]


def lane(name: str, gpus: int, parts: tuple[tuple[str, float], ...], limit_gb: float, keep: str = "") -> Lane:
    """A lane of ``parts`` (model part, GB per GPU), without the parts of 0 GB except ``keep``; over when their sum
    exceeds ``limit_gb``."""
    kept = tuple([(k, v) for k, v in parts if v > 0 or k == keep])
    total = sum([v for _, v in kept])
    return Lane(name, gpus, kept, total, total > limit_gb)


def memory_lanes(w: Workload, groups: Groups, tp: int, kv_gb_per_replica: float, engine_gb: float) -> tuple[Lane, ...]:
    """Per-GPU memory lanes of an RL step, GB per model part.

    Colocated: one lane for every GPU — the resident shards of actor, critic, reference and reward model, plus
    the larger of the engine's share (weights / tp + KV / tp; the phases take turns) and the training phase's
    activations + logits.  Separate: training GPUs (actor + critic shards, activations, logits), scoring GPUs
    (reference + reward shards, logits), generation GPUs (weights / tp, KV / tp)."""
    usable = w.usable_gb
    mem = w.mem
    kv_split = 1 if w.arch.attention == "mla" else tp
    gen_parts = (("gen_weights", mem.generation_weights_gb / tp), ("kv", kv_gb_per_replica / kv_split))
    train_extra = (("activations", w.activation_gb), ("logits", w.logits_gb))
    if groups.colocated:
        n = groups.training
        engine_gb_per_gpu = gen_parts[0][1] + gen_parts[1][1]
        phase = gen_parts if engine_gb_per_gpu >= w.train_peak_extra_gb else train_extra
        return (lane("all", n, (("actor", mem.actor_gb / n), ("critic", mem.critic_gb / n),
                                ("reference", mem.reference_gb / n), ("reward", mem.reward_gb / n), *phase),
                     usable, keep="actor"),)
    t = max(groups.training, 1)
    lanes = [lane("train", groups.training, (("actor", mem.actor_gb / t), ("critic", mem.critic_gb / t), *train_extra),
                  usable, keep="actor")]
    if groups.scoring:
        s = groups.scoring
        lanes.append(lane("score", s, (("reference", mem.reference_gb / s), ("reward", mem.reward_gb / s),
                                       ("logits", w.score_extra_gb)), usable))
    total = gen_parts[0][1] + gen_parts[1][1]
    lanes.append(Lane("gen", groups.generation, gen_parts, total, total > min(usable, engine_gb) + 1e-9))
    return tuple(lanes)


def _peak_per_gpu_gb(w: Workload, groups: Groups, tp: int) -> float:
    """The fullest GPU at its fullest phase, GB: states and weights plus activations and logits, without the
    engine's KV cache (a paged engine takes whatever memory is left).  Colocated: states / G + the larger of the
    engine's weights / tp and the training phase's activations + logits."""
    mem = w.mem
    gen = mem.generation_weights_gb / tp
    if groups.colocated:
        return mem.states_gb / groups.training + max(gen, w.train_peak_extra_gb)
    train = mem.training_gb / max(groups.training, 1) + w.train_peak_extra_gb
    score = mem.scoring_gb / groups.scoring + w.score_extra_gb if groups.scoring else 0.0
    return max(train, score, gen)


def _fits_colocated(w: Workload, gpus: int, engine: str) -> bool:
    """Colocated fit at G GPUs: the training phase (resident states / G + activations + logits ≤ usable) and the
    generation phase (the widest engine holds weights / tp + one longest sequence's KV / tp in its share)."""
    resident = w.mem.states_gb / gpus
    if resident + w.train_peak_extra_gb > w.usable_gb:
        return False
    tp = _widest_engine(w, gpus, engine)
    free = w.usable_gb - resident
    if engine == "hf":
        return w.kv_seq_gb <= free
    engine_gb = min(COLOCATED_ENGINE_MEMORY_FRACTION * w.gpu.memory_gb, free)
    kv_split = 1 if w.arch.attention == "mla" else tp
    return w.mem.generation_weights_gb / tp + w.kv_seq_gb / kv_split <= engine_gb


def min_gpus_that_fit(fits: Callable[[int], bool], lo: int = 1) -> int | None:
    """Smallest G in [1, 4096] with fits(G) true; fits must be monotone in G and false below ``lo``.
    Gallops up from ``lo`` (lo, lo + 1, lo + 3, …), then bisects: a handful of calls when ``lo`` is close.

    >>> min_gpus_that_fit(lambda g: 100 / g <= 7.2), min_gpus_that_fit(lambda g: 100 / g <= 7.2, lo=12)
    (14, 14)
    >>> min_gpus_that_fit(lambda g: False) is None
    True
    """
    lo = min(max(lo, 1), MAX_GPUS)
    hi, width = lo, 1
    while not fits(hi):
        if hi == MAX_GPUS:
            return None
        lo, hi, width = hi + 1, min(MAX_GPUS, hi + width), width * 2
    while lo < hi:  # fits(hi), and nothing below lo fits
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid + 1
    return hi


def ppo_memory(inputs: WorkloadInputs, gpu: GpuSpec, step: Step, w: Workload | None = None) -> Memory:
    """Model states per GPU with ZeRO-3 sharding over each group [1], the engine's share, activations and logits;
    whether it fits, and the fewest GPUs that fit (colocated: bisection over G; separate: the sum of the roles'
    minimums, ``role_minimums``, and at least 4)."""
    w = w or workload(inputs, gpu)
    i = inputs
    colocated = i.placement == "colocated"
    groups = step.groups
    tp = _widest_engine(w, groups.generation, i.engine)
    mem = w.mem
    if colocated:
        n = groups.training  # all G GPUs, or one node when the step runs on one node (``ppo_step``)
        states = mem.states_gb / n
        train_gb, score_gb, gen_gb = states, states, states + mem.generation_weights_gb / tp
        engine_gb = min(COLOCATED_ENGINE_MEMORY_FRACTION * gpu.memory_gb, w.usable_gb - states)
        fits = _fits_colocated(w, n, i.engine)
        floor = w.mem.states_gb / max(w.usable_gb - w.train_peak_extra_gb, 1e-9)  # below it the states cannot fit
        min_g = min_gpus_that_fit(lambda g: _fits_colocated(w, g, i.engine), lo=max(1, math.floor(floor)))
    else:
        train_gb = mem.training_gb / max(groups.training, 1)
        score_gb = mem.scoring_gb / groups.scoring if groups.scoring else 0.0
        gen_gb = mem.generation_weights_gb / tp
        engine_gb = w.usable_gb
        t_min, s_min, g_min = w.role_minimums
        possible = t_min is not None and g_min is not None and t_min + s_min + g_min <= MAX_GPUS
        min_g = max(SEPARATE_MIN_GPUS, t_min + s_min + g_min) if possible else None  # type: ignore[operator]
        fits = (possible and groups.training >= t_min and groups.scoring >= s_min  # type: ignore[operator]
                and groups.generation >= g_min)  # type: ignore[operator]
    lanes = memory_lanes(w, groups, tp, step.gen.kv_gb_per_replica, engine_gb)
    return Memory(
        models=mem, per_gpu_gb=max(train_gb, score_gb, gen_gb), gpu_memory_gb=gpu.memory_gb, usable_gb=w.usable_gb,
        fits=bool(fits), min_gpus=min_g, training_per_gpu_gb=train_gb, scoring_per_gpu_gb=score_gb,
        generation_per_gpu_gb=gen_gb, kv_gb_per_replica=step.gen.kv_gb_per_replica,
        kv_bytes_per_token=w.kv_bytes_per_token, activation_gb=w.activation_gb, logits_gb=w.logits_gb,
        host_gb=mem.host_gb, engine_gb_per_gpu=max(engine_gb, 0.0),
        peak_per_gpu_gb=_peak_per_gpu_gb(w, groups, tp), lanes=lanes,
    )


# --- the DPO route, SFT and reward-model training -------------------------------------------------------------


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
    micro = micro_batch_tokens(seq)
    act, logit = activation_gb(arch, micro), logits_gb(arch.vocab, micro)
    extra = act + logit
    usable = gpu.memory_gb * USABLE_MEMORY_FRACTION
    epoch = inputs.pairs * pair_s / inputs.gpus
    return Dpo(
        pair_s=pair_s, step_s=DPO_BATCH_PAIRS * pair_s / inputs.gpus,
        reference_step_s=DPO_BATCH_PAIRS * reference_pair_s / inputs.gpus, epoch_s=epoch, total_s=epoch * inputs.epochs,
        per_gpu_gb=total_gb / inputs.gpus, total_gb=total_gb, fits=total_gb / inputs.gpus + extra <= usable,
        min_gpus=_dpo_min_gpus(total_gb, extra, usable),
        tokens_per_pair=tokens, activation_gb=act, logits_gb=logit,
    )


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


def offline_stages(inputs: WorkloadInputs, gpu: GpuSpec) -> Stages:
    """SFT: demos · (prompt + response) tokens · 6 · N_active.  RM: pairs · 2 · (prompt + response) tokens · 6N_rm.
    Both with Adam states (16 B/param of the total parameters) sharded over all GPUs."""
    ctx = inputs.prompt_tokens + inputs.response_tokens
    arch = policy_arch(inputs)
    return Stages(
        sft_epoch_s=train_seconds(arch.active_b, inputs.demos * ctx, inputs.gpus, gpu),
        sft_per_gpu_gb=TRAIN_BYTES_PER_PARAM * arch.total_b / inputs.gpus,
        rm_epoch_s=train_seconds(inputs.rm_b, 2 * inputs.pairs * ctx, inputs.gpus, gpu),
        rm_per_gpu_gb=TRAIN_BYTES_PER_PARAM * inputs.rm_b / inputs.gpus,
    )


def stage_lanes(stage: str, inputs: WorkloadInputs, memory: Memory, d: Dpo, offline: Stages) -> tuple[Lane, ...]:
    """The memory lanes the page draws for ``stage``, GB per GPU and part: the RL step's lanes (``memory_lanes``);
    DPO's one lane (policy states, reference, activations, logits, ZeRO-3 over G); SFT's states (and the reward
    model's while it trains) before the loop."""
    usable = memory.usable_gb
    g = inputs.gpus
    if stage in ("ppo_loop", "scaled_rollouts", "eval_gated", "grpo"):
        return memory.lanes
    if stage == "dpo":
        reference = 0.0 if inputs.tuning == "lora" else INFER_BYTES_PER_PARAM * policy_arch(inputs).total_b
        return (lane("all", g, (("actor", (d.total_gb - reference) / g), ("reference", reference / g),
                                ("activations", d.activation_gb), ("logits", d.logits_gb)), usable, keep="actor"),)
    lanes = [lane("all", g, (("sft", offline.sft_per_gpu_gb),), usable, keep="sft")]
    if stage == "reward_model":
        lanes.append(lane("rm", g, (("rm", offline.rm_per_gpu_gb),), usable, keep="rm"))
    return tuple(lanes)


# --- a whole run --------------------------------------------------------------------------------------------------


class Run(NamedTuple):
    """One pass over the data: steps, wall clock and GPU-hours (what a budget is written in)."""

    steps: int
    hours: float
    gpu_hours: float


def rl_run(inputs: WorkloadInputs, step: Step) -> Run:
    """One pass over ``prompts``: ⌈prompts · group / rollouts⌉ steps (group = 1 for PPO), × step time, × G.

    >>> rl_run(WorkloadInputs(prompts=31_000, rollouts=512), Step(0, 0, 0, 0, 3600.0, 0, 0, 0, 0, 0, 0,
    ...        gpu_groups(8, True), NO_GENERATION)).steps
    61
    """
    if inputs.rollouts <= 0 or inputs.prompts <= 0:
        return Run(0, 0.0, 0.0)
    steps = math.ceil(inputs.prompts * _group(inputs) / inputs.rollouts - 1e-9)
    hours = steps * step.total_s / 3600.0
    return Run(steps, hours, hours * inputs.gpus)


def dpo_run(inputs: WorkloadInputs, d: Dpo) -> Run:
    """DPO: ⌈pairs / 64⌉ · epochs steps; wall clock = epochs · one pass over the pairs."""
    steps = math.ceil(inputs.pairs / DPO_BATCH_PAIRS) * inputs.epochs
    hours = d.total_s / 3600.0
    return Run(steps, hours, hours * inputs.gpus)

