"""The compile-time whitespace pass (app/htmlspace.py) changes nothing but unrendered white space.

* every template compiles to the same tokens with and without it, except white space inside literal text;
* it keeps what renders: line breaks between inline pieces, runs without a line break, <pre>/<textarea>/<script>
  content, attribute values;
* the stylesheet does not make any tag the pass treats as block-level inline.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from jinja2 import Environment, FileSystemLoader

from app import view
from app.htmlspace import BLOCK, CollapseWhitespace

TEMPLATES = Path(view.ROOT) / "templates"
CSS = (Path(view.ROOT) / "static" / "app.css").read_text(encoding="utf-8")


def _env(*extensions) -> Environment:
    return Environment(loader=FileSystemLoader(TEMPLATES), trim_blocks=True, lstrip_blocks=True,
                       extensions=list(extensions))


def _tokens(env: Environment, name: str) -> list[tuple[str, str]]:
    source = env.loader.get_source(env, name)[0]
    stream = env._tokenize(source, name)  # the token stream after extensions' filter_stream
    return [(t.type, t.value) for t in stream]


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("name", sorted(p.name for p in TEMPLATES.glob("*.html")))
def test_only_white_space_in_literal_text_changes(name: str) -> None:
    plain, packed = _tokens(_env(), name), _tokens(_env(CollapseWhitespace), name)
    assert [t for t, _ in plain] == [t for t, _ in packed], "the template's structure changed"
    for (kind, a), (_, b) in zip(plain, packed, strict=True):
        if kind == "data":
            assert _squeeze(a) == _squeeze(b), f"{name}: more than white space changed in {a!r}"
        else:
            assert a == b


def _pack(source: str) -> str:
    return Environment(extensions=[CollapseWhitespace]).from_string(source).render()


def test_white_space_beside_blocks_goes_and_between_inline_pieces_stays() -> None:
    assert _pack("<div>\n  <p>a</p>\n  <p>b</p>\n</div>") == "<div><p>a</p><p>b</p></div>"
    assert _pack("<li>\n  <span>a</span>\n  <b>b</b>\n</li>") == "<li><span>a</span>\n<b>b</b></li>"
    assert _pack("<span>a</span> <b>b</b>") == "<span>a</span> <b>b</b>"  # no line break: untouched
    assert _pack("text\n  {{ x }}\n  more") == "text\n\nmore"  # unknown output beside it: one line break each
    assert _pack("<svg class=\"x\">\n  <g>\n <rect/>\n </g>\n</svg>\n<span>") == "<svg class=\"x\"><g><rect/></g></svg>\n<span>"


def test_inside_tags_and_raw_text_nothing_that_matters_changes() -> None:
    assert _pack('<form id="f"\n      hx-get="/x">') == '<form id="f" hx-get="/x">'
    assert _pack('<p title="a\n   b">x</p>') == '<p title="a\n   b">x</p>'
    assert _pack("<pre>\n  a\n    b\n</pre>\n<p>") == "<pre>\n  a\n    b\n</pre><p>"
    assert _pack("<textarea>\n  a\n</textarea>") == "<textarea>\n  a\n</textarea>"
    assert _pack("<script>\n  if (a < b) {\n  }\n</script>") == "<script>\n  if (a < b) {\n  }\n</script>"
    assert _pack("<!-- a\n   b -->\n<span>") == "<!-- a\n   b -->\n<span>"


INLINE_DISPLAY = re.compile(r"([^{}]+)\{[^}]*display:\s*inline", re.S)


def test_the_stylesheet_keeps_block_tags_block() -> None:
    """A rule that makes an element inline must not target a tag the pass treats as block: by its tag name, or by a
    class that a block-level tag carries on the rendered pages."""
    inline_classes: set[str] = set()
    for selectors in INLINE_DISPLAY.findall(CSS):
        for selector in selectors.split(","):
            if "::" in selector:
                continue  # a pseudo-element's box, not the element's
            last = re.split(r"[\s>+~]+", selector.strip())[-1]
            tag = re.match(r"[a-z][a-z0-9]*", last)
            assert not (tag and tag.group() in BLOCK), f"{selector.strip()} makes a block tag inline"
            inline_classes |= set(re.findall(r"\.([\w-]+)", last))
    assert inline_classes, "the check found no inline rules at all: the pattern is stale"
    from fastapi.testclient import TestClient

    from app.main import app

    client = TestClient(app)
    for url in ("/en/", "/zh/?method=dpo&gpus=1", "/en/compare", "/zh/tutorial", "/en/nowhere"):
        html = client.get(url).text
        for tag, attrs in re.findall(r"<([a-z][a-z0-9]*)\b([^>]*)>", html):
            if tag in BLOCK:
                classes = set((re.search(r'class="([^"]*)"', attrs) or [None, ""])[1].split())
                assert not classes & inline_classes, f"<{tag} class={classes}> is made inline by the stylesheet ({url})"
