"""Two configurations side by side (/{lang}/compare): what each method removes and adds, phase by phase and meter by
meter.

The left side is the query as given; the right side is the same workload under the other method (PPO → GRPO,
GRPO → PPO, DPO → PPO: ``app.model.compare.counterpart``), with that method's usual β (and group), and then any
``b_<param>`` overrides.  ``b_method`` picks the right side's method; its usual β and group apply unless ``b_kl`` /
``b_group`` say otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from urllib.parse import urlencode

from app.model import Result, WorkloadInputs, evaluate, normalise
from app.model.compare import (
    DEFAULT_OTHER,
    METHODS,
    PAIRS,
    Row,
    counterpart,
    node_diff,
    phase_rows,
    with_method,
)
from app.model.inputs import PARAM_NAMES, Notice, fmt_param
from app.model.scenarios import PRESETS
from app.model.stages import NODE_IDS
from app.view.lab import other
from app.view.links import lab_url

# b_ parameters a pair link sets itself (the others in the query are kept)
_PAIR_PARAMS = ("b_method", "b_kl", "b_group")


@dataclass(frozen=True, slots=True)
class PairLink:
    left: str
    right: str
    url: str
    current: bool


@dataclass(frozen=True, slots=True)
class Change:
    """A diagram component on both sides whose state differs (e.g. the reward model ``ok`` → ``removed``)."""

    node: str
    a: str
    b: str


def _b_overrides(query: dict[str, list[str]]) -> dict[str, list[str]]:
    return {k[2:]: v for k, v in query.items() if k.startswith("b_") and len(k) > 2}


def right_side(left: WorkloadInputs, query: dict[str, list[str]]) -> tuple[WorkloadInputs, tuple[Notice, ...]]:
    """The right side: ``left`` under ``b_method`` (valid) or the default other method, then the ``b_`` overrides;
    the notices of those overrides name the ``b_`` field."""
    b_query = _b_overrides(query)
    if not b_query:
        return counterpart(left), ()
    given = (b_query.get("method") or [""])[-1].strip()
    base = with_method(left, given if given in METHODS else DEFAULT_OTHER[left.method])
    start = dict(base.query())
    start.pop("step", None)
    if "response_max_tokens" not in b_query and base.response_max_tokens == base.response_tokens:
        start.pop("response_max_tokens")  # no tail on the left: none on the right unless asked (it follows the mean)
    if "arch" in b_query:
        start.pop("policy_b")  # a named b_arch sets the size; a custom one keeps the left's unless b_policy_b
        if "policy_b" not in b_query and (b_query["arch"] or [""])[-1].strip() == "custom":
            start["policy_b"] = str(left.policy_b)
    right, notices = normalise({**start, **b_query})
    return right, tuple(replace(n, field=f"b_{n.field}") for n in notices)


def _used_overrides(right: WorkloadInputs, query: dict[str, list[str]]) -> dict[str, str]:
    """The ``b_`` overrides of the query, as the right side used them (clamped values, never the raw text: a bad
    value is not echoed back into a link); unknown names are dropped."""
    return {k: fmt_param(getattr(right, k)) for k in _b_overrides(query) if k in PARAM_NAMES}


def _pair_url(lang: str, left: WorkloadInputs, right_used: WorkloadInputs, query: dict[str, list[str]], a: str,
              b: str) -> str:
    """The compare page for the pair a ⇄ b on this workload: the left under ``a``, ``b_method=b`` with b's usual
    β and group; other ``b_`` overrides kept."""
    lhs = with_method(left, a) if left.method != a else left.model_copy(update={"step": None})
    right = with_method(lhs, b)
    params = dict(lhs.query())
    params.update({f"b_{k}": v for k, v in _used_overrides(right_used, query).items() if f"b_{k}" not in _PAIR_PARAMS})
    params.update({"b_method": b, "b_kl": str(right.kl)})
    if b == "grpo":
        params["b_group"] = str(right.group)
    return f"/{lang}/compare?{urlencode(params)}"


def pair_links(lang: str, left: WorkloadInputs, right: WorkloadInputs, query: dict[str, list[str]]) -> tuple[
        PairLink, ...]:
    """PPO ⇄ GRPO, PPO ⇄ DPO and GRPO ⇄ DPO on this workload; ``current`` marks the pair on screen."""
    return tuple(PairLink(a, b, _pair_url(lang, left, right, query, a, b), {left.method, right.method} == {a, b})
                 for a, b in PAIRS)


def state_changes(a: Result, b: Result) -> tuple[Change, ...]:
    """Components on both diagrams whose state differs (removed / added ones included: inactive → ok …)."""
    return tuple(Change(n, a.nodes[n].state, b.nodes[n].state) for n in NODE_IDS
                 if a.nodes[n].state != b.nodes[n].state)


def changed_decisions(a: Result, b: Result) -> tuple[str, ...]:
    """Decision cards whose answer differs between the sides (state or reason)."""
    return tuple(k for k in a.decisions if (a.decisions[k].state, a.decisions[k].reason)
                 != (b.decisions[k].state, b.decisions[k].reason))


def critic_gb(r: Result) -> float:
    """The critic's training states (0 without one: GRPO, DPO, or no loop)."""
    return r.memory.models.critic_gb if r.cost.online else 0.0


def compare_context(lang: str, query: dict[str, list[str]]) -> dict:
    """``a`` is the query as given; ``b`` the same workload with the other method, unless ``b_<param>``
    parameters say otherwise."""
    left, notices = normalise(query)
    right, more = right_side(left, query)
    notices += more
    ra, rb = evaluate(left), evaluate(right)
    removed, added = node_diff(ra, rb)
    rows: tuple[Row, ...] = phase_rows(ra, rb)
    swap = dict(right.query())
    swap.update({f"b_{k}": v for k, v in left.query().items()})
    swap.pop("step", None)
    swap.pop("b_step", None)
    return {
        "lang": lang, "other_lang": other(lang), "page": "compare", "a": ra, "b": rb, "notices": notices,
        "removed": removed, "added": added, "rows": rows, "changes": state_changes(ra, rb),
        "meter_deltas": {k: rb.meters[k].value - ra.meters[k].value for k in ra.meters},  # right − left
        "decisions_changed": changed_decisions(ra, rb), "critic_a": critic_gb(ra), "critic_b": critic_gb(rb),
        "a_url": lab_url(lang, left), "b_url": lab_url(lang, right),
        "switch_url": f"/{other(lang)}/compare?{urlencode(_with_overrides(left, right, query))}",
        "swap_url": f"/{lang}/compare?{urlencode(swap)}",
        "pair_links": pair_links(lang, left, right, query),
        "pairs": [(p.id, lab_url(lang, p.inputs, "compare")) for p in PRESETS],
    }


def _with_overrides(left: WorkloadInputs, right: WorkloadInputs, query: dict[str, list[str]]) -> dict[str, str]:
    """The left side's canonical query plus the ``b_`` overrides as the right side used them (the other language's
    link)."""
    out = {k: v for k, v in left.query().items() if k != "step"}
    out.update({f"b_{k}": v for k, v in _used_overrides(right, query).items()})
    return out
