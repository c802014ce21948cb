"""A walkthrough step's prediction (``app/model/predictions.py``) as the step card shows it: the prompt, the options
or the slider's notches by their labels, and for each option the verdict the answer shows when that option was the
learner's guess (right, or how far off).  Keys whole and booleans only: the template compares nothing."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.model.predictions import Option, Prediction, prediction

frozen = dataclass(frozen=True, slots=True, kw_only=True)

LEVEL_OPTIONS = ("ok", "warn", "hot")  # a meter's levels: labelled by the page's own level words (level.<id>)


@frozen
class GuessOptionVM:
    value: str
    label_key: str
    label_args: dict[str, float] = field(default_factory=dict)
    verdict_key: str
    verdict_args: dict[str, float] = field(default_factory=dict)  # factor (×) or points (percentage points), as the key quotes
    right: bool                                        # the model's answer (data-right on the verdict)
    initial: bool = False                              # an estimate's notch the slider starts on (its label shown)


@frozen
class GuessVM:
    step: int
    kind: str                 # choice | estimate (data-guess)
    is_choice: bool
    prompt_key: str
    options: tuple[GuessOptionVM, ...]
    answer_key: str           # the model's answer, as the verdicts quote it
    answer_args: dict[str, float] = field(default_factory=dict)
    start: int = 0            # an estimate's slider: the notch it starts on (the middle), and the last notch
    last: int = 0


def _label(p: Prediction, o: Option) -> tuple[str, dict]:
    if p.kind == "estimate":
        return f"guess.amount.{p.unit}", {"v": o.amount}
    if o.value in LEVEL_OPTIONS:
        return f"level.{o.value}", {}
    return f"guess.opt.{o.value}", {}


def _verdict(p: Prediction, o: Option) -> tuple[str, dict]:
    """Right, or how far off: a factor (sizes, counts, ratios) or percentage points (a share)."""
    if o.correct:
        return "guess.verdict.right", {}
    if p.kind == "choice":
        if o.seconds and p.answer_s:  # a timed choice: both sides' seconds, and the right one's as a multiple
            return f"guess.verdict.wrong_{p.timed_as}", {"guess_s": o.seconds, "answer_s": p.answer_s,
                                                         "factor": o.factor}
        return "guess.verdict.wrong", {}
    way = "high" if o.high else "low"
    if p.unit == "pct":
        return f"guess.verdict.{way}_points", {"points": o.points}
    return f"guess.verdict.{way}", {"factor": o.factor}


def guess_vm(n: int) -> GuessVM:
    """Step ``n``'s prediction for the step card."""
    p = prediction(n)
    options = []
    start = len(p.options) // 2
    for k, o in enumerate(p.options):
        label_key, label_args = _label(p, o)
        verdict_key, verdict_args = _verdict(p, o)
        options.append(GuessOptionVM(value=o.value, label_key=label_key, label_args=label_args,
                                     verdict_key=verdict_key, verdict_args=verdict_args, right=o.correct,
                                     initial=p.kind == "estimate" and k == start))
    if p.kind == "estimate":
        answer_key, answer_args = f"guess.amount.{p.unit}", {"v": p.answer}
    else:
        answer_key, answer_args = _label(p, p.right)
    return GuessVM(step=n, kind=p.kind, is_choice=p.kind == "choice", prompt_key=f"guess.{n}.prompt",
                   options=tuple(options), answer_key=answer_key, answer_args=answer_args,
                   start=start, last=len(p.options) - 1)


__all__ = ["GuessOptionVM", "GuessVM", "guess_vm"]
