"""Issue 33 on the rendered page (no browser): each walkthrough step carries its prediction with one verdict per
option, the one marked right being the model's; the timeline's table says the model's seconds; the steps about
time point at the timeline and put it before the step chart."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from app.i18n import LANGS, translator
from app.i18n.formats import axis_duration_unit
from app.model import evaluate
from app.model.predictions import prediction
from app.model.scenarios import WALKTHROUGH
from app.model.timeline import TIMELINE_STEPS, timeline
from tests.support.html import parse

STEPS = [w.number for w in WALKTHROUGH]


def _page(client, lang: str, n: int):  # noqa: ANN001, ANN202
    r = client.get(f"/{lang}/?{urlencode(WALKTHROUGH[n - 1].inputs.query())}")
    assert r.status_code == 200
    return r.text, parse(r.text)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", STEPS)
def test_each_step_offers_its_prediction_with_the_models_verdicts(client, lang: str, n: int) -> None:
    html, doc = _page(client, lang, n)
    p = prediction(n)
    box = doc.having("data-guess")
    assert [e.get("data-guess") for e in box] == [p.kind] and box[0].get("data-guess-step") == str(n)
    verdicts = doc.having("data-guess-verdict")
    assert [e.get("data-guess-verdict") for e in verdicts] == [o.value for o in p.options]
    assert [e.get("data-guess-verdict") for e in verdicts if "data-right" in e.attrs] == [p.answer_value]
    assert all("hidden" in e.attrs for e in verdicts)  # shown by the page only for the learner's own guess
    # the guess sits before the answer; its verdicts inside it
    assert html.index("data-guess=") < html.index('class="walk-reveal"') < html.index("data-guess-result")


@pytest.mark.parametrize("lang", LANGS)
def test_the_timelines_table_is_the_models_seconds(client, lang: str) -> None:
    t = translator(lang)
    for n in (5, 10, 12):
        _, doc = _page(client, lang, n)
        model = timeline(evaluate(WALKTHROUGH[n - 1].inputs))
        fig = doc.having("data-chart", "timeline")
        assert fig, f"step {n}: no timeline"
        cells = [e.text for e in doc.elements if e.tag == "td"]
        # starts, ends and lengths in the one unit of the step's axis (「1.6 分钟」 and 「98 秒」 never side by side,
        # nor 「0 秒–161 秒（2.7 分钟）」); a length shorter than one of it (a 420 ms refit) in its own
        unit = axis_duration_unit(model.total_s)
        for lane in model.lanes:
            for seg in lane.segments:
                length = seg.end_s - seg.start_s
                own = unit if length >= 1 or unit != "s" else "ms" if length > 0 else unit
                assert t.fmt(f"dur_{unit}", seg.end_s) in cells, f"step {n}: {lane.lane} {seg.part} ends at {seg.end_s}"
                assert t.fmt(f"dur_{own}", length) in cells, f"step {n}: {lane.lane} {seg.part} length"
    # step 5's generation: 0 s to 161 s on a seconds axis, its length 161 s (it printed 「2.7 分钟」 / "2.7 min")
    gen = next(s for s in timeline(evaluate(WALKTHROUGH[4].inputs)).lanes[0].segments if s.part == "gen")
    assert 90 <= gen.end_s - gen.start_s < 10_000 and axis_duration_unit(gen.end_s) == "s"
    assert t.fmt("dur_s", gen.end_s - gen.start_s) in [e.text for e in _page(client, lang, 5)[1].elements if e.tag == "td"]


@pytest.mark.parametrize("n", STEPS)
def test_the_steps_about_time_point_at_the_timeline(client, n: int) -> None:
    html, doc = _page(client, "en", n)
    about_time = n in TIMELINE_STEPS
    assert ('href="#chart-timeline"' in html) == about_time
    assert ("tl-first" in (doc.by_id("stage-col").get("class") or "")) == about_time


@pytest.mark.parametrize("lang", LANGS)
def test_presenter_view_copies_the_students_link_and_swaps_its_charts(client, lang: str) -> None:
    """On a projector the copy button says whose link it copies (app.js drops present=1), and the Other chart
    button (key c) swaps the step chart and the timeline in their shared cell; off the projector neither changes."""
    t = translator(lang)
    q = urlencode(WALKTHROUGH[9].inputs.query())
    shown = parse(client.get(f"/{lang}/?{q}&present=1").text)
    assert shown.by_id("copy-link").text.strip() == t("ui.copy_link_students")
    swap = shown.by_id("chart-swap")
    assert swap.text.strip() == t("ui.chart_swap") and swap.get("aria-controls") == "stage-col"
    plain = parse(client.get(f"/{lang}/?{q}").text)
    assert plain.by_id("copy-link").text.strip() == t("ui.copy_link")
    assert plain.by_id("chart-swap") is None


@pytest.mark.parametrize("lang", LANGS)
def test_each_flag_says_why_and_the_legend_names_the_flags(client, lang: str) -> None:
    t = translator(lang)
    seen = set()
    for n in (5, 8, 12):  # strained and needed; removed (DPO); the bottleneck
        html, _ = _page(client, lang, n)
        flags = re.findall(r'<text class="flag( f-(\w+))?"[^>]*>([^<]*)<title>([^<]*)</title></text>', html)
        assert flags, f"step {n}: no flag"
        for _, state, _, why in flags:
            want = t(f"diagram.why.{state or 'bottleneck'}")
            assert why == str(want), f"step {n}: the {state or 'bottleneck'} flag's title"
            seen.add(state or "bottleneck")
        for key in ("diagram.legend_strained", "diagram.legend_needed", "diagram.legend_removed"):
            assert f">{t(key)}</span>" in html
    assert {"bottleneck", "removed", "warning", "needed"} <= seen


@pytest.mark.parametrize("n", STEPS)
def test_a_step_keeps_size_a_real_run_shut_and_its_moved_note_outside_the_answer(client, n: int) -> None:
    html, doc = _page(client, "en", n)
    engineer = doc.having("data-group", "engineer", tag="details")
    assert len(engineer) == 1 and "open" not in engineer[0].attrs, f"step {n}: 'size a real run' opens itself"
    assert html.index('class="walk-moved"') < html.index('class="walk-reveal"'), "the note hides in the answer"


def test_a_card_that_sets_the_engineers_controls_still_opens_them(client) -> None:
    from app.model.scenarios import PRESET_BY_ID

    doc = parse(client.get(f"/en/?{urlencode(PRESET_BY_ID['grpo'].inputs.query())}").text)
    assert "open" in doc.having("data-group", "engineer", tag="details")[0].attrs


def _step_time_texts(html: str) -> tuple[str, str]:
    """The step time as the page quotes it: the step chart's marker and the estimates' step total."""
    marker = re.search(r'data-chart="step_vs_gpus".*?<span class="chart-now">(.*?)</span>', html, re.S)
    total = re.search(r'<div id="est-step".*?<span class="total">(.*?)</span>', html, re.S)
    return (marker.group(1) if marker else ""), (total.group(1) if total else "")


@pytest.mark.parametrize("lang", LANGS)
def test_a_card_and_a_step_with_one_workload_quote_one_step_time(client, lang: str) -> None:
    from app.model.card_diff import card_diff, nearest_card
    from app.model.scenarios import PRESETS

    same = 0
    for w in WALKTHROUGH:
        card, changed = nearest_card(w.number)
        card_html = client.get(f"/{lang}/?{urlencode(PRESETS[card - 1].inputs.query())}").text
        step_html, _ = _page(client, lang, w.number)
        if not changed:  # the card's own workload: the same figures, word for word
            assert _step_time_texts(step_html) == _step_time_texts(card_html), f"step {w.number} ≠ card {card}"
            same += 1
        elif (d := card_diff(w.number)) is not None:  # it says what differs, with the card's own time
            assert d.card_step_s == evaluate(PRESETS[card - 1].inputs).step.total_s
            assert 'class="walk-card-diff"' in step_html
    assert same >= 4  # steps 5, 7, 8 and 10 are cards 4, 5, 6 and 7


def test_step_4_says_it_places_card_3s_workload_apart() -> None:
    from app.model.card_diff import card_diff

    d = card_diff(4)
    assert d is not None and d.card == 3 and d.changed == (("placement", "colocated", "separate"),)
    assert d.card_step_s == evaluate(WALKTHROUGH[3].inputs.model_copy(update={"placement": "colocated"})).step.total_s


@pytest.mark.parametrize("lang", LANGS)
def test_the_training_lane_names_scorings_forwards_as_its_own(client, lang: str) -> None:
    """read34: split apart, the training lane began with a bar in scoring's colour, as if it were a scoring group.
    The trainer's share of scoring (the old log-probs) is its own part, keyed and named in the table."""
    t = translator(lang)
    _, doc = _page(client, lang, 11)
    train = [e for e in doc.having("data-lane", "train")]
    assert train, "step 11 is split apart: a training lane"
    parts = [e.get("data-part") for e in doc.elements if e.tag == "rect" and e.get("data-part")]
    assert "fwd" in parts
    assert [e.text for e in doc.elements if e.get("class") == "k-fwd"] == [t("chart.phase.fwd")]
    assert t("chart.phase.fwd") in [e.text for e in doc.elements if e.tag == "td"]
