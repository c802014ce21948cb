"""The step chart's sweep is the model's own step at each GPU count: the chart computes its sixteen points with
``evaluate.rl_step`` (no meters, decisions or reasons), and every point must be what ``evaluate`` says for that
count, in the states a learner reaches (defaults, presets, walkthrough steps)."""

from __future__ import annotations

import pytest

from app.model import evaluate
from app.model.charts import GPU_COUNTS, step_vs_gpus
from app.model.scenarios import PRESETS, WALKTHROUGH
from app.model.stages import RL_LOOP_STAGES

STATES = [("preset " + p.id, p.inputs) for p in PRESETS] + [(f"step {w.number}", w.inputs) for w in WALKTHROUGH[::3]]


@pytest.mark.parametrize(("name", "inputs"), STATES, ids=[n for n, _ in STATES])
def test_every_point_is_the_models_step_at_that_count(name: str, inputs) -> None:  # noqa: ANN001
    r = evaluate(inputs)
    sweep = step_vs_gpus(r.inputs, r.plan.rl)
    if r.stage not in RL_LOOP_STAGES:
        assert sweep.points == () and not sweep.rl_loop, f"{name}: no RL step, no sweep"
        return
    assert [p.gpus for p in sweep.points] == list(GPU_COUNTS)
    for p in sweep.points[::3]:
        at = evaluate(r.inputs.model_copy(update={"gpus": p.gpus}))
        assert p.fits == at.memory.fits, f"{name} at {p.gpus} GPUs"
        if p.fits:  # where the models do not fit, the chart shades the count instead of drawing a step
            assert (p.total_s, p.generation_s, p.scoring_s, p.training_s, p.sync_s, p.tail_floor_s) == (
                at.step.total_s, at.step.generation_s, at.step.scoring_s, at.step.training_s, at.step.sync_s,
                at.step.gen.tail_floor_s), f"{name} at {p.gpus} GPUs"
