"""Where a decision card's advice turns, pinned by states a learner can open: each threshold of
app/model/decisions/ (a Constant in assumptions.py) sits between a state that gets one answer and a state that
gets the other, so moving the threshold past either state fails here."""

from __future__ import annotations

import pytest

from app.model import DEFAULTS, evaluate
from app.model.assumptions import GENERATION_SHARE_WORTH_WORK, KL_TOO_STRONG, TAIL_SHARE_WORTH_WORK
from app.model.decisions import DECISION_IDS, DECISIONS
from app.model.scenarios import WALKTHROUGH

STEP = {w.number: w.inputs for w in WALKTHROUGH}


def test_the_table_lists_every_card_once_in_page_order() -> None:
    assert tuple(DECISIONS) == DECISION_IDS and len(set(DECISION_IDS)) == 8


@pytest.mark.parametrize("inputs, reason", [
    # generation 58 % of the step, the rollout meter still calm: a faster engine or layout is worth doing
    (STEP[4].model_copy(update={"rollouts": 32}), "warn"),
    # generation 41 %: the engine is not where the step goes
    (STEP[4].model_copy(update={"rm_b": 0.125}), "ok"),
])
def test_the_rollout_card_turns_at_half_the_step_in_generation(inputs, reason: str) -> None:
    r = evaluate(inputs)
    assert r.meters["rollout_load"].level == "ok" and r.step.tail_share < TAIL_SHARE_WORTH_WORK
    assert (r.step.generation_share >= GENERATION_SHARE_WORTH_WORK) == (reason == "warn")
    assert r.decisions["rollout_throughput"].reason == f"decision.rollout_throughput.{reason}"


@pytest.mark.parametrize("kl, too_strong", [(0.2, False), (0.5, True), (1.0, True)])
def test_the_kl_card_calls_a_large_beta_too_strong(kl: float, too_strong: bool) -> None:
    r = evaluate(DEFAULTS.model_copy(update={"kl": kl}))
    assert (kl >= KL_TOO_STRONG) == too_strong
    assert (r.decisions["kl_control"].reason == "decision.kl_control.too_strong") == too_strong
