"""zh-read-11 (issue 37, the independent read of what the fourth edition added): the defects it found that a
test can hold — a walkthrough total that did not tie to the page's own figure, a ratio phrased backwards in
Chinese, markup a reader saw as text — and the pages of the states it read, as every zh page is read."""

from __future__ import annotations

import re
import string
from urllib.parse import urlencode

import pytest
from support.page_text import text as _text

from app.i18n import translator
from app.model.scenarios import WALKTHROUGH, walk_figures

from .test_zh_pages import _leaks
from .test_zh_read_9 import _numbers

LANGS = ("zh", "en")



def _fields(text: str) -> set[tuple[str, str]]:
    return {(name, spec) for _, name, spec, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", [w.number for w in WALKTHROUGH])
def test_a_numbers_line_that_quotes_a_step_in_seconds_also_gives_the_pages_own_total(lang: str, n: int) -> None:
    """zh-read-10 tied steps 4–6 and 9–12 to the chart's header (「一个 step 约 233 秒（即 3.9 分钟）」); step 13 came
    after it and said 「Step 695 秒 = …」 beside the header's 「12 分钟」, and step 7 「step 都是 137 秒」 beside 「2.3 分钟」."""
    fields = _fields(translator(lang)(f"walk.{n}.numbers"))
    if ("total_s", ",.0f") in fields:
        assert ("total_s", "dur") in fields, f"step {n} ({lang}): the step total only in seconds"


@pytest.mark.parametrize("lang", LANGS)
def test_step_13_quotes_its_total_as_the_chart_does(client, lang: str) -> None:  # noqa: ANN001
    f = walk_figures(13)
    # 695 s = 11.6 min: the chart's header writes it to two figures, 「12 分钟」 / "12 min"
    assert round(f["total_s"]) == 695 and round(f["total_s"] / 60) == 12
    want = {"zh": "Step 695 秒（即 12 分钟）=", "en": "Step 695 s (12 min) ="}[lang]
    assert _numbers(client, lang, 13).startswith(want)


def test_step_13_says_how_many_times_longer_the_step_is_not_how_many_times_shorter(client) -> None:  # noqa: ANN001
    """「短 26 倍」 reads backwards in Chinese (and the term sheet now forbids it): the agentic step is 26 times the
    one-turn step, which is what the line says."""
    f = walk_figures(13)
    one, ratio = f["one_total_s"], f["ratio"]
    assert ratio == pytest.approx(f["total_s"] / one)
    assert round(one) == 26 and f"{ratio:.2g}" == "26"  # 695 s / 26.4 s = 26.3
    text = _numbers(client, "zh", 13)
    assert "只有一轮、没有环境时：26 秒，现在的 step 是它的 26 倍。" in text
    assert not re.search(r"短 ?\d[\d.]* ?倍", text)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("url", ["/{lang}/reference", "/{lang}/?step=13", "/{lang}/?arch=deepseek_v3&speculative=draft"])
def test_no_catalogue_markup_shows_as_text(client, lang: str, url: str) -> None:  # noqa: ANN001
    """The reference page escapes an assumption's why: 「vLLM 的 <code>num_speculative_tokens</code> 常设为 3」 showed
    its tags to the reader (both languages)."""
    body = client.get(url.format(lang=lang)).text
    leaked = re.findall(r".{0,30}&lt;/?(?:code|b|em|span|a)\b", body)
    assert not leaked, leaked[:3]


# The states this read looked at that no earlier zh page test renders: walkthrough step 13, wide expert parallelism,
# server mode, an engine release, an LLM judge, sliding-window and linear attention, a split with no scoring GPUs,
# the launch page's engine, judge and agentic notes, and two states compared.
READ_11 = [
    "/zh/?step=13",
    "/zh/?engine_layout=dp_attention&arch=deepseek_v3&gpus=256&gpu=h200_141g&method=grpo&reward=verifier&kl=0.001",
    "/zh/?engine_layout=dp_attention&arch=deepseek_v3&gpus=64&gpu=h200_141g",
    "/zh/?engine_api=http&placement=separate&method=grpo&reward=verifier&kl=0.001&staleness=1",
    "/zh/?engine_release=vllm_v0", "/zh/?engine_release=vllm_eager", "/zh/?reward=judge",
    "/zh/?reward=judge&method=grpo", "/zh/?arch=gpt_oss_120b", "/zh/?arch=qwen3_next_80b_a3b",
    "/zh/?method=grpo&reward=verifier&kl=0&placement=separate&generation_gpus=4&gpus=16",
    "/zh/?turns=4&env_latency_s=5&agent_loop=async&method=grpo&reward=verifier&staleness=1&placement=separate",
    "/zh/launch?turns=4&method=grpo&reward=verifier&kl=0.001",
    "/zh/launch?engine_api=http&placement=separate&engine_release=vllm_v0&method=grpo&reward=judge",
    "/zh/launch?method=grpo&reward=verifier&arch=deepseek_v3&gpus=256&gpu=h200_141g&engine_layout=dp_attention"
    "&kl=0.001",
    "/zh/compare?" + urlencode({"a": "step=10", "b": "step=11", "price_h100_80g": "2.5"}),
    "/zh/compare?" + urlencode({"a": "step=13", "b": "step=13&agent_loop=async&placement=separate&staleness=1"}),
    "/zh/compare?b_method=dpo&present=1",
]


@pytest.mark.parametrize("url", READ_11)
def test_a_zh_page_of_this_read_reads_in_chinese(client, url: str) -> None:  # noqa: ANN001
    words, punct = _leaks(client, url)
    assert not words, f"English on {url}: {sorted(words)}"
    assert not punct, f"half-width punctuation between Chinese on {url}: {punct}"


@pytest.mark.parametrize("lang", LANGS)
def test_a_bare_step_link_on_the_compare_page_opens_that_steps_workload(client, lang: str) -> None:  # noqa: ANN001
    """「A：PPO，7B policy，A100 80GB × 8，分步讲解第 13 步」 beside the default workload's figures: the compare page
    read ``a=step=13`` as the defaults with a step label, where the lab (``scenarios.open_step``) opens step 13's
    own workload (Qwen3-8B GRPO, 8 turns, 16 × H100)."""
    w = WALKTHROUGH[12].inputs
    j = client.get("/api/compare", params={"a": "step=13", "b": "step=13&gpus=32"}).json()
    assert "method=grpo" in j["a"]["query"] and f"turns={w.turns}" in j["a"]["query"] and j["a"]["gpus"] == 16
    assert "method=ppo" in j["b"]["query"] and j["b"]["gpus"] == 32  # a model parameter beside it: kept, as on the lab
    body = _text(client.get(f"/{lang}/compare", params={"a": "step=13", "b": "step=12"}).text)
    want = {"zh": "A：GRPO，8.2B policy，H100 80GB × 16，分步讲解第 13 步",
            "en": "A: GRPO, 8.2B policy, 16 × H100 80GB, walkthrough step 13"}[lang]
    assert want in body


@pytest.mark.parametrize(("lang", "want"), [("zh", "16 张 H100 80GB"), ("en", "16 × H100 80GB")])
def test_the_calibrate_state_names_its_gpus_as_the_launch_and_compare_pages_do(client, lang: str, want: str) -> None:  # noqa: ANN001
    """「16 张 GPU × H100 80GB」 counted the GPUs twice; the launch page writes 「8 张 A100 80GB」."""
    q = urlencode(dict(method="grpo", arch="qwen25_7b", gpus=16, gpu="h100_80g", reward="verifier"))
    body = _text(client.get(f"/{lang}/calibrate?{q}").text)
    assert want in body and "GPU × H100" not in body and "GPUs × H100" not in body
