"""Scenario 3 (evolution cards left to right), keyboard shortcuts 1–6 and '?', and the presenter view."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import LANGS, PRESETS, assert_matches_api, expect_stage, goto, open_groups, query_of, shoot, wait_url

pytestmark = pytest.mark.browser


def _href_pattern(page: Page, preset: str) -> re.Pattern[str]:
    href = page.locator(f"a.preset[data-preset={preset}]").get_attribute("href")
    assert href and "?" in href, f"preset {preset} has no query in its href: {href!r}"
    return re.compile(re.escape(href) + "$")


@pytest.mark.parametrize("lang", LANGS)
def test_evolution_cards_left_to_right(page: Page, base_url: str, api, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/")
    cards = page.locator("a.preset[data-preset]")
    assert [cards.nth(i).get_attribute("data-preset") for i in range(cards.count())] == list(PRESETS)
    for preset in PRESETS:
        expected_url = _href_pattern(page, preset)
        page.locator(f"a.preset[data-preset={preset}]").click()
        wait_url(page, expected_url, f"boosted click on preset {preset} pushes its URL")
        expect_stage(page, preset)
        page.guard.settle(page)
        shoot(page, f"preset-{PRESETS.index(preset) + 1}-{preset}-{lang}")
        expected = api(query_of(page.url))
        assert expected["stage"] == preset, f"the API puts preset {preset}'s workload in stage {expected['stage']}"
        assert_matches_api(page, expected, f"after clicking preset {preset}")


def test_number_keys_open_presets(page: Page, base_url: str, api) -> None:
    goto(page, f"{base_url}/en/")
    order = list(enumerate(PRESETS, start=1))
    for key, preset in order[3:] + order[:3]:  # 4 5 6 1 2 3: every key, never the state we are already in
        expected_url = _href_pattern(page, preset)
        page.keyboard.press(str(key))
        wait_url(page, expected_url, f"key {key} opens preset {preset}")
        expect_stage(page, preset)
        page.guard.settle(page)
        assert_matches_api(page, api(query_of(page.url)), f"after key {key}")


def test_number_keys_ignored_while_typing(page: Page, base_url: str) -> None:
    goto(page, f"{base_url}/en/")
    open_groups(page)
    page.locator("#in-gpus").fill("8")
    page.guard.settle(page)
    page.keyboard.press("4")  # typed into the field (8 → 84), not the shortcut for preset 4 (which sets 16)
    page.guard.settle(page)
    expect(page.locator("#in-gpus")).to_have_value("84")
    assert page.locator("#live-marker").get_attribute("data-current-preset") != "scaled_rollouts"


def test_question_mark_opens_help(page: Page, base_url: str) -> None:
    goto(page, f"{base_url}/zh/")
    help_dialog = page.locator("dialog#help")
    expect(help_dialog).not_to_be_visible()
    page.keyboard.press("?")
    expect(help_dialog).to_be_visible()
    assert page.evaluate("document.getElementById('help').open") is True
    page.keyboard.press("Escape")
    expect(help_dialog).not_to_be_visible()


def _box(page: Page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not rendered"
    return box


@pytest.mark.parametrize("lang", LANGS)
def test_presenter_view_puts_diagram_and_meters_first(page: Page, base_url: str, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/?present=1")
    expect(page.locator("main.lab")).to_have_class(re.compile(r"\bpresent\b"))
    shoot(page, f"present-{lang}")
    # the diagram and the meters on the screen; the controls collapsed (the keys and the cards' links drive it)
    for selector in ("svg.diagram", "#live-meters"):
        box = _box(page, selector)
        assert box["y"] + box["height"] <= page.viewport_size["height"], f"presenter view: {selector} below the fold"
    expect(page.locator("#workload")).to_be_hidden()
