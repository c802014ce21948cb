"""Issue 33, predict then see: each walkthrough step's prediction has one right answer, and it is the model's
(computed from the step's own state, never typed), and each option's verdict says how far off it is."""

from __future__ import annotations

import math

import pytest

from app.i18n import LANGS, load_catalogue
from app.model import evaluate
from app.model.predictions import prediction
from app.model.scenarios import WALKTHROUGH, walk_figures
from app.view.guess import guess_vm

STEPS = [w.number for w in WALKTHROUGH]


def _result(n: int):
    return evaluate(WALKTHROUGH[n - 1].inputs)


@pytest.mark.parametrize("n", STEPS)
def test_each_step_has_one_right_answer(n: int) -> None:
    p = prediction(n)
    assert p.kind in ("choice", "estimate")
    assert [o.value for o in p.options if o.correct] == [p.answer_value]
    assert len({o.value for o in p.options}) == len(p.options) >= 2


@pytest.mark.parametrize("n", [5])
def test_the_phase_guess_is_the_models_longest_phase(n: int) -> None:
    s = _result(n).step
    phases = {"gen": s.generation_s, "score": s.scoring_s, "train": s.training_s}
    assert prediction(n).answer_value == max(phases, key=phases.get) == "train"


def test_the_fit_guess_is_the_fewest_notch_at_or_above_the_meters_fewest_gpus() -> None:
    fewest = _result(2).meters["train_memory"].figure_args["min_gpus"]
    p = prediction(2)
    assert p.answer == fewest
    assert p.right.amount == min(o.amount for o in p.options if o.amount >= fewest)


def test_choices_follow_the_models_comparisons() -> None:
    f = {n: walk_figures(n) for n in (3, 7, 11, 12)}
    assert prediction(3).answer_value == ("reward_model" if f[3]["rm_s"] > f[3]["sft_s"] else "sft")
    assert prediction(7).answer_value == "falls" and f[7]["eval_risk"] < f[7]["before_eval_risk"]
    assert prediction(11).answer_value == ("slower" if f[11]["total_s"] > f[11]["co_total_s"] else "faster")
    assert prediction(12).answer_value == ("gen" if f[12]["generation_s"] > f[12]["score_train_s"] else "score_train")
    assert prediction(6).answer_value == _result(6).meters["kl_risk"].level


@pytest.mark.parametrize(("n", "figure"), [
    (1, lambda f: f["states_gb"]),
    (4, lambda f: f["share_pct"]),
    (8, lambda f: 100 * f["dpo_gb"] / f["ppo_gb"]),
    (9, lambda f: 100 * f["training_gpu_s"] / f["ppo_training_gpu_s"]),
    (10, lambda f: f["total_s"] / f["wide_total_s"]),
])
def test_an_estimate_is_the_notch_nearest_the_models_figure(n: int, figure) -> None:  # noqa: ANN001
    p = prediction(n)
    want = figure(walk_figures(n))
    assert p.answer == pytest.approx(want)
    scale = (lambda v: v) if p.unit == "pct" else math.log
    gap = {o.value: abs(scale(o.amount) - scale(want)) for o in p.options}
    assert gap[p.answer_value] == min(gap.values())
    for o in p.options:
        assert o.off == pytest.approx(o.amount / want)
        assert o.factor == pytest.approx(max(o.amount / want, want / o.amount)) and o.factor >= 1
        assert o.points == pytest.approx(abs(o.amount - want)) and o.high == (o.amount > want)


def test_the_verdicts_say_how_far_off() -> None:
    g = {o.value: o for o in guess_vm(2).options}  # notches 1, 2, 4, 8, 16 GPUs; the model: 2
    assert (g["1"].verdict_key, g["1"].right) == ("guess.verdict.right", True)
    assert g["0"].verdict_key == "guess.verdict.low" and g["0"].verdict_args == {"factor": 2.0}
    assert g["3"].verdict_key == "guess.verdict.high" and g["3"].verdict_args == {"factor": 4.0}
    share = guess_vm(4)  # generation's share: percentage points, not a factor
    answer = prediction(4).answer
    high = next(o for o in share.options if o.label_args["v"] == 90)
    assert high.verdict_key == "guess.verdict.high_points"
    assert high.verdict_args["points"] == pytest.approx(90 - answer)
    # a wrong choice is told how far off too (read 37: "Your guess: faster. The model says slower." and no more):
    # step 11, the split's step against the hybrid engine's, 174.3 s / 110.1 s = 1.58×
    f = walk_figures(11)
    choice = {o.value: o for o in guess_vm(11).options}
    assert {k: o.verdict_key for k, o in choice.items()} == {
        "faster": "guess.verdict.wrong_split", "slower": "guess.verdict.right"}
    assert choice["faster"].verdict_args == {"guess_s": f["co_total_s"], "answer_s": f["total_s"],
                                             "factor": pytest.approx(f["total_s"] / f["co_total_s"])}
    assert 1.5 < choice["faster"].verdict_args["factor"] < 1.7
    # step 3: one SFT pass (960 s) against one reward-model epoch, the longer stage: its seconds over the SFT's
    f = walk_figures(3)
    sft = next(o for o in guess_vm(3).options if o.value == "sft")
    assert sft.verdict_key == "guess.verdict.wrong_part"
    assert sft.verdict_args == {"guess_s": 960.0, "answer_s": f["rm_s"], "factor": pytest.approx(f["rm_s"] / 960.0)}
    # a choice with no seconds (the KL meter's level) says only what the model says
    assert {o.verdict_key for o in guess_vm(6).options if not o.right} == {"guess.verdict.wrong"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_a_prediction_names_exists(lang: str) -> None:
    catalogue = load_catalogue(lang)
    for n in STEPS:
        g = guess_vm(n)
        keys = {g.prompt_key, g.answer_key, *(o.label_key for o in g.options), *(o.verdict_key for o in g.options)}
        assert keys <= catalogue.keys(), f"step {n}: missing {sorted(keys - catalogue.keys())}"
