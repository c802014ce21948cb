"""Issue 33, phone: at 390 × 844 the diagram takes its two-column form (app.js swaps the viewBox; the positions are
app.css's block generated from app/view/diagram.py): it fits its frame with no sideways scroll, its node names are
still 11 px and more, no two node boxes overlap, and a wide screen keeps the wide form."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from app.model.scenarios import WALKTHROUGH

from .conftest import DESKTOP, PHONE
from .helpers import LANGS, goto, shoot

pytestmark = pytest.mark.browser

MEASURE = """() => {
  const wrap = document.querySelector('#stage-col .diagram-wrap');
  const svg = wrap.querySelector('svg.diagram');
  const boxes = [...svg.querySelectorAll('g[data-pos] > .box')].map((b) => b.getBoundingClientRect());
  let overlaps = 0;
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) overlaps++;
  }
  const key = [...svg.querySelectorAll('.gkey text')].map((t) => t.getBoundingClientRect());
  const frame = wrap.getBoundingClientRect();
  return {
    layout: svg.dataset.layout, scroll: wrap.scrollWidth, client: wrap.clientWidth,
    name_px: Math.min(...[...svg.querySelectorAll('.nn')].map((t) => t.getBoundingClientRect().height)),
    overlaps,
    key_inside: key.every((b) => b.left >= frame.left - 1 && b.right <= frame.right + 1),
    hint: getComputedStyle(wrap.querySelector('.scroll-hint')).display,
  };
}"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", [0, 4, 8, 10, 11])  # the default; PPO split; DPO; colocated GRPO; GRPO split
def test_the_diagram_fits_a_phone(open_page, base_url: str, lang: str, n: int) -> None:
    page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    query = urlencode(WALKTHROUGH[n - 1].inputs.query()) if n else ""
    goto(page, f"{base_url}/{lang}/?{query}")
    m = page.evaluate(MEASURE)
    assert m["layout"] == "phone"
    assert m["scroll"] <= m["client"], f"step {n}: the diagram scrolls sideways ({m['scroll']} > {m['client']} px)"
    assert m["name_px"] >= 11, f"step {n}: node names {m['name_px']:.1f} px tall"
    assert m["overlaps"] == 0 and m["key_inside"]
    assert m["hint"] == "none"  # nothing to swipe
    if n in (0, 11):
        page.locator("#stage-col .diagram-wrap").scroll_into_view_if_needed()
        shoot(page, f"diagram-{lang}-phone-step{n}", full_page=False)


def test_a_wide_screen_keeps_the_wide_form_and_a_resize_switches(open_page, base_url: str) -> None:
    page = open_page(viewport=DESKTOP)
    goto(page, f"{base_url}/en/?{urlencode(WALKTHROUGH[3].inputs.query())}")
    wide = page.evaluate(MEASURE)
    assert wide["layout"] == "wide"
    assert page.locator("svg.diagram").first.get_attribute("viewBox") == "0 0 1075 500"
    page.set_viewport_size(PHONE)
    page.wait_for_function("document.querySelector('svg.diagram').dataset.layout === 'phone'")
    page.set_viewport_size(DESKTOP)
    page.wait_for_function("document.querySelector('svg.diagram').dataset.layout === 'wide'")


def test_a_move_on_the_phone_keeps_the_phone_form(open_page, base_url: str) -> None:
    """A partial swaps the nodes, edges and the GPU key inside the diagram; the phone form stays."""
    page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    goto(page, f"{base_url}/en/?{urlencode(WALKTHROUGH[3].inputs.query())}")
    page.locator("[data-walk=next]").first.click()
    page.wait_for_url("**step=5**")
    page.guard.settle(page)
    m = page.evaluate(MEASURE)
    assert m["layout"] == "phone" and m["scroll"] <= m["client"] and m["overlaps"] == 0


@pytest.mark.parametrize("lang", LANGS)
def test_the_meter_strip_is_labelled_in_words(open_page, base_url: str, lang: str) -> None:
    """The phone's strip names each meter as its catalogue's short name (``meter.<id>.short``: "generation", not
    "gen"), the stage on a line above; it fits the screen."""
    from app.i18n import catalogue
    from app.model.meters import METER_IDS

    page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    goto(page, f"{base_url}/{lang}/?{urlencode(WALKTHROUGH[3].inputs.query())}")
    got = page.evaluate("""() => [...document.querySelectorAll('#meter-strip [data-mini-meter]')].map((e) =>
        [e.dataset.miniMeter, e.textContent.replace(e.querySelector('b').textContent, '').trim()])""")
    names = catalogue(lang)
    assert got == [[m, names[f"meter.{m}.short"]] for m in METER_IDS]
    if lang == "en":
        assert all(len(label) >= 4 and label not in ("gen", "mem", "KL") for _, label in got)
    strip = page.evaluate("(() => { const s = document.querySelector('#meter-strip'); "
                          "return [s.scrollWidth, s.clientWidth, s.getBoundingClientRect().height]; })()")
    assert strip[0] <= strip[1] and strip[2] < 70
