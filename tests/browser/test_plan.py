"""The run planner in Chromium: the chart is drawn, a point's link opens its lab state, the lab's link opens the
planner with its workload, the GET form works without JavaScript, a phone does not scroll sideways; screenshots en
and zh (desktop, phone)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from app.model import WorkloadInputs
from app.model.inputs import effective
from app.model.planner import PlanQuery, plan

from .conftest import PHONE
from .helpers import LANGS, SHOTS, goto, params_of, shoot

pytestmark = pytest.mark.browser

RUN1 = dict(method="grpo", reward="verifier", arch="qwen3_8b", gpu="h100_80g", gpus=16, rollouts=2048, group=8,
            prompt_tokens=512, response_tokens=3000, response_max_tokens=8192, kl=0.001, prompts=17000, passes=1)
QUERY = urlencode({**RUN1, "max_gpus": 64, "deadline_h": 3, "budget_usd": 400})


@pytest.mark.parametrize("lang", LANGS)
def test_the_chart_is_drawn_and_a_point_opens_its_lab_state(open_page, base_url: str, api, lang: str) -> None:
    page: Page = open_page()
    goto(page, f"{base_url}/{lang}/plan?{QUERY}")
    chart = page.locator('[data-chart="plan"]')
    expect(chart).to_be_visible()
    p = plan(WorkloadInputs(**RUN1), PlanQuery(deadline_h=3, budget_usd=400, max_gpus=64))
    expect(chart.locator("circle.pt")).to_have_count(len(p.fitting))
    box = chart.locator("svg").bounding_box()
    assert box is not None and box["width"] > 500 and box["height"] > 250
    expect(page.locator("[data-mark=cheapest]")).to_be_visible()
    expect(page.locator("#plan-table tr[data-row]")).to_have_count(len(p.frontier))
    shoot(page, f"plan-{lang}-desktop")
    SHOTS.mkdir(parents=True, exist_ok=True)
    chart.screenshot(path=str(SHOTS / f"plan-{lang}-chart.png"), animations="disabled", caret="initial")
    page.locator("#plan-answer").screenshot(path=str(SHOTS / f"plan-{lang}-answer.png"), caret="initial")
    page.locator("a[data-cheapest]").first.click()
    page.wait_for_url(f"{base_url}/{lang}/?**")
    expect(page.locator("#live")).to_be_visible()
    got = params_of(page.url)
    assert got == p.cheapest.query
    est = api(urlencode(got))["estimates"]
    assert est["timed_gpus"] == p.cheapest.gpus and est["run"]["hours"] == pytest.approx(p.cheapest.hours)


def test_the_lab_opens_the_planner_with_its_workload(open_page, base_url: str) -> None:
    page: Page = open_page()
    goto(page, f"{base_url}/en/?{urlencode(RUN1)}")
    page.locator("#plan-link").click()
    page.wait_for_url(f"{base_url}/en/plan?**")
    expect(page.locator('[data-chart="plan"]')).to_be_visible()
    assert params_of(page.url) == effective(WorkloadInputs(**RUN1)).query()


def test_without_javascript_the_form_plans_again(open_page, base_url: str) -> None:
    page: Page = open_page(java_script_enabled=False)
    goto(page, f"{base_url}/zh/plan?{QUERY}")
    page.fill("input[name=deadline_h]", "1.5")
    page.locator("#plan-form button[type=submit]").click()
    page.wait_for_url("**deadline_h=1.5**")
    assert params_of(page.url)["arch"] == "qwen3_8b"
    expect(page.locator('[data-chart="plan"]')).to_be_visible()
    expect(page.locator("#plan-answer")).to_have_attribute("data-status", "ok")


@pytest.mark.parametrize("lang", LANGS)
def test_a_phone_does_not_scroll_sideways(open_page, base_url: str, lang: str) -> None:
    page: Page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    goto(page, f"{base_url}/{lang}/plan?{QUERY}")
    expect(page.locator('[data-chart="plan"]')).to_be_visible()
    widths = page.evaluate("() => ({doc: document.documentElement.scrollWidth, view: window.innerWidth})")
    assert widths["doc"] <= widths["view"], widths
    shoot(page, f"plan-{lang}-phone")
    page.locator('[data-chart="plan"]').screenshot(path=str(SHOTS / f"plan-{lang}-phone-chart.png"), caret="initial")
