"""The six bottleneck meters: physical estimates normalised against stated ranges (teaching assumptions).

Each meter is 0–100 with a level (ok < warn ≤ … < hot), the physical figure behind it and the formula that
produced it.  Text is given as catalogue keys plus values; the web layer renders them in zh or en.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from app.model.assumptions import (
    DPO_BATCH_PAIRS,
    KL_REFERENCE_DPO,
    KL_REFERENCE_GRPO,
    KL_REFERENCE_PPO,
    MEMORY_HOT_PCT,
    MEMORY_RESERVED_SHOWN_GB,
    MEMORY_WARN_PCT,
    METER_EVAL_HIGH,
    METER_EVAL_LOW,
    METER_HOT,
    METER_TIME_HIGH_S,
    METER_TIME_LOW_S,
    METER_WARN,
    VERIFIER_KL_FLOOR,
)

# train_load last: the five older ids keep their places (the strip, the compare table and the API list them in order)
METER_IDS = ("rollout_load", "scoring_load", "train_memory", "kl_risk", "eval_need", "train_load")
# A time meter's figure when no step is timed (the state fits on no GPU count up to 4,096: ``stage_cost``'s timing
# rule): no seconds at all, the meter at 0.  Its short form beside the level says "does not fit".
UNTIMED_FIGURE = "meter.time.figure_nofit"
UNTIMED_FIGURES = (UNTIMED_FIGURE, "meter.eval_need.figure_nofit")


# A sentence's arguments: the values a catalogue text quotes ({seconds:dur} …).  Texts quote them; no decision
# should read one back (a renamed argument would change a decision unseen).
TextArgs = dict[str, str | int | float | None]


class Meter(NamedTuple):
    """One meter: its level and sentences, and the facts readers decide on as typed fields (never read back out of
    the sentence's key or arguments)."""

    id: str
    value: int                # 0..100
    level: str                # ok | warn | hot
    figure: str               # catalogue key of the physical figure sentence
    figure_args: TextArgs     # its arguments
    formula: str              # catalogue key of the formula
    formula_args: TextArgs
    fits: bool = True         # the memory meter: the stage's models fit on the GPUs given
    min_gpus: int | None = None  # the memory meter: the fewest GPUs that fit (None: none, or not a memory meter)
    per_gpu_gb: float = 0.0   # the memory meter: the one memory figure of the fullest GPU
    at_gpus: int | None = None  # a time meter timed on other GPUs than the state's (the fewest that fit)
    beyond_run: bool = False  # the eval meter: the run ends before its first eval
    reserved: bool = False    # the memory meter: an engine's up-front reservation is part of per_gpu_gb


def log_scale(x: float, low: float, high: float) -> float:
    """0 at ``low``, 100 at ``high``, logarithmic between, clamped.

    >>> log_scale(60.0, 1.0, 3600.0)
    50.0
    """
    if x <= low:
        return 0.0
    if x >= high:
        return 100.0
    return 100.0 * math.log(x / low) / math.log(high / low)


def level(value: float, warn: float = METER_WARN, hot: float = METER_HOT) -> str:
    return "hot" if value >= hot else "warn" if value >= warn else "ok"


def _meter(id_: str, value: float, lvl: str | None, figure: str, figure_args: dict, formula: str,
           formula_args: dict, **facts: object) -> Meter:
    v = int(round(min(100.0, max(0.0, value))))
    return Meter(id=id_, value=v, level=lvl or level(v), figure=figure, figure_args=figure_args, formula=formula,
                 formula_args=formula_args, **facts)  # type: ignore[arg-type]


def _at(args: dict, at_gpus: int | None) -> dict:
    """A time figure's arguments, with the GPU count it was timed on when that is not the state's own (the
    fewest that fit: ``stage_cost.timed_gpus``); the page labels the figure "at N GPUs"."""
    return args if at_gpus is None else {**args, "at_gpus": at_gpus}


def rollout_load(generation_s: float, generation_gpu_s: float, share: float, active: bool,
                 whole: bool = False, at_gpus: int | None = None, untimed: bool = False) -> Meter:
    """Generation wall-clock seconds per PPO step on a log scale, 1 s → 0, 1 h → 100.  ``at_gpus``: the step was
    timed on that many GPUs (the fewest that fit); ``untimed``: no count fits, so there is no step to time."""
    if not active:
        return _meter("rollout_load", 0, None, "meter.rollout_load.figure_none", {}, "meter.rollout_load.formula", {})
    if untimed:
        return _meter("rollout_load", 0, None, UNTIMED_FIGURE, {}, "meter.rollout_load.formula", {})
    # the step is generation when scoring and training hide behind it (``Step.generation_is_whole``): "100 % of the
    # step" would read as a bug, so the figure says the step is as long as generation
    figure = "meter.rollout_load.figure_all" if whole else "meter.rollout_load.figure"
    return _meter(
        "rollout_load", log_scale(generation_s, METER_TIME_LOW_S, METER_TIME_HIGH_S), None,
        figure,
        _at({"seconds": generation_s, "gpu_seconds": generation_gpu_s, "share": share * 100}, at_gpus),
        "meter.time.formula", {"seconds": generation_s, "low": METER_TIME_LOW_S, "high": METER_TIME_HIGH_S},
        at_gpus=at_gpus,
    )


def scoring_load(scoring_s: float, scoring_gpu_s: float, hidden_s: float, active: bool,
                 dpo_reference_s: float | None = None, hidden_any: bool = False, hidden_all: bool = False,
                 at_gpus: int | None = None, untimed: bool = False) -> Meter:
    """Scoring wall-clock seconds per PPO step (reward, reference, critic, old log-probs), same scale.
    Under DPO: the reference's log-probs for one DPO batch (64 pairs; computable once, before training)."""
    if dpo_reference_s is not None:
        return _meter(
            "scoring_load", log_scale(dpo_reference_s, METER_TIME_LOW_S, METER_TIME_HIGH_S), None,
            "meter.scoring_load.figure_dpo", {"seconds": dpo_reference_s, "batch": DPO_BATCH_PAIRS},
            "meter.time.formula", {"seconds": dpo_reference_s, "low": METER_TIME_LOW_S, "high": METER_TIME_HIGH_S},
        )
    if not active:
        return _meter("scoring_load", 0, None, "meter.scoring_load.figure_none", {}, "meter.scoring_load.formula", {})
    if untimed:
        return _meter("scoring_load", 0, None, UNTIMED_FIGURE, {}, "meter.scoring_load.formula", {})
    # what overlaps generation (``Step.scoring_hidden_any`` / ``scoring_hidden_all``): nothing (colocated: the
    # phases take turns), all of it, or a part
    figure = ("meter.scoring_load.figure_alone" if not hidden_any else
              "meter.scoring_load.figure_hidden_all" if hidden_all else "meter.scoring_load.figure")
    return _meter(
        "scoring_load", log_scale(scoring_s, METER_TIME_LOW_S, METER_TIME_HIGH_S), None,
        figure, _at({"seconds": scoring_s, "gpu_seconds": scoring_gpu_s, "hidden": hidden_s}, at_gpus),
        "meter.time.formula", {"seconds": scoring_s, "low": METER_TIME_LOW_S, "high": METER_TIME_HIGH_S},
        at_gpus=at_gpus,
    )


def train_load(training_s: float, training_gpu_s: float, active: bool, at_gpus: int | None = None,
               untimed: bool = False, dpo_step_s: float | None = None) -> Meter:
    """Training wall-clock seconds per step (the policy update, and the critic's under PPO: the optimizer's passes
    over the step's rollouts), on the time meters' log scale, 1 s → 0, 1 h → 100: the phase that holds most steps of
    the walkthrough gets a meter of its own.  Under DPO: one DPO step on its batch of pairs (``dpo_step_s``).

    >>> train_load(60.0, 480.0, True).value, train_load(0.0, 0.0, False).value
    (50, 0)
    """
    if dpo_step_s is not None:
        return _meter(
            "train_load", log_scale(dpo_step_s, METER_TIME_LOW_S, METER_TIME_HIGH_S), None,
            "meter.train_load.figure_dpo", _at({"seconds": dpo_step_s, "batch": DPO_BATCH_PAIRS}, at_gpus),
            "meter.time.formula", {"seconds": dpo_step_s, "low": METER_TIME_LOW_S, "high": METER_TIME_HIGH_S},
            at_gpus=at_gpus,
        )
    if not active:
        return _meter("train_load", 0, None, "meter.train_load.figure_none", {}, "meter.train_load.formula", {})
    if untimed:
        return _meter("train_load", 0, None, UNTIMED_FIGURE, {}, "meter.train_load.formula", {})
    return _meter(
        "train_load", log_scale(training_s, METER_TIME_LOW_S, METER_TIME_HIGH_S), None,
        "meter.train_load.figure", _at({"seconds": training_s, "gpu_seconds": training_gpu_s}, at_gpus),
        "meter.time.formula", {"seconds": training_s, "low": METER_TIME_LOW_S, "high": METER_TIME_HIGH_S},
        at_gpus=at_gpus,
    )


def train_memory(per_gpu_gb: float, usable_gb: float, total_gb: float, gpus: int, gpu_memory_gb: float,
                 fits: bool, min_gpus: int | None, what: str, need_gb: float | None = None) -> Meter:
    """Per-GPU memory of the fullest GPU (the plan's one figure, as nvidia-smi shows it) as a percentage of usable
    memory (90 % of the card); its level from what that GPU needs (``need_gb``: an inference engine reserves its
    share up front, so the reservation alone never makes a state "tight")."""
    pct = 100.0 * per_gpu_gb / usable_gb
    need = per_gpu_gb if need_gb is None else min(need_gb, per_gpu_gb)
    need_pct = 100.0 * need / usable_gb
    lvl = "hot" if not fits else level(need_pct, MEMORY_WARN_PCT, MEMORY_HOT_PCT)
    # an engine reserves its share up front: nvidia-smi shows the reservation, the level and the bar what is in use
    reserved = fits and per_gpu_gb - need > MEMORY_RESERVED_SHOWN_GB
    args = {"total_gb": total_gb, "gpus": gpus, "gpu_gb": gpu_memory_gb, "per_gpu_gb": per_gpu_gb,
            "pct": pct, "min_gpus": min_gpus or 0, "what": what, "need_gb": need, "need_pct": need_pct}
    # an RL loop's fullest GPU leaves out the engine's KV cache, which takes whatever memory is left (paged): the
    # memory panel's lanes add it, so the meter says it is not counted
    rl = what.startswith(("ppo", "grpo"))
    figure = ("meter.train_memory.figure_rl" if rl else "meter.train_memory.figure") if fits else (
        "meter.train_memory.figure_nofit" if min_gpus else "meter.train_memory.figure_never")
    if gpus == 1 and figure != "meter.train_memory.figure_never":
        figure += "_one"  # one card: no "fullest of", no "each" (「1 张卡里最满的一张」)
    formula = "meter.train_memory.formula_one" if gpus == 1 else "meter.train_memory.formula"
    if reserved:
        figure += "_reserved"
    return _meter("train_memory", need_pct if fits else 100, lvl, figure, args, formula,
                  {"per_gpu_gb": per_gpu_gb, "usable_gb": usable_gb, "pct": pct}, fits=fits, min_gpus=min_gpus or None,
                  per_gpu_gb=per_gpu_gb, reserved=reserved)


def memory_fits(m: Meter) -> bool:
    """Whether the memory meter's state fits (its figure is none of the does-not-fit ones): what the stage header and
    the why-panel need to name memory as the bottleneck."""
    return m.fits


def nofit_reason(m: Meter, offload: str) -> str:
    """The why-panel's bottleneck key of a state whose model states do not fit: "add GPUs (at least N)" only when
    some count fits (``min_gpus``); with none, no "add GPUs", and no "offload first" when offload is already on."""
    if m.min_gpus:
        return "why.bottleneck.nofit"
    return "why.bottleneck.nofit_never" + ("_offloaded" if offload != "none" else "")


def memory_reason(m: Meter, one: bool) -> str:
    """The why-panel's memory key, four cases each in its own words: fits; fits with little headroom (the hot
    band: "tight" means it fits); does not fit on this count but on ``min_gpus``; fits on no count (no "add GPUs").
    ``one``: the state has one GPU ("this GPU", not "the fullest of 1")."""
    if memory_fits(m):
        # a paged engine's reservation fills nvidia-smi's figure: the line says what is in use beside it
        key = "why.memory.tight" if m.level == "hot" else "why.memory.fits_reserved" if m.reserved else "why.memory.fits"
    else:
        key = "why.memory.nofit" if m.min_gpus else "why.memory.nofit_never"
    return key + ("_one" if one else "")


def memory_what(method: str, reference: bool, reward_model: bool) -> str:
    """The ``what`` of the memory figure (``enum.what.<what>``): the models whose states it counts.

    A GRPO state with a reward model says so, and a state with β = 0 (or LoRA: the reference is the base with its
    adapters off) has no reference copy; ``evaluate`` gives it to ``train_memory`` (and so to the why-panel's line).

    >>> memory_what("grpo", True, True), memory_what("grpo", True, False), memory_what("ppo", False, False)
    ('grpo_rm', 'grpo', 'ppo_noref_verifier')
    >>> memory_what("ppo", True, True), memory_what("dpo", True, False)
    ('ppo', 'dpo')
    """
    if method not in ("ppo", "grpo"):
        return method
    if method == "grpo":
        return "grpo" + ("_rm" if reward_model else "") + ("" if reference else "_noref")
    return "ppo" + ("" if reference else "_noref") + ("" if reward_model else "_verifier")


def kl_reference(method: str) -> float:
    """β_ref per method: PPO 0.01 (Llama 2), DPO 0.05 (teaching), GRPO 0.001 (verl's kl_loss_coef)."""
    return {"dpo": KL_REFERENCE_DPO, "grpo": KL_REFERENCE_GRPO}.get(method, KL_REFERENCE_PPO)


def kl_pressure(epochs: int, kl: float, dpo: bool | str, verifier: bool = False) -> float:
    """Teaching heuristic: x = epochs · β_ref / (β + floor), β_ref per method (``kl_reference``).

    ``floor`` = 0.001 when a verifier scores (teaching assumption): a rule-based reward has no reward-model blind
    spots to drift into, so its risk is reward hacking of the checker and entropy collapse, not drift — DAPO runs
    with β = 0.  With a reward model and β = 0 the pressure is unbounded (risk 100).  ``dpo`` may be the method
    name or, as before, a flag for DPO.
    """
    method = dpo if isinstance(dpo, str) else ("dpo" if dpo else "ppo")
    floor = VERIFIER_KL_FLOOR if verifier and method != "dpo" else 0.0
    denominator = kl + floor
    return math.inf if denominator <= 0 else epochs * kl_reference(method) / denominator


def kl_risk(epochs: int, kl: float, dpo: bool | str, active: bool, verifier: bool = False) -> Meter:
    """Risk = 100 · x / (1 + x): 50 when β = β_ref with one epoch; more epochs or a smaller β raise it."""
    if not active:
        return _meter("kl_risk", 0, None, "meter.kl_risk.figure_none", {}, "meter.kl_risk.formula_none", {})
    method = dpo if isinstance(dpo, str) else ("dpo" if dpo else "ppo")
    x = kl_pressure(epochs, kl, method, verifier)
    ref = kl_reference(method)
    risk = 100.0 if math.isinf(x) else 100.0 * x / (1.0 + x)
    if method == "dpo":
        figure = "meter.kl_risk.figure_dpo"
    elif verifier:
        figure = "meter.kl_risk.figure_verifier"
    elif method == "grpo":
        figure = "meter.kl_risk.figure_grpo"
    else:
        figure = "meter.kl_risk.figure"
    floor = VERIFIER_KL_FLOOR if verifier and method != "dpo" else 0.0
    formula = "meter.kl_risk.formula_floor" if floor else "meter.kl_risk.formula"
    return _meter("kl_risk", risk, None, figure,
                  {"kl": kl, "epochs": epochs, "pressure": x, "ref": ref},  # ref: what the level is measured against
                  formula, {"kl": kl, "epochs": epochs, "ref": ref, "pressure": x, "floor": floor})


def eval_need(samples_between: float, hours_between: float | None, active: bool, dpo: bool,
              at_gpus: int | None = None, run: tuple[int, float] | None = None) -> Meter:
    """Samples trained between evals (rollouts · epochs per PPO step, or 64 pairs per DPO step) on a log scale,
    1,000 → 0, 1,000,000 → 100.  ``hours_between`` None: no step is timed (nothing fits), so the figure gives no
    hours; ``at_gpus``: the hours are at that many GPUs (the fewest that fit).  ``run`` (steps, hours) when the run
    ends before its first eval: the figure says so, not "3.8 h between two evals" under a run of 2.3 h (the level is
    the interval's, as before)."""
    if not active:
        return _meter("eval_need", 0, None, "meter.eval_need.figure_none", {}, "meter.eval_need.formula_none", {})
    value = log_scale(samples_between, METER_EVAL_LOW, METER_EVAL_HIGH)
    formula_args = {"samples": samples_between, "low": METER_EVAL_LOW, "high": METER_EVAL_HIGH}
    if hours_between is None:
        return _meter("eval_need", value, None, "meter.eval_need.figure_nofit", {"samples": samples_between},
                      "meter.eval_need.formula", formula_args)
    return _meter(
        "eval_need", value, None,
        "meter.eval_need.figure_beyond_run" if run else "meter.eval_need.figure_dpo" if dpo else "meter.eval_need.figure",
        _at({"samples": samples_between, "hours": hours_between, "batch": DPO_BATCH_PAIRS,
             **({"run_steps": run[0], "run_hours": run[1]} if run else {})}, at_gpus),
        "meter.eval_need.formula", {"samples": samples_between, "low": METER_EVAL_LOW, "high": METER_EVAL_HIGH},
        at_gpus=at_gpus, beyond_run=bool(run),
    )
