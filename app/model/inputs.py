"""The workload parameters: names, units, ranges, defaults, slider ladders, and clamping.

One name per parameter, shared by the page URL, the form, the partial and the JSON API
(see shared/design/PRODUCT.md, "the contract").  Two ways in:

* ``WorkloadInputs`` (pydantic) validates strictly; the JSON API uses it and answers 422 naming the field.
* ``normalise(query)`` never fails; the page uses it, clamps what is out of range and returns
  ``Notice`` objects that name the field, what was given and the bound applied.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.model.assumptions import SEPARATE_MIN_GPUS

Method = Literal["ppo", "dpo"]
Placement = Literal["colocated", "separate"]
GpuKey = Literal["a100_40g", "a100_80g", "h100_80g", "h200_141g"]


@dataclass(frozen=True, slots=True)
class NumberSpec:
    name: str
    default: float
    minimum: float
    maximum: float
    integer: bool
    unit: str
    ladder: tuple[float, ...]  # slider notches (log-like spacing); typed values need not be on it
    group: str = "workload"


@dataclass(frozen=True, slots=True)
class ChoiceSpec:
    name: str
    default: str
    choices: tuple[str, ...]
    group: str = "workload"


_M = 1_000_000
NUMBERS: tuple[NumberSpec, ...] = (
    NumberSpec("demos", 13_000, 0, 10 * _M, True, "demos",
               (0, 1_000, 2_000, 5_000, 13_000, 20_000, 50_000, 100_000, 200_000, 500_000, _M, 2 * _M,
                5 * _M, 10 * _M)),
    NumberSpec("pairs", 161_000, 0, 10 * _M, True, "pairs",
               (0, 1_000, 5_000, 10_000, 20_000, 61_000, 100_000, 161_000, 300_000, 500_000, _M, 1_420_000,
                2_920_000, 5 * _M, 10 * _M)),
    NumberSpec("rollouts", 512, 0, 8_192, True, "rollouts",
               (0, 16, 32, 64, 128, 256, 384, 512, 640, 768, 1_024, 1_536, 2_048, 3_072, 4_096, 6_144, 8_192)),
    NumberSpec("policy_b", 7, 0.1, 1_000, False, "B params",
               (0.1, 0.125, 0.35, 0.5, 1, 1.3, 1.5, 3, 6, 7, 8, 13, 14, 30, 34, 65, 70, 175, 405, 671, 1_000)),
    NumberSpec("rm_b", 7, 0.1, 1_000, False, "B params",
               (0.1, 0.125, 0.35, 0.5, 1, 1.3, 1.5, 3, 6, 7, 8, 13, 14, 30, 34, 65, 70, 175, 405, 671, 1_000)),
    NumberSpec("epochs", 1, 1, 16, True, "epochs", tuple(range(1, 17))),
    NumberSpec("kl", 0.02, 0.001, 1, False, "β",
               (0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 1)),
    NumberSpec("eval_every", 100, 1, 1_000, True, "steps",
               (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1_000)),
    NumberSpec("gpus", 8, 1, 4_096, True, "GPUs",
               (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1_024, 2_048, 4_096), "hardware"),
    NumberSpec("prompt_tokens", 512, 16, 32_768, True, "tokens",
               (16, 32, 64, 128, 256, 512, 1_024, 2_048, 4_096, 8_192, 16_384, 32_768), "hardware"),
    NumberSpec("response_tokens", 1024, 16, 32_768, True, "tokens",
               (16, 32, 64, 128, 256, 512, 1_024, 2_048, 4_096, 8_192, 16_384, 32_768), "hardware"),
)
CHOICES: tuple[ChoiceSpec, ...] = (
    ChoiceSpec("method", "ppo", ("ppo", "dpo")),
    ChoiceSpec("placement", "separate", ("colocated", "separate"), "hardware"),
    ChoiceSpec("gpu", "a100_80g", ("a100_40g", "a100_80g", "h100_80g", "h200_141g"), "hardware"),
)
NUMBER_SPECS = {s.name: s for s in NUMBERS}
CHOICE_SPECS = {s.name: s for s in CHOICES}
PARAM_NAMES: tuple[str, ...] = (
    "demos", "pairs", "rollouts", "policy_b", "rm_b", "epochs", "kl", "eval_every", "method",
    "placement", "gpu", "gpus", "prompt_tokens", "response_tokens",
)
STEP_MAX = 8  # walkthrough steps; see scenarios.WALKTHROUGH


class WorkloadInputs(BaseModel):
    """The workload, validated strictly (the JSON API's query model)."""

    model_config = ConfigDict(frozen=True, extra="ignore", allow_inf_nan=False)

    demos: int = Field(13_000, ge=0, le=10 * _M, description="SFT demonstrations")
    pairs: int = Field(161_000, ge=0, le=10 * _M, description="preference pairs")
    rollouts: int = Field(512, ge=0, le=8_192, description="rollouts per PPO step")
    policy_b: float = Field(7, ge=0.1, le=1_000, description="policy size, billions of parameters")
    rm_b: float = Field(7, ge=0.1, le=1_000, description="reward model (and critic) size, billions of parameters")
    epochs: int = Field(1, ge=1, le=16, description="PPO epochs per batch of rollouts (DPO: epochs over the pairs)")
    kl: float = Field(0.02, ge=0.001, le=1, description="KL coefficient β (DPO's β under DPO)")
    eval_every: int = Field(100, ge=1, le=1_000, description="PPO (or DPO) steps between evals")
    method: Method = Field("ppo", description="ppo or dpo")
    placement: Placement = Field("separate", description="colocated or separate generation/scoring")
    gpu: GpuKey = Field("a100_80g", description="GPU type")
    gpus: int = Field(8, ge=1, le=4_096, description="total GPU count")
    prompt_tokens: int = Field(512, ge=16, le=32_768, description="prompt length, tokens")
    response_tokens: int = Field(1024, ge=16, le=32_768, description="response length, tokens")
    step: int | None = Field(None, ge=1, le=STEP_MAX, description="walkthrough step (optional)")

    def query(self, **changes: object) -> dict[str, str]:
        """The canonical query parameters (every contract parameter, ``step`` only when set)."""
        out = {name: fmt_param(changes[name] if name in changes else getattr(self, name)) for name in PARAM_NAMES}
        step = changes.get("step", self.step)
        if step is not None:
            out["step"] = str(step)
        return out


DEFAULTS = WorkloadInputs()


def fmt_param(value: object) -> str:
    """A parameter value as it appears in a URL: integers without '.0', floats in shortest form."""
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return repr(value)
    return str(value)


@dataclass(frozen=True, slots=True)
class Notice:
    """What normalise() did to one parameter. ``kind``: below_min, above_max, rounded, empty, invalid,
    unknown_choice, separate_needs_gpus."""

    field: str
    kind: str
    given: str
    used: str


_MAX_ECHO = 40  # characters of a bad value echoed back in a notice


def _first(value: str | Sequence[str]) -> str | None:
    """The last of repeated values; None when a key came with no value at all."""
    if isinstance(value, str):
        return value
    return value[-1] if value else None


def _text(query: Mapping[str, str | Sequence[str]], name: str) -> str | None:
    raw = query.get(name)
    if raw is None:
        return None
    text = _first(raw)
    return None if text is None else text.strip()


def _number(spec: NumberSpec, text: str) -> tuple[float | int | None, str]:
    """One numeric parameter's text → (value, notice kind): the value None when the default applies (empty or not a
    number), the kind "" when the text was taken as it is.

    >>> _number(NUMBER_SPECS["gpus"], "12.6"), _number(NUMBER_SPECS["gpus"], "1e9"), _number(NUMBER_SPECS["kl"], "x")
    ((13, 'rounded'), (4096, 'above_max'), (None, 'invalid'))
    """
    if text == "":
        return None, "empty"
    try:
        number = float(text.replace(",", "").replace("_", ""))
    except ValueError:
        return None, "invalid"
    if math.isnan(number):
        return None, "invalid"
    if number < spec.minimum:
        number, kind = spec.minimum, "below_min"
    elif number > spec.maximum:
        number, kind = spec.maximum, "above_max"
    else:
        kind = ""
    if spec.integer and not float(number).is_integer():
        number = float(round(number))
        kind = kind or "rounded"
    return (int(number) if spec.integer else number), kind


@lru_cache(maxsize=4096)
def _known_number(name: str, text: str) -> tuple[float | int | None, str]:
    return _number(NUMBER_SPECS[name], text)


def normalise(query: Mapping[str, str | Sequence[str]]) -> tuple[WorkloadInputs, tuple[Notice, ...]]:
    """Parse a query string mapping into clamped inputs plus one Notice per corrected field.

    Missing parameters take their defaults; unknown ones are ignored; a repeated one takes its last value.
    Never raises.
    """
    values: dict[str, object] = {}
    notices: list[Notice] = []
    for spec in NUMBERS:
        text = _text(query, spec.name)
        if text is None:
            continue
        # a slider's values repeat all the time: short texts are parsed once (a long one is never a slider's)
        value, kind = _known_number(spec.name, text) if len(text) <= 24 else _number(NUMBER_SPECS[spec.name], text)
        if kind:
            used = fmt_param(spec.default if value is None else value)
            notices.append(Notice(spec.name, kind, text[:_MAX_ECHO], used))
        if value is not None:
            values[spec.name] = value
    for spec in CHOICES:
        text = _text(query, spec.name)
        if text is None:
            continue
        if text == "":
            notices.append(Notice(spec.name, "empty", "", spec.default))
            continue
        if text in spec.choices:
            values[spec.name] = text
        else:
            notices.append(Notice(spec.name, "unknown_choice", text[:_MAX_ECHO], spec.default))
    text = _text(query, "step")
    if text is not None:
        # isdecimal, not isdigit: '²' is a digit that int() rejects; the length cap keeps int() from refusing
        # (or spending time on) a thousand-digit string
        if text.isdecimal() and len(text) <= 3 and 1 <= int(text) <= STEP_MAX:
            values["step"] = int(text)
        elif text:
            notices.append(Notice("step", "invalid", text[:_MAX_ECHO], ""))
    if values.get("placement", DEFAULTS.placement) == "separate" and values.get("gpus", DEFAULTS.gpus) < SEPARATE_MIN_GPUS:
        notices.append(Notice("placement", "separate_needs_gpus", "separate", "colocated"))
        values["placement"] = "colocated"
    inputs = WorkloadInputs.model_construct(**{**_DEFAULT_VALUES, **values})
    return inputs, tuple(notices)


_DEFAULT_VALUES = DEFAULTS.model_dump()  # what normalise() starts from (dumped once, not per call)


def effective(inputs: WorkloadInputs) -> WorkloadInputs:
    """Inputs the model computes with: `separate` needs at least SEPARATE_MIN_GPUS GPUs."""
    if inputs.placement == "separate" and inputs.gpus < SEPARATE_MIN_GPUS:
        return inputs.model_copy(update={"placement": "colocated"})
    return inputs
