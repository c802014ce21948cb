"""The engineer's panel in per cent of a bar: one PPO step's timeline per GPU group, and per-GPU memory lanes.

The seconds and gigabytes come from the model; this file only places them on a bar.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.model import Result
from app.model.lanes import memory_lanes


def pct(x: float, whole: float) -> float:
    """``x`` as a per cent of ``whole``, two decimals (0 for an empty whole).

    >>> pct(1, 3), pct(5, 0)
    (33.33, 0.0)
    """
    return round(100.0 * x / whole, 2) if whole > 0 else 0.0


@dataclass(frozen=True, slots=True)
class Bar:
    part: str      # a phase (gen, score, train) or a model part (actor, kv …)
    x: float       # start, % of the bar
    w: float       # width, % of the bar
    value: float   # seconds or GB


@dataclass(frozen=True, slots=True)
class Lane:
    lane: str
    gpus: int
    bars: tuple[Bar, ...]
    total: float = 0.0   # GB on one GPU of the lane (memory lanes)
    over: bool = False   # more than the usable memory


def timeline(r: Result) -> tuple[Lane, ...]:
    """Lanes of one PPO step: colocated, one lane with the phases in turn; separate, one lane per GPU group, with
    training starting when the step's last rollouts are scored."""
    s = r.step
    total = s.total_s
    if total <= 0:
        return ()
    if s.groups.colocated:
        g, sc, tr = s.generation_s, s.scoring_s, s.training_s
        return (Lane("all", s.groups.training, (
            Bar("gen", 0.0, pct(g, total), g), Bar("score", pct(g, total), pct(sc, total), sc),
            Bar("train", pct(g + sc, total), pct(tr, total), tr))),)
    start_train = total - s.training_s
    return (
        Lane("gen", s.groups.generation, (Bar("gen", 0.0, pct(s.generation_s, total), s.generation_s),)),
        Lane("score", s.groups.scoring, (Bar("score", 0.0, pct(s.scoring_s, total), s.scoring_s),)),
        Lane("train", s.groups.training, (Bar("train", pct(start_train, total), pct(s.training_s, total),
                                              s.training_s),)),
    )


@dataclass(frozen=True, slots=True)
class MemoryBars:
    lanes: tuple[Lane, ...]
    cap_x: float     # the card's memory, % of the bar
    usable_x: float  # what the model lets a job use, % of the bar


def memory_bars(r: Result) -> MemoryBars:
    """The model's per-GPU memory lanes (app/model/lanes.py) on one scale: the card's memory or the fullest lane."""
    m = r.memory
    model_lanes = memory_lanes(r)
    scale = max(m.gpu_memory_gb, *(lane.total_gb for lane in model_lanes))
    lanes = []
    for lane in model_lanes:
        x, bars = 0.0, []
        for part, gb in lane.parts:
            w = pct(gb, scale)
            bars.append(Bar(part, x, w, gb))
            x += w
        lanes.append(Lane(lane.lane, lane.gpus, tuple(bars), lane.total_gb, lane.over))
    return MemoryBars(tuple(lanes), pct(m.gpu_memory_gb, scale), pct(m.usable_gb, scale))
