"""reward=judge (issue 36, item 7): a generative LLM judge's own prefill and decode charged to scoring, with the
arithmetic written out; the diagram's reward node says "judge"; a larger judge never shortens scoring."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pytest import approx

from app.model.assumptions import GPUS
from app.model.evaluate import evaluate
from app.model.inputs import WorkloadInputs, normalise
from app.model.physics.architecture import custom_arch, forward_flops_per_token
from app.model.physics.generation import generation
from app.model.physics.judge import judge_generation, judge_seconds
from app.model.physics.step import ppo_step
from app.model.physics.workload import workload

A100 = GPUS["a100_80g"]


def test_the_inputs_and_their_defaults() -> None:
    i, notices = normalise({"reward": "judge"})
    assert (i.reward, i.judge_b, i.judge_tokens, notices) == ("judge", 7, 512, ())
    assert "judge_b" not in WorkloadInputs(reward="judge").query()  # a default stays out of the URL
    assert WorkloadInputs(reward="judge", judge_b=70).query()["judge_b"] == "70"


def test_the_judges_pass_written_out() -> None:
    """A 7 B judge (the custom rule's shape) reads 512 rollouts of 512 + 1,024 tokens on 8 A100s and writes 512 tokens
    each: its prefill is 512 · 1,536 · F(768) / (8 · 312e12 · 0.45), F = 2 · 7e9 + attention; then its decode is the
    rollout engine's roofline for 512 tokens — the same ``generation`` the policy's engine uses."""
    g = judge_generation(7.0, A100, 512, 1536, 512, 8)
    arch = custom_arch(7.0)
    prefill = 512 * 1536 * forward_flops_per_token(arch, 768) / (8 * 312e12 * 0.45)
    assert prefill == approx(9.9, abs=0.1)  # 2 · 7e9 · 786,432 = 1.10e16 FLOPs over 1.12e15 FLOP/s, + attention
    same = generation(arch, 512, 1536, 512, 8, A100, 0.6 * 80)
    assert g.seconds == same.seconds > prefill
    assert judge_seconds(0.0, A100, 512, 1536, 512, 8) == 0.0  # no judge, no pass


def test_scoring_is_the_reward_models_minus_its_forward_plus_the_judges_pass() -> None:
    """Colocated PPO on 8 A100s (the default workload): a learned 7 B reward model costs scoring its forward over
    the 786,432 tokens, 2 · 7e9 · 786,432 / (8 · 312e12 · 0.45) ≈ 9.8 s; a 7 B judge costs its pass instead."""
    model = WorkloadInputs(reward="model")
    judge = WorkloadInputs(reward="judge")
    w_m, w_j = workload(model, A100), workload(judge, A100)
    rm_forward = (w_m.scoring_score_flops - w_j.scoring_score_flops) / (8 * 312e12 * 0.45)
    assert rm_forward == approx(2 * 7e9 * 786_432 / (8 * 312e12 * 0.45), rel=0.03)
    s_m, s_j = ppo_step(model, A100), ppo_step(judge, A100)
    pass_s = judge_seconds(7.0, A100, 512, 1536.0, 512, 8)
    assert s_j.scoring_s == approx(s_m.scoring_s - rm_forward + pass_s, rel=1e-9)
    assert s_j.total_s - s_m.total_s == approx(pass_s - rm_forward, rel=1e-9)
    # its weights are the reward model's lane: 2 B · judge_b
    assert workload(WorkloadInputs(reward="judge", judge_b=70), A100).mem.reward_gb == 140.0


def test_placed_apart_the_scoring_gpus_hold_the_judge() -> None:
    """A 70 B judge (140 GB) in a 0.6 · 80 = 48 GB share per GPU needs at least 3 scoring GPUs for its weights."""
    r = evaluate(WorkloadInputs(reward="judge", judge_b=70, method="grpo", kl=0.001, placement="separate", gpus=16))
    assert r.step.groups.scoring >= 3
    g = judge_generation(70.0, A100, 512, 1536, 512, r.step.groups.scoring)
    assert g.fits


def test_the_diagram_says_judge() -> None:
    r = evaluate(WorkloadInputs(reward="judge", method="grpo", kl=0.001, pairs=0))
    assert r.stage == "grpo"  # a judge needs no preference pairs, as a verifier
    assert r.nodes["reward_model"].active and r.nodes["reward_model"].note == "judge"
    assert r.nodes["rm_trainer"].state == "removed"


@settings(max_examples=25, deadline=None)
@given(small=st.sampled_from([0.5, 1.5, 3, 7, 8, 14]), factor=st.sampled_from([1, 2, 4, 10]),
       tokens=st.sampled_from([16, 256, 512, 2048]), placement=st.sampled_from(["colocated", "separate"]))
def test_a_larger_judge_never_shortens_scoring(small, factor, tokens, placement) -> None:
    base = dict(reward="judge", method="grpo", kl=0.001, placement=placement, gpus=16, judge_tokens=tokens)
    a = evaluate(WorkloadInputs(**base, judge_b=small)).step
    b = evaluate(WorkloadInputs(**base, judge_b=small * factor)).step
    if placement == "colocated":
        assert b.scoring_s >= a.scoring_s * (1 - 1e-9)
    else:  # the search may give a larger judge more scoring GPUs: its scoring GPU-seconds never fall
        assert b.scoring_s * b.groups.scoring >= a.scoring_s * a.groups.scoring * (1 - 1e-9)


@settings(max_examples=15, deadline=None)
@given(tokens=st.sampled_from([16, 128, 512, 2048]), more=st.sampled_from([1, 2, 8]))
def test_a_longer_verdict_never_shortens_scoring(tokens, more) -> None:
    a = evaluate(WorkloadInputs(reward="judge", judge_tokens=tokens)).step
    b = evaluate(WorkloadInputs(reward="judge", judge_tokens=tokens * more)).step
    assert b.scoring_s >= a.scoring_s * (1 - 1e-9)


def test_launch_lists_the_judge_as_unmapped_in_every_framework(client) -> None:
    body = client.get("/api/launch?reward=judge&method=grpo&kl=0.001").json()
    for framework in ("verl", "openrlhf", "trl"):
        fields = {u["field"]: u["key"] for u in body["frameworks"][framework]["unmapped"]}
        assert fields.get("reward") == f"launch.unmapped.{framework}.reward", framework
    plain = client.get("/api/launch?reward=verifier&method=grpo&kl=0.001").json()["frameworks"]
    assert all(u["field"] != "reward" for f in plain.values() for u in f["unmapped"])
