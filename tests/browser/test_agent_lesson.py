"""The 2026 inputs in the engineer form and the agent lesson in a browser (issue 36): the form's practice controls
move the state, and walkthrough step 13's card opens with its prediction; screenshots for the lead."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from app.model.scenarios import WALKTHROUGH

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"  # ignored, as helpers.shoot's


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_form_shows_the_practice_inputs(page: Page, base_url: str, lang: str) -> None:
    page.set_viewport_size({"width": 1440, "height": 1800})
    page.goto(f"{base_url}/{lang}/?turns=4&env_latency_s=2&reward=judge")
    engineer = page.locator('details[data-group="engineer"]')
    expect(engineer).to_have_attribute("open", "")
    for name in ("turns", "env_latency_s", "observation_tokens", "judge_b", "judge_tokens"):
        expect(page.locator(f'input[name="{name}"][type="number"]')).to_be_visible()
    # the link sets no hardware value: that group stays shut until opened (app/view/lab.py, form_groups)
    hardware = page.locator('details[data-group="hardware"]')
    expect(hardware).not_to_have_attribute("open", "")
    hardware.locator("summary").click()
    expect(page.locator('input[name="acceptance"][type="number"]')).to_be_visible()
    page.locator('[data-ctl="turns"]').scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator('[data-group="algorithm"]').screenshot(path=str(SHOTS / f"agent36-form-algorithm-{lang}.png"))
    page.locator('input[name="turns"][type="number"]').fill("8")
    page.locator('input[name="turns"][type="number"]').dispatch_event("input")
    page.wait_for_url("**turns=8**")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_step_13_asks_before_it_answers(page: Page, base_url: str, lang: str) -> None:
    page.set_viewport_size({"width": 1440, "height": 1000})
    page.goto(f"{base_url}/{lang}/?{urlencode(WALKTHROUGH[12].inputs.query())}")  # the step's own link
    card = page.locator("article[data-walk-step]")
    expect(card).to_have_attribute("data-walk-step", "13")
    expect(card.locator(".walk-moved")).to_be_hidden()
    expect(page.locator('[data-guess] input[value="env"]')).to_have_count(1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    card.screenshot(path=str(SHOTS / f"agent36-step13-{lang}.png"))
