"""verl 0.9.1: ``python3 -m verl.trainer.main_ppo`` with Hydra overrides over its config tree (``ppo_trainer``, or
``ppo_megatron_trainer`` when the model trains with Megatron's tensor, pipeline, expert or context parallelism).

Rewards use the ``reward.*`` keys main_ppo reads (the top-level ``reward_model.*`` and ``custom_reward_function.*``
keys of ``legacy_reward_impl.yaml`` compose but nothing maps them any more); checkpoints every ``eval_every`` steps;
the console and TensorBoard loggers (no account).
"""

from __future__ import annotations

from app.launch.common import (
    LORA_ALPHA,
    LORA_RANK,
    PLACEHOLDER_CHECKPOINTS,
    PLACEHOLDER_PREFIX,
    PLACEHOLDER_REWARD_MODEL,
    REF_OFFLOAD_ABOVE_B,
    RM_ENGINE_GB,
    TARGET_BATCH_SEQUENCES,
    Builder,
    Command,
    Note,
    batch_note,
    note,
    step_batch,
    whole_nodes,
)
from app.launch.facts import Rl, common_notes, rounded_key
from app.launch.layout import LaunchLayout
from app.launch.releases import VERL
from app.launch.sources import LAUNCHERS, VERL_FLAGS

TRAIN_FILES = PLACEHOLDER_PREFIX + "train.parquet"
VAL_FILES = PLACEHOLDER_PREFIX + "val.parquet"
REWARD_FN = PLACEHOLDER_PREFIX + "verl_reward.py"
CONFIG_FSDP, CONFIG_MEGATRON = "ppo_trainer", "ppo_megatron_trainer"
LOGGER = "[console,tensorboard]"


def _rm_tp(rm_b: float, per_node: int) -> int:
    """The reward model's vLLM engine TP: the smallest power of 2 that holds its bf16 weights in RM_ENGINE_GB per
    GPU, at most the pool's GPUs per node.

    >>> _rm_tp(7, 8), _rm_tp(70, 8), _rm_tp(70, 2)
    (1, 4, 2)
    """
    tp = 1
    while tp < per_node and 2 * rm_b / tp > RM_ENGINE_GB:
        tp *= 2
    return tp


def command(layout: LaunchLayout, rl: Rl) -> tuple[Command | None, Note | None]:  # noqa: C901, PLR0912, PLR0915
    if layout.engine == "hf":
        return None, note("launch.reason.verl_no_hf_rollout")
    separate = layout.placement == "separate"
    if separate and layout.staleness == 0:
        return None, note("launch.reason.verl_separate_sync")
    megatron = layout.train_backend == "megatron"
    rm_pool = None
    if separate:
        # V1 separate_async: a standalone rollout pool (the generation GPUs) and the trainer pool; a reward model
        # must have its own pool there (the scoring GPUs), and the reference runs with the actor
        if rl.reward_model:
            trainer_gpus = layout.training_gpus
            rm_pool = whole_nodes(layout.scoring_gpus, layout.gpus_per_node) if layout.scoring_gpus else None
            if rm_pool is None:
                return None, note("launch.reason.not_whole_nodes", role="reward", gpus=layout.scoring_gpus,
                                  per_node=layout.gpus_per_node)
        else:
            trainer_gpus = layout.scoring_gpus + layout.training_gpus
        trainer_nodes = whole_nodes(trainer_gpus, layout.gpus_per_node)
        rollout_nodes = whole_nodes(layout.generation_gpus, layout.gpus_per_node)
        if trainer_nodes is None:
            return None, note("launch.reason.not_whole_nodes", role="trainer", gpus=trainer_gpus,
                              per_node=layout.gpus_per_node)
        if rollout_nodes is None:
            return None, note("launch.reason.not_whole_nodes", role="rollout", gpus=layout.generation_gpus,
                              per_node=layout.gpus_per_node)
    else:
        trainer_gpus, trainer_nodes, rollout_nodes = layout.gpus, (layout.nodes, layout.gpus_per_node), None
    model_parallel = layout.train_tp * layout.train_pp * layout.train_cp
    if megatron and trainer_gpus % model_parallel:
        return None, note("launch.reason.megatron_split", gpus=trainer_gpus, tp=layout.train_tp, pp=layout.train_pp,
                          cp=layout.train_cp)
    world = trainer_gpus // model_parallel if megatron else trainer_gpus  # data-parallel ranks share the batch
    per_epoch = layout.optimizer_steps // max(layout.epochs, 1)  # 0: no plan gave one (a bare layout)
    prompts, mini, planned = step_batch(rl.prompts_per_step, rl.group, world, layout.optimizer_steps, layout.epochs)
    if prompts is None or mini is None:
        return None, note("launch.reason.batch_not_divisible", samples=rl.samples, gpus=world)

    b = Builder("verl", VERL_FLAGS, style="hydra")
    if not planned and per_epoch:
        b.unmapped("optimizer_steps", steps=per_epoch, prompts=prompts, gpus=world, used=prompts // mini)
    # the plan's micro-batch token budget (ppo_max_token_len_per_gpu), never below one longest sequence
    budget = max(layout.micro_batch_tokens, rl.max_len)
    offload = layout.offload == "optimizer"
    b.add("algorithm.adv_estimator", "grpo" if rl.grpo else "gae")
    b.add("data.train_files", TRAIN_FILES)
    b.add("data.val_files", VAL_FILES)
    b.add("data.prompt_key", "prompt")
    b.add("data.train_batch_size", prompts)
    b.add("data.max_prompt_length", layout.prompt_max_tokens)
    b.add("data.max_response_length", layout.response_max_tokens)
    if layout.prompts > 0:
        b.add("data.train_max_samples", layout.prompts)
    if separate:
        b.add("actor_rollout_ref.hybrid_engine", False)  # no rollout replicas on the trainer pool
    b.add("actor_rollout_ref.model.path", rl.model_path)
    b.add("actor_rollout_ref.model.enable_gradient_checkpointing", True)
    # the estimate never holds the whole fp32 logits of a micro-batch: the fused log-prob kernel (hf_model.yaml
    # use_fused_kernels, False by default) computes them without materialising the logits
    b.add("actor_rollout_ref.model.use_fused_kernels", True)
    if layout.tuning == "lora":
        b.add("actor_rollout_ref.model.lora_rank", LORA_RANK)
        b.add("actor_rollout_ref.model.lora_alpha", LORA_ALPHA)
        b.add("actor_rollout_ref.model.target_modules", "all-linear")
    b.add("actor_rollout_ref.actor.ppo_mini_batch_size", mini)
    b.add("actor_rollout_ref.actor.ppo_epochs", layout.epochs)
    b.add("actor_rollout_ref.actor.use_dynamic_bsz", True)
    b.add("actor_rollout_ref.actor.ppo_max_token_len_per_gpu", budget)
    kl_loss = rl.grpo and rl.ref
    b.add("actor_rollout_ref.actor.use_kl_loss", kl_loss)
    if kl_loss:
        b.add("actor_rollout_ref.actor.kl_loss_coef", layout.kl)
        b.add("actor_rollout_ref.actor.kl_loss_type", "low_var_kl")
    ref_offload = rl.ref and layout.policy_b > REF_OFFLOAD_ABOVE_B
    if megatron:
        m = "actor_rollout_ref.actor.megatron."
        b.add(m + "tensor_model_parallel_size", layout.train_tp)
        b.add(m + "pipeline_model_parallel_size", layout.train_pp)
        b.add(m + "expert_model_parallel_size", layout.train_ep)
        b.add(m + "context_parallel_size", layout.train_cp)
        b.add(m + "optimizer_offload", offload)
        if ref_offload:
            b.add("actor_rollout_ref.ref.megatron.param_offload", True)
        b.note("launch.note.verl_megatron", tp=layout.train_tp, pp=layout.train_pp, ep=layout.train_ep,
               cp=layout.train_cp, dp=world)
    else:
        b.add("actor_rollout_ref.actor.fsdp_config.optimizer_offload", offload)
        if layout.train_cp > 1:  # FSDP's context parallelism is Ulysses sequence parallelism (engine/fsdp.yaml)
            b.add("actor_rollout_ref.actor.ulysses_sequence_parallel_size", layout.train_cp)
        if ref_offload:
            b.add("actor_rollout_ref.ref.fsdp_config.param_offload", True)
    if ref_offload:
        b.note("launch.note.verl_ref_offload", size=layout.policy_b)
    # verl starts vLLM (V1, as timed by default) or SGLang; the other releases the plan may time have no key
    b.add("actor_rollout_ref.rollout.name", "sglang" if layout.engine_release == "sglang" else "vllm")
    if layout.engine_release not in ("vllm_v1", "sglang", "hf"):
        b.unmapped("engine_release", release=layout.engine_release)
    if layout.engine_api == "http":
        b.unmapped("engine_api")
    b.add("actor_rollout_ref.rollout.n", rl.group)
    b.add("actor_rollout_ref.rollout.tensor_model_parallel_size", layout.rollout_tp)
    if layout.rollout_pp > 1:
        b.add("actor_rollout_ref.rollout.pipeline_model_parallel_size", layout.rollout_pp)
        b.note("launch.note.verl_engine_pipeline", tp=layout.rollout_tp, pp=layout.rollout_pp)
    if layout.rollout_dp > 1:  # wide EP: attention data-parallel over the engine's ranks (vLLM DP + EP, DP attention)
        b.add("actor_rollout_ref.rollout.data_parallel_size", layout.rollout_dp)
        b.note("launch.note.verl_dp_attention", dp=layout.rollout_dp, ep=layout.rollout_tp * layout.rollout_dp)
    if layout.rollout_ep > 1:
        # vLLM's expert parallelism spreads the experts over the engine's TP × DP ranks; verl asserts
        # expert_parallel_size == tensor_model_parallel_size × data_parallel_size (workers/config/rollout.py)
        b.add("actor_rollout_ref.rollout.expert_parallel_size", layout.rollout_tp * layout.rollout_dp)
    b.add("actor_rollout_ref.rollout.gpu_memory_utilization", layout.gpu_memory_utilization)
    b.add("actor_rollout_ref.rollout.max_num_seqs", layout.max_num_seqs)  # the plan's batch (rollout.yaml: 256)
    if layout.rollout_dtype == "fp8":
        b.add("actor_rollout_ref.rollout.quantization", "fp8")
    if layout.oversample > 1:
        b.unmapped("oversample", oversample=layout.oversample)
    if layout.partial_rollouts:
        b.unmapped("partial_rollouts")
    if layout.tuning == "lora":
        b.add("actor_rollout_ref.rollout.load_format", "safetensors")
    if rollout_nodes is not None:
        b.add("actor_rollout_ref.rollout.nnodes", rollout_nodes[0])
        b.add("actor_rollout_ref.rollout.n_gpus_per_node", rollout_nodes[1])
        b.add("actor_rollout_ref.rollout.checkpoint_engine.backend", "nccl")
    kl_in_reward = rl.critic and rl.ref
    b.add("algorithm.use_kl_in_reward", kl_in_reward)
    if kl_in_reward:
        b.add("algorithm.kl_ctrl.kl_coef", layout.kl)
    if rl.critic:
        b.add("critic.model.path", PLACEHOLDER_REWARD_MODEL if rl.reward_model else rl.model_path)
        b.add("critic.model.enable_gradient_checkpointing", True)
        b.add("critic.use_dynamic_bsz", True)
        b.add("critic.ppo_max_token_len_per_gpu", 2 * budget)  # perf_tuning.rst: critic ≥ 2 × the actor's limit
        if layout.train_cp > 1 and not megatron:
            b.add("critic.ulysses_sequence_parallel_size", layout.train_cp)
        if megatron:
            b.add("critic.megatron.tensor_model_parallel_size", layout.train_tp)
            b.add("critic.megatron.pipeline_model_parallel_size", layout.train_pp)
            b.add("critic.megatron.expert_model_parallel_size", 1)  # the critic is the dense reward model
            b.add("critic.megatron.context_parallel_size", layout.train_cp)
            b.add("critic.megatron.optimizer_offload", offload)
        else:
            b.add("critic.fsdp.optimizer_offload", offload)
        b.note("launch.note.verl_critic_from_reward_model" if rl.reward_model else "launch.note.critic_from_policy")
    if rl.reward_model:
        b.add("reward.reward_model.enable", True)
        b.add("reward.reward_model.model_path", PLACEHOLDER_REWARD_MODEL)
        b.add("reward.reward_model.rollout.name", "vllm")
        per_node = rm_pool[1] if rm_pool else layout.gpus_per_node
        b.add("reward.reward_model.rollout.tensor_model_parallel_size", _rm_tp(layout.rm_b, per_node))
        if rm_pool is not None:
            b.add("reward.reward_model.enable_resource_pool", True)
            b.add("reward.reward_model.nnodes", rm_pool[0])
            b.add("reward.reward_model.n_gpus_per_node", rm_pool[1])
            b.note("launch.note.verl_reward_pool", gpus=layout.scoring_gpus)
        b.note("launch.note.verl_reward_model", path=PLACEHOLDER_REWARD_MODEL)
    else:
        b.add("reward.custom_reward_function.path", REWARD_FN)
        b.add("reward.custom_reward_function.name", "compute_score")
        b.note("launch.note.verl_verifier", path=REWARD_FN)
    if separate:
        b.add("trainer.v1.trainer_mode", "separate_async")
        b.add("trainer.v1.separate_async.parameter_sync_step", prompts // mini)
        b.add("trainer.v1.sampler.max_off_policy_threshold", layout.staleness)
        b.note("launch.note.verl_trainer_pool", gpus=trainer_gpus, scoring=layout.scoring_gpus,
               training=layout.training_gpus)
        b.note("launch.note.verl_async", staleness=layout.staleness)
    b.add("trainer.nnodes", trainer_nodes[0])
    b.add("trainer.n_gpus_per_node", trainer_nodes[1])
    b.add("trainer.total_epochs", layout.passes)
    b.add("trainer.save_freq", layout.eval_every)
    b.add("trainer.test_freq", layout.eval_every)
    b.add("trainer.default_local_dir", PLACEHOLDER_CHECKPOINTS + "/verl")
    b.add("trainer.logger", LOGGER)
    b.note("launch.note.checkpoints_last", steps=layout.eval_every, path=PLACEHOLDER_CHECKPOINTS + "/verl")  # fit() saves at is_last_step too
    b.note("launch.note.logger_tensorboard")
    if planned:
        b.note("launch.note.plan_batch", sequences=mini * rl.group, steps=prompts // mini)
    else:
        b.note(batch_note("launch.note.mini_batch", mini * rl.group), sequences=mini * rl.group,
               target=TARGET_BATCH_SEQUENCES)
    if prompts * rl.group != layout.rollouts:
        b.note(rounded_key(rl), rollouts=layout.rollouts, used=prompts * rl.group)
    if layout.tuning == "lora":
        b.note("launch.note.verl_lora", rank=LORA_RANK, alpha=LORA_ALPHA)
    if layout.moe and not megatron:
        b.note("launch.note.verl_moe")
    b.note("launch.note.verl_data", path=TRAIN_FILES)
    common_notes(b, layout, rl)
    launcher = LAUNCHERS["verl.main_ppo"][0]
    config = CONFIG_MEGATRON if megatron else CONFIG_FSDP
    if megatron:
        launcher += (f"--config-name={CONFIG_MEGATRON}",)
    files = ("verl_reward.py",) if not rl.reward_model else ()
    return b.command(VERL.label, launcher, files, config, header=(VERL.pin,)), None
