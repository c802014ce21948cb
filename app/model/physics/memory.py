"""Memory rules per model: bytes per parameter (ZeRO, offload, LoRA), activations, logits, memory lanes, and the
fewest GPUs each role needs.

References [n]: the list in ``app/model/physics/__init__.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

from app.model.assumptions import (
    ACTIVATION_BYTES_PER_VALUE,
    GPUS_PER_NODE,
    INFER_BYTES_PER_PARAM,
    LOGITS_BYTES_PER_VALUE,
    LOGITS_CHUNK_TOKENS,
    LORA_TRAINABLE_FRACTION,
    MICRO_BATCH_TOKENS_PER_GPU,
    OFFLOAD_GPU_BYTES_PER_PARAM,
    TRAIN_BYTES_PER_PARAM,
    Arch,
)
from app.model.physics.architecture import GIGA

MAX_GPUS = 4096  # the top of the gpus range; min_gpus is None beyond it


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
    """(GPU, host) bytes per parameter of a model being trained with FSDP / ZeRO-3 (sharded over its GPUs).

    full: 16 B on the GPU [1]; with ``offload=optimizer`` 4 B (bf16 weights + gradients) on the GPU and 12 B
    (fp32 master, Adam m and v) in host memory [6]; with ``offload=params`` all 16 B in host memory (FSDP
    ``param_offload``: each layer's weights come up when it runs).  lora: the frozen bf16 base (2 B) plus adapters
    of 0.5 % of the parameters with their own 16 B/param [7] (their optimizer states offloaded too under
    ``optimizer``; everything under ``params``).

    >>> trained_bytes_per_param("none", "full"), trained_bytes_per_param("optimizer", "full")
    ((16.0, 0.0), (4.0, 12.0))
    >>> trained_bytes_per_param("params", "full")
    (0.0, 16.0)
    """
    if tuning == "lora":
        adapters = LORA_TRAINABLE_FRACTION
        if offload == "params":
            return 0.0, INFER_BYTES_PER_PARAM + TRAIN_BYTES_PER_PARAM * adapters
        if offload == "optimizer":
            return INFER_BYTES_PER_PARAM + OFFLOAD_GPU_BYTES_PER_PARAM * adapters, 12.0 * adapters
        return INFER_BYTES_PER_PARAM + TRAIN_BYTES_PER_PARAM * adapters, 0.0
    if offload == "params":
        return 0.0, TRAIN_BYTES_PER_PARAM
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
                 offload: str = "none", tuning: str = "full", reward_b: float | None = None) -> ModelMemory:
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
        # the reward model's weights: rm_b, or an LLM judge's ``reward_b`` (reward=judge)
        reward_gb=INFER_BYTES_PER_PARAM * (rm_b if reward_b is None else reward_b) if reward else 0.0,
        generation_weights_gb=INFER_BYTES_PER_PARAM * policy_b,
        host_gb=host_bytes * trained_b,
    )


def micro_batch_tokens(sequence_tokens: float, max_tokens: float = MICRO_BATCH_TOKENS_PER_GPU) -> float:
    """Tokens in one training micro-batch: ``max_tokens`` (``max_tokens_per_gpu``, verl's
    ``ppo_max_token_len_per_gpu``, 16,384 by default [8]), or one whole sequence if it is longer (a sequence is never
    split)."""
    return max(max_tokens, sequence_tokens)


def activation_gb(arch: Arch, tokens: float) -> float:
    """Checkpointed activations, GB: the saved layer inputs, layers · d · 2 B per token of the micro-batch.

    >>> from app.model.assumptions import ARCHS
    >>> round(activation_gb(ARCHS["llama3_8b"], 32_768), 2)   # 32 · 4,096 · 2 · 32,768
    8.59
    """
    return arch.layers * arch.hidden * ACTIVATION_BYTES_PER_VALUE * tokens / GIGA


def logits_gb(vocab: float, tokens: float) -> float:
    """Logits for the log-probs, GB: computed in chunks of ``logits_chunk_tokens`` (NeMo RL ``logprob_chunk_size``,
    verl's fused log-prob kernels), so at most chunk · vocab · 4 B (fp32) at once.

    >>> round(logits_gb(128_256, 32_768), 2)   # 4,096 · 128,256 · 4
    2.1
    """
    tokens = min(tokens, LOGITS_CHUNK_TOKENS)
    return vocab * LOGITS_BYTES_PER_VALUE * tokens / GIGA


def engine_min_gpus(need_gb: float, engine_memory_gb: float) -> int | None:
    """GPUs of the smallest engine replica that holds ``need_gb`` (the weights and one longest sequence's KV):
    a power of 2 within a node, whole nodes beyond; None beyond 4,096."""
    n = max(1, math.ceil(need_gb / engine_memory_gb - 1e-9))
    if n > MAX_GPUS:
        return None
    if n <= GPUS_PER_NODE:
        return 1 << (n - 1).bit_length()
    return GPUS_PER_NODE * math.ceil(n / GPUS_PER_NODE)


class Lane(NamedTuple):
    """One GPU group's memory, per GPU: its parts in GB (model part → GB), their total, and whether it is over
    the usable memory."""

    lane: str                 # all | train | score | gen | dpo | sft | rm
    gpus: int
    parts: tuple[tuple[str, float], ...]
    total_gb: float
    over: bool


def lane(name: str, gpus: int, parts: tuple[tuple[str, float], ...], limit_gb: float, keep: str = "") -> Lane:
    """A lane of ``parts`` (model part, GB per GPU), without the parts of 0 GB except ``keep``; over when their sum
    exceeds ``limit_gb``."""
    kept = tuple([(k, v) for k, v in parts if v > 0 or k == keep])
    total = sum([v for _, v in kept])
    return Lane(name, gpus, kept, total, total > limit_gb)


def whole_hosts(gpus: int | None, node_gpus: int) -> int | None:
    """A GPU count as a run is given it: up to one host as it is, beyond that in whole hosts of ``node_gpus`` (8 on
    an HGX baseboard, 4 on a GB200 compute tray) — what verl's ``trainer.nnodes × n_gpus_per_node``, OpenRLHF's
    Ray placement groups and ``accelerate --num_machines`` can express; None stays None (no count fits).

    >>> whole_hosts(3, 8), whole_hosts(27, 8), whole_hosts(11, 4), whole_hosts(None, 8)
    (3, 32, 12, None)
    """
    if gpus is None or gpus <= node_gpus:
        return gpus
    return min(MAX_GPUS, math.ceil(gpus / node_gpus) * node_gpus)


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
