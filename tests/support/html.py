"""An html.parser-based element index of a page (every start tag, its attributes and text), and a CSP parser."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    text: str = ""  # the element's own text (direct and nested), filled in when it closes

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)


@dataclass
class Doc:
    """Every start tag of a document, in order, with its attributes; plus the text and script bodies."""

    elements: list[Element] = field(default_factory=list)
    text: str = ""
    script_bodies: list[str] = field(default_factory=list)

    def having(self, attr: str, value: str | None = None, tag: str | None = None) -> list[Element]:
        return [e for e in self.elements if attr in e.attrs and (value is None or e.attrs[attr] == value)
                and (tag is None or e.tag == tag)]

    def tags(self, tag: str) -> list[Element]:
        return [e for e in self.elements if e.tag == tag]

    def by_id(self, id_: str) -> Element | None:
        found = self.having("id", id_)
        return found[0] if found else None


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.doc = Doc()
        self._open: list[tuple[Element, list[str]]] = []
        self._text: list[str] = []
        self._script: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = Element(tag, dict(attrs))
        self.doc.elements.append(el)
        if tag == "script":
            self._script = []
        if tag not in _VOID:
            self._open.append((el, []))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.doc.elements.append(Element(tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            self.doc.script_bodies.append("".join(self._script))
            self._script = None
        for k in range(len(self._open) - 1, -1, -1):
            if self._open[k][0].tag == tag:
                for el, parts in self._open[k:]:
                    el.text = "".join(parts)
                del self._open[k:]
                break

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script.append(data)
            return
        self._text.append(data)
        for _, parts in self._open:
            parts.append(data)

    def close(self) -> None:
        super().close()
        for el, parts in self._open:
            el.text = "".join(parts)
        self.doc.text = "".join(self._text)


def parse(html: str) -> Doc:
    p = _Collector()
    p.feed(html)
    p.close()
    return p.doc


def csp_directives(header: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0].lower()] = words[1:]
    return out
