"""The series the lab's three charts draw, computed through ``evaluate()`` (the model's public entry point).

Pure and web-free, like the rest of ``app/model``: numbers in, frozen records out; the view places them on an
axis (``app/view/charts.py``) and the templates draw the SVG.  Only these fields of a ``Result`` are read, so the
charts keep working whatever the physics modules become: ``stage``, ``step.generation_s``, ``step.scoring_s``,
``step.training_s``, ``step.sync_s``, ``step.total_s``, ``step.tail_s``, ``step.gen.tail_floor_s``,
``memory.fits``, ``memory.usable_gb``, ``memory.gpu_memory_gb`` and ``memory_lanes``.

- ``step_vs_gpus``: one RL step's seconds by phase for every GPU count of the ``gpus`` ladder (1 … 4,096), with
  whether the state fits and the longest response's floor (``evaluate.rl_step``: the Result's step and memory, not
  its meters and decisions).  The sweep depends on every input but ``gpus``, so it is cached on the inputs with
  ``gpus`` (and the walkthrough ``step``) set aside: moving the GPU count redraws the marker, not the sweep.  Before
  the loop and under DPO there is no RL step, and no sweep.
- ``step_phases``: where one step's seconds go: generation (the batch, then the longest response's tail),
  scoring, training, the refit or weight sync; and the wall-clock time no phase accounts for on its own.
- ``memory``: per-GPU gigabytes by part for each GPU group, against the usable line and the card's memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from app.model.evaluate import Result, evaluate, rl_step  # noqa: F401 - evaluate: the doctests
from app.model.inputs import NUMBER_SPECS, WorkloadInputs
from app.model.physics.step import Step
from app.model.physics.step_memory import Memory

GPU_COUNTS: tuple[int, ...] = tuple(int(g) for g in NUMBER_SPECS["gpus"].ladder)  # the sweep's x values


@dataclass(frozen=True, slots=True)
class GpuPoint:
    """One step on ``gpus`` GPUs: its phases in seconds (wall clock; under separate placement phases overlap, so
    they need not add up to ``total_s``).  Where the models do not fit on ``gpus`` there is no step: every time
    is None (the timing rule, ``stage_cost.timed_gpus``) and the chart shades the count."""

    gpus: int
    generation_s: float | None
    scoring_s: float | None
    training_s: float | None
    sync_s: float | None
    total_s: float | None
    tail_floor_s: float | None  # the longest response decoded alone: no GPU count makes generation shorter
    fits: bool


@dataclass(frozen=True, slots=True)
class GpuSweep:
    points: tuple[GpuPoint, ...]
    current: int       # the state's GPU count
    rl_loop: bool      # False before the loop and under DPO: there is no RL step to draw


def _point(r: Result, gpus: int) -> GpuPoint:
    if not r.memory.fits:  # r.step is then timed elsewhere (or nowhere): never drawn at this count
        return GpuPoint(gpus=gpus, generation_s=None, scoring_s=None, training_s=None, sync_s=None, total_s=None,
                        tail_floor_s=None, fits=False)
    s = r.step
    return GpuPoint(gpus=gpus, generation_s=s.generation_s, scoring_s=s.scoring_s, training_s=s.training_s,
                    sync_s=s.sync_s, total_s=s.total_s, tail_floor_s=s.gen.tail_floor_s, fits=True)


class _StepOnly(NamedTuple):
    """What ``_point`` reads of a Result, and all ``evaluate.rl_step`` computes: the step and its memory.  The
    meters, decisions and reasons of sixteen other GPU counts are never drawn; skipping them makes a never-seen
    state's partial about three times cheaper."""

    step: Step
    memory: Memory


@lru_cache(maxsize=512)
def _sweep(base: WorkloadInputs) -> tuple[GpuPoint, ...]:
    return tuple(_point(_StepOnly(*rl_step(base.model_copy(update={"gpus": g}))), g) for g in GPU_COUNTS)  # type: ignore[arg-type]


def step_vs_gpus(inputs: WorkloadInputs, rl_loop: bool) -> GpuSweep:
    """The state's step at every GPU count of the ladder (the inputs' own count marked).

    >>> sweep = step_vs_gpus(WorkloadInputs(), True)
    >>> [p.gpus for p in sweep.points][:4], sweep.current, sweep.rl_loop
    ([1, 2, 4, 8], 8, True)
    """
    if not rl_loop:  # before the loop and under DPO there is no RL step to draw
        return GpuSweep(points=(), current=inputs.gpus, rl_loop=False)
    base = inputs.model_copy(update={"gpus": NUMBER_SPECS["gpus"].default, "step": None})
    return GpuSweep(points=_sweep(base), current=inputs.gpus, rl_loop=True)


@dataclass(frozen=True, slots=True)
class Phase:
    part: str        # gen | tail | score | train | sync | other
    seconds: float


@dataclass(frozen=True, slots=True)
class StepPhases:
    phases: tuple[Phase, ...]
    total_s: float
    overlapped_s: float  # phase seconds run beside another phase (separate placement, or a step run ahead)
    rl_loop: bool        # an RL step to draw: a loop stage, and timed (some GPU count fits)
    at_gpus: int = 0     # the step is timed on this many GPUs, the fewest that fit (0: the state's own)
    untimed: bool = False  # an RL loop whose models fit on no GPU count up to 4,096: nothing to draw


def step_phases(r: Result) -> StepPhases:
    """One step's wall clock by phase.  ``overlapped_s`` is how much the phases' sum exceeds the step (they ran at
    the same time on different GPUs); the step's own wall clock is ``total_s``.

    >>> p = step_phases(evaluate(WorkloadInputs(placement="colocated")))
    >>> [x.part for x in p.phases][:2], p.rl_loop
    (['gen', 'score'], True)
    """
    s = r.step
    env = min(s.env_wait_s, s.generation_s)
    tail = min(s.tail_s, s.generation_s - env)
    parts = (("gen", s.generation_s - tail - env), ("tail", tail), ("env", env), ("score", s.scoring_s),
             ("train", s.training_s), ("sync", s.sync_s))
    phases = tuple(Phase(part, seconds) for part, seconds in parts if seconds > 0 or part == "gen")
    summed = sum(p.seconds for p in phases)
    loop = r.plan.rl
    return StepPhases(phases=phases, total_s=s.total_s, overlapped_s=max(0.0, summed - s.total_s),
                      rl_loop=loop and r.timed and s.total_s > 0,
                      at_gpus=r.timed_gpus if r.timed_elsewhere else 0, untimed=loop and not r.timed)


@dataclass(frozen=True, slots=True)
class MemoryLane:
    lane: str
    gpus: int
    parts: tuple[tuple[str, float], ...]  # (part, GB per GPU)
    total_gb: float
    over: bool
    kv: bool  # holds the engine's KV cache


@dataclass(frozen=True, slots=True)
class MemoryChart:
    lanes: tuple[MemoryLane, ...]
    usable_gb: float
    gpu_gb: float
    fits: bool
    peak_gb: float = 0.0                        # the one memory figure: the fullest GPU as nvidia-smi shows it
    phases: tuple[tuple[str, float], ...] = ()  # (phase, GB) of the fullest GPU in each phase


def _reserved(r: Result, lane: MemoryLane) -> MemoryLane:
    """A lane that holds the vLLM engine, with the part of the engine's reservation its batch leaves unused
    (``kv_reserved``): vLLM allocates ``gpu_memory_utilization`` × the card up front, so the lane then sums to what
    nvidia-smi shows, the plan's figure (``Memory.engine_gb_per_gpu`` − the engine's weights and the batch's KV)."""
    if not lane.kv or not r.plan.rl or r.inputs.engine != "vllm" or lane.over:
        return lane
    engine = sum(gb for part, gb in lane.parts if part in ("gen_weights", "kv"))
    free = r.memory.engine_gb_per_gpu - engine
    if free <= 0.05:
        return lane
    return MemoryLane(lane=lane.lane, gpus=lane.gpus, parts=(*lane.parts, ("kv_reserved", free)),
                      total_gb=lane.total_gb + free, over=False, kv=True)


def memory(r: Result) -> MemoryChart:
    """Per-GPU memory by part, lane by lane (``Result.memory_lanes``), with the usable and the card's memory.

    >>> m = memory(evaluate(WorkloadInputs()))
    >>> m.gpu_gb, m.usable_gb < m.gpu_gb
    (80.0, True)
    """
    lanes = tuple(_reserved(r, MemoryLane(lane=x.lane, gpus=x.gpus, parts=tuple(x.parts), total_gb=x.total_gb,
                                          over=x.over, kv=any(part == "kv" for part, _ in x.parts)))
                  for x in r.memory_lanes)
    return MemoryChart(lanes=lanes, usable_gb=r.memory.usable_gb, gpu_gb=r.memory.gpu_memory_gb,
                       fits=r.memory.fits, peak_gb=r.cost.per_gpu_gb,
                       phases=tuple((p.phase, p.gb) for p in r.cost.memory_by_phase))


__all__ = ["GPU_COUNTS", "GpuPoint", "GpuSweep", "MemoryChart", "StepPhases", "memory", "step_phases",
           "step_vs_gpus"]
