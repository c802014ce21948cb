"""One workload, prepared once per evaluation: the models, tokens, optimizer steps and memory every phase shares.

Conventions: sizes ``*_b`` are billions of parameters, so ``bytes_per_param × params_b`` is GB (10^9 B).

References
[1] ZeRO, Rajbhandari et al. 2019, §3, §5 and Fig. 1.     [2] Kaplan et al. 2020, §2.1 and Table 1.
[3] vLLM blog 2023-06-20 (KV cache per token, 14–24× over HF generate).
[4] OpenRLHF benchmark (A800, 1,024 rollouts per step).    [5] DeepSeekMath (GRPO), arXiv 2402.03300.
[6] ZeRO-Offload, arXiv 2101.06840.                        [7] LoRA, arXiv 2106.09685.
[8] verl: performance tuning guide and config defaults.    [9] nccl-tests PERFORMANCE.md (bus bandwidth).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from app.model.assumptions import INFER_BYTES_PER_PARAM, MINI_BATCH_SEQUENCES, USABLE_MEMORY_FRACTION, Arch, GpuSpec
from app.model.inputs import WorkloadInputs
from app.model.physics.architecture import (
    GIGA,
    custom_arch,
    forward_flops_per_token,
    kv_bytes_per_token,
    policy_arch,
    train_flops_per_token,
)
from app.model.physics.memory import (
    ModelMemory,
    activation_gb,
    logits_gb,
    micro_batch_tokens,
    model_memory,
    role_minimums,
)


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


def _group(i: WorkloadInputs) -> int:
    """Responses per prompt: ``group`` under GRPO, 1 otherwise (one response per prompt)."""
    return i.group if i.method == "grpo" else 1
