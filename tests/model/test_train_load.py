"""The training-time meter (issue 33): training is the named bottleneck for most walkthrough steps, so it gets a
meter of its own — the step's training wall clock (``Step.training_s``) on the time meters' log scale, 1 s → 0,
1 h → 100; under DPO one step on its 64-pair batch; idle before the loop."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from app.model import evaluate
from app.model.meters import METER_IDS, train_load
from app.model.scenarios import WALKTHROUGH


def test_the_meter_is_the_log_of_the_training_seconds() -> None:
    # step 4 (PPO, 512 rollouts, separate on 8 A100s): training ≈ 153.5 s of the step, on 4 training GPUs
    r = evaluate(WALKTHROUGH[3].inputs)
    s = r.step.training_s
    assert 150 < s < 157
    m = r.meters["train_load"]
    assert m.value == round(100 * math.log(s / 1.0) / math.log(3600 / 1.0)) == 61  # 100 · 5.034 / 8.189
    assert m.level == "warn"  # ≥ 50, < 75
    assert m.figure_args["seconds"] == s and m.figure_args["gpu_seconds"] == r.step.training_gpu_s


def test_one_minute_reads_half_an_hour_reads_hot() -> None:
    assert train_load(60.0, 480.0, True).value == 50   # ln 60 / ln 3600 = ½
    assert train_load(1800.0, 0.0, True).level == "hot"  # 100 · ln 1800 / ln 3600 = 91
    assert train_load(0.5, 0.0, True).value == 0 and train_load(7200.0, 0.0, True).value == 100


def test_it_follows_the_stage() -> None:
    for w in WALKTHROUGH:
        r = evaluate(w.inputs)
        m = r.meters["train_load"]
        if r.plan.rl:
            assert m.figure == "meter.train_load.figure" and m.figure_args["seconds"] == r.step.training_s, w.number
        elif r.plan.kind == "dpo":  # one DPO step on its batch of pairs
            assert m.figure == "meter.train_load.figure_dpo" and m.figure_args["seconds"] == r.dpo.step_s, w.number
        else:  # SFT and the reward model train offline: no step
            assert m.value == 0 and m.figure == "meter.train_load.figure_none", w.number


def test_the_named_bottleneck_has_a_meter_that_reads_it() -> None:
    """Wherever the policy update holds an RL step, the training meter is the highest of the two time meters that
    watch a phase of it (generation, training)."""
    for w in WALKTHROUGH:
        r = evaluate(w.inputs)
        if r.plan.rl and r.bottleneck == "policy_update":
            assert r.meters["train_load"].value >= r.meters["rollout_load"].value, w.number


def test_the_older_meters_keep_their_places() -> None:
    assert METER_IDS[:5] == ("rollout_load", "scoring_load", "train_memory", "kl_risk", "eval_need")
    assert METER_IDS[5] == "train_load"


@given(st.floats(0.0, 10_000.0), st.floats(0.0, 10_000.0))
def test_more_seconds_never_read_lower(a: float, b: float) -> None:
    lo, hi = sorted((a, b))
    m_lo, m_hi = train_load(lo, 0.0, True), train_load(hi, 0.0, True)
    assert 0 <= m_lo.value <= m_hi.value <= 100
