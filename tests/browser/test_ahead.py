"""Moves answered ahead (app.js): while a slider or a choice is in use, the partials of its neighbouring notches
are fetched in the background; a one-notch move then swaps the answer in without any request.  Whatever path a
move takes, the page must end up exactly as a fresh load of its URL shows it."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, Request, expect

from .helpers import LANGS, goto, params_of, url_has, wait_url

pytestmark = pytest.mark.browser

SLIDER = "input.ladder[data-for=in-rollouts]"
REST_MS = 200  # app.js fetches ahead once the pointer has rested 80 ms on a control

# Every region a partial can touch, as the page shows it, against the same regions of a fresh load of the
# page's current URL (fetched in the page, parsed with DOMParser).  The "what moved" panel is the one thing that
# must differ (a fresh load has no previous state); whitespace between tags does not count.
SAME_AS_FRESH_JS = """async () => {
  const norm = (el) => {
    if (!el) return null;
    const c = el.cloneNode(true);
    c.querySelectorAll('#moved').forEach((m) => m.remove());
    c.querySelectorAll('[hx-swap-oob]').forEach((m) => m.removeAttribute('hx-swap-oob'));
    return c.outerHTML.replace(/>\\s+</g, '><').replace(/\\s+/g, ' ');
  };
  const html = await (await fetch(location.href)).text();
  const fresh = new DOMParser().parseFromString(html, 'text/html');
  const out = {};
  // what app.js rewrites after a move is here too: the links that keep the state and the meter strip (in #live)
  for (const id of ['#live', '#lang-switch', '#compare-link', '#present-link', 'link[rel=alternate]']) {
    const a = norm(document.querySelector(id)), b = norm(fresh.querySelector(id));
    if (a !== b) {
      let k = 0;
      while (k < Math.min(a.length, b.length) && a[k] === b[k]) k++;
      out[id] = {page: a && a.slice(Math.max(0, k - 80), k + 120), fresh: b && b.slice(Math.max(0, k - 80), k + 120)};
    }
  }
  return out;
}"""


def assert_same_as_fresh(page: Page, context: str) -> None:
    page.guard.settle(page)
    page.wait_for_timeout(50)  # the address bar follows one frame after the swap
    diff = page.evaluate(SAME_AS_FRESH_JS)
    assert diff == {}, f"{context}: the page differs from a fresh load of {page.url}: {json.dumps(diff, ensure_ascii=False)}"


class Requests:
    """The page's own requests for the lab route, split into htmx's (XHR) and app.js's fetches ahead."""

    def __init__(self, page: Page, lang: str) -> None:
        self.xhr: list[str] = []
        self.fetch: list[str] = []
        self.prefix = f"/{lang}/?"
        page.on("request", self._seen)

    def _seen(self, request: Request) -> None:
        if self.prefix not in request.url:
            return
        if request.resource_type == "xhr":
            self.xhr.append(request.url)
        elif request.resource_type == "fetch" and request.headers.get("hx-request") == "true":
            assert request.headers.get("hx-current-url"), "a fetch ahead must say which state it is diffed against"
            self.fetch.append(request.url)

    def clear(self) -> None:
        self.xhr.clear()
        self.fetch.clear()


def _ladder(page: Page) -> tuple[list[str], int]:
    slider = page.locator(SLIDER)
    return json.loads(slider.get_attribute("data-ladder")), int(slider.input_value())


@pytest.mark.parametrize("lang", LANGS)
def test_one_notch_move_is_answered_without_a_request(page: Page, base_url: str, api, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/")
    seen = Requests(page, lang)
    ladder, start = _ladder(page)
    page.locator(SLIDER).focus()
    page.guard.settle(page)
    assert len(seen.fetch) == 2, f"focus should fetch both neighbouring notches ahead: {seen.fetch}"
    assert seen.xhr == []

    for step, key in enumerate(("ArrowRight", "ArrowRight", "ArrowLeft"), 1):
        seen.clear()
        want = ladder[start + (1 if step != 2 else 2)]
        expected = api(f"rollouts={want}")["meters"]["rollout_load"]["value"]
        page.keyboard.press(key)
        expect(page.locator("[data-meter-value=rollout_load]")).to_have_text(str(expected))
        wait_url(page, url_has("rollouts", want), f"move {step}")
        page.guard.settle(page)
        assert seen.xhr == [], f"move {step} went to the server although its answer was fetched ahead"
        assert len(seen.fetch) == 2, f"after move {step} the new neighbours should be fetched ahead: {seen.fetch}"
        moved = page.locator("#moved .changed")
        expect(moved).to_contain_text(f"{ladder[start + (0 if step == 1 else 2 if step == 3 else 1)]}")
        expect(moved.locator("b")).to_have_text(want)
        assert_same_as_fresh(page, f"after move {step} ({key})")


def test_answers_fetched_for_another_state_are_never_used(page: Page, base_url: str) -> None:
    """Answers fetched against one state, then the state changes another way (a number typed): the slider's
    next move must reflect the typed number too."""
    goto(page, f"{base_url}/en/")
    seen = Requests(page, "en")
    ladder, start = _ladder(page)
    page.locator(SLIDER).focus()
    page.guard.settle(page)
    assert len(seen.fetch) == 2
    number = page.locator("#in-policy_b")
    number.fill("13")  # fires input: an htmx request; the fetched-ahead answers were diffed against policy_b=7
    wait_url(page, url_has("policy_b", "13"), "typing a number")
    page.locator(SLIDER).focus()
    page.keyboard.press("ArrowRight")
    wait_url(page, url_has("rollouts", ladder[start + 1]), "the slider move after the typed number")
    assert params_of(page.url)["policy_b"] == "13"
    assert_same_as_fresh(page, "a slider move after typing a number")


def test_choice_is_answered_ahead(page: Page, base_url: str) -> None:
    goto(page, f"{base_url}/en/")
    seen = Requests(page, "en")
    dpo = page.locator("[data-ctl=method] label.seg-opt", has_text="DPO")
    dpo.hover()  # the pointer resting on the choice fetches its alternatives ahead
    page.wait_for_timeout(REST_MS)
    page.guard.settle(page)
    assert any("method=dpo" in u for u in seen.fetch), seen.fetch
    seen.clear()
    dpo.click()
    expect(page.locator("[data-stage]")).to_have_attribute("data-stage", "dpo")
    wait_url(page, url_has("method", "dpo"), "the DPO choice")
    page.guard.settle(page)
    assert seen.xhr == [], "the choice went to the server although its answer was fetched ahead"
    assert_same_as_fresh(page, "after choosing DPO")


def test_fast_keyboard_drag_through_answered_and_unanswered_moves(page: Page, base_url: str) -> None:
    """Presses faster than answers arrive: some moves are answered ahead, the rest go through htmx's queue with
    the state on screen as HX-Current-URL (the address bar lags a frame behind)."""
    goto(page, f"{base_url}/zh/")
    ladder, start = _ladder(page)
    page.locator(SLIDER).focus()
    page.guard.settle(page)
    keys = ["ArrowRight"] * 4 + ["ArrowLeft"] * 2 + ["ArrowRight"] * 5 + ["ArrowLeft"]
    for k, key in enumerate(keys):
        page.keyboard.press(key)
        if k % 3 == 0:
            page.wait_for_timeout(60)  # time for some answers to arrive ahead
    final = ladder[start + keys.count("ArrowRight") - keys.count("ArrowLeft")]
    wait_url(page, url_has("rollouts", final), "after the drag")
    assert_same_as_fresh(page, "after a fast keyboard drag")


def test_open_math_stays_open_across_an_update(page: Page, base_url: str) -> None:
    goto(page, f"{base_url}/en/")
    page.locator("#meter-rollout_load details.math summary").click()
    expect(page.locator("#meter-rollout_load details.math")).to_have_attribute("open", "")
    before = page.locator("#meter-rollout_load .math p").last.text_content()
    page.locator(SLIDER).focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#meter-rollout_load .math p").last).not_to_have_text(before)
    expect(page.locator("#meter-rollout_load details.math")).to_have_attribute("open", "")


def test_request_right_after_an_answered_move_is_diffed_against_the_state_on_screen(page: Page, base_url: str) -> None:
    """The address bar follows one frame after a swap; a request made before that frame must still name the state
    on screen as HX-Current-URL, or the server would diff against a state the page no longer shows."""
    goto(page, f"{base_url}/en/")
    ladder, start = _ladder(page)
    page.locator(SLIDER).focus()
    page.guard.settle(page)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.headers.get("hx-current-url", "")) if r.resource_type == "xhr" else None)
    # one task, no frame in between: a slider notch (answered ahead), then a typed number (an htmx request)
    page.evaluate("""() => {
      const s = document.querySelector('input.ladder[data-for=in-rollouts]');
      s.value = String(Number(s.value) + 1);
      s.dispatchEvent(new Event('input', {bubbles: true}));
      const n = document.getElementById('in-policy_b');
      n.value = '13';
      n.dispatchEvent(new Event('input', {bubbles: true}));
    }""")
    wait_url(page, url_has("policy_b", "13"), "the typed number")
    page.guard.settle(page)
    assert len(sent) == 1, f"one htmx request expected (the slider notch was answered ahead): {sent}"
    assert params_of(sent[0])["rollouts"] == ladder[start + 1], f"HX-Current-URL was {sent[0]}"
    changed = page.locator("#moved .changed .chg")
    expect(changed).to_have_count(1)  # only policy_b moved since the state on screen
    expect(changed).to_contain_text("13")
    assert params_of(page.url)["rollouts"] == ladder[start + 1]
    assert_same_as_fresh(page, "after an answered move and an immediate request")


def test_a_pointer_sweeping_across_the_form_fetches_nothing_ahead(page: Page, base_url: str) -> None:
    """The page's timers run on Playwright's clock, paused during the sweep: the 80 ms rest timer can only fire when
    the test advances time, so the sweep's speed on a loaded machine does not matter."""
    page.clock.install()
    goto(page, f"{base_url}/en/")
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    seen = Requests(page, "en")
    page.locator("input.ladder[data-for=in-rollouts]").scroll_into_view_if_needed()
    height = page.viewport_size["height"]
    boxes = [b for n in ("demos", "pairs", "rollouts", "policy_b", "rm_b", "epochs", "kl")
             if (b := page.locator(f"input.ladder[data-for=in-{n}]").bounding_box()) and 0 < b["y"] < height - 10]
    assert len(boxes) >= 3, "the sweep should cross several sliders on screen"
    for box in boxes:  # 10 ms of page time on each control, then off the form
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=2)
        page.clock.run_for(10)
    page.mouse.move(5, 5)
    page.clock.run_for(REST_MS)
    page.guard.settle(page)
    assert seen.fetch == [], f"a passing pointer fetched ahead: {seen.fetch}"
    box = page.locator("input.ladder[data-for=in-rollouts]").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # and rests on the rollouts slider
    page.clock.run_for(REST_MS)
    page.clock.resume()
    page.guard.settle(page)
    assert len(seen.fetch) == 2 and all("rollouts=" in u for u in seen.fetch), seen.fetch
