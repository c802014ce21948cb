"""Fit the factors a run's own log pins: the lab's phases matched to the logged ones, the median over the steps read,
and each factor found where the model's phase equals the measured one, within the factor's bounds.

Phases (``PHASES``) and what each is matched to: generation (verl ``timing_s/gen``, OpenRLHF ``timing/generation``,
NeMo RL ``generation``), scoring (the old log-probs, reference, values and reward: verl ``old_log_prob + ref +
values + reward``, OpenRLHF ``make_experience``, NeMo RL ``policy_and_reference_logprobs + reward_calculation``),
training (verl ``update_actor + update_critic``, OpenRLHF ``ppo_train``, NeMo RL ``policy_training``), refit (verl
``update_weights``, OpenRLHF ``broadcast``, NeMo RL ``prepare_for_generation/total``) and the step.

Factors (app/model/inputs.py ``FACTOR_NUMBERS``, each an ordinary input) and the phase that pins each:

* ``scoring_mfu`` — scoring; ``train_mfu`` — training; ``refit_s`` — the refit, taken as measured;
* generation pins one of ``decode_bandwidth_efficiency`` and ``decode_step_overhead_s``: the one the model's
  generation is more sensitive to in this state (its elasticity, d ln t / d ln x, at the lab's constants; a small
  model on a fast GPU is overhead-bound, a large one bandwidth-bound).  The other is held at the lab's constant —
  unless the first reaches its bound, when the other takes up the rest.

Each factor is found by a grid over the logarithm of its range and a bisection of the crossing nearest the lab's own
value (the phase falls as a utilisation rises, but a separate placement's split search may change the layout on the
way), holding the others; two rounds, since the layout search sees every factor.  A factor
whose phase the log does not report, or which moves its phase by less than ``INSENSITIVE`` over its whole range, is
not fitted and stays absent from the query (the lab's own value).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import NamedTuple

from app.calibrate.logs import NAMES, PHASES, LogRead
from app.model.assumptions import DECODE_STEP_OVERHEAD_HF_S, DECODE_STEP_OVERHEAD_S
from app.model.evaluate import evaluate
from app.model.inputs import FACTOR_NAMES, FACTOR_SPECS, WorkloadInputs, effective
from app.model.stage_cost import loop_of
from app.model.stages import stage_of

OUTLIER_RATIO = 1.5      # a step whose phase is beyond 1.5× (or below 1 / 1.5) of the median is named
OUTLIER_MIN_S = 0.5      # phases shorter than this are not judged (a clock's jitter)
INSENSITIVE = 0.01       # a factor that moves its phase by less than 1 % over its range is not pinned by it
GRID = 13                # points the factor's log-range is first sampled at
BISECTIONS = 20          # halvings of one grid interval: 2^-20 of it, far below 0.1 %
ROUNDS = 2
OVERHEAD_FLOOR_S = 1e-5  # decode_step_overhead_s is searched from here (its bound 0 has no logarithm)
FITTED_PHASES = ("generation", "scoring", "training", "refit")
# the factor each phase pins first, and (generation) the other it may pin instead
PINS = {"scoring": ("scoring_mfu",), "training": ("train_mfu",), "refit": ("refit_s",),
        "generation": ("decode_bandwidth_efficiency", "decode_step_overhead_s")}
FACTOR_STATUS = ("fitted", "at_bound", "held", "not_logged", "insensitive")
CALIBRATION_ERROR_KINDS = ("not_rl", "no_fit")


class CalibrationError(ValueError):
    """A state the fit cannot use: ``not_rl`` (no RL step: SFT, a reward model, DPO) or ``no_fit`` (its models do not
    fit on its GPUs, where the logged run ran: the state is not that run's)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class Phases(NamedTuple):
    """One step's seconds by phase."""

    generation: float
    scoring: float
    training: float
    refit: float
    step: float


def predicted_phases(inputs: WorkloadInputs) -> Phases:
    """The model's phases for ``inputs``, s: the one place this package reads them (``evaluate(…).step`` today; the
    resolved plan's phases when the model has one)."""
    s = evaluate(inputs).step
    return Phases(generation=s.generation_s, scoring=s.scoring_s, training=s.training_s, refit=s.sync_s,
                  step=s.total_s)


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseFit:
    phase: str
    measured_s: float | None    # the median over the steps that logged it; None: not logged
    predicted_s: float          # the lab's own (no factor set)
    calibrated_s: float         # with the fitted factors (the ``query``'s answer)
    steps: int                  # steps that logged it


@dataclass(frozen=True, slots=True, kw_only=True)
class Factor:
    name: str
    value: float | None         # None: not fitted (the lab's own value applies)
    lab_value: float            # the lab's constant (refit_s: the modelled refit of this state, s)
    minimum: float
    maximum: float
    status: str                 # one of FACTOR_STATUS
    phase: str                  # the phase that pins it
    pinned_by: tuple[str, ...]  # the logged names summed into that phase
    steps: int                  # the steps whose median pinned it


@dataclass(frozen=True, slots=True, kw_only=True)
class Outlier:
    step: int
    phase: str
    seconds: float
    median_s: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Length:
    name: str                   # response_mean | response_max | prompt_mean
    log: float | None           # the median the log reports, tokens
    state: float                # the state's (response_tokens, response_max_tokens, prompt_tokens)


@dataclass(frozen=True, slots=True, kw_only=True)
class Calibration:
    framework: str
    format: str
    steps_read: int
    step_numbers: tuple[int, ...]
    dropped: tuple[int, ...]
    phases: tuple[PhaseFit, ...]
    factors: tuple[Factor, ...]
    outliers: tuple[Outlier, ...]
    lengths: tuple[Length, ...]
    inputs: WorkloadInputs      # the state with the fitted factors as explicit inputs
    names: tuple[str, ...]      # the logged names that were read

    @property
    def query(self) -> dict[str, str]:
        return self.inputs.query()

    @property
    def fitted(self) -> tuple[Factor, ...]:
        return tuple(f for f in self.factors if f.value is not None)


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def measured(log: LogRead) -> dict[str, tuple[float | None, int]]:
    """Per phase: (the median over the steps that logged it, how many did).

    >>> from app.calibrate.logs import read_log
    >>> m = measured(read_log("step:1 - timing_s/gen:90 - timing_s/step:100\\nstep:2 - timing_s/gen:110 - timing_s/step:130"
    ...                       "\\nstep:3 - timing_s/gen:100 - timing_s/step:120"))
    >>> m["generation"], m["step"], m["training"]
    ((100.0, 3), (120.0, 3), (None, 0))
    """
    out = {}
    for phase in PHASES:
        values = [v for s in log.steps if (v := s.phase(phase)) is not None]
        out[phase] = (_median(values), len(values))
    return out


def outliers(log: LogRead, medians: dict[str, tuple[float | None, int]]) -> tuple[Outlier, ...]:
    """The steps a phase of which lies beyond ``OUTLIER_RATIO`` of that phase's median (the median ignores them)."""
    out = []
    for s in log.steps:
        for phase in PHASES:
            value, med = s.phase(phase), medians[phase][0]
            if value is None or med is None or max(value, med) < OUTLIER_MIN_S:
                continue
            if value > med * OUTLIER_RATIO or value * OUTLIER_RATIO < med:
                out.append(Outlier(step=s.step, phase=phase, seconds=value, median_s=med))
    return tuple(out)


def _phase_at(base: WorkloadInputs, phase: str, factors: dict[str, float]) -> float:
    return getattr(predicted_phases(base.model_copy(update=factors)), phase)


def _search(base: WorkloadInputs, phase: str, name: str, target: float,
            factors: dict[str, float]) -> tuple[float | None, str]:
    """(value, status): the factor ``name`` at which the model's ``phase`` is ``target`` s, the others held at
    ``factors``.  The phase is sampled at ``GRID`` points spread evenly in ln(factor) over the factor's range; of the
    intervals where it crosses the target, the one nearest the lab's own value is bisected (a separate placement's
    split search can change the layout as a factor moves, so the phase is monotone only piecewise).  No crossing:
    the end of the range nearer the target, ``at_bound``."""
    spec = FACTOR_SPECS[name]
    a, b = math.log(max(spec.minimum, OVERHEAD_FLOOR_S)), math.log(spec.maximum)
    xs = [a + (b - a) * k / (GRID - 1) for k in range(GRID)]
    ts = [_phase_at(base, phase, {**factors, name: math.exp(x)}) for x in xs]
    if max(ts) - min(ts) < INSENSITIVE * max(max(ts), 1e-9):
        return None, "insensitive"
    crossings = [k for k in range(GRID - 1) if (ts[k] - target) * (ts[k + 1] - target) <= 0]
    if not crossings:
        end = 0 if abs(ts[0] - target) <= abs(ts[-1] - target) else GRID - 1
        return math.exp(xs[end]), "at_bound"
    lab = math.log(max(spec.default, OVERHEAD_FLOOR_S))
    k = min(crossings, key=lambda j: abs((xs[j] + xs[j + 1]) / 2 - lab))
    lo, hi, rising = xs[k], xs[k + 1], ts[k + 1] > ts[k]
    for _ in range(BISECTIONS):
        mid = (lo + hi) / 2
        if (_phase_at(base, phase, {**factors, name: math.exp(mid)}) < target) == rising:
            lo = mid
        else:
            hi = mid
    return math.exp((lo + hi) / 2), "fitted"


def _elasticity(base: WorkloadInputs, name: str, lab: float) -> float:
    """|d ln generation / d ln factor| at the lab's value (a 10 % step up)."""
    t0 = _phase_at(base, "generation", {})
    t1 = _phase_at(base, "generation", {name: lab * 1.1})
    return abs(math.log(max(t1, 1e-12) / max(t0, 1e-12))) / math.log(1.1) if t0 > 0 else 0.0


def _fit_generation(base: WorkloadInputs, target: float, first: str, second: str, factors: dict[str, float],
                    status: dict[str, str]) -> dict[str, float]:
    """``factors`` with generation's: ``first`` fitted, ``second`` held at the lab's value — unless ``first`` reaches
    its bound (or cannot move the phase), when ``second`` takes up the rest."""
    others = {k: v for k, v in factors.items() if k not in (first, second)}
    value, status[first] = _search(base, "generation", first, target, others)
    out = {**others, **({first: value} if value is not None else {})}
    status[second] = "held"
    if status[first] in ("at_bound", "insensitive"):
        value2, status[second] = _search(base, "generation", second, target, out)
        if value2 is not None:
            out[second] = value2
    return out


def _lab_values(base: WorkloadInputs, lab: Phases) -> dict[str, float]:
    values = {s.name: s.default for s in FACTOR_SPECS.values()}
    values["refit_s"] = lab.refit
    # the lab's own overhead is its engine release's (data/engines.toml), HF generate's inside the trainer
    values["decode_step_overhead_s"] = (DECODE_STEP_OVERHEAD_HF_S if base.engine == "hf"
                                        else DECODE_STEP_OVERHEAD_S[base.engine_release])
    return values


def calibrate(inputs: WorkloadInputs, log: LogRead) -> Calibration:
    """The factors ``log`` pins for the run ``inputs`` describes, and what they change (``Calibration``)."""
    base = effective(inputs).model_copy(update={n: None for n in FACTOR_NAMES})
    if loop_of(stage_of(base)) != "rl":
        raise CalibrationError("not_rl")
    result = evaluate(base)
    if not result.timed or result.timed_elsewhere:
        raise CalibrationError("no_fit")
    lab = predicted_phases(base)
    medians = measured(log)
    lab_values = _lab_values(base, lab)
    factors: dict[str, float] = {}
    status: dict[str, str] = {n: "not_logged" for n in FACTOR_NAMES}
    if medians["refit"][0] is not None:
        spec, value = FACTOR_SPECS["refit_s"], medians["refit"][0]
        factors["refit_s"] = min(max(value, spec.minimum), spec.maximum)
        status["refit_s"] = "fitted" if spec.minimum <= value <= spec.maximum else "at_bound"
    first = second = None
    if medians["generation"][0] is not None:  # the generation factor the model is more sensitive to goes first
        first, second = sorted(PINS["generation"], key=lambda n: -_elasticity(base, n, lab_values[n]))
    for _ in range(ROUNDS):
        if first is not None:
            factors = _fit_generation(base, medians["generation"][0], first, second, factors, status)
        for phase in ("scoring", "training"):
            name, target = PINS[phase][0], medians[phase][0]
            if target is None:
                continue
            value, status[name] = _search(base, phase, name, target, {k: v for k, v in factors.items() if k != name})
            factors.pop(name, None)
            if value is not None:
                factors[name] = value
    calibrated = base.model_copy(update={k: _rounded(v) for k, v in factors.items()})
    after = predicted_phases(calibrated)
    phase_fits = tuple(PhaseFit(phase=p, measured_s=medians[p][0], predicted_s=getattr(lab, p),
                                calibrated_s=getattr(after, p), steps=medians[p][1]) for p in PHASES)
    names_by_phase = _names_by_phase(log)
    factor_rows = tuple(
        Factor(name=name, value=calibrated.model_dump()[name], lab_value=lab_values[name],
               minimum=FACTOR_SPECS[name].minimum, maximum=FACTOR_SPECS[name].maximum, status=status[name],
               phase=_phase_of(name), pinned_by=names_by_phase.get(_phase_of(name), ()),
               steps=medians[_phase_of(name)][1])
        for name in FACTOR_NAMES)
    lengths = _lengths(base, log)
    return Calibration(framework=log.framework, format=log.format, steps_read=log.steps_read,
                       step_numbers=tuple(s.step for s in log.steps), dropped=log.dropped, phases=phase_fits,
                       factors=factor_rows, outliers=outliers(log, medians), lengths=lengths, inputs=calibrated,
                       names=log.names)


def _rounded(value: float) -> float:
    """Four significant digits: the query stays short and a fitted value reads as it is (0.4213, not 0.42131977)."""
    return float(f"{value:.4g}")


def _phase_of(name: str) -> str:
    return next(p for p, names in PINS.items() if name in names)


def _names_by_phase(log: LogRead) -> dict[str, tuple[str, ...]]:
    names = NAMES[log.framework]
    out: dict[str, list[str]] = {}
    for n in log.names:
        if n in names:
            out.setdefault(names[n].field, []).append(n)
    return {k: tuple(v) for k, v in out.items()}


def _lengths(i: WorkloadInputs, log: LogRead) -> tuple[Length, ...]:
    def med(field: str) -> float | None:
        return _median([v for s in log.steps if (v := getattr(s, field)) is not None])

    return (Length(name="response_mean", log=med("response_mean"), state=float(i.response_tokens)),
            Length(name="response_max", log=med("response_max"), state=float(i.response_max_tokens)),
            Length(name="prompt_mean", log=med("prompt_mean"), state=float(i.prompt_tokens)))
