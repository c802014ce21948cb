"""The two catalogues: same keys, every key a template or the model uses exists and formats, nothing left untranslated."""

from __future__ import annotations

import functools
import html as _html
import random
import re
import string

import pytest
from support.urls import LANGS, STATES, lab_path

from app import templating
from app.i18n import catalogue, translator
from app.i18n.formats import COUNTED_EN
from app.model import WorkloadInputs, evaluate
from app.model.architectures import CONFIG_ERROR_KINDS, SHAPE_NAMES
from app.model.assumptions import ARCH_IDS, ARCHS, CONSTANTS, GPUS, SOURCES
from app.model.decisions import DECISION_IDS, DECISION_STATES
from app.model.inputs import CHOICES, FORM_GROUPS, NUMBERS, PARAM_NAMES
from app.model.meters import METER_IDS
from app.model.scenarios import PRESETS, WALKTHROUGH
from app.model.stage_cost import REMEDIES
from app.model.stages import NODE_IDS, STAGE_IDS
from app.view import diagram
from app.view.charts import memory_chart
from app.view.estimates import timeline
from app.view.reference import REALITY

TEMPLATES = templating.ROOT / "templates"
APP = templating.ROOT
NODE_STATES = ("ok", "needed", "warning", "overloaded", "inactive", "removed")
NOTICE_KINDS = ("below_min", "above_max", "invalid", "unknown_choice", "separate_needs_gpus")
BOUNDS = ("memory", "compute", "host_link", "none")
# the model's memory labels, and the page's finer ones naming the models counted (app.model.meters.memory_what)
WHATS = ("ppo", "grpo", "dpo", "rm", "sft", "grpo_rm", "grpo_noref", "grpo_rm_noref", "ppo_verifier", "ppo_noref",
         "ppo_noref_verifier")
RULES = ("instructgpt", "dpo", "ppo", "vllm")
LEVELS = ("ok", "warn", "hot")


# --- a seeded sample of workloads: presets, walkthrough steps and 300 random valid inputs --------------------------


def _random_inputs(rng: random.Random) -> WorkloadInputs:
    values: dict[str, object] = {}
    for spec in NUMBERS:
        if rng.random() < 0.5:
            x = rng.choice(spec.ladder)
        elif spec.minimum > 0:
            x = spec.minimum * (spec.maximum / spec.minimum) ** rng.random()  # log-uniform
        else:
            x = rng.uniform(spec.minimum, spec.maximum) * rng.choice((1e-4, 1e-2, 1.0))
        values[spec.name] = round(x) if spec.integer else x
    for spec in CHOICES:
        values[spec.name] = rng.choice(spec.choices)
    if rng.random() < 0.1:
        values["pairs"] = 0
    if rng.random() < 0.2:
        values["rollouts"] = 0
    return WorkloadInputs(**values)


def _workloads() -> list[WorkloadInputs]:
    rng = random.Random(20_240_601)
    return [*STATES.values(), *(_random_inputs(rng) for _ in range(300))]


WORKLOADS = _workloads()
RESULTS = [evaluate(i) for i in WORKLOADS]


def _model_texts() -> dict[str, list[dict]]:
    """Every (catalogue key → argument sets) the model produced over the sample."""
    out: dict[str, list[dict]] = {}
    for r in RESULTS:
        for m in r.meters.values():
            out.setdefault(m.figure, []).append(m.figure_args)
            out.setdefault(m.formula, []).append(m.formula_args)
        for d in r.decisions.values():
            out.setdefault(d.reason, []).append(d.args)
        for x in r.reasons:
            out.setdefault(x.key, []).append(x.args)
    return out


MODEL_TEXTS = _model_texts()


# --- the key families the templates build with `~` ------------------------------------------------------------------


def _keys(pattern: str, *values) -> list[str]:
    return [pattern.replace("*", str(v), 1) for v in values]


def _seen(attr: str) -> set[str]:
    """Lane / part names the engineer's panel can show, from the view functions over the sample."""
    out: set[str] = set()
    for r in RESULTS:
        if attr == "lane":
            out |= {lane.lane for lane in timeline(r)}
        elif attr == "memlane":  # a lane that holds the KV cache says so (est.memlane.<lane>_kv)
            out |= {lane.lane + ("_kv" if lane.kv else "") for lane in memory_chart(r).lanes}
        else:  # DPO and GRPO name their trained model the policy (the plan's ``trained``)
            out |= {b.part_key.removeprefix("est.part.") for lane in memory_chart(r).lanes for b in lane.bars}
    return out


_GROUPS = sorted({s.group for s in (*NUMBERS, *CHOICES)})
# every prefix passed to the sec_head macro (app/templates/_macros.html)
_SECTIONS = sorted({m for f in TEMPLATES.glob("*.html")
                    for m in re.findall(r'sec_head\("[^"]+", "([a-z_]+)"', f.read_text(encoding="utf-8"))})
FAMILIES: dict[str, list[str]] = {
    "assumption.*.label": _keys("assumption.*.label", *CONSTANTS),
    "assumption.*.why": _keys("assumption.*.why", *CONSTANTS),
    "assumption.*.value": _keys("assumption.*.value", *CONSTANTS),
    "source.*.title": _keys("source.*.title", *SOURCES),
    "choice.*.*": [f"choice.{s.name}.{v}" for s in CHOICES for v in s.choices],
    "arch.attention.*": _keys("arch.attention.*", *sorted({a.attention for a in ARCHS.values()})),
    "arch.sub.*": _keys("arch.sub.*", "dense", "moe"),
    "arch.info.*": _keys("arch.info.*", "dense", "moe", "window", "linear"),
    "choice.arch.*": _keys("choice.arch.*", *ARCH_IDS),
    "choice.method.*": _keys("choice.method.*", *next(s.choices for s in CHOICES if s.name == "method")),
    "method.short.*": _keys("method.short.*", *next(s.choices for s in CHOICES if s.name == "method")),
    "form.group.*_note": _keys("form.group.*_note", *FORM_GROUPS[1:]),
    "est.layout.*": _keys("est.layout.*", "searched", "fixed", "unfit", "given", "given_trainer"),
    "est.phase.gen*": _keys("est.phase.gen*", "", "_all"),  # _all: the step is generation (staleness ≥ 1)
    "est.phase.sync.*": _keys("est.phase.sync.*", "refit", "broadcast"),
    "est.run.*": _keys("est.run.*", "rl", "dpo"),
    "est.scored.***": [f"est.scored.{m}{r}{s}" for m in ("ppo", "grpo") for r in ("_ref", "") for s in ("_rm", "_verifier", "_judge")],
    "est.trained.*": _keys("est.trained.*", "ppo", "grpo"),
    "est.vs.m.*": _keys("est.vs.m.*", "actor", "critic", "reference", "reward"),
    "node.note.*": _keys("node.note.*", *sorted({n.note for r in RESULTS for n in r.nodes.values() if n.note})),
    "choice.placement.*": _keys("choice.placement.*", *next(s.choices for s in CHOICES if s.name == "placement")),
    "compare.*": _keys("compare.*", "left", "right"),
    "decision.*.summary": _keys("decision.*.summary", *DECISION_IDS),
    "decision.*.title": _keys("decision.*.title", *DECISION_IDS),
    "decision.state.*": _keys("decision.state.*", *DECISION_STATES),
    "enum.bound.*": _keys("enum.bound.*", *BOUNDS),
    "enum.what.*": _keys("enum.what.*", *WHATS),
    "est.lane.*": _keys("est.lane.*", *_seen("lane")),
    "chart.memlane.*": _keys("chart.memlane.*", *{m.rstrip("_kv").removesuffix("_") for m in _seen("memlane")}),
    "chart.phase.*": _keys("chart.phase.*", "gen", "tail", "score", "fwd", "train", "sync"),
    "est.memlane.**": _keys("est.memlane.*", *_seen("memlane")),
    "est.part.*": _keys("est.part.*", *_seen("part")),
    "est.reality.*": _keys("est.reality.*", *(row.key for row in REALITY)),
    "form.group.*": _keys("form.group.*", *_GROUPS),
    "gpu.*.name": _keys("gpu.*.name", *GPUS),
    "group.*.name": _keys("group.*.name", *(g[0] for g in diagram.GROUPS)),
    "input.*.hint": _keys("input.*.hint", *PARAM_NAMES),
    "input.*.label": _keys("input.*.label", *PARAM_NAMES, *SHAPE_NAMES),
    "config.error.*": _keys("config.error.*", *CONFIG_ERROR_KINDS),
    "unit.*": _keys("unit.*", *(s.name for s in NUMBERS)),
    "level.*": _keys("level.*", *LEVELS),
    "meter.*.help": _keys("meter.*.help", *METER_IDS),
    "meter.*.label": _keys("meter.*.label", *METER_IDS),
    "meter.*.short": _keys("meter.*.short", *METER_IDS),
    "node.*.name": _keys("node.*.name", *NODE_IDS),
    "shape.remedy.*": _keys("shape.remedy.*", *(name for name, _ in REMEDIES)),
    "node.*.desc": _keys("node.*.desc", *NODE_IDS),
    "node.*.detail": _keys("node.*.detail", *NODE_IDS),
    "node_state.*": _keys("node_state.*", *NODE_STATES),
    "notice.*": _keys("notice.*", *NOTICE_KINDS),
    "preset.*.title": _keys("preset.*.title", *(p.id for p in PRESETS)),
    "preset.*.desc": _keys("preset.*.desc", *(p.id for p in PRESETS)),
    "rule.*.title": _keys("rule.*.title", *RULES),
    "rule.*.body": _keys("rule.*.body", *RULES),
    "rule.*.cite": _keys("rule.*.cite", *RULES),
    # _macros.html sec_head(hid, prefix): the section headings and their notes
    "*.heading": _keys("*.heading", *_SECTIONS),
    "*.note": _keys("*.note", *(s for s in _SECTIONS if s != "why")),
    "stage.*.name": _keys("stage.*.name", *STAGE_IDS),
    "stage.*.desc": _keys("stage.*.desc", *STAGE_IDS),
    **{f"walk.*.{part}": _keys(f"walk.*.{part}", *(w.number for w in WALKTHROUGH))
       for part in ("title", "question", "reveal", "numbers", "takeaway")},
}
# First arguments that are keys computed by the model (checked by test_every_model_key_formats)
MODEL_KEY_EXPRESSIONS = {"d.reason", "m.figure", "m.formula", "x.key", "p.version_line.key"}
# First arguments that are whole keys a region's view-model carries (checked by test_every_view_model_key_exists)
VIEW_KEY_EXPRESSIONS = {
    "vm.short", "vm.generation_key", "vm.scored_key", "vm.trained_key", "vm.sync_key", "vm.name_key", "vm.desc_key",
    "vm.bottleneck_key", "vm.flag_key", "vm.note_key", "vm.level_key", "vm.state_key", "vm.stage_key",
    "vm.gpu_key", "vm.placement_key", "vm.method_key", "vm.info_key", "vm.mix_key", "vm.attention_key", "vm.text_key",
    "vm.total.key", "vm.stage_keys[0]", "vm.stage_keys[1]", "vm.bottleneck_keys[0]", "vm.bottleneck_keys[1]",
    # loop variables over a view-model's parts: bars, lanes, the strip's meters, the models, what moved
    "b.key", "b.part_key", "lane.key", "lane.name_key", "lane.short_key", "short_key", "key", "label_key",
    # the engine's shape and the idle line
    "vm.engine_key", "vm.engine_shape_key", "vm.idle_key", "vm.layout_key", "vm.bound_key",
    "vm.engine_tp_key",  # tests/model/test_engine_tp_given.py renders both of its keys
    "vm.flag_why_key", "vm.now_key", "s.name_key",  # a flag's why; the timeline's caption and its segments (app/view/timeline.py)
    # the RL step block (``s``: EstRlStepVM) and its engine (``e``)
    "s.method_key", "s.generation_key", "s.scored_key", "s.trained_key", "s.sync_key", "s.layout_key",
    "s.engine_shape_key", "s.engine_tp_key", "s.idle_key", "s.engine_key", "e.bound_key",
    "ph.key",  # the memory chart's phases (chart.memory.phase.*)
    "l.key",  # the diagram's GPU key (app/view/regions/stage.py, PlacementVM.lines)
}
# First arguments that are whole keys the lab page's context names (checked by test_every_page_key_exists)
PAGE_KEY_EXPRESSIONS = {
    "c.label_key", "c.hint_key", "c.unit_key", "a.sub_key", "a.attention_key", "form.first.legend_key",
    "g.legend_key", "vm.label_key", "vm.title_key", "vm.summary_key", "stage_vm.name_key", "title_key", "desc_key",
    "body_key", "cite_key", "walk.title_key", "walk.question_key", "walk.reveal_key", "walk.numbers_key",
    "walk.takeaway_key", "heading_key", "note_key", "name_key", "detail_key", "help_key", "group_keys[gid]",
    "nvm.name_key", "nvm.desc_key", "row.name_key",
    "g.prompt_key", "g.answer_key", "o.label_key", "o.verdict_key",  # a step's prediction (app/view/guess.py)
    "d.title_key",  # the card a step changes (app/view/card_diff.py)
}
# First arguments that are whole keys the other pages' view-models name (checked by test_every_other_page_key_exists):
# compare (app/view/compare.py), launch (app/view/launch.py), reference (app/view/lab.py), the config paste
OTHER_PAGE_KEY_EXPRESSIONS = {
    "a.label_key", "a.why_key", "a.value_key", "a.source_title_key", "f.label_key", "message_key",
    "s.side_key", "s.stage_name_key", "s.stage_desc_key", "n.name_key", "c.node_key", "c.a_key", "c.b_key",
    "c.meter_label_key", "row.label_key", "row.ratio_key", "m.label_key", "m.a_level_key", "m.b_level_key", "x.title_key",
    "d.state_key", "p.title_key", "vm.stage_name_key", *(f"vm.choice_keys.{c}" for c in
                                                          ("gpu", "method", "arch", "engine", "offload", "tuning")),
    # the calibrate page (app/view/calibrate.py) and the reference page's factors
    "b.series_key", "f.phase_key", "f.status_key", "g.label_key", "o.phase_key", "r.framework_key", "vm.error_key",
    "x.label_key", "key", "f.what_key",
    # the run planner (plan.html, _prices.html; app/view/plan.py)
    "arch_key", "method_key", "p.gpu_key", "p.read_key", "r.band_key", "r.gpu_key", "r.offload_key", "r.placement_key",
    "s.label_key",
    # compare any two states (compare.html; app/view/compare.py): the page's heading and note, the state lines, the
    # prices and the presenter link
    "heading_key", "note_key", "present_link_key", "p.side_key", "s.gpu_key", "s.method_key", "label_key",
    # the lab's copy-link button (app/view/lab.py; tests/web/test_lesson_page.py reads both labels)
    "copy_link_key",
}
_KEY = re.compile(r"[a-z][a-z0-9_]*(\.[a-z0-9_]+)+")


def _vm_keys(vm, depth: int = 0) -> set[str]:  # noqa: ANN001
    """Every catalogue key a view-model carries: its fields and properties named ``…key`` / ``…keys`` (and
    ``short``), and those of the bars, lanes and rows inside it."""
    out: set[str] = set()
    if depth > 5 or vm is None or isinstance(vm, (str, int, float, bool, dict)):
        return out
    if isinstance(vm, tuple) and not hasattr(vm, "_fields"):
        for x in vm:
            if isinstance(x, str) and _KEY.fullmatch(x):
                out.add(x)
            else:
                out |= _vm_keys(x, depth + 1)
        return out
    for name in dir(vm):
        if name.startswith("_"):
            continue
        value = getattr(vm, name)
        if name.endswith(("key", "keys")) or name == "short":
            out |= {value} if isinstance(value, str) else {k for k in (value or ()) if isinstance(k, str)}
        elif name in ("bars", "lanes", "segments", "total", "items", "changed", "meter_moves", "rl", "dpo", "offline",
                      "engine"):
            out |= _vm_keys(value, depth + 1)
    return {k for k in out if k}


def _first_arguments(source: str) -> list[str]:
    """The key of every catalogue text a template asks for, as written: the subject of each ``|t`` / ``|tm``
    filter (``'est.heading'|t``, ``('stage.' ~ vm.stage ~ '.name')|t``, ``m.figure|tm(**args)``)."""
    out = []
    for m in re.finditer(r"\|\s*tm?\b(?![\w.])", source):
        k = m.start() - 1
        while source[k] == " ":
            k -= 1
        end = k + 1
        if source[k] in "'\"":
            k = source.rindex(source[k], 0, k)
        elif source[k] == ")":
            depth = 0
            while True:
                depth += {")": 1, "(": -1}.get(source[k], 0)
                if depth == 0:
                    break
                k -= 1
            out.append(source[k + 1:end - 1].strip())
            continue
        else:
            while source[k - 1].isalnum() or source[k - 1] in "_.[]":
                k -= 1
        out.append(source[k:end].strip())
    return out


def _pattern(expr: str) -> str | None:
    """'meter.' ~ id ~ '.label' → 'meter.*.label'; a plain literal → itself; a bare variable → None."""
    parts = [p.strip() for p in expr.split("~")]
    if len(parts) == 1 and not re.fullmatch(r"'[^']*'|\"[^\"]*\"", parts[0]):
        return None
    return "".join(p[1:-1] if re.fullmatch(r"'[^']*'|\"[^\"]*\"", p) else "*" for p in parts)


def _template_calls() -> list[tuple[str, str]]:
    return [(path.name, expr) for path in sorted(TEMPLATES.glob("*.html"))
            for expr in _first_arguments(path.read_text(encoding="utf-8"))]


TEMPLATE_CALLS = _template_calls()


# --- tests --------------------------------------------------------------------------------------------------------------


def test_both_languages_have_the_same_keys():
    zh, en = catalogue("zh"), catalogue("en")
    assert sorted(set(zh) - set(en)) == [] and sorted(set(en) - set(zh)) == []


SPACING_KEYS = {"text.sentence_gap": {"en": " ", "zh": ""}}  # the gap between two sentences: none in Chinese


@pytest.mark.parametrize("lang", LANGS)
def test_no_catalogue_value_is_empty(lang):
    cat = catalogue(lang)
    assert [k for k, v in cat.items() if k not in SPACING_KEYS and (not isinstance(v, str) or not v.strip())] == []
    assert {k: cat[k] for k in SPACING_KEYS} == {k: v[lang] for k, v in SPACING_KEYS.items()}


def _fields(text: str) -> list[tuple[str, str]]:
    return sorted((name, spec) for _, name, spec, _ in string.Formatter().parse(text) if name is not None)


def _same_fields(en: str, zh: str) -> bool:
    """The same fields in the same specs, except that English may count a noun (``{k:steps}``: "1 step",
    "2 steps") where Chinese writes the bare number (``{k}`` or ``{k:n}``) beside its measure word, and a ratio
    below 1 English writes as a factor (``{ratio:g2}``: "×0.85") Chinese may write as a share (「是左边的 85%」)."""
    a, b = _fields(en), _fields(zh)
    return len(a) == len(b) and all(
        na == nb and (sa == sb or (sa in COUNTED_EN and sb in ("", "n")) or (sa, sb) == ("g2", "frac_pct"))
        for (na, sa), (nb, sb) in zip(a, b, strict=True))


def test_both_languages_take_the_same_arguments():
    zh, en = catalogue("zh"), catalogue("en")
    assert [k for k in en if not _same_fields(en[k], zh[k])] == []


def test_both_languages_use_the_same_markup():
    zh, en = catalogue("zh"), catalogue("en")

    def tags(s: str) -> list[str]:
        return sorted(re.findall(r"</?([a-zA-Z]+)\b", s))

    assert [k for k in en if tags(en[k]) != tags(zh[k])] == []


def test_templates_call_t():
    """The scanner below must see the calls (a guard against the scanner silently finding nothing)."""
    assert len(TEMPLATE_CALLS) > 150


@pytest.mark.parametrize("lang", LANGS)
def test_every_literal_key_a_template_uses_exists(lang):
    cat = catalogue(lang)
    missing = [(f, p) for f, expr in TEMPLATE_CALLS if (p := _pattern(expr)) and "*" not in p and p not in cat]
    assert missing == []


def test_every_dynamic_key_family_is_known():
    """A new `'prefix.' ~ x` in a template must be added to FAMILIES, so that its keys get checked."""
    unknown = sorted({(f, expr) for f, expr in TEMPLATE_CALLS
                      if (p := _pattern(expr)) is None
                      and expr not in MODEL_KEY_EXPRESSIONS | VIEW_KEY_EXPRESSIONS | PAGE_KEY_EXPRESSIONS
                      | OTHER_PAGE_KEY_EXPRESSIONS
                      or p is not None and "*" in p and p not in FAMILIES})
    assert unknown == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_dynamic_key_exists(lang):
    cat = catalogue(lang)
    used = {p for _, expr in TEMPLATE_CALLS if (p := _pattern(expr)) and "*" in p}
    used |= {"input.*.label", "enum.bound.*", "enum.what.*"}  # the input_labels and targs filters
    missing = sorted(k for p in used for k in FAMILIES[p] if k not in cat)
    assert missing == []


@functools.cache
def _view_model_keys() -> frozenset[str]:
    """The keys the regions' view-models of every state in RESULTS carry (the same in both languages: worked once)."""
    from app.view.regions import state_regions

    return frozenset(k for r in RESULTS for reg in state_regions(r).values() for k in _vm_keys(reg.vm))


@pytest.mark.parametrize("lang", LANGS)
def test_every_view_model_key_exists(lang):
    """The keys the regions' view-models carry whole (the template picks no key of its own for them)."""
    cat = catalogue(lang)
    keys = _view_model_keys()
    assert len(keys) > 100
    assert sorted(k for k in keys if k not in cat) == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_key_exists(lang):
    """The keys the lab page's context names whole: controls, form groups, the architecture chips, presets,
    rules, the walkthrough's steps (each step's page), the meter and decision cards."""
    from app.view.lab import lab_context
    from app.view.regions import state_regions

    cat = catalogue(lang)
    keys: set[str] = set()
    for r in [*RESULTS[:4], *(evaluate(w.inputs) for w in WALKTHROUGH)]:
        ctx = lab_context(lang, r, state_regions(r))
        w = ctx["walk"]
        for group in (ctx["form"].first, *ctx["form"].rest):
            keys.add(group.legend_key)
            for c in group.controls:
                keys |= {c.label_key, c.hint_key} | ({c.unit_key} if c.kind == "number" and c.shows_unit else set())
                keys |= {k for _, k, _ in c.options}
        keys |= {k for a in ctx["arch_choices"].values() for k in (a.sub_key, a.attention_key) if a.total_b}
        keys |= {k for p in ctx["presets"] for k in p[2:]} | {k for rule in ctx["rules"] for k in rule[2:]}
        keys |= {k for _, _, k, _, _ in w.dots}
        if w.current:
            keys |= {w.title_key, w.question_key, w.reveal_key, w.numbers_key, w.takeaway_key}
            keys |= {w.guess.prompt_key, w.guess.answer_key, *(k for o in w.guess.options
                                                               for k in (o.label_key, o.verdict_key))}
            if w.card_diff:
                keys |= {w.card_diff.title_key, *(label for _, label, _ in w.card_diff.changes)}
        keys |= {k for reg in ctx["regions"].values() for k in (getattr(reg.vm, "label_key", None),
                                                                   getattr(reg.vm, "title_key", None),
                                                                   getattr(reg.vm, "summary_key", None)) if k}
    keys |= set(templating.GLOBALS["group_keys"].values())
    keys |= {k for row in (*templating.GLOBALS["node_list"], *templating.GLOBALS["meter_list"]) for k in row[1:]}
    keys |= {row.name_key for row in templating.GLOBALS["reality"]}
    keys |= {k for path in TEMPLATES.glob("*.html") for call in re.findall(r"sec_head\(([^)]*)\)", path.read_text(encoding="utf-8"))
             for k in re.findall(r"[\"']([a-z_]+\.(?:heading|note))[\"']", call)}
    assert len(keys) > 150
    assert sorted(k for k in keys if k not in cat) == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_other_page_key_exists(lang):
    """The keys the compare, launch and reference pages' view-models and the config paste name whole (their
    templates pick no key of their own): every preset's and every method's compare page, the sample's launch pages."""
    from app.view.compare import compare_context
    from app.view.lab import ASSUMPTION_ROWS, GPU_ROWS
    from app.view.launch import launch_page
    from app.view.regions import arch_info

    cat = catalogue(lang)
    keys: set[str] = set()
    queries = [p.inputs.query() for p in PRESETS] + [WorkloadInputs(method=m).query() for m in ("ppo", "grpo", "dpo")]
    for q in queries:
        ctx = compare_context(lang, {k: [v] for k, v in q.items()})
        keys |= {k for s in ctx["sides"] for k in (s.side_key, s.stage_name_key, s.stage_desc_key)}
        keys |= {n.name_key for n in (*ctx["removed"], *ctx["added"])} | {p.title_key for p in ctx["pairs"]}
        keys |= {k for c in ctx["changes"] for k in (c.node_key, c.a_key, c.b_key)}
        keys |= {c.meter_label_key for c in ctx["changes"] if c.meter}
        keys |= {k for row in ctx["rows"] for k in (row.label_key, row.ratio_key)}
        keys |= {k for m in ctx["meter_rows"] for k in (m.label_key, m.a_level_key, m.b_level_key)}
        keys |= {x.title_key for x in ctx["decisions_changed"]}
        keys |= {d.state_key for x in ctx["decisions_changed"] for d in x.sides}
    for r in RESULTS:
        vm = launch_page(lang, r, ())
        keys |= {vm.stage_name_key} | {k for c, k in vm.choice_keys.items() if c != "arch" or r.inputs.arch != "custom"}
    keys |= {k for a in ASSUMPTION_ROWS for k in (a.label_key, a.why_key, a.value_key)}
    keys |= {a.source_title_key for a in ASSUMPTION_ROWS if a.source} | {g.name_key for g in GPU_ROWS}
    keys |= {f.label_key for f in arch_info(WorkloadInputs()).shape}
    keys |= {f"config.error.{kind}" for kind in CONFIG_ERROR_KINDS}  # the message_key app/routes/config.py names
    keys |= _calibrate_keys()
    assert len(keys) > 150
    assert sorted(k for k in keys if k not in cat) == []


def _calibrate_keys() -> set[str]:
    """The keys the calibrate page's view-model names whole: a fit with every phase, an outlier and a dropped step;
    every error kind; the reference page's factor rows and the lab form's factor fields."""
    from app.calibrate import calibrate, read_log
    from app.calibrate.fit import CALIBRATION_ERROR_KINDS
    from app.calibrate.logs import LOG_ERROR_KINDS
    from app.view.calibrate import FACTOR_ROWS, page
    from app.view.lab import factor_fields

    text = "\n".join(f"step:{n} - timing_s/gen:{g} - timing_s/ref:5 - timing_s/update_actor:20 - "
                      f"timing_s/update_weights:2 - timing_s/step:60 - response_length/mean:900" for n, g in
                      ((1, 30), (2, 31), (3, 90))) + "\nstep:4 - timing_s/gen:-1"
    vm = page("en", WorkloadInputs(), result=calibrate(WorkloadInputs(), read_log(text)), max_bytes=1, max_lines=1)
    r = vm.result
    keys = {r.framework_key} | {b.series_key for g in r.chart.groups for b in g.bars}
    keys |= {g.label_key for g in r.chart.groups} | {k for _, k in r.chart.series_keys}
    keys |= {k for f in r.factors for k in (f.label_key, f.status_key, f.phase_key)}
    keys |= {o.phase_key for o in r.outliers} | {x.label_key for x in r.lengths}
    keys |= {f"calibrate.error.{k}" for k in (*LOG_ERROR_KINDS, *CALIBRATION_ERROR_KINDS)}
    keys |= {k for f in FACTOR_ROWS for k in (f.label_key, f.what_key, f.phase_key)}
    keys |= {f.label_key for f in factor_fields(WorkloadInputs(train_mfu=0.2))}
    keys |= {f"calibrate.status.{s}" for s in ("fitted", "at_bound", "held", "not_logged", "insensitive")}
    keys |= {f"calibrate.framework.{f}" for f in ("verl", "openrlhf", "nemo_rl")}
    return keys


def test_python_literal_keys_exist():
    keys = set()
    for path in APP.rglob("*.py"):
        keys |= set(re.findall(r"(?<![\w.])t\(\s*[\"']([a-z0-9_.]+)[\"']", path.read_text(encoding="utf-8")))
    assert keys, "the scanner found no t('...') in app/*.py"
    for lang in LANGS:
        assert sorted(keys - set(catalogue(lang))) == []


def test_the_sample_covers_the_model():
    """The workloads reach every stage, level and decision state, so the key collection below means something."""
    assert {r.stage for r in RESULTS} == set(STAGE_IDS)
    assert {m.level for r in RESULTS for m in r.meters.values()} == set(LEVELS)
    assert {d.state for r in RESULTS for d in r.decisions.values()} == set(DECISION_STATES)
    assert {r.step.gen.bound for r in RESULTS} - set(BOUNDS) == set()
    assert len(MODEL_TEXTS) > 40


_PLACEHOLDER = re.compile(r"\{[a-z_]+(:[^}]*)?\}")


def _format_problems(lang: str) -> list[tuple[str, str]]:
    """Each key the model produced must exist and format with every argument set it came with (enums translated)."""
    t = translator(lang)
    problems = []
    for key, arg_sets in sorted(MODEL_TEXTS.items()):
        if not t.has(key):
            problems.append((key, "missing"))
            continue
        for args in arg_sets:
            try:
                text = str(t.markup(key, **templating.t_args(args, t)))
            except Exception as exc:  # noqa: BLE001 - any failure is the finding
                problems.append((key, f"{type(exc).__name__}: {exc} with {args}"))
                break
            if _PLACEHOLDER.search(text):
                problems.append((key, f"unformatted placeholder in {text!r}"))
                break
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_every_model_key_formats(lang):
    assert _format_problems(lang) == []


def test_enum_arguments_are_translatable():
    for r in RESULTS:
        assert r.step.gen.bound in BOUNDS
        what = r.meters["train_memory"].figure_args.get("what")
        assert what is None or what in WHATS


_LETTERS = re.compile(r"[A-Za-z]")


def _translatable(text: str) -> bool:
    return bool(_LETTERS.search(re.sub(r"\{[^}]*\}", "", text)))


def test_zh_is_translated():
    zh, en = catalogue("zh"), catalogue("en")
    keys = [k for k in en if _translatable(en[k])]
    same = sorted(k for k in keys if zh[k] == en[k])
    share = 1 - len(same) / len(keys)
    assert share >= 0.90, f"{share:.1%} differ; identical: " + ", ".join(f"{k}={en[k]!r}" for k in same)


# --- rendered pages --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("state", list(STATES))
def test_no_placeholder_survives_on_the_lab_page(client, lang, state):
    body = client.get(lab_path(lang, STATES[state])).text
    found = sorted({m.group(0) for m in _PLACEHOLDER.finditer(body)})
    assert found == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", ["tutorial", "compare", "nope"])
def test_no_placeholder_survives_on_other_pages(client, lang, path):
    body = client.get(f"/{lang}/{path}").text
    assert sorted({m.group(0) for m in _PLACEHOLDER.finditer(body)}) == []


def _han(html: str) -> str:
    text = _html.unescape(re.sub(r"<[^>]+>", " ", html))
    return "".join(re.findall(r"[\u4e00-\u9fff]+", text))


@pytest.mark.parametrize("state", STATES, ids=list(STATES))
def test_each_page_is_in_its_language(client, state):
    """The zh page's text is Chinese; the en page's has no Chinese beyond the language switch (中文) and the
    glossary's other-language terms (shown on purpose)."""
    zh = _han(client.get(lab_path("zh", STATES[state])).text)
    assert len(zh) > 2_000
    html = client.get(lab_path("en", STATES[state])).text
    allowed = sorted({"中文", *(g["zh"]["term"] for g in templating.GLOSSARY)}, key=len, reverse=True)
    for term in allowed:
        html = html.replace(_html.escape(term, quote=False), " ")
    assert _han(html) == ""


@pytest.mark.parametrize("inputs", [
    WorkloadInputs(gpus=4, placement="separate"),  # one GPU each for generation and scoring
    WorkloadInputs(gpus=1, placement="colocated"),
    WorkloadInputs(gpus=1, method="dpo"),
], ids=["separate-4", "colocated-1", "dpo-1"])
def test_one_gpu_is_singular_in_english(client, inputs):
    text = _html.unescape(re.sub(r"<[^>]+>", " ", client.get(lab_path("en", inputs)).text))
    assert not re.search(r"(?<![\d,.])1 GPUs", text), re.findall(r".{40}(?<![\d,.])1 GPUs.{20}", text)
    if inputs.gpus == 4:  # separate placement: the lanes and the reason name one GPU each
        assert "Generation · 1 GPU " in text and "generation on 1 GPU," in text


def test_gpu_counts_read_the_same_in_chinese(client):
    text = _html.unescape(re.sub(r"<[^>]+>", " ", client.get(lab_path("zh", WorkloadInputs(gpus=4, placement="separate"))).text))
    assert "生成 · 1 张 GPU" in text and "1 张 GPU 做生成" in text


def test_english_source_titles_are_the_models():
    """A source's title lives in the model (app/model/assumptions.py); the English catalogue quotes it as it is and
    the Chinese one translates it (the page's basis column reads the catalogue)."""
    en = catalogue("en")
    assert {k: en[f"source.{k}.title"] for k in SOURCES} == {k: s.title for k, s in SOURCES.items()}


def test_no_catalogue_key_names_a_constant_the_model_no_longer_has():
    keys = {k.split(".")[1] for lang in LANGS for k in catalogue(lang) if k.startswith("assumption.")}
    assert keys <= set(CONSTANTS), sorted(keys - set(CONSTANTS))


def test_a_missing_catalogue_fails_loudly(tmp_path, monkeypatch):
    """The catalogues ship inside the package; without them the app must not start (no silent fallback)."""
    import app.i18n as i18n

    monkeypatch.setattr(i18n, "CATALOGUES", tmp_path)
    with pytest.raises(FileNotFoundError, match="no catalogue"):
        i18n.load_catalogue("zh")


@pytest.mark.parametrize("lang", LANGS)
def test_the_search_bound_has_one_home(lang):
    """The largest GPU count the fit search tries is the model's MAX_GPUS, quoted as ``{max_gpus:n}`` (filled in when
    the catalogue loads, app/i18n CONSTANT_ARGS), never written out: a text that says "up to 4,096" would go stale
    with the search."""
    from app.i18n import load_catalogue
    from app.model.physics.memory import MAX_GPUS
    raw = load_catalogue(lang)
    written = f"{MAX_GPUS:,}"
    stale = sorted(k for k, text in raw.items() if written in text and not k.startswith(("assumption.", "source.")))
    assert stale == []
    quoting = [k for k, text in raw.items() if "{max_gpus" in text]
    assert len(quoting) >= 20
    t = translator(lang)
    assert all("{max_gpus" not in t.messages[k] and written in t.messages[k] for k in quoting)
