"""The launch page in Chromium: the Copy button puts the command on the clipboard; no horizontal page overflow on a
phone (the command scrolls inside its <pre>); screenshots zh / en, desktop / phone, light / dark.

The clipboard: the context is granted ``clipboard-read`` and ``clipboard-write`` and the test reads the real
``navigator.clipboard.readText()`` after the click (127.0.0.1 is a secure context), no stub."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from app.i18n import translator
from app.launch import for_state
from app.model import evaluate
from app.model.scenarios import PRESET_BY_ID

from .conftest import DESKTOP, PHONE
from .helpers import LANGS, goto, shoot, state_of, url_has, wait_url

pytestmark = pytest.mark.browser

GRPO = PRESET_BY_ID["grpo"].inputs
GRPO_QUERY = urlencode(GRPO.query())


def _expected(framework: str) -> str:
    return for_state(evaluate(GRPO)).command(framework).text


@pytest.mark.parametrize("framework", ["verl", "openrlhf", "trl"])
def test_copy_puts_the_command_on_the_clipboard(open_page, base_url: str, framework: str) -> None:
    page: Page = open_page(permissions=["clipboard-read", "clipboard-write"])
    goto(page, f"{base_url}/en/launch?{GRPO_QUERY}")
    button = page.locator(f"#launch-{framework} button.copy-cmd")
    expect(button).to_be_visible()
    expect(button).to_have_text(translator("en")("launch.copy"))
    button.click()
    expect(button).to_have_text(translator("en")("launch.copied"))
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == _expected(framework)
    first = {"verl": "python3 -m verl.trainer.main_ppo", "openrlhf": "ray job submit", "trl": "accelerate launch"}
    assert copied.split("\n")[1].startswith(first[framework])  # after the release's header line
    expect(button).to_have_text(translator("en")("launch.copy"), timeout=4_000)  # the label comes back


def test_without_javascript_the_command_is_there_and_the_button_is_not(open_page, base_url: str) -> None:
    page: Page = open_page(java_script_enabled=False)
    goto(page, f"{base_url}/zh/launch?{GRPO_QUERY}")
    expect(page.locator("#launch-verl button.copy-cmd")).to_be_hidden()
    assert page.locator("#cmd-verl").inner_text() == _expected("verl")


@pytest.mark.parametrize("lang", LANGS)
def test_phone_width_scrolls_the_command_not_the_page(open_page, base_url: str, lang: str) -> None:
    page: Page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    goto(page, f"{base_url}/{lang}/launch?{GRPO_QUERY}")
    widths = page.evaluate("""() => ({
        doc: document.documentElement.scrollWidth, view: window.innerWidth,
        pre: [...document.querySelectorAll('.launch-cmd pre')].map(p => [p.scrollWidth, p.clientWidth]),
    })""")
    assert widths["doc"] <= widths["view"], widths
    assert widths["pre"] and all(scroll > client for scroll, client in widths["pre"]), widths  # long lines scroll


SHOTS = [(lang, device, scheme) for lang in LANGS for device in ("desktop", "phone") for scheme in ("light", "dark")]


@pytest.mark.parametrize(("lang", "device", "scheme"), SHOTS)
def test_screenshots(open_page, base_url: str, lang: str, device: str, scheme: str) -> None:
    phone = device == "phone"
    page: Page = open_page(viewport=PHONE if phone else DESKTOP, is_mobile=phone, has_touch=phone,
                           color_scheme=scheme)
    goto(page, f"{base_url}/{lang}/launch?{GRPO_QUERY}")
    expect(page.locator("#launch-caption")).to_be_visible()
    shoot(page, f"launch-{lang}-{device}-{scheme}")


@pytest.mark.parametrize("lang", LANGS)
def test_screenshot_a_state_with_a_reason(open_page, base_url: str, lang: str) -> None:
    page: Page = open_page()
    goto(page, f"{base_url}/{lang}/launch?{urlencode(PRESET_BY_ID['scaled_rollouts'].inputs.query())}")
    expect(page.locator("#launch-verl [data-reason]")).to_be_visible()
    shoot(page, f"launch-{lang}-desktop-light-ppo")


@pytest.mark.parametrize("lang", LANGS)
def test_the_unmapped_plan_fields_show_beside_each_command(open_page, base_url: str, lang: str) -> None:
    """Qwen2.5-7B GRPO on 64 H100 with fp8 rollouts, 2 passes: verl sets every plan field; OpenRLHF and TRL list
    what they cannot set (fp8, the engine's batch, the log-probs) beside their commands."""
    q = {"method": "grpo", "reward": "verifier", "arch": "qwen25_7b", "gpu": "h100_80g", "gpus": "64",
         "rollouts": "1024", "passes": "2", "rollout_dtype": "fp8", "kl": "0.001"}
    page: Page = open_page()
    goto(page, f"{base_url}/{lang}/launch?{urlencode(q)}")
    expect(page.locator('#launch-openrlhf [data-unmapped="launch.unmapped.openrlhf.rollout_dtype"]')).to_be_visible()
    expect(page.locator('#launch-trl [data-unmapped="launch.unmapped.trl.rollout_dtype"]')).to_be_visible()
    assert page.locator("#launch-verl [data-unmapped]").count() == 0
    shoot(page, f"launch-{lang}-desktop-light-unmapped")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", LANGS)
def test_axe_no_serious_violations_with_the_flag_tables_open(open_page, base_url: str, lang: str, scheme: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    page: Page = open_page(color_scheme=scheme)
    goto(page, f"{base_url}/{lang}/launch?{GRPO_QUERY}")
    for summary in page.locator(".launch-flags summary").all():
        summary.click()
    expect(page.locator("#launch-verl tr[data-flag='actor_rollout_ref.rollout.n']")).to_be_visible()
    if scheme == "light":
        shoot(page, f"launch-{lang}-desktop-light-flags")
    violations = [v for v in Axe().run(page).response["violations"] if v.get("impact") in ("serious", "critical")]
    assert violations == [], [(v["id"], [n.get("target") for n in v["nodes"][:5]]) for v in violations]


def test_the_labs_launch_link_follows_the_state(open_page, base_url: str) -> None:
    """A move in the lab (a partial, no page load) rewrites #launch-link from the live marker (data-state-path)."""
    page: Page = open_page()
    goto(page, f"{base_url}/en/")
    link = page.locator("#launch-link")
    assert "method=ppo" in link.get_attribute("href")
    page.locator("#workload input[name=method][value=grpo]").check(force=True)
    wait_url(page, url_has("method", "grpo"), "the method choice moved the URL")
    page.guard.settle(page)
    href = link.get_attribute("href")
    assert href.startswith("/en/launch?") and "method=grpo" in href
    assert state_of(href) == state_of(page.url)  # the same state (the form writes its defaults too, in its order)
    link.click()
    expect(page.locator("#launch-state")).to_be_visible()
    assert "method=grpo" in page.url
