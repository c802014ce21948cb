"""The third native read's findings (docs/i18n/reads/zh-read-3.md), each as the page renders it: the text that
follows the state (method, β, what is hidden, what equals what) and the units a reader expects."""

from __future__ import annotations

import html
import re

import pytest
from support.page_text import card as _card
from support.page_text import meter as _meter
from support.page_text import query as _q
from support.page_text import text as _text

from app.i18n.formats import fmt_duration
from app.model import DEFAULTS, evaluate
from app.model.scenarios import PRESET_BY_ID

# --- durations and units ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_eval_window_is_a_duration_and_dpo_counts_pairs(client, lang: str) -> None:
    """DPO preset: 10 DPO steps between evals, 64 pairs each = 640 pairs; the time is printed as a duration (the
    model's seconds through fmt_duration), not as 0.0168 h."""
    dpo = PRESET_BY_ID["dpo"].inputs
    r = evaluate(dpo)
    body = client.get(f"/{lang}/?{_q(dpo)}").text
    card = _card(body, "eval_gating")
    seconds = 3600 * r.decisions["eval_gating"].args["hours"]
    assert fmt_duration(seconds, lang) in card
    assert ("640 对 preference 数据" if lang == "zh" else "640 preference pairs") in card
    assert "rollout" not in card
    assert not re.search(r"\d\.\d{2,} (小时|h)\b", _text(body))


@pytest.mark.parametrize(("lang", "whole", "part"), [("zh", "全部藏在生成后面", "重叠"),
                                                      ("en", "all of it hidden behind generation", "overlaps")])
def test_the_hidden_scoring_says_all_or_nothing_when_it_is(client, lang: str, whole: str, part: str) -> None:
    """Default (separate): scoring 79.6 s, all of it behind generation's 117 s → 'all of it', not 'of which 80 s';
    colocated: the phases take turns, 0 s overlaps → no clause at all.  GRPO: 53 s, 43 s of it hidden → the part."""
    separate = client.get(f"/{lang}/?{_q(placement='separate')}").text
    assert whole in _meter(separate, "scoring_load") and part not in _meter(separate, "scoring_load")
    colocated = _meter(client.get(f"/{lang}/?{_q(placement='colocated')}").text, "scoring_load")
    assert whole not in colocated and part not in colocated
    grpo = evaluate(DEFAULTS.model_copy(update={"method": "grpo", "placement": "separate"})).step
    assert 0.5 <= grpo.scoring_hidden_s < grpo.scoring_s - 0.5
    assert part in _meter(client.get(f"/{lang}/?{_q(method='grpo', placement='separate')}").text, "scoring_load")


# --- the launch page -------------------------------------------------------------------------------------------


def test_the_launch_notes_do_not_restate_what_they_just_said(client) -> None:
    """GRPO preset: the mini-batch is 128 sequences, the lab's own assumption → no '(the lab assumes about 128)';
    default PPO: 102 samples against 128 → the comparison stays; no verl command → no word about 'the verl command'."""
    grpo = _text(client.get(f"/zh/launch?{_q(PRESET_BY_ID['grpo'].inputs)}").text)
    assert "每个优化器 step 取 128 条序列，这是本 Lab 假设的数值" in grpo and "本 Lab 假设约 128 条" not in grpo
    assert "已对照 verl 0.9.1 检查" in grpo and "docs 2026" not in grpo and "main 分支" not in grpo
    default = _text(client.get("/zh/launch?placement=separate").text)  # the old default: verl refuses it
    assert "当前配置无法生成 verl 命令" in default and "verl 命令里" not in default
    assert "全局训练 batch size 为 102 条样本（本 Lab 假设约 128 条）" in default
    en = _text(client.get("/en/launch?placement=separate").text)
    assert "a verl command" not in en and "(the lab assumes about 128)" in en


# --- what moved since the last change ----------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "changed", "cause"), [
    ("zh", "优化方法：PPO → GRPO", "由「优化方法」引起"),
    ("en", "Optimisation method PPO → GRPO", "because of Optimisation method"),
])
def test_the_moved_panel_shows_option_labels(client, lang: str, changed: str, cause: str) -> None:
    body = client.get(f"/{lang}/?{_q(method='grpo', placement='colocated')}", headers={
        "HX-Request": "true", "HX-Current-URL": f"http://testserver/{lang}/?placement=separate"}).text
    moved = html.unescape(re.sub(r"<(?!/?span)[^>]+>", "", re.search(r'<div class="moved" id="moved">(.*?)</div>',
                                                                     body, re.S).group(1)))
    assert changed in moved and cause in moved and "ppo → grpo" not in moved
    # a choice by its label, a number as the form writes it
    placement = "分离部署（separate） → 同卡部署（colocated）" if lang == "zh" else "Separate → Colocated"
    assert placement in moved


# --- CSS ------------------------------------------------------------------------------------------------------------


def test_no_upper_case_rule_reaches_chinese_labels() -> None:
    """Every selector that upper-cases text has a :lang(zh) twin that turns it off (Chinese has no letter case; the
    Latin inside a zh label, 「训练 workload」, must not turn into 「训练 WORKLOAD」)."""
    from pathlib import Path

    css = re.sub(r"/\*.*?\*/", "", (Path(__file__).parents[2] / "app" / "static" / "app.css").read_text(), flags=re.S)
    rules = re.findall(r"([^{}]+)\{([^}]*)\}", css)
    upper = {s.strip() for sel, body in rules if "text-transform: uppercase" in body for s in sel.split(",")}
    reset = {s.strip().removeprefix(":lang(zh) ") for sel, body in rules if "text-transform: none" in body
             for s in sel.split(",") if s.strip().startswith(":lang(zh)")}
    assert upper and upper <= reset, sorted(upper - reset)
