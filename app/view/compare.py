"""Two configurations side by side (/{lang}/compare): what each method removes and adds, phase by phase and meter by
meter, and what a pass costs.

Two forms of the URL:

* **any two states**, ``?a=<lab query>&b=<lab query>``: each side a whole lab state (its query, URL-encoded, or a
  lab URL, ``/en/?…`` or ``http://host/en/?…``, whose query part is taken), normalised on its own (a notice names
  its side: ``a.gpus``); a side left out is the other's counterpart (the same workload under the other method).
  When ``a`` or ``b`` is given, it wins over the form below.
* **one state and its counterpart** (the first form, kept): the left side is the query as given; the right side is
  the same workload under the other method (PPO → GRPO, GRPO → PPO, DPO → PPO: ``app.model.compare.counterpart``),
  with that method's usual β (and group), and then any ``b_<param>`` overrides.  ``b_method`` picks the right
  side's method; its usual β and group apply unless ``b_kl`` / ``b_group`` say otherwise.

Both: ``price_<gpu id>`` overrides a GPU type's price (the planner's parameter, read by the planner's own
``normalise_plan``); ``present=1`` is the presenter view.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from urllib.parse import parse_qs, urlencode

from app.model import Result, WorkloadInputs, evaluate, normalise
from app.model.compare import (
    DEFAULT_OTHER,
    METHODS,
    PAIRS,
    counterpart,
    node_diff,
    phase_rows,
    with_method,
)
from app.model.inputs import PARAM_NAMES, Notice, fmt_param
from app.model.meters import METER_IDS
from app.model.planner import PRICES, PlanQuery, normalise_plan
from app.model.scenarios import PRESETS, open_step
from app.model.stages import NODE_IDS
from app.view.lab import fitted_banner, other
from app.view.links import canonical_query, lab_url
from app.view.plan import read_key

# A lab state's query is about 600 characters (every parameter, the contract's order); a pasted full URL adds a
# host.  Past this a value is no state the lab wrote: the side takes its default, with a notice (never a crash).
MAX_STATE_CHARS = 4000
STATE_SIDES = ("a", "b")

# b_ parameters a pair link sets itself (the others in the query are kept)
_PAIR_PARAMS = ("b_method", "b_kl", "b_group")


@dataclass(frozen=True, slots=True)
class PairLink:
    left: str
    right: str
    url: str
    current: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Side:
    """One side of the page: which (``left`` / ``right``), its result and the lab link that opens it; ``state``
    names it in the any-two-states form (``a`` / ``b``: the page says "A" and "B"), empty in the first form."""

    side: str
    result: Result
    url: str
    state: str = ""

    @property
    def side_key(self) -> str:
        return f"compare.state.{self.state}" if self.state else f"compare.{self.side}"

    @property
    def stage_name_key(self) -> str:
        return f"stage.{self.result.stage}.name"

    @property
    def stage_desc_key(self) -> str:
        return f"stage.{self.result.stage}.desc"

    @property
    def diagram_id(self) -> str:
        return f"dg-{self.side}"


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeName:
    """A diagram component one side has and the other not."""

    node: str

    @property
    def name_key(self) -> str:
        return f"node.{self.node}.name"


# a node's flag follows one meter: a change names it, and both sides' values (a reader sees why)
_NODE_METER = {"rollout_gen": "rollout_load", "reward_model": "scoring_load", "policy_update": "train_memory",
               "reference_model": "kl_risk"}


@dataclass(frozen=True, slots=True, kw_only=True)
class Change:
    """A diagram component on both sides whose state differs (e.g. the reward model ``ok`` → ``removed``), and the
    meter its flag follows (None: none), with both sides' values of it."""

    node: str
    a: str
    b: str
    meter: str | None = None
    meter_a: object = None
    meter_b: object = None

    @property
    def node_key(self) -> str:
        return f"node.{self.node}.name"

    @property
    def a_key(self) -> str:
        return f"node_state.{self.a}"

    @property
    def b_key(self) -> str:
        return f"node_state.{self.b}"

    @property
    def meter_label_key(self) -> str:
        return f"meter.{self.meter}.label"


RATIO_AS_SHARE = 0.1  # below a tenth, "0.062 times the left" reads as "only 6% of the left" (zh-read-10 §4.9)


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseRow:
    """A row of the phases table (from the model's ``Row``): both values, the change b − a and b / a."""

    id: str
    a: float | None
    b: float | None
    unit: str
    delta: float | None
    ratio: float | None

    @property
    def label_key(self) -> str:
        return f"compare.row.{self.id}"

    @property
    def ratio_key(self) -> str:
        """b / a as a reader says it: 「是左边的 2.5 倍」, a part of the left as a share, 「是左边的 85%」 (not
        「0.85 倍」), and a small share as a small one, 「只有左边的 6%」 (zh-read-11)."""
        if self.ratio is None or self.ratio >= 1:
            return "compare.ratio"
        return "compare.ratio_small" if self.ratio < RATIO_AS_SHARE else "compare.ratio_part"

    @property
    def ratio_pct(self) -> float:
        return 100 * (self.ratio or 0.0)

    @property
    def size(self) -> float | None:
        """The change without its sign (the page writes the sign itself: + or −)."""
        return None if self.delta is None else abs(self.delta)

    @property
    def sign(self) -> str:
        return "+" if self.delta is not None and self.delta > 0 else "−"

    @property
    def direction(self) -> str:  # the delta cell's class: up, down, or "" (no change, or nothing to compare)
        return _direction(self.delta or 0)

    @property
    def a_shown(self) -> bool:  # the left side has this figure (else "—")
        return self.a is not None

    @property
    def b_shown(self) -> bool:
        return self.b is not None

    @property
    def compared(self) -> bool:  # both sides have the figure: a change to write
        return self.delta is not None

    @property
    def only_right(self) -> bool:  # a figure on the right side alone (the left has no such phase)
        return self.delta is None and self.a is None and self.b is not None

    @property
    def only_left(self) -> bool:
        return self.delta is None and self.b is None and self.a is not None

    @property
    def unchanged(self) -> bool:  # both sides equal ("="); False when there is nothing to compare
        return self.delta == 0


def _direction(delta: float) -> str:
    return "up" if delta > 0 else "down" if delta < 0 else ""


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterRow:
    """A meter on both sides and its change (right − left)."""

    id: str
    a: object     # the model's meter (value, level)
    b: object
    delta: float

    @property
    def label_key(self) -> str:
        return f"meter.{self.id}.label"

    @property
    def direction(self) -> str:  # the delta cell's class: up, down, or "" (unchanged)
        return _direction(self.delta)

    @property
    def a_level_key(self) -> str:
        return f"level.{self.a.level}"

    @property
    def b_level_key(self) -> str:
        return f"level.{self.b.level}"


@dataclass(frozen=True, slots=True, kw_only=True)
class DecisionSide:
    """One side's answer to a decision card."""

    state: str
    reason: str
    args: dict

    @property
    def state_key(self) -> str:
        return f"decision.state.{self.state}"


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangedDecision:
    """A decision card whose answer differs between the sides."""

    id: str
    sides: tuple[DecisionSide, DecisionSide]

    @property
    def title_key(self) -> str:
        return f"decision.{self.id}.title"


@dataclass(frozen=True, slots=True, kw_only=True)
class SidePrice:
    """The price a side's dollars use: its GPU type, $ per GPU-hour, and where it comes from (the planner's
    prices.toml: a provider's public list price, or a teaching assumption), or ``given`` (a ``price_<gpu>``)."""

    side_key: str
    gpu: str
    usd_per_gpu_hour: float
    given: bool
    teaching: bool
    provider: str
    instance: str
    source: str
    read: str
    transcribed: str

    @property
    def gpu_key(self) -> str:
        return f"gpu.{self.gpu}.name"

    @property
    def read_key(self) -> str:
        return read_key(self.transcribed)


def side_price(side_key: str, gpu: str, prices: PlanQuery) -> SidePrice:
    pr = PRICES[gpu]
    used = prices.price(gpu)
    return SidePrice(side_key=side_key, gpu=gpu, usd_per_gpu_hour=used, given=used != pr.usd_per_gpu_hour,
                     teaching=pr.teaching, provider=pr.provider, instance=pr.instance, source=pr.source, read=pr.read,
                     transcribed=pr.transcribed)


@dataclass(frozen=True, slots=True, kw_only=True)
class StateLine:
    """"A: PPO, 7B policy, 8 GPUs of A100 80GB (step 7)" and the lab link of that state."""

    side_key: str
    inputs: WorkloadInputs
    url: str

    @property
    def method_key(self) -> str:
        return f"method.short.{self.inputs.method}"

    @property
    def gpu_key(self) -> str:
        return f"gpu.{self.inputs.gpu}.name"


@dataclass(frozen=True, slots=True, kw_only=True)
class PresetLink:
    """A preset opened on the compare page."""

    id: str
    url: str

    @property
    def title_key(self) -> str:
        return f"preset.{self.id}.title"


def state_query(text: str) -> str:
    """A side's value as a lab query: a query as it is, or a lab URL's query part (a pasted link), without a
    fragment.

    >>> state_query("method=ppo&gpus=16"), state_query("http://host:8000/en/?gpus=16#meters"), state_query("/zh/?")
    ('method=ppo&gpus=16', 'gpus=16', '')
    """
    text = text.strip()
    if "?" in text:
        text = text.split("?", 1)[1]
    return text.split("#", 1)[0]


def state_side(name: str, query: dict[str, list[str]]) -> tuple[WorkloadInputs | None, tuple[Notice, ...]]:
    """One side of the any-two-states form (``a`` or ``b``): its inputs (None: not given, or too long to be a
    state) and the notices of its normalisation, each naming the side (``a.gpus``)."""
    values = query.get(name)
    if not values:
        return None, ()
    text = values[-1]
    if len(text) > MAX_STATE_CHARS:
        return None, (Notice(name, "state_too_long", f"{len(text):,}", f"{MAX_STATE_CHARS:,}"),)
    parsed = parse_qs(state_query(text), keep_blank_values=True)
    inputs, notices = normalise(parsed)
    # a bare step link (``a=step=13``) opens that step's own workload, as it does on the lab
    return open_step(inputs, parsed), tuple(replace(n, field=f"{name}.{n.field}") for n in notices)


def two_states(query: dict[str, list[str]]) -> tuple[WorkloadInputs, WorkloadInputs, tuple[Notice, ...]]:
    """Both sides of the any-two-states form; a side not given (or refused) is the other's counterpart (no
    walkthrough step), and with neither usable, the defaults and theirs."""
    (a, na), (b, nb) = state_side("a", query), state_side("b", query)
    if a is None:
        a = _counterpart(b) if b is not None else normalise({})[0]
    if b is None:
        b = _counterpart(a)
    return a, b, na + nb


def _counterpart(x: WorkloadInputs) -> WorkloadInputs:
    """The side left out: the other's workload under the other method, out of the walkthrough (the step's question
    is about the other side's state, not this one)."""
    return counterpart(x).model_copy(update={"step": None})


def is_two_states(query: dict[str, list[str]]) -> bool:
    """The any-two-states form: an ``a`` or a ``b`` in the query (it wins over the first form's parameters)."""
    return any(k in query for k in STATE_SIDES)


def _prices(query: dict[str, list[str]]) -> tuple[PlanQuery, tuple[Notice, ...]]:
    """The prices the dollars use: the planner's reading of the query's ``price_<gpu id>`` (nothing else of the
    planner's: a deadline or a budget means nothing here)."""
    return normalise_plan({k: v for k, v in query.items() if k.startswith("price_")})


def _price_params(prices: PlanQuery) -> dict[str, str]:
    """The ``price_<gpu id>`` overrides in force (a link keeps them): those that differ from prices.toml."""
    return {f"price_{g}": fmt_param(prices.price(g)) for g in PRICES
            if prices.price(g) != PRICES[g].usd_per_gpu_hour}


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
    out = []
    for n in NODE_IDS:
        if a.nodes[n].state != b.nodes[n].state:
            m = _NODE_METER.get(n)
            out.append(Change(node=n, a=a.nodes[n].state, b=b.nodes[n].state, meter=m,
                              meter_a=a.meters[m].value if m else None, meter_b=b.meters[m].value if m else None))
    return tuple(out)


def changed_decisions(a: Result, b: Result) -> tuple[str, ...]:
    """Decision cards whose answer differs between the sides (state or reason)."""
    return tuple(k for k in a.decisions if (a.decisions[k].state, a.decisions[k].reason)
                 != (b.decisions[k].state, b.decisions[k].reason))


def decision_changes(a: Result, b: Result) -> tuple[ChangedDecision, ...]:
    """The changed decision cards, each with both sides' answers (left, right)."""
    return tuple(ChangedDecision(id=k, sides=tuple(DecisionSide(state=r.decisions[k].state, reason=r.decisions[k].reason,
                                                                args=r.decisions[k].args) for r in (a, b)))
                 for k in changed_decisions(a, b))


def grpo_run_note(a: Result, b: Result) -> WorkloadInputs | None:
    """The GRPO side's inputs (the right one when both are) when it runs an RL loop: the page then says a run's
    steps count prompts, not rollouts (``compare.run_note``); None otherwise."""
    g = b if b.inputs.method == "grpo" else a
    return g.inputs if g.inputs.method == "grpo" and g.plan.rl else None


def critic_gb(r: Result) -> float:
    """The critic's training states (0 without one: GRPO, DPO, or no loop)."""
    return r.memory.models.critic_gb if r.cost.online else 0.0


def _present(url: str, present: bool) -> str:
    return url + "&present=1" if present else url


def _states_url(lang: str, a: WorkloadInputs, b: WorkloadInputs, extra: dict[str, str]) -> str:
    """The any-two-states page of ``a`` and ``b`` (each its canonical query, as the lab writes it)."""
    return f"/{lang}/compare?{urlencode({'a': canonical_query(a), 'b': canonical_query(b), **extra})}"


def state_pair_links(lang: str, a: WorkloadInputs, b: WorkloadInputs, extra: dict[str, str]) -> tuple[PairLink, ...]:
    """PPO ⇄ GRPO, PPO ⇄ DPO and GRPO ⇄ DPO on these two states: each side keeps its own workload under the pair's
    method (its usual β and group: ``with_method``)."""
    def under(x: WorkloadInputs, m: str) -> WorkloadInputs:
        return x if x.method == m else with_method(x, m)

    return tuple(PairLink(m_a, m_b, _states_url(lang, under(a, m_a), under(b, m_b), extra),
                          {a.method, b.method} == {m_a, m_b}) for m_a, m_b in PAIRS)


def compare_context(lang: str, query: dict[str, list[str]]) -> dict:
    """The any-two-states form when ``a`` or ``b`` is given (``two_states``); else ``a`` is the query as given and
    ``b`` the same workload with the other method, unless ``b_<param>`` parameters say otherwise."""
    present = (query.get("present") or [""])[-1] == "1"
    prices, notices = _prices(query)
    states = is_two_states(query)
    if states:
        left, right, more = two_states(query)
    else:
        left, more = normalise(query)
        right, b_notices = right_side(left, query)
        more += b_notices
    notices = more + notices
    ra, rb = evaluate(left), evaluate(right)
    removed, added = node_diff(ra, rb)
    rows = tuple(PhaseRow(id=x.id, a=x.a, b=x.b, unit=x.unit, delta=x.delta, ratio=x.ratio)
                 for x in phase_rows(ra, rb, prices))
    a_url, b_url = _present(lab_url(lang, left), present), _present(lab_url(lang, right), present)
    keep = _price_params(prices) | ({"present": "1"} if present else {})  # what every link of this page keeps
    side_names = STATE_SIDES if states else ("", "")
    sides = tuple(Side(side=s, result=r, url=u, state=n)
                  for s, r, u, n in zip(("left", "right"), (ra, rb), (a_url, b_url), side_names, strict=True))
    if states:
        here = _states_url(lang, left, right, keep)
        switch_url = _states_url(other(lang), left, right, keep)
        swap_url = _states_url(lang, right, left, keep)
        pairs = state_pair_links(lang, left, right, keep)
        plain = _states_url(lang, left, right, _price_params(prices))
    else:
        swap = dict(right.query())
        swap.update({f"b_{k}": v for k, v in left.query().items()})
        swap.pop("step", None)
        swap.pop("b_step", None)
        own = _with_overrides(left, right, query) | keep
        here = f"/{lang}/compare?{urlencode(own)}"
        switch_url = f"/{other(lang)}/compare?{urlencode(own)}"
        swap_url = f"/{lang}/compare?{urlencode(swap | keep)}"
        pairs = tuple(replace(p, url=p.url + ("&" + urlencode(keep) if keep else ""))
                      for p in pair_links(lang, left, right, query))
        plain = f"/{lang}/compare?{urlencode(_with_overrides(left, right, query) | _price_params(prices))}"
    return {
        "lang": lang, "other_lang": other(lang), "page": "compare", "a": ra, "b": rb, "notices": notices,
        "fitted_banner": fitted_banner(lang, left),  # the right side keeps the left's factors (b_ may change them)
        "removed": tuple(NodeName(node=n) for n in removed), "added": tuple(NodeName(node=n) for n in added),
        "rows": rows, "changes": state_changes(ra, rb),
        "meter_rows": tuple(MeterRow(id=k, a=ra.meters[k], b=rb.meters[k], delta=rb.meters[k].value - ra.meters[k].value)
                            for k in METER_IDS),  # delta: right − left
        "decisions_changed": decision_changes(ra, rb),
        "dpo_rows_note": "dpo" in (ra.stage, rb.stage), "run_note": grpo_run_note(ra, rb), "critic_a": critic_gb(ra), "critic_b": critic_gb(rb),
        "a_url": a_url, "b_url": b_url, "sides": sides,
        "two_states": states, "present": present,
        "heading_key": "compare.heading_states" if states else "compare.heading",
        "note_key": "compare.note_states" if states else "compare.note",
        "present_link_key": "ui.present_off" if present else "ui.present_on",
        "state_lines": tuple(StateLine(side_key=s.side_key, inputs=s.result.inputs, url=s.url) for s in sides),
        # the paste form: each side's canonical query (a reader edits it or pastes another lab link over it)
        "state_fields": tuple((n, f"compare.state_field.{n}", canonical_query(x)) for n, x in zip(STATE_SIDES, (left, right), strict=True)),
        "prices": tuple(side_price(s.side_key, s.result.inputs.gpu, prices) for s in sides),
        "price_params": tuple(_price_params(prices).items()),
        "switch_url": switch_url, "swap_url": swap_url, "pair_links": pairs,
        "present_url": plain if present else _present(plain, True),
        "self_url": here,
        "pairs": tuple(PresetLink(id=p.id, url=lab_url(lang, p.inputs, "compare")) for p in PRESETS),
    }


def _with_overrides(left: WorkloadInputs, right: WorkloadInputs, query: dict[str, list[str]]) -> dict[str, str]:
    """The left side's canonical query plus the ``b_`` overrides as the right side used them (the other language's
    link)."""
    out = {k: v for k, v in left.query().items() if k != "step"}
    out.update({f"b_{k}": v for k, v in _used_overrides(right, query).items()})
    return out
