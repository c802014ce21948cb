"""The three charts' view-models: the model's series (``app/model/charts.py``) placed on an SVG's axes.

Why server-side SVG: the partial already carries every region that changed, so a chart is one more region (its
view-model compared like the others) and moves with every slider notch without a line of chart code in the
browser; it prints, works without JavaScript, costs no request and a few hundred bytes gzipped; its numbers are
the model's own, never a second model in JavaScript.  A table beside each chart says the same in words.

Geometry only: every length here is in the SVG's own viewBox units; the templates format and draw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.model import Result
from app.model import charts as series

# the step chart's plot area in viewBox units (the labels sit outside it, with room for them at the largest size a
# page sets them — 17 units in presenter view, 20 on a phone: "100 毫秒" left of the plot, "4,096" centred on its
# right edge, the top mark's label centred on the plot's top, the axis's name under the GPU counts; read33c found
# labels cut at the SVG's edges)
STEP_W, STEP_H = 760, 180
STEP_LEFT, STEP_RIGHT, STEP_TOP, STEP_BOTTOM = 90, 726, 14, 138
# a log axis's marks, each a round figure in the unit the page writes it in (100 ms … 10 days)
SECOND_TICKS = (0.1, 1, 10, 60, 600, 7200, 86_400, 864_000)
MIN_TICK_GAP = 16  # viewBox units between two marks' labels
GPU_TICKS = (1, 8, 64, 512, 4096)
BAR_W = 640  # the phase and memory charts' width; their height follows their rows
BAR_LEFT, BAR_RIGHT = 150, 560
BAR_ROW = 26
OVERLAP_SHOWN_S = 0.5  # phases run side by side for less than this: not worth a line (teaching assumption)


def _round(x: float) -> float:
    return round(x, 1)


@dataclass(frozen=True, slots=True)
class Tick:
    at: float      # position on the axis, viewBox units
    value: float   # seconds, GPUs or GB (formatted by the template)


@dataclass(frozen=True, slots=True)
class Band:
    x: float
    w: float


@dataclass(frozen=True, slots=True)
class StepChartVM:
    """``[data-chart="step_vs_gpus"]``: one step's seconds against the GPU count, both axes logarithmic."""

    rl_loop: bool
    total: str          # polyline points of the step's wall clock
    generation: str
    scoring: str
    training: str
    floor: str          # the longest response alone: generation never goes below it
    unfit: tuple[Band, ...]   # GPU counts where the state does not fit in memory
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    marker_x: float
    marker_y: float
    current_gpus: int
    current_s: float    # the step at the current count (0 when it does not fit there: no dot, no time)
    fits: bool
    fitting_from: int | None  # the fewest GPUs that fit (Memory.min_gpus: the model's, not the sweep's first fitting count)
    rows: tuple[series.GpuPoint, ...]  # the table
    width: int = STEP_W
    height: int = STEP_H
    left: int = STEP_LEFT
    right: int = STEP_RIGHT
    top: int = STEP_TOP
    bottom: int = STEP_BOTTOM
    plot_h: int = STEP_BOTTOM - STEP_TOP
    y_label_x: int = STEP_LEFT - 6       # the seconds' labels, right-aligned left of the plot
    x_label_y: int = STEP_BOTTOM + 16    # the GPU counts under it
    axis_y: int = STEP_BOTTOM + 37       # the axis's name, a line under the counts

    @property
    def grid(self) -> str:  # one path for the horizontal grid lines at the seconds' marks
        return "".join(f"M{self.left} {t.at:g}H{self.right}" for t in self.y_ticks)

    @property
    def table_rows(self) -> tuple[tuple[series.GpuPoint, bool], ...]:  # (the point, whether it is the count now)
        return tuple((p, p.gpus == self.current_gpus) for p in self.rows)


def _log_axis(lo: float, hi: float, a: float, b: float):  # noqa: ANN202 - a mapping function
    """Map [lo, hi] (positive, log scale) onto [a, b]."""
    span = math.log(hi) - math.log(lo) or 1.0
    return lambda v: _round(a + (math.log(max(v, lo)) - math.log(lo)) / span * (b - a))


def _spaced(ticks: tuple[Tick, ...]) -> tuple[Tick, ...]:
    """The marks whose labels do not overlap the previous kept one's."""
    kept: list[Tick] = []
    for t in ticks:
        if not kept or abs(kept[-1].at - t.at) >= MIN_TICK_GAP:
            kept.append(t)
    return tuple(kept)


def _points(xs: list[float], ys: list[float]) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in zip(xs, ys, strict=True))


def step_chart(r: Result) -> StepChartVM:
    sweep = series.step_vs_gpus(r.inputs, r.plan.rl)
    pts = sweep.points
    if not sweep.rl_loop:  # before the loop and under DPO there is no sweep: the chart says so in words
        return StepChartVM(rl_loop=False, total="", generation="", scoring="", training="", floor="", unfit=(),
                           x_ticks=(), y_ticks=(), marker_x=0.0, marker_y=0.0, current_gpus=sweep.current,
                           current_s=r.step.total_s, fits=r.memory.fits, fitting_from=None, rows=())
    x = _log_axis(pts[0].gpus, pts[-1].gpus, STEP_LEFT, STEP_RIGHT)
    # only the counts that fit have a step (the timing rule): the lines run over those, the others are shaded
    fit = [p for p in pts if p.fits]
    current_s = r.step.total_s if r.memory.fits else 0.0
    values = [v for p in fit for v in (p.total_s, p.generation_s, p.scoring_s, p.training_s, p.tail_floor_s)
              if v > 0] + ([current_s] if current_s > 0 else [])
    lo = min(values, default=1.0)
    hi = max(values, default=10.0)
    lo = max(min(t for t in SECOND_TICKS if t <= lo * 1.0001) if lo >= SECOND_TICKS[0] else lo, 1e-3)
    hi = max(hi, lo * 10)
    y = _log_axis(lo, hi, STEP_BOTTOM, STEP_TOP)
    xs = [x(p.gpus) for p in pts]

    def line(field: str) -> str:
        return _points([x(p.gpus) for p in fit], [y(getattr(p, field)) for p in fit])

    # shade each run of GPU counts that does not fit, from halfway to its neighbours (in log space)
    edges = [STEP_LEFT] + [_round((a + b) / 2) for a, b in zip(xs, xs[1:], strict=False)] + [STEP_RIGHT]
    unfit: list[Band] = []
    for k, p in enumerate(pts):
        if p.fits:
            continue
        if unfit and abs(unfit[-1].x + unfit[-1].w - edges[k]) < 1e-6:
            unfit[-1] = Band(unfit[-1].x, _round(edges[k + 1] - unfit[-1].x))
        else:
            unfit.append(Band(edges[k], _round(edges[k + 1] - edges[k])))
    return StepChartVM(
        rl_loop=sweep.rl_loop and (current_s > 0 or not r.memory.fits),
        total=line("total_s"), generation=line("generation_s"), scoring=line("scoring_s"),
        training=line("training_s"), floor=line("tail_floor_s"), unfit=tuple(unfit),
        x_ticks=tuple(Tick(x(g), g) for g in GPU_TICKS),
        y_ticks=_spaced(tuple(Tick(y(t), t) for t in SECOND_TICKS if lo <= t <= hi)) if fit else (),  # no step: no scale
        marker_x=x(min(max(sweep.current, pts[0].gpus), pts[-1].gpus)), marker_y=y(current_s) if current_s > 0 else STEP_BOTTOM,
        current_gpus=sweep.current, current_s=current_s, fits=r.memory.fits, fitting_from=r.memory.min_gpus,
        rows=pts)


# the glossary entry each chart part links to (app/content/glossary.json ids; the reference page's #g-<id>)
PART_TERMS = {
    "gen": "rollout", "tail": "response_tail", "env": "agentic_rollout", "score": "reward_model", "train": "ppo_epoch", "sync": "refit",
    "actor": "policy", "critic": "critic", "reference": "reference_model", "reward": "reward_model",
    "gen_weights": "paged_engine", "kv": "kv_cache", "kv_reserved": "kv_cache", "activations": "activation_checkpointing",
    "logits": "logits_memory", "sft": "sft", "rm": "reward_model", "total": "gpu_seconds",
}


@dataclass(frozen=True, slots=True)
class Bar:
    part: str
    y: float
    x: float
    w: float
    value: float   # seconds or GB

    @property
    def term(self) -> str:  # its glossary entry
        return PART_TERMS.get(self.part, "")

    @property
    def text_y(self) -> float:  # the baseline of its label and value, inside a 20-unit bar
        return self.y + 15

    @property
    def value_x(self) -> float:  # its value, just right of its end
        return self.x + self.w + 6

    @property
    def key(self) -> str:  # a phase's name (the phase chart's bars; the step itself is part "total")
        return f"chart.phase.{self.part}"


@dataclass(frozen=True, slots=True)
class PartBar(Bar):
    """A model part's bar in the memory chart."""

    part_key: str = ""  # its name (est.part.<part>; DPO's one trained model is the policy, not an actor)

    @property
    def key(self) -> str:  # its name, as for any bar
        return self.part_key


@dataclass(frozen=True, slots=True)
class PhasesChartVM:
    """``[data-chart="step_phases"]``: one bar per phase on a common seconds scale, then the step itself."""

    rl_loop: bool
    bars: tuple[Bar, ...]
    total: Bar            # the step's wall clock
    at_gpus: int          # the step is timed on this many GPUs, the fewest that fit (0: the state's own)
    untimed: bool         # an RL loop that fits on no GPU count: no step to draw (chart.phases.nofit)
    overlapped_s: float   # seconds run in parallel (the phases' sum minus the step)
    x_ticks: tuple[Tick, ...]
    height: int
    peak_gb: float = 0.0
    peak_x: float = 0.0
    phases: tuple[PhaseGbVM, ...] = ()
    width: int = BAR_W
    left: int = BAR_LEFT
    right: int = BAR_RIGHT
    label_x: int = BAR_LEFT - 8  # the rows' names, right-aligned left of the bars

    @property
    def grid_bottom(self) -> int:  # the grid lines stop above the axis labels
        return self.height - 18

    @property
    def tick_y(self) -> int:
        return self.height - 4

    @property
    def grid(self) -> str:  # one path for the vertical grid lines at the marks
        return _vertical_grid(self.x_ticks, self.grid_bottom)

    @property
    def show_overlap(self) -> bool:  # at least half a second of the phases ran side by side: a line says so
        return self.overlapped_s >= OVERLAP_SHOWN_S


def _vertical_grid(ticks: tuple[Tick, ...], bottom: int) -> str:
    return "".join(f"M{t.at:g} 4V{bottom}" for t in ticks)


def _linear_ticks(hi: float, a: float, b: float, count: int = 4) -> tuple[Tick, ...]:
    """About ``count`` round marks from 0 to ``hi`` on [a, b]."""
    if hi <= 0:
        return ()
    raw = hi / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    n = int(hi // step)
    return tuple(Tick(_round(a + k * step / hi * (b - a)), k * step) for k in range(n + 1))


def phases_chart(r: Result) -> PhasesChartVM:
    p = series.step_phases(r)
    scale = max([p.total_s] + [ph.seconds for ph in p.phases]) or 1.0
    span = BAR_RIGHT - BAR_LEFT
    bars = tuple(Bar(ph.part, 8 + k * BAR_ROW, BAR_LEFT, _round(ph.seconds / scale * span), ph.seconds)
                 for k, ph in enumerate(p.phases))
    total = Bar("total", 8 + len(bars) * BAR_ROW + 6, BAR_LEFT, _round(p.total_s / scale * span), p.total_s)
    return PhasesChartVM(rl_loop=p.rl_loop, bars=bars, total=total, at_gpus=p.at_gpus, untimed=p.untimed,
                         overlapped_s=p.overlapped_s,
                         x_ticks=_linear_ticks(scale, BAR_LEFT, BAR_RIGHT), height=int(total.y + BAR_ROW + 20))


@dataclass(frozen=True, slots=True)
class MemLaneVM:
    lane: str
    gpus: int
    y: float
    bars: tuple[Bar, ...]
    total_gb: float
    over: bool
    kv: bool

    @property
    def text_y(self) -> float:  # its name's baseline, inside a 24-unit row
        return self.y + 17

    @property
    def name_key(self) -> str:  # the lane's name in the legend and the description (with the KV cache or not)
        return f"est.memlane.{self.lane}{'_kv' if self.kv else ''}"

    @property
    def short_key(self) -> str:  # its short name beside the bar
        return f"chart.memlane.{self.lane}"


@dataclass(frozen=True, slots=True)
class PhaseGbVM:
    """One phase's fullest GPU as nvidia-smi shows it."""

    key: str            # chart.memory.phase.<phase>
    gb: float


@dataclass(frozen=True, slots=True)
class MemoryChartVM:
    """``[data-chart="memory"]``: per-GPU GB by part, one row per GPU group, against the usable line, and the one
    memory figure (the plan's: the fullest GPU at its fullest phase as nvidia-smi shows it) with its phases."""

    lanes: tuple[MemLaneVM, ...]
    usable_x: float
    cap_x: float
    usable_gb: float
    gpu_gb: float
    fits: bool
    dpo: bool           # DPO and GRPO have no actor (no critic beside it): the trained model is named the policy
    x_ticks: tuple[Tick, ...]
    height: int
    peak_gb: float = 0.0
    peak_x: float = 0.0
    phases: tuple[PhaseGbVM, ...] = ()
    width: int = BAR_W
    left: int = BAR_LEFT
    right: int = BAR_RIGHT
    label_x: int = BAR_LEFT - 8  # the rows' names, right-aligned left of the bars

    @property
    def grid_bottom(self) -> int:  # the grid lines stop above the axis labels
        return self.height - 18

    @property
    def tick_y(self) -> int:
        return self.height - 4

    @property
    def grid(self) -> str:  # one path for the vertical grid lines at the marks
        return _vertical_grid(self.x_ticks, self.grid_bottom)


def memory_chart(r: Result) -> MemoryChartVM:
    m = series.memory(r)
    scale = max([m.gpu_gb, m.peak_gb] + [lane.total_gb for lane in m.lanes]) or 1.0
    span = BAR_RIGHT - BAR_LEFT
    lanes = []
    for k, lane in enumerate(m.lanes):
        x, bars = float(BAR_LEFT), []
        for part, gb in lane.parts:
            w = gb / scale * span
            # DPO and GRPO train no actor (no critic beside it): the one trained model is the policy
            name = r.plan.trained if part == "actor" else part
            bars.append(PartBar(part=part, y=0.0, x=_round(x), w=_round(w), value=gb, part_key=f"est.part.{name}"))
            x += w
        lanes.append(MemLaneVM(lane.lane, lane.gpus, 8 + k * (BAR_ROW + 4), tuple(bars), lane.total_gb, lane.over,
                               lane.kv))
    height = int(8 + len(lanes) * (BAR_ROW + 4) + 24)
    return MemoryChartVM(
        lanes=tuple(lanes), usable_x=_round(BAR_LEFT + m.usable_gb / scale * span),
        cap_x=_round(BAR_LEFT + m.gpu_gb / scale * span), usable_gb=m.usable_gb, gpu_gb=m.gpu_gb, fits=m.fits,
        dpo=r.plan.trained == "policy", x_ticks=_linear_ticks(scale, BAR_LEFT, BAR_RIGHT), height=height,
        peak_gb=m.peak_gb, peak_x=_round(BAR_LEFT + m.peak_gb / scale * span),
        phases=tuple(PhaseGbVM(key=f"chart.memory.phase.{phase}", gb=gb) for phase, gb in m.phases))


__all__ = ["MemoryChartVM", "PhasesChartVM", "StepChartVM", "memory_chart", "phases_chart", "step_chart"]
