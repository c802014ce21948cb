"""Generation: engine plans per tensor-parallel degree and the decode roofline.

References [n]: the list in ``app/model/physics/__init__.py``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

from app.model.assumptions import (
    DECODE_BANDWIDTH_EFFICIENCY,
    DECODE_STEP_OVERHEAD_HF_S,
    DECODE_STEP_OVERHEAD_S,
    DECODE_STEP_OVERHEAD_VLLM_S,
    ENGINE_MIN_KV_FRACTION,
    ENGINE_WAKE_S,
    FORWARD_MFU,
    GPUS_PER_NODE,
    HF_BATCH_PER_GPU,
    INFER_BYTES_PER_PARAM,
    KV_BYTES_PER_VALUE,
    ROLLOUT_BYTES_PER_PARAM,
    ROLLOUT_KV_BYTES_PER_VALUE,
    SPEC_DRAFT_LAYERS,
    SPEC_DRAFT_TOKENS,
    Arch,
    GpuSpec,
)
from app.model.decode import Lengths, decode_stretches, rounds
from app.model.inputs import WorkloadInputs
from app.model.physics.architecture import (
    GIGA,
    TERA,
    decode_weight_bytes,
    forward_flops_per_token,
    kv_bytes_per_token,
    kv_context_factor,
    kv_fixed_bytes,
)
from app.model.physics.network import (
    all_gather_seconds,
    dispatch_combine_seconds,
    expert_exchange_seconds,
    tp_all_reduce_seconds,
)
from app.model.physics.workload import Workload, _group


class Generation(NamedTuple):
    """One step's rollout generation on the engine the search chose (``schedule``): its wall clock, shape and bound."""

    seconds: float            # wall clock for all rollouts of one step (≥ the longest response's floor)
    gpus: int
    tensor_parallel: int      # GPUs per engine replica in a node (× pipeline stages)
    replicas: int
    batch: float              # sequences decoded together per replica (average over waves)
    waves: int                # batches each replica runs one after another
    kv_gb_per_replica: float
    offloaded_gb: float       # weights + KV the instance lacks (it does not fit; never streamed over the host link)
    decode_step_s: float      # one decode step of one wave
    tokens_per_s: float       # generated tokens per second, all replicas
    bound: str                # "memory" | "compute" | "host_link" | "none"
    pipeline: int = 1         # pipeline stages of one replica (an engine larger than a node)
    throughput_s: float = 0.0  # waves · (prefill + mean response · step): the batch's own time
    tail_floor_s: float = 0.0  # longest response · one small-batch decode step: the synchronous floor
    gather_s: float = 0.0     # per decode step: ZeRO-3 all-gather of the weights (HF generate in the trainer)
    all_reduce_s: float = 0.0  # per decode step: tensor-parallel all-reduces + the cross-node expert exchange
    engine: str = "vllm"
    expert_parallel: int = 1   # GPUs one replica spreads its routed experts over (MoE: all of its GPUs)
    weights_gb_per_gpu: float = 0.0  # dense / (tp · pp) + experts / ep
    kv_gb_per_gpu: float = 0.0  # the KV cache pool one GPU of a replica allocates (its engine memory − weights)
    streaming: bool = False    # async with partial rollouts: the engine never drains at a step boundary
    fits: bool = True         # the engine instance holds its weights and one longest sequence's KV
    wake_s: float = 0.0       # colocated: waking the engine (weights back from host memory, KV re-allocated), s
    speculative_tokens: int = 0  # speculative decoding: tokens proposed per decode step (0: off)
    acceptance: float = 1.0   # tokens a verification step emits on average (with speculative decoding)
    turns: int = 1            # agentic rollouts: model turns per episode, each drained and refilled (sync)
    env_wait_s: float = 0.0   # the environment's latency the step waits for (not hidden behind decoding), s
    data_parallel: int = 1    # wide EP: attention ranks of one instance, each with its own sequences (1: TP layout)
    all_to_all_s: float = 0.0  # wide EP: the experts' dispatch + combine of one decode step, s

    @property
    def data_parallel_attention(self) -> bool:
        """Wide expert parallelism: attention data-parallel over the instance's GPUs, experts spread over all."""
        return self.data_parallel > 1

    @property
    def instance_gpus(self) -> int:
        """GPUs of one engine instance: tp · pp, or the data-parallel attention ranks of a wide-EP instance."""
        return self.tensor_parallel * self.pipeline * self.data_parallel

    @property
    def tail_s(self) -> float:
        """How much the longest responses hold the step beyond the batch's own time (the drain), s — not the
        environment's wait between an agentic episode's turns (``env_wait_s``), which is no response's length."""
        return max(0.0, self.seconds - self.throughput_s - self.env_wait_s)

    @property
    def engine_gpus(self) -> int:
        """The GPUs the engine's replicas occupy (tp · pp · replicas, at most ``gpus``): fewer than ``gpus`` when the
        GPUs left over cannot form one more replica, and those idle while generating (the texts quote this count,
        not ``gpus``)."""
        return min(self.gpus, self.instance_gpus * self.replicas)


class EngineLayout(NamedTuple):
    """The generation engine as a launch script sets it (``Step.generation_engine``): an instance of tp × pp GPUs
    (experts spread over ep = its GPUs; wide EP: dp attention ranks of tp 1), ``replicas`` of them, and one GPU's
    weights and KV cache pool."""

    tensor_parallel: int
    pipeline: int
    expert_parallel: int
    replicas: int
    gpus_per_instance: int
    weights_gb_per_gpu: float
    kv_gb_per_gpu: float
    data_parallel: int = 1


def engine_layout(g: Generation) -> EngineLayout:
    """The ``EngineLayout`` of a ``Generation``."""
    return EngineLayout(tensor_parallel=g.tensor_parallel, pipeline=g.pipeline, expert_parallel=g.expert_parallel,
                        replicas=g.replicas, gpus_per_instance=g.instance_gpus,
                        weights_gb_per_gpu=g.weights_gb_per_gpu, kv_gb_per_gpu=g.kv_gb_per_gpu,
                        data_parallel=g.data_parallel)


def kv_replication(arch: Arch, tp: int) -> float:
    """How many times an instance of TP GPUs holds each token's KV: MLA's one latent on every rank (TP); GQA
    heads replicated once TP exceeds the KV heads (TP / kv_heads); 1 otherwise.

    >>> from app.model.assumptions import ARCHS
    >>> kv_replication(ARCHS["qwen3_235b_a22b"], 8), kv_replication(ARCHS["llama3_8b"], 8)
    (2.0, 1.0)
    """
    if arch.attention == "mla":
        return float(tp)
    return max(1.0, tp / arch.kv_heads)


TP_DEGREES = (1, 2, 4, 8, 16, 32, 64)  # powers of 2 within an NVLink domain: 8 on HGX, up to 64 of GB200's 72


NO_GENERATION = Generation(0.0, 0, 0, 0, 0.0, 0, 0.0, 0.0, 0.0, 0.0, "none")


def tensor_parallel_options(arch: Arch, gen_gpus: int, engine: str,
                            nvlink_gpus: int = GPUS_PER_NODE) -> tuple[int, ...]:
    """Tensor-parallel degrees an engine may use: powers of 2 ≤ min(the GPUs one NVLink domain joins, GPUs) [8]
    (verl: prefer small TP and more replicas) — 8 on an HGX baseboard, up to 64 in a GB200 NVL72 rack, where NeMo
    RL runs vLLM at TP 16–32.  TP may exceed the KV heads: vLLM then replicates them (``kv_replication``); beyond
    8, and it must be one vLLM starts (``vllm_accepts_tp``: Qwen2.5-7B's 28 heads allow 1, 2 and 4).  HF generate
    has no tensor parallelism (1).

    >>> from app.model.assumptions import ARCHS
    >>> tensor_parallel_options(ARCHS["deepseek_v3"], 128, "vllm", 72)
    (1, 2, 4, 8, 16, 32, 64)
    >>> tensor_parallel_options(ARCHS["deepseek_v3"], 128, "vllm")   # an HGX node
    (1, 2, 4, 8)
    """
    if engine == "hf":
        return (1,)
    limit = max(1, min(nvlink_gpus, gen_gpus))
    return tuple(tp for tp in TP_DEGREES if tp <= limit and vllm_accepts_tp(arch, tp))


def vllm_accepts_tp(arch: Arch, tp: int) -> bool:
    """Whether vLLM starts an engine of tensor parallelism ``tp`` for ``arch``: the attention heads divide by TP
    (``ModelConfig.verify_with_parallel_config`` in vllm/config.py raises "Total number of attention heads (28) must
    be divisible by tensor parallel size (8)"), and the KV heads either divide by TP or TP by them, the KV heads then
    replicated (``QKVParallelLinear.__init__`` in vllm/model_executor/layers/linear.py: ``divide(total_num_kv_heads,
    tp_size)`` below the KV heads, ``divide(tp_size, total_num_kv_heads)`` from them on).  MLA keeps one latent per
    token on every rank: only the heads count.  A custom size's stand-in shape (fractional heads, scaled from the
    parameter count) keeps the rule it had: any power of 2 up to a node.

    >>> from app.model.assumptions import ARCHS
    >>> [tp for tp in TP_DEGREES if vllm_accepts_tp(ARCHS["qwen25_7b"], tp)]   # 28 heads, 4 KV heads
    [1, 2, 4]
    >>> vllm_accepts_tp(ARCHS["llama3_8b"], 8), vllm_accepts_tp(ARCHS["qwen25_7b"], 8)   # 32 heads; 28
    (True, False)
    """
    if arch.heads != int(arch.heads):  # a custom size's scaled stand-in shape has no real heads to divide
        return tp <= GPUS_PER_NODE
    if arch.heads % tp:
        return False
    if arch.attention == "mla" or arch.kv_heads <= 0:
        return True
    return arch.kv_heads % tp == 0 or tp % arch.kv_heads == 0


def engine_tp_options(e: _EngineWorkload) -> tuple[int, ...]:
    """The tensor-parallel degrees an engine instance may use (``tensor_parallel_options``): TP stays inside a node
    and an instance larger than a node takes pipeline stages (``_plan``) — the layout the launch commands can
    write (verl ``rollout.pipeline_model_parallel_size``).  NeMo RL's recipes run TP 16–32 across nodes instead
    (Qwen3-235B-A22B, DeepSeek-V3 colocated): the lab's pipeline stages read the weights as slowly as one node's
    TP would, a documented difference (docs/model.md)."""
    return tensor_parallel_options(e.arch, e.max_gpus, e.engine, e.gpu.nvlink_domain_gpus)


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
    offloaded_gb: float       # GB the instance lacks (weights + one sequence's KV beyond its memory): never streamed
    prompt_tokens: int
    response_tokens: int
    avg_context: float        # prompt + mean / 2: the KV a decode step reads per sequence
    prompts_per_sequence: float  # prefill per sequence: 1 / group with a shared prefix (vllm), else 1
    fixed_step_s: float       # overhead + all-gather per decode step
    floor_s: float            # longest response · one small-batch step: the synchronous floor
    kv_per_token: float
    kv_split: float           # KV copies per token on the instance (``kv_replication``)
    hbm_rate: float = 0.0       # n · HBM bandwidth · 0.6, B/s
    compute_rate: float = 0.0   # n · peak · 0.45, FLOP/s
    host_s: float = 0.0         # offloaded bytes over the host link, s per step
    prefill_flops: float = 0.0  # prefill FLOPs per sequence: prompts per sequence · prompt · F(prompt / 2)
    decode_flops: float = 0.0   # F(avg context) per generated token
    lengths: Lengths = Lengths(0.0, 0.0)
    drain: bool = True          # False: streaming (async with partial rollouts)
    ahead: float = 1.0          # steps of responses the engine may hold at once (1 + staleness when streaming)
    weight_scale: float = 1.0   # rollout bytes per parameter / 2 (fp8: 0.5)
    weights_gb: float = 0.0     # the replica's weights, GB
    engine_memory_gb: float = 0.0  # per GPU
    fits: bool = True           # the instance's GPUs exist and hold its weights and one sequence's KV
    overhead_s: float = DECODE_STEP_OVERHEAD_VLLM_S  # the fixed part of ``fixed_step_s`` (the rest: the all-gather)
    spec_k: int = 0             # speculative decoding: tokens proposed per decode step (0: off)
    acceptance: float = 1.0     # tokens one verification step emits on average (acceptance length)
    draft_s: float = 0.0        # the proposals' own seconds per decode step (k draft passes of one layer each)
    dp: int = 1                 # wide EP: data-parallel attention ranks (tp 1, the experts over all dp GPUs)
    weights_gb_per_gpu: float = 0.0  # wide EP: dense part whole + experts / dp (0: weights_gb / gpus)


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
    drain: bool = True
    ahead: float = 1.0
    weight_scale: float = 1.0
    bandwidth_efficiency: float = DECODE_BANDWIDTH_EFFICIENCY  # the HBM fraction a decode step reads at
    overhead_s: float = DECODE_STEP_OVERHEAD_VLLM_S  # the engine's fixed seconds per decode step
    spec_k: int = 0           # speculative decoding: tokens proposed per decode step (0: off)
    acceptance: float = 1.0   # tokens one verification step emits on average
    layout: str = "tp"        # engine_layout: tp | auto | dp_attention (wide EP, mixtures of experts only)


def speculative_tokens(arch: Arch, speculative: str, engine: str = "vllm") -> int:
    """Tokens proposed per decode step: mtp the model's own MTP modules (DeepSeek-V3: 1, ``num_nextn_predict_layers``),
    draft ``spec_draft_tokens``, off (and HF generate, which the lab runs without it) 0.

    >>> from app.model.assumptions import ARCHS
    >>> speculative_tokens(ARCHS["deepseek_v3"], "mtp"), speculative_tokens(ARCHS["llama3_8b"], "draft")
    (1, 3)
    """
    if engine != "vllm" or speculative == "off":
        return 0
    return arch.mtp_layers if speculative == "mtp" else SPEC_DRAFT_TOKENS


def _engine_workload(arch: Arch, gpu: GpuSpec, engine_memory_gb: float, max_gpus: int, prompt_tokens: int,
                     response_tokens: int, longest_tokens: int, group: int, engine: str,
                     gather_gpus: int, *, dtype: str = "bf16", drain: bool = True,
                     ahead: float = 1.0, bandwidth_efficiency: float | None = None,
                     overhead_s: float | None = None, speculative: str = "off",
                     acceptance: float = 1.0, prefill_tokens: float | None = None,
                     release: str = "vllm_v1", layout: str = "tp") -> _EngineWorkload:
    """``bandwidth_efficiency`` and ``overhead_s``: factors fitted to a run (``decode_bandwidth_efficiency``,
    ``decode_step_overhead_s``); None is the lab's own constant, for a paged engine the one of its ``release``
    (``engine_release``: data/engines.toml, ``DECODE_STEP_OVERHEAD_S``).  ``speculative`` / ``acceptance``: speculative
    decoding (``speculative_tokens`` proposed per step, ``acceptance`` emitted per verification).
    ``prefill_tokens``: the tokens each sequence prefills when its context is cached but for them (a later turn of an
    agentic episode: its observation), at the context ``prompt_tokens``; None: the whole prompt."""
    dtype = dtype if engine == "vllm" else "bf16"  # HF generate decodes with the trainer's bf16 weights
    weight_scale = ROLLOUT_BYTES_PER_PARAM[dtype] / INFER_BYTES_PER_PARAM
    kv_scale = ROLLOUT_KV_BYTES_PER_VALUE[dtype] / KV_BYTES_PER_VALUE
    kv_per_token = kv_bytes_per_token(arch) * kv_scale
    weights_gb = ROLLOUT_BYTES_PER_PARAM[dtype] * arch.total_b
    # a sequence's window layers and linear-attention state stop growing (``kv_fixed_bytes``): the part of its
    # cache no group shares and no length adds to
    if engine == "hf":
        kv_seq_gb = ((prompt_tokens + longest_tokens) * kv_per_token
                     + kv_fixed_bytes(arch, prompt_tokens + longest_tokens) * kv_scale) / GIGA
        prompts_per_sequence = 1.0
        overhead = DECODE_STEP_OVERHEAD_HF_S if overhead_s is None else overhead_s
        fixed = overhead + all_gather_seconds(weights_gb, gather_gpus, gpu)
    else:
        kv_seq_gb = ((prompt_tokens / group + response_tokens) * kv_per_token
                     + kv_fixed_bytes(arch, prompt_tokens + response_tokens) * kv_scale) / GIGA
        prompts_per_sequence = 1.0 / group
        overhead = DECODE_STEP_OVERHEAD_S[release] if overhead_s is None else overhead_s
        fixed = overhead
    avg_context = prompt_tokens + response_tokens / 2.0
    floor_context = prompt_tokens + longest_tokens / 2.0
    return _EngineWorkload(
        arch, gpu, engine, engine_memory_gb, max_gpus, prompt_tokens, response_tokens, longest_tokens, kv_per_token,
        weights_gb, kv_seq_gb, prompts_per_sequence, fixed, avg_context, floor_context,
        forward_flops_per_token(arch, avg_context), forward_flops_per_token(arch, floor_context),
        prompts_per_sequence * prompt_tokens * forward_flops_per_token(arch, prompt_tokens / 2.0)
        if prefill_tokens is None else prefill_tokens * forward_flops_per_token(arch, prompt_tokens - prefill_tokens / 2.0),
        drain, ahead, weight_scale,
        DECODE_BANDWIDTH_EFFICIENCY if bandwidth_efficiency is None else bandwidth_efficiency, overhead,
        speculative_tokens(arch, speculative, engine), acceptance, layout,
    )


def _plan(e: _EngineWorkload, tp: int, min_pp: int = 1) -> EnginePlan:
    """The engine replica of one tensor-parallel degree (see ``engine_plan``), of at least ``min_pp`` stages."""
    gpu = e.gpu
    kv_split = kv_replication(e.arch, tp)  # copies of a sequence's KV over the tp ranks: 1, tp / kv_heads, tp (MLA)
    kv_footprint_gb = e.kv_seq_gb * kv_split
    pp = 1
    usable = (1.0 - ENGINE_MIN_KV_FRACTION) * e.engine_memory_gb  # what weights may take, leaving a useful KV cache
    if tp >= min(gpu.nvlink_domain_gpus, e.max_gpus) and (tp * usable < e.weights_gb
                                                  or tp * e.engine_memory_gb < e.weights_gb + kv_footprint_gb):
        fewest = max(1, math.ceil((e.weights_gb + kv_footprint_gb) / (tp * e.engine_memory_gb) - 1e-9))
        pp = max(fewest, math.ceil(e.weights_gb / (tp * usable) - 1e-9))
        if tp * pp > e.max_gpus:  # too few GPUs for a useful cache: the fewest stages that hold one sequence
            pp = fewest
    pp = max(pp, min_pp)
    fits = tp * pp <= max(e.max_gpus, 1)
    if not fits:  # an instance larger than the GPUs given does not fit: shown on the GPUs there are, never streamed
        pp = max(1, e.max_gpus // tp)
    n = max(1, tp * pp)
    room_gb = n * e.engine_memory_gb - e.weights_gb
    if room_gb >= kv_footprint_gb and fits:
        cap = math.floor(room_gb / kv_footprint_gb)
        offloaded_gb = 0.0
    else:
        cap = 1
        fits = False
        offloaded_gb = max(kv_footprint_gb - room_gb, 0.0)  # the shortfall, reported
    if e.engine == "hf":
        cap = min(cap, int(HF_BATCH_PER_GPU) * n)
    hbm_rate = n * gpu.hbm_bandwidth_tb_per_s * TERA * e.bandwidth_efficiency
    compute_rate = n * gpu.peak_bf16_tflops * TERA * FORWARD_MFU
    host_s = 0.0  # a state that does not fit is never timed as weights streamed over the host link
    one = step_seconds(e.arch, gpu, tp, 1.0, e.floor_context, e.floor_flops, hbm_rate, compute_rate, host_s,
                       0.0, e.kv_per_token * kv_split, e.fixed_step_s, e.weight_scale, pp)[0]
    draft_s = 0.0
    if e.spec_k:  # the floor's token takes the cheaper of a plain step and a verification step over its acceptance
        draft_s = draft_seconds(e.arch, e.spec_k, hbm_rate, e.weight_scale)
        spec = step_seconds(e.arch, gpu, tp, 1.0, e.floor_context, e.floor_flops, hbm_rate, compute_rate, host_s,
                            0.0, e.kv_per_token * kv_split, e.fixed_step_s, e.weight_scale, pp,
                            verify=e.spec_k + 1.0, draft_s=draft_s)[0]
        one = min(one, spec / e.acceptance)
    return EnginePlan(
        arch=e.arch, gpu=gpu, engine=e.engine, tp=tp, pipeline=pp, gpus=n, batch_cap=max(cap, 1),
        kv_footprint_gb=kv_footprint_gb, offloaded_gb=offloaded_gb, prompt_tokens=e.prompt_tokens,
        response_tokens=e.response_tokens, avg_context=e.avg_context, prompts_per_sequence=e.prompts_per_sequence,
        fixed_step_s=e.fixed_step_s, floor_s=e.longest_tokens * one, kv_per_token=e.kv_per_token,
        kv_split=kv_split, hbm_rate=hbm_rate, compute_rate=compute_rate, host_s=host_s,
        prefill_flops=e.prefill_flops, decode_flops=e.decode_flops,
        lengths=Lengths(float(e.response_tokens), float(e.longest_tokens)), drain=e.drain, ahead=e.ahead,
        weight_scale=e.weight_scale, weights_gb=e.weights_gb, engine_memory_gb=e.engine_memory_gb, fits=fits,
        overhead_s=e.overhead_s, spec_k=e.spec_k, acceptance=e.acceptance, draft_s=draft_s)


def engine_plan(arch: Arch, gpu: GpuSpec, engine_memory_gb: float, tp: int, *, prompt_tokens: int,
                response_tokens: int, longest_tokens: int, group: int, engine: str, gather_gpus: int,
                max_gpus: int, speculative: str = "off", acceptance: float = 1.0) -> EnginePlan:
    """The engine replica for one tensor-parallel degree.

    Weights W = 2 · N_total (fp8 rollouts: 1 B per parameter); an instance is tp × pp GPUs, its routed experts
    spread over all of them (ep = tp · pp), so a GPU holds dense / (tp · pp) + experts / ep = W / (tp · pp).
    Pipeline stages pp only at the node's widest tp, the fewest whose weights leave a useful KV cache — at least
    ``engine_min_kv_fraction`` of the engine memory and one sequence (Qwen3-235B-A22B: 470 GB / 8 = 59 GB per GPU
    at TP 8; DeepSeek-V3 in 48 GB per GPU: 1,342 GB / 32 = 42 GB at TP 8 × PP 4).
    Batch cap B = ⌊(n · M_engine − W) / kv_seq⌋ (n = tp · pp GPUs), kv_seq one sequence's KV cache:
    vllm (paged; the ``group`` responses of a prompt share its prompt KV): (prompt / group + mean) · kv/token;
    hf (no paging: a sequence reserves its full length): (prompt + longest) · kv/token, and B ≤ 16 per GPU.
    What does not fit streams over the host link.  Fixed cost per decode step: overhead (vllm 4 ms, hf 10 ms)
    plus, for hf inside a ZeRO-3 trainer, an all-gather of W over the trainer's G GPUs (``all_gather_seconds``).
    Floor = longest · step(b = 1) at the context prompt + longest / 2; with speculative decoding (``speculative``,
    ``acceptance`` τ) longest · min(step(b = 1), verification step(b = 1, k + 1 tokens) / τ)."""
    return _plan(_engine_workload(arch, gpu, engine_memory_gb, max_gpus, prompt_tokens, response_tokens,
                                  longest_tokens, group, engine, gather_gpus, speculative=speculative,
                                  acceptance=acceptance), tp)


def step_seconds(arch: Arch, gpu: GpuSpec, tp: int, batch: float, context: float, flops_per_token: float,
                 hbm_rate: float, compute_rate: float, host_s: float, offloaded_gb: float, kv_bytes: float,
                 fixed_s: float, weight_scale: float = 1.0, pipeline: int = 1, *, verify: float = 1.0,
                 draft_s: float = 0.0, dp: int = 1) -> tuple[float, float, float, float]:
    """One decode step of ``batch`` sequences at ``context`` tokens each on one replica: (seconds, t_mem,
    t_compute, tensor-parallel all-reduce), s.

        t_mem     = (W_read(b) − offloaded + b · KV(context)) / (n · HBM · 0.6) + offloaded / (n · host)
        t_compute = b · (2 · N_active + attention(context)) / (n · peak · 0.45)
        step      = max(t_mem, t_compute) + all-reduces + expert exchange + overhead (+ all-gather)
    (decoding reads the weights once per step plus the batch's KV cache: the bandwidth roofline [3]); the expert
    exchange (``expert_exchange_seconds``) when a mixture of experts spans nodes;
    ``flops_per_token`` = 2 · N_active + attention(context), ``kv_bytes`` the KV bytes per token on the replica,
    KV(context) = context · kv_bytes · ``kv_context_factor`` (a sequence's cache at that context: its full layers'
    tokens, its windows' last tokens and its linear layers' state),
    ``weight_scale`` the rollout bytes per parameter over 2 (fp8: ½).  A pipeline of pp stages adds memory, not
    speed: the batch passes as pp micro-batches, each reading every stage's weights, so a step reads the weights pp
    times (W_read(b / pp) · pp over n GPUs: one stage's weights per GPU per micro-batch).
    Speculative decoding (``verify`` = k + 1 tokens per sequence, ``draft_s`` the k proposals' own seconds): the
    target reads its weights and each sequence's KV once and computes, routes and all-reduces b · (k + 1) tokens
    [vllm_spec]; the step emits ``acceptance`` tokens per sequence (the caller divides).
    ``dp`` > 1: a wide-EP instance (``dp_step_seconds``)."""
    if dp > 1:
        return dp_step_seconds(arch, gpu, dp, batch, context, flops_per_token, hbm_rate, compute_rate, kv_bytes,
                               fixed_s, weight_scale, verify=verify, draft_s=draft_s)
    tokens = batch * verify
    weights = decode_weight_bytes(arch, tokens / pipeline) * pipeline if pipeline > 1 else decode_weight_bytes(arch, tokens)
    kv_read = batch * context * kv_bytes * kv_context_factor(arch, context)  # windows and linear states: less
    t_mem = (max(weights * weight_scale - offloaded_gb * GIGA, 0.0) + kv_read) / hbm_rate
    t_mem += host_s
    t_compute = tokens * flops_per_token / compute_rate
    reduce = tp_all_reduce_seconds(arch, tokens, tp, gpu) if tp > 1 else 0.0
    reduce += expert_exchange_seconds(arch, tokens, tp, pipeline, gpu)
    return max(t_mem, t_compute) + reduce + fixed_s + draft_s, t_mem, t_compute, reduce


def dp_step_seconds(arch: Arch, gpu: GpuSpec, dp: int, batch: float, context: float, flops_per_token: float,
                    hbm_rate: float, compute_rate: float, kv_bytes: float, fixed_s: float,
                    weight_scale: float = 1.0, *, verify: float = 1.0,
                    draft_s: float = 0.0) -> tuple[float, float, float, float]:
    """One decode step of a wide-EP instance of ``dp`` GPUs (attention data-parallel, experts over all of them:
    SGLang ``--enable-dp-attention``, vLLM ``--data-parallel-size`` with ``--enable-expert-parallel``), s: (seconds,
    t_mem, t_compute, all-to-all).  Each GPU decodes its own b / dp sequences (at least the one a tail holds) with its
    whole copy of the dense part, and the experts its tokens are routed to, of its 1 / dp share:

        t_mem     = (2 B · (dense + routed · touched(b) / dp) + b_gpu · context · kv/token) / (HBM · 0.6)
        t_compute = b_gpu · F(context) / (peak · 0.45)
        step      = max(t_mem, t_compute) + dispatch + combine (``dispatch_combine_seconds``) + overhead

    No tensor-parallel all-reduce: attention and the dense layers run whole on each GPU.  The rates passed are the
    instance's (dp GPUs), as for a TP instance."""
    tokens = batch * verify
    per_gpu = max(batch / dp, min(batch, 1.0))  # a sequence is on one GPU: the tail's GPU holds one
    touched = (1.0 - (1.0 - arch.experts_per_token / arch.experts) ** max(tokens, 1.0)) if arch.experts else 1.0
    weights = INFER_BYTES_PER_PARAM * (arch.dense_b + arch.routed_b * touched / dp) * GIGA * weight_scale
    t_mem = (weights + per_gpu * context * kv_bytes * kv_context_factor(arch, context)) / (hbm_rate / dp)
    t_compute = per_gpu * verify * flops_per_token / (compute_rate / dp)
    a2a = dispatch_combine_seconds(arch, per_gpu * verify, dp, gpu)
    return max(t_mem, t_compute) + a2a + fixed_s + draft_s, t_mem, t_compute, a2a


DP_ATTENTION_SIZES = (2, 4, 8, 16, 32, 64, 128, 256)  # wide-EP instances: EP 8–256 in DeepEP's and SGLang's figures


def dp_plan(e: _EngineWorkload, dp: int) -> EnginePlan:
    """A wide-EP instance of ``dp`` GPUs (``engine_layout=dp_attention``; mixtures of experts): attention
    data-parallel, so each GPU holds the whole dense part (attention, shared experts, dense layers, embeddings) and
    its own sequences' KV once (MLA's latent is not replicated over TP ranks), the routed experts spread over all dp
    GPUs (EP = dp, across nodes when dp exceeds the NVLink domain):

        weights per GPU = B · (dense + experts / dp)
        batch cap       = dp · ⌊(M_engine − weights per GPU) / kv_seq⌋
        fits            when weights per GPU leave ``engine_min_kv_fraction`` of M_engine and one sequence

    DeepSeek-V3 fp8 on 16 H200s (engine memory 0.9 · 141 = 126.9 GB): 17.1 + 653.9 / 16 = 58.0 GB a GPU, 68.9 GB of
    KV on each, none of it replicated."""
    gpu, arch = e.gpu, e.arch
    per_param = e.weights_gb / arch.total_b if arch.total_b else 0.0
    w_gpu = per_param * (arch.dense_b + arch.expert_b / dp)
    room = e.engine_memory_gb - w_gpu
    fits = (dp <= max(e.max_gpus, 1) and w_gpu <= (1.0 - ENGINE_MIN_KV_FRACTION) * e.engine_memory_gb
            and room >= e.kv_seq_gb)
    cap = dp * math.floor(room / e.kv_seq_gb) if fits and e.kv_seq_gb > 0 else 1
    offloaded = 0.0 if fits else max(e.kv_seq_gb - room, 0.0)
    hbm_rate = dp * gpu.hbm_bandwidth_tb_per_s * TERA * e.bandwidth_efficiency
    compute_rate = dp * gpu.peak_bf16_tflops * TERA * FORWARD_MFU
    one = dp_step_seconds(arch, gpu, dp, 1.0, e.floor_context, e.floor_flops, hbm_rate, compute_rate,
                          e.kv_per_token, e.fixed_step_s, e.weight_scale)[0]
    draft_s = 0.0
    if e.spec_k:
        draft_s = draft_seconds(arch, e.spec_k, hbm_rate / dp, e.weight_scale)
        spec = dp_step_seconds(arch, gpu, dp, 1.0, e.floor_context, e.floor_flops, hbm_rate, compute_rate,
                               e.kv_per_token, e.fixed_step_s, e.weight_scale, verify=e.spec_k + 1.0,
                               draft_s=draft_s)[0]
        one = min(one, spec / e.acceptance)
    return EnginePlan(
        arch=arch, gpu=gpu, engine=e.engine, tp=1, pipeline=1, gpus=dp, batch_cap=max(cap, 1),
        kv_footprint_gb=e.kv_seq_gb, offloaded_gb=offloaded, prompt_tokens=e.prompt_tokens,
        response_tokens=e.response_tokens, avg_context=e.avg_context, prompts_per_sequence=e.prompts_per_sequence,
        fixed_step_s=e.fixed_step_s, floor_s=e.longest_tokens * one, kv_per_token=e.kv_per_token, kv_split=1.0,
        hbm_rate=hbm_rate, compute_rate=compute_rate, host_s=0.0, prefill_flops=e.prefill_flops,
        decode_flops=e.decode_flops, lengths=Lengths(float(e.response_tokens), float(e.longest_tokens)),
        drain=e.drain, ahead=e.ahead, weight_scale=e.weight_scale, weights_gb=w_gpu * dp,
        engine_memory_gb=e.engine_memory_gb, fits=fits, overhead_s=e.overhead_s, spec_k=e.spec_k,
        acceptance=e.acceptance, draft_s=draft_s, dp=dp, weights_gb_per_gpu=w_gpu)


def dp_attention_options(e: _EngineWorkload | None) -> tuple[int, ...]:
    """The wide-EP instance sizes a step may use: a mixture of experts on a paged engine, unless ``engine_layout=tp``."""
    if e is None or not e.arch.moe or e.engine != "vllm" or e.layout == "tp":
        return ()
    return tuple(n for n in DP_ATTENTION_SIZES if n <= e.max_gpus)


def draft_seconds(arch: Arch, proposed: int, hbm_rate: float, weight_scale: float = 1.0) -> float:
    """The proposals of one speculative decode step, s: k passes, each reading ``spec_draft_layers`` decoder layers'
    worth of the target's active weights (an MTP module or an EAGLE head is one decoder layer; teaching assumption):
    k · layers · 2 B · N_active / L / (n · HBM · 0.6).

    >>> from app.model.assumptions import ARCHS
    >>> round(draft_seconds(ARCHS["deepseek_v3"], 1, 8 * 3.35e12 * 0.6) * 1e6, 1)   # 2 · 37e9 / 61 over 8 H100s
    75.4
    """
    return proposed * SPEC_DRAFT_LAYERS * INFER_BYTES_PER_PARAM * arch.active_b * GIGA / arch.layers * weight_scale \
        / hbm_rate


def schedule_seconds(plan: EnginePlan, rollouts: float, gen_gpus: int) -> tuple[float, ...]:
    """``rollouts`` responses on ``gen_gpus`` GPUs of replicas shaped by ``plan``: replicas = ⌊G / n⌋, each decodes
    S = R / replicas sequences by continuous batching (``app.model.decode``): w = ⌈S / B⌉ rounds of b = S / w.
        prefill    = S · prompts per sequence · prompt · F(prompt / 2) / (n · peak · 0.45)
        throughput = prefill + w · mean · step(b)          the batch's own time (equal lengths: the whole of it)
        seconds    = prefill + Σ over decode stretches of steps · step(active, context)
                     (synchronous: ≥ the floor, longest · step(1), as the step waits for its longest response;
                     streaming: S · mean / a steps at a = min(B, (1 + staleness) · S), no drain)
    Returns (seconds, replicas, waves, b, step, t_mem, t_compute, all-reduce, throughput)."""
    replicas = gen_gpus // plan.gpus or 1
    seqs = rollouts / replicas
    waves = rounds(seqs, plan.batch_cap)
    b = seqs / waves
    kv_bytes = plan.kv_per_token * plan.kv_split
    arch, gpu, tp = plan.arch, plan.gpu, plan.tp

    def plain(active: float, context: float, flops: float | None = None) -> tuple[float, float, float, float]:
        return step_seconds(arch, gpu, tp, active, context,
                            forward_flops_per_token(arch, context) if flops is None else flops, plan.hbm_rate,
                            plan.compute_rate, plan.host_s, 0.0, kv_bytes, plan.fixed_step_s,
                            plan.weight_scale, plan.pipeline, dp=plan.dp)

    def at(active: float, context: float, flops: float | None = None) -> tuple[float, float, float, float]:
        """One token's decode time at ``active`` sequences: a plain step, or with speculative decoding the cheaper of
        it and a verification step over its acceptance — vLLM's ``disable_by_batch_size`` turns speculation off
        where the batch makes the step compute-bound [vllm_spec]."""
        out = plain(active, context, flops)
        if plan.spec_k:
            f = forward_flops_per_token(arch, context) if flops is None else flops
            spec = step_seconds(arch, gpu, tp, active, context, f, plan.hbm_rate, plan.compute_rate, plan.host_s,
                                0.0, kv_bytes, plan.fixed_step_s, plan.weight_scale, plan.pipeline,
                                verify=plan.spec_k + 1.0, draft_s=plan.draft_s, dp=plan.dp)
            if spec[0] / plan.acceptance < out[0]:
                out = (spec[0] / plan.acceptance, *spec[1:])
        return out

    step, t_mem, t_compute, reduce = at(b, plan.avg_context, plan.decode_flops)
    prefill = seqs * plan.prefill_flops / plan.compute_rate
    throughput = prefill + waves * plan.response_tokens * step
    stretches = decode_stretches(plan.lengths, seqs, plan.batch_cap, plan.prompt_tokens, drain=plan.drain,
                                 active_cap=seqs * plan.ahead)
    seconds = prefill
    for s in stretches:
        seconds += s.steps * at(s.active, s.context)[0]
    if plan.drain and seconds < plan.floor_s:
        seconds = plan.floor_s
    return seconds, replicas, waves, b, step, t_mem, t_compute, reduce, throughput


def schedule(plan: EnginePlan, rollouts: int, gen_gpus: int, times: tuple[float, ...] | None = None) -> Generation:
    """The ``Generation`` of ``schedule_seconds`` (``times``: its answer when already computed)."""
    seconds, replicas, waves, b, step, t_mem, t_compute, reduce, throughput = (
        times or schedule_seconds(plan, rollouts, gen_gpus))
    bound = "memory" if t_mem >= t_compute else "compute"
    return Generation(
        seconds=seconds, gpus=gen_gpus, tensor_parallel=plan.tp, replicas=replicas, batch=b, waves=waves,
        kv_gb_per_replica=b * plan.kv_footprint_gb, offloaded_gb=plan.offloaded_gb, decode_step_s=step,
        tokens_per_s=rollouts * plan.response_tokens / seconds, bound=bound, pipeline=plan.pipeline,
        throughput_s=throughput, tail_floor_s=plan.floor_s, gather_s=plan.fixed_step_s - plan.overhead_s,
        all_reduce_s=0.0 if plan.dp > 1 else reduce, engine=plan.engine,
        expert_parallel=plan.gpus if plan.arch.experts else 1,
        weights_gb_per_gpu=plan.weights_gb / plan.gpus,
        kv_gb_per_gpu=max(plan.engine_memory_gb - plan.weights_gb / plan.gpus, 0.0), streaming=not plan.drain,
        fits=plan.fits, wake_s=ENGINE_WAKE_S + plan.weights_gb / plan.gpus / plan.gpu.host_link_gb_per_s,
        data_parallel=plan.dp, all_to_all_s=reduce if plan.dp > 1 else 0.0,
        speculative_tokens=plan.spec_k, acceptance=plan.acceptance if plan.spec_k else 1.0,
    )


def engine_plans(arch: Arch, gpu: GpuSpec, engine_memory_gb: float, max_gpus: int, *, prompt_tokens: int,
                 response_tokens: int, longest_tokens: int, group: int = 1, engine: str = "vllm",
                 gather_gpus: int = 0) -> tuple[EnginePlan, ...]:
    """One plan (``engine_plan``) per tensor-parallel degree the engine may use on up to ``max_gpus`` GPUs."""
    e = _engine_workload(arch, gpu, engine_memory_gb, max_gpus, prompt_tokens, response_tokens, longest_tokens,
                         group, engine, gather_gpus)
    return tuple([_plan(e, tp) for tp in engine_tp_options(e)])


def covers(plan: EnginePlan, gen_gpus: int) -> bool:
    """Whether instances of ``plan`` (TP · PP GPUs each) cover ``gen_gpus`` with none left over: 6 GPUs take
    instances of 1, 2 or 3 GPUs, never of 4."""
    return gen_gpus % max(plan.gpus, 1) == 0


def fastest(plans: Iterable[EnginePlan], rollouts: int, gen_gpus: int
            ) -> tuple[EnginePlan, tuple[float, ...]] | None:
    """The fastest plan on ``gen_gpus`` GPUs over those whose tensor-parallel degree fits, with its
    ``schedule_seconds`` (the engine is tuned, as in practice); None with nothing to generate."""
    best = None
    if rollouts > 0 and gen_gpus > 0:
        for plan in plans:
            if plan.tp <= gen_gpus:
                times = schedule_seconds(plan, rollouts, gen_gpus)
                # an instance that fits beats any that does not, then the fastest
                if best is None or (not plan.fits, times[0]) < (not best[0].fits, best[1][0]):
                    best = (plan, times)
    return best


class Engines:
    """The engine plans of one step, made when first needed (one per tensor-parallel degree), and the fastest of
    them per generation GPU count — each count scheduled once, however many layouts the search tries with it."""

    __slots__ = ("_best", "_engine", "_options", "_plans", "pinned_tp", "rollouts")

    def __init__(self, engine: _EngineWorkload | None, options: tuple[int, ...], rollouts: float,
                 pinned_tp: int = 0) -> None:
        self._engine = engine
        self._options = options
        self._plans: dict[object, EnginePlan] = {}
        self.rollouts = rollouts
        self.pinned_tp = pinned_tp  # the degree the user gave (``pinned_tp_options``), 0: the fastest is searched
        self._best: dict[int, tuple[EnginePlan, tuple[float, ...]] | None] = {}

    def plan(self, tp: int, min_pp: int = 1) -> EnginePlan:
        plan = self._plans.get((tp, min_pp))
        if plan is None:
            plan = self._plans[tp, min_pp] = _plan(self._engine, tp, min_pp)  # type: ignore[arg-type]
        return plan

    def covering(self, plan: EnginePlan, gen_gpus: int) -> EnginePlan | None:
        """``plan``, or the same degree with the fewest more pipeline stages, whose instances cover ``gen_gpus``
        with none left over (``covers``); None when no such instance exists (the degree does not divide them)."""
        if covers(plan, gen_gpus):
            return plan
        if plan.pipeline == 1:
            return None
        pp = next((s for s in range(plan.pipeline + 1, gen_gpus // plan.tp + 1) if gen_gpus % (plan.tp * s) == 0),
                  None)
        return None if pp is None else self.plan(plan.tp, pp)

    def wide(self, dp: int) -> EnginePlan:
        """The wide-EP instance of ``dp`` GPUs (``dp_plan``), made once."""
        plan = self._plans.get(("dp", dp))  # type: ignore[call-overload]
        if plan is None:
            plan = self._plans["dp", dp] = dp_plan(self._engine, dp)  # type: ignore[index, arg-type]
        return plan

    def _fastest(self, gen_gpus: int) -> tuple[EnginePlan, tuple[float, ...]] | None:
        if gen_gpus not in self._best:
            allowed = tuple(tp for tp in self._options if tp <= gen_gpus) if self._engine else ()
            # wide EP (mixtures of experts): instances that cover the GPUs and fit; engine_layout=dp_attention takes
            # only them (when one fits), auto weighs them with the TP instances, tp never
            wide = [p for p in (self.wide(n) for n in dp_attention_options(self._engine) if gen_gpus % n == 0)
                    if p.fits]
            layout = self._engine.layout if self._engine else "tp"
            if layout == "dp_attention" and wide:
                self._best[gen_gpus] = fastest(wide, self.rollouts, gen_gpus)
                return self._best[gen_gpus]
            plans = [self.plan(tp) for tp in allowed]
            # the engines a framework starts cover the generation GPUs: verl and OpenRLHF make GPUs / (TP · PP)
            # instances and refuse a remainder, so a degree that leaves GPUs over is not one a command can run
            covering = [c for c in (self.covering(p, gen_gpus) for p in plans) if c is not None]
            if any(p.fits for p in covering) or not any(p.fits for p in plans):
                plans = covering or plans
            else:  # only an instance that leaves GPUs over fits: the step gives those to training (``ppo_step``)
                plans = [p for p in plans if p.fits]
            if self.pinned_tp and plans:  # the given degree, or the first wider one whose instance fits
                preferred = pinned_tp_options(tuple(p.tp for p in plans), self.pinned_tp)
                ordered = [p for p in plans if p.tp in preferred]
                plans = [next((p for p in ordered if p.fits), ordered[0])]
            elif layout == "auto":
                plans = plans + wide
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


class TurnEngines:
    """The engines of an agentic episode of ``turns`` > 1 (``step_engines``): one ``Engines`` per turn, turn t at the
    context prompt + t · (response + observation), prefilling its observation only (the rest is cached).

    sync (``agent_loop=sync``): the engine's batch drains at every turn and waits for the environment:
        seconds = Σ_t generation_t + (turns − 1) · env_latency
    async (verl's agent loop, SGLang's async multi-turn): a trajectory waiting for its environment leaves its slot to
    the others, so the step is the engine's own work or the longest trajectory's path, whichever is longer:
        seconds = max(Σ_t generation_t, Σ_t floor_t + (turns − 1) · env_latency)
    (the environment's latency is a teaching input, ``env_latency_s``, per turn and the same for every trajectory)."""

    __slots__ = ("_done", "latency", "overlap", "response_tokens", "rollouts", "turns")

    def __init__(self, turns: list[Engines], latency_s: float, overlap: bool, rollouts: float,
                 response_tokens: float) -> None:
        self.turns = turns
        self.response_tokens = response_tokens
        self.latency = latency_s
        self.overlap = overlap
        self.rollouts = rollouts
        self._done: dict[int, Generation] = {}

    def generation(self, gen_gpus: int) -> Generation:
        if gen_gpus not in self._done:
            gens = [e.generation(gen_gpus) for e in self.turns]
            last = gens[-1]
            if last.gpus <= 0:
                self._done[gen_gpus] = last
            else:
                work = sum(g.seconds for g in gens)
                waits = (len(gens) - 1) * self.latency
                seconds = max(work, sum(g.tail_floor_s for g in gens) + waits) if self.overlap else work + waits
                tokens = self.rollouts * len(gens) * self.response_tokens
                self._done[gen_gpus] = last._replace(
                    seconds=seconds, throughput_s=sum(g.throughput_s for g in gens),
                    tail_floor_s=sum(g.tail_floor_s for g in gens), tokens_per_s=tokens / seconds,
                    turns=len(gens), env_wait_s=seconds - work)
        return self._done[gen_gpus]

    def seconds(self, gen_gpus: int) -> float:
        return self.generation(gen_gpus).seconds

    def throughput(self, gen_gpus: int) -> float:
        return self.generation(gen_gpus).throughput_s


def step_engines(w: Workload, i: WorkloadInputs, engine_memory_gb: float, max_gpus: int,
                 gather_gpus: int = 0) -> Engines | TurnEngines:
    """The engines a step can use on up to ``max_gpus`` generation GPUs: rollouts · oversample responses
    (``generated_rollouts``) at the rollout precision; streaming (no drain, up to 1 + staleness steps of responses
    in the engine at once) when the step runs ahead on separate GPUs with partial rollouts."""
    if i.rollouts <= 0:
        return Engines(None, (), 0)
    streaming = bool(i.staleness) and i.partial_rollouts == "on" and i.placement == "separate"
    e = _engine_workload(w.arch, w.gpu, engine_memory_gb, max_gpus, i.prompt_tokens, i.response_tokens,
                         i.response_max_tokens, _group(i), i.engine, gather_gpus, dtype=i.rollout_dtype,
                         drain=not streaming, ahead=1.0 + i.staleness if streaming else 1.0,
                         bandwidth_efficiency=i.decode_bandwidth_efficiency, overhead_s=i.decode_step_overhead_s,
                         speculative=i.speculative, acceptance=i.acceptance, release=i.engine_release,
                         layout=i.engine_layout)
    if i.turns > 1:  # an agentic episode: one engine workload per turn (``TurnEngines``)
        turns = [Engines(e, engine_tp_options(e), generated_rollouts(i), pinned_tp=i.engine_tp)]
        for t in range(1, i.turns):
            context = i.prompt_tokens + t * (i.response_tokens + i.observation_tokens)
            e_t = _engine_workload(w.arch, w.gpu, engine_memory_gb, max_gpus, context, i.response_tokens,
                                   i.response_max_tokens, 1, i.engine, gather_gpus, dtype=i.rollout_dtype,
                                   drain=not streaming, ahead=1.0 + i.staleness if streaming else 1.0,
                                   bandwidth_efficiency=i.decode_bandwidth_efficiency,
                                   overhead_s=i.decode_step_overhead_s, speculative=i.speculative,
                                   acceptance=i.acceptance, prefill_tokens=i.observation_tokens,
                                   release=i.engine_release, layout=i.engine_layout)
            turns.append(Engines(e_t, engine_tp_options(e_t), generated_rollouts(i), pinned_tp=i.engine_tp))
        return TurnEngines(turns, i.env_latency_s, i.agent_loop == "async", generated_rollouts(i), i.response_tokens)
    return Engines(e, engine_tp_options(e), generated_rollouts(i), pinned_tp=i.engine_tp)


def pinned_tp_options(options: tuple[int, ...], given: int) -> tuple[int, ...]:
    """The engine's tensor-parallel degrees when the user gives one (``engine_tp``, as a recipe fixes vLLM's
    ``tensor_parallel_size``), in order of preference: the widest allowed degree up to the one given (the NVLink
    domain, the generation GPUs and the heads cap it: ``tensor_parallel_options``), then the wider ones, taken only when the
    instance's weights and one sequence's KV do not fit (a framework would stop with out-of-memory; the lab widens
    the instance and says so).

    >>> pinned_tp_options((1, 2, 4, 8), 2), pinned_tp_options((1, 2, 4, 8), 32), pinned_tp_options((1, 2, 4, 8), 3)
    ((2, 4, 8), (8,), (2, 4, 8))
    """
    start = max([tp for tp in options if tp <= given] or options[:1])
    return tuple(tp for tp in options if tp >= start)


def engine_tp_case(given: int, g: Generation) -> str:
    """How the engine's tensor parallelism relates to the one the user gave (``engine_tp``): "" when searched or
    nothing is generated, "given" when it ran as given, "capped" when the NVLink domain, the GPUs or the heads hold
    it lower, "widened" when an instance at the given degree cannot hold its weights and one sequence's KV
    (``pinned_tp_options``).

    >>> g = Generation(1, 8, 4, 2, 1, 1, 0, 0, 0, 0, "memory")
    >>> engine_tp_case(0, g), engine_tp_case(4, g), engine_tp_case(16, g), engine_tp_case(2, g)
    ('', 'given', 'capped', 'widened')
    """
    if not given or g.gpus <= 0:
        return ""
    return "given" if g.tensor_parallel == given else "capped" if g.tensor_parallel < given else "widened"


def generated_rollouts(i: WorkloadInputs) -> float:
    """Responses the engine generates per step: rollouts · ``oversample`` (DAPO's dynamic sampling generates more
    groups and drops those whose answers are all right or all wrong, arXiv 2503.14476 §3.2)."""
    return i.rollouts * i.oversample


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


def colocated_switch_seconds(g: Generation) -> float:
    """What a hybrid engine pays each step beside the refit (``Generation.wake_s``): it sleeps while training runs
    (vLLM sleep mode level 1: weights to host memory, KV cache freed) and wakes for the next generation — its
    weights per GPU back over the host link, plus ``engine_wake_s`` to re-allocate the KV cache and resume (the vLLM
    sleep-mode blog measures 0.1–6 s wake-ups from 0.6 B to 235 B).  0 for HF generate and with nothing to generate.

    >>> round(colocated_switch_seconds(Generation(1, 8, 8, 1, 1, 1, 0, 0, 0, 0, "memory", wake_s=1.25)), 2)
    1.25
    """
    return g.wake_s if g.engine == "vllm" and g.gpus > 0 else 0.0


def engine_fits(w: Workload, i: WorkloadInputs, engine_memory_gb: float, gen_gpus: int) -> bool:
    """Whether the widest engine instance ``gen_gpus`` GPUs allow (TP up to 8, then across nodes or pipeline
    stages: ``engine_tp_options``), or a wide-EP instance where the layout allows one (``dp_plan``), holds its
    weights and one longest sequence's KV in ``engine_memory_gb`` per GPU (``engine_plan``'s ``fits``)."""
    if gen_gpus <= 0:
        return False
    last_turn = int(i.prompt_tokens + (i.turns - 1) * (i.response_max_tokens + i.observation_tokens))
    e = _engine_workload(w.arch, w.gpu, engine_memory_gb, gen_gpus, last_turn, i.response_tokens,
                         i.response_max_tokens, _group(i) if i.turns == 1 else 1, i.engine,
                         gen_gpus if i.engine == "hf" else 0, dtype=i.rollout_dtype, layout=i.engine_layout)
    # a wide-EP instance that fits counts too (engine_layout auto or dp_attention; dp_attention falls back to TP)
    return _plan(e, engine_tp_options(e)[-1]).fits or any(
        dp_plan(e, n).fits for n in dp_attention_options(e) if gen_gpus % n == 0)


def _widest_engine(w: Workload, gen_gpus: int, engine: str) -> int:
    """The engine layout memory figures use: the widest tensor-parallel degree the generation GPUs allow
    (independent of the speed-optimal choice, which jumps as the policy grows)."""
    return tensor_parallel_options(w.arch, max(gen_gpus, 1), engine, w.gpu.nvlink_domain_gpus)[-1]
