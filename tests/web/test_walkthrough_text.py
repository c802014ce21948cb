"""The walkthrough on the lab page: twelve steps, each reveal quoting the model's figures (walk_figures)."""

from __future__ import annotations

import html
import re

import pytest
from support.html import parse
from support.urls import LANGS, lab_path

from app.i18n import translator
from app.model import DEFAULTS
from app.model.scenarios import WALKTHROUGH, walk_figures


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", [w.number for w in WALKTHROUGH])
def test_each_step_shows_its_reveal_with_the_model_figures(client, lang, n):
    body = client.get(lab_path(lang, WALKTHROUGH[n - 1].inputs)).text
    t = translator(lang)
    card = re.search(r'<article class="walk-card" data-walk-step="(\d+)">.*?</article>', body, re.S)
    assert card and card.group(1) == str(n)
    want = _text(str(t.markup(f"walk.{n}.reveal", **walk_figures(n))))
    assert want in _text(card.group(0))
    assert _text(t("walk.step_of", n=n, total=len(WALKTHROUGH))) in _text(card.group(0))
    dots = parse(body).having("class", "dot") + parse(body).having("class", "dot on") + \
        parse(body).having("class", "dot done")
    assert len(dots) == len(WALKTHROUGH) == 12


@pytest.mark.parametrize("lang", LANGS)
def test_the_intro_counts_the_steps(client, lang):
    body = client.get(lab_path(lang, DEFAULTS)).text
    intro = re.search(r'<article class="walk-card intro">\s*<p>(.*?)</p>', body, re.S).group(1)
    assert html.unescape(intro) == translator(lang)("walk.intro", n=len(WALKTHROUGH))
    assert "12" in intro
