"""from_result(result): the model's inputs and the GPU layout it chose, as a LaunchLayout, with the notes saying what
the mapping changed and the refusal saying why there is no launch file (launch.map.* keys, in both catalogues)."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from app.i18n import LANGS, catalogue, translator
from app.launch import launch_commands
from app.launch.layout import from_result
from app.model import evaluate, normalise
from app.model.assumptions import GPUS_PER_NODE as NODE_GPUS
from app.model.scenarios import PRESET_BY_ID, PRESETS, WALKTHROUGH


def result(**q: str):
    inputs, _ = normalise({k: [v] for k, v in q.items()})
    return evaluate(inputs)


def layout_from(r):
    return from_result(r).layout


def layout_notes(r):
    return from_result(r).notes


def layout_refusal(r):
    return from_result(r).refusal


def keys(r) -> set[str]:
    return {n.key for n in layout_notes(r)}


def test_grpo_preset_is_the_colocated_hybrid_engine_on_two_nodes():
    r = evaluate(PRESET_BY_ID["grpo"].inputs)
    lay = layout_from(r)
    # 16 H100s: ⌈16 / 8⌉ = 2 nodes of min(8, 16) = 8; the model's engine TP 8 × 16 // 8 = 2 replicas = 16 GPUs
    assert (lay.gpus, lay.nodes, lay.gpus_per_node) == (16, 2, 8)
    assert (lay.placement, lay.rollout_tp, lay.rollout_replicas) == ("colocated", 8, 2)
    # the colocated engine's share: min(0.6 · 80, usable − states / 16) = 48 GB of 80 → 0.6
    assert r.memory.engine_gb_per_gpu == pytest.approx(48.0)
    assert lay.gpu_memory_utilization == 0.6
    assert (lay.method, lay.group, lay.kl, lay.reward, lay.arch) == ("grpo", 8, 0.001, "verifier", "qwen3_8b")
    assert (lay.response_tokens, lay.response_max_tokens, lay.prompt_max_tokens) == (2048, 8192, 256)
    assert layout_refusal(r) is None


def test_separate_keeps_the_models_three_groups():
    r = evaluate(PRESET_BY_ID["scaled_rollouts"].inputs)  # 16 × A100, searched split 3 / 4 / 9
    g = r.step.gpu_groups
    lay = layout_from(r)
    assert (lay.generation_gpus, lay.scoring_gpus, lay.training_gpus) == (g.generation, g.scoring, g.training)
    assert lay.generation_gpus + lay.scoring_gpus + lay.training_gpus == lay.gpus == 16
    assert lay.rollout_tp * lay.rollout_replicas == lay.generation_gpus
    # separate engines get the usable card: 0.9 · 80 = 72 GB of 80 → 0.9
    assert lay.gpu_memory_utilization == 0.9


def test_the_engines_cover_their_gpus_and_the_command_runs_the_plans_tp():
    # 5 GPUs colocated: TP 4 leaves 1 GPU over (5 % 4), which verl and OpenRLHF refuse; the model tries the most GPUs
    # each degree covers (4 for TP 4, 5 for TP 1) and runs the faster that covers: the command's TP is the plan's
    r = result(placement="colocated", gpus="5", method="grpo", reward="verifier", rollouts="64")
    lay = layout_from(r)
    e = r.plan.engine
    assert r.plan.gpus % (e.tensor_parallel * e.pipeline_parallel) == 0
    assert (lay.rollout_tp, lay.rollout_replicas, lay.gpus) == (e.tensor_parallel, e.instances, r.plan.gpus)
    assert e.tensor_parallel * e.instances == r.plan.gpus
    assert "launch.map.tp_fit" not in keys(r)


def test_a_state_that_does_not_fit_is_refused_with_the_plans_whole_host_count():
    r = result(placement="colocated", gpus="4", gpu="a100_40g", rollouts="64", reward="verifier")
    m = from_result(r)
    assert not r.plan.fits and m.refusal.key == "launch.map.does_not_fit"
    # the fewest GPUs that fit, in whole hosts beyond one, and that state has its commands
    assert m.refusal.params["min_gpus"] == m.fit_gpus == r.plan.min_gpus > 4
    assert m.fit_gpus <= 8 or m.fit_gpus % 8 == 0
    at_min = result(placement="colocated", gpus=str(m.fit_gpus), gpu="a100_40g", rollouts="64", reward="verifier")
    assert from_result(at_min).refusal is None


@pytest.mark.parametrize(("q", "key"), [
    ({"pairs": "0", "rollouts": "0"}, "launch.map.offline_stage"),
    ({"rollouts": "0"}, "launch.map.offline_stage"),
    ({"placement": "colocated", "gpus": "12"}, "launch.map.partial_node"),
    ({"placement": "colocated", "gpus": "24", "arch": "llama3_70b", "reward": "verifier", "rollouts": "1024"},
     "launch.map.does_not_fit"),
])
def test_states_without_a_launch_file_say_why(q, key):
    assert layout_refusal(result(**q)).key == key


def test_an_engine_larger_than_a_node_gets_pipeline_stages_in_verl_only():
    """Llama-3.1-405B on 128 H100 colocated: the model's engine is TP 8 × 3 stages (24 GPUs: 810 GB in the engine's
    48 GB shares, the Megatron trainer's states on the host while it generates) would not cover 128 GPUs, so the
    search takes the fewest more stages that do, 4 (4 engines of 32).  verl sets them; OpenRLHF and TRL cannot."""
    r = result(method="grpo", arch="llama3_405b", gpus="128", gpu="h100_80g", placement="colocated",
               reward="verifier", rollouts="1024", kl="0.001")
    assert (r.step.gen.tensor_parallel, r.step.gen.pipeline) == (8, 4)   # the model's own choice now
    m = from_result(r)
    assert m.refusal is None and (m.layout.rollout_tp, m.layout.rollout_pp, m.layout.rollout_replicas) == (8, 4, 4)
    assert "launch.map.engine_pipeline" in keys(r)
    launch = launch_commands(m.layout)
    v = {f.name: f.value for f in launch.verl.flags}
    assert v["actor_rollout_ref.rollout.pipeline_model_parallel_size"] == "4"
    assert launch.verl.config == "ppo_megatron_trainer"


GRID = [result(method=m, placement=p, gpus=str(g), arch=a, gpu=gpu, staleness=str(s), reward="verifier",
               rollouts=str(ro))
        for m, p, g, a, gpu, s, ro in itertools.product(
            ("ppo", "grpo", "dpo"), ("colocated", "separate"), (1, 4, 5, 8, 12, 16, 64),
            ("custom", "llama3_8b", "llama3_70b", "deepseek_v3"), ("a100_80g", "h100_80g"), (0, 1), (64, 1024))]
GRID += [evaluate(x.inputs) for x in (*PRESETS, *WALKTHROUGH)]
GRID += [result(method="grpo", arch="llama3_405b", gpus="128", gpu="h100_80g", placement="colocated",
                reward="verifier", rollouts="1024")]  # an engine of TP 8 × 3 stages: verl gets 4 stages
GRID += [result(method="grpo", arch="qwen3_30b_a3b", gpus="32", gpu="h100_80g", placement="colocated",
                reward="verifier", rollouts="1024")]  # Megatron with expert parallelism (the model's training layout)
GRID += [result(placement="separate", gpus="256", arch="deepseek_v3", gpu="b200_180g", method=m, reward="verifier",
                rollouts="1024") for m in ("ppo", "grpo")]  # an engine of TP 8 × pipeline 2 (more than a node)


def test_every_readable_state_maps_onto_a_layout_launch_commands_can_read():
    """When layout_refusal says nothing, launch_commands never answers 'invalid layout': the mapping is consistent
    (nodes · GPUs per node = GPUs, tp · replicas = the engines' GPUs, the three groups add up)."""
    for r in GRID:
        lay = layout_from(r)
        assert lay.gpus_per_node == min(NODE_GPUS, lay.gpus) and lay.nodes == math.ceil(lay.gpus / NODE_GPUS)
        if layout_refusal(r) is not None:
            continue
        launch = launch_commands(lay)
        for why in (launch.verl_reason, launch.openrlhf_reason):
            assert why is None or why.key != "launch.reason.invalid_layout", (r.inputs.query(), why)


def test_every_map_key_is_given_and_in_both_catalogues_and_formats():
    given = {}
    for r in GRID:
        for n in (*layout_notes(r), *((layout_refusal(r),) if layout_refusal(r) else ())):
            given.setdefault((n.key, n.args), n)
    declared = {k for k in catalogue("en") if k.startswith("launch.map.")}
    declared -= {"launch.map.prompt_max_verl", "launch.map.prompt_max_openrlhf",  # the page's variants
                 "launch.map.does_not_fit_never"}  # min_gpus is None only beyond the lab's 4,096 GPUs
    assert {k for k, _ in given} == declared
    for lang in LANGS:
        t, cat = translator(lang), catalogue(lang)
        assert {k for k, _ in given} <= set(cat)
        for n in given.values():
            text = t(n.key, **n.params)
            assert text and not re.search(r"\{[a-z_]+(:[^}]*)?\}", text), (n, text)


def test_a_dpo_state_is_launched_on_dpos_own_fit_not_the_rl_loops():
    """Review mutation M5: DPO of a 7 B policy on 2 A100-80GB fits (its states, reference, activations and logits),
    while the RL loop it replaces (PPO with critic and reward model) does not; the launch reads the plan's fit, so
    DPO's commands exist.  Reading the RL loop's fit instead refuses them, and this test fails."""
    r = evaluate(normalise({"method": ["dpo"], "policy_b": ["7"], "gpus": ["2"]})[0])
    assert r.dpo.fits and not r.memory.fits and r.plan.kind == "dpo" and r.plan.fits
    m = from_result(r)
    assert m.refusal is None
    state = launch_commands(m.layout)
    assert state.openrlhf is not None and state.trl is not None
