"""The walkthrough: twelve steps, each a complete workload, and the figures each reveal quotes come from the model.

Every placeholder of a reveal must be a figure ``walk_figures(n)`` computes (so the text never retypes a number),
and the figures must say what the reveal claims (the relations below, with the arithmetic written out where a
figure is hand-computable).
"""

from __future__ import annotations

import math
import string

import pytest

from app.i18n import LANGS, translator
from app.model import evaluate, normalise
from app.model.assumptions import METER_HOT
from app.model.inputs import STEP_MAX
from app.model.meters import METER_IDS
from app.model.scenarios import WALKTHROUGH, walk_figures
from app.model.stages import NODE_IDS

STEPS = [w.number for w in WALKTHROUGH]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_step_max_follows_the_walkthrough() -> None:
    assert STEP_MAX == len(WALKTHROUGH) == 13
    assert list(range(1, STEP_MAX + 1)) == STEPS


@pytest.mark.parametrize("n", STEPS)
def test_each_step_is_a_complete_normalised_workload(n: int) -> None:
    step = WALKTHROUGH[n - 1]
    assert step.inputs.step == n
    assert step.focus in (*METER_IDS, *NODE_IDS)
    assert normalise(step.inputs.query()) == (step.inputs, ())  # its link reopens exactly this state


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", STEPS)
def test_every_reveal_quotes_only_model_figures(lang: str, n: int) -> None:
    t = translator(lang)
    figures = walk_figures(n)
    assert all(isinstance(v, int | float) and math.isfinite(v) for v in figures.values()), figures
    for part in ("title", "question", "reveal", "numbers", "takeaway"):
        assert t.has(f"walk.{n}.{part}")
    for part in ("reveal", "numbers"):  # the short idea and the full figures
        wanted = _fields(t.messages[f"walk.{n}.{part}"])
        assert wanted, f"step {n}: the {part} quotes no figure"
        assert wanted <= set(figures), sorted(wanted - set(figures))
        text = str(t.markup(f"walk.{n}.{part}", **figures))
        assert "{" not in text and "}" not in text
    for part in ("title", "question", "takeaway"):  # only the reveal and the numbers take arguments
        assert _fields(t.messages[f"walk.{n}.{part}"]) == set()


def test_walk_figures_is_a_fresh_dict_each_time() -> None:
    walk_figures(9)["states_gb"] = -1.0
    assert walk_figures(9)["states_gb"] == 140.0


# --- the first edition's steps, on the second edition's model ----------------------------------------------------


def test_steps_1_to_3_sft_and_reward_model() -> None:
    one, two, three = walk_figures(1), walk_figures(2), walk_figures(3)
    # 7B at 16 B/param = 112 GB; over 8 GPUs 14 GB, 19 % of 72 GB usable (90 % of 80 GB)
    assert one["states_gb"] == pytest.approx(112.0) and one["per_gpu_gb"] == pytest.approx(14.0)
    assert one["mem_pct"] == pytest.approx(100 * 14 / 72)
    # SFT: 6 · 7e9 · 13,000 · 1,536 tokens / (8 · 312e12 · 0.35) = 8.387e17 / 8.736e14 = 960 s
    assert one["sft_s"] == pytest.approx(6 * 7e9 * 13_000 * 1_536 / (8 * 312e12 * 0.35))
    # what it costs (read36: step 1 asked and did not say): 960 s × 8 GPUs / 3,600 = 2.13 GPU-hours, × $2.79 per
    # A100 80GB GPU-hour (prices.toml, Lambda on-demand) = $5.95
    assert one["gpu_h"] == pytest.approx(960 * 8 / 3600) and one["usd_per_gpu_h"] == 2.79
    assert one["usd"] == pytest.approx(960 * 8 / 3600 * 2.79) and round(one["usd"], 2) == 5.95
    # one GPU: 112 / 72 = 156 % of usable, at least 2 GPUs
    assert two["mem_pct"] == pytest.approx(100 * 112 / 72) and two["min_gpus"] == 2
    assert two["usable_pct"] == pytest.approx(90.0)
    # RM: 6 · 7e9 · 2 · 161,000 · 1,536 / 8.736e14 = 23,778 s ≈ 6.6 h, about 25× the SFT pass
    assert three["rm_s"] == pytest.approx(6 * 7e9 * 2 * 161_000 * 1_536 / (8 * 312e12 * 0.35))
    assert round(three["ratio"]) == 25
    # "bytes per parameter × the policy's size" is the model states, and step 3's reward model is the costliest stage
    assert one["bytes_per_param"] * one["policy_b"] == pytest.approx(one["states_gb"]) == two["states_gb"]
    assert three["rm_s"] > three["sft_s"]


def test_steps_4_to_8_quote_the_model() -> None:
    four, five, six, seven, eight = (walk_figures(n) for n in (4, 5, 6, 7, 8))
    r4 = evaluate(WALKTHROUGH[3].inputs)
    assert four["total_s"] == r4.step.total_s and four["generation_s"] == r4.step.generation_s
    assert four["gen_gpus"] + four["score_gpus"] + four["train_gpus"] == 8
    assert four["overlap_s"] <= four["scoring_s"]  # "scoring runs beside generation, this much of it hidden"
    assert four["states_gb"] == pytest.approx(252.0)  # 112 actor + 112 critic + 14 reference + 14 reward model
    # step 5 keeps the searched split's promise: never slower than the fixed split
    assert five["total_s"] <= five["fixed_s"] and five["ratio"] == pytest.approx(five["total_s"] / four["total_s"])
    assert five["eval_rollouts"] == 100 * 2_048
    assert 1 < five["ratio"] < 2  # "not twice", for four times the rollouts on twice the GPUs
    assert five["eval_risk"] >= METER_HOT  # "something else turned red" (the hot band)
    # step 6: x = 4 · 0.01 / 0.002 = 20, risk = 100 · 20 / 21 = 95; training 4× step 4's (4 epochs)
    assert six["pressure"] == pytest.approx(20.0) and six["risk"] == 95
    # (4 epochs are 4× the compute; the ZeRO-3 floor and the layout it lands on keep the ratio near, not at, 4)
    assert six["training_ratio"] == pytest.approx(4.0, rel=0.25) and six["kl_ratio"] == pytest.approx(5.0)
    # step 4's reveal: scoring runs beside generation, as much of it hidden as generation lasts
    assert four["overlap_s"] == pytest.approx(min(four["scoring_s"], four["generation_s"]))
    # "already the longest phase": training was the longest phase at step 4 too
    assert four["training_s"] >= max(four["generation_s"], four["scoring_s"])
    # step 7: 10 · 2,048 = 20,480 rollouts between evals, against 100 · 2,048; the step does not change
    assert (seven["eval_rollouts"], seven["before_eval_rollouts"]) == (20_480, 204_800)
    assert seven["eval_risk"] < seven["before_eval_risk"] and seven["total_s"] == five["total_s"]
    # step 8: DPO (16 + 2) · 7 = 126 GB against PPO's 252 GB
    assert (eight["dpo_gb"], eight["ppo_gb"]) == (pytest.approx(126.0), pytest.approx(252.0))


# --- the 2026 steps ------------------------------------------------------------------------------------------------


def test_step_9_drop_the_critic() -> None:
    f = walk_figures(9)
    i = WALKTHROUGH[8].inputs
    assert (i.method, i.group, i.kl, i.reward) == ("grpo", 8, 0.001, "model")
    assert evaluate(i).memory.models.critic_gb == 0.0
    # states: 16 · 7 (actor) + 2 · 7 (reference) + 2 · 7 (reward model) = 140 GB, against 252 GB with the critic
    assert f["states_gb"] == pytest.approx(140.0) and f["ppo_states_gb"] == pytest.approx(252.0)
    # training work halves: the actor's 6N FLOPs per token without the equal-sized critic's
    assert f["training_gpu_s"] == pytest.approx(f["ppo_training_gpu_s"] / 2)
    assert f["training_s"] < f["ppo_training_s"] and f["total_s"] < f["ppo_total_s"]
    # the fullest GPU while it trains holds less (the generation GPUs' engine reserves its share either way)
    assert f["train_gb"] < f["ppo_train_gb"] and f["min_gpus"] < f["ppo_min_gpus"]
    assert f["prompts_per_step"] == 512 / 8 < f["rollouts"]  # "a step learns from fewer prompts"


def test_step_10_the_longest_response_sets_the_step() -> None:
    f = walk_figures(10)
    i = WALKTHROUGH[9].inputs
    assert (i.response_tokens, i.response_max_tokens, i.placement) == (2_048, 8_192, "colocated")
    # a synchronous step cannot end before its longest response, and the drain comes on top of the batch's own
    # time (continuous batching over the length distribution: app/model/decode.py)
    assert f["generation_s"] >= max(f["batch_s"], f["floor_s"])
    assert f["tail_s"] == pytest.approx(f["generation_s"] - f["batch_s"]) and f["tail_s"] > 0
    assert f["tail_pct"] == pytest.approx(100 * f["tail_s"] / f["generation_s"])
    # no tail: generation is the batch's own time; twice the GPUs do not move the floor
    assert f["flat_generation_s"] == pytest.approx(f["batch_s"]) and f["flat_total_s"] < f["total_s"]
    # twice the GPUs halve the bulk, not the drain: generation falls, far from half, and stays above the floor
    assert f["wide_gpus"] == 32 and f["generation_s"] / 2 < f["wide_generation_s"] < f["generation_s"]
    assert f["wide_generation_s"] >= f["floor_s"]
    assert f["total_s"] / 2 < f["wide_total_s"] < f["total_s"]  # "falls, far from half"


def test_step_11_colocate_or_split() -> None:
    f = walk_figures(11)
    assert WALKTHROUGH[10].inputs.placement == "separate"
    assert f["gen_gpus"] + f["score_gpus"] + f["train_gpus"] == f["gpus"] == 16
    assert f["total_s"] <= f["fixed_s"]  # the searched split is never slower than the fixed one
    assert f["co_total_s"] < f["total_s"]  # the reveal: on 16 GPUs the hybrid engine wins
    assert f["tp"] * f["replicas"] <= f["gen_gpus"]
    assert f["co_sync_ms"] == pytest.approx(1000 * f["co_sync_s"])
    # "slower: generation gets only part of the GPUs, and part of the GPU-time is idle"
    assert f["gen_gpus"] < f["gpus"] and f["idle_pct"] > 0 and f["co_generation_s"] < f["generation_s"]


def test_step_12_one_step_off_policy() -> None:
    f = walk_figures(12)
    i = WALKTHROUGH[11].inputs
    assert (i.staleness, i.placement) == (1, "separate")
    # step = max(generation, scoring + training) + sync (MODEL-2026 §6)
    assert f["total_s"] == pytest.approx(max(f["generation_s"], f["score_train_s"]) + f["sync_s"])
    assert f["score_train_s"] == pytest.approx(f["scoring_s"] + f["training_s"])
    # never longer than the synchronous step, on this layout or on step 11's searched split
    assert f["total_s"] <= f["same_layout_sync_s"] and f["total_s"] < f["sync_total_s"]
    # "Keep the split": step 11's split (read 37: the search took 4 / 4 / 8 in step and 8 / 3 / 5 a step ahead, so
    # the reveal's 174 s "synchronous split" was not step 11's 195 s); the synchronous split is step 11's step
    eleven = walk_figures(11)
    assert [f[k] for k in ("gen_gpus", "score_gpus", "train_gpus")] == [eleven[k] for k in ("gen_gpus", "score_gpus",
                                                                                         "train_gpus")]
    assert f["sync_total_s"] == pytest.approx(eleven["total_s"]) and f["co_total_s"] == eleven["co_total_s"]
    assert f["saved_pct"] == pytest.approx(100 * (1 - f["total_s"] / f["sync_total_s"]))
    # "the longer of the two sides, here generation" (read 38: the answer never named it)
    assert f["generation_s"] >= f["score_train_s"]
    # the reveal: all of scoring and training hide behind generation (the async search balances the two)
    assert f["overlap_s"] == pytest.approx(f["score_train_s"])
    # the equal-GPU comparison (issue 26): on the same 16 GPUs async beats the colocated synchronous step, and
    # partial rollouts (no drain) beat it by more
    assert f["co_speedup"] == pytest.approx(f["co_total_s"] / f["total_s"]) and f["co_speedup"] > 1
    assert f["partial_total_s"] <= f["total_s"] and f["partial_speedup"] > f["co_speedup"]
    # "against the synchronous split": step 11's state, the same layout without staleness
    assert f["same_layout_sync_s"] == f["sync_total_s"]


def test_step_13_the_environment_becomes_the_bottleneck() -> None:
    """8 turns with a 60 s sandbox between them, synchronous: the batch waits 7 · 60 = 420 s, more than the engine
    decodes; the step is generation (decoding + waits) + scoring + training + refit, and an asynchronous agent loop
    cannot hide the longest trajectory's own 7 waits."""
    from app.model.evaluate import evaluate
    from app.model.predictions import prediction

    f = walk_figures(13)
    assert (f["turns"], f["env_latency_s"], f["waits"]) == (8, 60.0, 7)
    assert f["env_wait_s"] == pytest.approx(7 * 60.0)
    assert f["decode_s"] + f["env_wait_s"] == pytest.approx(f["generation_s"])
    assert f["total_s"] == pytest.approx(f["generation_s"] + f["scoring_s"] + f["training_s"] + f["sync_s"])
    assert f["env_wait_s"] > max(f["decode_s"], f["scoring_s"], f["training_s"])
    assert f["async_wait_s"] > 0 and f["async_total_s"] < f["total_s"]
    assert prediction(13).answer_value == "env"
    assert evaluate(WALKTHROUGH[12].inputs).stage == "agentic"
