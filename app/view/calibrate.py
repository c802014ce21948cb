"""Your own run: the calibrate page's view-model (``/{lang}/calibrate``) and the JSON of ``POST /api/calibrate``, both
from one ``Calibration`` (app/calibrate/fit.py).  The chart's geometry is computed here; the template draws it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlencode

from pydantic import BaseModel, Field

from app.calibrate.fit import FACTOR_STATUS, Calibration
from app.calibrate.logs import PHASES
from app.i18n import translator
from app.i18n.formats import axis_duration_unit
from app.model import WorkloadInputs
from app.model.inputs import FACTOR_NUMBERS, FACTOR_SPECS, Notice, fmt_param
from app.view.links import canonical_query

LENGTH_DIFFERS = 0.10   # the log's length this far from the state's: the page says the state is not the run's
CHART_W, LABEL_W, BAR_H, BAR_GAP, GROUP_GAP = 640, 150, 14, 3, 14
_TAG = re.compile(r"</?(?:b|code|em)>")  # the catalogue's own markup, left out of the API's plain message
SERIES = ("measured", "predicted", "calibrated")  # the chart's bars per phase, in order


# --- the page ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Bar:
    series: str                 # measured | predicted | calibrated
    seconds: float
    y: int
    width: float                # px
    label_x: float              # where its value is written
    text_y: int

    @property
    def series_key(self) -> str:
        return f"calibrate.series.{self.series}"


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseGroup:
    phase: str
    y: int                      # the group's top
    label_y: int
    bars: tuple[Bar, ...]

    @property
    def label_key(self) -> str:
        return f"calibrate.phase.{self.phase}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Chart:
    width: int
    height: int
    label_w: int
    bar_h: int
    groups: tuple[PhaseGroup, ...]
    series: tuple[str, ...]

    @property
    def series_keys(self) -> tuple[tuple[str, str], ...]:
        return tuple((s, f"calibrate.series.{s}") for s in self.series)


def chart(c: Calibration) -> Chart:
    """Measured (the log's median), the lab's prediction and the prediction fitted to your run, per phase, on one
    linear scale of seconds."""
    top = max([v for p in c.phases for v in (p.measured_s, p.predicted_s, p.calibrated_s) if v is not None] + [1e-9])
    span = CHART_W - LABEL_W - 70
    groups, y = [], 4
    for p in c.phases:
        values = {"measured": p.measured_s, "predicted": p.predicted_s, "calibrated": p.calibrated_s}
        bars, by = [], y
        for s in SERIES:
            if values[s] is None:
                continue
            w = max(values[s] / top * span, 1.0)
            bars.append(Bar(series=s, seconds=values[s], y=by, width=round(w, 1), label_x=round(LABEL_W + w + 6, 1),
                            text_y=by + BAR_H - 3))
            by += BAR_H + BAR_GAP
        groups.append(PhaseGroup(phase=p.phase, y=y, label_y=y + BAR_H, bars=tuple(bars)))
        y = by + GROUP_GAP
    return Chart(width=CHART_W, height=y, label_w=LABEL_W, bar_h=BAR_H, groups=tuple(groups), series=SERIES)


def factor_spec(name: str, maximum: float) -> str:
    """How the page writes a factor, its bounds and the lab's value: seconds in the one unit of its upper bound
    (「0–500 毫秒」, the lab's 「4 毫秒」), fractions as numbers (「0.05–1」)."""
    return f"dur_{axis_duration_unit(maximum)}" if name.endswith("_s") else "g3"


@dataclass(frozen=True, slots=True, kw_only=True)
class FactorRow:
    name: str
    value: str                  # as the URL writes it; "" when not fitted
    lab_value: float
    shown: str                  # the value as the page writes it (seconds as durations), "" when not fitted
    lab_shown: str
    minimum: float
    maximum: float
    status: str
    fitted: bool                # a value the query carries (fitted or at a bound)
    at_bound: bool
    seconds: bool               # refit_s and the overhead are seconds; the rest fractions
    pinned_by: str              # the logged names, joined
    steps: int

    @property
    def label_key(self) -> str:
        return f"input.{self.name}.label"

    @property
    def spec(self) -> str:
        return factor_spec(self.name, self.maximum)

    @property
    def status_key(self) -> str:
        return f"calibrate.status.{self.status}"

    @property
    def phase_key(self) -> str:
        return f"calibrate.phase.{_PHASE_OF[self.name]}"


_PHASE_OF = {"decode_bandwidth_efficiency": "generation", "decode_step_overhead_s": "generation",
             "scoring_mfu": "scoring", "train_mfu": "training", "refit_s": "refit"}


@dataclass(frozen=True, slots=True, kw_only=True)
class LengthRow:
    name: str
    log: float | None
    state: float
    logged: bool
    differs: bool

    @property
    def label_key(self) -> str:
        return f"calibrate.length.{self.name}"


@dataclass(frozen=True, slots=True, kw_only=True)
class OutlierRow:
    step: int
    phase: str
    seconds: float
    median_s: float

    @property
    def phase_key(self) -> str:
        return f"calibrate.phase.{self.phase}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    framework_key: str
    steps_read: int
    steps: str                  # the step numbers read, "1, 2, 3" (zh "1、2、3")
    dropped: str                # the step numbers dropped, "" when none
    has_dropped: bool
    chart: Chart
    factors: tuple[FactorRow, ...]
    any_fitted: bool
    outliers: tuple[OutlierRow, ...]
    has_outliers: bool
    lengths: tuple[LengthRow, ...]
    lengths_differ: bool
    calibrated_url: str         # the lab with the fitted factors
    calibrated_query: str


@dataclass(frozen=True, slots=True, kw_only=True)
class StateFact:
    label_key: str
    value: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Page:
    lang: str
    action: str                 # the form's POST target: this page with the state
    lab_url: str
    facts: tuple[StateFact, ...]
    notices: tuple[Notice, ...]
    has_notices: bool
    result: Result | None
    error_key: str              # "" when none
    error_limit: int
    has_error: bool
    max_kb: int
    max_chars: int
    max_lines: int


def _facts(i: WorkloadInputs, lang: str) -> tuple[StateFact, ...]:
    t = translator(lang)
    arch = t("calibrate.state.custom", size=i.policy_b) if i.arch == "custom" else t(f"choice.arch.{i.arch}")
    return (
        StateFact(label_key="input.method.label", value=t(f"choice.method.{i.method}")),
        StateFact(label_key="input.arch.label", value=arch),
        StateFact(label_key="input.gpus.label", value=t("calibrate.state.gpus", gpus=i.gpus,
                                                           gpu=t(f"choice.gpu.{i.gpu}"))),
        StateFact(label_key="input.placement.label", value=t(f"choice.placement.{i.placement}")),
        StateFact(label_key="input.engine.label", value=t(f"choice.engine.{i.engine}")),
        StateFact(label_key="input.rollouts.label", value=t.fmt("n", i.rollouts)),
        StateFact(label_key="input.prompt_tokens.label", value=t.fmt("n", i.prompt_tokens)),
        StateFact(label_key="input.response_tokens.label", value=t.fmt("n", i.response_tokens)),
    )


def _shown(t, name: str, value: float | None) -> str:  # noqa: ANN001 - a Translator
    if value is None:
        return ""
    return t.fmt("dur", value) if name.endswith("_s") else t.fmt("g3", value)


def result_vm(lang: str, c: Calibration) -> Result:
    t = translator(lang)
    factors = tuple(FactorRow(
        name=f.name, value="" if f.value is None else fmt_param(f.value), lab_value=f.lab_value,
        shown=_shown(t, f.name, f.value), lab_shown=_shown(t, f.name, f.lab_value),
        minimum=f.minimum, maximum=f.maximum, status=f.status, fitted=f.value is not None,
        at_bound=f.status == "at_bound", seconds=f.name.endswith("_s"), pinned_by=", ".join(f.pinned_by),
        steps=f.steps) for f in c.factors)
    lengths = tuple(LengthRow(name=x.name, log=x.log, state=x.state, logged=x.log is not None,
                              differs=x.log is not None and abs(x.log - x.state) > LENGTH_DIFFERS * x.state)
                    for x in c.lengths)
    outliers = tuple(OutlierRow(step=o.step, phase=o.phase, seconds=o.seconds, median_s=o.median_s)
                     for o in c.outliers)
    query = canonical_query(c.inputs)
    sep = t("ui.list_sep")
    return Result(
        framework_key=f"calibrate.framework.{c.framework}", steps_read=c.steps_read,
        steps=sep.join(map(str, c.step_numbers[:40])) + (" …" if len(c.step_numbers) > 40 else ""),
        dropped=sep.join(map(str, c.dropped[:40])), has_dropped=bool(c.dropped), chart=chart(c), factors=factors,
        any_fitted=any(f.fitted for f in factors), outliers=outliers, has_outliers=bool(outliers),
        lengths=lengths, lengths_differ=any(x.differs for x in lengths),
        calibrated_url=f"/{lang}/?{query}", calibrated_query=query)


def page(lang: str, inputs: WorkloadInputs, notices: tuple[Notice, ...] = (), result: Calibration | None = None,
         error_kind: str = "", error_limit: int = 0, *, max_bytes: int, max_lines: int) -> Page:
    query = canonical_query(inputs)
    return Page(lang=lang, action=f"/{lang}/calibrate?{query}", lab_url=f"/{lang}/?{query}",
                facts=_facts(inputs, lang), notices=notices, has_notices=bool(notices),
                result=result_vm(lang, result) if result is not None else None,
                error_key=f"calibrate.error.{error_kind}" if error_kind else "", error_limit=error_limit,
                has_error=bool(error_kind), max_kb=max_bytes // 1000, max_chars=max_bytes, max_lines=max_lines)


# --- the reference page's list of factors --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class FactorSpecRow:
    name: str
    lab_value: float
    minimum: float
    maximum: float
    modelled: bool              # refit_s: the lab's own value is the state's modelled refit, not one constant

    @property
    def label_key(self) -> str:
        return f"input.{self.name}.label"

    @property
    def spec(self) -> str:
        return factor_spec(self.name, self.maximum)

    @property
    def what_key(self) -> str:
        return f"calibrate.factor.{self.name}.what"

    @property
    def phase_key(self) -> str:
        return f"calibrate.phase.{_PHASE_OF[self.name]}"


FACTOR_ROWS = tuple(FactorSpecRow(name=s.name, lab_value=s.default, minimum=s.minimum, maximum=s.maximum,
                                  modelled=s.name == "refit_s") for s in FACTOR_NUMBERS)


# --- the JSON -----------------------------------------------------------------------------------------------------


class PhaseOut(BaseModel):
    measured_s: float | None = Field(description="the median over the steps that logged this phase; null: not logged")
    predicted_s: float = Field(description="the lab's prediction with its own constants")
    calibrated_s: float = Field(description="the prediction with the fitted factors (what `query` answers)")
    steps: int = Field(description="steps that logged this phase")


class FactorOut(BaseModel):
    value: float | None = Field(description="the fitted value (an input of `query`); null: not fitted, the lab's own "
                                            "value applies")
    lab_value: float = Field(description="the lab's own constant (refit_s: this state's modelled refit, s)")
    bounds: tuple[float, float] = Field(description="the range the fit keeps the factor in (the input's range)")
    status: str = Field(description=f"one of {', '.join(FACTOR_STATUS)}")
    pinned_by: dict = Field(description="what pinned it: the lab's phase, the logged names summed into it and the "
                                        "steps whose median was matched")


class OutlierOut(BaseModel):
    step: int
    phase: str
    seconds: float
    median_s: float


class LengthOut(BaseModel):
    log: float | None = Field(description="the median the log reports, tokens; null: not logged")
    state: float = Field(description="the state's (response_tokens, response_max_tokens, prompt_tokens)")


class CalibrateOut(BaseModel):
    """The factors a pasted log pins for the lab state of its run."""

    framework: str = Field(description="verl | openrlhf | nemo_rl: whose metric names the log uses")
    format: str = Field(description="console | csv")
    steps_read: int
    steps: list[int] = Field(description="the step numbers read")
    dropped_steps: list[int] = Field(description="steps whose timings were negative, NaN or infinite (not used)")
    phases: dict[str, PhaseOut] = Field(description=f"by phase: {', '.join(PHASES)}")
    factors: dict[str, FactorOut]
    outliers: list[OutlierOut] = Field(description="steps a phase of which lies beyond 1.5× of its median")
    lengths: dict[str, LengthOut] = Field(description="the response and prompt lengths the log reports, beside the "
                                                      "state's")
    query: dict[str, str] = Field(description="the lab state with the fitted factors as explicit inputs: "
                                              "GET /api/evaluate with it answers calibrated_s")
    links: dict[str, str] = Field(description="the lab, the calibrate page and the planner for `query` (en)")


def calibrate_out(c: Calibration) -> CalibrateOut:
    query = c.query
    return CalibrateOut(
        framework=c.framework, format=c.format, steps_read=c.steps_read, steps=list(c.step_numbers),
        dropped_steps=list(c.dropped),
        phases={p.phase: PhaseOut(measured_s=p.measured_s, predicted_s=p.predicted_s, calibrated_s=p.calibrated_s,
                                  steps=p.steps) for p in c.phases},
        factors={f.name: FactorOut(value=f.value, lab_value=f.lab_value, bounds=(f.minimum, f.maximum),
                                   status=f.status, pinned_by={"phase": f.phase, "names": list(f.pinned_by),
                                                               "steps": f.steps}) for f in c.factors},
        outliers=[OutlierOut(step=o.step, phase=o.phase, seconds=o.seconds, median_s=o.median_s) for o in c.outliers],
        lengths={x.name: LengthOut(log=x.log, state=x.state) for x in c.lengths},
        query=query,
        links={"lab": f"/en/?{urlencode(query)}", "calibrate": f"/en/calibrate?{urlencode(query)}",
               "plan": f"/en/plan?{urlencode(query)}"})


def error_message(kind: str, limit: int = 0) -> str:
    """The English text of a paste the API could not use (the page shows the reader's language)."""
    return _TAG.sub("", translator("en")(f"calibrate.error.{kind}", limit=limit, max_kb=limit // 1000))


assert set(_PHASE_OF) == set(FACTOR_SPECS)
