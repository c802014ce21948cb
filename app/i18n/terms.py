"""Words defined where used: one mechanism that turns a piece of jargon into a link to its glossary entry, with the
entry's short definition as a hover or tap title.

Two ways in, one rendering (``term_html``):

- in a template, ``{{ 'KV cache'|term('kv_cache') }}`` (the ``term`` filter, app/templating.py);
- in a catalogue text, ``[[kv_cache|KV cache]]`` (glossary id, then the words the sentence shows).  The translator
  renders it as the link in a markup text (``|tm``) and as the bare words in a plain one (``|t``, attributes).

The link is ``<a class="term" href="/{lang}/reference#g-{id}" title="{short definition}">{words}</a>``: the
reference page holds the full glossary, each entry at the anchor ``g-<id>``.  The definitions live in
app/content/glossary.json (both languages): an entry's ``short`` when it has one, otherwise its definition's first
sentence.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from markupsafe import Markup

GLOSSARY_PATH = Path(__file__).resolve().parents[1] / "content" / "glossary.json"

# [[id|words]]: a glossary id (lower case, digits, underscores) and the words shown (no bracket or bar in them)
TERM = re.compile(r"\[\[([a-z0-9_]+)\|([^\[\]|]+)\]\]")


@cache
def glossary() -> tuple[dict, ...]:
    return tuple(json.loads(GLOSSARY_PATH.read_text(encoding="utf-8")))


@cache
def _by_id() -> dict[str, dict]:
    return {g["id"]: g for g in glossary()}


def term_ids() -> frozenset[str]:
    return frozenset(_by_id())


_SENTENCE_END = {"en": re.compile(r"(?<=[.;])\s"), "zh": re.compile(r"(?<=[。；])")}


@cache
def short_definition(term_id: str, lang: str) -> str:
    """The entry's one-line definition (its ``short``, else its definition up to the first full stop or
    semicolon).  Raises KeyError for an unknown id: a link to nowhere is a bug.

    >>> short_definition("kv_cache", "en").startswith("The attention keys and values")
    True
    """
    entry = _by_id()[term_id][lang]
    if entry.get("short"):
        return entry["short"]
    first = _SENTENCE_END[lang].split(entry["def"], maxsplit=1)[0].strip().rstrip(";；.。")
    return first + ("。" if lang == "zh" else ".")


def term_html(words: str, term_id: str, lang: str) -> Markup:
    """The link: the words as the sentence shows them, to the entry ``g-<id>`` of the reference page."""
    return Markup('<a class="term" href="/{}/reference#g-{}" title="{}">{}</a>').format(
        lang, term_id, short_definition(term_id, lang), words)


def link_terms(text: str, lang: str) -> str:
    """A catalogue text with each ``[[id|words]]`` made a link.  The text is a ``str.format`` template whose literal
    parts are already markup, so the inserted link doubles its braces and leaves the words as written (they are
    catalogue text, not input)."""
    def one(m: re.Match[str]) -> str:
        link = str(term_html(Markup(m.group(2)), m.group(1), lang))
        return link.replace("{", "{{").replace("}", "}}")
    return TERM.sub(one, text)


def strip_terms(text: str) -> str:
    """A catalogue text with each ``[[id|words]]`` read as its words (for plain text: attributes, titles)."""
    return TERM.sub(lambda m: m.group(2), text)


def terms_in(text: str) -> list[str]:
    """The glossary ids a catalogue text links, in order."""
    return [m.group(1) for m in TERM.finditer(text)]


__all__ = ["TERM", "glossary", "link_terms", "short_definition", "strip_terms", "term_html", "term_ids",
           "terms_in"]
