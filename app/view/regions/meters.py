"""The meter cards (``meter_vm``) and the phone's meter strip (``strip``)."""

from __future__ import annotations

from app.model import Result
from app.model.assumptions import CONSTANTS
from app.model.meters import METER_IDS, UNTIMED_FIGURES, Meter
from app.view.regions.record import frozen


@frozen
class MeterVM:
    id: str
    meter: Meter
    focus: bool
    band: tuple[str, str]  # the <meter>'s low and high attributes
    short: str             # catalogue key of the physical figure beside the level (meter.<id>.figure_short)
    at_gpus: int = 0       # the figure was timed on this many GPUs, the fewest that fit (0: the state's own)
    untimed: bool = False  # a time meter with no step to time (nothing fits): no level shown, only "does not fit"

    @property
    def level_key(self) -> str:
        return f"level.{self.meter.level}"

    @property
    def label_key(self) -> str:  # its name above the card (outside the region: it never changes)
        return f"meter.{self.id}.label"


@frozen
class StripVM:
    meters: tuple[tuple[str, int, str], ...]  # (meter id, value, level)
    stage: str

    @property
    def items(self) -> tuple[tuple[str, int, str, str], ...]:  # (meter id, value, level, its short name's key)
        return tuple((k, value, level, f"meter.{k}.short") for k, value, level in self.meters)

    @property
    def stage_key(self) -> str:
        return f"stage.{self.stage}.name"


def _band(meter_id: str) -> tuple[str, str]:
    keys = ("memory_warn", "memory_hot") if meter_id == "train_memory" else ("meter_warn", "meter_hot")
    return tuple(f"{CONSTANTS[k].value:g}" for k in keys)


BANDS = {mid: _band(mid) for mid in METER_IDS}
# the physical figure beside a meter's level: which of its figure's arguments it shows (none: the meter is idle)
SHORT_ARG = {"rollout_load": "seconds", "scoring_load": "seconds", "train_memory": "per_gpu_gb",
             "kl_risk": "pressure", "eval_need": "hours", "train_load": "seconds"}


def _short(m: Meter) -> str:
    """The short figure's key: none when the meter is idle, "does not fit" when no step is timed, the run's end
    when it comes before the first eval, "… at N GPUs" when the model timed it on the fewest GPUs that fit
    (``Meter.at_gpus``)."""
    if m.figure in UNTIMED_FIGURES:
        return "meter.figure_short_nofit"
    if m.beyond_run:  # the run ends before its first eval: not "two evals 3.8 h apart"
        return f"meter.{m.id}.figure_short_beyond_run"
    if SHORT_ARG[m.id] not in m.figure_args:
        return "meter.figure_short_none"
    return f"meter.{m.id}.figure_short" + ("_at" if m.at_gpus is not None else "") + (
        "_reserved" if m.reserved else "")


def meter_vm(r: Result, meter_id: str, focus: bool) -> MeterVM:
    """One meter card; ``focus`` when the walkthrough step points at it."""
    m = r.meters[meter_id]
    return MeterVM(id=meter_id, meter=m, focus=focus, band=BANDS[meter_id], short=_short(m),
                   at_gpus=m.figure_args.get("at_gpus", 0),
                   untimed=m.figure in UNTIMED_FIGURES and meter_id != "eval_need")


def strip(r: Result) -> StripVM:
    return StripVM(meters=tuple((k, r.meters[k].value, r.meters[k].level) for k in METER_IDS), stage=r.stage)
