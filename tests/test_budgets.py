"""Regression guards for the speed budgets that do not depend on wall-clock time (docs/performance.md).

Sizes and counts only: the partial after a one-notch slider move, the resources the lab page references, what
can block rendering, and the compressed size of a first load.  Timing budgets are measured by benchmarks/
(run_all.sh) and reported as percentiles, never asserted: this machine is shared and noisy.
"""

from __future__ import annotations

import gzip
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from fastapi.testclient import TestClient
from support.budgets import FIRST_LOAD_MAX_BYTES, MAX_RESOURCES, PARTIAL_MAX_BYTES
from support.urls import default_moves, lab_path, random_moves

LANGS = ("en", "zh")
BASE = "http://testserver"

RANDOM_MOVES = 150  # per language: one-notch moves from seeded random states (other inputs off their defaults)


class Resources(HTMLParser):
    """What a JS-enabled browser fetches from the HTML (<noscript> content is ignored: it loads only without JS)."""

    def __init__(self) -> None:
        super().__init__()
        self.noscript = 0
        self.scripts: list[dict[str, str | None]] = []
        self.stylesheets: list[dict[str, str | None]] = []
        self.fetched: list[str] = []  # every subresource URL

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "noscript":
            self.noscript += 1
            return
        if self.noscript:
            return
        if tag == "script":
            self.scripts.append(a)
            if a.get("src"):
                self.fetched.append(a["src"])
        elif tag == "link" and a.get("href"):
            rel = set((a.get("rel") or "").lower().split())
            if "stylesheet" in rel:
                self.stylesheets.append(a)
            if rel & {"stylesheet", "icon", "preload", "modulepreload", "manifest", "apple-touch-icon"}:
                self.fetched.append(a["href"])
        elif tag in ("img", "iframe", "embed", "source", "video", "audio", "object") and (a.get("src") or a.get("data")):
            self.fetched.append(a.get("src") or a.get("data"))

    def handle_endtag(self, tag: str) -> None:
        if tag == "noscript" and self.noscript:
            self.noscript -= 1


def page_resources(client: TestClient, lang: str) -> tuple[str, Resources]:
    r = client.get(f"/{lang}/", headers={"Accept-Encoding": "identity"})
    assert r.status_code == 200
    parsed = Resources()
    parsed.feed(r.text)
    return r.text, parsed


def same_origin(ref: str) -> bool:
    return urlsplit(urljoin(BASE + "/en/", ref)).netloc == urlsplit(BASE).netloc


def partial(client: TestClient, lang: str, before: dict[str, object], after: dict[str, object]) -> bytes:
    """The htmx partial for a move: htmx names the page's current URL in HX-Current-URL."""
    r = client.get(lab_path(lang, **after), headers={
        "HX-Request": "true", "HX-Current-URL": BASE + lab_path(lang, **before), "Accept-Encoding": "identity"})
    assert r.status_code == 200
    assert "<html" not in r.text and 'hx-swap-oob="true"' in r.text, "expected the out-of-band partial"
    return gzip.compress(r.content)  # as sent: the GZip middleware compresses a partial


@pytest.mark.parametrize("lang", LANGS)
def test_every_one_notch_move_from_the_defaults_fits_the_budget(client: TestClient, lang: str) -> None:
    moves = default_moves()
    assert len(moves) > 300, "every slider's every pair of neighbouring notches, both ways"
    sizes = {label: len(partial(client, lang, before, after)) for label, before, after in moves}
    over = {label: n for label, n in sizes.items() if n > PARTIAL_MAX_BYTES}
    assert not over, f"{len(over)} of {len(sizes)} partials over {PARTIAL_MAX_BYTES} B: {over}"


@pytest.mark.parametrize("lang", LANGS)
def test_one_notch_moves_from_random_states_fit_15_kb(client: TestClient, lang: str) -> None:
    moves = random_moves(seed=5, n=RANDOM_MOVES)
    assert len({label for label, _, _ in moves}) > RANDOM_MOVES * 0.9, "the states are spread out"
    sizes = {label: len(partial(client, lang, before, after)) for label, before, after in moves}
    over = {label: n for label, n in sizes.items() if n > PARTIAL_MAX_BYTES}
    assert not over, f"{len(over)} of {len(sizes)} partials over {PARTIAL_MAX_BYTES} B: {over}"


@pytest.mark.parametrize("lang", LANGS)
def test_lab_page_references_at_most_six_same_origin_resources(client: TestClient, lang: str) -> None:
    _, res = page_resources(client, lang)
    ours = [u for u in res.fetched if same_origin(u)]
    assert 1 + len(ours) <= MAX_RESOURCES, f"page + {ours}"
    assert [u for u in res.fetched if not same_origin(u)] == [], "a first load must not leave this origin"


@pytest.mark.parametrize("lang", LANGS)
def test_only_the_stylesheet_blocks_rendering(client: TestClient, lang: str) -> None:
    _, res = page_resources(client, lang)
    assert res.scripts, "the page has its scripts"
    for s in res.scripts:
        assert s.get("src"), f"inline script {s}: cannot be deferred"
        assert "defer" in s, f"<script src={s.get('src')}> without defer blocks parsing"
    blocking = [s["href"] for s in res.stylesheets if (s.get("media") or "all") in ("all", "screen")]
    assert len(blocking) == 1 and urlsplit(blocking[0]).path.endswith(".css"), blocking


@pytest.mark.parametrize("lang", LANGS)
def test_first_load_gzipped_fits_100_kb(client: TestClient, lang: str) -> None:
    html, res = page_resources(client, lang)
    sizes = {f"/{lang}/": len(gzip.compress(html.encode(), 6))}
    for ref in res.fetched:
        if not same_origin(ref):
            continue
        r = client.get(urlsplit(urljoin(BASE + "/", ref))._replace(scheme="", netloc="").geturl(),
                       headers={"Accept-Encoding": "identity"})
        assert r.status_code == 200, ref
        sizes[ref] = len(gzip.compress(r.content, 6))
    names = " ".join(sizes)
    assert any(".css" in k for k in sizes) and "htmx" in names and "app.js" in names and "favicon" in names, sizes
    assert sum(sizes.values()) <= FIRST_LOAD_MAX_BYTES, sizes
