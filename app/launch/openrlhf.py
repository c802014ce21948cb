"""OpenRLHF 0.11.2: ``ray job submit … openrlhf.cli.train_ppo_ray`` for PPO and GRPO, ``deepspeed --module
openrlhf.cli.train_dpo`` for DPO.  Prompts are JSONL with an ``input`` key (and a ``label`` key a verifier reads);
checkpoints every ``eval_every`` steps; TensorBoard logs (no account)."""

from __future__ import annotations

from app.launch.common import (
    LORA_ALPHA,
    LORA_RANK,
    MAX_ROLLOUT_MICRO_BATCH,
    PLACEHOLDER_CHECKPOINTS,
    PLACEHOLDER_HOSTFILE,
    PLACEHOLDER_PREFIX,
    PLACEHOLDER_REWARD_MODEL,
    TARGET_BATCH_SEQUENCES,
    Builder,
    Command,
    Note,
    batch_note,
    closest,
    divisors,
    dpo_batch,
    fit_prompts,
    note,
    plan_batch,
    whole_nodes,
)
from app.launch.facts import Rl, common_notes, model_path, rounded_key
from app.launch.layout import LaunchLayout
from app.launch.releases import OPENRLHF
from app.launch.sources import LAUNCHERS, OPENRLHF_FLAGS

PROMPTS = PLACEHOLDER_PREFIX + "prompts.jsonl"
PAIRS = PLACEHOLDER_PREFIX + "preference-pairs.jsonl"
REWARD_FN = PLACEHOLDER_PREFIX + "openrlhf_reward.py"
TENSORBOARD = PLACEHOLDER_PREFIX + "tensorboard"


def train_batch(samples: int, actor_gpus: int) -> int | None:
    """``--train.batch_size`` in samples: it divides the samples per step, is a multiple of the actor's GPUs (one
    micro-batch of 1 each), and comes nearest TARGET_BATCH_SEQUENCES.

    >>> train_batch(512, 8), train_batch(512, 6), train_batch(100, 8)
    (128, None, None)
    """
    fits = [b for b in divisors(samples) if b % actor_gpus == 0]
    return closest(fits, TARGET_BATCH_SEQUENCES)


def roles(layout: LaunchLayout, rl: Rl) -> tuple[dict[str, int], Note | None]:
    """GPUs per OpenRLHF role.  Colocated: every role on all GPUs.  Separate: the training group holds the actor
    (and the critic, half each), the scoring group the reference and the reward model (half each); the vLLM
    engines are the generation group.  With no scoring GPUs (the model's trainer scores) the reference shares the
    actor's GPUs and the reward model the critic's (``--train.colocate_actor_ref`` / ``colocate_critic_reward``,
    which need equal counts); a reward model with no critic to share with has nowhere to go."""
    out: dict[str, int] = {}
    if layout.placement == "colocated":
        out["actor"] = layout.gpus
        for role, present in (("ref", rl.ref), ("critic", rl.critic), ("reward", rl.reward_model)):
            if present:
                out[role] = layout.gpus
        return out, None
    train, score = layout.training_gpus, layout.scoring_gpus
    if rl.critic:
        if train < 2:
            return {}, note("launch.reason.training_split", gpus=train)
        out["actor"], out["critic"] = (train + 1) // 2, train // 2
    else:
        out["actor"] = train
    scorers = [role for role, present in (("ref", rl.ref), ("reward", rl.reward_model)) if present]
    if score == 0 and scorers and (rl.critic or not rl.reward_model):
        if rl.ref:
            out["ref"] = out["actor"]
        if rl.reward_model:
            out["reward"] = out["critic"]
        return out, None
    if len(scorers) > score:
        return {}, note("launch.reason.scoring_split", gpus=score, needed=len(scorers))
    if len(scorers) == 2:
        out["ref"], out["reward"] = (score + 1) // 2, score // 2
    elif scorers:
        out[scorers[0]] = score
    return out, None


def _storage(b: Builder, layout: LaunchLayout) -> None:
    """Checkpoints every ``eval_every`` steps under one folder, the final model beside them, TensorBoard logs."""
    path = PLACEHOLDER_CHECKPOINTS + "/openrlhf"
    b.add("--ckpt.save_steps", layout.eval_every)
    b.add("--ckpt.path", path)
    b.add("--ckpt.output_dir", path + "/final")
    b.add("--logger.tensorboard_dir", TENSORBOARD)
    b.note("launch.note.checkpoints", steps=layout.eval_every, path=path)
    b.note("launch.note.logger_tensorboard")


def command(layout: LaunchLayout, rl: Rl) -> tuple[Command | None, Note | None]:  # noqa: C901, PLR0912, PLR0915
    if layout.engine == "hf":
        return None, note("launch.reason.openrlhf_no_hf_rollout")
    if layout.tuning == "lora":
        return None, note("launch.reason.openrlhf_no_lora_rl")
    if layout.train_backend == "megatron":
        return None, note("launch.reason.openrlhf_no_megatron", tp=layout.train_tp, pp=layout.train_pp,
                          ep=layout.train_ep)
    if layout.rollout_pp > 1:
        return None, note("launch.reason.openrlhf_no_engine_pp", tp=layout.rollout_tp, pp=layout.rollout_pp)
    placed_gpus, why = roles(layout, rl)
    if why is not None:
        return None, why
    placed: dict[str, tuple[int, int]] = {}
    for role, gpus in placed_gpus.items():
        nodes = whole_nodes(gpus, layout.gpus_per_node)
        if nodes is None:
            return None, note("launch.reason.not_whole_nodes", role=role, gpus=gpus, per_node=layout.gpus_per_node)
        placed[role] = nodes
    actor_gpus = placed_gpus["actor"]
    per_epoch = layout.optimizer_steps // max(layout.epochs, 1)  # 0: no plan gave one (a bare layout)
    planned = plan_batch(rl.prompts_per_step, rl.group, actor_gpus, per_epoch) if per_epoch else None
    if planned is not None:
        prompts, batch = planned[0], planned[1] * rl.group
    else:
        prompts = fit_prompts(rl.prompts_per_step, rl.group, actor_gpus)
        batch = None if prompts is None else train_batch(prompts * rl.group, actor_gpus)
    if prompts is None or batch is None:
        return None, note("launch.reason.batch_not_divisible", samples=rl.samples, gpus=actor_gpus)
    samples = prompts * rl.group

    b = Builder("openrlhf", OPENRLHF_FLAGS)
    if planned is None and per_epoch:
        b.unmapped("optimizer_steps", steps=per_epoch, prompts=prompts, gpus=actor_gpus, used=samples // batch)
    colocated = layout.placement == "colocated"
    b.add("--actor.model_name_or_path", rl.model_path)
    for role in ("actor", "ref", "critic", "reward"):
        if role in placed:
            b.add(f"--{role}.num_nodes", placed[role][0])
            b.add(f"--{role}.num_gpus_per_node", placed[role][1])
    if rl.reward_model:
        b.add("--reward.model_name_or_path", PLACEHOLDER_REWARD_MODEL)
    else:
        b.add("--reward.remote_url", REWARD_FN)
        b.note("launch.note.openrlhf_verifier", path=REWARD_FN)
    b.add("--vllm.num_engines", layout.rollout_replicas)
    b.add("--vllm.tensor_parallel_size", layout.rollout_tp)
    b.add("--vllm.gpu_memory_utilization", layout.gpu_memory_utilization)
    if colocated:
        b.add("--train.colocate_all")
        b.add("--vllm.enable_sleep")
        b.add("--ds.enable_sleep")
        b.note("launch.note.openrlhf_hybrid")
    elif layout.scoring_gpus == 0 and (rl.ref or rl.reward_model):
        if rl.ref:
            b.add("--train.colocate_actor_ref")
        if rl.reward_model and rl.critic:  # roles() refuses a reward model with no critic to share with
            b.add("--train.colocate_critic_reward")
        b.note("launch.note.openrlhf_trainer_scores")
    if not colocated and layout.staleness > 0:
        b.add("--train.async_enable")
        b.add("--train.async_queue_size", layout.staleness)
        b.note("launch.note.openrlhf_async", staleness=layout.staleness)
    b.add("--algo.advantage.estimator", "group_norm" if rl.grpo else "gae")
    b.add("--rollout.n_samples_per_prompt", rl.group)
    b.add("--rollout.batch_size", prompts)
    b.add("--rollout.micro_batch_size", max(1, min(MAX_ROLLOUT_MICRO_BATCH, samples // actor_gpus)))
    b.add("--rollout.max_new_tokens", layout.response_max_tokens)
    b.add("--data.max_len", rl.max_len)
    b.add("--train.batch_size", batch)
    b.add("--train.micro_batch_size", 1)
    # the plan's token-budget micro-batches: dynamic batching over packed samples (both off by default)
    b.add("--train.dynamic_batch_enable")
    b.add("--train.max_tokens_per_gpu", max(layout.micro_batch_tokens, rl.max_len))
    b.add("--ds.packing_samples")
    if layout.train_cp > 1:
        b.add("--ds.ring_attn_size", layout.train_cp)  # context parallelism: ring attention over packed samples
    b.add("--train.max_epochs", layout.epochs)
    b.add("--train.num_episodes", layout.passes)
    if layout.oversample > 1:
        if rl.group > 1:  # DAPO's dynamic sampling: groups all right or all wrong are dropped
            b.add("--algo.dynamic_filtering_enable")
        b.unmapped("oversample", oversample=layout.oversample, group=rl.group)
    if layout.partial_rollouts and not colocated and layout.staleness > 0:
        b.add("--train.partial_rollout_enable")
    if layout.rollout_dtype == "fp8":
        b.unmapped("rollout_dtype")
    b.unmapped("max_num_seqs", seqs=layout.max_num_seqs)
    if layout.engine_release not in ("vllm_v1", "hf"):
        b.unmapped("engine_release", release=layout.engine_release)
    if layout.engine_api == "http":
        b.unmapped("engine_api")
    b.unmapped("logits")
    b.add("--algo.kl.init_coef", layout.kl)
    if rl.grpo and rl.ref:
        b.add("--algo.kl.use_loss")
        b.add("--algo.kl.estimator", "k3")
    b.add("--data.prompt_dataset", PROMPTS)
    b.add("--data.input_key", "input")
    if not rl.reward_model:
        b.add("--data.label_key", "label")
    b.add("--data.apply_chat_template")
    if layout.prompts > 0:
        b.add("--data.max_samples", layout.prompts)
    b.add("--ds.zero_stage", 3)
    b.add("--ds.param_dtype", "bf16")
    if layout.offload == "optimizer":
        b.add("--ds.adam_offload")
    b.add("--actor.gradient_checkpointing_enable")
    _storage(b, layout)
    if rl.critic:
        b.note("launch.note.critic_from_reward_model" if rl.reward_model else "launch.note.critic_from_policy")
    if layout.placement == "separate" and layout.scoring_gpus > 0 and not (rl.ref or rl.reward_model):
        b.note("launch.note.scoring_gpus_idle", gpus=layout.scoring_gpus)
    if planned is not None:
        b.note("launch.note.plan_batch", sequences=batch, steps=samples // batch)
    else:
        b.note(batch_note("launch.note.train_batch", batch), samples=batch, target=TARGET_BATCH_SEQUENCES)
    if samples != layout.rollouts:
        b.note(rounded_key(rl), rollouts=layout.rollouts, used=samples)
    b.note("launch.note.openrlhf_data", path=PROMPTS)
    common_notes(b, layout, rl)
    files = ("openrlhf_reward.py",) if not rl.reward_model else ()
    return b.command(OPENRLHF.label, LAUNCHERS["openrlhf.train_ppo_ray"][0], files,
                     header=(OPENRLHF.pin,)), None


def dpo_command(layout: LaunchLayout) -> Command:
    per_step = dpo_batch(layout.dpo_batch_pairs, layout.gpus)  # the plan's pairs per step, whole per GPU
    launcher: tuple[str, ...] = LAUNCHERS["openrlhf.train_dpo"][0]
    if layout.nodes > 1:
        launcher += ("--hostfile", PLACEHOLDER_HOSTFILE, "--num_nodes", str(layout.nodes))
    launcher += ("--num_gpus", str(layout.gpus_per_node), "--module", "openrlhf.cli.train_dpo")
    b = Builder("openrlhf", OPENRLHF_FLAGS)
    if layout.dpo_batch_pairs and per_step != layout.dpo_batch_pairs:
        b.unmapped("dpo_batch", pairs=layout.dpo_batch_pairs, gpus=layout.gpus, used=per_step)
    b.add("--model.model_name_or_path", model_path(layout))
    b.add("--data.dataset", PAIRS)
    b.add("--data.chosen_key", "chosen")
    b.add("--data.rejected_key", "rejected")
    b.add("--data.apply_chat_template")
    b.add("--data.max_len", layout.prompt_max_tokens + layout.response_max_tokens)
    if layout.pairs > 0:
        b.add("--data.max_samples", layout.pairs)
    b.add("--train.batch_size", per_step)
    b.add("--train.micro_batch_size", 1)
    b.add("--train.max_epochs", layout.epochs)
    b.add("--model.beta", layout.kl)
    b.add("--ds.zero_stage", 3)
    b.add("--ds.param_dtype", "bf16")
    if layout.offload == "optimizer":
        b.add("--ds.adam_offload")
    if layout.tuning == "lora":
        b.add("--ds.lora.rank", LORA_RANK)
        b.add("--ds.lora.alpha", LORA_ALPHA)
    b.add("--model.gradient_checkpointing_enable")
    _storage(b, layout)
    b.note("launch.note.dpo_offline")
    if layout.dpo_batch_pairs:
        b.note("launch.note.plan_dpo_batch", pairs=per_step)
    else:
        b.note(batch_note("launch.note.train_batch", per_step), samples=per_step, target=TARGET_BATCH_SEQUENCES)
    b.note("launch.note.openrlhf_dpo_data", path=PAIRS)
    if layout.nodes > 1:
        b.note("launch.note.deepspeed_hostfile", nodes=layout.nodes, path=PLACEHOLDER_HOSTFILE)
    common_notes(b, layout, None)
    return b.command(OPENRLHF.label, launcher, header=(OPENRLHF.pin,))
