"""The form and the page around it read in the form's words: notices name the labels the form shows, the moved
panel prints option labels, fields carry no stray unit, the assumptions table writes µs and %, no upper-casing reaches
Chinese, and a 404 carries no estimate footer."""

from __future__ import annotations

import html
import re
from functools import partial

import pytest
from support.page_text import card as _card
from support.page_text import query as _q
from support.page_text import text as _text
from support.page_text import why as _why

# tags joined flush ('' keeps 「<code>x</code>」 as 「x」 in running text)
_flush_text, _flush_card, _flush_why = (partial(_text, joiner=""), partial(_card, joiner=""),
                                        partial(_why, joiner=""))


# --- notices and the moved panel --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "query", "expected"), [
    # 2 GPUs < 4: separate placement is switched to colocated, named by the radio labels the form shows
    ("zh", "gpus=2&placement=separate", "分离部署（separate）至少需要 4 张 GPU，已改为同卡部署（colocated）。"),
    ("en", "gpus=2&placement=separate", "Separate placement needs at least 4 GPUs; using Colocated placement"),
    ("zh", "placement=colocated&staleness=1",
     "同卡部署（colocated）时生成没法提前跑：「Generation 提前步数」≥ 1 需要分离部署，已改为分离部署（separate）。"),
    ("zh", "kl=5", "「KL penalty β」填的 5 超过上限，已改为 1（参数 kl）。"),
    ("zh", "gpus=999999", "「GPU 数量」填的 999999 超过上限，已改为 4,096（参数 gpus）。"),
    ("zh", "rollouts=abc", "「每个 step 的 rollout 数」填的 abc 不是有效数字，已改用默认值（参数 rollouts）。"),
    ("zh", "method=zz", "「优化方法」没有 zz 这个选项，已改为「PPO」（参数 method）。"),
])
def test_notices_use_the_forms_labels(client, lang: str, query: str, expected: str) -> None:
    """Before: 「placement = separate 至少需要 4 张 GPU，已改用 colocated 。」 (raw enum values)."""
    notices = _notices(client.get(f"/{lang}/?{query}").text)
    assert any(expected in n for n in notices), notices
    assert not any(re.search(r"= (separate|colocated)\b", n) for n in notices), notices
    assert not any(" 。" in n for n in notices), notices


def _notices(body: str) -> list[str]:
    return [_flush_text(li) for li in re.findall(r"<li data-field=[^>]*>(.*?)</li>", body, re.S)]


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


# --- fields, the reference page, the 404 page -------------------------------------------------------------------------


def test_the_kl_field_has_no_unit_after_its_number(client) -> None:
    body = client.get("/zh/").text
    m = re.search(r'<span class="ctl-num"><input type="number" id="in-kl"[^>]*>(.*?)</span>', body, re.S)
    assert m and "β" not in m.group(1)


def test_the_assumptions_table_writes_microseconds_and_percent(client) -> None:
    """collective latency 1e-5 s = 10 µs; LoRA adapters 0.005 of the parameters = 0.5 %."""
    body = _text(client.get("/zh/reference").text)  # the assumptions live on the reference page
    assert "每次集合通信 10 微秒" in body and "0.00001" not in body
    assert "参数量的 0.5%" in body and "参数量的 0.005" not in body
    en = _text(client.get("/en/reference").text)
    assert "10 µs per collective" in en and "0.5% of the parameters" in en


def test_the_404_page_carries_no_estimate_footer(client) -> None:
    body = client.get("/zh/nope").text
    assert "workload 估算" not in body
    assert "workload 估算" in client.get("/zh/").text


# --- CSS --------------------------------------------------------------------------------------------------------------


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
