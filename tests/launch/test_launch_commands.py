"""The launch commands (app/launch/): the layout carried into the flags, refusals, clean shell, never raising.

Every flag a command carries is in its framework's table (flag → source, app/launch/sources.py); whether the release
accepts it is tests/launch/test_checked_commands.py's job.  The text must be valid shell that splits back into
exactly the launcher and those flags; unsupported layouts give None and a reason key; nothing raises.
"""

from __future__ import annotations

import itertools
import math
import re
import shutil
import subprocess
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.i18n import LANGS, catalogue, translator
from app.launch import Command, Launch, LaunchLayout, Note, launch_commands
from app.launch.common import PLACEHOLDER_MODEL, PLACEHOLDER_PREFIX, shell_words
from app.launch.facts import ARCH_MODEL_IDS
from app.launch.sources import (
    ACCELERATE_LAUNCHER_FLAGS,
    DEEPSPEED_LAUNCHER_FLAGS,
    LAUNCHERS,
    OPENRLHF_FLAGS,
    SOURCES,
    TRL_FLAGS,
    VERL_FLAGS,
)

TABLES = {"verl": VERL_FLAGS, "openrlhf": OPENRLHF_FLAGS, "trl": TRL_FLAGS}

PROPS = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow])


# --- building consistent layouts -------------------------------------------------------------------------------------


def layout(method: str = "grpo", placement: str = "colocated", gpus: int = 8, tp: int = 1,
           split: tuple[int, int, int] | None = None, **changes: object) -> LaunchLayout:
    """A readable layout: nodes of min(8, gpus); colocated engines cover every GPU; separate takes ``split``
    (generation, scoring, training) or the lab's rule (training ⌈G/2⌉, generation ⌈⌊G/2⌋/2⌉, scoring the rest)."""
    per_node = min(8, gpus)
    if placement == "colocated":
        gen = score = train = gpus
        replicas = gpus // tp
    else:
        if split is None:
            train = (gpus + 1) // 2
            gen = (gpus - train + 1) // 2
            split = (gen, gpus - train - gen, train)
        gen, score, train = split
        replicas = gen // tp
    base = LaunchLayout(method=method, placement=placement, gpus=gpus, gpus_per_node=per_node, nodes=gpus // per_node,
                        generation_gpus=gen, scoring_gpus=score, training_gpus=train, rollout_tp=tp,
                        rollout_replicas=replicas)
    return replace(base, **changes)


def verl_values(cmd: Command) -> dict[str, str]:
    return {f.name: f.value for f in cmd.flags}


def orlhf_values(cmd: Command) -> dict[str, str | None]:
    return {f.name: f.value for f in cmd.flags}


def keys(cmd: Command) -> set[str]:
    return {n.key for n in cmd.notes}


def gpus_of(values: dict, role: str) -> int:
    """A role's GPU count from its OpenRLHF placement flags (0 when the role is absent)."""
    if f"--{role}.num_nodes" not in values:
        return 0
    return int(values[f"--{role}.num_nodes"]) * int(values[f"--{role}.num_gpus_per_node"])


GRID = [
    layout(method, placement, gpus, tp, reward=reward, kl=kl, offload=offload, tuning=tuning, staleness=staleness)
    for method, placement, gpus, tp, reward, kl, offload, tuning, staleness in itertools.product(
        ("ppo", "grpo"), ("colocated", "separate"), (8, 16, 64), (1, 2), ("model", "verifier"), (0.0, 0.001),
        ("none", "optimizer"), ("full", "lora"), (0, 1, 2))
    if not (placement == "colocated" and staleness) and not (placement == "separate" and gpus == 8 and tp == 2)
]
GRID += [layout("dpo", gpus=g, kl=0.1, offload=o, tuning=t) for g in (8, 16) for o in ("none", "optimizer")
         for t in ("full", "lora")]
GRID_LAUNCHES = [(lay, launch_commands(lay)) for lay in GRID]


def commands() -> list[tuple[LaunchLayout, Command]]:
    return [(lay, c) for lay, launch in GRID_LAUNCHES for c in (launch.verl, launch.openrlhf, launch.trl)
            if c is not None]


def test_the_grid_gives_many_commands_of_both_frameworks():
    verl = sum(1 for _, launch in GRID_LAUNCHES if launch.verl)
    orlhf = sum(1 for _, launch in GRID_LAUNCHES if launch.openrlhf)
    assert verl >= 200 and orlhf >= 200, (verl, orlhf)


# --- every flag is documented ----------------------------------------------------------------------------------------


def test_every_source_is_published():
    for what, url in SOURCES.values():
        assert what and url.startswith("https://")
    used = set(VERL_FLAGS.values()) | set(OPENRLHF_FLAGS.values()) | set(TRL_FLAGS.values())
    used |= set(DEEPSPEED_LAUNCHER_FLAGS.values()) | set(ACCELERATE_LAUNCHER_FLAGS.values())
    used |= {source for _, source in LAUNCHERS.values()}
    assert used <= set(SOURCES)


def test_every_emitted_flag_is_in_the_verified_table():
    for _, cmd in commands():
        table = TABLES[cmd.framework]
        for f in cmd.flags:
            assert f.name in table, f.name
            assert f.source in SOURCES


def test_the_text_splits_into_the_launcher_and_the_flags():
    """shlex.split gives back exactly the launcher tokens and then each flag (verl ``name=value``, OpenRLHF
    ``--name value`` or a bare ``--switch``); each line but the last ends in a continuation."""
    for _, cmd in commands():
        expected = list(cmd.launcher)
        for f in cmd.flags:
            if cmd.framework == "verl":
                expected.append(f"{f.name}={f.value}")
            else:
                expected += [f.name] if f.value is None else [f.name, f.value]
        assert shell_words(cmd.text) == expected
        lines = [line for line in cmd.text.split("\n") if not line.startswith("# ")]
        assert len(lines) == len(cmd.flags) + 1
        assert all(line.endswith(" \\") for line in lines[:-1]) and not lines[-1].endswith("\\")


def test_bash_reads_the_same_words():
    """The real shell agrees: bash, given the text as the arguments of printf, prints the same words."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    texts = sorted({cmd.text for _, cmd in commands()})
    for text in texts[:: max(1, len(texts) // 60)]:
        body = "\n".join(line for line in text.split("\n") if not line.startswith("# "))  # the header comment
        out = subprocess.run([bash, "-c", "printf '%s\\0' " + body], capture_output=True, check=True).stdout
        assert out.decode().split("\0")[:-1] == shell_words(text)


def test_no_flag_is_given_twice():
    for _, cmd in commands():
        names = [f.name for f in cmd.flags]
        assert len(names) == len(set(names)), names


_SAFE = re.compile(r"^[A-Za-z0-9_.,:/=+\-@%\[\]]+$")


def test_no_token_needs_quoting():
    """Every token is made of characters the shell reads literally: no user text reaches the command unescaped
    (there is none to reach it: names come from fixed tables and values are numbers or fixed words)."""
    for _, cmd in commands():
        for token in shell_words(cmd.text):
            assert _SAFE.match(token), token
        assert '"' not in cmd.text  # the one quoted token is verl's logger list, single-quoted for the shell


def test_the_launchers_are_the_documented_entry_points():
    for lay, launch in GRID_LAUNCHES:
        if launch.verl:
            assert launch.verl.launcher[:3] == ("python3", "-m", "verl.trainer.main_ppo")
        if launch.openrlhf and lay.method != "dpo":
            assert launch.openrlhf.launcher == LAUNCHERS["openrlhf.train_ppo_ray"][0]
        if launch.openrlhf and lay.method == "dpo":
            tokens = launch.openrlhf.launcher
            assert tokens[0] == "deepspeed" and tokens[-2:] == ("--module", "openrlhf.cli.train_dpo")
            assert all(t in DEEPSPEED_LAUNCHER_FLAGS for t in tokens if t.startswith("--"))


# --- the layout carried into the flags -------------------------------------------------------------------------------


def test_grpo_sets_the_group_estimator_and_the_group_size():
    launch = launch_commands(layout("grpo", group=16, rollouts=1024))
    v, o = verl_values(launch.verl), orlhf_values(launch.openrlhf)
    assert v["algorithm.adv_estimator"] == "grpo"
    assert v["actor_rollout_ref.rollout.n"] == "16"
    assert o["--algo.advantage.estimator"] == "group_norm"
    assert o["--rollout.n_samples_per_prompt"] == "16"
    # 1,024 responses per step / 16 per prompt = 64 prompts per step, in both frameworks' prompt-batch flags
    assert v["data.train_batch_size"] == "64" and o["--rollout.batch_size"] == "64"
    # no critic under GRPO
    assert not any(name.startswith("critic.") for name in v)
    assert "--critic.num_nodes" not in o


def test_ppo_sets_gae_one_sample_per_prompt_and_a_critic():
    launch = launch_commands(layout("ppo", group=16, rollouts=512))
    v, o = verl_values(launch.verl), orlhf_values(launch.openrlhf)
    assert v["algorithm.adv_estimator"] == "gae" and v["actor_rollout_ref.rollout.n"] == "1"
    assert o["--algo.advantage.estimator"] == "gae" and o["--rollout.n_samples_per_prompt"] == "1"
    # PPO ignores the group: 512 responses are 512 prompts
    assert v["data.train_batch_size"] == "512" and o["--rollout.batch_size"] == "512"
    assert v["critic.model.path"] and gpus_of(o, "critic") == 8


@pytest.mark.parametrize("method", ["ppo", "grpo"])
def test_kl_zero_turns_the_kl_term_and_the_reference_off(method):
    launch = launch_commands(layout(method, kl=0.0))
    v, o = verl_values(launch.verl), orlhf_values(launch.openrlhf)
    # verl starts the reference only when actor.use_kl_loss or algorithm.use_kl_in_reward is True (config.rst)
    assert v["actor_rollout_ref.actor.use_kl_loss"] == "False"
    assert v["algorithm.use_kl_in_reward"] == "False"
    assert "actor_rollout_ref.actor.kl_loss_coef" not in v and "algorithm.kl_ctrl.kl_coef" not in v
    assert "actor_rollout_ref.ref.fsdp_config.param_offload" not in v
    # OpenRLHF launches no reference model at init_kl_coef 0 (README; train_ppo_ray.py)
    assert o["--algo.kl.init_coef"] == "0" and gpus_of(o, "ref") == 0 and "--algo.kl.use_loss" not in o
    assert "launch.note.no_reference" in keys(launch.verl) and "launch.note.no_reference" in keys(launch.openrlhf)


def test_grpo_kl_is_a_loss_and_ppo_kl_is_in_the_reward():
    grpo = launch_commands(layout("grpo", kl=0.001))
    v, o = verl_values(grpo.verl), orlhf_values(grpo.openrlhf)
    assert v["actor_rollout_ref.actor.use_kl_loss"] == "True"
    assert v["actor_rollout_ref.actor.kl_loss_coef"] == "0.001"
    assert v["actor_rollout_ref.actor.kl_loss_type"] == "low_var_kl"
    assert v["algorithm.use_kl_in_reward"] == "False"
    assert o["--algo.kl.init_coef"] == "0.001" and "--algo.kl.use_loss" in o and o["--algo.kl.estimator"] == "k3"
    ppo = launch_commands(layout("ppo", kl=0.02))
    v, o = verl_values(ppo.verl), orlhf_values(ppo.openrlhf)
    assert v["actor_rollout_ref.actor.use_kl_loss"] == "False"
    assert v["algorithm.use_kl_in_reward"] == "True" and v["algorithm.kl_ctrl.kl_coef"] == "0.02"
    assert o["--algo.kl.init_coef"] == "0.02" and "--algo.kl.use_loss" not in o


@pytest.mark.parametrize("gpus,tp", [(8, 1), (8, 2), (16, 4), (64, 8)])
def test_colocated_is_the_hybrid_engine(gpus, tp):
    launch = launch_commands(layout("ppo", gpus=gpus, tp=tp))
    v, o = verl_values(launch.verl), orlhf_values(launch.openrlhf)
    assert "actor_rollout_ref.hybrid_engine" not in v and "trainer.v1.trainer_mode" not in v  # the defaults
    assert int(v["trainer.nnodes"]) * int(v["trainer.n_gpus_per_node"]) == gpus
    assert v["actor_rollout_ref.rollout.tensor_model_parallel_size"] == str(tp)
    assert "--train.colocate_all" in o and "--vllm.enable_sleep" in o and "--ds.enable_sleep" in o
    # every role on every GPU; the engines cover them all (train_ppo_ray.py asserts actor GPUs = engines · tp)
    for role in ("actor", "ref", "critic"):
        assert gpus_of(o, role) == gpus
    assert int(o["--vllm.num_engines"]) * int(o["--vllm.tensor_parallel_size"]) == gpus
    assert "--train.async_enable" not in o


@pytest.mark.parametrize("method,reward,kl", [("ppo", "model", 0.02), ("ppo", "verifier", 0.0),
                                              ("grpo", "model", 0.001), ("grpo", "verifier", 0.001)])
@pytest.mark.parametrize("gpus,split", [(8, (2, 2, 4)), (16, (8, 2, 6)), (32, (16, 8, 8)), (64, (16, 16, 32))])
def test_separate_gives_per_role_gpu_counts_that_add_up(method, reward, kl, gpus, split):
    gen, score, train = split
    launch = launch_commands(layout(method, "separate", gpus, split=split, reward=reward, kl=kl, staleness=1))
    o = orlhf_values(launch.openrlhf)
    assert "--train.colocate_all" not in o
    critic, ref, rm = gpus_of(o, "critic"), gpus_of(o, "ref"), gpus_of(o, "reward")
    assert gpus_of(o, "actor") + critic == train and (critic > 0) == (method == "ppo")
    engines = int(o["--vllm.num_engines"]) * int(o["--vllm.tensor_parallel_size"])
    assert engines == gen
    if (ref > 0) + (rm > 0) == 0:
        assert "launch.note.scoring_gpus_idle" in keys(launch.openrlhf)
    else:
        assert ref + rm == score
        assert gpus_of(o, "actor") + critic + ref + rm + engines == gpus
    # verl: rollout pool = generation; a reward model's own pool = scoring; the trainer pool = the rest (V1
    # separate_async requires the reward model's pool)
    v = verl_values(launch.verl)
    rollout = int(v["actor_rollout_ref.rollout.nnodes"]) * int(v["actor_rollout_ref.rollout.n_gpus_per_node"])
    trainer = int(v["trainer.nnodes"]) * int(v["trainer.n_gpus_per_node"])
    rm_pool = (int(v["reward.reward_model.nnodes"]) * int(v["reward.reward_model.n_gpus_per_node"])
               if reward == "model" else 0)
    assert rollout == gen and trainer + rm_pool == score + train and rollout + trainer + rm_pool == gpus
    assert v["actor_rollout_ref.hybrid_engine"] == "False"  # read by trainer_separate_async.py: no replicas there
    assert v["trainer.v1.trainer_mode"] == "separate_async"


@pytest.mark.parametrize("staleness", [1, 2, 4])
def test_staleness_is_the_async_queue_and_the_off_policy_threshold(staleness):
    launch = launch_commands(layout("grpo", "separate", 16, split=(8, 2, 6), staleness=staleness))
    o, v = orlhf_values(launch.openrlhf), verl_values(launch.verl)
    assert "--train.async_enable" in o and o["--train.async_queue_size"] == str(staleness)
    assert "--vllm.enable_sleep" not in o  # incompatible with async (async_training.rst)
    assert v["trainer.v1.sampler.max_off_policy_threshold"] == str(staleness)
    # V1 invariant: data.train_batch_size = parameter_sync_step × ppo_mini_batch_size (v1_async_trainer.md)
    assert int(v["data.train_batch_size"]) == (int(v["trainer.v1.separate_async.parameter_sync_step"])
                                               * int(v["actor_rollout_ref.actor.ppo_mini_batch_size"]))


def test_batch_sizes_and_token_budgets_written_out():
    launch = launch_commands(layout("grpo", group=8, rollouts=512, prompt_max_tokens=512, response_tokens=4096,
                                    response_max_tokens=8192, optimizer_steps=4, micro_batch_tokens=17_408))
    v, o = verl_values(launch.verl), orlhf_values(launch.openrlhf)
    # 512 responses / 8 = 64 prompts; the plan's 4 optimizer steps: 64 / 4 = 16 prompts per mini-batch
    assert v["data.train_batch_size"] == "64" and v["actor_rollout_ref.actor.ppo_mini_batch_size"] == "16"
    # the plan's token budget per GPU, as it is
    assert v["actor_rollout_ref.actor.ppo_max_token_len_per_gpu"] == "17408"
    assert v["data.max_prompt_length"] == "512" and v["data.max_response_length"] == "8192"
    # OpenRLHF: max_len = 512 + 8,192 = 8,704; max_new_tokens = the longest response; batch 128 of 512 samples
    assert o["--data.max_len"] == "8704" and o["--rollout.max_new_tokens"] == "8192"
    assert o["--train.batch_size"] == "128"
    # the mean (4,096) sets no flag; a note says so
    assert "launch.note.max_lengths" in keys(launch.verl)
    ppo = verl_values(launch_commands(layout("ppo", response_max_tokens=8192, response_tokens=1024,
                                             micro_batch_tokens=17_408)).verl)
    assert ppo["critic.ppo_max_token_len_per_gpu"] == str(2 * 17408)  # critic: 2 × the actor's budget


def test_offload_and_lora_flags():
    v = verl_values(launch_commands(layout("ppo", offload="optimizer")).verl)
    assert v["actor_rollout_ref.actor.fsdp_config.optimizer_offload"] == "True"
    assert v["critic.fsdp.optimizer_offload"] == "True"
    assert "--ds.adam_offload" in orlhf_values(launch_commands(layout("ppo", offload="optimizer")).openrlhf)
    plain = launch_commands(layout("ppo"))
    assert verl_values(plain.verl)["actor_rollout_ref.actor.fsdp_config.optimizer_offload"] == "False"
    assert "--ds.adam_offload" not in orlhf_values(plain.openrlhf)
    lora = launch_commands(layout("grpo", tuning="lora"))
    v = verl_values(lora.verl)
    assert v["actor_rollout_ref.model.lora_rank"] == "64" and v["actor_rollout_ref.model.lora_alpha"] == "32"
    assert v["actor_rollout_ref.model.target_modules"] == "all-linear"
    assert v["actor_rollout_ref.rollout.load_format"] == "safetensors"  # required for LoRA (ppo_lora.rst)
    assert lora.openrlhf is None and lora.openrlhf_reason.key == "launch.reason.openrlhf_no_lora_rl"
    t = verl_values(lora.trl)
    assert "--use_peft" in t and t["--lora_r"] == "64" and t["--lora_alpha"] == "32"
    assert "actor_rollout_ref.model.lora_rank" not in verl_values(plain.verl)
    dpo = orlhf_values(launch_commands(layout("dpo", kl=0.1, tuning="lora", offload="optimizer")).openrlhf)
    assert dpo["--ds.lora.rank"] == "64" and dpo["--ds.lora.alpha"] == "32" and "--ds.adam_offload" in dpo


def test_reward_model_or_verifier():
    rm = launch_commands(layout("ppo", reward="model"))
    v, o = verl_values(rm.verl), orlhf_values(rm.openrlhf)
    assert v["reward.reward_model.enable"] == "True"
    assert v["reward.reward_model.model_path"].startswith(PLACEHOLDER_PREFIX)
    assert v["reward.reward_model.rollout.name"] == "vllm"  # mandatory (??? in reward.yaml)
    assert gpus_of(o, "reward") == 8 and o["--reward.model_name_or_path"].startswith(PLACEHOLDER_PREFIX)
    ver = launch_commands(layout("grpo", reward="verifier"))
    v, o = verl_values(ver.verl), orlhf_values(ver.openrlhf)
    assert "reward.reward_model.enable" not in v and v["reward.custom_reward_function.path"].endswith(".py")
    assert gpus_of(o, "reward") == 0 and o["--reward.remote_url"].endswith(".py")


def test_named_architectures_use_their_hub_id_and_custom_a_marked_placeholder():
    for arch, model_id in ARCH_MODEL_IDS.items():
        launch = launch_commands(layout("grpo", arch=arch))
        assert verl_values(launch.verl)["actor_rollout_ref.model.path"] == model_id
        assert orlhf_values(launch.openrlhf)["--actor.model_name_or_path"] == model_id
        assert "launch.note.custom_model" not in keys(launch.verl)
    custom = launch_commands(layout("grpo", arch="custom"))
    assert verl_values(custom.verl)["actor_rollout_ref.model.path"] == PLACEHOLDER_MODEL == "/path/to/your/sft-checkpoint"
    assert "launch.note.custom_model" in keys(custom.verl) and "launch.note.custom_model" in keys(custom.openrlhf)
    assert "launch.note.verl_moe" in keys(launch_commands(layout("grpo", arch="qwen3_30b_a3b")).verl)


def test_dpo_is_an_openrlhf_offline_command_and_not_a_verl_one():
    launch = launch_commands(layout("dpo", gpus=16, kl=0.1, epochs=2, pairs=161_000))
    assert launch.verl is None and launch.verl_reason == Note("launch.reason.verl_no_dpo")
    t = verl_values(launch.trl)
    assert t["--beta"] == "0.1" and t["--num_train_epochs"] == "2" and "trl.scripts.dpo" in launch.trl.launcher
    o = orlhf_values(launch.openrlhf)
    assert o["--model.beta"] == "0.1" and o["--train.max_epochs"] == "2" and o["--data.max_samples"] == "161000"
    # 16 GPUs on 2 nodes: the DeepSpeed launcher reads the nodes from a hostfile
    assert launch.openrlhf.launcher[:5] == ("deepspeed", "--hostfile", "/path/to/your/hostfile", "--num_nodes", "2")
    assert int(o["--train.batch_size"]) % 16 == 0
    assert not any(name.startswith(("--vllm.", "--rollout.", "--algo.")) for name in o)
    assert "launch.note.dpo_offline" in keys(launch.openrlhf)


# --- refusals ----------------------------------------------------------------------------------------------------------


def test_hf_engine_has_no_command_in_either_framework():
    launch = launch_commands(layout("ppo", engine="hf"))
    assert launch.verl is None and launch.verl_reason.key == "launch.reason.verl_no_hf_rollout"
    assert launch.openrlhf is None and launch.openrlhf_reason.key == "launch.reason.openrlhf_no_hf_rollout"
    assert launch.trl is None and launch.trl_reason.key == "launch.reason.trl_no_ppo"
    grpo = launch_commands(layout("grpo", engine="hf"))
    assert grpo.trl is not None and "--use_vllm" not in verl_values(grpo.trl)  # TRL generates with transformers


def test_verl_refuses_a_synchronous_separate_layout_and_openrlhf_expresses_it():
    launch = launch_commands(layout("grpo", "separate", 8, staleness=0))
    assert launch.verl is None and launch.verl_reason.key == "launch.reason.verl_separate_sync"
    o = orlhf_values(launch.openrlhf)
    assert "--train.colocate_all" not in o and "--train.async_enable" not in o


@pytest.mark.parametrize("changes,key", [
    ({"method": "grpo", "group": 1}, "launch.reason.grpo_needs_group"),
    ({"method": "grpo", "group": 16, "rollouts": 8}, "launch.reason.too_few_rollouts"),
    ({"method": "grpo", "staleness": 1}, "launch.reason.async_needs_separate"),
])
def test_unsupported_combinations_give_none_and_a_reason(changes, key):
    launch = launch_commands(layout(**changes))
    assert launch.verl is None and launch.openrlhf is None and launch.trl is None
    assert launch.verl_reason.key == key and launch.openrlhf_reason.key == key == launch.trl_reason.key


@pytest.mark.parametrize("changes,field", [
    ({"method": "ppo2"}, "method"),
    ({"arch": "gpt5"}, "arch"),
    ({"arch": "x; rm -rf /"}, "arch"),
    ({"kl": math.nan}, "kl"),
    ({"kl": -1.0}, "kl"),
    ({"kl": 2.0}, "kl"),
    ({"gpus": 12}, "nodes"),  # 12 GPUs are not 1 node × 8
    ({"rollout_replicas": 4}, "rollout_replicas"),  # 4 engines · tp 1 ≠ 8 colocated GPUs
    ({"response_max_tokens": 100}, "response_max_tokens"),  # below the mean of 1,024
    ({"staleness": 99}, "staleness"),
    ({"gpus_per_node": 16, "nodes": 1, "gpus": 16}, "gpus_per_node"),
    ({"group": True}, "group"),
])
def test_unreadable_layouts_name_the_field(changes, field):
    launch = launch_commands(replace(layout("grpo"), **changes))
    assert launch.verl is None and launch.openrlhf is None
    assert launch.verl_reason == launch.openrlhf_reason
    assert launch.verl_reason.key == "launch.reason.invalid_layout"
    assert launch.verl_reason.params["field"] == field


def test_separate_splits_the_frameworks_cannot_place_say_why():
    # 4 scoring + 12 training = 16 trainer GPUs are 2 nodes of 8 for verl; OpenRLHF's 12-GPU actor is not
    launch = launch_commands(layout("grpo", "separate", 24, split=(8, 4, 12), staleness=1, reward="verifier"))
    assert launch.verl is not None
    assert launch.openrlhf_reason == Note("launch.reason.not_whole_nodes",
                                          (("role", "actor"), ("gpus", 12), ("per_node", 8)))
    # 8 scoring + 12 training = 20 trainer GPUs are not whole nodes of 8 for verl
    launch = launch_commands(layout("grpo", "separate", 24, split=(4, 8, 12), staleness=1, reward="verifier"))
    assert launch.verl_reason == Note("launch.reason.not_whole_nodes",
                                      (("role", "trainer"), ("gpus", 20), ("per_node", 8)))
    # PPO needs actor and critic apart: one training GPU cannot
    launch = launch_commands(layout("ppo", "separate", 4, split=(2, 1, 1), staleness=1))
    assert launch.openrlhf_reason == Note("launch.reason.training_split", (("gpus", 1),))
    # reference and reward model apart need two scoring GPUs
    launch = launch_commands(layout("ppo", "separate", 4, split=(1, 1, 2), staleness=1))
    assert launch.openrlhf_reason == Note("launch.reason.scoring_split", (("gpus", 1), ("needed", 2)))


def test_rollouts_are_rounded_to_whole_groups_and_equal_shares_of_the_trainer():
    # 500 rollouts / 8 per prompt = 62 prompts (496 rollouts); 62 · 8 = 496 splits over 8 GPUs
    launch = launch_commands(layout("grpo", rollouts=500, group=8))
    assert verl_values(launch.verl)["data.train_batch_size"] == "62"
    # (GRPO keeps whole groups: the note says so; PPO's note has no word about groups)
    assert Note("launch.note.rollouts_rounded_grpo", (("rollouts", 500), ("used", 496))) in launch.verl.notes
    # verl's trainer pool of 2 scoring + 4 training = 6 GPUs (a verifier: no reward-model pool): 512 prompts → 510
    launch = launch_commands(layout("ppo", "separate", 8, split=(2, 2, 4), staleness=1, reward="verifier"))
    assert verl_values(launch.verl)["data.train_batch_size"] == "510"
    assert Note("launch.note.rollouts_rounded", (("rollouts", 512), ("used", 510))) in launch.verl.notes
    # OpenRLHF's actor has 2 of the 4 training GPUs: 512 splits evenly, nothing rounded
    assert orlhf_values(launch.openrlhf)["--rollout.batch_size"] == "512"
    assert "launch.note.rollouts_rounded" not in keys(launch.openrlhf)
    # with a reward model, verl gives it the scoring pair as its own pool: the trainer is 4 GPUs, 512 splits evenly
    rm = launch_commands(layout("ppo", "separate", 8, split=(2, 2, 4), staleness=1, reward="model"))
    v = verl_values(rm.verl)
    assert v["data.train_batch_size"] == "512" and v["trainer.n_gpus_per_node"] == "4"
    assert v["reward.reward_model.enable_resource_pool"] == "True" and v["reward.reward_model.n_gpus_per_node"] == "2"
    # 4 prompts cannot fill one batch over 8 GPUs
    launch = launch_commands(layout("ppo", rollouts=4))
    assert launch.verl_reason.key == launch.openrlhf_reason.key == "launch.reason.batch_not_divisible"


# --- notes and the catalogue ---------------------------------------------------------------------------------------------

SPECIAL = [
    layout("grpo", rollouts=500, group=8),                                   # 500 = 62 groups of 8 + 4
    layout("grpo", response_tokens=1000, response_max_tokens=4000),
    layout("ppo", gpus=16, policy_b=70, arch="llama3_70b"),
    layout("grpo", arch="deepseek_v3", tuning="lora"),
    layout("grpo", "separate", 8, split=(2, 2, 4), staleness=1, reward="verifier", kl=0.0),
    layout("ppo", "separate", 4, split=(1, 1, 2), staleness=1),
    layout("ppo", "separate", 4, split=(2, 1, 1), staleness=1),
    layout("grpo", "separate", 24, split=(4, 8, 12), staleness=1),
    layout("ppo", rollouts=4),                                               # 4 prompts, 8 GPUs: no even batch
    layout("dpo", gpus=16, kl=0.1),
    layout("grpo", engine="hf"), replace(layout("dpo"), kl=0.0), layout("grpo", group=1),
    layout("grpo", rollouts=4, group=8), layout("grpo", staleness=2), layout("grpo", "separate", 8),
    layout("ppo", offload="optimizer"), layout("ppo", reward="verifier"),
]


def _emitted() -> list[Note]:
    out = []
    for lay in GRID + SPECIAL:
        launch = launch_commands(lay)
        out += [n for n in (launch.verl_reason, launch.openrlhf_reason, launch.trl_reason) if n is not None]
        out += [n for c in (launch.verl, launch.openrlhf, launch.trl) if c is not None for n in c.notes]
    return out


EMITTED = _emitted()
KEYS = frozenset(k for k in catalogue("en") if k.startswith(("launch.note.", "launch.reason.")))


def test_the_grid_emits_most_of_the_catalogues_notes_and_reasons():
    """The keys come from a run, not a hand-kept list: the grid emits nearly every note and reason key."""
    emitted = {n.key for n in EMITTED}
    assert emitted <= KEYS
    assert len(emitted) >= 0.8 * len(KEYS), sorted(KEYS - emitted)


@pytest.mark.parametrize("lang", LANGS)
def test_every_note_and_reason_is_in_the_catalogue_and_formats(lang):
    t, cat = translator(lang), catalogue(lang)
    assert {n.key for n in EMITTED} <= set(cat)
    for note in {(n.key, n.args): n for n in EMITTED}.values():
        text = t(note.key, **note.params)
        assert text and not re.search(r"\{[a-z_]+(:[^}]*)?\}", text), (note, text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_panel_labels_exist(lang):
    t = translator(lang)
    for key in ("launch.title", "launch.caption", "launch.copy", "launch.copied", "launch.flags", "launch.flag",
                "launch.value", "launch.source", "launch.switch", "launch.notes", "launch.sources", "launch.lead"):
        assert t(key)
    assert t("launch.copy_label", framework="verl") and t("launch.unavailable", framework="OpenRLHF")
    assert "0.11.2" in t("launch.version", version="OpenRLHF 0.11.2", pin="openrlhf==0.11.2")
    caption = t("launch.caption")
    assert ("starting point" in caption and "not a tuned config" in caption) if lang == "en" else "起点" in caption


# --- never raises ------------------------------------------------------------------------------------------------------

_ANY_INT = st.one_of(st.integers(-3, 80), st.integers(-10**6, 10**7), st.booleans())
_ANY_FLOAT = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 5))
_ANY_STR = st.one_of(st.sampled_from(["ppo", "grpo", "dpo", "custom", "llama3_8b", "qwen3_30b_a3b", "model",
                                      "verifier", "colocated", "separate", "vllm", "hf", "none", "optimizer",
                                      "full", "lora"]), st.text(max_size=12))


def _any_value(name: str) -> st.SearchStrategy:
    default = getattr(LaunchLayout(), name)
    if isinstance(default, str):
        return _ANY_STR
    if isinstance(default, float):
        return _ANY_FLOAT
    return _ANY_INT


@st.composite
def consistent_layouts(draw) -> LaunchLayout:
    """Layouts the lab could produce: whole nodes, engines covering their GPUs, splits that add up."""
    per_node = draw(st.sampled_from([1, 2, 4, 8]))
    nodes = draw(st.integers(1, 16))
    gpus = per_node * nodes
    tp = draw(st.sampled_from([d for d in (1, 2, 4, 8) if d <= per_node]))
    placement = draw(st.sampled_from(["colocated", "separate"])) if gpus >= 3 else "colocated"
    if placement == "colocated" and gpus % tp:
        tp = 1
    if placement == "separate":
        gen = tp * draw(st.integers(1, max(1, (gpus - 1) // tp)))
        gen = min(gen, gpus - 1)
        if gen % tp:
            tp, gen = 1, gen
        score = draw(st.integers(0, gpus - gen - 1))
        split = (gen, score, gpus - gen - score)
    else:
        split = (gpus, gpus, gpus)
    method = draw(st.sampled_from(["ppo", "grpo", "dpo"]))
    response = draw(st.integers(16, 131_072))
    prompt = draw(st.integers(16, 131_072))
    return LaunchLayout(
        method=method, arch=draw(st.sampled_from(["custom", *ARCH_MODEL_IDS])),
        policy_b=draw(st.floats(0.1, 1000)), reward=draw(st.sampled_from(["model", "verifier"])),
        rm_b=draw(st.floats(0.1, 1000)), gpus=gpus, gpus_per_node=per_node, nodes=nodes, placement=placement,
        generation_gpus=split[0], scoring_gpus=split[1], training_gpus=split[2], rollout_tp=tp,
        rollout_replicas=split[0] // tp if placement == "separate" else gpus // tp,
        gpu_memory_utilization=draw(st.floats(0.05, 1.0)), group=draw(st.integers(1, 64)),
        rollouts=draw(st.integers(1, 65_536)), kl=draw(st.sampled_from([0.0, 0.001, 0.02, 1.0])) or
        (0.1 if method == "dpo" else 0.0), epochs=draw(st.integers(1, 16)),
        prompt_tokens=prompt, prompt_max_tokens=prompt + draw(st.integers(0, 1000)),
        response_tokens=response, response_max_tokens=response + draw(st.integers(0, 30_000)),
        staleness=draw(st.integers(0, 4)) if placement == "separate" else 0,
        engine=draw(st.sampled_from(["vllm", "vllm", "hf"])), offload=draw(st.sampled_from(["none", "optimizer"])),
        tuning=draw(st.sampled_from(["full", "lora"])), prompts=draw(st.integers(0, 10**7)),
        pairs=draw(st.integers(0, 10**7)),
    )


def _check(launch: Launch) -> None:
    """Whatever came out is well formed: a command or a reason per framework, documented flags, clean shell."""
    assert isinstance(launch, Launch)
    for fw in TABLES:
        cmd, why = launch.command(fw), launch.reason(fw)
        assert (cmd is None) != (why is None)
        if why is not None:
            assert why.key in KEYS
            continue
        assert all(f.name in TABLES[fw] for f in cmd.flags)
        assert all(_SAFE.match(tok) for tok in shell_words(cmd.text))
        assert all(n.key in KEYS for n in cmd.notes)


@PROPS
@given(st.fixed_dictionaries({f: _any_value(f) for f in LaunchLayout.__slots__}))
def test_random_values_never_raise(values):
    _check(launch_commands(LaunchLayout(**values)))


@PROPS
@given(consistent_layouts())
def test_consistent_layouts_never_raise_and_are_well_formed(lay):
    launch = launch_commands(lay)
    _check(launch)
    if launch.openrlhf is not None and lay.method != "dpo":
        o = orlhf_values(launch.openrlhf)
        assert int(o["--vllm.num_engines"]) * int(o["--vllm.tensor_parallel_size"]) == lay.rollout_tp * \
            lay.rollout_replicas
        assert int(o["--rollout.batch_size"]) * int(o["--rollout.n_samples_per_prompt"]) <= lay.rollouts
    if launch.verl is not None:
        v = verl_values(launch.verl)
        assert int(v["data.train_batch_size"]) % int(v["actor_rollout_ref.actor.ppo_mini_batch_size"]) == 0


@pytest.mark.parametrize("method", ["ppo", "grpo"])
@pytest.mark.parametrize("rollouts", [512, 1000, 2048, 4096])
@pytest.mark.parametrize("train", range(2, 12))
def test_mini_batches_stay_near_128_sequences(train, rollouts, method):
    # 2,048 responses on 5 actor GPUs: 2,045 = 5 · 409 would only split into mini-batches of 5 or 2,045 (409
    # optimizer steps per step, or one); the lab fits 2,040 instead, in mini-batches of 120.  Whatever the GPUs,
    # an optimizer step stays within 2× of the lab's 128 sequences, and fitting drops less than 256 rollouts.
    lay = layout(method, "separate", 16, split=(12 - train, 4, train), rollouts=rollouts, group=8)
    launch = launch_commands(lay)
    group = 8 if method == "grpo" else 1
    o = orlhf_values(launch.openrlhf) if launch.openrlhf else None
    if o is not None:
        samples = int(o["--rollout.batch_size"]) * group
        batch = int(o["--train.batch_size"])
        assert samples % batch == 0 and batch % gpus_of(o, "actor") == 0
        assert 64 <= batch <= 256, (samples, batch)
        assert samples > rollouts - 256  # at most one largest mini-batch of rollouts left out
    if launch.verl is not None:
        v = verl_values(launch.verl)
        prompts = int(v["data.train_batch_size"])
        mini = int(v["actor_rollout_ref.actor.ppo_mini_batch_size"])
        assert prompts % mini == 0 and 64 <= mini * group <= 256, (prompts, mini)
        assert prompts * group > rollouts - 256
