"""The tutorial's figures and its reading path.

A figure (``{{diagram <query>}}``, ``{{chart <query> <chart_id>}}``) is the lab's own picture of one state, drawn
by the lab's template from the model, with a link that opens exactly that state in the lab; the summary up front
quotes its five numbers from the model and sends two kinds of reader down two paths of chapters."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from markdown_it import MarkdownIt
from support.urls import LANGS

from app.i18n import translator
from app.model import evaluate, normalise
from app.tutorial import (
    CHART_IDS,
    FigureError,
    Picture,
    figure,
    figures,
    pictures,
    quote_figures,
    render_tutorial,
    tutorial_path,
)


def _source(lang: str) -> str:
    return tutorial_path(lang).read_text(encoding="utf-8")


PICTURES = {lang: pictures(quote_figures(_source(lang), lang)) for lang in LANGS}
FIGURE = re.compile(r'<figure class="tut-figure" id="fig-(\d+)" data-figure="(\w+)" data-chart="(\w*)" '
                    r'data-query="([^"]*)">(.*?)</figcaption></figure>', re.S)


def _rendered(lang: str) -> list[tuple[int, str, str, str, str]]:
    body, _ = render_tutorial(lang)
    return [(int(n), kind, chart, query.replace("&amp;", "&"), inner) for n, kind, chart, query, inner
            in FIGURE.findall(str(body))]


def test_at_least_eight_figures_per_language_the_same_in_both():
    for lang in LANGS:
        assert len(PICTURES[lang]) >= 8, lang
    assert [(p.kind, p.query, p.chart) for p in PICTURES["en"]] == [(p.kind, p.query, p.chart) for p in PICTURES["zh"]]
    assert all(p.caption for lang in LANGS for p in PICTURES[lang]), "every figure has a caption"


@pytest.mark.parametrize("lang", LANGS)
def test_every_figure_is_on_the_page_numbered_with_its_state(lang: str):
    shown = _rendered(lang)
    assert [(n, k, c, q) for n, k, c, q, _ in shown] == [
        (k + 1, p.kind, p.chart, p.query) for k, p in enumerate(PICTURES[lang])]


def _link(inner: str) -> str:
    m = re.search(r'<a class="fig-link" data-figure-link href="([^"]+)">', inner)
    assert m, inner[-300:]
    return m.group(1).replace("&amp;", "&")


@pytest.mark.parametrize("lang", LANGS)
def test_each_figure_links_to_its_own_state_in_the_lab(lang: str):
    for (n, _kind, _chart, query, inner), picture in zip(_rendered(lang), PICTURES[lang], strict=True):
        url = _link(inner)
        assert urlsplit(url).path == f"/{lang}/", (n, url)
        linked, notices = normalise(parse_qs(urlsplit(url).query))
        assert notices == (), (n, url)
        assert linked == picture.inputs(), f"figure {n}: the link opens another state than {query}"


def _nodes(html: str, prefix: str) -> dict[str, str]:
    """node id → the classes of its state's element (``st-<state>``, ``bn`` when it is the bottleneck)."""
    out = {}
    for tag in re.findall(rf'<svg[^>]*\bid="{prefix}-n-[^"]+"[^>]*>', html):
        out[re.search(rf'id="{prefix}-n-(\w+)"', tag).group(1)] = re.search(r'class="([^"]*)"', tag).group(1)
    assert out, prefix
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_each_diagram_shows_the_models_node_states(lang: str):
    """Every node of a figure's diagram carries the state the model gives it for the figure's state (the same
    markup the lab page draws), so a figure cannot drift from the model."""
    for (n, kind, _chart, _query, inner), picture in zip(_rendered(lang), PICTURES[lang], strict=True):
        if kind != "diagram":
            continue
        result = picture.result()
        nodes = _nodes(inner, f"tfig-{n}")
        drawn = {k: v.split()[0].removeprefix("st-") for k, v in nodes.items()}
        assert drawn == {k: v.state for k, v in result.nodes.items()}, f"figure {n}"
        flagged = [k for k, v in nodes.items() if "bn" in v.split()]
        assert flagged == [k for k, v in result.nodes.items() if v.bottleneck], f"figure {n}"


def test_the_lab_at_a_figures_link_draws_the_same_diagram(client):
    for (n, kind, _chart, _query, inner) in _rendered("en"):
        if kind != "diagram":
            continue
        lab = client.get(_link(inner)).text
        figure, page = _nodes(inner, f"tfig-{n}"), _nodes(lab, "dg")
        assert figure == page, f"figure {n}"


def test_the_first_diagram_carries_the_shared_markers_once():
    for lang in LANGS:
        body = str(render_tutorial(lang)[0])
        assert body.count('<rect id="dg-box"') == 1 and body.count('id="dg-ah"') == 1


@pytest.mark.parametrize(("line", "why"), [
    ("{{diagram gpus=0}} a caption", "notices"),
    ("{{diagram rollout=5}} a caption", "unknown parameter"),
    ("{{diagram rollouts=512 memory}} a caption", "only a query"),
    ("{{chart rollouts=512 pie}} a caption", "not one of"),
    ("see {{diagram rollouts=512}} inline", "line of its own"),
])
def test_a_bad_figure_fails_loudly(line: str, why: str):
    with pytest.raises(FigureError, match=why):
        pictures(f"# t\n\n{line}\n")


def test_chart_ids_are_the_labs_three_charts():
    assert CHART_IDS == ("step_vs_gpus", "step_phases", "memory")
    p = Picture("diagram", "rollouts=512", "", "x")
    assert evaluate(p.inputs()) == p.result()


# --- the reading path ------------------------------------------------------------------------------------------------


def _chapters(lang: str) -> list[tuple[str, str]]:
    """(sec-N, heading) of every chapter, by position as the page numbers them."""
    tokens = MarkdownIt("commonmark").enable("table").parse(_source(lang))
    heads = [tokens[k + 1].content for k, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    return [(f"sec-{k}", h) for k, h in enumerate(heads, start=1)]


def _summary(lang: str) -> str:
    src = _source(lang)
    return src[src.index("## 1. "):src.index("## 2. ")]


PATHS = {  # the learner's and the engineer's chapters, by the words of their headings (en)
    "learner": ("loop", "generation dominates", "Critic-free", "DPO", "asynchronous"),
    "engineer": ("sizing", "costs", "MoE", "engines", "colocation"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_summary_comes_first_and_fits_a_screen(lang: str):
    assert _chapters(lang)[0][0] == "sec-1"
    text = _summary(lang)
    prose = re.sub(r"\]\([^)]*\)|\{\{fig [^}]*\}\}", "", text)
    assert len(prose) < {"en": 4200, "zh": 2000}[lang], len(prose)  # about one screen of a laptop


@pytest.mark.parametrize("lang", LANGS)
def test_the_five_numbers_are_quoted_from_the_model(lang: str):
    items = re.findall(r"(?m)^([1-5])\. (.*)$", _summary(lang))
    assert [n for n, _ in items] == ["1", "2", "3", "4", "5"]
    for _n, item in items:
        assert len(figures(item)) >= 2, item[:60]  # each number beside the figure it is compared with
        assert re.search(r"chapter \d+|第 \d+ 章", item), "each number names the chapter that derives it"


def test_the_reading_paths_are_the_same_in_both_languages_and_lead_where_they_say():
    anchors = {lang: re.findall(r"\]\(#(sec-\d+)\)", _summary(lang)) for lang in LANGS}
    assert anchors["en"] == anchors["zh"]
    heads = dict(_chapters("en"))
    learner, engineer = (re.search(rf"\*\*The {who}'s path\*\*(.*)", _summary("en")).group(1)
                         for who in ("learner", "engineer"))
    for path, words in ((learner, PATHS["learner"]), (engineer, PATHS["engineer"])):
        targets = [heads[a] for a in re.findall(r"\]\(#(sec-\d+)\)", path)]
        assert len(targets) == len(words)
        assert all(w.lower() in t.lower() for w, t in zip(words, targets, strict=True)), targets
    assert "/en/launch?" in engineer, "the engineer's path ends on the launch page"
    zh = _summary("zh")
    assert "入门路线" in zh and "工程路线" in zh and "/zh/launch?" in zh


@pytest.mark.parametrize("lang", LANGS)
def test_the_launch_link_of_the_summary_opens_a_command(client, lang: str):
    url = re.search(rf"\((/{lang}/launch\?[^)]+)\)", _summary(lang)).group(1)
    r = client.get(url)
    assert r.status_code == 200 and "<pre" in r.text


@pytest.mark.parametrize("lang", LANGS)
def test_every_chapter_of_the_learners_path_has_a_figure(lang: str):
    src = _source(lang)
    starts = [m.start() for m in re.finditer(r"(?m)^## \d+\. ", src)] + [len(src)]
    chapters = [src[a:b] for a, b in zip(starts, starts[1:], strict=False)]
    for k in (2, 4, 5, 7, 8):
        assert re.search(r"(?m)^\{\{(diagram|chart) ", chapters[k - 1]), f"chapter {k}"


# --- the charts: the lab's own, for the figure's state ---------------------------------------------------------------


def _svg(html: str, chart: str) -> str:
    """The SVG of one chart, without ids and the references to them (the tutorial prefixes them)."""
    m = re.search(rf'<figure class="chart"[^>]*data-chart="{chart}"[^>]*>.*?(<svg.*?</svg>)', html, re.S)
    assert m, chart
    return re.sub(r'\s(id|aria-labelledby|aria-describedby)="[^"]*"', "", m.group(1))


def test_every_chart_of_the_lab_appears_in_the_tutorial():
    for lang in LANGS:
        assert {p.chart for p in PICTURES[lang] if p.kind == "chart"} == set(CHART_IDS)


@pytest.mark.parametrize("lang", LANGS)
def test_each_chart_draws_the_models_figures_for_its_state(lang: str):
    """The chart's own text (its description and marker) carries the model's figures for the figure's state."""
    for (n, kind, chart, query, inner), picture in zip(_rendered(lang), PICTURES[lang], strict=True):
        if kind != "chart":
            continue
        assert f'id="tfig-{n}-' in inner and 'id="cs-t"' not in inner, f"figure {n}: its ids are its own"
        if chart == "step_phases":
            assert figure(query, "step.total_s", "dur", lang) in inner, f"figure {n}"
            assert figure(query, "step.training_s", "dur", lang) in inner, f"figure {n}"
        elif chart == "memory":
            assert figure(query, "memory.usable_gb", "gb", lang) in inner, f"figure {n}"
        elif evaluate(picture.inputs()).memory.fits:
            assert figure(query, "step.total_s", "dur", lang) in inner, f"figure {n}"  # the marker: this state's step
            assert f"{picture.inputs().gpus:,}" in inner
        else:  # no step on GPUs that do not fit: the marker says so, with no time
            assert translator(lang)("chart.step.marker_nofit", gpus=picture.inputs().gpus) in inner, f"figure {n}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_lab_at_a_charts_link_draws_the_same_chart(client, lang: str):
    for (n, kind, chart, _query, inner) in _rendered(lang):
        if kind != "chart":
            continue
        lab = client.get(_link(inner)).text
        assert _svg(inner, chart) == _svg(lab, chart), f"figure {n}: {chart}"


def test_a_chart_with_nothing_to_draw_fails_loudly():
    with pytest.raises(FigureError, match="no RL step"):
        render = pictures("{{chart rollouts=0&placement=separate step_phases}} before the loop\n")
        from app.tutorial import _chart_svg
        _chart_svg(render[0], "en", "tfig-1")


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_with_its_figures_has_unique_ids_and_no_dangling_label(client, lang: str):
    page = client.get(f"/{lang}/tutorial").text
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    labels = {x for v in re.findall(r'aria-(?:labelledby|describedby)="([^"]+)"', page) for x in v.split()}
    assert labels <= set(ids)
