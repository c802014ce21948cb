"""layout_from(result): the model's inputs and the GPU layout it chose, as a LaunchLayout; layout_notes and
layout_refusal say what the mapping changed or why there is no launch file (launch.map.* keys, in both catalogues)."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from app.i18n import LANGS, catalogue, translator
from app.model import evaluate, normalise
from app.model.launch import (
    NODE_GPUS,
    TEACHING_GPU_MEMORY_UTILIZATION,
    all_map_keys,
    launch_commands,
    layout_from,
    layout_notes,
    layout_refusal,
)
from app.model.scenarios import PRESET_BY_ID, PRESETS, WALKTHROUGH


def result(**q: str):
    inputs, _ = normalise({k: [v] for k, v in q.items()})
    return evaluate(inputs)


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


def test_a_tp_that_does_not_divide_the_gpus_is_lowered_and_said():
    r = result(placement="colocated", gpus="5", method="grpo", reward="verifier", rollouts="64")
    lay = layout_from(r)
    assert r.step.gpu_groups.engine_tp == 4            # the model: TP 4, ⌊5 / 4⌋ = 1 replica
    assert (lay.rollout_tp, lay.rollout_replicas) == (1, 5)  # the largest power of 2 dividing 5 is 1: 1 × 5 = 5
    assert "launch.map.tp_fit" in keys(r)


def test_one_node_of_a_larger_cluster_uses_that_node_and_says_so():
    r = result(placement="separate", gpus="10", method="grpo", arch="llama3_8b", gpu="h100_80g",
               reward="verifier", rollouts="128")
    lay = layout_from(r)
    assert lay.gpus == 8 and lay.nodes == 1  # the model's layout sums to one node: 8 of the 10 GPUs
    assert "launch.map.one_node" in keys(r)
    note = next(n for n in layout_notes(r) if n.key == "launch.map.one_node")
    assert note.params == {"used": 8, "gpus": 10, "idle": 2}


def test_no_engine_share_falls_back_to_the_teaching_value():
    r = result(placement="colocated", gpus="4", gpu="a100_40g", rollouts="64", reward="verifier")
    assert r.memory.engine_gb_per_gpu == 0
    assert layout_from(r).gpu_memory_utilization == TEACHING_GPU_MEMORY_UTILIZATION
    assert {"launch.map.teaching_memory", "launch.map.does_not_fit"} <= keys(r)


@pytest.mark.parametrize(("q", "key"), [
    ({"pairs": "0", "rollouts": "0"}, "launch.map.offline_stage"),
    ({"rollouts": "0"}, "launch.map.offline_stage"),
    ({"placement": "colocated", "gpus": "12"}, "launch.map.partial_node"),
    ({"placement": "separate", "gpus": "256", "arch": "deepseek_v3", "gpu": "b200_180g", "method": "grpo",
      "reward": "verifier", "rollouts": "1024"}, "launch.map.engine_spans_nodes"),
    ({"placement": "colocated", "gpus": "24", "arch": "llama3_70b", "reward": "verifier", "rollouts": "1024"},
     "launch.map.engine_does_not_fit"),
])
def test_states_without_a_launch_file_say_why(q, key):
    assert layout_refusal(result(**q)).key == key


GRID = [result(method=m, placement=p, gpus=str(g), arch=a, gpu=gpu, staleness=str(s), reward="verifier",
               rollouts=str(ro))
        for m, p, g, a, gpu, s, ro in itertools.product(
            ("ppo", "grpo", "dpo"), ("colocated", "separate"), (1, 4, 5, 8, 12, 16, 64),
            ("custom", "llama3_8b", "llama3_70b", "deepseek_v3"), ("a100_80g", "h100_80g"), (0, 1), (64, 1024))]
GRID += [evaluate(x.inputs) for x in (*PRESETS, *WALKTHROUGH)]
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
    assert {k for k, _ in given} == all_map_keys()
    for lang in LANGS:
        t, cat = translator(lang), catalogue(lang)
        assert all_map_keys() <= set(cat)
        for n in given.values():
            text = t(n.key, **n.params)
            assert text and not re.search(r"\{[a-z_]+(:[^}]*)?\}", text), (n, text)
