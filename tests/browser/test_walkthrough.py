"""Scenario 4: the step-by-step walkthrough — start link, ← → keys, the buttons, reveal, and the workload."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from app.model.scenarios import WALKTHROUGH

from .helpers import (
    LANGS,
    NUMERIC,
    assert_matches_api,
    goto,
    number_value,
    params_of,
    query_of,
    same_number,
    url_has,
    wait_url,
)

pytestmark = pytest.mark.browser

STEP_INPUTS = {w.number: w.inputs.query() for w in WALKTHROUGH}


def _expect_step(page: Page, api, n: int, how: str) -> None:
    wait_url(page, url_has("step", str(n)), how)
    expect(page.locator("article.walk-card[data-walk-step]")).to_have_attribute("data-walk-step", str(n))
    expect(page.locator(".walk-dots [aria-current=step]")).to_have_text(str(n))
    page.guard.settle(page)
    want = STEP_INPUTS[n]
    url = params_of(page.url)
    for name, value in want.items():
        assert same_number(url.get(name, ""), value), f"step {n} ({how}): URL {name}={url.get(name)} ≠ {value}"
    for name in NUMERIC:
        shown = number_value(page, name)
        assert same_number(shown, want[name]), f"step {n} ({how}): input {name} shows {shown}, step sets {want[name]}"
    for name in ("method", "placement", "gpu"):
        checked = page.locator(f"#workload input[type=radio][name={name}]:checked").get_attribute("value")
        assert checked == want[name], f"step {n} ({how}): {name} {checked} ≠ {want[name]}"
    assert_matches_api(page, api(query_of(page.url)), f"walkthrough step {n}")


def _reveal(page: Page, n: int) -> None:
    reveal = page.locator("details.walk-reveal")
    takeaway = reveal.locator(".takeaway")
    assert reveal.get_attribute("open") is None, f"step {n}: the reveal starts open"
    expect(takeaway).not_to_be_visible()
    reveal.locator(":scope > summary").click()  # not the nested "show the numbers"
    expect(reveal).to_have_attribute("open", "")
    expect(takeaway).to_be_visible()
    assert len(takeaway.inner_text().strip()) > 10, f"step {n}: empty takeaway"


@pytest.mark.parametrize("lang", LANGS)
def test_walkthrough_keys_and_buttons(page: Page, base_url: str, api, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/")
    page.locator("[data-walk=next]").click()  # the start link
    _expect_step(page, api, 1, "start link")
    _reveal(page, 1)
    page.keyboard.press("ArrowRight")
    _expect_step(page, api, 2, "→ key")
    page.keyboard.press("ArrowRight")
    _expect_step(page, api, 3, "→ key")
    _reveal(page, 3)
    page.keyboard.press("ArrowLeft")
    _expect_step(page, api, 2, "← key")
    page.locator("[data-walk=next]").click()
    _expect_step(page, api, 3, "next button")
    page.locator("[data-walk=prev]").click()
    _expect_step(page, api, 2, "prev button")
    expect(page.locator("[data-walk=prev]")).to_be_visible()


def test_walkthrough_ends_and_arrow_keys_stay_in_inputs(page: Page, base_url: str, api) -> None:
    last = max(STEP_INPUTS)
    goto(page, f"{base_url}/en/?step={last - 1}&" + "&".join(f"{k}={v}" for k, v in STEP_INPUTS[last - 1].items()
                                                                if k != "step"))
    page.keyboard.press("ArrowRight")
    _expect_step(page, api, last, "→ key to the last step")
    expect(page.locator("[data-walk=next]")).to_have_count(0)
    page.keyboard.press("ArrowRight")  # nothing further: still the last step
    page.guard.settle(page)
    assert params_of(page.url)["step"] == str(last)
    # an arrow key inside a number input edits it; it does not step the walkthrough
    page.locator("#in-epochs").focus()
    page.keyboard.press("ArrowLeft")
    page.guard.settle(page)
    expect(page.locator("article.walk-card[data-walk-step]")).to_have_attribute("data-walk-step", str(last))


@pytest.mark.parametrize("lang", LANGS)
def test_a_moved_control_shows_that_the_reveal_quotes_the_steps_own_figures(page: Page, base_url: str, lang: str) -> None:
    """Step 4, the reveal open: no note at the step's own state; one notch of the rollouts slider (an htmx move, no
    reload) shows the note "these figures are for step 4's own settings" with the step's link; the link restores
    the state and the note goes."""
    step_url = f"{base_url}/{lang}/?" + "&".join(f"{k}={v}" for k, v in STEP_INPUTS[4].items())
    goto(page, step_url)
    page.locator("details.walk-reveal > summary").click()
    note = page.locator("article.walk-card .walk-moved")
    expect(note).to_be_hidden()
    expect(page.locator("[data-reveal]")).to_be_visible()
    expect(page.locator("[data-numbers]")).not_to_have_attribute("open", "")
    slider = page.locator("input.ladder[data-for=in-rollouts]")
    slider.focus()
    page.keyboard.press("ArrowRight")
    wait_url(page, url_has("step", "4"), "the step stays in the URL after a move")
    expect(page.locator("#live-marker")).to_have_attribute("data-walk-moved", "")
    expect(note).to_be_visible()
    note.locator("a").click()
    wait_url(page, url_has("rollouts", STEP_INPUTS[4]["rollouts"]), "the note's link restores the step")
    expect(page.locator("article.walk-card .walk-moved")).to_be_hidden()
