"""Every exported command against the real framework release it names (tests/launch/checks.py): verl's overrides
composed by Hydra over verl 0.9.1's config tree, OpenRLHF's flags in 0.11.2's argparse, TRL's in its 1.16.0
dataclasses; 0 rejected keys, 0 legacy keys, 0 unknown flags, over the presets and the states the issue names, in
both languages (the page and the API answer with the same checked text).  A mutated flag makes the checker fail,
naming it."""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import urlencode

import pytest
from launch.checks import (
    Problems,
    check,
    check_openrlhf,
    check_trl,
    check_verl,
    compose_errors,
    full_compose_errors,
    verl_facts,
    verl_overrides,
)
from launch.wheels import wheel

from app.launch import FILES, LaunchLayout, file_text, for_state, launch_commands
from app.launch.common import Command, Flag, render
from app.launch.releases import CHECKED, FRAMEWORKS, TRL, VERL
from app.launch.sources import SOURCES
from app.model import evaluate, normalise
from app.model.scenarios import PRESET_BY_ID, PRESETS

pytestmark = pytest.mark.usefixtures("wheels")


def _state(base: str | None = None, **q: object):
    query = dict(PRESET_BY_ID[base].inputs.query()) if base else {}
    query.update({k: str(v) for k, v in q.items()})
    inputs, _ = normalise({k: [v] for k, v in query.items()})
    return inputs


STATES = {
    **{f"preset_{p.id}": p.inputs for p in PRESETS},
    "ppo_reward_model": _state(method="ppo", reward="model", placement="colocated", gpus=16, arch="llama3_8b",
                               gpu="h100_80g", rollouts=512),
    "ppo_reward_model_async": _state(method="ppo", reward="model", placement="separate", staleness=1, gpus=32,
                                     arch="llama3_8b", gpu="h100_80g", rollouts=1024),
    "grpo_async": _state("grpo", placement="separate", staleness=2, gpus=32),
    "grpo_separate_sync": _state("grpo", placement="separate", staleness=0, gpus=16),
    "grpo_lora": _state("grpo", tuning="lora"),
    "dpo_lora_offload": _state("dpo", tuning="lora", offload="optimizer"),
    "moe_qwen3_30b_a3b": _state("grpo", arch="qwen3_30b_a3b"),
    "llama70b_offload": _state(method="ppo", arch="llama3_70b", offload="optimizer", placement="colocated", gpus=64,
                               gpu="h100_80g", reward="model", rm_b=70, rollouts=1024),
    "hf_engine": _state("grpo", engine="hf"),
    # the model's own Megatron layouts (Step.training_layout): expert parallelism, then TP × PP × EP
    "megatron_moe_30b": _state(method="grpo", arch="qwen3_30b_a3b", gpus=32, gpu="h100_80g", placement="colocated",
                               reward="verifier", rollouts=1024, kl=0.001),
    # NeMo RL's 1-step-off halves: 128 generating, 128 training that also score (verl's trainer pool is scoring +
    # training, so a searched split with a scoring group of its own gives verl a pool Megatron's TP × PP does not
    # divide: launch.reason.megatron_split)
    "megatron_235b_async": _state(method="grpo", arch="qwen3_235b_a22b", gpus=256, gpu="h100_80g",
                                  placement="separate", staleness=1, reward="verifier", rollouts=2048, kl=0.001,
                                  generation_gpus=128),
    "megatron_235b_engine_pipeline": _state(method="grpo", arch="qwen3_235b_a22b", gpus=128, gpu="h100_80g",
                                            placement="colocated", reward="verifier", rollouts=1024, kl=0.001),
    "megatron_405b_async": _state(method="ppo", arch="llama3_405b", gpus=128, gpu="b200_180g", placement="separate",
                                  staleness=1, reward="model", rm_b=70, rollouts=1024),
}
# Layouts the model does not choose yet (Megatron with tensor, pipeline, expert and context parallelism): built
# directly, so the Megatron config and its keys are checked too.
LAYOUTS = {
    "megatron_grpo_moe": LaunchLayout(method="grpo", arch="qwen3_235b_a22b", policy_b=235, reward="verifier", gpus=64,
                                      nodes=8, placement="colocated", generation_gpus=64, scoring_gpus=64,
                                      training_gpus=64, rollout_tp=8, rollout_replicas=8, rollout_ep=8,
                                      train_backend="megatron", train_tp=4, train_pp=4, train_ep=8, train_cp=1,
                                      kl=0.001, rollouts=2048, group=16, offload="optimizer"),
    "megatron_ppo_async": LaunchLayout(method="ppo", arch="llama3_70b", policy_b=70, reward="model", rm_b=70, gpus=48,
                                       nodes=6, placement="separate", generation_gpus=16, scoring_gpus=8,
                                       training_gpus=24, rollout_tp=8, rollout_replicas=2, staleness=1,
                                       train_backend="megatron", train_tp=8, train_pp=1, train_ep=1, train_cp=2,
                                       rollouts=1024),
}


def _commands() -> list[tuple[str, Command]]:
    out = []
    for name, inputs in STATES.items():
        state = for_state(evaluate(inputs))
        out += [(name, c) for fw in ("verl", "openrlhf", "trl") if (c := state.command(fw)) is not None]
    for name, lay in LAYOUTS.items():
        launch = launch_commands(lay)
        out += [(name, c) for c in (launch.verl, launch.openrlhf, launch.trl) if c is not None]
    return out


COMMANDS = _commands()


def test_the_states_give_commands_of_every_framework_and_the_megatron_config():
    frameworks = {c.framework for _, c in COMMANDS}
    assert frameworks == {"verl", "openrlhf", "trl"}
    per = {fw: sum(c.framework == fw for _, c in COMMANDS) for fw in frameworks}
    assert min(per.values()) >= 5, per
    megatron = {n for n, c in COMMANDS if c.config == "ppo_megatron_trainer"}
    assert {"megatron_moe_30b", "megatron_235b_async", "megatron_grpo_moe"} <= megatron, megatron
    assert {n for n, _ in COMMANDS} >= {"preset_grpo", "preset_dpo", "ppo_reward_model", "grpo_async", "grpo_lora",
                                        "moe_qwen3_30b_a3b", "llama70b_offload", "megatron_grpo_moe"}


@pytest.mark.parametrize(("name", "cmd"), COMMANDS, ids=[f"{n}-{c.framework}" for n, c in COMMANDS])
def test_the_release_accepts_every_key_and_flag(name, cmd):
    problems = check(cmd)
    assert not problems, f"{name}, {cmd.version}: {problems}"


def test_verls_rollout_asserts_hold():
    """What verl 0.9.1's RolloutConfig asserts at start-up (verl/workers/config/rollout.py, read here as text):
    expert_parallel_size = tensor_model_parallel_size × data_parallel_size (DP is left at 1)."""
    source = wheel(VERL).text("verl/workers/config/rollout.py")
    assert "self.expert_parallel_size == (self.tensor_model_parallel_size * self.data_parallel_size)" in source
    seen = 0
    for _, cmd in COMMANDS:
        v = {f.name: f.value for f in cmd.flags}
        ep = v.get("actor_rollout_ref.rollout.expert_parallel_size")
        if cmd.framework == "verl" and ep is not None:
            seen += 1
            assert ep == v["actor_rollout_ref.rollout.tensor_model_parallel_size"]
    assert seen >= 1


def test_counts_over_all_commands_are_zero():
    total = Problems()
    for _, cmd in COMMANDS:
        p = check(cmd)
        total.rejected += p.rejected
        total.legacy += p.legacy
        total.unknown += p.unknown
    assert (len(total.rejected), len(total.legacy), len(total.unknown)) == (0, 0, 0), str(total)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_both_languages_export_the_checked_commands(client, lang):
    """The API (and so the .sh download and the page, built from the same state) answers with exactly the checked
    text, whatever the language."""
    for name, inputs in STATES.items():
        state = for_state(evaluate(inputs))
        r = client.get(f"/api/launch?{urlencode(inputs.query())}&lang={lang}")
        assert r.status_code == 200, (name, r.text)
        for fw, answer in r.json()["frameworks"].items():
            cmd = state.command(fw)
            assert answer["command"] == (cmd.text if cmd else None), (name, fw)


# --- the checkers fail when they should -------------------------------------------------------------------------


def _mutated(cmd: Command, old: str, new: str) -> Command:
    flags = tuple(replace(f, name=new) if f.name == old else f for f in cmd.flags)
    assert flags != cmd.flags, f"{old} not in the command"
    style = "hydra" if cmd.framework == "verl" else "dashes"
    tokens = [[f"{f.name}={f.value}"] if style == "hydra" else ([f.name] if f.value is None else [f.name, f.value])
              for f in flags]
    return replace(cmd, flags=flags, text=render(cmd.launcher, tokens))


GRPO = for_state(evaluate(PRESET_BY_ID["grpo"].inputs))
PPO_RM = for_state(evaluate(STATES["ppo_reward_model"]))


@pytest.mark.parametrize(("framework", "state", "old", "new", "kind"), [
    # the audit's fatal rename, put back: Hydra rejects it
    ("verl", PPO_RM, "critic.fsdp.optimizer_offload", "critic.model.fsdp_config.optimizer_offload", "rejected"),
    ("verl", GRPO, "data.max_prompt_length", "data.max_prompt_len", "rejected"),
    # the legacy reward keys: they compose, and main_ppo ignores them
    ("verl", GRPO, "reward.custom_reward_function.path", "custom_reward_function.path", "legacy"),
    ("verl", PPO_RM, "reward.reward_model.enable", "reward_model.enable", "legacy"),
    ("openrlhf", GRPO, "--rollout.batch_size", "--rollout.batchsize", "unknown"),
    ("openrlhf", GRPO, "--train.colocate_all", "--colocate_all_models", "unknown"),  # the ≤ 0.9 flat name
    ("trl", GRPO, "--num_generations", "--num_generation", "unknown"),
    ("trl", GRPO, "--max_completion_length", "--max_prompt_length", "unknown"),  # gone from GRPOConfig in 1.x
])
def test_a_misspelt_flag_fails_the_check_and_is_named(framework, state, old, new, kind):
    cmd = state.command(framework)
    assert not check(cmd)
    bad = check(_mutated(cmd, old, new))
    assert any(entry.startswith(new) for entry in getattr(bad, kind)), str(bad)
    entries = [*bad.rejected, *bad.legacy, *bad.unknown]
    assert [e.split(" ")[0] for e in entries] == [new], entries


def test_a_switch_given_a_value_or_a_value_flag_given_none_is_rejected():
    cmd = GRPO.command("openrlhf")
    flags = tuple(Flag(f.name, "True", f.source) if f.name == "--train.colocate_all" else f for f in cmd.flags)
    assert "--train.colocate_all" in str(check_openrlhf(replace(cmd, flags=flags)))
    trl = GRPO.command("trl")
    flags = tuple(Flag(f.name, None, f.source) if f.name == "--beta" else f for f in trl.flags)
    assert "--beta" in str(check_trl(replace(trl, flags=flags)))


def test_the_fast_path_agrees_with_a_full_compose():
    """One command composed the slow way (Hydra's compose with every override) gives the same verdict: accepted,
    and the audit's renamed key rejected with Hydra's own message."""
    cmd = PPO_RM.command("verl")
    config, overrides = verl_overrides(cmd)
    config = config or verl_facts()[1]
    assert full_compose_errors(config, overrides) == compose_errors(config, overrides) == []
    renamed = [o.replace("critic.fsdp.", "critic.model.fsdp_config.") for o in overrides]
    slow, fast = full_compose_errors(config, renamed), compose_errors(config, renamed)
    assert len(fast) == 1 and fast[0].startswith("critic.model.fsdp_config.optimizer_offload")
    assert slow and "critic.model.fsdp_config.optimizer_offload" in slow[0] and slow[0] in fast[0]


def test_the_legacy_rule_is_read_from_the_release():
    """main_ppo 0.9.1 does not call migrate_legacy_reward_impl; the legacy sections are the reward ones."""
    _, config, legacy, migrates = verl_facts()
    assert config == "ppo_trainer" and not migrates
    assert {"reward_model", "custom_reward_function"} <= legacy
    assert not check_verl(GRPO.command("verl")).legacy


# --- versions, sources and templates ----------------------------------------------------------------------------


def test_each_command_names_its_release_in_its_header_and_version():
    for _, cmd in COMMANDS:
        release = next(r for r in FRAMEWORKS if r.framework == cmd.framework)
        assert cmd.text.startswith(f"# {release.pin}\n") and cmd.version == release.label


_GITHUB = re.compile(r"^https://github\.com/([^/]+/[^/]+)/blob/([^/]+)/(.+)$")


def test_source_links_point_at_the_release_tags_and_files_of_the_wheel():
    releases = {r.repo: r for r in CHECKED}
    for sid, (_, url) in SOURCES.items():
        m = _GITHUB.match(url)
        if m is None:
            continue
        repo, tag, path = m.groups()
        assert tag != "main" and repo in releases, (sid, url)
        release = releases[repo]
        assert tag == release.tag, (sid, url)
        inner = path.removeprefix(release.src)
        if not inner.startswith("docs/"):
            assert wheel(release).has(inner), (sid, url)


def test_the_accelerate_templates_are_zero3_like_trls_own():
    own = {line.split(":")[0].strip() for line in wheel(TRL).text("trl/accelerate_configs/zero3.yaml").splitlines()
           if ":" in line}
    for name in ("trl_zero3.yaml", "trl_zero3_offload.yaml"):
        keys = {line.split(":")[0].strip() for line in file_text(name).splitlines()
                if ":" in line and not line.startswith("#")}
        assert keys <= own, keys - own
        assert "zero_stage: 3" in file_text(name)
    assert "offload_optimizer_device: cpu" in file_text("trl_zero3_offload.yaml")


def test_the_reward_templates_have_the_signature_each_framework_calls():
    import ast

    def params(name: str, func: str) -> list[str]:
        tree = ast.parse(file_text(name))
        fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == func)
        return [a.arg for a in fn.args.args]

    from launch.checks import _calls  # noqa: PLC0415

    from app.launch.releases import OPENRLHF

    verl_src = wheel(VERL).text("verl/utils/reward_score/__init__.py")
    default = next(n for n in ast.parse(verl_src).body if isinstance(n, ast.FunctionDef)
                   and n.name == "default_compute_score")
    assert params("verl_reward.py", "compute_score") == [a.arg for a in default.args.args][:4]
    agent = wheel(OPENRLHF).text("openrlhf/utils/agent.py")
    assert "reward_module.reward_func" in agent and len(params("openrlhf_reward.py", "reward_func")) == 3
    grpo = wheel(TRL).text("trl/trainer/grpo_trainer.py")
    call = next(c for c in _calls(grpo, "reward_func") if any(k.arg == "completions" for k in c.keywords))
    assert {k.arg for k in call.keywords if k.arg} <= {*params("trl_reward.py", "reward_fn"), "completion_ids"}
    assert set(FILES) == {f for _, c in COMMANDS for f in c.files}


def test_verls_checkpoint_note_says_what_its_trainer_does_at_the_last_step() -> None:
    # verl 0.9.1's RayPPOTrainer.fit saves when save_freq > 0 and (is_last_step or step % save_freq == 0): a default
    # 61-step run with an interval of 100 still ends with a checkpoint, and the note says so
    source = wheel(VERL).text("verl/trainer/ppo/ray_trainer.py")
    save = source[source.index("self.config.trainer.save_freq > 0 and ("):][:200]
    assert "is_last_step" in save
    state = for_state(evaluate(PRESET_BY_ID["grpo"].inputs))
    verl = state.command("verl")
    assert verl is not None and "launch.note.checkpoints_last" in {n.key for n in verl.notes}
