"""Words defined where used: jargon in the walkthrough, the meters, the estimates and the cards is a link to its
glossary entry on the reference page, with a short definition to hover or tap (app/i18n/terms.py)."""

from __future__ import annotations

import html
import json
import re

import pytest
from support.urls import LANGS, STATES, lab_path

from app import templating
from app.i18n import catalogue, translator
from app.i18n.terms import GLOSSARY_PATH, TERM, short_definition, term_html, term_ids, terms_in
from app.model import DEFAULTS
from app.model.scenarios import walk_figures

LINK = re.compile(r'<a class="term" href="/(zh|en)/reference#g-([a-z0-9_]+)" title="([^"]*)">([^<]+)</a>')
HAN = re.compile(r"[\u4e00-\u9fff]")
# the words the issue names (GPU-s, ZeRO-3, TP, PP, EP, refit, KV cache, roofline, staleness, critic, reference
# model, verifier, MoE, FSDP, Megatron, offload, LoRA): each has an entry
NAMED = {"gpu_seconds", "zero3", "tensor_parallel", "pipeline_parallel", "expert_parallel", "refit", "kv_cache",
         "roofline", "staleness", "critic", "reference_model", "verifier", "moe", "fsdp", "megatron", "offload", "lora"}


def test_the_glossary_has_an_entry_for_every_named_word_in_both_languages():
    entries = {g["id"]: g for g in json.loads(GLOSSARY_PATH.read_text(encoding="utf-8"))}
    assert set(entries) >= NAMED, sorted(NAMED - set(entries))
    for i in NAMED:
        for lang in LANGS:
            assert entries[i][lang]["term"] and entries[i][lang]["def"]
            assert 10 < len(short_definition(i, lang)) <= 160, (i, lang, short_definition(i, lang))
    assert all(HAN.search(short_definition(i, "zh")) and not HAN.search(short_definition(i, "en")) for i in NAMED)


def test_every_term_in_a_catalogue_names_an_entry_and_both_languages_link_the_same_ones():
    zh, en = catalogue("zh"), catalogue("en")
    unknown = sorted({(k, i) for cat in (zh, en) for k, v in cat.items() for i in terms_in(v) if i not in term_ids()})
    assert unknown == []
    assert [k for k in en if sorted(terms_in(en[k])) != sorted(terms_in(zh[k]))] == []
    assert sum(1 for v in en.values() if TERM.search(v)) >= 30  # the mechanism is used, not only defined


def test_the_term_filter_and_the_catalogue_syntax_render_one_link():
    env = templating.ENVS["en"]
    by_filter = env.from_string("{{ 'KV cache'|term('kv_cache') }}").render()
    assert by_filter == str(term_html("KV cache", "kv_cache", "en"))
    m = LINK.fullmatch(by_filter)
    assert m and m.group(1, 2, 4) == ("en", "kv_cache", "KV cache") and m.group(3) == short_definition("kv_cache", "en")
    with pytest.raises(KeyError):
        term_html("x", "no_such_term", "en")


@pytest.mark.parametrize("lang", LANGS)
def test_the_default_page_defines_at_least_15_words_where_they_are_used(client, lang):
    body = client.get(lab_path(lang, DEFAULTS)).text
    links = LINK.findall(body)
    assert len({i for _, i, _, _ in links}) >= 15, sorted({i for _, i, _, _ in links})
    assert {ln for ln, _, _, _ in links} == {lang}
    for _, i, title, _ in links:  # the title is the entry's short definition, in the page's language
        assert html.unescape(title) == short_definition(i, lang)
        assert bool(HAN.search(title)) == (lang == "zh")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("state", list(STATES))
def test_no_term_markup_leaks_onto_a_page(client, lang, state):
    body = client.get(lab_path(lang, STATES[state])).text
    assert "[[" not in body and "]]" not in body


@pytest.mark.parametrize("lang", LANGS)
def test_a_term_in_plain_text_is_its_words(lang):
    """A catalogue text read as plain text (an attribute, a title) shows the words, never the link or the markup;
    the same text as markup shows the link."""
    t = translator(lang)
    plain, linked = t("walk.4.reveal", **walk_figures(4)), str(t.markup("walk.4.reveal", **walk_figures(4)))
    assert "[[" not in plain and "<a" not in plain and "KV cache" in plain
    assert LINK.search(linked) and re.sub(r"<[^>]+>", "", linked) == plain
