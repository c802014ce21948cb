"""The full tutorial: app/content/tutorial/<lang>.md rendered by markdown-it-py into the site's layout.

Sections (## headings) get ids by position (``sec-1``, ``sec-2`` …), identical in both languages, so switching
language keeps the reader's place.  Lab links (``/<lang>/?…`` with the expected stage id as the link title) get the
stage's translated name as their title and a class for styling; tests check each link's stage against the model.

Figures are quoted from the model, not retyped: ``{{fig <query> <field> <format>}}`` in the source is replaced,
before the Markdown is parsed, by the lab model's own figure for that state, formatted as the page formats it::

    one step takes {{fig rollouts=512 step.total_s dur}}, {{fig rollouts=512 step.generation_share pct}} of it generation

``<query>`` is a lab query string (``rollouts=512&policy_b=7``; a parameter it leaves out takes the lab's default),
read by ``app.model.normalise`` and evaluated by ``app.model.evaluate``.  ``<field>`` is a dotted path on the
model's ``Result`` (``step.total_s``, ``memory.min_gpus``, ``meters.kl_risk.value``; dict keys and attributes
alike), or ``+ - * /`` of such paths and plain numbers, without spaces (``memory.training_per_gpu_gb/memory.usable_gb``,
``step.gen.decode_step_s*1000``).  ``<format>`` is one of FORMATS.  A quote whose query has a notice or an unknown
parameter, whose field does not exist or is not a number, or whose format is unknown raises FigureError when the
page is rendered — never a silently wrong figure; ``check_figures()`` renders every quote of both languages (for
start-up), and tests/web/test_tutorial_figures.py runs it.

Pictures are drawn from the model the same way.  A line of its own ::

    {{diagram <query>}} the caption, Markdown, quotes allowed
    {{chart <query> <chart_id>}} the caption

becomes a numbered figure: the lab's architecture diagram, or one of the lab's charts (CHART_IDS), rendered for
that state by the lab's own template and chart module (app/templates/_diagram.html, app/model/charts.py), with the
caption and a link that opens the same state in the lab (every parameter in the URL).  A figure whose query has a
notice, whose chart does not exist or has nothing to draw for the state (no RL step) fails the page like a bad
quote.  The lab's chart macros use fixed ids (one chart of each kind per lab page); a tutorial figure prefixes them.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import parse_qs, urlencode

from markdown_it import MarkdownIt
from markupsafe import Markup

from app.i18n import LANGS, translator
from app.model import Result, WorkloadInputs, evaluate, normalise
from app.model.stages import STAGE_IDS

DOCS = Path(__file__).resolve().parent / "content" / "tutorial"
LAB_LINK = re.compile(r"^/(zh|en)/\?")
FIG = re.compile(r"\{\{fig\s+(\S+)\s+(\S+)\s+(\S+)\s*\}\}")
# a figure: a line of its own, ``{{diagram <query>}}`` or ``{{chart <query> <chart_id>}}``, then the caption
PICTURE = re.compile(r"^\{\{(diagram|chart)\s+(\S+)(?:\s+(\S+))?\s*\}\}[ \t]*(.*)$", re.M)
CHART_IDS = ("step_vs_gpus", "step_phases", "memory")  # the lab's charts (app/model/charts.py, branch view)
# format name → the catalogue spec of app/i18n.py that formats it (and what it does to the value first)
FORMATS: dict[str, tuple[str, float]] = {
    "dur": ("dur", 1.0), "fmt_duration": ("dur", 1.0),   # seconds as s / min / h / d (fmt_duration)
    "gb": ("gb", 1.0), "fmt_gb": ("gb", 1.0),            # gigabytes (fmt_gb)
    "pct": ("pct", 100.0),                               # a fraction (0–1) as a percentage: 0.54 → "54%"
    "n": ("n", 1.0), "integer": ("n", 1.0),              # an integer with thousands separators
    "g3": ("g3", 1.0),                                   # three significant digits
    "gpus": ("gpus", 1.0),                               # a GPU count with its noun (fmt_gpus)
}
_OPS = {ast.Add: float.__add__, ast.Sub: float.__sub__, ast.Mult: float.__mul__, ast.Div: float.__truediv__}


class FigureError(ValueError):
    """A ``{{fig …}}`` quote the model cannot answer exactly as written."""


_PARAMETERS = frozenset(WorkloadInputs.model_fields) - {"step"}  # the contract's parameters (the API's query model)


@cache
def _result(query: str) -> Result:
    """The model's Result for one quoted query (each state evaluated once)."""
    return _state(query)[1]


@cache
def _state(query: str) -> tuple[WorkloadInputs, Result]:
    """The inputs and the model's Result for one quoted query."""
    try:
        parsed = parse_qs(query, keep_blank_values=True, strict_parsing=True)
    except ValueError as exc:
        raise FigureError(f"query {query!r} is not a query string: {exc}") from None
    unknown = sorted(set(parsed) - _PARAMETERS)
    if unknown:
        raise FigureError(f"query {query!r}: unknown parameter(s) {unknown}")
    inputs, notices = normalise(parsed)
    if notices:
        raise FigureError(f"query {query!r} has notices: {[(n.field, n.kind, n.given, n.used) for n in notices]}")
    return inputs, evaluate(inputs)


def _path(result: Result, node: ast.expr, field: str) -> object:
    """The value of a dotted path (an ast Name / Attribute chain) on a Result: dict keys and attributes alike."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        raise FigureError(f"field {field!r}: only dotted paths, numbers and + - * / are allowed")
    names.append(node.id)
    value: object = result
    for name in reversed(names):
        if name.startswith("_"):
            raise FigureError(f"field {field!r}: {name!r} is private")
        if isinstance(value, dict):
            if name not in value:
                raise FigureError(f"field {field!r}: no key {name!r} (keys: {sorted(value)})")
            value = value[name]
        elif hasattr(value, name):
            value = getattr(value, name)
        else:
            raise FigureError(f"field {field!r}: {type(value).__name__} has no field {name!r}")
    return value


def _value(result: Result, node: ast.expr, field: str) -> float:
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_value(result, node.left, field), _value(result, node.right, field))
    if isinstance(node, ast.Constant):
        value: object = node.value
    else:
        value = _path(result, node, field)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FigureError(f"field {field!r}: {value!r} is not a number")
    return float(value)


def figure(query: str, field: str, fmt: str, lang: str) -> str:
    """One quoted figure as the page shows it in ``lang``.

    >>> figure("rollouts=0&pairs=0", "offline.sft_per_gpu_gb", "gb", "en")
    '14 GB'
    """
    if fmt not in FORMATS:
        raise FigureError(f"format {fmt!r} is not one of {sorted(FORMATS)}")
    try:
        tree = ast.parse(field, mode="eval")
    except SyntaxError:
        raise FigureError(f"field {field!r} is not a dotted path or + - * / of them") from None
    try:
        value = _value(_result(query), tree.body, field)
    except ZeroDivisionError:
        raise FigureError(f"field {field!r} divides by zero for {query!r}") from None
    spec, scale = FORMATS[fmt]
    return translator(lang).fmt(spec, value * scale)


def figures(markdown_text: str) -> list[tuple[str, str, str]]:
    """(query, field, format) of every quote in a tutorial source, in order."""
    return [m.groups() for m in FIG.finditer(markdown_text)]


def quote_figures(markdown_text: str, lang: str) -> str:
    """The source with every ``{{fig …}}`` replaced by the model's figure; a stray ``{{fig`` is an error too."""
    def one(match: re.Match[str]) -> str:
        try:
            return figure(*match.groups(), lang)
        except FigureError as exc:
            line = markdown_text.count("\n", 0, match.start()) + 1
            raise FigureError(f"{lang}.md line {line}: {match.group(0)}: {exc}") from None

    out = FIG.sub(one, markdown_text)
    if "{{fig" in out:
        line = out[: out.index("{{fig")].count("\n") + 1
        raise FigureError(f"{lang}.md line {line}: a {{{{fig …}}}} quote that is not <query> <field> <format>")
    return out


@dataclass(frozen=True)
class Picture:
    """One figure of the tutorial: a diagram or a chart of the lab for one state."""

    kind: str      # "diagram" | "chart"
    query: str     # the state, as written in the source
    chart: str     # the chart id ("" for a diagram)
    caption: str   # Markdown (its quotes already replaced by figures)

    def inputs(self) -> WorkloadInputs:
        return _state(self.query)[0]

    def result(self) -> Result:
        return _state(self.query)[1]

    def lab_url(self, lang: str) -> str:
        """The lab in exactly this state: every parameter in the URL."""
        return f"/{lang}/?{urlencode(self.inputs().query())}"


def pictures(markdown_text: str) -> list[Picture]:
    """Every figure directive of a tutorial source, in order, checked: a query the model answers without notices,
    a chart id the lab has (a stray ``{{diagram`` or ``{{chart`` not on a line of its own is an error too)."""
    out = []
    for m in PICTURE.finditer(markdown_text):
        kind, query, chart, caption = m.group(1), m.group(2), m.group(3) or "", m.group(4).strip()
        line = markdown_text.count("\n", 0, m.start()) + 1
        if kind == "chart" and chart not in CHART_IDS:
            raise FigureError(f"line {line}: chart {chart!r} is not one of {list(CHART_IDS)}")
        if kind == "diagram" and chart:
            raise FigureError(f"line {line}: a diagram takes only a query, not {chart!r}")
        try:
            _state(query)
        except FigureError as exc:
            raise FigureError(f"line {line}: {m.group(0)[:80]}: {exc}") from None
        out.append(Picture(kind, query, chart, caption))
    if len(out) != len(re.findall(r"\{\{(?:diagram|chart)\b", markdown_text)):
        raise FigureError("a {{diagram …}} or {{chart …}} that is not on a line of its own as <query> [<chart_id>]")
    return out


# each chart: the lab's view-model builder (app/view/charts.py) and its macro in regions.html (branch view)
CHART_MACROS = {"step_vs_gpus": ("step_chart", "chart_step"), "step_phases": ("phases_chart", "chart_phases"),
                "memory": ("memory_chart", "chart_memory")}
_IDS = re.compile(r'\bid="([^"]+)"')


def _prefix_ids(html: str, prefix: str) -> str:
    """The lab draws each chart once per page, with fixed ids; the tutorial draws many, so every id of one figure
    (and every reference to it: aria-labelledby, aria-describedby, for, href="#…") takes the figure's prefix."""
    ids = set(_IDS.findall(html))
    if not ids:
        return html

    def refs(m: re.Match[str]) -> str:
        names = " ".join(f"{prefix}-{n}" if n in ids else n for n in m.group(2).split())
        return f'{m.group(1)}="{names}"'

    html = _IDS.sub(lambda m: f'id="{prefix}-{m.group(1)}"', html)
    html = re.sub(r'\b(aria-labelledby|aria-describedby|for)="([^"]+)"', refs, html)
    return re.sub(r'href="#([^"]+)"', lambda m: f'href="#{prefix}-{m.group(1)}"' if m.group(1) in ids
                  else m.group(0), html)


def _chart_svg(picture: Picture, lang: str, dom_id: str) -> Markup:
    """One of the lab's charts for the picture's state, by the lab's own view-model and macro: no second renderer."""
    from app import templating  # late: app.templating builds its environments at import
    from app.view import charts

    build, macro = CHART_MACROS[picture.chart]
    vm = getattr(charts, build)(picture.result())
    if not getattr(vm, "rl_loop", True):
        raise FigureError(f"chart {picture.chart!r} for {picture.query!r}: the state has no RL step to draw")
    module = templating.ENVS[lang].get_template("regions.html").module
    return Markup(_prefix_ids(str(getattr(module, macro)(vm)), dom_id))


def _picture_html(picture: Picture, number: int, lang: str, first_diagram: bool) -> Markup:
    from app import templating  # late: app.templating builds its environments at import

    t = translator(lang)
    dom_id = f"tfig-{number}"
    if picture.kind == "diagram":
        env = templating.ENVS[lang]
        art = Markup(env.get_template("_diagram.html").render(r=picture.result(), dg=dom_id, markers=first_diagram))
    else:
        art = _chart_svg(picture, lang, dom_id)
    md = MarkdownIt("commonmark", {"html": False})
    caption = Markup(md.renderInline(picture.caption)) if picture.caption else Markup("")
    label = t("tutorial.figure", n=number)
    link = t("tutorial.figure_open")
    # the catalogue joins label, caption and link: a space in English, none after 「图 1：」 or 「。」 in Chinese
    figcaption = t.markup(
        "tutorial.figure_caption", label=Markup(f"<b>{Markup.escape(label)}</b>"), caption=caption,
        link=Markup(f'<a class="fig-link" data-figure-link href="{Markup.escape(picture.lab_url(lang))}">'
                    f"{Markup.escape(link)}</a>"))
    return Markup(
        f'<figure class="tut-figure" id="fig-{number}" data-figure="{picture.kind}" data-chart="{picture.chart}" '
        f'data-query="{Markup.escape(picture.query)}">{art}<figcaption>{figcaption}</figcaption></figure>')


def _take_pictures(markdown_text: str) -> tuple[str, list[Picture]]:
    """The source with each figure line replaced by a placeholder paragraph, and the figures in order."""
    found = pictures(markdown_text)
    k = iter(range(len(found)))
    return PICTURE.sub(lambda _m: f"TUTORIALFIGURE{next(k)}X", markdown_text), found


def tutorial_path(lang: str) -> Path:
    return DOCS / f"{lang}.md"


def lab_links(markdown_text: str) -> list[tuple[str, str]]:
    """(url, expected stage) for every lab link in a tutorial source."""
    md = MarkdownIt("commonmark").enable("table")
    out = []
    for token in md.parse(markdown_text):
        for child in token.children or []:
            if child.type == "link_open":
                href = child.attrGet("href") or ""
                if LAB_LINK.match(href):
                    out.append((href, child.attrGet("title") or ""))
    return out


def check_figures() -> int:
    """Render every quote of every language's tutorial (raises FigureError on the first bad one); the count.

    Cheap (each state is evaluated once): call it at start-up to fail before the first request does.
    """
    count = 0
    for lang in LANGS:
        text = tutorial_path(lang).read_text(encoding="utf-8")
        pictures(quote_figures(text, lang))
        count += len(figures(text))
    return count


def render_tutorial(lang: str) -> tuple[Markup, tuple[tuple[str, str, str], ...]]:
    """(HTML body, table of contents as (id, level, text))."""
    t = translator(lang)
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    source, found = _take_pictures(quote_figures(tutorial_path(lang).read_text(encoding="utf-8"), lang))
    tokens = md.parse(source)
    toc: list[tuple[str, str, str]] = []
    section = sub = 0
    for k, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag in ("h2", "h3"):
            if token.tag == "h2":
                section, sub = section + 1, 0
                anchor = f"sec-{section}"
            else:
                sub += 1
                anchor = f"sec-{section}-{sub}"
            token.attrSet("id", anchor)
            toc.append((anchor, token.tag, tokens[k + 1].content))
        for child in token.children or []:
            if child.type != "link_open":
                continue
            href = child.attrGet("href") or ""
            if LAB_LINK.match(href):
                stage = child.attrGet("title") or ""
                child.attrSet("class", "lab-link")
                child.attrSet("data-stage-link", stage)
                if stage in STAGE_IDS:
                    child.attrSet("title", t("tutorial.opens_stage", stage=t(f"stage.{stage}.name")))
            elif href.startswith("http"):
                child.attrSet("rel", "noopener")
    html = md.renderer.render(tokens, md.options, {})
    # wide code blocks and tables scroll sideways; keyboard users must be able to reach them
    html = html.replace("<pre>", '<pre tabindex="0">').replace("<table>", '<table tabindex="0">')
    first = next((k for k, p in enumerate(found) if p.kind == "diagram"), -1)
    for k, picture in enumerate(found):
        placeholder = f"<p>TUTORIALFIGURE{k}X</p>"
        if html.count(placeholder) != 1:
            raise FigureError(f"{lang}.md: figure {k + 1} ({picture.kind} {picture.query}) is not a paragraph of its own")
        html = html.replace(placeholder, _picture_html(picture, k + 1, lang, k == first))
    return Markup(html), tuple(toc)
