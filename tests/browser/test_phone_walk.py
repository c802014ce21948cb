"""Issue 33, phone: after each walkthrough move the new step's question is on the screen — also after a long open
answer, where the page's kept scroll position used to land below the new question (from step 5 on) — and Next is
never under the meter strip (read36: on first view at 390 px the strip covered it)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from app.model.scenarios import WALKTHROUGH

from .conftest import PHONE
from .helpers import LANGS, goto

pytestmark = pytest.mark.browser

QUESTION = """() => { const b = document.querySelector('.walk-card .walk-q').getBoundingClientRect();
  return {top: b.top, bottom: b.bottom, vh: innerHeight}; }"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("answer_open", [True, False], ids=["answer-open", "answer-shut"])
def test_next_lands_on_the_new_question_on_a_phone(open_page, base_url: str, lang: str, answer_open: bool) -> None:
    page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    off = {}
    for w in WALKTHROUGH[:-1]:
        goto(page, f"{base_url}/{lang}/?{urlencode(w.inputs.query())}")
        page.guard.settle(page)
        if answer_open:
            page.locator("details.walk-reveal > summary").tap()
            expect(page.locator("details.walk-reveal")).to_have_attribute("open", "")
        page.locator("[data-walk=next]").tap()  # tap() scrolls Next into view first, as a thumb would
        expect(page.locator("article[data-walk-step]")).to_have_attribute("data-walk-step", str(w.number + 1))
        page.guard.settle(page)
        q = page.evaluate(QUESTION)
        if q["top"] < 0 or q["bottom"] > q["vh"]:
            off[w.number] = q
    assert off == {}, f"after Next from these steps the question is off the screen: {off}"


def test_a_step_dot_lands_on_its_question_too(open_page, base_url: str) -> None:
    page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    goto(page, f"{base_url}/en/?{urlencode(WALKTHROUGH[8].inputs.query())}")
    page.locator("details.walk-reveal > summary").tap()
    page.evaluate("scrollTo(0, document.querySelector('.walk-nav').getBoundingClientRect().bottom + scrollY)")
    page.locator(".walk-dots a").nth(10).tap()
    expect(page.locator("article[data-walk-step]")).to_have_attribute("data-walk-step", "11")
    page.guard.settle(page)
    q = page.evaluate(QUESTION)
    assert q["top"] >= 0 and q["bottom"] <= q["vh"], q


NEXT_UNCOVERED = """() => { const b = document.querySelector('[data-walk=next]').getBoundingClientRect();
  const x = b.left + b.width / 2, y = b.top + b.height / 2;
  const hit = y >= 0 && y < innerHeight ? document.elementFromPoint(x, y) : null;
  return {top: b.top, bottom: b.bottom, strip_top: document.querySelector('#meter-strip').getBoundingClientRect().top,
          on_top: !!hit && !!hit.closest('[data-walk=next]')}; }"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", [PHONE, {"width": 760, "height": 900}], ids=["390", "760"])
def test_next_is_never_under_the_meter_strip(open_page, base_url: str, lang: str, viewport: dict) -> None:
    """On first view of every step (nothing scrolled) Next is on the screen, above the strip, and takes the tap."""
    page = open_page(viewport=viewport, is_mobile=True, has_touch=True)
    covered = {}
    for w in WALKTHROUGH[:-1]:
        goto(page, f"{base_url}/{lang}/?{urlencode(w.inputs.query())}")
        n = page.evaluate(NEXT_UNCOVERED)
        if not n["on_top"] or n["bottom"] > n["strip_top"]:
            covered[w.number] = n
    assert covered == {}, f"Next under the strip or off the screen on first view: {covered}"
