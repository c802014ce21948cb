"""The refit: the trainer's new weights into the rollout engine, every step (colocated and separate placement).

How the frameworks do it (verl ``per_tensor_generator`` / checkpoint engine, NeMo RL ``refit``): the trainer's shards
are **gathered** into whole tensors (FSDP all-gather; Megatron's TP / PP / EP gather), **converted** to the engine's
layout and dtype (names, fused QKV and gate-up, fp8 quantisation), and **loaded** into the engine tensor by tensor;
placed apart, the engine's ranks receive them by a **broadcast** at the engine's dtype (fp8 rollouts: 1 B per
parameter).  A mixture of experts has tens of thousands of tensors (Qwen3-235B-A22B: 94 layers · 128 experts · 3
matrices), so the per-tensor cost, not the bytes, decides its refit.

``refit`` = ``per_tensor`` (verl's NCCL path: each tensor gathered, broadcast and loaded in turn, a collective per
tensor) or ``bucketed`` (verl's checkpoint engine, NeMo RL's refit buffer: tensors packed into buckets, the gather
pipelined with the broadcast, one collective per bucket):

    per_tensor: gather + broadcast + convert + tensors · (load + collective)
    bucketed:   max(gather, broadcast) + convert + tensors · load

References: verl docs/advance/fully_async.md, checkpoint-engine ablation table (``verl_async``): 64 + 64 H20s,
Qwen3-235B-A22B 58.57 s per tensor, 23.7 s bucketed; Qwen3-30B-A3B 15.76 s and 4.38 s; Qwen2.5-7B on one node
0.12 s and 0.02 s.  The two per-tensor costs are a fit to those rows (``assumptions``), stated as one.
"""

from __future__ import annotations

from typing import NamedTuple

from app.model.assumptions import (
    COLLECTIVE_LATENCY_S,
    HTTP_ROUND_TRIP_S,
    INFER_BYTES_PER_PARAM,
    REFIT_COLLECTIVE_PER_TENSOR_S,
    REFIT_CONVERT_PASSES,
    REFIT_LOAD_PER_TENSOR_S,
    ROLLOUT_BYTES_PER_PARAM,
    SERVER_REQUESTS_PER_STEP,
    Arch,
    GpuSpec,
)
from app.model.inputs import WorkloadInputs
from app.model.physics.architecture import GIGA, TERA
from app.model.physics.network import all_gather_seconds, collective_bandwidth

REFIT_MODES = ("bucketed", "per_tensor")


class Refit(NamedTuple):
    """One step's refit, s: its terms and the tensors it moves."""

    mode: str             # bucketed | per_tensor
    tensors: int          # weight tensors of the checkpoint (``weight_tensors``)
    gather_s: float       # the trainer's shards gathered into whole tensors (bf16)
    convert_s: float      # the gathered bytes read and written once into the engine's layout and dtype
    broadcast_s: float    # separate placement: the engine-dtype bytes to the engines (0 colocated)
    load_s: float         # tensors · per-tensor cost (load, and per_tensor: a collective each)
    total_s: float
    http_s: float = 0.0   # server mode: the step's HTTP round trips (a request per tensor pushed, per batch sent)


def server_mode(i: WorkloadInputs) -> bool:
    """Whether the engines sit behind an HTTP server (``engine_api=http``, TRL's ``vllm_mode=server``): only separate
    vLLM engines can (colocated engines and HF generate run in the trainer's processes)."""
    return i.engine_api == "http" and i.placement == "separate" and i.engine == "vllm"


def server_refit_seconds(arch: Arch, gpu: GpuSpec, *, train_gpus: int, generation_gpus: int,
                         dtype: str = "bf16", http_s: float = HTTP_ROUND_TRIP_S) -> Refit:
    """The weight push to an engine behind HTTP (TRL's ``vllm_mode=server``), s: TRL's ``VLLMClient`` sends every
    parameter by itself, an HTTP POST to the server's ``/update_named_param/`` and then an NCCL broadcast from the
    trainer to the server's workers (trl/extras/vllm_client.py), so the push is ``per_tensor`` (a collective per
    tensor) with a round trip per tensor; the step adds ``server_requests_per_step`` more (the batch's
    ``/generate/`` and ``/reset_prefix_cache/``):

        total = per_tensor refit + (tensors + requests) · round trip

    Check (Qwen2.5-1.5B, 28 · (4 + 2 + 3) + 3 = 255 tensors, 7 trainer GPUs + 1 server GPU on one node):
    (255 + 2) · 2 ms = 0.51 s of round trips beside the per-tensor refit.

    >>> from app.model.assumptions import ARCHS, GPUS
    >>> r = server_refit_seconds(ARCHS["qwen25_1_5b"], GPUS["h100_80g"], train_gpus=7, generation_gpus=1)
    >>> r.tensors, round(r.http_s, 2), r.mode
    (255, 0.51, 'per_tensor')
    """
    r = refit_seconds(arch, gpu, mode="per_tensor", train_gpus=train_gpus, generation_gpus=generation_gpus,
                      dtype=dtype, colocated=False)
    trips = (r.tensors + SERVER_REQUESTS_PER_STEP) * http_s
    return r._replace(http_s=trips, total_s=r.total_s + trips)


def weight_tensors(arch: Arch) -> int:
    """Weight tensors of the checkpoint the trainer hands the engine, counted from the shape (a rule: biases and
    Qwen3's q/k norms left out): per layer the attention's projections (q, k, v, o: 4; MLA's q_a, q_a_norm, q_b,
    kv_a, kv_a_norm, kv_b, o: 7) and 2 norms; a dense MLP 3 matrices; a MoE layer 3 per routed expert, its router and
    3 per shared expert; plus the embedding, the final norm and the output head (3).  Exported tensor by tensor as
    the engine loads them (Megatron's grouped experts are split per expert on export).

    >>> from app.model.assumptions import ARCHS
    >>> weight_tensors(ARCHS["qwen3_235b_a22b"])   # 94 · (4 + 2 + 3 · 128 + 1) + 3
    36757
    >>> weight_tensors(ARCHS["deepseek_v3"])       # 3 · (7 + 2 + 3) + 58 · (7 + 2 + 3 · 256 + 1 + 3) + 3
    45337
    >>> weight_tensors(ARCHS["llama3_8b"])         # 32 · (4 + 2 + 3) + 3
    291
    """
    per_layer = (7 if arch.attention == "mla" else 4) + 2
    dense_layers = arch.layers - arch.moe_layers
    moe_layer = per_layer + 3 * arch.experts + 1 + 3 * arch.shared_experts
    # a custom size's stand-in shape has a fractional layer count: its tensors, rounded
    return round(dense_layers * (per_layer + 3) + arch.moe_layers * moe_layer + 3)


def per_tensor_collective_s(gpu: GpuSpec, gpus: int) -> float:
    """One tensor's collective in ``per_tensor`` mode, s: ``collective_latency_s`` inside one NVLink domain, the fitted
    ``refit_collective_per_tensor_s`` once the group spans nodes (``verl_async``)."""
    return COLLECTIVE_LATENCY_S if gpus <= gpu.nvlink_domain_gpus else REFIT_COLLECTIVE_PER_TENSOR_S


def refit_seconds(arch: Arch, gpu: GpuSpec, *, mode: str, train_gpus: int, generation_gpus: int = 0,
                  dtype: str = "bf16", colocated: bool, per_tensor_s: float = REFIT_LOAD_PER_TENSOR_S) -> Refit:
    """The refit of ``arch`` from ``train_gpus`` trainer GPUs into the engine (colocated on the same GPUs; separate on
    ``generation_gpus`` more), s:

        gather    = 2 B · N_total · (T − 1) / T / collective bandwidth(T)          (all-gather of the shards, bf16)
        convert   = passes · 2 B · N_total / HBM bandwidth                         (each gathered byte read + written)
        broadcast = engine B/param · N_total / link(G + T)                          (separate only; fp8: 1 B/param)
        load      = tensors · (per-tensor cost + [per_tensor] a collective each)

    Check (Qwen3-235B-A22B, 64 + 64 H20s, per_tensor): gather 470 · 63 / 64 / 50 = 9.25 s, broadcast 470 / 50 = 9.4 s,
    convert 2 · 470 / 4,000 = 0.235 s, load 36,757 · (0.25 + 0.6) ms = 31.2 s: 50.1 s against verl's 58.57 s.

    >>> from app.model.assumptions import ARCHS, GPUS
    >>> r = refit_seconds(ARCHS["qwen3_235b_a22b"], GPUS["h20_96g"], mode="per_tensor", train_gpus=64,
    ...                   generation_gpus=64, colocated=False)
    >>> round(r.gather_s, 2), round(r.broadcast_s, 2), round(r.load_s, 1), round(r.total_s, 1)
    (9.25, 9.4, 31.2, 50.1)
    """
    weights_gb = INFER_BYTES_PER_PARAM * arch.total_b
    tensors = weight_tensors(arch)
    gather = all_gather_seconds(weights_gb, train_gpus, gpu)
    convert = REFIT_CONVERT_PASSES * weights_gb / (gpu.hbm_bandwidth_tb_per_s * TERA / GIGA)
    group = train_gpus if colocated else train_gpus + generation_gpus
    broadcast = 0.0 if colocated else ROLLOUT_BYTES_PER_PARAM[dtype] * arch.total_b * GIGA / collective_bandwidth(
        gpu, group)
    if mode == "per_tensor":
        load = tensors * (per_tensor_s + per_tensor_collective_s(gpu, group))
        total = gather + broadcast + convert + load
    else:
        load = tensors * per_tensor_s
        total = max(gather, broadcast) + convert + load
    return Refit(mode=mode, tensors=tensors, gather_s=gather, convert_s=convert, broadcast_s=broadcast, load_s=load,
                 total_s=total)
