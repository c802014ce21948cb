"""Your own run in a browser: from the lab's link to the calibrate page, a pasted verl log, the fit drawn, the
calibrated state opened in the lab (labelled), and the same paste without JavaScript.  Screenshots
calibrate-<lang>-desktop-light.png and calibrate-<lang>-lab.png (artifacts/screenshots/)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .helpers import LANGS, goto, params_of, shoot

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from calibrate.logformats import verl_lines  # noqa: E402

pytestmark = pytest.mark.browser

STATE = "method=grpo&arch=qwen25_7b&policy_b=7.6&gpus=16&gpu=h100_80g&reward=verifier&kl=0.001"
LOG = verl_lines([(n, {"timing_s/gen": g, "timing_s/old_log_prob": 9.0, "timing_s/update_actor": 20.0,
                       "timing_s/update_weights": 3.0, "timing_s/step": g + 33.0, "response_length/mean": 990.0})
                  for n, g in ((1, 52.0), (2, 30.0), (3, 31.0), (4, 29.5))])
FITTED = {"en": "fitted to your run", "zh": "按你的 run 拟合"}


@pytest.mark.parametrize("lang", LANGS)
def test_calibrate_from_the_lab_and_back(open_page, base_url: str, api, lang: str) -> None:
    page: Page = open_page()
    goto(page, f"{base_url}/{lang}/?{STATE}")
    link = page.locator("#calibrate-link")
    expect(link).to_be_visible()
    with page.expect_navigation(wait_until="load"):
        link.click()
    assert page.url.startswith(f"{base_url}/{lang}/calibrate?")
    assert params_of(page.url)["gpus"] == "16" and params_of(page.url)["arch"] == "qwen25_7b"
    expect(page.locator("#calibrate-state")).to_be_visible()

    page.locator("#calibrate-log").fill(LOG)
    with page.expect_navigation(wait_until="load"):
        page.locator("#calibrate-form button[type=submit]").click()
    result = page.locator("#calibrate-result")
    expect(result).to_be_visible()
    expect(page.locator("#calibrate-log")).to_have_value("")  # nothing of the paste comes back
    expect(page.locator("[data-chart=calibrate] svg")).to_be_visible()
    assert page.locator("[data-chart=calibrate] rect[data-series]").count() == 15  # 5 phases × 3 series
    expect(page.locator("#calibrate-outliers li[data-step='1']")).to_be_visible()  # 52 s against the median 30.5 s
    expect(page.locator("#calibrate-factors")).to_contain_text(FITTED[lang])
    shoot(page, f"calibrate-{lang}-desktop-light")
    violations = [(v["id"], [n.get("target") for n in v["nodes"][:5]]) for v in Axe().run(page).response["violations"]
                  if v.get("impact") in ("serious", "critical")]
    assert violations == []

    with page.expect_navigation(wait_until="load"):
        page.locator("#calibrated-link").click()
    expect(page.locator("#fitted-banner")).to_contain_text(FITTED[lang])
    params = params_of(page.url)
    assert {"decode_step_overhead_s", "scoring_mfu", "train_mfu", "refit_s"} <= set(params)
    step = api("&".join(f"{k}={v}" for k, v in params.items()))["estimates"]["step"]
    assert abs(step["generation_s"] - 30.5) / 30.5 < 0.15  # the median of 52, 30, 31, 29.5
    assert abs(step["training_s"] - 20.0) / 20.0 < 0.15
    expect(page.locator("#fitted-factors input[name=train_mfu]")).to_have_value(params["train_mfu"])
    shoot(page, f"calibrate-{lang}-lab", full_page=False)


def test_calibrate_without_javascript(open_page, base_url: str) -> None:
    page: Page = open_page(java_script_enabled=False)
    goto(page, f"{base_url}/en/calibrate?{STATE}")
    page.locator("#calibrate-log").fill("<script>alert(1)</script> not a log")
    with page.expect_navigation(wait_until="load"):
        page.locator("#calibrate-form button[type=submit]").click()
    expect(page.locator("#calibrate-error")).to_be_visible()
    assert "alert(1)" not in page.content()
    # the 422 is this page's documented answer to an unreadable paste, which Chromium logs as a failed load
    page.guard.problems[:] = [p for p in page.guard.problems if "status of 422" not in p]
    page.locator("#calibrate-log").fill(LOG)
    with page.expect_navigation(wait_until="load"):
        page.locator("#calibrate-form button[type=submit]").click()
    expect(page.locator("#calibrate-result")).to_be_visible()
