"""Scenarios 5 and 6: every state is a URL — language switch, copy link into a fresh page, back and forward."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import (
    CJK,
    HTML_LANG,
    LANGS,
    NUMERIC,
    assert_matches_api,
    dom_state,
    expect_stage,
    goto,
    number_value,
    open_groups,
    params_of,
    query_of,
    url_has,
    wait_url,
)

pytestmark = pytest.mark.browser

OTHER = {"zh": "en", "en": "zh"}


def _check_language(page: Page, lang: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", HTML_LANG[lang])
    summary = page.locator(".brand-sub").inner_text()
    title = page.title()
    if lang == "zh":
        assert CJK.search(summary) and CJK.search(title), f"zh page not in Chinese: {summary!r} / {title!r}"
    else:
        assert not CJK.search(summary) and not CJK.search(title), f"en page shows Chinese: {summary!r} / {title!r}"
    expect(page.locator(f"#lang-switch a[hreflang={OTHER[lang]}]")).to_be_visible()


@pytest.mark.parametrize("lang", LANGS)
def test_language_switch_keeps_state(page: Page, base_url: str, api, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/?rollouts=2048&gpus=16&kl=0.05")
    _check_language(page, lang)
    before_state, before_inputs = dom_state(page), api(query_of(page.url))["inputs"]
    before_summary = page.locator(".brand-sub").inner_text()

    page.locator(f"#lang-switch a[hreflang={OTHER[lang]}]").click()
    wait_url(page, re.compile(rf"/{OTHER[lang]}/\?"), "the language switch")
    _check_language(page, OTHER[lang])
    assert page.locator(".brand-sub").inner_text() != before_summary
    after = api(query_of(page.url))
    assert after["inputs"] == before_inputs, f"the switch lost state: {query_of(page.url)}"
    assert dom_state(page) == before_state
    assert_matches_api(page, after, "after the language switch")
    for name, value in (("rollouts", "2048"), ("gpus", "16"), ("kl", "0.05")):
        assert params_of(page.url)[name] == value
        assert number_value(page, name) == value


def test_language_switch_follows_live_changes(page: Page, base_url: str, api) -> None:
    """After a slider moves (htmx, no reload) the switch link carries the new state."""
    goto(page, f"{base_url}/en/")
    open_groups(page)
    page.locator("input.ladder[data-for=in-gpus]").focus()
    page.keyboard.press("ArrowRight")
    wait_url(page, url_has("gpus", "16"), "hx-replace-url after the gpus slider moved")
    page.guard.settle(page)
    page.locator("#lang-switch a[hreflang=zh]").click()
    wait_url(page, re.compile(r"/zh/\?"), "the language switch")
    _check_language(page, "zh")
    assert params_of(page.url)["gpus"] == "16"
    assert number_value(page, "gpus") == "16"
    assert_matches_api(page, api(query_of(page.url)), "zh after a live change in en")


@pytest.mark.parametrize("lang", LANGS)
def test_copied_link_reopens_same_state(page: Page, open_page, base_url: str, api, lang: str) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    goto(page, f"{base_url}/{lang}/?rollouts=1024&gpus=16&method=ppo&placement=colocated&gpu=h100_80g")
    page.locator("input.ladder[data-for=in-rollouts]").focus()
    page.keyboard.press("ArrowRight")
    wait_url(page, url_has("rollouts", "1536"), "hx-replace-url after the slider moved")
    page.guard.settle(page)

    button = page.locator("#copy-link")
    button.click()
    expect(button).to_have_text(button.get_attribute("data-copied") or "")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.url, f"#copy-link copied {copied!r}, the page is at {page.url!r}"

    other = open_page()  # a fresh context: no history, no htmx cache, no cookies
    goto(other, copied)
    assert dom_state(other) == dom_state(page), "the copied link opens a different state"
    for name in NUMERIC:
        assert number_value(other, name) == number_value(page, name), f"input {name} differs"
    assert_matches_api(other, api(query_of(copied)), "the copied link in a fresh context")


def test_back_and_forward_restore_presets(page: Page, base_url: str, api) -> None:
    goto(page, f"{base_url}/en/")
    start_url, start_stage = page.url, page.locator("[data-stage]").get_attribute("data-stage")
    hrefs = {p: page.locator(f"a.preset[data-preset={p}]").get_attribute("href") for p in
             ("reward_model", "scaled_rollouts")}
    pattern = {p: re.compile(re.escape(h) + "$") for p, h in hrefs.items()}
    pattern["start"] = re.compile(re.escape(start_url) + "$")

    for p in ("reward_model", "scaled_rollouts"):
        page.locator(f"a.preset[data-preset={p}]").click()
        wait_url(page, pattern[p], f"click preset {p}")
        expect_stage(page, p)
        page.guard.settle(page)

    for move, where, stage in (("back", "reward_model", "reward_model"), ("back", "start", start_stage),
                               ("forward", "reward_model", "reward_model"),
                               ("forward", "scaled_rollouts", "scaled_rollouts")):
        page.go_back(wait_until="commit") if move == "back" else page.go_forward(wait_until="commit")
        wait_url(page, pattern[where], f"{move} to {where}")
        expect_stage(page, stage)
        page.guard.settle(page)
        assert_matches_api(page, api(query_of(page.url)), f"after {move} to {where}")


@pytest.mark.parametrize("lang", LANGS)
def test_copy_link_in_presenter_view_copies_the_students_link(page: Page, open_page, base_url: str, lang: str) -> None:
    """read33: "Copy link" on the projector gives the room the state without present=1 (the form a student works in
    is hidden in presenter view); everything else in the address stays, so the state reopens exactly."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    goto(page, f"{base_url}/{lang}/?method=grpo&gpus=16&placement=separate&step=11&present=1")
    button = page.locator("#copy-link")
    button.click()
    expect(button).to_have_text(button.get_attribute("data-copied") or "")
    copied = page.evaluate("navigator.clipboard.readText()")
    here = params_of(page.url)
    assert here.get("present") == "1", "presenter view left the address bar"
    assert "present" not in params_of(copied), f"#copy-link copied the presenter layout: {copied!r}"
    assert params_of(copied) == {k: v for k, v in here.items() if k != "present"}
    other = open_page()
    goto(other, copied)
    assert other.locator("main.lab.present").count() == 0, "the copied link opens presenter view"
    assert dom_state(other) == dom_state(page), "the copied link opens a different state"
