"""Interconnect: collective bandwidth inside and across nodes, all-gathers, tensor-parallel all-reduces, the
ZeRO-3 communication floor and the weight-sync link.

References [n]: the list in ``app/model/physics/__init__.py``.
"""

from __future__ import annotations

from app.model.assumptions import (
    COLLECTIVE_BUS_EFFICIENCY,
    COLLECTIVE_LATENCY_S,
    DISPATCH_COMBINE_BYTES,
    EXPERT_EXCHANGE_S,
    INFER_BYTES_PER_PARAM,
    Arch,
    GpuSpec,
)
from app.model.physics.architecture import GIGA


def collective_bandwidth(gpu: GpuSpec, n_gpus: int) -> float:
    """Bandwidth of a collective over ``n_gpus``, B/s: inside one NVLink domain (≤ 8 GPUs on an HGX node, ≤ 72 in
    a GB200 NVL72 rack: ``nvlink_domain_gpus``) NVLink, one direction (half the datasheet's bidirectional figure)
    × 0.77 bus efficiency [9] (≈ 230 GB/s on A100); once the group leaves the domain, the InfiniBand bandwidth per
    GPU."""
    if n_gpus <= gpu.nvlink_domain_gpus:
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


EXCHANGE_TOKENS_PER_RANK = 128  # the batch per rank DeepEP's low-latency figures were measured at (``deepep``)


def expert_exchange_seconds(arch: Arch, batch: float, tp: int, pipeline: int, gpu: GpuSpec) -> float:
    """The cross-node expert exchange of one decode step of a mixture-of-experts engine instance larger than its
    NVLink domain (tp · pp > 8 GPUs on HGX, > 72 on GB200 NVL72: ``nvlink_domain_gpus``), s: every MoE layer sends each token to the GPUs holding its experts and gathers the results
    back over RDMA — DeepEP's dispatch + combine (``expert_exchange_s``, 428 µs at EP 32 for ≤ 128 tokens per
    rank), or, as NeMo RL launches DeepSeek-V3 (vLLM TP 32 over 4 nodes), an all-reduce of each layer across nodes
    that costs at least as much.  A latency per layer, not a bandwidth: the weights' roofline knows nothing of it,
    and it holds every decode step of the tail (a batch of one pays it too).  Beyond 128 tokens per rank (the
    micro-batch b / pp over its tp ranks) it grows with the tokens (DeepEP's kernels then run at their RDMA
    bandwidth).  0 for dense models and for an instance inside one NVLink domain (the all-reduces of
    ``tp_all_reduce_seconds``): DeepSeek-V3 at TP 32 in a GB200 NVL72 rack exchanges over NVLink, as on one node.

    >>> from app.model.assumptions import ARCHS, GPUS
    >>> h100, gb200 = GPUS["h100_80g"], GPUS["gb200_186g"]
    >>> round(expert_exchange_seconds(ARCHS["deepseek_v3"], 64, 8, 4, h100) * 1e3, 1)   # 58 MoE layers · 428 µs
    24.8
    >>> expert_exchange_seconds(ARCHS["deepseek_v3"], 64, 8, 1, h100), expert_exchange_seconds(ARCHS["llama3_70b"], 64, 8, 4, h100)
    (0.0, 0.0)
    >>> expert_exchange_seconds(ARCHS["deepseek_v3"], 64, 32, 1, gb200)   # TP 32 inside the 72-GPU domain
    0.0
    """
    if not arch.moe or tp * pipeline <= gpu.nvlink_domain_gpus:
        return 0.0
    per_rank = batch / (pipeline * tp)
    return arch.moe_layers * EXPERT_EXCHANGE_S * max(1.0, per_rank / EXCHANGE_TOKENS_PER_RANK)


# DeepEP's low-latency dispatch + combine per MoE layer for <= 128 tokens per rank, by EP (``deepep``: docs/legacy.md,
# H800 + CX7 400 Gb/s, pure RDMA): 77 + 114 us at EP 8, 118 + 195 at 16, 155 + 273 at 32, 173 + 314 at 64, 192 + 369
# at 128, 194 + 360 at 256
DEEPEP_LOW_LATENCY_S = ((8, 191e-6), (16, 313e-6), (32, 428e-6), (64, 487e-6), (128, 561e-6), (256, 554e-6))


def dispatch_combine_seconds(arch: Arch, tokens_per_rank: float, ep: int, gpu: GpuSpec) -> float:
    """The all-to-all of one decode step of a wide-EP instance (attention data-parallel, the routed experts spread
    over its ``ep`` GPUs), s: every MoE layer sends each rank's tokens to the GPUs holding their k experts and gathers
    the results back (DeepEP's dispatch + combine), per layer

        inside the NVLink domain:  2 · collective latency + bytes / NVLink collective bandwidth
        across it:                 DeepEP's low-latency figure at that EP · max(1, tokens per rank / 128),
                                   never less than the same bytes over InfiniBand, nor than inside the domain
        bytes = tokens per rank · k · hidden · (1 + 2) B · (ep − 1) / ep
    (DeepEP dispatches in fp8 and combines in bf16: its EP-32 dispatch moves 128 · 8 · 7,168 B in 155 µs, 47 GB/s,
    the NIC's 400 Gb/s).

    A latency per layer on every decode step: the tail's batch of one pays it too.  0 for a dense model.
    DeepSeek-V3 at 128 tokens per rank on H100s: EP 8 in a node 58 · (20 µs + 19.3 MB / 346.5 GB/s) = 4.39 ms;
    EP 32 over 4 nodes 58 · max(428 µs, 20 µs + 21.3 MB / 50 GB/s) = 58 · 447 µs = 25.9 ms.

    >>> from app.model.assumptions import ARCHS, GPUS
    >>> dsv3, h100 = ARCHS["deepseek_v3"], GPUS["h100_80g"]
    >>> round(dispatch_combine_seconds(dsv3, 128, 8, h100) * 1e3, 2), round(dispatch_combine_seconds(dsv3, 128, 32, h100) * 1e3, 2)
    (4.39, 25.91)
    """
    if not arch.moe or ep <= 1:
        return 0.0
    payload = tokens_per_rank * arch.experts_per_token * arch.hidden * DISPATCH_COMBINE_BYTES * (ep - 1) / ep
    inside = 2.0 * COLLECTIVE_LATENCY_S + payload / collective_bandwidth(gpu, min(ep, gpu.nvlink_domain_gpus))
    if ep <= gpu.nvlink_domain_gpus:
        per_layer = inside
    else:
        measured = next((t for e, t in reversed(DEEPEP_LOW_LATENCY_S) if e <= ep), DEEPEP_LOW_LATENCY_S[0][1])
        per_layer = max(measured * max(1.0, tokens_per_rank / EXCHANGE_TOKENS_PER_RANK),
                        2.0 * COLLECTIVE_LATENCY_S + payload / (gpu.ib_gb_per_s * GIGA), inside)
    return arch.moe_layers * per_layer


def zero3_floor_seconds(params_b: float, optimizer_steps: int, n_gpus: int, gpu: GpuSpec,
                        lora: bool = False) -> float:
    """ZeRO-3's communication floor for training one model [1, §5]: every optimizer step each GPU moves at least
    3 · 2Ψ bytes (all-gather forward and backward, reduce-scatter of gradients); LoRA 2 · 2Ψ (no gradients of the
    frozen base).  Over NVLink inside a node, InfiniBand once the group spans nodes, s."""
    if n_gpus <= 1:
        return 0.0
    moved_gb = (2.0 if lora else 3.0) * INFER_BYTES_PER_PARAM * params_b
    return optimizer_steps * moved_gb * GIGA / collective_bandwidth(gpu, n_gpus)


def _sync_link(gpu: GpuSpec, generation_gpus: int, training_gpus: int) -> float:
    """The link a weight broadcast from the trainer to the engines uses: NVLink when both fit in one NVLink
    domain, InfiniBand otherwise, B/s."""
    return collective_bandwidth(gpu, generation_gpus + training_gpus)
