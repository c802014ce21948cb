"""Issue 33, predict then see: guess mode (`g`) hides every figure until the step's answer opens, measured as the
browser computes it (a rule Chromium drops — a nested :has() — hides nothing, and only a browser shows that); a
step's [data-guess] records a prediction and the answer shows it with the verdict the model decided."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from app.i18n import load_catalogue
from app.model import evaluate
from app.model.predictions import prediction
from app.model.scenarios import WALKTHROUGH

from .helpers import LANGS, goto

pytestmark = pytest.mark.browser

# every figure and decision the page shows, and a diagram node's state (REMOVED: dashed box, struck-through name)
FIGURES = ["[data-meter-value]", "meter", ".m-fig", ".lvl", ".stage-badge", ".bottleneck-line", ".diagram .flag",
           "#moved", ".chart svg", ".chart-now", ".chart-none", ".decision > div", ".ms b"]
OPTIONAL = {".chart-now"}  # not drawn for every state (DPO has no step chart; its ".chart-none" says so instead)
SEEN = """(selectors) => {
  const out = {};
  for (const sel of selectors) {
    const els = [...document.querySelectorAll(sel)];
    out[sel] = {count: els.length, visible: els.filter((el) => getComputedStyle(el).visibility === 'visible').length};
  }
  const removed = document.querySelector('.diagram g:has(> [data-node].st-removed)');
  out.removed = removed ? {
    dash: getComputedStyle(removed.querySelector('.box')).strokeDasharray,
    line: getComputedStyle(removed.querySelector('.nn')).textDecorationLine} : null;
  const look = (sel, prop) => new Set([...document.querySelectorAll(sel)].map((el) => getComputedStyle(el)[prop])).size;
  out.looks = {boxes: look('.diagram g > .box', 'fill'), edges: look('.diagram .edge', 'stroke')};  // distinct looks
  return out;
}"""


def _url(base_url: str, lang: str, n: int) -> str:
    return f"{base_url}/{lang}/?{urlencode(WALKTHROUGH[n - 1].inputs.query())}"


def _open_answer(page: Page) -> None:
    page.locator("details.walk-reveal > summary").click()
    expect(page.locator("details.walk-reveal")).to_have_attribute("open", "")


@pytest.mark.parametrize("lang", LANGS)
def test_guess_mode_hides_every_figure_until_the_answer_opens(page: Page, base_url: str, lang: str) -> None:
    goto(page, _url(base_url, lang, 8))  # the DPO step: REMOVED flags and dashed boxes would give the answer away
    before = page.evaluate(SEEN, FIGURES)
    for sel in FIGURES:
        assert before[sel]["count"] > 0 or sel in OPTIONAL, f"{sel}: not on the page at step 8"
        assert before[sel]["visible"] == before[sel]["count"], f"{sel}: hidden before guess mode"
    assert before["removed"] is not None and before["removed"]["dash"] != "none"
    assert before["removed"]["line"] == "line-through"
    assert before["looks"]["boxes"] > 1 and before["looks"]["edges"] > 1  # nodes in use or not, a lit path

    page.keyboard.press("g")
    expect(page.locator("html")).to_have_class("guess")
    during = page.evaluate(SEEN, FIGURES)
    shown = {sel: during[sel]["visible"] for sel in FIGURES if during[sel]["visible"]}
    assert shown == {}, f"visible in guess mode (elements per selector): {shown}"
    assert during["removed"] == {"dash": "none", "line": "none"}, "a REMOVED node still looks removed"
    assert during["looks"] == {"boxes": 1, "edges": 1}, "the diagram still tells which nodes are in use"
    expect(page.locator("[data-guess]")).to_be_visible()  # the prediction stays

    _open_answer(page)
    after = page.evaluate(SEEN, FIGURES)
    for sel in FIGURES:
        assert after[sel]["visible"] == after[sel]["count"], f"{sel}: still hidden with the answer open"
    assert after["removed"] == before["removed"] and after["looks"] == before["looks"]


def test_guess_mode_lasts_to_the_next_step_and_hides_its_figures(page: Page, base_url: str) -> None:
    goto(page, _url(base_url, "en", 4))
    page.keyboard.press("g")
    page.locator("[data-walk=next]").click()
    expect(page.locator("article[data-walk-step]")).to_have_attribute("data-walk-step", "5")
    page.guard.settle(page)
    expect(page.locator("html")).to_have_class("guess")
    seen = page.evaluate(SEEN, ["[data-meter-value]"])
    assert seen["[data-meter-value]"]["visible"] == 0


@pytest.mark.parametrize("lang", LANGS)
def test_a_choice_guess_is_shown_beside_the_answer_with_the_models_verdict(page: Page, base_url: str,
                                                                            lang: str) -> None:
    goto(page, _url(base_url, lang, 5))
    s = evaluate(WALKTHROUGH[4].inputs).step
    phases = {"gen": s.generation_s, "score": s.scoring_s, "train": s.training_s}
    longest = max(phases, key=phases.get)
    wrong = next(k for k in phases if k != longest)
    box = page.locator("[data-guess]")
    expect(box).to_have_attribute("data-guess", "choice")
    box.locator(f"input[value={wrong}]").check()
    box.locator("[data-guess-commit]").click()
    expect(box).to_have_attribute("data-guessed", wrong)
    result = page.locator("[data-guess-result]")
    expect(result).to_be_hidden()  # inside the closed answer
    _open_answer(page)
    expect(result.locator(f'[data-guess-verdict="{wrong}"]')).to_be_visible()
    expect(result.locator(f'[data-guess-verdict="{longest}"]')).to_be_hidden()
    shown = result.locator("[data-guess-verdict]:visible")
    expect(shown).to_have_count(1)
    assert shown.get_attribute("data-right") is None, "a wrong guess shown as right"
    # the verdict names the model's longest phase, as the page's own label for it
    label = box.locator(f"input[value={longest}] + span").inner_text()
    assert label in shown.inner_text()
    # and how far off: both phases' times, the longest as a multiple of the guess (read 37)
    assert re.search(r"\d(\.\d)?× as long|是它的 \d+(\.\d)? 倍", shown.inner_text()), shown.inner_text()


def test_an_estimate_guess_says_how_far_off_it_was(page: Page, base_url: str) -> None:
    """Step 2: "how many GPUs until it fits?" on a slider; the model's fewest GPUs is 2, a guess of 8 is 4× high."""
    min_gpus = evaluate(WALKTHROUGH[1].inputs).meters["train_memory"].figure_args["min_gpus"]  # the meter says so
    p = prediction(2)
    assert p.right.amount >= min_gpus and all(o.amount < min_gpus for o in p.options if o.amount < p.right.amount)
    goto(page, _url(base_url, "en", 2))
    box = page.locator("[data-guess]")
    slider = box.locator("input[type=range]")
    notch = next(o for o in p.options if o.amount == 4 * p.right.amount)
    slider.fill(notch.value)
    expect(box.locator("output [data-notch]:visible")).to_have_text(f"{notch.amount:g} GPUs")
    box.locator("[data-guess-commit]").click()
    expect(slider).to_be_disabled()
    _open_answer(page)
    shown = page.locator("[data-guess-result] [data-guess-verdict]:visible")
    expect(shown).to_have_count(1)
    expect(shown).to_have_text(f"Your guess: {notch.amount:g} GPUs, 4× too high: the model says {min_gpus} GPUs.")

    page.reload()  # the guess is kept for the tab: locked in, and shown when the answer opens again
    expect(page.locator("[data-guess]")).to_have_attribute("data-guessed", notch.value)
    _open_answer(page)
    expect(page.locator("[data-guess-result] [data-guess-verdict]:visible")).to_have_count(1)


@pytest.mark.parametrize("lang", LANGS)
def test_presenter_view_shows_a_large_guess_now_cue_until_the_answer_opens(open_page, base_url: str,
                                                                            lang: str) -> None:
    page = open_page(viewport={"width": 1920, "height": 1080})
    goto(page, _url(base_url, lang, 12) + "&present=1")
    cue = """() => { const s = getComputedStyle(document.querySelector('.guess-note'), '::before');
      return {text: s.content, px: parseFloat(s.fontSize), shown: s.display !== 'none' && s.content !== 'none'}; }"""
    page.keyboard.press("g")
    # guess mode is html.guess: the prediction box's frame and margins are the fieldset's, not the page's
    frame = page.evaluate("(() => { const s = getComputedStyle(document.documentElement); return [s.borderTopStyle, s.marginTop]; })()")
    assert frame == ["none", "0px"], f"guess mode frames the page: {frame}"
    now = page.evaluate(cue)
    assert now["shown"] and now["text"] == f'"{load_catalogue(lang)["guess.now"]}"'
    assert now["px"] >= 36, f"the cue is {now['px']} px at 1080p"
    _open_answer(page)
    assert not page.evaluate(cue)["shown"], "the cue stays with the answer open"
    assert page.evaluate("document.documentElement.scrollHeight") <= 1082


def test_a_guess_chip_clicked_gives_the_arrow_keys_back(page: Page, base_url: str) -> None:
    goto(page, _url(base_url, "en", 11))
    page.locator("[data-guess] input[value=slower]").click()  # the chip's input covers it
    expect(page.locator("[data-guess] input[value=slower]")).to_be_checked()
    page.keyboard.press("ArrowRight")  # the next step, not the other chip
    expect(page.locator("article[data-walk-step]")).to_have_attribute("data-walk-step", "12")


HEADER = """() => { const h = document.querySelector('.site-head').getBoundingClientRect(), b = document.querySelector('#guess-toggle');
  return {height: h.height, toggle: b.getBoundingClientRect().width, label: b.innerText.trim(), pressed: b.getAttribute('aria-pressed')}; }"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", [{"width": 1440, "height": 900}, {"width": 390, "height": 844}], ids=["1440", "390"])
def test_guess_mode_does_not_move_the_header(open_page, base_url: str, lang: str, viewport: dict) -> None:
    """read36: the toggle's longer "on" label widened it and the header reflowed ~16 px at 1440 on `g`."""
    page = open_page(viewport=viewport)
    goto(page, f"{base_url}/{lang}/?{urlencode(WALKTHROUGH[0].inputs.query())}")
    off = page.evaluate(HEADER)
    page.keyboard.press("g")
    expect(page.locator("html")).to_have_class("guess")
    on = page.evaluate(HEADER)
    ui = load_catalogue(lang)
    assert (off["label"], off["pressed"]) == (ui["ui.guess_on"], "false")
    assert (on["label"], on["pressed"]) == (ui["ui.guess_off"], "true")  # the label says what a press does next
    assert on["height"] == off["height"] and on["toggle"] == off["toggle"], (off, on)
