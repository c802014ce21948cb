"""The step's legend names idle GPU time only when there is enough of it to print (``idle_shown_min_gpu_s``): the
line shows exactly for the states whose idle GPU-seconds, by the model's own figures, are above the threshold.

Once a template literal (``idle_gpu_s > 0.5`` in regions.html) that could be set to 5e11 with no test failing
(review 2026-12-03, mutation M3); now the view-model carries the flag and this test pins both sides."""

from __future__ import annotations

import dataclasses

import pytest

from app.model import evaluate
from app.model.assumptions import IDLE_SHOWN_MIN_GPU_S
from app.view.regions.estimates import est_step
from tests.hardening.regions import by_id
from tests.support.urls import STATES, lab_path

# The walkthrough's and presets' RL states with a timed step: what a learner reads the legend on.
TIMED_RL = {name: r for name, r in ((n, evaluate(i)) for n, i in STATES.items()) if r.cost.online and r.timed}


def test_some_teaching_states_show_their_idle_gpu_time() -> None:
    # a threshold set past every real state (M3: 5e11) would hide the line everywhere
    shown = [n for n, r in TIMED_RL.items() if r.step.idle_gpu_s > IDLE_SHOWN_MIN_GPU_S]
    assert len(shown) >= len(TIMED_RL) // 2, shown


@pytest.mark.parametrize("name", sorted(TIMED_RL))
def test_the_page_shows_the_idle_line_exactly_above_the_threshold(client, name: str) -> None:
    r = TIMED_RL[name]
    step = by_id(client.get(lab_path("en", r.inputs)).text)["est-step"]
    assert ('class="ph-idle"' in step) == (r.step.idle_gpu_s > IDLE_SHOWN_MIN_GPU_S), (name, r.step.idle_gpu_s)


@pytest.mark.parametrize("factor, shown", [(0.5, False), (0.99, False), (1.01, True), (2.0, True)])
def test_idle_gpu_seconds_on_either_side_of_the_threshold(factor: float, shown: bool) -> None:
    # no teaching state idles less than the threshold, so its other side is the model's own step with its idle
    # GPU-seconds set just below or above it
    r = next(iter(TIMED_RL.values()))
    near = r._replace(step=dataclasses.replace(r.step, idle_gpu_s=IDLE_SHOWN_MIN_GPU_S * factor))
    assert est_step(near).rl.show_idle is shown
