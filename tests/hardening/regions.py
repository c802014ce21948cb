"""Cut a page into the elements that carry an ``id``: {id: outer HTML}, using html.parser's positions."""

from __future__ import annotations

from html.parser import HTMLParser

from .htmlcheck import VOID


class _Cutter(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text = text
        self.line_starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.line_starts.append(i + 1)
        self.stack: list[tuple[str, str | None, int]] = []
        self.found: dict[str, str] = {}

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def handle_starttag(self, tag, attrs):  # noqa: ANN001
        start = self._offset()
        ident = dict(attrs).get("id")
        if tag in VOID:
            if ident:
                end = self.text.index(">", start) + 1
                self.found[ident] = self.text[start:end]
            return
        self.stack.append((tag, ident, start))

    def handle_startendtag(self, tag, attrs):  # noqa: ANN001
        ident = dict(attrs).get("id")
        if ident:
            start = self._offset()
            self.found[ident] = self.text[start:self.text.index(">", start) + 1]

    def handle_endtag(self, tag):  # noqa: ANN001
        end = self.text.index(">", self._offset()) + 1
        while self.stack:
            open_tag, ident, start = self.stack.pop()
            if ident:
                self.found[ident] = self.text[start:end]
            if open_tag == tag:
                return


def by_id(text: str) -> dict[str, str]:
    cutter = _Cutter(text)
    cutter.feed(text)
    cutter.close()
    return cutter.found


class _Events(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[tuple] = []

    def handle_starttag(self, tag, attrs):  # noqa: ANN001
        self.events.append(("<", tag, tuple(sorted((k, v) for k, v in attrs if k != "hx-swap-oob"))))

    def handle_startendtag(self, tag, attrs):  # noqa: ANN001
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):  # noqa: ANN001
        self.events.append((">", tag))

    def handle_data(self, data):  # noqa: ANN001
        if data.strip():
            self.events.append(("text", " ".join(data.split())))


def canonical(fragment: str) -> list[tuple]:
    """A fragment as parse events, attribute order and ``hx-swap-oob`` ignored, whitespace collapsed."""
    p = _Events()
    p.feed(fragment)
    p.close()
    return p.events
