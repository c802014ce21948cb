"""Issue 33, a handout: printing a walkthrough step prints its answer and takeaway (even with the answer shut on
screen), the step chart and the timeline, and keeps the stage line with its diagram."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from app.model.scenarios import WALKTHROUGH

from .helpers import LANGS, SHOTS, goto, state_of

pytestmark = pytest.mark.browser

PRINTED = """() => {
  const shown = (sel) => { const el = document.querySelector(sel);
    return Boolean(el) && getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().height > 0; };
  return {
    step_chart: shown('[data-chart="step_vs_gpus"] svg'), timeline: shown('[data-chart="timeline"] svg'),
    takeaway: shown('details.walk-reveal .takeaway'), answer_open: document.querySelector('details.walk-reveal').open,
    guess: shown('[data-guess]'), link: document.querySelector('.print-link code').textContent,
    shape_kept: getComputedStyle(document.getElementById('live-shape')).breakInside,
  };
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_printed_step_carries_its_answer_and_both_charts(page, base_url: str, lang: str) -> None:
    goto(page, f"{base_url}/{lang}/?{urlencode(WALKTHROUGH[10].inputs.query())}")
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")  # what the browser sends before it prints
    printed = page.evaluate(PRINTED)
    assert printed.pop("link") == page.url, "the printed link is not the state's whole address"
    assert printed == {"step_chart": True, "timeline": True, "takeaway": True, "answer_open": True, "guess": False,
                       "shape_kept": "avoid"}
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    page.emulate_media(media="screen")
    assert page.evaluate("document.querySelector('details.walk-reveal').open") is False, "the answer stays open"


# --- the handout's whole address and its QR code (issue 33 item 6) -------------------------------------------------

HANDOUT = """() => {
  const box = (sel) => { const el = document.querySelector(sel); if (!el) return null;
    const b = el.getBoundingClientRect(); return {shown: getComputedStyle(el).display !== 'none' && b.height > 0, w: b.width, h: b.height}; };
  const figure = document.getElementById('handout-qr');
  return {qr: box('#handout-qr svg.qr'), link: box('#handout-link'), url: document.querySelector('#handout-link').textContent,
          svg: (figure.querySelector('.handout-qr-code path.qrline') || {getAttribute: () => ''}).getAttribute('d'), query: figure.dataset.query,
          stale: figure.classList.contains('stale'),
          step_chart: box('[data-chart="step_vs_gpus"] svg'), timeline: box('[data-chart="timeline"] svg')};
}"""


def _qr_of(url: str) -> str:
    """The modules of ``url``'s QR code as the server draws them (the dark path's outline)."""
    from app.view.handout import qr_svg

    return re.search(r'class="qrline"[^>]* d="([^"]+)"', str(qr_svg(url))).group(1)


@pytest.mark.parametrize("lang", LANGS)
def test_the_handout_prints_the_whole_address_and_its_qr_code(page, base_url: str, lang: str) -> None:
    url = f"{base_url}/{lang}/?{urlencode(WALKTHROUGH[6].inputs.query())}"
    goto(page, url)
    screen = page.evaluate(HANDOUT)
    assert not screen["qr"]["shown"] and not screen["link"]["shown"], "the handout shows on screen"
    page.emulate_media(media="print")
    printed = page.evaluate(HANDOUT)
    assert printed["url"] == page.url == url, "the printed address is not the state's whole address"
    assert printed["url"].startswith(base_url + "/")
    assert printed["qr"]["shown"] and printed["link"]["shown"]
    assert printed["qr"]["w"] >= 120 and printed["qr"]["h"] >= 120, printed["qr"]  # 3.5 cm = 132 CSS px
    # the code is segno's of exactly that address, nothing else (the modules the server draws for it)
    assert printed["svg"] == _qr_of(printed["url"])
    assert printed["step_chart"]["shown"] and printed["timeline"]["shown"], "the charts do not print"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.pdf(path=str(SHOTS / f"handout-{lang}-step7.pdf"), format="A4", print_background=False)
    page.set_viewport_size({"width": 794, "height": 1123})  # an A4 page at 96 dpi, for a person to look at
    page.screenshot(path=str(SHOTS / f"handout-{lang}-step7-print.png"), full_page=True)


def test_after_a_move_the_printed_address_and_code_follow_the_state(page, base_url: str) -> None:
    """A partial does not carry the handout: once the moves settle, its address and code are fetched together (one
    request), and until then a printed handout leaves the old code out."""
    goto(page, f"{base_url}/en/")
    page.locator("input.ladder[data-for=in-rollouts]").focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('handout-qr').classList.contains('stale')")
    page.emulate_media(media="print")
    meanwhile = page.evaluate(HANDOUT)  # (on a slow machine the new block may already be here: then it is not stale)
    assert not (meanwhile["stale"] and meanwhile["qr"]["shown"]), "a stale code prints"
    page.wait_for_function("() => document.getElementById('handout-link').textContent.includes('rollouts=640')"
                           " && !document.getElementById('handout-qr').classList.contains('stale')", timeout=5_000)
    done = page.evaluate(HANDOUT)
    # the same state as the address bar's (the form writes its fields in the form's order, the handout canonically)
    assert state_of(done["url"]) == state_of(page.url) and done["url"].startswith(base_url + "/en/?")
    assert done["qr"]["shown"] and done["svg"] == _qr_of(done["url"])


@pytest.mark.parametrize("lang", LANGS)
def test_every_step_prints_on_two_sheets(page, base_url: str, lang: str) -> None:
    """Read 37: en steps 11 and 12 printed a blank third A4 sheet (the page's bottom padding spilled over a full
    second one).  Sheet one: the link, the code, the step and its answer; sheet two: the stage, its diagram, the
    meters and both charts."""
    sheets = {}
    for w in WALKTHROUGH:
        goto(page, f"{base_url}/{lang}/?{urlencode(w.inputs.query())}")
        page.emulate_media(media="print")
        pdf = page.pdf(format="A4", print_background=False)
        sheets[w.number] = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        page.emulate_media(media="screen")
    assert {n: k for n, k in sheets.items() if k != 2} == {}
