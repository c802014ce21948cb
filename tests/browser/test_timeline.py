"""Issue 33, one step drawn in time: [data-chart="timeline"] is drawn from the model's step, lane by lane; it
differs between colocated and separate and between staleness 0 and 1, it follows a move of the placement control
(a partial swaps it like any region), and it has an accessible name and a text equivalent."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from app.model import evaluate
from app.model.scenarios import WALKTHROUGH
from app.model.timeline import timeline

from .helpers import LANGS, goto, open_groups, url_has, wait_url

pytestmark = pytest.mark.browser

DRAWN = """() => {
  const fig = document.querySelector('[data-chart="timeline"]');
  const svg = fig.querySelector('svg');
  const ids = (svg.getAttribute('aria-labelledby') || '').split(' ');
  return {
    lanes: [...svg.querySelectorAll('[data-lane]')].map((g) => g.dataset.lane),
    bars: [...svg.querySelectorAll('rect[data-part]')].map((r) => [r.closest('[data-lane]').dataset.lane, r.dataset.part, r.getAttribute('class'), +r.getAttribute('x'), +r.getAttribute('width')]),
    role: svg.getAttribute('role'),
    name: ids.map((id) => (document.getElementById(id) || {}).textContent || '').join(' | '),
    rows: fig.querySelectorAll('.chart-table tbody tr').length,
    box: svg.getBoundingClientRect().height,
  };
}"""


def _url(base_url: str, lang: str, n: int) -> str:
    return f"{base_url}/{lang}/?{urlencode(WALKTHROUGH[n - 1].inputs.query())}"


def _drawn(page: Page) -> dict:
    return page.evaluate(DRAWN)


@pytest.mark.parametrize("lang", LANGS)
def test_the_timeline_differs_between_colocated_split_and_one_step_ahead(page: Page, base_url: str,
                                                                          lang: str) -> None:
    seen = {}
    for n in (10, 11, 12):  # colocated; the same run split; split and one step ahead
        goto(page, _url(base_url, lang, n))
        page.guard.settle(page)  # the page's own requests (the icon) finish before the next page
        seen[n] = _drawn(page)
        t = timeline(evaluate(WALKTHROUGH[n - 1].inputs))
        assert seen[n]["lanes"] == [lane.lane for lane in t.lanes], f"step {n}"
        assert seen[n]["rows"] == sum(len(lane.segments) for lane in t.lanes), f"step {n}: the table"
        assert seen[n]["role"] == "img" and seen[n]["box"] > 40
        assert all(w > 0 for *_, w in seen[n]["bars"]), f"step {n}: an empty bar"
    assert seen[10]["lanes"] == ["all"] and seen[11]["lanes"] == ["gen", "score", "train"]
    # staleness 0 against 1 on the same split: generation is drawn for the next step, training starts earlier
    ahead = {(lane, part): (cls, x) for lane, part, cls, x, _ in seen[12]["bars"]}
    step = {(lane, part): (cls, x) for lane, part, cls, x, _ in seen[11]["bars"]}
    assert "tl-ahead" in ahead["gen", "gen"][0] and "tl-ahead" not in step["gen", "gen"][0]
    assert ahead["train", "train"][1] < step["train", "train"][1]
    # the accessible name: the title and a description that names every lane
    for n in (10, 11, 12):
        title, desc = seen[n]["name"].split(" | ")
        assert title and len(desc) > 40


def test_the_timeline_follows_the_placement_control(page: Page, base_url: str) -> None:
    goto(page, f"{base_url}/en/")  # the default: colocated
    open_groups(page)
    assert _drawn(page)["lanes"] == ["all"]
    page.locator('#workload input[name=placement][value=separate]').check(force=True)
    wait_url(page, url_has("placement", "separate"), "placement: separate")
    page.guard.settle(page)
    expect(page.locator('[data-chart="timeline"] [data-lane]')).to_have_count(3)
    assert _drawn(page)["lanes"] == ["gen", "score", "train"]


def test_the_timeline_is_drawn_on_the_server(open_page, base_url: str) -> None:
    page = open_page(java_script_enabled=False)
    goto(page, _url(base_url, "zh", 12))
    got = _drawn(page)
    assert got["lanes"] == ["gen", "score", "train"] and got["rows"] > 0
