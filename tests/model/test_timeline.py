"""Issue 33, one step drawn in time: the timeline's lanes are the model's step (app/model/timeline.py reads the Step
record): every lane runs from 0 to the step's wall clock without a gap or an overlap, its work is the phases' own
seconds, the GPU-seconds it leaves unworked are the step's idle GPU-seconds, and it moves with placement and
staleness as the physics says."""

from __future__ import annotations

import pytest

from app.model import WorkloadInputs, evaluate
from app.model.scenarios import PRESETS, WALKTHROUGH
from app.model.timeline import TIMELINE_STEPS, timeline

STATES = [w.inputs for w in WALKTHROUGH] + [p.inputs for p in PRESETS] + [
    WorkloadInputs(gpus=g, placement=p, staleness=k) for g in (8, 16, 64) for p in ("colocated", "separate")
    for k in (0, 1)] + [WorkloadInputs(gpus=16, placement="separate", generation_gpus=8, method="grpo", reward="verifier")]
DRAWN = [i for i in STATES if timeline(evaluate(i)).drawn]


def _work(lane, part: str) -> float:  # noqa: ANN001
    return sum(s.seconds for s in lane.segments if s.part == part)


def test_the_states_cover_both_placements_and_both_kinds_of_step() -> None:
    kinds = {(i.placement, bool(i.staleness)) for i in DRAWN}
    assert kinds >= {("colocated", False), ("separate", False), ("separate", True)}


@pytest.mark.parametrize("inputs", DRAWN, ids=lambda i: f"{i.placement}-k{i.staleness}-{i.gpus}-s{i.step}")
def test_each_lane_fills_the_step_and_its_gpus_add_up(inputs: WorkloadInputs) -> None:
    r = evaluate(inputs)
    t = timeline(r)
    assert t.total_s == pytest.approx(r.step.total_s)
    for lane in t.lanes:
        assert lane.segments[0].start_s == 0.0
        assert lane.segments[-1].end_s == pytest.approx(t.total_s, rel=1e-9, abs=1e-9)
        for a, b in zip(lane.segments, lane.segments[1:], strict=False):
            assert b.start_s == pytest.approx(a.end_s, abs=1e-9), f"{lane.lane}: a gap or an overlap"
    assert sum(lane.gpus for lane in t.lanes) == (r.timed_gpus or inputs.gpus)
    # what the drawing leaves unworked (waiting, the refit or broadcast) is the model's idle GPU-time
    assert t.unworked_gpu_s == pytest.approx(r.step.idle_gpu_s, rel=1e-6, abs=1e-6)


@pytest.mark.parametrize("inputs", DRAWN, ids=lambda i: f"{i.placement}-k{i.staleness}-{i.gpus}-s{i.step}")
def test_the_bars_are_the_phases_seconds(inputs: WorkloadInputs) -> None:
    s = evaluate(inputs).step
    t = timeline(evaluate(inputs))
    gen = t.lanes[0]
    # generation = the batch's own decoding + the longest responses' tail + the environment's wait (agentic turns)
    assert _work(gen, "gen") + _work(gen, "tail") + _work(gen, "env") == pytest.approx(s.generation_s)
    assert _work(gen, "tail") == pytest.approx(min(s.tail_s, s.generation_s))
    assert _work(gen, "env") == pytest.approx(s.env_wait_s)
    train = next(lane for lane in t.lanes if lane.lane in ("all", "train"))
    assert _work(train, "train") == pytest.approx(s.training_s)
    assert _work(train, "sync") == pytest.approx(s.sync_s)
    if s.groups.colocated:  # one lane taking turns: the phases one after another
        assert [seg.part for seg in gen.segments if seg.part not in ("tail", "env")][:3] == ["gen", "score", "train"]
    else:
        start = next(seg.start_s for seg in train.segments if seg.part == "train")
        # synchronous: training waits for the last response and its scores; ahead: only for the scores
        assert start == pytest.approx(s.scoring_s if s.staleness else max(s.generation_s, s.scoring_s))
        assert all(seg.ahead for seg in gen.segments if seg.part in ("gen", "tail")) == bool(s.staleness)
        # the training GPUs' share of scoring is its own part (forwards on the trainer), never the scoring group's
        assert "score" not in {seg.part for seg in train.segments}
        assert 0.0 <= _work(train, "fwd") <= s.scoring_s + 1e-9


def test_one_step_off_policy_overlaps_generation_with_training() -> None:
    sync, ahead = (timeline(evaluate(WALKTHROUGH[n - 1].inputs)) for n in (11, 12))

    def overlap(t) -> float:  # noqa: ANN001 - seconds generation and training run at the same time
        gen = [(s.start_s, s.end_s) for s in t.lanes[0].segments if s.part in ("gen", "tail")]
        train = [(s.start_s, s.end_s) for lane in t.lanes if lane.lane == "train" for s in lane.segments
                 if s.part == "train"]
        return sum(max(0.0, min(b, d) - max(a, c)) for a, b in gen for c, d in train)

    assert overlap(sync) == 0.0
    assert overlap(ahead) > 0.0
    assert ahead.total_s < sync.total_s


def test_streamed_scoring_ends_with_the_last_response_in_step_and_starts_at_once_a_step_ahead() -> None:
    """Read 37: step 11 drew scoring over 0–22 s while generation ran to 152 s, scoring what was not yet written.
    In step (11) the scoring lane's work and the trainer's forwards end when training starts, max(generation,
    scoring); a step ahead (12) they score last step's responses, from 0 s."""
    for n, staleness in ((11, 0), (12, 1)):
        r = evaluate(WALKTHROUGH[n - 1].inputs)
        t, s = timeline(r), r.step
        assert s.staleness == staleness
        lanes = {lane.lane: lane for lane in t.lanes}
        work = [seg for lane, part in (("score", "score"), ("train", "fwd")) for seg in lanes[lane].segments
                if seg.part == part]
        assert len(work) == 2
        train_start = next(seg.start_s for seg in lanes["train"].segments if seg.part == "train")
        if staleness:
            assert [seg.start_s for seg in work] == [0.0, 0.0]
        else:
            assert train_start == pytest.approx(max(s.generation_s, s.scoring_s))
            assert [seg.end_s for seg in work] == [pytest.approx(train_start)] * 2
            assert all(seg.start_s > 0 for seg in work)


def test_colocated_is_one_lane_taking_turns_and_separate_is_one_lane_per_group() -> None:
    co, apart = (timeline(evaluate(WALKTHROUGH[n - 1].inputs)) for n in (10, 11))
    assert [lane.lane for lane in co.lanes] == ["all"] and co.idle_gpu_s == 0.0
    assert [lane.lane for lane in apart.lanes] == ["gen", "score", "train"] and apart.idle_gpu_s > 0


def test_nothing_to_draw_before_the_loop_or_under_dpo() -> None:
    for n in (1, 3, 8):
        assert not timeline(evaluate(WALKTHROUGH[n - 1].inputs)).drawn
        assert timeline(evaluate(WALKTHROUGH[n - 1].inputs)).lanes == ()


def test_the_steps_that_point_at_the_timeline_have_one() -> None:
    assert {w.number for w in WALKTHROUGH} >= TIMELINE_STEPS
    assert all(timeline(evaluate(WALKTHROUGH[n - 1].inputs)).drawn for n in TIMELINE_STEPS)
