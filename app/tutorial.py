"""The full tutorial: app/content/tutorial/<lang>.md rendered by markdown-it-py into the site's layout.

Sections (## headings) get ids by position (``sec-1``, ``sec-2`` …), identical in both languages, so switching
language keeps the reader's place.  Lab links (``/<lang>/?…`` with the expected stage id as the link title) get the
stage's translated name as their title and a class for styling; tests check each link's stage against the model.
"""

from __future__ import annotations

import re
from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import Markup

from app.i18n import translator
from app.model.stages import STAGE_IDS

DOCS = Path(__file__).resolve().parent / "content" / "tutorial"
LAB_LINK = re.compile(r"^/(zh|en)/\?")


def tutorial_path(lang: str) -> Path:
    return DOCS / f"{lang}.md"


def lab_links(markdown_text: str) -> list[tuple[str, str]]:
    """(url, expected stage) for every lab link in a tutorial source."""
    md = MarkdownIt("commonmark").enable("table")
    out = []
    for token in md.parse(markdown_text):
        for child in token.children or []:
            if child.type == "link_open":
                href = child.attrGet("href") or ""
                if LAB_LINK.match(href):
                    out.append((href, child.attrGet("title") or ""))
    return out


def render_tutorial(lang: str) -> tuple[Markup, tuple[tuple[str, str, str], ...]]:
    """(HTML body, table of contents as (id, level, text))."""
    t = translator(lang)
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    tokens = md.parse(tutorial_path(lang).read_text(encoding="utf-8"))
    toc: list[tuple[str, str, str]] = []
    section = sub = 0
    for k, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag in ("h2", "h3"):
            if token.tag == "h2":
                section, sub = section + 1, 0
                anchor = f"sec-{section}"
            else:
                sub += 1
                anchor = f"sec-{section}-{sub}"
            token.attrSet("id", anchor)
            toc.append((anchor, token.tag, tokens[k + 1].content))
        for child in token.children or []:
            if child.type != "link_open":
                continue
            href = child.attrGet("href") or ""
            if LAB_LINK.match(href):
                stage = child.attrGet("title") or ""
                child.attrSet("class", "lab-link")
                child.attrSet("data-stage-link", stage)
                if stage in STAGE_IDS:
                    child.attrSet("title", t("tutorial.opens_stage", stage=t(f"stage.{stage}.name")))
            elif href.startswith("http"):
                child.attrSet("rel", "noopener")
    html = md.renderer.render(tokens, md.options, {})
    # wide code blocks and tables scroll sideways; keyboard users must be able to reach them
    html = html.replace("<pre>", '<pre tabindex="0">').replace("<table>", '<table tabindex="0">')
    return Markup(html), tuple(toc)
