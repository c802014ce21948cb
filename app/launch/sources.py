"""Where each flag is defined: a file of the pinned release, at its tag (``releases.py``), and the flag tables.

Each table maps a flag the builders may emit to the source id that defines it; the page links every flag to its
source.  The tables are the builders' vocabulary, not the proof: ``tests/launch/`` checks every emitted flag against
the release's own files (Hydra over verl's config tree, OpenRLHF's and Accelerate's argparse, TRL's and
Transformers' dataclasses).
"""

from __future__ import annotations

from app.launch.releases import ACCELERATE, OPENRLHF, TRANSFORMERS, TRL, VERL

_V, _O, _T = VERL.url, OPENRLHF.url, TRL.url

SOURCES: dict[str, tuple[str, str]] = {
    # verl 0.9.1: the Hydra config tree the overrides compose over, and the code that reads it
    "verl.main_ppo": ("verl 0.9.1, verl/trainer/main_ppo.py (the entry point; Hydra config ppo_trainer)",
                      _V("verl/trainer/main_ppo.py")),
    "verl.ppo_trainer": ("verl 0.9.1, verl/trainer/config/ppo_trainer.yaml (algorithm, trainer)",
                         _V("verl/trainer/config/ppo_trainer.yaml")),
    "verl.megatron_trainer": ("verl 0.9.1, verl/trainer/config/ppo_megatron_trainer.yaml",
                              _V("verl/trainer/config/ppo_megatron_trainer.yaml")),
    "verl.data": ("verl 0.9.1, verl/trainer/config/data/legacy_data.yaml", _V("verl/trainer/config/data/legacy_data.yaml")),
    "verl.model": ("verl 0.9.1, verl/trainer/config/model/hf_model.yaml (model path, LoRA)",
                   _V("verl/trainer/config/model/hf_model.yaml")),
    "verl.actor": ("verl 0.9.1, verl/trainer/config/actor/actor.yaml", _V("verl/trainer/config/actor/actor.yaml")),
    "verl.rollout": ("verl 0.9.1, verl/trainer/config/rollout/rollout.yaml",
                     _V("verl/trainer/config/rollout/rollout.yaml")),
    "verl.critic": ("verl 0.9.1, verl/trainer/config/critic/critic.yaml", _V("verl/trainer/config/critic/critic.yaml")),
    "verl.fsdp": ("verl 0.9.1, verl/trainer/config/engine/fsdp.yaml (fsdp_config, critic.fsdp)",
                  _V("verl/trainer/config/engine/fsdp.yaml")),
    "verl.megatron": ("verl 0.9.1, verl/trainer/config/engine/megatron.yaml (TP, PP, EP, CP, offload)",
                      _V("verl/trainer/config/engine/megatron.yaml")),
    "verl.reward": ("verl 0.9.1, verl/trainer/config/reward/reward.yaml (reward.*)",
                    _V("verl/trainer/config/reward/reward.yaml")),
    "verl.separate_async": ("verl 0.9.1, verl/trainer/ppo/v1/trainer_separate_async.py (its asserts; hybrid_engine)",
                            _V("verl/trainer/ppo/v1/trainer_separate_async.py")),
    "verl.reward_score": ("verl 0.9.1, verl/utils/reward_score/__init__.py (compute_score's arguments)",
                          _V("verl/utils/reward_score/__init__.py")),
    "verl.perf": ("verl 0.9.1, Performance Tuning Guide (docs/perf/perf_tuning.rst)", _V("docs/perf/perf_tuning.rst")),
    "verl.lora": ("verl 0.9.1, LoRA Support (docs/advance/ppo_lora.rst)", _V("docs/advance/ppo_lora.rst")),
    "verl.v1async": ("verl 0.9.1, V1 Async Trainer (docs/advance/v1_async_trainer.md)",
                     _V("docs/advance/v1_async_trainer.md")),
    "verl.multinode": ("verl 0.9.1, Multinode training (docs/start/multinode.rst: ray start on each node)",
                       _V("docs/start/multinode.rst")),
    "verl.hf_rollout_removed": ("verl PR #3071 “add a separate rollout worker” (removes hf_rollout)",
                                "https://github.com/verl-project/verl/pull/3071"),
    # OpenRLHF 0.11.2: the argparse of its two entry points
    "openrlhf.train_ppo_ray": ("OpenRLHF 0.11.2, openrlhf/cli/train_ppo_ray.py (argparse and its checks)",
                               _O("openrlhf/cli/train_ppo_ray.py")),
    "openrlhf.train_dpo": ("OpenRLHF 0.11.2, openrlhf/cli/train_dpo.py (argparse)", _O("openrlhf/cli/train_dpo.py")),
    "openrlhf.agent": ("OpenRLHF 0.11.2, openrlhf/utils/agent.py (loads reward_func(queries, prompts, labels))",
                       _O("openrlhf/utils/agent.py")),
    "deepspeed.launcher": ("DeepSpeed, Getting Started: resource configuration (multi-node)",
                           "https://www.deepspeed.ai/getting-started/#resource-configuration-multi-node"),
    # TRL 1.16.0 and the two packages its recipe stands on
    "trl.grpo_config": ("TRL 1.16.0, trl/trainer/grpo_config.py (GRPOConfig)", _T("trl/trainer/grpo_config.py")),
    "trl.dpo_config": ("TRL 1.16.0, trl/trainer/dpo_config.py (DPOConfig)", _T("trl/trainer/dpo_config.py")),
    "trl.base_config": ("TRL 1.16.0, trl/trainer/base_config.py (bf16, gradient checkpointing, logging steps)",
                        _T("trl/trainer/base_config.py")),
    "trl.model_config": ("TRL 1.16.0, trl/trainer/model_config.py (ModelConfig: model, LoRA)",
                         _T("trl/trainer/model_config.py")),
    "trl.script_args": ("TRL 1.16.0, trl/scripts/utils.py (ScriptArguments: dataset)", _T("trl/scripts/utils.py")),
    "trl.grpo_script": ("TRL 1.16.0, trl/scripts/grpo.py (reward_funcs, reward model)", _T("trl/scripts/grpo.py")),
    "trl.dpo_script": ("TRL 1.16.0, trl/scripts/dpo.py", _T("trl/scripts/dpo.py")),
    "trl.vllm_serve": ("TRL 1.16.0, trl/scripts/vllm_serve.py (trl vllm-serve)", _T("trl/scripts/vllm_serve.py")),
    "trl.zero3": ("TRL 1.16.0, trl/accelerate_configs/zero3.yaml (DeepSpeed ZeRO-3)",
                  _T("trl/accelerate_configs/zero3.yaml")),
    "transformers.training_args": ("Transformers 5.24.0, src/transformers/training_args.py (TrainingArguments)",
                                   TRANSFORMERS.url("src/transformers/training_args.py")),
    "accelerate.launch": ("Accelerate 1.15.0, src/accelerate/commands/launch.py (accelerate launch)",
                          ACCELERATE.url("src/accelerate/commands/launch.py")),
}


def _table(source: str, names: str) -> dict[str, str]:
    return dict.fromkeys(names.split(), source)


# verl: Hydra overrides ``name=value``.
VERL_FLAGS: dict[str, str] = {
    **_table("verl.ppo_trainer", """algorithm.adv_estimator algorithm.use_kl_in_reward algorithm.kl_ctrl.kl_coef
        trainer.nnodes trainer.n_gpus_per_node trainer.total_epochs trainer.save_freq trainer.test_freq
        trainer.default_local_dir trainer.logger trainer.project_name trainer.experiment_name
        trainer.v1.trainer_mode trainer.v1.separate_async.parameter_sync_step
        trainer.v1.sampler.max_off_policy_threshold"""),
    **_table("verl.data", """data.train_files data.val_files data.train_batch_size data.max_prompt_length
        data.max_response_length data.train_max_samples data.prompt_key data.reward_fn_key"""),
    **_table("verl.model", """actor_rollout_ref.model.path actor_rollout_ref.model.enable_gradient_checkpointing
        actor_rollout_ref.model.lora_rank actor_rollout_ref.model.lora_alpha actor_rollout_ref.model.target_modules
        critic.model.path critic.model.enable_gradient_checkpointing actor_rollout_ref.model.use_fused_kernels"""),
    **_table("verl.actor", """actor_rollout_ref.actor.ppo_mini_batch_size actor_rollout_ref.actor.ppo_epochs
        actor_rollout_ref.actor.use_dynamic_bsz actor_rollout_ref.actor.ppo_max_token_len_per_gpu
        actor_rollout_ref.actor.use_kl_loss actor_rollout_ref.actor.kl_loss_coef actor_rollout_ref.actor.kl_loss_type
        actor_rollout_ref.actor.ulysses_sequence_parallel_size"""),
    **_table("verl.fsdp", """actor_rollout_ref.actor.fsdp_config.optimizer_offload
        actor_rollout_ref.actor.fsdp_config.param_offload actor_rollout_ref.ref.fsdp_config.param_offload
        critic.fsdp.optimizer_offload critic.fsdp.param_offload"""),
    **_table("verl.megatron", """actor_rollout_ref.actor.megatron.tensor_model_parallel_size
        actor_rollout_ref.actor.megatron.pipeline_model_parallel_size
        actor_rollout_ref.actor.megatron.expert_model_parallel_size
        actor_rollout_ref.actor.megatron.context_parallel_size actor_rollout_ref.actor.megatron.optimizer_offload
        actor_rollout_ref.actor.megatron.param_offload actor_rollout_ref.ref.megatron.param_offload
        critic.megatron.tensor_model_parallel_size critic.megatron.pipeline_model_parallel_size
        critic.megatron.expert_model_parallel_size critic.megatron.context_parallel_size
        critic.megatron.optimizer_offload"""),
    **_table("verl.rollout", """actor_rollout_ref.rollout.name actor_rollout_ref.rollout.n
        actor_rollout_ref.rollout.tensor_model_parallel_size actor_rollout_ref.rollout.expert_parallel_size
        actor_rollout_ref.rollout.pipeline_model_parallel_size actor_rollout_ref.rollout.data_parallel_size
        actor_rollout_ref.rollout.gpu_memory_utilization actor_rollout_ref.rollout.load_format
        actor_rollout_ref.rollout.nnodes actor_rollout_ref.rollout.n_gpus_per_node
        actor_rollout_ref.rollout.checkpoint_engine.backend actor_rollout_ref.rollout.max_num_seqs
        actor_rollout_ref.rollout.quantization"""),
    **_table("verl.critic", """critic.use_dynamic_bsz critic.ppo_max_token_len_per_gpu critic.ulysses_sequence_parallel_size"""),
    **_table("verl.reward", """reward.custom_reward_function.path reward.custom_reward_function.name
        reward.reward_model.enable reward.reward_model.model_path reward.reward_model.enable_resource_pool
        reward.reward_model.nnodes reward.reward_model.n_gpus_per_node reward.reward_model.rollout.name
        reward.reward_model.rollout.tensor_model_parallel_size"""),
    **_table("verl.separate_async", "actor_rollout_ref.hybrid_engine"),
}

# OpenRLHF: ``--name value`` or a bare switch.
_PPO_RAY = """actor.model_name_or_path actor.num_nodes actor.num_gpus_per_node actor.gradient_checkpointing_enable
    ref.num_nodes ref.num_gpus_per_node critic.num_nodes critic.num_gpus_per_node
    reward.model_name_or_path reward.remote_url reward.num_nodes reward.num_gpus_per_node
    vllm.num_engines vllm.tensor_parallel_size vllm.gpu_memory_utilization vllm.enable_sleep
    train.colocate_all train.colocate_actor_ref train.colocate_critic_reward train.async_enable train.async_queue_size
    train.max_epochs train.num_episodes
    rollout.batch_size rollout.micro_batch_size rollout.n_samples_per_prompt rollout.max_new_tokens
    algo.advantage.estimator algo.kl.init_coef algo.kl.use_loss algo.kl.estimator
    data.prompt_dataset data.input_key data.label_key ds.enable_sleep
    train.dynamic_batch_enable train.max_tokens_per_gpu ds.packing_samples ds.ring_attn_size
    algo.dynamic_filtering_enable train.partial_rollout_enable
    """
_DPO = """model.model_name_or_path model.beta model.gradient_checkpointing_enable data.dataset data.chosen_key
    data.rejected_key ds.lora.rank ds.lora.alpha"""
_BOTH = """train.batch_size train.micro_batch_size data.apply_chat_template data.max_len data.max_samples
    ds.zero_stage ds.param_dtype ds.adam_offload ckpt.save_steps ckpt.path ckpt.output_dir
    logger.tensorboard_dir"""
OPENRLHF_FLAGS: dict[str, str] = {
    **{f"--{n}": "openrlhf.train_ppo_ray" for n in _PPO_RAY.split()},
    **{f"--{n}": "openrlhf.train_dpo" for n in _DPO.split()},
    **{f"--{n}": "openrlhf.train_ppo_ray" for n in _BOTH.split()},
}

# TRL: ``--name value`` to ``trl/scripts/{grpo,dpo}.py``, parsed into its dataclasses.
TRL_FLAGS: dict[str, str] = {
    **{f"--{n}": "trl.grpo_config" for n in ["num_generations", "max_completion_length", "use_vllm", "vllm_mode", "vllm_tensor_parallel_size", "vllm_gpu_memory_utilization", "vllm_server_host", "steps_per_generation", "num_iterations", "vllm_enable_sleep_mode"]},
    **{f"--{n}": "trl.dpo_config" for n in ["max_length"]},
    **{f"--{n}": "trl.base_config" for n in ["bf16", "gradient_checkpointing", "logging_steps"]},
    "--beta": "trl.grpo_config",
    **{f"--{n}": "trl.model_config" for n in ["model_name_or_path", "use_peft", "lora_r", "lora_alpha", "lora_target_modules"]},
    "--dataset_name": "trl.script_args",
    **{f"--{n}": "trl.grpo_script" for n in ["reward_funcs", "reward_model_name_or_path"]},
    **{f"--{n}": "transformers.training_args" for n in ["output_dir", "per_device_train_batch_size", "gradient_accumulation_steps", "num_train_epochs", "save_steps", "report_to"]},
}

# The fixed tokens in front of the flags, each with where it is documented.
LAUNCHERS: dict[str, tuple[tuple[str, ...], str]] = {
    "verl.main_ppo": (("python3", "-m", "verl.trainer.main_ppo"), "verl.main_ppo"),
    "openrlhf.train_ppo_ray": (("ray", "job", "submit", "--address=http://127.0.0.1:8265", "--",
                                "python3", "-m", "openrlhf.cli.train_ppo_ray"), "openrlhf.train_ppo_ray"),
    "openrlhf.train_dpo": (("deepspeed",), "openrlhf.train_dpo"),
    "trl.accelerate": (("accelerate", "launch"), "accelerate.launch"),
}
DEEPSPEED_LAUNCHER_FLAGS: dict[str, str] = {
    "--hostfile": "deepspeed.launcher", "--num_nodes": "deepspeed.launcher", "--num_gpus": "deepspeed.launcher",
    "--module": "openrlhf.train_dpo",
}
ACCELERATE_LAUNCHER_FLAGS: dict[str, str] = dict.fromkeys(
    ("--config_file", "--num_processes", "--num_machines", "--machine_rank", "--main_process_ip",
     "--main_process_port", "-m"), "accelerate.launch")
