"""One workload, prepared once per evaluation: the models, tokens, optimizer steps and memory every phase shares.

References [n]: the list in ``app/model/physics/__init__.py``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from app.model.assumptions import (
    FORWARD_MFU,
    GRPO_OPTIMIZER_STEPS,
    PPO_OPTIMIZER_STEPS,
    TRAIN_MFU,
    USABLE_MEMORY_FRACTION,
    Arch,
    GpuSpec,
)
from app.model.inputs import WorkloadInputs
from app.model.physics.architecture import (
    GIGA,
    custom_arch,
    forward_flops_per_token,
    kv_sequence_bytes,
    policy_arch,
    train_flops_per_token,
)
from app.model.physics.memory import (
    ModelMemory,
    logits_gb,
    model_memory,
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
    reward_model: bool        # a model scores on the scoring GPUs: reward = model, or judge
    lora: bool
    mem: ModelMemory
    tokens: float             # rollouts · (prompt + mean response)
    seq_tokens: float         # prompt + mean response
    longest_seq_tokens: float  # prompt + longest response
    optimizer_steps: int      # epochs · optimizer steps per epoch (``optimizer_steps_per_epoch``)
    mini_batch: int           # sequences per optimizer step: data parallelism cannot exceed it
    sequences: int            # rollouts a step scores: a scoring forward's data parallelism cannot exceed them
    usable_gb: float
    score_extra_gb: float     # logits on a scoring GPU (one chunk)
    kv_seq_gb: float          # one longest sequence's KV cache (what an engine must hold at least)
    kv_bytes_per_token: float  # one longest sequence's KV over its tokens (the growing rate for full attention)
    scoring_train_flops: float  # forwards on the training GPUs per step (``scoring_flops``)
    scoring_score_flops: float  # forwards on the scoring GPUs per step
    train_flops: float          # Σ over trained models of train FLOPs per token · tokens · epochs
    trained_b: float            # Σ over trained models of their total parameters (ZeRO-3 and offload traffic)
    offload: str = "none"
    tuning: str = "full"
    max_tokens_per_gpu: int = 16_384
    context_parallel: int = 1
    rm_b: float = 0.0
    train_mfu: float = TRAIN_MFU      # training's share of the peak: the lab's, or the ``train_mfu`` fitted to a run
    scoring_mfu: float = FORWARD_MFU  # the scoring forwards': the lab's forward_mfu, or ``scoring_mfu`` fitted
    judge_b: float = 0.0              # reward=judge: the LLM judge's size (0: no judge); its pass is ``judge_seconds``
    judge_tokens: int = 0             # the tokens it writes per rollout


def optimizer_steps_per_epoch(i: WorkloadInputs) -> int:
    """Optimizer steps one epoch over a step's rollouts takes: the ``optimizer_steps`` input, or (0) the method's
    recipe default: GRPO 1 (NeMo RL: train_global_batch_size = prompts × generations), PPO 4 (verl's examples:
    train_batch_size / ppo_mini_batch_size); never more than there are rollouts.

    >>> from app.model.inputs import WorkloadInputs
    >>> [optimizer_steps_per_epoch(WorkloadInputs(method=m)) for m in ("grpo", "ppo")]
    [1, 4]
    """
    k = i.optimizer_steps or (GRPO_OPTIMIZER_STEPS if i.method == "grpo" else PPO_OPTIMIZER_STEPS)
    return max(1, min(k, i.rollouts))


def workload(inputs: WorkloadInputs, gpu: GpuSpec) -> Workload:
    i = inputs
    arch = policy_arch(i)
    critic_arch = custom_arch(i.rm_b)
    online = i.method != "dpo"
    critic = i.method == "ppo"
    reference_forward = i.kl > 0
    lora = i.tuning == "lora"
    judge = i.reward == "judge" and online
    reward_model = i.reward == "model" or judge
    mem = model_memory(arch.total_b, i.rm_b, critic=critic, reference=reference_forward, reward=reward_model,
                       offload=i.offload, tuning=i.tuning, reward_b=i.judge_b if judge else None)
    # an agentic episode (``turns`` > 1) is one sequence: the prompt, every turn's response and the observations
    # between them (``episode_tokens``); one turn is prompt + response, as before
    seq = episode_tokens(i, i.response_tokens)
    longest_seq = episode_tokens(i, i.response_max_tokens)
    kv_seq = kv_sequence_bytes(arch, longest_seq)  # windows and linear layers' state stop growing
    usable = gpu.memory_gb * USABLE_MEMORY_FRACTION
    tokens = float(i.rollouts * seq)
    ctx = seq / 2.0
    policy_fwd = forward_flops_per_token(arch, ctx) * tokens
    critic_fwd = forward_flops_per_token(critic_arch, ctx) * tokens
    has_critic = critic and online
    scoring_train = policy_fwd + (critic_fwd if has_critic else 0.0) + (policy_fwd if reference_forward and lora else 0.0)
    # a learned reward model's forward; a judge's prefill and decode are its own pass (``judge_seconds``)
    scoring_score = (policy_fwd if reference_forward and not lora else 0.0) + (
        critic_fwd if reward_model and not judge else 0.0)
    train_per_token = train_flops_per_token(arch, ctx, lora) + (
        train_flops_per_token(critic_arch, ctx, lora) if has_critic else 0.0)
    per_epoch = optimizer_steps_per_epoch(i)
    return Workload(
        arch=arch, critic_arch=critic_arch, gpu=gpu, method=i.method, engine=i.engine, critic=has_critic,
        reference=reference_forward and not lora, reference_forward=reference_forward, reward_model=reward_model,
        lora=lora, mem=mem, tokens=tokens,
        seq_tokens=float(seq), longest_seq_tokens=float(longest_seq),
        optimizer_steps=i.epochs * per_epoch, mini_batch=max(1, math.ceil(i.rollouts / per_epoch)),
        sequences=max(1, i.rollouts),
        usable_gb=usable,
        score_extra_gb=logits_gb(arch.vocab, max(i.max_tokens_per_gpu, longest_seq)) if reference_forward else 0.0,
        kv_seq_gb=kv_seq / GIGA, kv_bytes_per_token=kv_seq / max(longest_seq, 1.0),
        scoring_train_flops=scoring_train, scoring_score_flops=scoring_score,
        train_flops=train_per_token * tokens * i.epochs, trained_b=arch.total_b + (i.rm_b if has_critic else 0.0),
        offload=i.offload, tuning=i.tuning, max_tokens_per_gpu=i.max_tokens_per_gpu,
        context_parallel=i.context_parallel, rm_b=i.rm_b,
        train_mfu=TRAIN_MFU if i.train_mfu is None else i.train_mfu,
        scoring_mfu=FORWARD_MFU if i.scoring_mfu is None else i.scoring_mfu,
        judge_b=i.judge_b if judge else 0.0, judge_tokens=i.judge_tokens if judge else 0,
    )
def episode_tokens(i: WorkloadInputs, response_tokens: float) -> float:
    """Tokens of one episode: prompt + turns · response + (turns − 1) · observation (agentic rollouts: the
    environment's answer between two turns is appended to the context).  One turn: prompt + response.

    >>> from app.model.inputs import WorkloadInputs
    >>> episode_tokens(WorkloadInputs(prompt_tokens=512, turns=4, observation_tokens=300), 1024)
    5508
    """
    return i.prompt_tokens + i.turns * response_tokens + (i.turns - 1) * i.observation_tokens


def _group(i: WorkloadInputs) -> int:
    """Responses per prompt: ``group`` under GRPO, 1 otherwise (one response per prompt)."""
    return i.group if i.method == "grpo" else 1
