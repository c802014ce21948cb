"""Screenshots on every run, into artifacts/screenshots/ (git-ignored), for people to look at.

Most are taken by the scenario that already has the page open:
  lab-<lang>-desktop-<light|dark>.png, tutorial-<lang>-desktop-light.png            test_a11y
  lab-<lang>-phone-light.png                                                       test_phone
  preset-<n>-<id>-<lang>.png (desktop, light)                                      test_presets (cards clicked)
  present-<lang>.png (presenter view)                                              test_presets
This file adds the rest: the lab on a phone in dark mode and the compare page on a desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .conftest import PHONE
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
