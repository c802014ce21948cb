"""Screenshots on every run, into artifacts/screenshots/ (git-ignored), for people to look at.

Most are taken by the scenario that already has the page open:
  lab-<lang>-desktop-<light|dark>.png, tutorial-<lang>-desktop-light.jpeg           test_a11y
  lab-<lang>-phone-light.png                                                       test_phone
  preset-<n>-<id>-<lang>.png (desktop, light)                                      test_presets (cards clicked)
  present-<lang>.png (presenter view)                                              test_presets
This file adds the rest: the lab on a phone in dark mode and the compare page on a desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .conftest import DESKTOP, PHONE
from .helpers import LANGS, goto, shoot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", LANGS)
def test_screenshot_lab_phone_dark(open_page, base_url: str, lang: str) -> None:
    page: Page = open_page(viewport=PHONE, is_mobile=True, has_touch=True, color_scheme="dark")
    goto(page, f"{base_url}/{lang}/")
    shoot(page, f"lab-{lang}-phone-dark")


@pytest.mark.parametrize("lang", LANGS)
def test_screenshot_compare(page: Page, base_url: str, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/compare")
    shoot(page, f"compare-{lang}-desktop-light")


# Issue 23: the walkthrough at steps 1, 4, 8 and 12, the GRPO card and a state that does not fit, in both languages,
# on a desktop and a phone, light and dark — for people to open and look at (artifacts/screenshots/).
STATES = {
    "step1": "step=1", "step4": "step=4", "step8": "step=8", "step12": "step=12",
    "grpo": "preset=grpo", "nofit": "policy_b=175&rm_b=175&gpus=8",
}


def _state_url(base_url: str, lang: str, state: str) -> str:
    from app.model.scenarios import PRESET_BY_ID, WALKTHROUGH

    if state.startswith("step"):
        return f"{base_url}/{lang}/?" + "&".join(f"{k}={v}" for k, v in WALKTHROUGH[int(state[4:]) - 1].inputs.query().items())
    if state == "grpo":
        return f"{base_url}/{lang}/?" + "&".join(f"{k}={v}" for k, v in PRESET_BY_ID["grpo"].inputs.query().items())
    return f"{base_url}/{lang}/?{STATES[state]}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("state", list(STATES))
def test_screenshot_one_view(open_page, base_url: str, lang: str, device: str, scheme: str, state: str) -> None:
    phone = device == "phone"
    page: Page = open_page(viewport=PHONE if phone else DESKTOP, is_mobile=phone, has_touch=phone,
                           color_scheme=scheme)
    goto(page, _state_url(base_url, lang, state))
    if state.startswith("step"):
        page.locator(".walk-reveal > summary").click()  # what the learner reads: the reveal open
    shoot(page, f"view-{state}-{lang}-{device}-{scheme}", full_page=False)
