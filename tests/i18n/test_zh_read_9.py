"""zh-read-9 (issue 37): the three meaning errors of the 2026-12-03 review, fixed in both languages, each checked
against the figures it quotes."""

from __future__ import annotations

import re

import pytest
from support.page_text import query as _q
from support.page_text import text as _text

from app.model.scenarios import WALKTHROUGH, walk_figures
from app.tutorial import tutorial_path

LANGS = ("zh", "en")


def _numbers(client, lang: str, step: int) -> str:  # noqa: ANN001
    body = client.get(f"/{lang}/?{_q(WALKTHROUGH[step - 1].inputs)}").text
    m = re.search(r"data-numbers>.*?<p>(.*?)</p>", body, re.S)
    assert m, step
    return _text(m.group(1))


def test_step_3_says_the_reward_model_epoch_is_the_larger_one(client) -> None:  # noqa: ANN001
    """Step 3: one reward-model epoch (≈ 6.6 h) is 24.8× one SFT pass (16 min), not the reverse. The zh used to say
    「SFT 过一遍是 16 分钟（是它的 24.8 倍）」: 「它」 binds to SFT, so it read "SFT is 24.8× the RM"."""
    f = walk_figures(3)
    ratio = f"{f['ratio']:.1f}"
    assert f["rm_s"] > f["sft_s"] and abs(f["rm_s"] / f["sft_s"] - f["ratio"]) < 0.05 and ratio == "24.8"
    zh, en = _numbers(client, "zh", 3), _numbers(client, "en", 3)
    assert "约 6.6 小时，是 SFT 过一遍（16 分钟）的 24.8 倍" in zh, zh
    assert "是它的" not in zh
    assert "≈ 6.6 h on 8 GPUs, 24.8× the 16 min of one SFT pass" in en, en


@pytest.mark.parametrize("lang", LANGS)
def test_16_bytes_are_model_states_and_12_of_them_optimizer_states(lang: str) -> None:
    """Tutorial 5.1, 10.1 and 11.2: 16 bytes per parameter are the model states; Adam's optimizer states are 12 of them
    (DeepSeek-V3: 16 · 671e9 ≈ 10.7 TB of model states, 12 · 671e9 ≈ 8.1 TB of optimizer states)."""
    src = tutorial_path(lang).read_text(encoding="utf-8")
    assert round(16 * 671e9 / 1e12, 1) == 10.7 and round(12 * 671e9 / 1e12, 1) == 8.1
    if lang == "zh":
        for bad in ("16 字节的 Adam 优化器状态", "Adam 优化器状态是 `16 ·", "带着 Adam 的优化器状态，每参数 16 字节"):
            assert bad not in src
        for good in ("每参数 16 字节的模型状态（其中 Adam 的优化器状态占 12 字节）",
                     "可它的模型状态是 `16 · 671e9` ≈ 10.7 TB（其中优化器状态 `12 · 671e9` ≈ 8.1 TB）",
                     "两个被训练的模型连同 Adam 的优化器状态，每参数共 16 字节的模型状态"):
            assert good in src
    else:
        for bad in ("16 bytes per parameter of Adam states", "Adam states are 16 · 671e9", "Adam state at 16 bytes"):
            assert bad not in src
        for good in ("16 bytes per parameter of model states (12 of them Adam's optimizer states)",
                     "model states are 16 · 671e9 ≈ 10.7 TB (the optimizer states 12 · 671e9 ≈ 8.1 TB)"):
            assert good in src


@pytest.mark.parametrize("lang", LANGS)
def test_the_tutorials_last_line_points_to_the_reference_page(client, lang: str) -> None:  # noqa: ANN001
    """The constants moved from the lab page to /reference: the tutorial's last line links there, and that page has
    the 「教学假设」 section (id="assumptions") with the constants; the lab page only links to it."""
    last = tutorial_path(lang).read_text(encoding="utf-8").strip().splitlines()[-1]
    assert f"(/{lang}/reference#assumptions)" in last, last
    assert ("Lab 页面的" not in last) if lang == "zh" else ("on the lab page" not in last)
    ref = client.get(f"/{lang}/reference").text
    assert '<section id="assumptions"' in ref
    lab = client.get(f"/{lang}/").text
    assert '<section id="assumptions"' not in lab and f'href="/{lang}/reference"' in lab
    note = _text(re.search(r"<p[^>]*>([^<]*(?:逐条列在|listed one by one)[^<]*)</p>", lab).group(1))
    assert ("「参考资料」页" in note) if lang == "zh" else ("reference page" in note)
