"""The 2026 controls in a browser: the GRPO card, a slider of the algorithm group, the architecture picker."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from .helpers import LANGS, assert_matches_api, expect_stage, goto, params_of, query_of, shoot, url_has, wait_url

pytestmark = pytest.mark.browser


def _grpo(page: Page, base_url: str, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/")
    page.keyboard.press("7")  # the seventh card
    expect_stage(page, "grpo")
    page.guard.settle(page)


@pytest.mark.parametrize("lang", LANGS)
def test_the_grpo_card_shows_what_the_method_removes(page: Page, base_url: str, api, lang: str) -> None:
    _grpo(page, base_url, lang)
    expected = api(query_of(page.url))
    assert expected["stage"] == "grpo"
    assert_matches_api(page, expected, "after key 7")
    # the policy update trains the actor alone; the verifier stands in for the reward model; the tail is marked
    assert page.locator("[data-node=policy_update] .nd.noted").count() == 1
    assert page.locator("[data-node=reward_model]").get_attribute("class").startswith("st-removed")
    assert expected["nodes"]["reward_model"]["state"] == "removed"
    assert page.locator("[data-node=rollout_gen] .nd.noted").count() == (1 if expected["estimates"]["step"]["tail_s"] > 0 else 0)
    # the preset sets the engineer's controls (group size, reward, response lengths): "size a real run" is open
    expect(page.locator("details[data-group=engineer]")).to_have_attribute("open", "")
    shoot(page, f"grpo-{lang}")


def test_a_slider_of_the_algorithm_group_moves_the_meters_without_a_reload(page: Page, base_url: str, api) -> None:
    _grpo(page, base_url, "en")
    slider = page.locator("input.ladder[data-for=in-response_max_tokens]")
    ladder = json.loads(slider.get_attribute("data-ladder"))
    k = int(slider.input_value())
    page.evaluate("window.__still = 1")
    slider.focus()
    page.keyboard.press("ArrowRight")
    wait_url(page, url_has("response_max_tokens", ladder[k + 1]), "the longest response moved one notch")
    page.guard.settle(page)
    assert page.evaluate("window.__still") == 1, "the page was reloaded"
    assert_matches_api(page, api(query_of(page.url)), "after the longest response moved")


def test_a_named_architecture_sets_the_policy_size_without_a_notice(page: Page, base_url: str, api) -> None:
    goto(page, f"{base_url}/en/")
    page.locator("details[data-group=engineer] > summary").click()
    page.locator("label.seg-opt:has(input[name=arch][value=llama3_8b])").click()
    wait_url(page, url_has("arch", "llama3_8b"), "choosing Llama 3.1 8B")
    page.guard.settle(page)
    assert "policy_b" not in params_of(page.url), "a named architecture's size is not sent"
    expect(page.locator("#in-policy_b")).to_be_disabled()
    expect(page.locator("#in-policy_b")).to_have_value("8")
    expect(page.locator("#live-notices .notices")).to_have_count(0)
    expect(page.locator("#arch-info")).to_contain_text("131,072")  # KV bytes per token: 2 · 32 · 8 · 128 · 2
    expected = api(query_of(page.url))
    assert expected["inputs"]["policy_b"] == 8.0
    assert_matches_api(page, expected, "after choosing llama3_8b")
    page.locator("label.seg-opt:has(input[name=arch][value=custom])").click()
    wait_url(page, url_has("arch", "custom"), "back to custom")
    page.guard.settle(page)
    expect(page.locator("#in-policy_b")).to_be_enabled()
    assert params_of(page.url)["policy_b"] == "8", "custom keeps the size the named model had"
