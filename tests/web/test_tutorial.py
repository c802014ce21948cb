"""The tutorial: every lab link opens the stage its title names; both languages have the same shape."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from markdown_it import MarkdownIt
from support.html import parse
from support.urls import LANGS, query_of

from app import templating
from app.model import evaluate, normalise
from app.model.stages import STAGE_IDS
from app.tutorial import lab_links, tutorial_path


def _source(lang: str) -> str:
    return tutorial_path(lang).read_text(encoding="utf-8")


def _h2_count(lang: str) -> int:
    tokens = MarkdownIt("commonmark").enable("table").parse(_source(lang))
    return sum(1 for t in tokens if t.type == "heading_open" and t.tag == "h2")


LINKS = [(lang, k, url, title) for lang in LANGS for k, (url, title) in enumerate(lab_links(_source(lang)))]


def test_the_tutorials_have_lab_links():
    assert len(LINKS) >= 2 * 10


@pytest.mark.parametrize(("lang", "k", "url", "title"), LINKS, ids=[f"{lang}-{k}" for lang, k, _, _ in LINKS])
def test_lab_link_is_valid_and_opens_its_stage(lang, k, url, title):
    assert urlsplit(url).path == f"/{lang}/", "a link points at the lab in its own language"
    assert title in STAGE_IDS, f"link {k}: title {title!r} is not a stage id"
    query = {name: [value] for name, value in query_of(url).items()}
    inputs, notices = normalise(query)
    assert notices == ()
    assert evaluate(inputs).stage == title


@pytest.mark.parametrize("lang", LANGS)
def test_lab_links_open_their_stage_over_http(client, lang):
    for url, title in lab_links(_source(lang)):
        stages = parse(client.get(url).text).having("data-stage")
        assert [e.get("data-stage") for e in stages] == [title], url


def test_both_languages_have_the_same_sections():
    assert _h2_count("zh") == _h2_count("en") > 5


def test_both_languages_have_the_same_links_in_the_same_order():
    zh = [(urlsplit(u).query, t) for u, t in lab_links(_source("zh"))]
    en = [(urlsplit(u).query, t) for u, t in lab_links(_source("en"))]
    assert zh == en


@pytest.mark.parametrize("lang", LANGS)
def test_tutorial_page_has_toc_and_glossary(client, lang):
    r = client.get(f"/{lang}/tutorial")
    assert r.status_code == 200
    doc = parse(r.text)
    toc = [e for e in doc.tags("nav") if "toc" in (e.get("class") or "").split()]
    assert len(toc) == 1
    anchors = [e.get("href")[1:] for e in doc.tags("a") if (e.get("href") or "").startswith("#sec-")]
    nav = r.text[r.text.index('<nav class="toc"'):r.text.index("</nav>", r.text.index('<nav class="toc"'))]
    toc_anchors = re.findall(r'href="#(sec-[\d-]+)"', nav)
    assert len([a for a in toc_anchors if a.count("-") == 1]) == _h2_count(lang)
    for anchor in anchors:  # the contents and the reading paths alike
        assert doc.by_id(anchor) is not None, f"TOC entry #{anchor} has no target"
    glossary = doc.by_id("glossary")
    assert glossary is not None
    assert "#glossary" in {e.get("href") for e in doc.tags("a")}
    assert templating.GLOSSARY, "the glossary has entries"
    for g in templating.GLOSSARY:
        assert doc.by_id(f"g-{g['id']}") is not None, g["id"]
        assert g[lang]["term"] in glossary.text
    links = doc.having("data-stage-link")
    assert len(links) == len(lab_links(_source(lang)))
    assert all(e.get("data-stage-link") in STAGE_IDS for e in links)


@pytest.mark.parametrize("lang", LANGS)
def test_tutorial_language_switch_and_back_link(client, lang):
    doc = parse(client.get(f"/{lang}/tutorial").text)
    other = "en" if lang == "zh" else "zh"
    switch = doc.having("hreflang", other, tag="a")
    assert len(switch) == 1 and switch[0].get("href") == f"/{other}/tutorial"
    assert f"/{lang}/" in {e.get("href") for e in doc.tags("a")}
