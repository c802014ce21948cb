"""The lab page's context: the static parts (form controls, presets, walkthrough, reference tables) and the live
regions' view-models (app/view/regions/) for one state."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

from app.i18n import translator
from app.model import DEFAULTS, Result, WorkloadInputs
from app.model.assumptions import ARCHS, CONSTANTS, GPUS, SOURCES, GpuSpec
from app.model.inputs import (
    CHOICE_SPECS,
    FACTOR_NUMBERS,
    FORM_GROUPS,
    NUMBER_SPECS,
    NUMBERS,
    PARAM_NAMES,
    PRACTICE_NUMBERS,
    PRACTICE_SPECS,
    ChoiceSpec,
    fmt_param,
)
from app.model.scenarios import moved_from_step, walk_figures
from app.model.timeline import TIMELINE_STEPS
from app.view.card_diff import CardDiffVM, card_diff_vm
from app.view.guess import GuessVM, guess_vm
from app.view.handout import handout_context
from app.view.links import canonical_query, current_preset, preset_links, walk_focus, walk_links
from app.view.regions import Region


@dataclass(frozen=True, slots=True)
class Control:
    kind: str              # number | choice
    name: str
    group: str
    value: str
    choices: tuple[str, ...] = ()
    disabled: bool = False  # policy_b while a named architecture sets the size (not submitted)
    changed: bool = False   # off its default: the control's group opens
    min: str = ""
    max: str = ""
    step: str = ""
    ladder: str = ""       # the slider's notches as JSON (app.js reads it)
    index: int = 0         # the notch nearest the value
    last: int = 0
    shows_unit: bool = True  # False for a dimensionless coefficient whose label names it (KL penalty β): no "0.02 β"

    @property
    def label_key(self) -> str:
        return f"input.{self.name}.label"

    @property
    def hint_key(self) -> str:
        return f"input.{self.name}.hint"

    @property
    def unit_key(self) -> str:
        return f"unit.{self.name}"

    @property
    def options(self) -> tuple[tuple[str, str, bool], ...]:  # a choice's values: its label's key, whether checked
        return tuple((v, f"choice.{self.name}.{v}", v == self.value) for v in self.choices)

    @property
    def number(self) -> bool:  # a number with its ladder slider (else a row of radio chips)
        return self.kind == "number"

    @property
    def arch(self) -> bool:  # the architecture picker: its chips carry sizes, its shape and paste helper follow
        return self.name == "arch"

    @property
    def shape_disabled(self) -> bool:  # the architecture picker on a named model: the custom shape's fields are off
        return self.value != "custom"


LADDER_JSON = {s.name: json.dumps([fmt_param(float(v)) for v in s.ladder]) for s in (*NUMBERS, *PRACTICE_NUMBERS)}


def _nearest_index(ladder: tuple[float, ...], value: float) -> int:
    return min(range(len(ladder)), key=lambda k: abs(ladder[k] - value) / max(abs(ladder[k]), 1e-9))


def controls(inputs: WorkloadInputs) -> tuple[Control, ...]:
    """Form controls in the contract's parameter order, so the form's query string is the canonical one."""
    out = []
    for name in PARAM_NAMES:
        value = getattr(inputs, name)
        changed = value != getattr(DEFAULTS, name)
        if name in NUMBER_SPECS:
            spec = NUMBER_SPECS[name]
            out.append(Control(
                "number", name, spec.group, fmt_param(value), min=fmt_param(spec.minimum),
                max=fmt_param(spec.maximum), step="1" if spec.integer else "any", ladder=LADDER_JSON[name],
                index=_nearest_index(spec.ladder, value), last=len(spec.ladder) - 1,
                disabled=name == "policy_b" and (inputs.arch != "custom" or inputs.layers is not None), changed=changed,
                shows_unit=spec.unit != "β"))
        else:
            spec = CHOICE_SPECS[name]
            out.append(Control("choice", name, spec.group, value, choices=spec.choices, changed=changed))
    # 2026 practice (refit, speculative decoding, agentic turns, the LLM judge), after the contract's own in each
    # group: the canonical query leaves a default out, the form sends it (the same state either way)
    for name, p in PRACTICE_SPECS.items():
        value = getattr(inputs, name)
        changed = value != p.default
        if isinstance(p, ChoiceSpec):
            out.append(Control("choice", name, p.group, value, choices=p.choices, changed=changed))
        else:
            out.append(Control(
                "number", name, p.group, fmt_param(value), min=fmt_param(p.minimum), max=fmt_param(p.maximum),
                step="1" if p.integer else "any", ladder=LADDER_JSON[name], index=_nearest_index(p.ladder, value),
                last=len(p.ladder) - 1, changed=changed))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class FormGroup:
    id: str
    controls: tuple[Control, ...]
    open: bool = True  # a group of "size a real run": shown when that section opens (form_groups says when not)

    @property
    def legend_key(self) -> str:
        return f"form.group.{self.id}"


@dataclass(frozen=True, slots=True, kw_only=True)
class FactorField:
    """A factor fitted to a run (inputs.FACTOR_NUMBERS): a plain number field, empty for the lab's own value."""

    name: str
    value: str
    min: str
    max: str

    @property
    def label_key(self) -> str:
        return f"input.{self.name}.label"


@dataclass(frozen=True, slots=True)
class Form:
    """The form: the workload's sliders first (the original page's), then the engineer's controls in one group
    ("size a real run": algorithm, model, hardware) that opens by itself when the state sets any of them.  A state
    with a factor fitted to a run (the calibrate page's) also gets the factors' fields, so a move keeps them."""

    first: FormGroup
    rest: tuple[FormGroup, ...]
    engineer_open: bool
    factors: tuple[FactorField, ...] = ()


def factor_fields(inputs: WorkloadInputs) -> tuple[FactorField, ...]:
    """The factors' fields when the state sets any of them, else none."""
    if all(getattr(inputs, s.name) is None for s in FACTOR_NUMBERS):
        return ()
    return tuple(FactorField(name=s.name, value="" if getattr(inputs, s.name) is None else
                             fmt_param(getattr(inputs, s.name)), min=fmt_param(s.minimum), max=fmt_param(s.maximum))
                 for s in FACTOR_NUMBERS)


def fitted_banner(lang: str, inputs: WorkloadInputs) -> str:
    """The line that labels a state's figures as fitted to a run, naming each factor and its value; "" when none."""
    t = translator(lang)
    parts = [f"{t(f'input.{s.name}.label')} {fmt_param(getattr(inputs, s.name))}" for s in FACTOR_NUMBERS
             if getattr(inputs, s.name) is not None]
    return t("calibrate.banner", factors=t("ui.list_sep").join(parts)) if parts else ""


def form_groups(inputs: WorkloadInputs) -> Form:
    ctls = controls(inputs)
    groups = tuple(FormGroup(id=g, controls=tuple(c for c in ctls if c.group == g)) for g in FORM_GROUPS)
    factors = factor_fields(inputs)
    # a walkthrough step sets every control and its card says what changed: "size a real run" stays closed there
    # (2,800 px of controls between the card and the stage on a phone) until the learner opens it
    # a state that sets some of the engineer's values (a shared link, a reload) opens the groups holding them and
    # leaves the others shut: policy_b=70&gpus=1 opened all 35 controls, 7,952 px, the fit line far above; with
    # none set, opening the section by hand shows every group
    moved = {g.id for g in groups[1:] if any(c.changed for c in g.controls)}
    rest = tuple(replace(g, open=not moved or g.id in moved) for g in groups[1:])
    return Form(first=groups[0], rest=rest, engineer_open=bool(factors) or (not inputs.step and bool(moved)),
                factors=factors)


@dataclass(frozen=True, slots=True)
class ArchChoice:
    id: str
    total_b: float
    active_b: float
    attention: str   # mha | gqa | mla ("" for custom)
    moe: bool

    @property
    def sub_key(self) -> str:  # the line under its name: size and attention, or the custom rule
        return f"arch.sub.{'moe' if self.moe else 'dense'}" if self.total_b else "arch.sub.custom"

    @property
    def attention_key(self) -> str:
        return f"arch.attention.{self.attention}"


ARCH_CHOICES = {"custom": ArchChoice("custom", 0, 0, "", False)} | {
    k: ArchChoice(k, a.total_b, a.active_b, a.attention, a.experts > 0) for k, a in ARCHS.items()}


@dataclass(frozen=True, slots=True)
class Walk:
    current: int | None
    steps: tuple[tuple[int, str, str], ...]  # (number, URL, focus)
    prev: str | None
    next: str | None
    first: str
    focus: str | None
    figures: dict[str, float] = field(default_factory=dict)  # what the current step's reveal quotes (walk_figures)
    moved: bool = False  # a control has moved away from the step's own settings (its figures are the step's)
    guess: GuessVM | None = None  # the current step's prediction (predict, then see)
    timeline_note: bool = False  # a step about time: its answer points at the timeline beside the diagram
    card_diff: CardDiffVM | None = None  # what the step changes of its nearest card, with both step times

    @property
    def total(self) -> int:
        return len(self.steps)

    @property
    def dots(self) -> tuple[tuple[int, str, str, bool, bool], ...]:
        """One per step: (number, URL, its title's key, whether it is the current step, whether it is done)."""
        return tuple((n, url, f"walk.{n}.title", n == self.current, bool(self.current) and n < self.current)
                     for n, url, _ in self.steps)

    # the current step's texts
    @property
    def title_key(self) -> str:
        return f"walk.{self.current}.title"

    @property
    def question_key(self) -> str:
        return f"walk.{self.current}.question"

    @property
    def reveal_key(self) -> str:
        return f"walk.{self.current}.reveal"

    @property
    def numbers_key(self) -> str:
        return f"walk.{self.current}.numbers"

    @property
    def takeaway_key(self) -> str:
        return f"walk.{self.current}.takeaway"

    @property
    def own_url(self) -> str | None:
        """The current step's link: its whole state (where the reveal's figures come from)."""
        return self.steps[self.current - 1][1] if self.current else None


def walk(lang: str, inputs: WorkloadInputs, present: bool = False) -> Walk:
    """The walkthrough's links from this page (each keeps presenter view) and the current step's figures."""
    n = inputs.step
    steps = tuple((k, url + ("&present=1" if present else ""), focus) for k, url, focus in walk_links(lang))
    return Walk(current=n, steps=steps,
                prev=steps[n - 2][1] if n and n > 1 else None,
                next=(steps[n][1] if n < len(steps) else None) if n else steps[0][1],
                first=steps[0][1], focus=walk_focus(inputs), figures=walk_figures(n) if n else {},
                moved=moved_from_step(inputs), guess=guess_vm(n) if n else None,
                timeline_note=n in TIMELINE_STEPS, card_diff=card_diff_vm(n) if n else None)


def _shown(value: float) -> str:
    """A constant as the assumptions table prints it: whole numbers with thousands separators, others as written.

    >>> _shown(128256.0), _shown(0.35), _shown(1e-05), _shown(16.0)
    ('128,256', '0.35', '0.00001', '16')
    """
    if float(value).is_integer():
        return f"{value:,.0f}"
    return f"{value:.12f}".rstrip("0") if abs(value) < 1e-3 else fmt_param(value)


@dataclass(frozen=True, slots=True, kw_only=True)
class AssumptionRow:
    """A teaching assumption or sourced constant; its words (what, unit, basis) are catalogue text."""

    key: str
    value: str            # the value as the table shows it
    pct: float            # the value × 100, for a row whose text gives a fraction as a percentage (0.005 → "0.5%")
    us: float             # the value × 10⁶, for a row whose text gives seconds as microseconds (0.00001 → "10 µs")
    source: str | None    # the source's id; None: a teaching assumption

    @property
    def label_key(self) -> str:
        return f"assumption.{self.key}.label"

    @property
    def why_key(self) -> str:
        return f"assumption.{self.key}.why"

    @property
    def value_key(self) -> str:
        return f"assumption.{self.key}.value"

    @property
    def source_title_key(self) -> str:
        return f"source.{self.source}.title"


@dataclass(frozen=True, slots=True, kw_only=True)
class GpuRow:
    """A GPU of the reference page's table: the model's specification and its name's key."""

    spec: GpuSpec

    @property
    def name_key(self) -> str:
        return f"gpu.{self.spec.key}.name"


# the teaching assumptions and sourced constants, in the model's order
ASSUMPTION_ROWS = tuple(AssumptionRow(key=c.key, value=_shown(c.value), pct=c.value * 100, us=c.value * 1e6,
                                      source=c.source) for c in CONSTANTS.values())
GPU_ROWS = tuple(GpuRow(spec=g) for g in GPUS.values())


def other(lang: str) -> str:
    return "en" if lang == "zh" else "zh"


RULES = (("instructgpt", "instructgpt"), ("dpo", "dpo"), ("ppo", "ppo"), ("vllm", "vllm_blog"))  # (rule, source)
# (rule, source, the keys of its title, body and citation)
RULE_CARDS = tuple((rid, src, f"rule.{rid}.title", f"rule.{rid}.body", f"rule.{rid}.cite") for rid, src in RULES)


def _keep(url: str, present: bool, step: int | None) -> str:
    """A preset's link from this page: it keeps presenter view and the walkthrough step the page is on."""
    return url + (f"&step={step}" if step else "") + ("&present=1" if present else "")


def lab_context(lang: str, result: Result, regions: dict[str, Region], present: bool = False, home: str = "") -> dict:
    """Everything lab.html reads.  ``regions`` are this state's live regions (app/view/regions/)."""
    i = result.inputs
    query = canonical_query(i)
    # (id, URL, its title's key, its description's key)
    presets = tuple((pid, _keep(url, present, i.step), f"preset.{pid}.title", f"preset.{pid}.desc")
                    for pid, url in preset_links(lang))
    return {
        "lang": lang, "other_lang": other(lang), "page": "lab", "r": result, "inputs": i, "present": present,
        "regions": regions, "form": form_groups(i), "arch_choices": ARCH_CHOICES,
        "presets": presets, "current_preset": current_preset(i),
        # the handout: the state's whole address from the request's base URL, and its QR code; ``handout_for``, the
        # state's canonical query (app.js compares the address bar's with it to know when a move made it stale; the
        # query as asked for is not echoed: it may be a 10 kB value the page clamped)
        **handout_context(home, query), "handout_for": query,
        "switch_url": f"/{other(lang)}/?{query}" + ("&present=1" if present else ""),
        "walk": walk(lang, i, present), "rules": RULE_CARDS,
        # on a projector the button copies the students' link (app.js drops present=1), and says so
        "copy_link_key": "ui.copy_link_students" if present else "ui.copy_link",
        "timeline_first": i.step in TIMELINE_STEPS,  # a step about time: the timeline before the step chart
        "assumptions": ASSUMPTION_ROWS, "sources": SOURCES,
        "fitted_banner": fitted_banner(lang, i), "calibrate_url": f"/{lang}/calibrate?{query}",
    }


def reference_context(lang: str) -> dict:
    """Everything reference.html reads: the constants, the GPU specifications and the glossary."""
    from app.view.calibrate import FACTOR_ROWS

    return {"lang": lang, "other_lang": other(lang), "page": "reference", "switch_url": f"/{other(lang)}/reference",
            "assumptions": ASSUMPTION_ROWS, "gpu_rows": GPU_ROWS, "sources": SOURCES, "factor_rows": FACTOR_ROWS}


__all__ = ["controls", "form_groups", "lab_context", "reference_context", "walk"]
