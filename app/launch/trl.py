"""TRL 1.16.0: ``accelerate launch`` with a DeepSpeed ZeRO-3 config, running TRL's own scripts ``trl.scripts.grpo``
and ``trl.scripts.dpo``; every ``--flag`` is a field of ``GRPOConfig`` / ``DPOConfig`` (or of what they and the script
parse besides: ``TrainingArguments``, ``ModelConfig``, ``ScriptArguments``).

The batch: ``per_device_train_batch_size`` 1 on each of P training processes, ``gradient_accumulation_steps`` so that
one optimizer step takes the lab's mini-batch, ``steps_per_generation`` so that one generation is the lab's step.
TRL 1.16 has no PPO trainer and trains on-policy; colocated engines use ``vllm_mode colocate``, separate ones a
``trl vllm-serve`` server on the generation GPUs; ``engine=hf`` generates with ``transformers`` (``use_vllm`` off).
"""

from __future__ import annotations

import shlex

from app.launch.common import (
    HEAD_ADDRESS,
    LORA_ALPHA,
    LORA_RANK,
    PLACEHOLDER_CHECKPOINTS,
    PLACEHOLDER_PREFIX,
    PLACEHOLDER_REWARD_MODEL,
    TARGET_BATCH_SEQUENCES,
    Builder,
    Command,
    Note,
    batch_note,
    dpo_batch,
    note,
    step_batch,
)
from app.launch.facts import Rl, common_notes, model_path, rounded_key
from app.launch.layout import LaunchLayout
from app.launch.releases import TRL
from app.launch.sources import LAUNCHERS, TRL_FLAGS

PROMPTS = PLACEHOLDER_PREFIX + "prompts"        # a dataset folder (parquet or JSONL) with a "prompt" column
PAIRS = PLACEHOLDER_PREFIX + "preference-pairs"  # "prompt", "chosen", "rejected"
REWARD_FN = "trl_reward.reward_fn"               # trl_reward.py in the working directory (grpo.py imports it)
MAIN_PORT = 29500                                # accelerate's default main process port
SERVER_ADDRESS = "VLLM_SERVER_IP"                # the generation node's address: the user writes it


def _accelerate(layout: LaunchLayout, processes: int, nodes: int, script: str) -> tuple[str, ...]:
    config = "trl_zero3_offload.yaml" if layout.offload == "optimizer" else "trl_zero3.yaml"
    launcher = (*LAUNCHERS["trl.accelerate"][0], "--config_file", config, "--num_machines", str(nodes),
                "--num_processes", str(processes))
    if nodes > 1:
        launcher += ("--machine_rank", "0", "--main_process_ip", HEAD_ADDRESS, "--main_process_port", str(MAIN_PORT))
    return (*launcher, "-m", script)


def _common(b: Builder, layout: LaunchLayout) -> None:
    b.add("--bf16")
    b.add("--gradient_checkpointing")
    if layout.tuning == "lora":
        b.add("--use_peft")
        b.add("--lora_r", LORA_RANK)
        b.add("--lora_alpha", LORA_ALPHA)
        b.add("--lora_target_modules", "all-linear")
        b.note("launch.note.trl_lora", rank=LORA_RANK, alpha=LORA_ALPHA)
    path = PLACEHOLDER_CHECKPOINTS + "/trl"
    b.add("--output_dir", path)
    b.add("--save_steps", layout.eval_every)
    b.add("--logging_steps", 1)
    b.add("--report_to", "tensorboard")
    b.note("launch.note.checkpoints", steps=layout.eval_every, path=path)
    b.note("launch.note.trl_tensorboard", path=path + "/runs")


def _nodes_note(b: Builder, nodes: int) -> None:
    if nodes > 1:
        b.note("launch.note.accelerate_nodes", nodes=nodes, head=HEAD_ADDRESS, port=MAIN_PORT)


def command(layout: LaunchLayout, rl: Rl) -> tuple[Command | None, Note | None]:  # noqa: PLR0912, PLR0915
    if not rl.grpo:
        return None, note("launch.reason.trl_no_ppo")
    if layout.staleness > 0:
        return None, note("launch.reason.trl_no_async", staleness=layout.staleness)
    if layout.train_backend == "megatron":
        return None, note("launch.reason.trl_no_megatron", tp=layout.train_tp, pp=layout.train_pp,
                          ep=layout.train_ep)
    if layout.rollout_pp > 1:
        return None, note("launch.reason.trl_no_engine_pp", tp=layout.rollout_tp, pp=layout.rollout_pp)
    separate = layout.placement == "separate" and layout.engine == "vllm"
    if separate and layout.generation_gpus > layout.gpus_per_node:
        return None, note("launch.reason.trl_server_one_node", gpus=layout.generation_gpus,
                          per_node=layout.gpus_per_node)
    processes = layout.gpus - layout.generation_gpus if separate else layout.gpus
    nodes = max(1, -(-processes // layout.gpus_per_node))
    if processes % nodes:
        return None, note("launch.reason.not_whole_nodes", role="trainer", gpus=processes,
                          per_node=layout.gpus_per_node)
    per_epoch = layout.optimizer_steps // max(layout.epochs, 1)  # 0: no plan gave one (a bare layout)
    prompts, mini, planned = step_batch(rl.prompts_per_step, rl.group, processes, layout.optimizer_steps, layout.epochs)
    if prompts is None or mini is None:
        return None, note("launch.reason.batch_not_divisible", samples=rl.samples, gpus=processes)
    samples, mini_seq = prompts * rl.group, mini * rl.group

    b = Builder("trl", TRL_FLAGS)
    if not planned and per_epoch:
        b.unmapped("optimizer_steps", steps=per_epoch, prompts=prompts, gpus=processes, used=prompts // mini)
    b.add("--model_name_or_path", rl.model_path)
    b.add("--dataset_name", PROMPTS)
    if rl.reward_model:
        b.add("--reward_model_name_or_path", PLACEHOLDER_REWARD_MODEL)
        b.note("launch.note.trl_reward_model", path=PLACEHOLDER_REWARD_MODEL)
    else:
        b.add("--reward_funcs", REWARD_FN)
        b.note("launch.note.trl_verifier", name=REWARD_FN)
    b.add("--num_generations", rl.group)
    b.add("--max_completion_length", layout.response_max_tokens)
    b.add("--beta", layout.kl)
    b.add("--num_iterations", layout.epochs)
    b.add("--per_device_train_batch_size", 1)
    b.add("--gradient_accumulation_steps", mini_seq // processes)
    b.add("--steps_per_generation", samples // processes)
    if layout.engine == "vllm":
        b.add("--use_vllm")
        if separate:
            b.add("--vllm_mode", "server")
            b.add("--vllm_server_host", SERVER_ADDRESS)
            serve = ("trl", "vllm-serve", "--model", rl.model_path, "--tensor_parallel_size", str(layout.rollout_tp),
                     "--data_parallel_size", str(layout.rollout_replicas))
            b.note("launch.note.trl_server", command=" ".join(shlex.quote(t) for t in serve),
                   gpus=layout.generation_gpus, host=SERVER_ADDRESS)
        else:
            b.add("--vllm_mode", "colocate")
            b.add("--vllm_tensor_parallel_size", layout.rollout_tp)
            b.add("--vllm_gpu_memory_utilization", layout.gpu_memory_utilization)
            # the estimate's engine sleeps while the trainer runs (weights to host memory, KV cache freed);
            # GRPOConfig's default keeps its memory through training (vllm_enable_sleep_mode False)
            b.add("--vllm_enable_sleep_mode", True)
        b.unmapped("max_num_seqs", seqs=layout.max_num_seqs)
        if layout.engine_release != "vllm_v1":
            b.unmapped("engine_release", release=layout.engine_release)
        if separate and layout.engine_api != "http":  # TRL reaches a separate engine only through its HTTP server
            b.unmapped("engine_api")
        if layout.rollout_dtype == "fp8":
            b.unmapped("rollout_dtype")
    else:
        b.note("launch.note.trl_hf_generate")
    b.add("--num_train_epochs", layout.passes)  # TrainingArguments' default is 3 passes over the prompts
    if layout.train_cp > 1:
        b.unmapped("cp", cp=layout.train_cp)
    b.unmapped("micro_batch_tokens", tokens=layout.micro_batch_tokens)
    if layout.oversample > 1:
        b.unmapped("oversample", oversample=layout.oversample)
    b.unmapped("logits")
    _common(b, layout)
    b.note("launch.note.trl_batch", processes=processes, accumulation=mini_seq // processes, sequences=mini_seq,
           generation=samples // processes, samples=samples)
    if planned:
        b.note("launch.note.plan_batch", sequences=mini_seq, steps=samples // mini_seq)
    else:
        b.note(batch_note("launch.note.mini_batch", mini_seq), sequences=mini_seq, target=TARGET_BATCH_SEQUENCES)
    if samples != layout.rollouts:
        b.note(rounded_key(rl), rollouts=layout.rollouts, used=samples)
    if layout.placement == "separate" and layout.scoring_gpus > 0:
        b.note("launch.note.trl_scoring_in_trainer", gpus=layout.scoring_gpus)
    b.note("launch.note.trl_data", path=PROMPTS)
    _nodes_note(b, nodes)
    common_notes(b, layout, rl, ray=False)
    files = ("trl_zero3_offload.yaml" if layout.offload == "optimizer" else "trl_zero3.yaml",)
    if not rl.reward_model:
        files += ("trl_reward.py",)
    return b.command(TRL.label, _accelerate(layout, processes, nodes, "trl.scripts.grpo"), files,
                     header=(TRL.pin,)), None


def dpo_command(layout: LaunchLayout) -> Command:
    processes, nodes = layout.gpus, layout.nodes
    per_step = dpo_batch(layout.dpo_batch_pairs, processes)  # the plan's pairs per step, whole per GPU
    b = Builder("trl", TRL_FLAGS)
    if layout.dpo_batch_pairs and per_step != layout.dpo_batch_pairs:
        b.unmapped("dpo_batch", pairs=layout.dpo_batch_pairs, gpus=processes, used=per_step)
    b.add("--model_name_or_path", model_path(layout))
    b.add("--dataset_name", PAIRS)
    b.add("--beta", layout.kl, source="trl.dpo_config")
    b.add("--max_length", layout.prompt_max_tokens + layout.response_max_tokens)
    b.add("--num_train_epochs", layout.epochs)
    b.add("--per_device_train_batch_size", 1)
    b.add("--gradient_accumulation_steps", per_step // processes)
    _common(b, layout)
    b.note("launch.note.dpo_offline")
    if layout.dpo_batch_pairs:
        b.note("launch.note.plan_dpo_batch", pairs=per_step)
    else:
        b.note(batch_note("launch.note.train_batch", per_step), samples=per_step, target=TARGET_BATCH_SEQUENCES)
    b.note("launch.note.trl_dpo_data", path=PAIRS)
    _nodes_note(b, nodes)
    common_notes(b, layout, None)
    files = ("trl_zero3_offload.yaml" if layout.offload == "optimizer" else "trl_zero3.yaml",)
    return b.command(TRL.label, _accelerate(layout, processes, nodes, "trl.scripts.dpo"), files, header=(TRL.pin,))
