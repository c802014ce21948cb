"""Scoring and training: compute-bound seconds at the forward and training utilisations.

Conventions: sizes ``*_b`` are billions of parameters, so ``bytes_per_param × params_b`` is GB (10^9 B).

References
[1] ZeRO, Rajbhandari et al. 2019, §3, §5 and Fig. 1.     [2] Kaplan et al. 2020, §2.1 and Table 1.
[3] vLLM blog 2023-06-20 (KV cache per token, 14–24× over HF generate).
[4] OpenRLHF benchmark (A800, 1,024 rollouts per step).    [5] DeepSeekMath (GRPO), arXiv 2402.03300.
[6] ZeRO-Offload, arXiv 2101.06840.                        [7] LoRA, arXiv 2106.09685.
[8] verl: performance tuning guide and config defaults.    [9] nccl-tests PERFORMANCE.md (bus bandwidth).
"""

from __future__ import annotations

from app.model.assumptions import (
    FORWARD_FLOPS_PER_PARAM_TOKEN,
    FORWARD_MFU,
    OFFLOAD_GPU_BYTES_PER_PARAM,
    TRAIN_FLOPS_PER_PARAM_TOKEN,
    TRAIN_MFU,
    GpuSpec,
)
from app.model.inputs import WorkloadInputs
from app.model.physics.architecture import GIGA, TERA
from app.model.physics.network import zero3_floor_seconds
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
