"""Issue 23: cause and effect in one view — the stage, the diagram, the meters and the step chart stay on screen
while a learner reads a step or drags a slider; the page is short; the charts move with the state; presenter view
fits one 16:9 screen and survives every key.

The page's figures against /api/evaluate for the same state are in test_walkthrough / test_live; here the layout."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from .conftest import DESKTOP, PHONE
from .helpers import LANGS, goto, open_groups, params_of, url_has, wait_url

pytestmark = pytest.mark.browser

# what must be on screen, as the page's own hooks; a diagram node is measured by its box (the <g> that draws it:
# the [data-node] element is the node's state, an empty <svg> when the node carries no flag)
IN_VIEW = """(selectors) => {
  const vw = innerWidth, vh = innerHeight;
  const out = {};
  for (const sel of selectors) {
    const els = [...document.querySelectorAll(sel)];
    out[sel] = els.length > 0 && els.every((el) => {
      const box = (el.matches('[data-node]') ? el.closest('g') : el).getBoundingClientRect();
      return box.width > 0 && box.height > 0 && box.top >= -1 && box.left >= -1 && box.bottom <= vh + 1 && box.right <= vw + 1;
    });
  }
  return out;
}"""
STAGE = ['[data-node="rollout_gen"]', "[data-meter]", '[data-chart="step_vs_gpus"]', "[data-bottleneck]"]


def _off_screen(page: Page, selectors: list[str]) -> list[str]:
    seen = page.evaluate(IN_VIEW, selectors)
    return [sel for sel, ok in seen.items() if not ok]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", ["", "?step=4"], ids=["default", "step-4"])
def test_stage_diagram_meters_and_step_chart_in_view_at_1440(page: Page, base_url: str, lang: str, path: str) -> None:
    goto(page, f"{base_url}/{lang}/{path}")
    want = STAGE + ([".walk-card[data-walk-step] .walk-q"] if path else [])
    assert _off_screen(page, want) == [], f"off screen at 1440×900 on /{lang}/{path}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_stage_stays_in_view_while_a_slider_moves(page: Page, base_url: str, api, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/")
    ladder = page.locator('#workload .ladder[data-for="in-rollouts"]')
    ladder.scroll_into_view_if_needed()
    ladder.focus()
    page.keyboard.press("ArrowRight")
    wait_url(page, url_has("rollouts", "640"), "one notch right on the rollouts slider")
    page.guard.settle(page)
    assert _off_screen(page, STAGE) == [], "the stage column left the screen while the slider moved"
    shown = page.locator('[data-meter="rollout_load"]').get_attribute("aria-valuenow")
    assert shown == str(api("rollouts=640")["meters"]["rollout_load"]["value"])


@pytest.mark.parametrize("lang", LANGS)
def test_next_keeps_the_learner_where_the_change_happens(page: Page, base_url: str, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/?step=3")
    page.locator("[data-walk=next]").click()
    wait_url(page, url_has("step", "4"), "Next")
    page.guard.settle(page)
    assert _off_screen(page, [*STAGE, ".walk-card .walk-q"]) == [], "after Next: the question or the stage left"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("viewport", "limit"), [(DESKTOP, 3_600), (PHONE, 9_300)], ids=["desktop", "phone"])
def test_the_default_page_is_short(open_page, base_url: str, lang: str, viewport: dict, limit: int) -> None:
    page = open_page(viewport=viewport, is_mobile=viewport is PHONE, has_touch=viewport is PHONE)
    goto(page, f"{base_url}/{lang}/")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= limit, f"/{lang}/ is {height} px tall at {viewport['width']}×{viewport['height']} (≤ {limit})"


def test_on_a_phone_the_step_card_and_the_compact_stage_share_a_screen(open_page, base_url: str) -> None:
    page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    goto(page, f"{base_url}/en/?step=4")
    card = page.locator(".walk-card[data-walk-step]").bounding_box()
    meters = page.locator(".stage-col .meter-grid").bounding_box()
    stage = page.locator(".stage-col").bounding_box()
    assert card and meters and stage
    assert stage["y"] - (card["y"] + card["height"]) < 60, "the stage does not follow the step card"
    assert meters["y"] + meters["height"] - card["y"] <= 2 * PHONE["height"], "card and meters more than a screen apart"


def test_three_charts_and_the_step_chart_follows_the_gpu_count(page: Page, base_url: str) -> None:
    goto(page, f"{base_url}/en/?gpus=8")
    for chart in ("step_vs_gpus", "step_phases", "memory"):
        el = page.locator(f'[data-chart="{chart}"]')
        assert el.count() == 1, chart
        assert el.locator("svg[role=img]").count() == 1 and el.locator("table").count() == 1, chart
    before = page.locator('[data-chart="step_vs_gpus"]').inner_html()
    marker = page.locator('[data-chart="step_vs_gpus"] .c-now').get_attribute("x1")
    open_groups(page)
    gpus = page.locator("#workload input[type=number][name=gpus]")
    gpus.fill("32")
    gpus.dispatch_event("input")
    wait_url(page, url_has("gpus", "32"), "gpus 8 → 32")
    page.guard.settle(page)
    after = page.locator('[data-chart="step_vs_gpus"]')
    assert after.inner_html() != before
    assert float(after.locator(".c-now").get_attribute("x1")) > float(marker), "the marker moved right"
    assert re.search(r"\b32\b", after.locator(".chart-now").inner_text())


def test_reference_page_from_the_header(page: Page, base_url: str) -> None:
    goto(page, f"{base_url}/en/")
    page.locator("#reference-link").click()
    page.wait_for_url(re.compile(r"/en/reference$"))
    assert page.locator("#assumptions tbody tr").count() >= 30
    assert page.locator("#glossary [id^=g-]").count() >= 30


@pytest.mark.parametrize("lang", LANGS)
def test_terms_are_defined_where_used(page: Page, base_url: str, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/")
    n = page.locator("a.term, a[href*='#g-'], dfn, abbr[title], [data-term]").count()
    assert n >= 15, f"{n} term links or definitions on the default /{lang}/ page"


PROJECTORS = [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", PROJECTORS, ids=["720p", "1080p"])
def test_presenter_view_survives_keys_and_fits_one_screen(open_page, base_url: str, lang: str, viewport: dict) -> None:
    page = open_page(viewport=viewport)
    goto(page, f"{base_url}/{lang}/?present=1")
    want = ['[data-node="rollout_gen"]', "[data-meter]", ".walk-card .walk-q"]
    for key, step in (("ArrowRight", "1"), ("ArrowRight", "2")):
        page.keyboard.press(key)
        wait_url(page, url_has("step", step), f"→ to step {step}")
        page.guard.settle(page)
        assert params_of(page.url).get("present") == "1", f"→ dropped presenter view: {page.url}"
    assert _off_screen(page, want) == [], f"presenter view at {viewport}: after → →"
    page.keyboard.press("3")
    wait_url(page, url_has("rollouts", "512"), "3: the PPO loop card")
    page.guard.settle(page)
    params = params_of(page.url)
    assert params.get("present") == "1" and params.get("step") == "2", f"3 lost the view or the step: {page.url}"
    assert _off_screen(page, want) == [], f"presenter view at {viewport}: after 3"
    if viewport["height"] == 1080:
        size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.walk-q')).fontSize)")
        assert size >= 28, f"the question is {size} px at 1080p"
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= viewport["height"] + 2, f"presenter view scrolls: {height} px"


def test_a_clicked_choice_gives_the_arrow_keys_back(page: Page, base_url: str) -> None:
    goto(page, f"{base_url}/en/?step=3")
    page.locator('#workload input[name=method][value=grpo]').click()  # the chip's input covers it
    wait_url(page, url_has("method", "grpo"), "GRPO chip")
    page.guard.settle(page)
    page.keyboard.press("ArrowRight")
    wait_url(page, url_has("step", "4"), "→ after clicking a chip steps the walkthrough")
    assert params_of(page.url).get("method") != "dpo", "→ changed the method silently"
