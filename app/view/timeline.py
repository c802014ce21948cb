"""``[data-chart="timeline"]``: one step in time (``app/model/timeline.py``) placed on an SVG's axes — a lane per GPU
group, each segment a bar from its start to its end on one seconds scale.

Geometry and catalogue keys only (viewBox units; the template formats and draws).  A refit or weight broadcast is
often a fraction of a per cent of the step: it is drawn at least ``MIN_SYNC_W`` wide, against the step's end, so
it stays visible; its table row gives its real times.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.i18n.formats import axis_duration_unit, span_duration_unit
from app.model import Result
from app.model import timeline as model
from app.view.charts import Tick

frozen = dataclass(frozen=True, slots=True, kw_only=True)

TL_W = 760
# the bars' span: nearly the whole width (each lane's name sits above its bar, so a phone can draw it large:
# app.css), less room for the first and last marks' labels, centred on the span's ends, at 17 units in presenter view
# ("0 秒", "600 s": read33c's check of text inside the SVG)
TL_LEFT, TL_RIGHT = 24, 734
TL_TOP = 10  # room above the first lane's name at its phone size (25 units)
TL_ROW = 46
TL_LABEL_H = 22  # a lane: its name, then its bar
TL_BAR_H = 20
MIN_SYNC_W = 3.0


def _round(x: float) -> float:
    return round(x, 1)


@frozen
class SegmentVM:
    part: str          # gen | tail | env | score | fwd | train | sync | idle: the bar's class (ph-<part>, tl-idle)
    x: float
    w: float
    start_s: float
    end_s: float
    ahead: bool        # generation for the next step (off-policy): hatched
    idle: bool
    seconds: float     # how long it lasts (its end minus its start, as the model gives both)
    length_spec: str   # its length's format: the axis's unit, unless shorter than one of it (span_duration_unit)

    @property
    def css(self) -> str:  # the bar's class: the phase's colour (ph-<part>), waiting, or hatched when run ahead
        return "tl-idle" if self.idle else f"ph-{self.part}{' tl-ahead' if self.ahead else ''}"

    @property
    def name_key(self) -> str:  # its name in the table and the description
        if self.idle:
            return "timeline.part.idle"
        if self.ahead:
            return f"timeline.part.ahead_{self.part}"
        return f"chart.phase.{self.part}"


@frozen
class LaneVM:
    lane: str
    gpus: int
    y: float
    segments: tuple[SegmentVM, ...]

    @property
    def text_y(self) -> float:  # the lane's name, above its bar
        return self.y - 6

    @property
    def bar_y(self) -> float:
        return self.y

    @property
    def key(self) -> str:  # its name: the GPU group and its count
        return f"timeline.lane.{self.lane}"


@frozen
class TimelineVM:
    drawn: bool
    untimed: bool      # an RL loop that fits on no GPU count: no step to draw (chart.phases.nofit)
    lanes: tuple[LaneVM, ...]
    x_ticks: tuple[Tick, ...]
    total_s: float
    gpus: int
    now_key: str       # the caption's summary: colocated, split, or split and ahead
    staleness: int
    shows_idle: bool   # a group waits somewhere in the step (the key names "waiting")
    shows_ahead: bool  # generation runs for the next step (the key names it)
    shows_tail: bool
    shows_env: bool    # an agentic episode waits for its environment between turns (the key names it)
    shows_sync: bool
    shows_fwd: bool    # the training GPUs run scoring's forwards (the key names them)
    height: int
    width: int = TL_W
    left: int = TL_LEFT
    right: int = TL_RIGHT
    label_x: int = TL_LEFT

    @property
    def time_spec(self) -> str:
        """The format of the axis's marks and of every start and end (one unit for the step: 「138 秒–139 秒」, not
        「2.3 分钟–2.3 分钟」); a segment's length is in it too unless shorter than one of it (``length_spec``)."""
        return f"dur_{axis_duration_unit(self.total_s)}"

    @property
    def grid_bottom(self) -> int:
        return self.height - 20

    @property
    def tick_y(self) -> int:
        return self.height - 6

    @property
    def grid(self) -> str:
        return "".join(f"M{t.at:g} {TL_TOP - 2}V{self.grid_bottom}" for t in self.x_ticks)


# a mark's spacing, s: round in the unit the page writes a duration in (seconds, then whole minutes and hours)
TICK_STEPS_S = (1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 18_000, 36_000, 86_400)


def _whole(seconds: float) -> bool:
    """Whether a mark reads as a whole number in the unit the page writes it in (under 90 s in seconds, then whole
    minutes, then whole hours: 100 s would read "1.7 min")."""
    return seconds < 90 or (seconds % 60 == 0 and seconds < 5400) or seconds % 3600 == 0


def _ticks(total_s: float) -> tuple[Tick, ...]:
    """Marks from 0 to the step, at most five intervals, at the first round spacing whose every mark reads whole.

    >>> [t.value for t in _ticks(156)], [t.value for t in _ticks(48)], [t.value for t in _ticks(106)]
    ([0, 60, 120], [0, 10, 20, 30, 40], [0, 60])
    >>> len(_ticks(40 * 86_400))   # 40 days: five intervals of 8 days, not a mark a day
    6
    """
    span = TL_RIGHT - TL_LEFT
    for step in TICK_STEPS_S:
        values = [k * step for k in range(int(total_s // step) + 1)]
        if step * 5 >= total_s and all(_whole(v) for v in values):
            break
    else:  # a step longer than five of the widest spacing (hours of HF generate at 128K tokens): whole hours
        step = 3600 * math.ceil(total_s / 5 / 3600)
        values = [k * step for k in range(int(total_s // step) + 1)]
    return tuple(Tick(at=_round(TL_LEFT + v / total_s * span), value=v) for v in values)


def timeline_chart(r: Result) -> TimelineVM:
    t = model.timeline(r)
    scale = t.total_s if t.total_s > 0 else 1.0
    span = TL_RIGHT - TL_LEFT

    def at(seconds: float) -> float:
        return _round(TL_LEFT + seconds / scale * span)

    axis = axis_duration_unit(t.total_s)
    lanes = []
    for k, lane in enumerate(t.lanes):
        segments = []
        for seg in lane.segments:
            x, end = at(seg.start_s), at(seg.end_s)
            if seg.part == "sync" and end - x < MIN_SYNC_W:
                x = _round(end - MIN_SYNC_W)
            segments.append(SegmentVM(part=seg.part, x=x, w=_round(end - x), start_s=seg.start_s, end_s=seg.end_s,
                                      ahead=seg.ahead, idle=seg.part == "idle", seconds=seg.seconds,
                                      length_spec=f"dur_{span_duration_unit(seg.seconds, axis)}"))
        lanes.append(LaneVM(lane=lane.lane, gpus=lane.gpus, y=TL_TOP + TL_LABEL_H + k * TL_ROW,
                            segments=tuple(segments)))
    parts = {seg.part for lane in t.lanes for seg in lane.segments}
    now = "colocated" if t.colocated else ("ahead" if t.staleness else "separate")
    return TimelineVM(
        drawn=t.drawn, untimed=r.plan.rl and not r.timed, lanes=tuple(lanes),
        x_ticks=_ticks(t.total_s) if t.drawn else (),
        total_s=t.total_s, gpus=t.gpus, now_key=f"timeline.now.{now}", staleness=t.staleness,
        shows_idle="idle" in parts, shows_ahead=any(seg.ahead for lane in t.lanes for seg in lane.segments),
        shows_tail="tail" in parts, shows_env="env" in parts, shows_sync="sync" in parts, shows_fwd="fwd" in parts,
        height=int(TL_TOP + len(lanes) * TL_ROW + 28))  # the marks under the last bar, room for their descenders


__all__ = ["LaneVM", "SegmentVM", "TimelineVM", "timeline_chart"]
