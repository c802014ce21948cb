"""The fifth native read's findings (docs/i18n/reads/zh-read-5.md), each as the page renders it: notices in the
form's words, one-GPU wording, states whose model states do not fit, the asynchronous generation card, walkthrough
text that follows the model's figures, cards whose badge follows their warning, and figures that say what they count."""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest

from app.model import DEFAULTS, evaluate
from app.model.scenarios import WALKTHROUGH

STEP = {w.number: w.inputs for w in WALKTHROUGH}


def _q(inputs=DEFAULTS, **changes) -> str:  # noqa: ANN001
    return urlencode(inputs.query(**changes))


def _text(body: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", body)).split())


def _notices(body: str) -> list[str]:
    return [_text(li) for li in re.findall(r"<li data-field=[^>]*>(.*?)</li>", body, re.S)]


def _card(body: str, decision: str) -> str:
    m = re.search(rf'<div class="st-[a-z_]+" id="decision-{decision}"[^>]*>(.*?)</div>', body, re.S)
    assert m, decision
    return _text(m.group(1))


def _why(body: str) -> str:
    m = re.search(r'<ol class="reasons">(.*?)</ol>', body, re.S)
    assert m
    return _text(m.group(1))


# --- 1. notices in the form's words ---------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "query", "expected"), [
    # 2 GPUs < 4: separate placement is switched to colocated, named by the radio labels the form shows
    ("zh", "gpus=2&placement=separate", "分离部署（separate）至少需要 4 张 GPU，已改为同卡部署（colocated）。"),
    ("en", "gpus=2&placement=separate", "Separate placement needs at least 4 GPUs; using Colocated placement"),
    ("zh", "placement=colocated&staleness=1",
     "同卡部署（colocated）时 generation 没法提前跑：staleness ≥ 1 需要分离部署，已改为分离部署（separate）。"),
    ("zh", "kl=5", "「KL penalty β」的 5 超过上限，已改为 1（kl）。"),
    ("zh", "method=zz", "「优化方法」没有 zz 这个选项，已改为「PPO」（method）。"),
])
def test_notices_use_the_forms_labels(client, lang: str, query: str, expected: str) -> None:
    """Before: 「placement = separate 至少需要 4 张 GPU，已改用 colocated 。」 (raw enum values)."""
    notices = _notices(client.get(f"/{lang}/?{query}").text)
    assert any(expected in n for n in notices), notices
    assert not any(re.search(r"= (separate|colocated)\b", n) for n in notices), notices
    assert not any(" 。" in n for n in notices), notices
