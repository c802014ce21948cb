"""Indentation out of the templates' markup, once, when a template is compiled (no cost per render).

A Jinja extension rewrites the template's literal text (its ``data`` tokens, after ``trim_blocks`` and
``lstrip_blocks``): a run of whitespace is

* dropped where it touches the outside of a block-level tag or the inside of a box that starts its own
  formatting context (``<div>``, ``</li>``, ``<g>``, the start of an ``<svg>`` or ``<button>``…): such whitespace
  is never rendered;
* otherwise, if it holds a line break (next to inline markup, text, or a ``{{ … }}`` / ``{% … %}`` whose output
  is not known here), cut to that one line break, which renders exactly as the run did (white space collapses);
* inside a tag, between attributes, cut to one space.

Other runs, the inside of ``<pre>``, ``<textarea>``, ``<script>``, ``<style>``, comments and
attribute values are left alone, and so is everything that ``{{ … }}`` outputs.  Rendering is unchanged; the
stylesheet makes none of the block-level tags below inline (checked in tests/web/test_htmlspace.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream

# whitespace beside these tags, inside or outside, is never rendered: block-level HTML (the stylesheet keeps
# them block, flex, grid, list-item or table boxes) and SVG elements (text in an SVG container is not drawn)
BLOCK = frozenset({
    "html", "head", "body", "address", "article", "aside", "blockquote", "details", "dialog", "dd", "div", "dl",
    "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "legend", "li", "main", "nav", "ol", "p", "section", "summary", "table", "caption", "thead", "tbody", "tfoot",
    "tr", "td", "th", "ul", "g", "defs", "marker", "rect", "path", "line", "circle", "polygon", "polyline", "text",
    "title", "desc",
})
# whitespace just inside these is never rendered (their content is its own box); outside it is
INSIDE = frozenset({"svg", "button", "select", "meter"})
RAW = frozenset({"pre", "textarea", "script", "style"})

_WS = re.compile(r"[ \t\r\n\f]+")
_NEXT_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)")


class _Scanner:
    """Walks one template's literal text, token by token, remembering whether it is inside a tag."""

    def __init__(self) -> None:
        self.mode = "text"  # text | tag | quote | comment | decl | raw
        self.quote = ""
        self.tag = ""  # name of the tag being read (mode "tag") or of the raw element (mode "raw")
        self.closing = False
        self.last = None  # (name, closing) of the tag whose ">" was the last character emitted, else None

    def feed(self, s: str) -> str:
        out: list[str] = []
        i, n = 0, len(s)
        while i < n:
            c = s[i]
            if self.mode == "text":
                m = _WS.match(s, i)
                if m:
                    run = m.group()
                    j = m.end()
                    if self._removable(s, j):
                        run = ""
                    elif "\n" in run:
                        run = "\n"
                    out.append(run)
                    self.last = None
                    i = j
                    continue
                if c == "<":
                    m = _NEXT_TAG.match(s, i)
                    if m:
                        self.mode, self.closing, self.tag = "tag", bool(m.group(1)), m.group(2).lower()
                        out.append(m.group())
                        i = m.end()
                        continue
                    if s.startswith("<!--", i):
                        self.mode = "comment"
                    elif s.startswith("<!", i):
                        self.mode = "decl"
                out.append(c)
                self.last = None
                i += 1
            elif self.mode == "tag":
                m = _WS.match(s, i)
                if m:
                    out.append(" " if "\n" in m.group() else m.group())
                    i = m.end()
                    continue
                if c in "\"'":
                    self.mode, self.quote = "quote", c
                elif c == ">":
                    self.last = (self.tag, self.closing)
                    void = s[i - 1:i] == "/"
                    self.mode = "raw" if self.tag in RAW and not self.closing and not void else "text"
                    out.append(c)
                    i += 1
                    continue
                out.append(c)
                i += 1
            elif self.mode == "quote":
                j = s.find(self.quote, i)
                if j < 0:
                    out.append(s[i:])
                    break
                out.append(s[i:j + 1])
                self.mode = "tag"
                i = j + 1
            elif self.mode in ("comment", "decl", "raw"):
                end = {"comment": "-->", "decl": ">", "raw": f"</{self.tag}"}[self.mode]
                j = s.lower().find(end, i)
                if j < 0:
                    out.append(s[i:])
                    break
                if self.mode == "raw":
                    out.append(s[i:j])
                    self.mode = "text"
                    i = j
                    continue
                out.append(s[i:j + len(end)])
                self.mode = "text"
                self.last = None
                i = j + len(end)
        return "".join(out)

    def _removable(self, s: str, j: int) -> bool:
        """Is the whitespace run ending at s[j] beside a tag that makes it unrendered?"""
        if self.last is not None:
            name, closing = self.last
            if name in BLOCK or (name in INSIDE and not closing):
                return True
        m = _NEXT_TAG.match(s, j)
        if m:
            name, closing = m.group(2).lower(), bool(m.group(1))
            if name in BLOCK or (name in INSIDE and closing):
                return True
        return False

    def between_tokens(self) -> None:
        """A ``{{ … }}`` or ``{% … %}`` sits between two pieces of text: what came before it is unknown."""
        self.last = None


class CollapseWhitespace(Extension):
    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        scanner = _Scanner()
        for token in stream:
            if token.type == "data":
                yield Token(token.lineno, "data", scanner.feed(token.value))
            else:
                if token.type in ("variable_begin", "block_begin"):
                    scanner.between_tokens()
                yield token
