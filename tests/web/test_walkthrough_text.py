"""The walkthrough on the lab page: twelve steps, each a question, then behind "Show the answer" one short idea
(``[data-reveal]``: at most 90 English words or 180 汉字 and 5 figures), the full figures behind "Show the numbers"
(``[data-numbers]``, nested in it) and the takeaway.  Every figure is the model's (walk_figures); a state whose
controls moved away from the step's own says that its figures are the step's, and links back."""

from __future__ import annotations

import html
import re
import string

import pytest
from support.html import parse
from support.urls import HTMX, LANGS, lab_path

from app.i18n import translator
from app.i18n.terms import TERM
from app.model import DEFAULTS
from app.model.scenarios import WALKTHROUGH, walk_figures

STEPS = [w.number for w in WALKTHROUGH]
MAX_WORDS = {"en": 90, "zh": 180}  # English words / 汉字 of the short reveal (issue 23, item 3)
MAX_FIGURES = 5
# a figure: a number standing on its own ("49%", "4,480", "7B", "x = 20"); digits inside a name are not figures
# ("ZeRO-3", "A100", "fp32", "Qwen3-8B")
FIGURE = re.compile(r"(?<![\w.\-/])\d[\d,.]*")
HAN = re.compile(r"[\u4e00-\u9fff]")


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _card(body: str) -> str:
    card = re.search(r'<article class="walk-card" data-walk-step="\d+">.*?</article>', body, re.S)
    assert card, "no walkthrough card"
    return card.group(0)


def _reveal(card: str) -> tuple[str, str]:
    """(the short reveal's text, the numbers' text) of a card, as the page shows them."""
    m = re.search(r"<div data-reveal>\s*<p>(.*?)</p>\s*<details class=\"walk-numbers\" data-numbers>"
                  r"\s*<summary>.*?</summary>\s*<p>(.*?)</p>\s*</details>\s*</div>", card, re.S)
    assert m, "the reveal (data-reveal) with the numbers (data-numbers) nested in it"
    return _text(m.group(1)), _text(m.group(2))


def _size(text: str, lang: str) -> int:
    return len(HAN.findall(text)) if lang == "zh" else len(text.split())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", STEPS)
def test_each_step_shows_a_short_reveal_and_its_numbers_from_the_model(client, lang, n):
    body = client.get(lab_path(lang, WALKTHROUGH[n - 1].inputs)).text
    t, card = translator(lang), _card(body)
    assert f'data-walk-step="{n}"' in card
    short, numbers = _reveal(card)
    assert short == _text(str(t.markup(f"walk.{n}.reveal", **walk_figures(n))))
    assert numbers == _text(str(t.markup(f"walk.{n}.numbers", **walk_figures(n))))
    assert _text(t(f"walk.{n}.takeaway")) in _text(card)
    assert _text(t("walk.step_of", n=n, total=len(WALKTHROUGH))) in _text(card)
    dots = parse(body).having("class", "dot") + parse(body).having("class", "dot on") + \
        parse(body).having("class", "dot done")
    assert len(dots) == len(WALKTHROUGH) == 13


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", STEPS)
def test_each_reveal_is_one_short_idea_with_few_figures(lang, n):
    """≤ 90 English words / ≤ 180 汉字 and ≤ 5 figures, counted on the text the page shows."""
    text = _text(str(translator(lang).markup(f"walk.{n}.reveal", **walk_figures(n))))
    assert _size(text, lang) <= MAX_WORDS[lang], (_size(text, lang), text)
    assert len(FIGURE.findall(text)) <= MAX_FIGURES, FIGURE.findall(text)
    assert len(FIGURE.findall(text)) >= 1  # it quotes the model, not only words


def test_the_counts_see_words_characters_and_figures():
    assert _size("one two three", "en") == 3 and _size("放不下。训练 7B", "zh") == 5
    assert FIGURE.findall("≈ 4,480 tokens/s, 49%, 7B on ZeRO-3 and A100, x = 20") == ["4,480", "49", "7", "20"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", STEPS)
def test_a_reveal_types_no_number_by_hand(lang, n):
    """Every figure of the short reveal is a placeholder the model fills; the written text has no number of its own."""
    raw = translator(lang).messages[f"walk.{n}.reveal"]
    prose = re.sub(r"\{[^}]*\}", " ", TERM.sub(lambda m: m.group(2), raw))
    assert FIGURE.findall(prose) == []
    assert {f for _, f, _, _ in string.Formatter().parse(raw) if f} <= set(walk_figures(n))


@pytest.mark.parametrize("lang", LANGS)
def test_the_reveal_links_its_jargon_to_the_glossary(client, lang):
    """A term in a reveal is a link to its reference entry with a short definition to hover or tap."""
    card = _card(client.get(lab_path(lang, WALKTHROUGH[3].inputs)).text)
    links = re.findall(r'<a class="term" href="/' + lang + r'/reference#g-([a-z0-9_]+)" title="([^"]+)">', card)
    assert {"kv_cache", "decode", "critic"} <= {i for i, _ in links}
    assert all(len(title) > 10 for _, title in links)


@pytest.mark.parametrize("lang", LANGS)
def test_the_step_state_says_nothing_about_moved_controls(client, lang):
    body = client.get(lab_path(lang, WALKTHROUGH[3].inputs)).text
    note = re.search(r'<p class="walk-moved" data-walk-moved( hidden)?>', body)
    assert note and note.group(1) == " hidden"
    assert "data-walk-moved" not in re.search(r'<i id="live-marker"[^>]*>', body).group(0)


@pytest.mark.parametrize("lang", LANGS)
def test_a_moved_control_says_the_figures_are_the_steps_and_links_back(client, lang):
    step = WALKTHROUGH[3]
    body = client.get(lab_path(lang, step.inputs, gpus=16)).text
    note = re.search(r'<p class="walk-moved" data-walk-moved( hidden)?>(.*?)</p>', body, re.S)
    assert note and note.group(1) is None
    assert f'href="{html.escape(lab_path(lang, step.inputs))}"' in note.group(2)
    assert _text(str(translator(lang).markup("walk.moved", n=4, url="x"))) in _text(note.group(2))
    # the figures stay the step's own (not the moved state's)
    short, _ = _reveal(_card(body))
    assert short == _text(str(translator(lang).markup("walk.4.reveal", **walk_figures(4))))


@pytest.mark.parametrize("lang", LANGS)
def test_after_a_move_the_marker_tells_the_page_the_step_moved(client, lang):
    step = WALKTHROUGH[3]
    headers = {**HTMX, "HX-Current-URL": f"http://testserver{lab_path(lang, step.inputs)}"}
    moved = client.get(lab_path(lang, step.inputs, gpus=16), headers=headers).text
    assert "data-walk-moved" in re.search(r'<i id="live-marker"[^>]*>', moved).group(0)
    back = client.get(lab_path(lang, step.inputs), headers=headers).text
    assert "data-walk-moved" not in re.search(r'<i id="live-marker"[^>]*>', back).group(0)


def test_the_zh_answer_button_does_not_say_inference():
    """On this page 推理 means inference (推理引擎): the button that shows the answer says 看解析, not 展开推理."""
    t = translator("zh")
    assert "推理" not in t("walk.reveal")


@pytest.mark.parametrize("lang", LANGS)
def test_the_intro_counts_the_steps(client, lang):
    body = client.get(lab_path(lang, DEFAULTS)).text
    intro = re.search(r'<article class="walk-card intro">\s*<p>(.*?)</p>', body, re.S).group(1)
    assert html.unescape(intro) == translator(lang)("walk.intro", n=len(WALKTHROUGH))
    assert str(len(WALKTHROUGH)) in intro
