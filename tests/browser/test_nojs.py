"""Scenario 7: without JavaScript the workload form is a plain GET form with a visible Apply button."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .helpers import LANGS, assert_matches_api, goto, number_value, open_groups, params_of, query_of

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", LANGS)
def test_form_works_without_javascript(open_page, base_url: str, api, lang: str) -> None:
    page: Page = open_page(java_script_enabled=False)
    goto(page, f"{base_url}/{lang}/")
    assert page.evaluate("1 + 1") == 2  # (Playwright's own evaluate still works; the page's scripts do not run)
    open_groups(page)  # <details> opened as a person would (Playwright's evaluate runs without the page's JS)
    apply = page.locator("#workload button.apply[type=submit]")  # the form's own; the config paste has its own form
    expect(apply).to_be_visible()
    expect(page.locator("input.ladder").first).to_be_hidden()  # the sliders need JS; the numbers do the work

    page.locator("#in-rollouts").fill("2048")
    page.locator("#in-gpus").fill("16")
    page.locator("#workload input[name=placement][value=colocated]").check(force=True)
    with page.expect_navigation(wait_until="load"):
        apply.click()

    params = params_of(page.url)
    assert page.url.startswith(f"{base_url}/{lang}/?"), page.url
    assert (params.get("rollouts"), params.get("gpus"), params.get("placement")) == ("2048", "16", "colocated"), \
        f"the submitted query: {params}"
    expected = api(query_of(page.url))
    assert expected["inputs"]["rollouts"] == 2048 and expected["inputs"]["gpus"] == 16
    assert_matches_api(page, expected, "after a no-JS submit")
    assert number_value(page, "rollouts") == "2048" and number_value(page, "gpus") == "16"
    expect(page.locator("#workload input[name=placement][value=colocated]")).to_be_checked()
