"""Shared pieces of the browser tests: the contract's ids, reading the page's state, comparing it with the API."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from app.i18n import LANGS
from app.model import WorkloadInputs, normalise
from app.model.inputs import NUMBERS
from app.model.meters import METER_IDS as METERS
from app.model.scenarios import PRESETS as _PRESETS
from app.model.stages import NODE_IDS as NODES
from app.model.stages import STAGE_IDS as STAGES

__all__ = ["CJK", "HTML_LANG", "LANGS", "METERS", "NODES", "NUMERIC", "PRESETS", "STAGES"]  # and the helpers below

HTML_LANG = {"zh": "zh-CN", "en": "en"}
PRESETS = tuple(p.id for p in _PRESETS)  # the evolution cards, left to right, carry the stage ids
NUMERIC = tuple(s.name for s in NUMBERS)
CJK = re.compile(r"[\u4e00-\u9fff]")


def query_of(url: str) -> str:
    return urlsplit(url).query


def params_of(url: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}


def state_of(url: str) -> WorkloadInputs:
    """The lab state a URL names, as the model reads it: the form writes every field it shows, 2026 inputs at their
    defaults included, where the canonical query leaves those out."""
    return normalise(params_of(url))[0]


def url_has(name: str, value: str) -> re.Pattern[str]:
    """A URL pattern: the query holds name=value exactly."""
    return re.compile(rf"[?&]{re.escape(name)}={re.escape(value)}(&|#|$)")


def wait_url(page: Page, pattern: re.Pattern[str], why: str = "", timeout_ms: int = 5_000) -> None:
    """Bounded wait for the page URL (pushState/replaceState included) to match; a short message if not."""
    try:
        page.wait_for_url(pattern, timeout=timeout_ms, wait_until="commit")
    except PlaywrightTimeout:
        raise AssertionError(
            f"URL never matched {pattern.pattern!r} within {timeout_ms} ms{' (' + why + ')' if why else ''}; "
            f"it is {page.url}") from None


def dom_state(page: Page) -> dict:
    """Stage, meters (aria-valuenow and the printed number) and the lit diagram nodes, as the page shows them."""
    return page.evaluate(
        """() => {
          const stages = [...document.querySelectorAll('[data-stage]')].map(e => e.dataset.stage);
          const meters = {};
          for (const m of document.querySelectorAll('[data-meter]')) {
            const printed = document.querySelectorAll(`[data-meter-value="${m.dataset.meter}"]`);
            meters[m.dataset.meter] = {
              valuenow: m.getAttribute('aria-valuenow'),
              printed: [...printed].map(e => e.textContent.trim()),
              count: document.querySelectorAll(`[data-meter="${m.dataset.meter}"]`).length,
            };
          }
          const active = [...document.querySelectorAll('[data-node][data-active="true"]')].map(e => e.dataset.node);
          return {stages, meters, active};
        }"""
    )


def assert_matches_api(page: Page, expected: dict, context: str = "") -> None:
    """The page's stage, meters and lit nodes equal the JSON API's answer for the same query."""
    state = dom_state(page)
    where = f" ({context}; url {page.url})" if context else f" (url {page.url})"
    assert state["stages"] == [expected["stage"]], f"[data-stage] {state['stages']} ≠ API {expected['stage']}{where}"
    assert sorted(state["meters"]) == sorted(METERS), f"meters on the page: {sorted(state['meters'])}{where}"
    for mid, m in state["meters"].items():
        want = str(expected["meters"][mid]["value"])
        assert m["count"] == 1, f"meter {mid} appears {m['count']} times{where}"
        assert m["valuenow"] == want, f"meter {mid} aria-valuenow {m['valuenow']} ≠ API {want}{where}"
        assert m["printed"] == [want], f"[data-meter-value={mid}] {m['printed']} ≠ API {want}{where}"
    want_nodes = sorted(n for n, v in expected["nodes"].items() if v["active"])
    assert sorted(state["active"]) == want_nodes, f"lit nodes {sorted(state['active'])} ≠ API {want_nodes}{where}"


def goto(page: Page, url: str) -> None:
    response = page.goto(url, wait_until="load")
    assert response is not None and response.ok, f"GET {url} → {response and response.status}"


def open_groups(page: Page) -> None:
    """Open every control group of the form and the config paste inside it (closed unless the state sets one of their
    values): what a person does before reaching for a GPU count or a response length."""
    page.evaluate("document.querySelectorAll('#workload details').forEach((d) => { d.open = true; })")


def number_value(page: Page, name: str) -> str:
    return page.locator(f"#workload input[type=number][name={name}]").input_value()


def expect_stage(page: Page, stage: str) -> None:
    expect(page.locator("[data-stage]")).to_have_attribute("data-stage", stage)


def same_number(a: str, b: str) -> bool:
    try:
        return float(a) == float(b)
    except ValueError:
        return a == b


SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


SHOT_TIMEOUT_MS = 30_000


def shoot(page: Page, name: str, full_page: bool = True, image: str = "png") -> None:
    """Save a screenshot to artifacts/screenshots/<name>.<png|jpeg> (every run; for people to look at).

    image="jpeg" is for the tall pages: the tutorial is 35,000 px tall at 1,280 px wide, and encoding that as PNG
    took 3.5-6 s here and over 10 s on a loaded CI machine; JPEG takes a third of that. The screenshot is the
    test's own cost, not the page's, so it gets its own timeout rather than the one the page's waits are held to.
    """
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.{image}"
    page.evaluate("document.fonts.ready.then(() => true)")
    # caret="initial": hiding the caret makes Playwright leave empty style="" attributes on inputs, which htmx
    # then settles onto swapped elements — a CSP style-src violation caused by the test, not the page.
    page.screenshot(
        path=str(path), full_page=full_page, type=image, animations="disabled", caret="initial", timeout=SHOT_TIMEOUT_MS
    )
    assert path.stat().st_size > 5_000, f"{path.name} looks empty"
