"""The engineer's panel in per cent of a bar: one PPO step's timeline per GPU group, and per-GPU memory lanes.

The seconds and gigabytes come from the model; this file only places them on a bar.
"""

from __future__ import annotations

from typing import NamedTuple

from app.model import Result
from app.model.physics.step import Step


def pct(x: float, whole: float) -> float:
    """``x`` as a per cent of ``whole``, two decimals (0 for an empty whole).

    >>> pct(1, 3), pct(5, 0)
    (33.33, 0.0)
    """
    return round(100.0 * x / whole, 2) if whole > 0 else 0.0


class Bar(NamedTuple):
    part: str      # a phase (gen, score, train) or a model part (actor, kv …)
    x: float       # start, % of the bar
    w: float       # width, % of the bar
    value: float   # seconds or GB


class Lane(NamedTuple):
    lane: str
    gpus: int
    bars: tuple[Bar, ...]
    total: float = 0.0   # GB on one GPU of the lane (memory lanes)
    over: bool = False   # more than the usable memory
    kv: bool = False     # the lane holds a KV cache (its label says so)

    @property
    def key(self) -> str:  # its name on the step's timeline
        return f"est.lane.{self.lane}"


def _generation_bars(start: float, s: Step, total: float) -> tuple[Bar, ...]:
    """Generation as one bar, or as the batch, then the tail when the longest response holds the step, then the
    environment's answers an agentic episode waits for between turns."""
    env = min(s.env_wait_s, s.generation_s)
    tail = min(s.tail_s, s.generation_s - env)
    batch = s.generation_s - tail - env
    bars = [Bar("gen", pct(start, total), pct(batch, total), batch)]
    if tail > 0:
        bars.append(Bar("tail", pct(start + batch, total), pct(tail, total), tail))
    if env > 0:
        bars.append(Bar("env", pct(start + batch + tail, total), pct(env, total), env))
    return tuple(bars)


def timeline(r: Result) -> tuple[Lane, ...]:
    """Lanes of one RL step, in per cent of its wall clock.

    Colocated (the hybrid engine): one lane, the phases in turn: generation (its tail marked), scoring, training,
    the refit.  Separate, synchronous: generation, scoring streaming beside it (on the training GPUs when they score:
    ``Step.trainer_scores``), then training, then the weight broadcast.  Separate with staleness k: generation (for step n + k) runs beside scoring and training of
    step n; the broadcast closes the step."""
    s = r.step
    total = s.total_s
    if total <= 0:
        return ()
    g, sc, tr, sync = s.generation_s, s.scoring_s, s.training_s, s.sync_s
    if s.groups.colocated:
        bars = (*_generation_bars(0.0, s, total),
                Bar("score", pct(g, total), pct(sc, total), sc),
                Bar("train", pct(g + sc, total), pct(tr, total), tr))
        if sync > 0:
            bars += (Bar("sync", pct(g + sc + tr, total), pct(sync, total), sync),)
        return (Lane("all", s.groups.training, bars),)
    if s.staleness:
        score_start, train_start = 0.0, sc
    else:
        score_start, train_start = 0.0, total - sync - tr
    score = (Bar("score", pct(score_start, total), pct(sc, total), sc),)
    train = (Bar("train", pct(train_start, total), pct(tr, total), tr),)
    if sync > 0:
        train += (Bar("sync", pct(total - sync, total), pct(sync, total), sync),)
    i = r.inputs
    # the lanes name what runs there: no critic under GRPO, no reward model under a verifier
    trained = "train" if i.method == "ppo" else "train_actor"
    gen = Lane("gen", s.groups.generation, _generation_bars(0.0, s, total))
    if s.trainer_scores:  # the training GPUs score, then train (no scoring GPUs)
        return gen, Lane(trained, s.groups.training, (*score, *train))
    # a reward model or an LLM judge runs on the scoring GPUs beside the reference; a verifier runs on CPU
    return gen, Lane("score_ref" if i.reward == "verifier" else "score", s.groups.scoring, score), Lane(
        trained, s.groups.training, train)
