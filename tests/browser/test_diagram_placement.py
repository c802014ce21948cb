"""Issue 33, the GPU split drawn on the diagram: the frames round the working nodes and the key of GPU groups follow
a move of the placement control and of the GPU count (a partial swaps them like any region), and in presenter view
at 1920 × 1080 the key's lines are at least 20 px tall, as the flags are."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from app.model import evaluate
from app.model.scenarios import WALKTHROUGH

from .helpers import LANGS, goto, open_groups, shoot, url_has, wait_url

pytestmark = pytest.mark.browser

FULL_HD = {"width": 1920, "height": 1080}

DRAWN = """() => {
  const svg = document.querySelector('#dg-placement');
  const vw = window.innerWidth, vh = window.innerHeight;
  const lines = [...svg.querySelectorAll('.gkey text')];
  return {
    placement: svg.dataset.placement,
    frames: [...svg.querySelectorAll('[data-frame]')].map((f) => [f.dataset.frame, f.getAttribute('class')]),
    key: lines.map((t) => t.textContent.trim()),
    line_px: Math.min(...lines.map((t) => t.getBoundingClientRect().height)),
    in_view: lines.every((t) => { const b = t.getBoundingClientRect(); return b.top >= 0 && b.bottom <= vh && b.right <= vw; }),
    visible: getComputedStyle(svg).visibility,
  };
}"""


def _drawn(page: Page) -> dict:
    return page.evaluate(DRAWN)


def test_the_split_follows_the_placement_control_and_the_gpu_count(page: Page, base_url: str) -> None:
    goto(page, f"{base_url}/en/")  # the default: colocated on 8 GPUs
    first = _drawn(page)
    assert first["placement"] == "colocated" and first["key"][:2] == ["Colocated", "8 GPUs in turns"]
    assert {cls for _, cls in first["frames"]} == {"gf-all"}
    open_groups(page)
    page.locator('#workload input[name=placement][value=separate]').check(force=True)
    wait_url(page, url_has("placement", "separate"), "placement: separate")
    page.guard.settle(page)
    expect(page.locator("#dg-placement")).to_have_attribute("data-placement", "separate")
    split = _drawn(page)
    assert split["key"][0::2][:3] == ["Generation", "Scoring", "Training"]
    assert dict(split["frames"])["rollout_gen"] == "gf-generation"
    assert dict(split["frames"])["policy_update"] == "gf-training"
    p = evaluate(WALKTHROUGH[3].inputs).plan  # step 4: the same workload, separate on 8 GPUs
    assert split["key"][1] == f"vLLM · {p.groups.generation} GPU" + ("s" if p.groups.generation != 1 else "")
    gpus = page.locator("#workload input[type=number][name=gpus]")
    gpus.fill("32")
    gpus.dispatch_event("input")
    wait_url(page, url_has("gpus", "32"), "gpus 8 → 32")
    page.guard.settle(page)
    more = _drawn(page)
    assert more["key"] != split["key"], "the key did not follow the GPU count"
    total = sum(int(line.split()[-2]) for line in more["key"][1::2][:3])
    assert total <= 32


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", [4, 10, 11])  # a split of 8; colocated; a split of 16
def test_the_split_reads_from_the_back_of_the_room(open_page, base_url: str, lang: str, n: int) -> None:
    page = open_page(viewport=FULL_HD)
    goto(page, f"{base_url}/{lang}/?{urlencode(WALKTHROUGH[n - 1].inputs.query())}&present=1")
    got = _drawn(page)
    assert got["key"] and got["visible"] == "visible"
    assert got["line_px"] >= 20, f"step {n}: the GPU key's lines are {got['line_px']:.1f} px tall"
    assert got["in_view"], f"step {n}: the GPU key is off the screen"
    shoot(page, f"placement-{lang}-1920-step{n}", full_page=False)


def test_guessing_hides_the_split_until_the_answer_opens(page: Page, base_url: str) -> None:
    goto(page, f"{base_url}/en/?{urlencode(WALKTHROUGH[10].inputs.query())}")  # step 11 asks for the split
    page.keyboard.press("g")
    expect(page.locator("html")).to_have_class("guess", timeout=3_000)
    assert _drawn(page)["visible"] == "hidden"
    page.locator(".walk-reveal > summary").first.click()
    assert _drawn(page)["visible"] == "visible"
