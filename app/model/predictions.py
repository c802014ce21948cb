"""Predict, then see: each walkthrough step's prediction (a choice or an estimate on a few notches) and its answer,
computed from the model's figures for the step's own state (``scenarios.walk_figures``).

The page asks the learner to commit a guess before the answer opens and then shows, beside the answer, whether it
was right and how far off it was.  Every verdict is decided here, from the model's numbers, for every option the
learner can pick: the page only shows the one that matches the guess (no second model in the browser).

- ``choice``: categories (a phase, a stage, a direction); the right one is the model's (the longest phase, the
  costlier stage, the way the meter moved).
- ``estimate``: a figure on a few round notches; the right notch is the one nearest the model's figure (on a log
  scale for ratios, sizes and counts; linearly for a percentage), or for "how many GPUs until it fits?" the
  fewest notch that fits (``ceiling``).  ``off`` is the notch over the model's figure: 2.0 means twice too high.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from app.model.evaluate import evaluate
from app.model.scenarios import WALKTHROUGH, walk_figures

frozen = dataclass(frozen=True, slots=True, kw_only=True)


@frozen
class Option:
    value: str            # its id in the form ("gen", "slower", or the notch's index for an estimate)
    amount: float = 0.0   # an estimate's notch: the figure it names (GB, GPUs, %, ×)
    correct: bool         # the model's answer
    off: float = 1.0      # an estimate: amount / the model's figure (1: exact); a choice: 1
    factor: float = 1.0   # how far off as a factor, ≥ 1 (max(off, 1 / off))
    points: float = 0.0   # how far off in the figure's own unit, ≥ 0 (|amount − figure|: points for a share)
    high: bool = False    # the notch is above the model's figure
    seconds: float = 0.0  # a timed choice: the seconds this option stands for (a phase's, a stage's, a step's); 0: none


@frozen
class Prediction:
    step: int
    kind: str                     # choice | estimate
    options: tuple[Option, ...]
    unit: str = ""                # an estimate's unit: gb | gpus | pct | x
    answer: float = 0.0           # an estimate: the model's figure
    answer_value: str             # the right option's value
    answer_s: float = 0.0         # a timed choice: the right option's seconds (how far off a wrong one was)
    timed_as: str = ""            # timed: part (of a step or a run) | split (the split's step against colocated)

    @property
    def right(self) -> Option:
        return next(o for o in self.options if o.correct)


def _choice(step: int, scores: dict[str, float], seconds: dict[str, float] | None = None,
            timed_as: str = "part") -> Prediction:
    """Categories scored by the model: the highest score is the answer (a tie goes to the first listed).  Timed
    (``seconds``, by default the scores themselves when they are seconds): each option carries its seconds, so a
    wrong guess is told how far off, "2.1 min against 16 min"."""
    best = max(scores, key=lambda k: scores[k])
    timed = seconds or {}
    return Prediction(step=step, kind="choice", answer_value=best, answer_s=timed.get(best, 0.0),
                      timed_as=timed_as if timed else "",
                      options=tuple(Option(value=k, correct=k == best, seconds=timed.get(k, 0.0),
                                           factor=timed[best] / timed[k] if timed.get(k) else 1.0) for k in scores))


def _nearest(notches: tuple[float, ...], figure: float, scale: str) -> int:
    if scale == "ceiling":  # the fewest notch at or above the figure (the last when none is)
        return next((k for k, v in enumerate(notches) if v >= figure - 1e-9), len(notches) - 1)
    if scale == "linear":
        return min(range(len(notches)), key=lambda k: abs(notches[k] - figure))
    return min(range(len(notches)), key=lambda k: abs(math.log(notches[k] / figure)))


def _estimate(step: int, unit: str, notches: tuple[float, ...], figure: float, scale: str = "log") -> Prediction:
    """A figure on round notches; the right notch by ``scale`` (log, linear or ceiling)."""
    right = _nearest(notches, figure, scale)
    options = []
    for k, v in enumerate(notches):
        off = v / figure if figure > 0 else 1.0
        options.append(Option(value=str(k), amount=v, correct=k == right, off=off, factor=max(off, 1 / off),
                              points=abs(v - figure), high=v > figure))
    return Prediction(step=step, kind="estimate", unit=unit, answer=figure, answer_value=str(right),
                      options=tuple(options))


def _direction(before: float, after: float) -> dict[str, float]:
    """falls / stays / rises, scored so that the way the figure moved wins."""
    return {"falls": float(after < before), "stays": float(after == before), "rises": float(after > before)}


def _p1(f: dict[str, float]) -> Prediction:  # model states of the trained policy, GB
    return _estimate(1, "gb", (14, 28, 56, 112, 224), f["states_gb"])


def _p2(f: dict[str, float]) -> Prediction:  # how many GPUs until it fits
    return _estimate(2, "gpus", (1, 2, 4, 8, 16), f["min_gpus"], scale="ceiling")


def _p3(f: dict[str, float]) -> Prediction:  # the costlier stage: one SFT pass or one reward-model epoch
    times = {"sft": f["sft_s"], "reward_model": f["rm_s"]}
    return _choice(3, times, times)


def _p4(f: dict[str, float]) -> Prediction:  # generation's share of the step, %
    return _estimate(4, "pct", (10, 25, 50, 75, 90), f["share_pct"], scale="linear")


def _phase(step: int, f: dict[str, float]) -> Prediction:  # the phase that takes most of the step
    times = {"gen": f["generation_s"], "score": f["scoring_s"], "train": f["training_s"]}
    return _choice(step, times, times)


def _p5(f: dict[str, float]) -> Prediction:
    return _phase(5, f)


def _p6(f: dict[str, float]) -> Prediction:  # the KL meter's level
    level = evaluate(WALKTHROUGH[5].inputs).meters["kl_risk"].level
    return _choice(6, {k: float(k == level) for k in ("ok", "warn", "hot")})


def _p7(f: dict[str, float]) -> Prediction:  # the eval meter against every 100 steps
    return _choice(7, _direction(f["before_eval_risk"], f["eval_risk"]))


def _p8(f: dict[str, float]) -> Prediction:  # DPO's model states as a share of PPO's, %
    return _estimate(8, "pct", (10, 25, 50, 75, 100), 100 * f["dpo_gb"] / f["ppo_gb"], scale="linear")


def _p9(f: dict[str, float]) -> Prediction:  # GRPO's training GPU-time as a share of PPO's, %
    return _estimate(9, "pct", (25, 50, 75, 100), 100 * f["training_gpu_s"] / f["ppo_training_gpu_s"],
                     scale="linear")


def _p10(f: dict[str, float]) -> Prediction:  # how much faster a step is on twice the GPUs, ×
    return _estimate(10, "x", (1, 1.2, 1.4, 1.7, 2), f["total_s"] / f["wide_total_s"])


def _p11(f: dict[str, float]) -> Prediction:  # the split against step 10's colocated hybrid engine
    # timed by the step each answer would mean: "slower" is the split's step, "faster" the hybrid engine's
    slower = f["total_s"] > f["co_total_s"]
    times = {"faster": f["co_total_s"] if slower else f["total_s"], "slower": f["total_s"] if slower else f["co_total_s"]}
    return _choice(11, {"faster": float(not slower), "slower": float(slower)}, times, timed_as="split")


def _p12(f: dict[str, float]) -> Prediction:  # the side that sets the step off-policy
    times = {"gen": f["generation_s"], "score_train": f["score_train_s"]}
    return _choice(12, times, times)


def _p13(f: dict[str, float]) -> Prediction:  # what holds an agentic step longest
    times = {"decode": f["decode_s"], "env": f["env_wait_s"], "score": f["scoring_s"], "train": f["training_s"]}
    return _choice(13, times, times)


_PREDICTIONS: dict[int, Callable[[dict[str, float]], Prediction]] = {
    1: _p1, 2: _p2, 3: _p3, 4: _p4, 5: _p5, 6: _p6, 7: _p7, 8: _p8, 9: _p9, 10: _p10, 11: _p11, 12: _p12, 13: _p13,
}


@cache
def prediction(n: int) -> Prediction:
    """Step ``n``'s prediction and its answer, from the model's figures for the step's own state.

    >>> p = prediction(2)
    >>> p.kind, p.unit, p.right.amount
    ('estimate', 'gpus', 2)
    >>> prediction(11).answer_value
    'slower'
    """
    return _PREDICTIONS[n](walk_figures(n))


__all__ = ["Option", "Prediction", "prediction"]
