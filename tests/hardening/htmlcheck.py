"""A strict well-formedness checker on top of ``html.parser``: the stdlib parser never raises, so this one
records what it would have to repair (stray or mismatched end tags, unclosed elements, duplicate ids or
attributes) and what the page's Content-Security-Policy would block (inline scripts and styles, ``on*``
handlers, ``javascript:`` URLs)."""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser

VOID = frozenset(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                  "wbr"])
# Elements whose end tag HTML lets an author omit; the templates close them anyway, so only tolerate
# an implicit close when the parent closes.
OPTIONAL_END = frozenset(["p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead", "tbody", "tfoot",
                          "colgroup", "caption", "rt", "rp"])
URL_ATTRS = frozenset(["href", "src", "action", "formaction", "xlink:href", "poster", "cite", "data"])


@dataclass(frozen=True)
class Element:
    tag: str
    attrs: dict[str, str | None]
    ancestors: tuple[tuple[str, str, str], ...]  # (tag, id, class) of every open ancestor, outermost first

    def inside(self, *, id: str | None = None, cls: str | None = None) -> bool:  # noqa: A002 - mirrors HTML
        return any((id is None or a_id == id) and (cls is None or cls in a_cls.split()) for _, a_id, a_cls in
                   self.ancestors)


class StrictHTML(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, tuple[int, int]]] = []
        self.open: list[tuple[str, str, str]] = []  # parallel to stack: (tag, id, class)
        self.elements: list[Element] = []
        self.errors: list[str] = []
        self.ids: dict[str, tuple[int, int]] = {}
        self.tags: list[str] = []
        self.attr_names: set[str] = set()
        self._in_script = False
        self.doctype = False

    # --- parser callbacks ---------------------------------------------------------------------------------

    def handle_decl(self, decl: str) -> None:
        if decl.lower() == "doctype html":
            self.doctype = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._attrs(tag, attrs)
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))
            a = dict(attrs)
            self.open.append((tag, a.get("id") or "", a.get("class") or ""))
        self._in_script = tag == "script"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._attrs(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False
        if tag in VOID:
            self.errors.append(f"end tag for void element </{tag}> at {self.getpos()}")
            return
        names = [t for t, _ in self.stack]
        if tag not in names:
            self.errors.append(f"stray end tag </{tag}> at {self.getpos()}")
            return
        while self.stack:
            open_tag, pos = self.stack.pop()
            self.open.pop()
            if open_tag == tag:
                return
            if open_tag not in OPTIONAL_END:
                self.errors.append(f"<{open_tag}> opened at {pos} closed implicitly by </{tag}> at {self.getpos()}")

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.errors.append(f"inline script at {self.getpos()} (blocked by CSP script-src 'self')")

    # --- helpers --------------------------------------------------------------------------------------------

    def find(self, tag: str | None = None, **attrs: str | None) -> list[Element]:
        """Elements with that tag (any if None) carrying each given attribute (value None: any value);
        attribute names use ``_`` for ``-`` (``data_meter="kl_risk"``)."""
        want = {k.replace("_", "-"): v for k, v in attrs.items()}
        return [e for e in self.elements if (tag is None or e.tag == tag)
                and all(k in e.attrs and (v is None or e.attrs[k] == v) for k, v in want.items())]

    def _attrs(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.elements.append(Element(tag, dict(attrs), tuple(self.open)))
        seen: set[str] = set()
        for name, value in attrs:
            self.attr_names.add(name)
            if name in seen:
                self.errors.append(f"duplicate attribute {name!r} on <{tag}> at {self.getpos()}")
            seen.add(name)
            if name.startswith("on"):
                self.errors.append(f"event-handler attribute {name!r} on <{tag}> at {self.getpos()}")
            if name == "style":
                self.errors.append(f"inline style on <{tag}> at {self.getpos()} (blocked by CSP style-src 'self')")
            if name in URL_ATTRS and value and value.strip().lower().startswith(("javascript:", "vbscript:")):
                self.errors.append(f"script URL in {name} on <{tag}> at {self.getpos()}")
            if name == "id" and value is not None:
                if value in self.ids:
                    self.errors.append(f"duplicate id {value!r} at {self.getpos()} (first at {self.ids[value]})")
                self.ids.setdefault(value, self.getpos())
        if tag == "style":
            self.errors.append(f"inline <style> at {self.getpos()} (blocked by CSP style-src 'self')")

    def finish(self) -> StrictHTML:
        self.close()
        for tag, pos in self.stack:
            if tag not in OPTIONAL_END:
                self.errors.append(f"<{tag}> opened at {pos} never closed")
        return self


def check_html(text: str, *, full: bool) -> StrictHTML:
    """Parse ``text``; raise AssertionError listing every problem.  ``full``: a whole document (doctype,
    <html>, <head>, <title>, <body>), else a fragment (no <html>, <head> or <body>; a <title> is allowed:
    htmx takes the page title from it, and SVG uses it for tooltips)."""
    parser = StrictHTML()
    parser.feed(text)
    parser.finish()
    problems = list(parser.errors)
    structural = {"html", "head", "body"}
    if full:
        if not parser.doctype:
            problems.append("no <!doctype html>")
        missing = (structural | {"title"}) - set(parser.tags)
        if missing:
            problems.append(f"full page without {sorted(missing)}")
        if parser.tags.count("html") != 1 or parser.tags.count("body") != 1:
            problems.append("more than one <html>/<body>")
    else:
        present = structural & set(parser.tags)
        if present:
            problems.append(f"fragment carries document elements {sorted(present)}")
    assert not problems, "HTML problems:\n  " + "\n  ".join(problems[:20])
    return parser
