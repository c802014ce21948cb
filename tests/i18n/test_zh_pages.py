"""Every zh page and partial as a reader sees it: no English word outside the term sheet's kept list (names,
symbols, ids and the glosses in （） included), and no half-width : ( ) , between Chinese characters.

What is not prose is left out: scripts and styles, code (<code>, <pre>, <kbd>: flags, commands, config keys), and
elements marked lang="en" (the other language's name in the language switch, the English headword beside a
glossary entry), the titles of cited works as published (<cite>, and <em> in the tutorial), and formulas
("show the math": ln(…) keeps its half-width brackets)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest

from app.model import DEFAULTS
from app.model.scenarios import PRESETS, WALKTHROUGH

from .terms import HAN
from .test_terms import english_left

SKIP = {"script", "style", "code", "pre", "kbd", "cite", "em"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "use",
        "rect", "path", "line", "marker"}


class _Text(HTMLParser):
    """The visible text of a page, in runs, without the parts that are not Chinese prose."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: does it start a skipped part
        self.skip = 0
        self.runs: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:  # noqa: ANN001
        a = dict(attrs)
        skipped = tag in SKIP or a.get("lang") == "en" or "math" in (a.get("class") or "").split()
        if tag in VOID:
            return
        self.stack.append(skipped)
        self.skip += skipped

    def handle_endtag(self, tag) -> None:  # noqa: ANN001
        if tag in VOID or not self.stack:
            return
        self.skip -= self.stack.pop()

    def handle_data(self, data) -> None:  # noqa: ANN001
        if not self.skip and data.strip():
            self.runs.append(data)


def _runs(html: str) -> list[str]:
    p = _Text()
    p.feed(html)
    return p.runs


def _q(inputs=DEFAULTS, **changes) -> str:  # noqa: ANN001
    return urlencode(inputs.query(**changes))


# The tutorial's prose is checked at its source (test_terms.py: tutorial_prose); its rendered page also carries
# the references list and the glossary table's English column, which this check does not yet tell from prose.
PAGES = [
    "/zh/", "/zh/compare", "/zh/nope",
    *(f"/zh/?{_q(p.inputs)}" for p in PRESETS),
    *(f"/zh/?{_q(w.inputs)}" for w in WALKTHROUGH),
    *(f"/zh/compare?{_q(p.inputs)}" for p in PRESETS),
    *(f"/zh/launch?{_q(p.inputs)}" for p in PRESETS),
]
HALF_WIDTH = re.compile(rf"[{HAN}][:(),]|[:(),][{HAN}]")


def _leaks(client, url: str, headers: dict | None = None) -> tuple[set[str], list[str]]:  # noqa: ANN001
    r = client.get(url, headers=headers or {})
    assert r.status_code in (200, 404), (url, r.status_code)
    runs = _runs(r.text)
    words = {w for run in runs for w in english_left(run)}
    punct = [run.strip()[:80] for run in runs if HALF_WIDTH.search(run)]
    return words, punct


@pytest.mark.parametrize("url", PAGES)
def test_a_zh_page_reads_in_chinese(client, url: str) -> None:
    words, punct = _leaks(client, url)
    assert not words, f"English on {url}: {sorted(words)}"
    assert not punct, f"half-width punctuation between Chinese on {url}: {punct}"


@pytest.mark.parametrize("change", [{"rollouts": 1024}, {"method": "grpo"}, {"method": "dpo"}, {"pairs": 0},
                                    {"staleness": 1, "placement": "separate"}, {"arch": "deepseek_v3"}])
def test_a_zh_partial_reads_in_chinese(client, change: dict) -> None:
    words, punct = _leaks(client, f"/zh/?{_q(**change)}", {
        "HX-Request": "true", "HX-Current-URL": f"http://testserver/zh/?{_q()}"})
    assert not words, f"English in the partial for {change}: {sorted(words)}"
    assert not punct, f"half-width punctuation between Chinese in the partial for {change}: {punct}"
