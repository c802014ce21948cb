"""The third native read's findings (docs/i18n/reads/zh-read-3.md), each as the page renders it: the text that
follows the state (method, β, what is hidden, what equals what) and the units a reader expects."""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest

from app.i18n.formats import fmt_duration
from app.model import DEFAULTS, evaluate
from app.model.scenarios import PRESET_BY_ID


def _q(inputs=DEFAULTS, **changes) -> str:  # noqa: ANN001
    return urlencode(inputs.query(**changes))


def _text(body: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def _card(body: str, decision: str) -> str:
    m = re.search(rf'<div class="st-[a-z_]+" id="decision-{decision}"[^>]*>(.*?)</div>', body, re.S)
    assert m, decision
    return _text(m.group(1))


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
