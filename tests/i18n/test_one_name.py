"""One name per concept on the tutorial, the glossary, the compare and launch pages (docs/i18n/terms.md and the
native read of 2026-12, §4): the phases are 生成 / 打分 in prose, staleness is 「Generation 提前步数」 / 提前 k 步,
a DPO run is counted in passes, the mean and the longest response are two named lengths, GRPO has the Chinese name
people search for, the 16 bytes per parameter are model states, there is one glossary, and every reference from a
page into the tutorial names a section the tutorial has, about what the reference says."""

from __future__ import annotations

import json
import re

import pytest
from markdown_it import MarkdownIt

from app.tutorial import tutorial_path

from .terms import GLOSSARY, catalogue_prose, glossary_zh, tutorial_prose, zh_catalogue

ZH = zh_catalogue()
EN: dict[str, str] = {}
for _path in sorted((GLOSSARY.parent.parent / "i18n" / "en").glob("*.json")):
    EN.update(json.loads(_path.read_text(encoding="utf-8")))
ENTRIES = {e["id"]: e for e in json.loads(GLOSSARY.read_text(encoding="utf-8"))}

# every zh surface: the tutorial, the glossary, and every catalogue string (the titles of cited works as published;
# the form's two labels that keep "Generation" as the sheet pins them)
_CITED_TITLE = re.compile(r"source\.[a-z0-9_]+\.title")
LABELS = {"input.placement.label", "input.staleness.label"}
PROSE = [
    *((f"zh.md:{n}", t) for n, t in tutorial_prose()),
    *glossary_zh().items(),
    *((k, catalogue_prose(v)) for k, v in ZH.items() if not _CITED_TITLE.fullmatch(k) and k not in LABELS),
]


def _unquoted(text: str) -> str:
    """The text without its 「…」 quotes (a UI label quoted exactly may keep its English, 「Generation 提前步数」)."""
    return re.sub(r"「[^」]*」", " ", text)


@pytest.mark.parametrize("word", ["generation", "scoring"])
def test_the_phases_are_named_in_chinese_in_prose(word: str):
    """「生成」「打分」「训练」: the English stays in node names, form labels and stage names only."""
    found = [(where, text[max(0, m.start() - 15):m.end() + 15]) for where, text in PROSE
             for m in re.finditer(rf"(?<![\w.]){word}(?![\w])", _unquoted(text), re.IGNORECASE)
             if not re.match(r"(?i)generation (share|worker)", _unquoted(text)[m.start():m.start() + 20])]
    assert found == []


def test_staleness_has_one_name():
    """The form's 「Generation 提前步数」 and 提前 k 步; `staleness` only as the URL parameter, in code."""
    found = [(where, text[:40]) for where, text in PROSE
             if re.search(r"(?<![\w`（])staleness(?![\w`）])", re.sub(r"Generation 提前步数", "", _unquoted(text)))
             and where != "glossary.staleness.term"]  # the headword's English gloss: 「提前步数（staleness）」
    assert found == []
    assert ZH["input.staleness.label"] == "Generation 提前步数"
    assert ZH["decision.sync_vs_async.title"] == "同步 on-policy 还是提前 k 步"
    # the launch page names the field as the form does
    assert "「Generation 提前步数」" in ZH["launch.reason.verl_separate_sync"]
    assert "“Generation runs ahead by”" in EN["launch.reason.verl_separate_sync"]


def test_a_dpo_run_is_counted_in_passes():
    zh = tutorial_path("zh").read_text(encoding="utf-8")
    dpo = zh[zh.index("## 7. "):zh.index("## 8. ")]
    assert "DPO epoch" not in dpo and "过一遍" in dpo
    en = tutorial_path("en").read_text(encoding="utf-8")
    assert "one DPO epoch" not in en[en.index("## 7. "):en.index("## 8. ")]


def test_mean_and_longest_response_are_two_named_lengths():
    """Where the tutorial names the two inputs, it says which is the mean and which the longest."""
    src = tutorial_path("zh").read_text(encoding="utf-8")
    both = [p for p in src.split("\n\n") if "`response_tokens`" in p and "`response_max_tokens`" in p]
    assert both and all("平均" in p and "最长" in p for p in both)
    assert ZH["input.response_max_tokens.label"] == "最长回答" and ZH["input.response_tokens.label"] == "平均回答长度"
    assert EN["input.response_tokens.label"] == "Mean response length"
    assert "平均" in ZH["launch.note.max_lengths"] and "最长回答长度" in ZH["launch.note.max_lengths"]


def test_grpo_has_its_chinese_name():
    assert ENTRIES["grpo"]["zh"]["term"] == "GRPO（组相对策略优化）"
    zh = tutorial_path("zh").read_text(encoding="utf-8")
    assert "GRPO（组相对策略优化，" in zh and "组内相对的 policy 优化" not in zh
    assert "PPO（近端策略优化）" in json.dumps(ENTRIES["ppo"], ensure_ascii=False)


def test_sixteen_bytes_are_model_states_and_twelve_of_them_optimizer_states():
    entry = ENTRIES["optimizer_states"]
    assert entry["zh"]["term"] == "模型状态（16 字节/参数）" and "其中优化器状态占 12 字节" in entry["zh"]["def"]
    assert entry["en"]["term"] == "Model states (16 bytes/param)" and "optimizer states are 12" in entry["en"]["def"]
    assert "12" in ENTRIES["optimizer_offload"]["zh"]["def"]
    assert ENTRIES["optimizer_offload"]["zh"]["term"].startswith("优化器 offload")


def test_one_glossary():
    """The lab's list and the tutorial's closing list are the same list, with the same name; no chapter of terms."""
    assert ZH["tutorial.glossary"] == ZH["glossary.open"] == "术语表"
    assert EN["tutorial.glossary"] == EN["glossary.open"] == "Glossary"
    for lang in ("zh", "en"):
        tokens = MarkdownIt("commonmark").parse(tutorial_path(lang).read_text(encoding="utf-8"))
        heads = [tokens[k + 1].content for k, t in enumerate(tokens) if t.type == "heading_open"]
        assert not [h for h in heads if re.search(r"术语|Glossary", h)], lang


# --- references into the tutorial --------------------------------------------------------------------------------


def _sections(lang: str) -> dict[str, str]:
    """'N' and 'N.M' → heading text, as numbered in the source."""
    out = {}
    for line in tutorial_path(lang).read_text(encoding="utf-8").splitlines():
        if m := re.match(r"#{2,3} (\d+(?:\.\d+)?)\.? (.*)", line):
            out[m.group(1)] = m.group(2)
    return out


REF_ZH = re.compile(r"教程 ?(?:第 )?(\d+\.\d+) 节|教程第 (\d+) 章")
REF_EN = re.compile(r"tutorial(?:, section | §)(\d+(?:\.\d+)?)")


def test_the_pages_references_into_the_tutorial_exist_and_are_written_as_the_sheet_says():
    zh, en = _sections("zh"), _sections("en")
    refs = 0
    for key, value in ZH.items():
        for m in REF_ZH.finditer(value):
            refs += 1
            assert "教程第 " not in value or m.group(2), f"{key}: 「见教程 N.M 节」, not 「第 N.M 节」"
            assert (m.group(1) or m.group(2)) in zh, f"{key}: no section {m.group(0)}"
    for key, value in EN.items():
        for m in REF_EN.finditer(value):
            refs += 1
            assert m.group(1) in en, f"{key}: no section {m.group(0)}"
    assert refs >= 2
    # the refit line points at the refit section in both languages
    assert "refit" in zh[REF_ZH.search(ZH["est.phase.sync.refit"]).group(1)]
    assert "refit" in en[REF_EN.search(EN["est.phase.sync.refit"]).group(1)]


def test_the_tutorials_own_references_name_existing_chapters():
    for lang, pattern in (("zh", r"第 (\d+) 章|(\d+\.\d+) 节"), ("en", r"[Cc]hapter (\d+)|[Ss]ection (\d+\.\d+)")):
        sections = _sections(lang)
        src = tutorial_path(lang).read_text(encoding="utf-8")
        missing = [m.group(0) for m in re.finditer(pattern, src) if (m.group(1) or m.group(2)) not in sections]
        assert missing == [], lang


def test_zh_cross_references_are_n_m_jie() -> None:
    """Inside the tutorial a reference reads 「N.M 节」: no 「第 N.M 节」, and no 「见教程」 (that is the page's phrase)."""
    src = tutorial_path("zh").read_text(encoding="utf-8")
    assert "见教程" not in src
    assert re.findall(r"第 \d+\.\d+ 节", src) == []
