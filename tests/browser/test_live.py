"""Scenarios 1 and 2: the ladder sliders drive the live regions over htmx, without a page load."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from .helpers import LANGS, assert_matches_api, goto, number_value, params_of, query_of, url_has, wait_url

pytestmark = pytest.mark.browser

SLIDER = "input.ladder[data-for=in-rollouts]"


def _ladder(page: Page) -> tuple[list[str], int]:
    slider = page.locator(SLIDER)
    return json.loads(slider.get_attribute("data-ladder")), int(slider.input_value())


def _mark_document(page: Page) -> list[str]:
    """A property on window vanishes on any reload; also count DOMContentLoaded events from now on."""
    loads: list[str] = []
    page.on("domcontentloaded", lambda p: loads.append(p.url))
    page.evaluate("window.__labMarker = 'still-here'")
    return loads


@pytest.mark.parametrize("lang", LANGS)
def test_keyboard_slider_updates_meters_without_reload(page: Page, base_url: str, api, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/")
    ladder, start = _ladder(page)
    want = ladder[start + 3]
    meter = page.locator("meter[data-meter=rollout_load]")
    before_now = meter.get_attribute("aria-valuenow")
    before_printed = page.locator("[data-meter-value=rollout_load]").text_content()
    loads = _mark_document(page)

    page.locator(SLIDER).focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")

    wait_url(page, url_has("rollouts", want), "hx-replace-url after the slider moved")
    page.guard.settle(page)
    assert number_value(page, "rollouts") == want
    expected = api(query_of(page.url))
    assert expected["inputs"]["rollouts"] == int(want)
    new_now = str(expected["meters"]["rollout_load"]["value"])
    assert new_now != before_now, "this step should move the rollout meter; pick another notch"
    expect(meter).to_have_attribute("aria-valuenow", new_now)
    expect(page.locator("[data-meter-value=rollout_load]")).to_have_text(new_now)
    assert before_printed != new_now
    assert_matches_api(page, expected, "after three ArrowRight presses")
    assert page.evaluate("window.__labMarker") == "still-here", "the page was reloaded"
    assert loads == [], f"a document loaded: {loads}"
    assert page.evaluate("document.activeElement && document.activeElement.dataset.for") == "in-rollouts", \
        "the slider lost keyboard focus"
    assert params_of(page.url)["rollouts"] == want


def test_fast_drag_ends_consistent(page: Page, base_url: str, api) -> None:
    goto(page, f"{base_url}/en/")
    ladder, start = _ladder(page)
    loads = _mark_document(page)
    page.locator(SLIDER).focus()
    for _ in range(25):  # no waiting between presses: requests overlap and get superseded
        page.keyboard.press("ArrowRight")
    for _ in range(7):
        page.keyboard.press("ArrowLeft")
    final = ladder[min(start + 25, len(ladder) - 1) - 7]

    wait_url(page, url_has("rollouts", final), "hx-replace-url after a fast drag")
    page.guard.settle(page)
    assert number_value(page, "rollouts") == final
    assert params_of(page.url)["rollouts"] == final
    assert_matches_api(page, api(query_of(page.url)), "after a fast drag")
    assert page.evaluate("window.__labMarker") == "still-here" and loads == [], "the page was reloaded"


def test_a_typed_value_out_of_range_is_answered_with_its_notice(page: Page, base_url: str) -> None:
    """The form leaves range checks to the server (``novalidate``): a number typed above the slider's maximum is
    sent like any other, and the page says what it used instead (without JavaScript the same notice comes with
    the page)."""
    goto(page, f"{base_url}/en/")
    page.locator("#in-rollouts").fill("99999")
    notice = page.locator('#live-notices [data-field="rollouts"]')
    expect(notice).to_contain_text("99999")
    expect(notice).to_contain_text("65,536")  # the number rule: thousands separated
    wait_url(page, url_has("rollouts", "99999"), "the typed value is the state's URL, as the server got it")
