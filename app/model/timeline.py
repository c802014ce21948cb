"""One RL step drawn in time: for each GPU group, when it works and when it waits, in seconds from the step's start.

Read from the model's ``Step`` record (``app/model/physics/step.py``) and nothing else, so the drawing shows the
times every other part of the page quotes:

- **Colocated** (the hybrid engine): one lane, every GPU taking turns: generation (the batch, then the longest
  response's tail, when most of the engine already waits), scoring, training, then the refit (the new weights into
  the engine, with its sleep and wake).  ``total_s = generation + scoring + training + refit``.
- **Separate, synchronous**: generation on its GPUs, scoring streaming beside it on its own GPUs (drawn ending
  when the last response is in: it scores responses as they finish) while the training GPUs run their share of its
  forwards (``fwd``: the old log-probs, and every frozen model when there are
  no scoring GPUs, ``Step.trainer_scores``); training starts when both are done (``max(generation, scoring)``); the weight broadcast
  closes the step on the generation and training GPUs.  Whatever a group does not use, it waits (``idle``).
- **Separate, staleness ≥ 1**: generation writes the *next* step's responses (``ahead``: the off-policy overlap)
  while this step scores and trains; the step is ``max(generation, scoring + training) + broadcast``.
- GPUs the step leaves unused (a layout on one node of a larger count) wait the whole step.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.model.evaluate import Result
from app.model.physics.step import Step

frozen = dataclass(frozen=True, slots=True, kw_only=True)

EPSILON_S = 1e-9  # a segment shorter than this is not drawn
# the walkthrough steps about when each GPU group works and waits (the scaled split, the tail, colocate or split,
# one step off-policy): their page shows this drawing before the step chart
TIMELINE_STEPS = frozenset({5, 10, 11, 12})


@frozen
class Segment:
    part: str        # gen | tail | env | score | fwd | train | sync | idle
    start_s: float
    end_s: float
    ahead: bool = False  # generation for the next step (staleness ≥ 1): off-policy, beside this step's training

    @property
    def seconds(self) -> float:
        return self.end_s - self.start_s


@frozen
class Lane:
    lane: str        # all (colocated) | gen | score | train | unused
    gpus: int
    segments: tuple[Segment, ...]

    @property
    def idle_s(self) -> float:
        return sum(s.seconds for s in self.segments if s.part == "idle")


@frozen
class Timeline:
    lanes: tuple[Lane, ...]
    total_s: float
    colocated: bool
    staleness: int
    drawn: bool      # an RL step to draw (a loop stage, timed on some GPU count)
    gpus: int        # the GPUs the step is timed on

    @property
    def idle_gpu_s(self) -> float:
        """GPU-seconds spent waiting, by the drawing (each lane's idle seconds × its GPUs)."""
        return sum(lane.idle_s * lane.gpus for lane in self.lanes)

    @property
    def unworked_gpu_s(self) -> float:
        """GPU-seconds in no phase's work: waiting, and the refit or broadcast (``Step.idle_gpu_s`` counts both)."""
        return sum(seg.seconds * lane.gpus for lane in self.lanes for seg in lane.segments
                   if seg.part in ("idle", "sync"))


def _run(parts: list[tuple[str, float, float, bool]]) -> tuple[Segment, ...]:
    return tuple(Segment(part=p, start_s=a, end_s=b, ahead=ahead) for p, a, b, ahead in parts if b - a > EPSILON_S)


def _generation(start: float, s: Step, ahead: bool = False) -> list[tuple[str, float, float, bool]]:
    """Generation as the batch, then the tail (the longest response alone), then — agentic rollouts — the
    environment's answers the batch waited for between turns (drawn together: each turn waits once), from
    ``start``."""
    env = min(s.env_wait_s, s.generation_s)
    tail = min(s.tail_s, s.generation_s - env)
    batch_end = start + s.generation_s - tail - env
    return [("gen", start, batch_end, ahead), ("tail", batch_end, batch_end + tail, ahead),
            ("env", batch_end + tail, start + s.generation_s, ahead)]


def _scoring_split(s: Step) -> tuple[float, float]:
    """(seconds the training GPUs spend on forwards, seconds the scoring GPUs do), both from the step's start.

    Placed apart, scoring is the longer of the two, run side by side (``physics.step._separate_phases``), and
    ``scoring_gpu_s`` = trainer · T + scorers · S: one of the two is ``scoring_s``, the other follows."""
    sc, gpu_s = s.scoring_s, s.scoring_gpu_s
    t, n = s.groups.training, s.groups.scoring
    trainer = (gpu_s - sc * n) / t if t else 0.0  # the scorers took the whole scoring time
    if -EPSILON_S <= trainer <= sc + EPSILON_S:
        return min(max(trainer, 0.0), sc), sc if n else 0.0
    return sc, min(max((gpu_s - sc * t) / n, 0.0), sc) if n else 0.0  # the trainer took it


def step_timeline(s: Step, gpus: int) -> Timeline:
    """The lanes of one step ``s`` timed on ``gpus`` GPUs.

    >>> from app.model import WorkloadInputs, evaluate
    >>> t = step_timeline(evaluate(WorkloadInputs(placement="colocated")).step, 8)
    >>> [lane.lane for lane in t.lanes], [seg.part for seg in t.lanes[0].segments][:1]
    (['all'], ['gen'])
    """
    total, g, sc, tr, sync = s.total_s, s.generation_s, s.scoring_s, s.training_s, s.sync_s
    used = s.groups.training if s.groups.colocated else s.groups.generation + s.groups.scoring + s.groups.training
    lanes: list[Lane] = []
    if s.groups.colocated:
        parts = [*_generation(0.0, s), ("score", g, g + sc, False), ("train", g + sc, g + sc + tr, False),
                 ("sync", g + sc + tr, total, False)]
        lanes.append(Lane(lane="all", gpus=s.groups.training, segments=_run(parts)))
    else:
        sync_start = total - sync
        on_trainer, on_scorers = _scoring_split(s)
        ready = sc if s.staleness else max(g, sc)  # training waits for the scores (and, in step, the last response)
        gen = [*_generation(0.0, s, ahead=bool(s.staleness)), ("idle", g, sync_start, False)]
        # in step, scoring streams the responses as they finish, so its work is drawn ending with the last one
        # (``ready``), not from 0 s when nothing is written yet; a step ahead, last step's responses are all there
        def scored(work: float) -> tuple[float, float]:
            return (0.0, work) if s.staleness else (ready - work, ready)

        a, b = scored(on_scorers)
        score = [("idle", 0.0, a, False), ("score", a, b, False), ("idle", b, total, False)]
        # the trainer's own forwards (old log-probs, values; the frozen models when there are no scoring GPUs):
        # scoring's work, on the training GPUs — its own part, so the lane does not read as a scoring group
        a, b = scored(on_trainer)
        train = [("idle", 0.0, a, False), ("fwd", a, b, False), ("idle", b, ready, False),
                 ("train", ready, ready + tr, False), ("idle", ready + tr, sync_start, False)]
        gen.append(("sync", sync_start, total, False))
        train.append(("sync", sync_start, total, False))
        lanes.append(Lane(lane="gen", gpus=s.groups.generation, segments=_run(gen)))
        if s.groups.scoring:
            lanes.append(Lane(lane="score", gpus=s.groups.scoring, segments=_run(score)))
        lanes.append(Lane(lane="train", gpus=s.groups.training, segments=_run(train)))
    if gpus > used:
        lanes.append(Lane(lane="unused", gpus=gpus - used, segments=_run([("idle", 0.0, total, False)])))
    return Timeline(lanes=tuple(lanes), total_s=total, colocated=s.groups.colocated, staleness=s.staleness,
                    drawn=total > 0, gpus=gpus)


def timeline(r: Result) -> Timeline:
    """The state's step in time (none before the loop, under DPO, or when no GPU count fits)."""
    gpus = r.timed_gpus or r.inputs.gpus
    t = step_timeline(r.step, gpus)
    drawn = r.plan.rl and r.timed and t.drawn  # an RL step, timed on some GPU count
    return Timeline(lanes=t.lanes if drawn else (), total_s=t.total_s, colocated=t.colocated,
                    staleness=t.staleness, drawn=drawn, gpus=gpus)


__all__ = ["TIMELINE_STEPS", "Lane", "Segment", "Timeline", "step_timeline", "timeline"]
