"""The term sheet (docs/i18n/terms.md) as data, and the zh texts it is checked against.

The sheet is the one home of the rules; this module only reads its tables:

- §1 Terms: ``中文写法`` (how zh writes a concept; its Latin items are the kept English phrases) and ``禁用写法``
  (forbidden variants: plain text, a Latin-only item matched as a whole word in any case, or ``re:<regex>``);
- §2 Names and §3 Symbols: further English a zh string may contain;
- §4 Pinned UI words: catalogue key → the exact zh value.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt

from app.i18n.terms import strip_terms
from app.tutorial import PICTURE, quote_figures

ROOT = Path(__file__).resolve().parents[2]
SHEET = ROOT / "docs" / "i18n" / "terms.md"
ZH_CATALOGUES = sorted((ROOT / "app" / "i18n" / "zh").glob("*.json"))
GLOSSARY = ROOT / "app" / "content" / "glossary.json"
ZH_TUTORIAL = ROOT / "app" / "content" / "tutorial" / "zh.md"

HAN = "\u4e00-\u9fff"
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-]*")
_CODE_ITEM = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Forbidden:
    concept: str
    item: str  # as written in the sheet
    pattern: re.Pattern[str]


def _cells(line: str) -> list[str]:
    """The cells of one Markdown table row; ``\\|`` is a literal bar inside a cell."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)]


def _tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    lines = text.splitlines()
    out, k = [], 0
    while k < len(lines):
        if lines[k].lstrip().startswith("|") and k + 1 < len(lines) and re.match(r"^\s*\|[\s:|-]+\|\s*$", lines[k + 1]):
            header, rows, k = _cells(lines[k]), [], k + 2
            while k < len(lines) and lines[k].lstrip().startswith("|"):
                rows.append(_cells(lines[k]))
                k += 1
            out.append((header, rows))
        else:
            k += 1
    return out


def _compile(item: str) -> re.Pattern[str]:
    if item.startswith("re:"):
        return re.compile(item[3:])
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9 \-]*", item):  # a whole word; in any case unless written with capitals
        flags = 0 if any(ch.isupper() for ch in item) else re.IGNORECASE
        return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(item)}(?![A-Za-z0-9_])", flags)
    return re.compile(re.escape(item))


@dataclass(frozen=True)
class Sheet:
    forbidden: tuple[Forbidden, ...]
    kept: tuple[str, ...]  # English phrases a zh string may contain (terms, names, symbols)
    pinned: dict[str, str]


@cache
def sheet() -> Sheet:
    forbidden: list[Forbidden] = []
    kept: set[str] = set()
    pinned: dict[str, str] = {}
    for header, rows in _tables(SHEET.read_text(encoding="utf-8")):
        if "禁用写法" in header:
            write, ban = header.index("中文写法"), header.index("禁用写法")
            for row in rows:
                for item in _CODE_ITEM.findall(row[write]):
                    kept |= {m.group(0) for m in re.finditer(r"[A-Za-z][A-Za-z0-9 .+\-/_]*[A-Za-z0-9+]|[A-Za-z]", item)}
                forbidden += [Forbidden(row[0], item, _compile(item)) for item in _CODE_ITEM.findall(row[ban])]
        elif header[0] in ("名称", "符号"):
            for row in rows:
                kept |= set(_CODE_ITEM.findall(row[0]))
        elif header[:2] == ["key", "zh"]:
            for row in rows:
                key, zh = _CODE_ITEM.findall(row[0])[0], _CODE_ITEM.findall(row[1])[0]
                pinned[key] = zh
    return Sheet(tuple(forbidden), tuple(sorted(kept, key=len, reverse=True)), pinned)


# --- the zh texts ------------------------------------------------------------------------------------------------


def zh_catalogue() -> dict[str, str]:
    out: dict[str, str] = {}
    for path in ZH_CATALOGUES:
        out.update(json.loads(path.read_text(encoding="utf-8")))
    return out


def glossary_zh() -> dict[str, str]:
    out = {}
    for entry in json.loads(GLOSSARY.read_text(encoding="utf-8")):
        out[f"glossary.{entry['id']}.term"] = entry["zh"]["term"]
        out[f"glossary.{entry['id']}.def"] = entry["zh"]["def"]
        if "short" in entry["zh"]:  # the hover definition of a term link (app/i18n/terms.py)
            out[f"glossary.{entry['id']}.short"] = entry["zh"]["short"]
    return out


_PLACEHOLDER = re.compile(r"\{[a-z_]+(?::[^}]*)?\}")
_TAG = re.compile(r"<code>.*?</code>|<[^>]+>")


_ADDRESS = re.compile(r"https?://\S+|(?<![\w/])/(?:zh|en)/\S*")


def catalogue_prose(value: str) -> str:
    """A catalogue value as prose: each term read as its words (``[[id|words]]``, app/i18n/terms.py), each
    placeholder as "0"; <code> spans, tags and addresses blanked."""
    return _ADDRESS.sub(" ", _TAG.sub(" ", _PLACEHOLDER.sub("0", strip_terms(value))))


def tutorial_prose() -> list[tuple[int, str]]:
    """(line number, text) of the zh tutorial's prose: code blocks, code spans, link targets and titles, and the
    italic titles of cited works removed; each {{fig …}} quote read as the figure the page shows in its place, and
    each figure line ({{diagram …}}, {{chart …}}) as its caption."""
    md = MarkdownIt("commonmark").enable("table")
    out = []
    source = PICTURE.sub(lambda m: m.group(4), quote_figures(ZH_TUTORIAL.read_text(encoding="utf-8"), "zh"))
    for token in md.parse(source):  # a figure's directive is not prose; its caption is
        if token.type != "inline":
            continue
        parts, title = [], 0
        for c in token.children or []:  # italics are the titles of cited works, kept as published
            title += {"em_open": 1, "em_close": -1}.get(c.type, 0)
            if c.type == "text" and not title:
                parts.append(c.content)
            elif c.type in ("code_inline", "softbreak", "hardbreak"):
                parts.append(" ")
        text = "".join(parts)
        if re.search(rf"[{HAN}0-9]", text):  # a cell of English words only (the glossary's en column) is not zh prose
            out.append(((token.map or [0])[0] + 1, text))
    return out


def tutorial_quotes() -> list[tuple[int, str]]:
    """(line number, label) of every 「…」 in the zh tutorial's prose."""
    return [(n, m.group(1)) for n, text in tutorial_prose() for m in re.finditer(r"「([^」]+)」", text)]
