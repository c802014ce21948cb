"""The Jinja environment (stock, from constructor arguments), its globals and filters in one place, and the two
ways the app renders: a whole page, or a lab partial (the live regions that changed, each swapped by id)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup

from app.i18n import LANGS, translator
from app.i18n.formats import axis_duration_unit, row_duration_unit
from app.i18n.terms import term_html
from app.model.decisions import DECISION_IDS
from app.model.inputs import CHOICES, fmt_param
from app.model.meters import METER_IDS
from app.model.stages import NODE_IDS, STAGE_IDS
from app.view import diagram
from app.view.reference import REALITY
from app.view.regions import FIRST_PAINT, NodeVM, placement_vm

ROOT = Path(__file__).parent
STATIC = ROOT / "static"
HTMX = "htmx-2.0.11.min.js"


def asset_url(name: str) -> str:
    """A static file's URL with its content hash, so it can be cached for a year."""
    digest = hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:10]
    return f"/static/{name}?v={digest}"


GLOSSARY = json.loads((ROOT / "content" / "glossary.json").read_text(encoding="utf-8"))


def t_args(args: dict, t) -> dict:  # noqa: ANN001
    """Arguments for a catalogue text; enum-valued ones (``what``, ``bound``) and a GPU's key (``gpu``: its label)
    translated first."""
    return {k: (t(f"enum.{k}.{v}") if k in ("what", "bound") else t(f"choice.gpu.{v}") if k == "gpu" else v)
            for k, v in args.items()}


def _input_labels(names, t) -> str:  # noqa: ANN001
    """The parameters' labels, each quoted as the language quotes a UI label, comma-separated (the causes of a
    meter's move)."""
    # Chinese sets quoted items side by side with no 顿号 between them: 「「GPU 数量」「Generation 部署方式」」
    sep = "" if t("ui.quoted_label", label="").endswith("」") else t("ui.list_sep")
    return sep.join(t("ui.quoted_label", label=t(f"input.{name}.label")) for name in names)


_CHOICE_NAMES = frozenset(c.name for c in CHOICES)


def _shown_value(value, name: str, t) -> str:  # noqa: ANN001
    """A parameter's value as the page writes it: a choice by its label (the method by its short name: PPO, GRPO),
    a whole number with the language's thousands separator (「13,000 → 20,000」, as the prose and the cards write
    it), any other number as the URL writes it."""
    if name == "method":
        return t(f"method.short.{value}")
    if name in _CHOICE_NAMES:
        return t(f"choice.{name}.{value}")
    if isinstance(value, int) and not isinstance(value, bool):
        return t.fmt("n", value)
    return fmt_param(value)


def notice_text(n, t) -> Markup:  # noqa: ANN001
    """One notice (``inputs.Notice``) as the page says it: the parameter by its form label, a choice by the label
    its radio shows, the URL name in <code> (a compare page's right side names its ``b_`` field)."""
    # a compare page's side: ``b_gpus`` (its first form's right side), ``a.gpus`` / ``b.gpus`` (any two states), or
    # ``a`` / ``b`` itself (a value that is no state)
    side, dot, rest = n.field.partition(".")
    name = rest if dot and side in ("a", "b") else n.field.removeprefix("b_")
    key = ("walk.heading" if name == "step" else  # step: the walkthrough's
           f"compare.state_name.{name}" if name in ("a", "b") else f"input.{name}.label")
    label = t("ui.quoted_label", label=t(key))
    choices = next((c.choices for c in CHOICES if c.name == name), ())
    shown = {v: (_shown_value(v, name, t) if v in choices else v) for v in (n.given, n.used)}
    used = f"{int(n.used):,}" if n.used.isdigit() else n.used  # the value the page uses, as its figures print it
    return t.markup(f"notice.{n.kind}", field=n.field, label=label, given=n.given, used=used,
                    given_label=shown[n.given], used_label=shown[n.used])


GLOBALS = dict(
    row_unit=row_duration_unit,  # one unit for a row of durations (the compare table)
    axis_unit=axis_duration_unit,  # one unit for a linear axis of durations (the phase chart)
    assets={"css": asset_url("app.css"), "js": asset_url("app.js"), "htmx": f"/static/{HTMX}",
            "icon": asset_url("favicon.svg"), "nojs": asset_url("nojs.css"),
            "swagger_init": asset_url("swagger-init.js"), "config_paste": asset_url("config-paste.js")},
    langs=LANGS, stage_ids=STAGE_IDS, node_ids=NODE_IDS, meter_ids=METER_IDS, decision_ids=DECISION_IDS,
    glossary=GLOSSARY, reality=REALITY,
    viewbox=" ".join(map(str, diagram.VIEWBOX)), phone_viewbox=" ".join(map(str, diagram.PHONE_VIEWBOX)), node_w=diagram.NODE_W, node_h=diagram.NODE_H, flag_x=diagram.FLAG_X,
    node_pos=diagram.NODE_POS, diagram_groups=diagram.GROUPS, edge_paths=diagram.EDGE_PATHS,
    node_vm=NodeVM,  # a diagram node's view-model, for the pages that draw the diagram from a Result (_diagram.html)
    placement_vm=placement_vm,  # the diagram's GPU split (frames and key), from a Result, the same way
    # the catalogue keys of the diagram's group names and of the "more detail" lists (components, meters)
    group_keys={g[0]: f"group.{g[0]}.name" for g in diagram.GROUPS},
    node_list=tuple((k, f"node.{k}.name", f"node.{k}.detail") for k in NODE_IDS),
    meter_list=tuple((k, f"meter.{k}.label", f"meter.{k}.help") for k in METER_IDS),
)


def environment(lang: str) -> Environment:
    """The environment of one language: stock, from constructor arguments, with the language's translator as
    filters — ``'key'|t(**args)`` a catalogue text, ``'key'|tm(**args)`` one that may carry markup, ``x|fmt('gb')``
    a value in a catalogue format.  A filter is a direct call in the compiled template (a call expression
    in a template goes through ``Context.call`` each time), and a text with constant arguments is translated once,
    when the template compiles: so each language compiles its own templates."""
    t = translator(lang)
    env = Environment(
        loader=FileSystemLoader(ROOT / "templates"),
        autoescape=True,        # every template is HTML
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,      # templates ship with the app
        cache_size=-1,          # keep every compiled template
    )
    env.globals.update(GLOBALS, lang=lang, other_lang="en" if lang == "zh" else "zh")
    env.filters.update(
        t=t,
        tm=t.markup,
        term=lambda words, term_id: term_html(words, term_id, lang),  # 'KV cache'|term('kv_cache'): app/i18n/terms.py
        fmt=lambda value, spec: t.fmt(spec, value),
        notice=lambda n: notice_text(n, t),
        targs=lambda args: t_args(args, t),
        shown_value=lambda value, name: _shown_value(value, name, t),
        input_labels=lambda names: _input_labels(names, t),
        signed=lambda n: f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0"),  # a typographic minus
        param=fmt_param,  # a parameter's value as the URL and the form write it
        pct=lambda x: f"{x:g}%",  # an SVG length in per cent of the bar: 53.57 → "53.57%", 35.0 → "35%"
    )
    return env


ENVS = {lang: environment(lang) for lang in LANGS}

OOB = Markup(' hx-swap-oob="true"')


def render_page(name: str, context: dict) -> str:
    """A whole page, in the context's language."""
    return ENVS[context["lang"]].get_template(name).render(context)


LATER = "<!--later-->\n"  # app.js places what follows one frame after what precedes it


def render_partial(lang: str, regions: list) -> str:
    """The lab's live regions to send (app/view/regions/registry.py ``to_send``), each by its macro with hx-swap-oob, one per
    line: first those the learner watches (``FIRST_PAINT``: the stage, the diagram, the meters and their strip),
    then ``LATER`` and the rest (the charts, the estimates, the decisions, the links), which app.js parses and
    places after the frame that paints the meters.  A region's macro reads only its view-model (regions.html is
    imported without context), so the macros are called from the template's module, made once
    (``Template.module``), not from a template that imports regions.html again on every render."""
    macros = ENVS[lang].get_template("regions.html").module
    first = [reg for reg in regions if reg.kind in FIRST_PAINT]
    rest = [reg for reg in regions if reg.kind not in FIRST_PAINT]
    html = [f"{getattr(macros, reg.kind)(reg.vm, OOB)}\n" for reg in first]
    if rest:
        html += [LATER, *(f"{getattr(macros, reg.kind)(reg.vm, OOB)}\n" for reg in rest)]
    return "".join(html)
