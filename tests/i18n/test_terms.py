"""The zh texts follow the term sheet (docs/i18n/terms.md): no forbidden variant, full-width punctuation between
Chinese text, only the sheet's English in the catalogues, the pinned UI words, and a tutorial that quotes the UI
labels exactly as the zh page shows them."""

from __future__ import annotations

import re

import pytest

from app.model.assumptions import GPUS
from app.model.inputs import CHOICES, FACTOR_NAMES, PARAM_NAMES
from app.model.stages import STAGE_IDS

from .terms import (
    HAN,
    catalogue_prose,
    glossary_zh,
    sheet,
    tutorial_prose,
    tutorial_quotes,
    zh_catalogue,
)

CATALOGUE = zh_catalogue()
# the titles of cited works are kept as published (as the tutorial's italic titles are): only punctuation is checked
_CITED_TITLE = re.compile(r"source\.[a-z0-9_]+\.title")


def _surfaces() -> dict[str, list[tuple[str, str]]]:
    """(where, text) of every zh surface the sheet governs."""
    return {
        "catalogue": [(k, catalogue_prose(v)) for k, v in CATALOGUE.items() if not _CITED_TITLE.fullmatch(k)],
        "glossary": list(glossary_zh().items()),
        "tutorial": [(f"zh.md:{n}", text) for n, text in tutorial_prose()],
    }


SURFACES = _surfaces()


def test_the_sheet_parses():
    s = sheet()
    assert len(s.forbidden) > 100 and len(s.kept) > 150 and len(s.pinned) >= 15
    # a few rows the rules below depend on
    items = {f.item for f in s.forbidden}
    assert {"共置", "GPU-秒", "政策敏感", "KV 缓存", "re:\\d %"} <= items
    assert {"rollout", "reward model", "KV cache", "GPU"} <= set(s.kept)
    # the rows of the 2026-12 read: one name per concept (staleness, DPO passes, model states, GRPO's gloss, the calques)
    assert {"落后一步", "落后 k 步", "DPO epoch", "优化器状态（16 字节/参数）", "组内相对的 policy 优化", "运行面板",
            "答案不同的决策卡片", "那份契约"} <= items
    assert {"生成", "打分", "Generation 提前步数"} <= {i for f in s.forbidden for i in (f.item,)} | _zh_written()
    assert s.pinned["tutorial.glossary"] == s.pinned["glossary.open"] == "术语表"


def _zh_written() -> set[str]:
    """Every item of the sheet's 中文写法 column (the names a zh page uses)."""
    from .terms import _CODE_ITEM, SHEET, _tables
    return {item for header, rows in _tables(SHEET.read_text(encoding="utf-8")) if "中文写法" in header
            for row in rows for item in _CODE_ITEM.findall(row[header.index("中文写法")])}


def _excerpt(text: str, m: re.Match[str]) -> str:
    return text[max(0, m.start() - 12):m.end() + 12]


@pytest.mark.parametrize("surface", list(SURFACES))
def test_no_forbidden_variant(surface):
    found = [(where, f.item, _excerpt(text, m))
             for where, text in SURFACES[surface] for f in sheet().forbidden
             if (m := f.pattern.search(text))]
    assert found == []


# half-width : , ( ) where Chinese punctuation belongs (formulas, code, URLs and placeholders are not prose)
_HALF_WIDTH = (
    re.compile(rf"[{HAN}] ?[:,]"),                    # 「左: 」「第 2 步: 」「打分, 」
    re.compile(rf"[{HAN}] ?[()] ?[{HAN}]"),           # a half-width bracket between two Chinese characters
    re.compile(rf"\( ?[{HAN}][^()]*[{HAN}] ?\)"),     # 「(吃紧)」: Chinese text in half-width brackets
)


@pytest.mark.parametrize("surface", list(SURFACES))
def test_full_width_punctuation_between_chinese(surface):
    texts = SURFACES[surface] + ([(k, v) for k, v in CATALOGUE.items() if _CITED_TITLE.fullmatch(k)]
                                 if surface == "catalogue" else [])
    found = [(where, _excerpt(text, m)) for where, text in texts for rx in _HALF_WIDTH if (m := rx.search(text))]
    assert found == []


# --- English in the zh catalogues ------------------------------------------------------------------------------

_IDS = {*PARAM_NAMES, *FACTOR_NAMES, *STAGE_IDS, *GPUS, *(v for s in CHOICES for v in s.choices)}
_GLOSS = re.compile(rf"(?<=[{HAN}])（[A-Za-z0-9 .,+\-/·]+）")  # 「分离部署（separate）」: an English gloss


def _phrase(p: str) -> re.Pattern[str]:
    body = r"\s+".join(re.escape(w) for w in p.split())
    return re.compile(rf"(?<![A-Za-z]){body}(?![A-Za-z])", re.IGNORECASE)


# longest first over both lists, so an id (「max_tokens_per_gpu」) is not cut up by a shorter kept word (「GPU」)
_KEPT = [_phrase(p) for p in sorted({*sheet().kept, *_IDS}, key=len, reverse=True)]


def english_left(text: str) -> list[str]:
    """The English words of a zh text that are neither a kept phrase, a name, a symbol nor an id."""
    text = _GLOSS.sub(" ", text)
    for rx in _KEPT:
        text = rx.sub(" ", text)
    return re.findall(r"[A-Za-z][A-Za-z\-]*", text)


def test_the_english_check_sees_english():
    assert english_left("用 reward model 给 rollout 打分") == []
    assert english_left("模型 states 放不下") == ["states"]
    assert english_left("同卡部署（colocated）") == []
    assert english_left("更小的 micro-batch（max_tokens_per_gpu 1,024）") == []


def test_zh_catalogues_use_only_kept_english():
    found = {k: words for k, v in CATALOGUE.items()
             if not _CITED_TITLE.fullmatch(k) and (words := english_left(catalogue_prose(v)))}
    assert found == {}


def test_zh_glossary_uses_only_kept_english():
    assert {k: words for k, v in glossary_zh().items() if (words := english_left(v))} == {}


# --- the UI words, and the tutorial quoting them ------------------------------------------------------------------


def test_pinned_ui_words():
    assert {k: CATALOGUE.get(k) for k in sheet().pinned} == sheet().pinned


def test_meter_levels_do_not_reuse_node_flags():
    """「吃紧」 once meant two severities: a meter at 'hot' and a node 'warning'.  Each word means one thing."""
    levels = [CATALOGUE[f"level.{x}"] for x in ("warn", "hot")]
    flags = [CATALOGUE[f"node_state.{x}"] for x in ("warning", "overloaded", "needed")]
    assert len(set(levels + flags)) == 5


_LABELS = {re.sub(r"\s+", " ", catalogue_prose(v)).strip() for v in CATALOGUE.values()}


def test_tutorial_quotes_ui_labels_exactly():
    """Every 「…」 of the zh tutorial is a label the zh page shows (a catalogue value, as displayed)."""
    quotes = tutorial_quotes()
    assert len(quotes) >= 8
    assert [(n, q) for n, q in quotes if q not in _LABELS] == []


def test_code_spans_are_not_prose():
    """What the reader types (a flag, a config key, a function signature) sits in <code>…</code> and is not
    checked as Chinese prose: neither its English words nor a forbidden variant inside it count."""
    text = catalogue_prose("先执行 <code>ray start</code>，再用 <code>--data.label_key</code> 传入。")
    assert english_left(text) == []
    assert english_left(catalogue_prose("先执行 ray start。")) == ["start"]
