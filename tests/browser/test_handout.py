"""Issue 33, a handout: printing a walkthrough step prints its answer and takeaway (even with the answer shut on
screen), the step chart and the timeline, and keeps the stage line with its diagram."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from app.model.scenarios import WALKTHROUGH

from .helpers import LANGS, goto

pytestmark = pytest.mark.browser

PRINTED = """() => {
  const shown = (sel) => { const el = document.querySelector(sel);
    return Boolean(el) && getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().height > 0; };
  return {
    step_chart: shown('[data-chart="step_vs_gpus"] svg'), timeline: shown('[data-chart="timeline"] svg'),
    takeaway: shown('details.walk-reveal .takeaway'), answer_open: document.querySelector('details.walk-reveal').open,
    guess: shown('[data-guess]'), link: document.querySelector('.print-link code').textContent,
    shape_kept: getComputedStyle(document.getElementById('live-shape')).breakInside,
  };
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_printed_step_carries_its_answer_and_both_charts(page, base_url: str, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/?{urlencode(WALKTHROUGH[10].inputs.query())}")
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")  # what the browser sends before it prints
    printed = page.evaluate(PRINTED)
    assert printed.pop("link") == page.url, "the printed link is not the state's whole address"
    assert printed == {"step_chart": True, "timeline": True, "takeaway": True, "answer_open": True, "guess": False,
                       "shape_kept": "avoid"}
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    page.emulate_media(media="screen")
    assert page.evaluate("document.querySelector('details.walk-reveal').open") is False, "the answer stays open"
