"""The engineer's panel in per cent of a bar: one PPO step's timeline per GPU group, and per-GPU memory lanes.

The seconds and gigabytes come from the model; this file only places them on a bar.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.model import Result
from app.model.stages import RL_LOOP_STAGES


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


def _memory_rows(r: Result) -> list[tuple[str, int, list[tuple[str, float]]]]:
    """GB on one GPU of each group, by model part."""
    i, m = r.inputs, r.memory
    mm = m.models
    if r.stage in RL_LOOP_STAGES:
        g = r.step.groups
        tp = max(r.step.gen.tensor_parallel, 1)
        kv = m.kv_gb_per_replica / tp
        if g.colocated:
            n = i.gpus
            return [("all", n, [("actor", mm.actor_gb / n), ("critic", mm.critic_gb / n),
                                ("reference", mm.reference_gb / n), ("reward", mm.reward_gb / n),
                                ("gen_weights", mm.generation_weights_gb / tp), ("kv", kv)])]
        return [
            ("train", g.training, [("actor", mm.actor_gb / g.training), ("critic", mm.critic_gb / g.training)]),
            ("score", g.scoring, [("reference", mm.reference_gb / g.scoring), ("reward", mm.reward_gb / g.scoring)]),
            ("gen", g.generation, [("gen_weights", mm.generation_weights_gb / tp), ("kv", kv)]),
        ]
    if r.stage == "dpo":
        return [("all", i.gpus, [("actor", mm.actor_gb / i.gpus), ("reference", mm.reference_gb / i.gpus)])]
    rows = [("all", i.gpus, [("sft", r.offline.sft_per_gpu_gb)])]
    if r.stage == "reward_model":
        rows.append(("rm", i.gpus, [("rm", r.offline.rm_per_gpu_gb)]))
    return rows


@dataclass(frozen=True, slots=True)
class MemoryBars:
    lanes: tuple[Lane, ...]
    cap_x: float     # the card's memory, % of the bar
    usable_x: float  # what the model lets a job use, % of the bar


def memory_bars(r: Result) -> MemoryBars:
    """Per-GPU memory of each GPU group, split by model part, on one scale: the card's memory or the fullest lane."""
    m = r.memory
    rows = _memory_rows(r)
    totals = [sum(gb for _, gb in parts) for _, _, parts in rows]
    scale = max(m.gpu_memory_gb, *totals)
    lanes = []
    for (lane, gpus, parts), total in zip(rows, totals, strict=True):
        x, bars = 0.0, []
        for part, gb in parts:
            w = pct(gb, scale)
            bars.append(Bar(part, x, w, gb))
            x += w
        lanes.append(Lane(lane, gpus, tuple(bars), total, total > m.usable_gb))
    return MemoryBars(tuple(lanes), pct(m.gpu_memory_gb, scale), pct(m.usable_gb, scale))
