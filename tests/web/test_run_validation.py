"""The run line itemises its validation passes (Run.validation_hours, issue 26): how much of the wall clock is
validation, how many passes, how often — in both languages, and nothing when the run has no validation pass."""

from __future__ import annotations

import pytest
from support.urls import lab_path

from app.i18n import translator
from app.model import WorkloadInputs, evaluate
from tests.web.test_page_figures import _region

GRPO = WorkloadInputs(method="grpo", reward="verifier", rollouts=512, gpus=8, gpu="h100_80g", prompts=31_000,
                      eval_every=10, placement="colocated")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_run_line_says_how_much_of_it_is_validation(client, lang: str) -> None:
    r = evaluate(GRPO)
    assert r.run.evals == r.run.steps // 10 > 0 and r.run.validation_hours > 0
    t = translator(lang)
    run = _region(client.get(lab_path(lang, GRPO)).text, "est-run")
    assert t.fmt("dur", r.run.validation_hours * 3600) in run, run
    assert t.fmt("n", r.run.evals) in run and ("validation" in run or "验证" in run), run


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_validation_pass_no_validation_clause(client, lang: str) -> None:
    q = GRPO.model_copy(update={"eval_every": 1_000, "prompts": 1_000})  # fewer steps than eval_every: no pass
    assert evaluate(q).run.evals == 0
    run = _region(client.get(lab_path(lang, q)).text, "est-run")
    assert "validation" not in run and "验证" not in run, run
