"""Every zh page and partial as a reader sees it: no English word outside the term sheet's kept list (names,
symbols, ids and the glosses in （） included), and no half-width : ( ) , between Chinese characters.

What is not prose is left out: scripts and styles, code (<code>, <pre>, <kbd>: flags, commands, config keys), and
elements marked lang="en" (the other language's name in the language switch, the English headword beside a
glossary entry), the titles of cited works as published (<cite>, and <em> in the tutorial), and formulas
("show the math": ln(…) keeps its half-width brackets). In the tutorial also a link whose text is an address and a
block with no Chinese character at all (see _Text)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest

from app.model import DEFAULTS
from app.model.scenarios import PRESETS, WALKTHROUGH

from .terms import HAN
from .test_terms import english_left

SKIP = {"script", "style", "code", "pre", "kbd", "cite", "em"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "use",
        "rect", "path", "line", "marker"}


# A link whose text is an address (a URL, a domain, a repository path, a file name) names a place, not prose.
_ADDRESS = re.compile(r"\s*(?:https?://\S+|[\w.-]+(?:/[\w.-]+)+/?|[\w-]+(?:\.[\w-]+)+(?:/\S*)?)"
                      r"(?:,\s*[\w.-]+(?:/[\w.-]+)+)*\s*")
# An address shown as text on any page (the lab's "link to this state", a URL): a place, not prose.
_PAGE_ADDRESS = re.compile(r"(?:https?://|/(?:zh|en)/)\S*")
# The blocks whose text is judged whole: a paragraph, a list item, a table cell, a heading.
BLOCK = {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "caption", "figcaption"}


class _Text(HTMLParser):
    """The visible text of a page, in runs, without the parts that are not Chinese prose.

    With ``prose_only`` (the tutorial): a link whose text is an address is left out, and so is every run of a block
    with no Chinese character at all (the English column of 11. 术语表, a reference whose title is English only).
    That is the rule the source-level check already uses (terms.tutorial_prose: a cell of English words only is not
    zh prose); a block with one Chinese character counts whole, its links' texts included."""

    def __init__(self, prose_only: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.prose_only = prose_only
        self.stack: list[tuple[str, bool]] = []  # per open element: its tag, does it start a skipped part
        self.skip = 0
        self.blocks: list[list[str]] = []  # the runs of each open block, innermost last
        self.runs: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:  # noqa: ANN001
        a = dict(attrs)
        skipped = tag in SKIP or a.get("lang") == "en" or "math" in (a.get("class") or "").split()
        if tag in VOID:
            return
        self.stack.append((tag, skipped))
        self.skip += skipped
        if self.prose_only and tag in BLOCK:
            self.blocks.append([])

    def handle_endtag(self, tag) -> None:  # noqa: ANN001
        if tag in VOID or not self.stack:
            return
        open_tag, skipped = self.stack.pop()
        self.skip -= skipped
        if self.prose_only and open_tag in BLOCK and self.blocks:
            runs = self.blocks.pop()
            if re.search(f"[{HAN}]", "".join(runs)):
                self._emit(runs)

    def _emit(self, runs: list[str]) -> None:
        (self.blocks[-1] if self.blocks else self.runs).extend(runs)

    def handle_data(self, data) -> None:  # noqa: ANN001
        if self.skip or not data.strip() or _PAGE_ADDRESS.fullmatch(data.strip()):  # an address shown as text
            return
        if self.prose_only and self.stack and self.stack[-1][0] == "a" and _ADDRESS.fullmatch(data):
            return
        self._emit([data])


def _runs(html: str, prose_only: bool = False) -> list[str]:
    p = _Text(prose_only)
    p.feed(html)
    return p.runs


def _q(inputs=DEFAULTS, **changes) -> str:  # noqa: ANN001
    return urlencode(inputs.query(**changes))


# The tutorial is read as prose only (see _Text): its references list carries addresses and English-only titles,
# and 11. 术语表 an English column.
TUTORIAL = "/zh/tutorial"
PAGES = [
    "/zh/", "/zh/compare", "/zh/compare?b_method=dpo", "/zh/launch", "/zh/nope", TUTORIAL,
    *(f"/zh/?{_q(p.inputs)}" for p in PRESETS),
    *(f"/zh/?{_q(w.inputs)}" for w in WALKTHROUGH),
    *(f"/zh/compare?{_q(p.inputs)}" for p in PRESETS),
    *(f"/zh/launch?{_q(p.inputs)}" for p in PRESETS),
    # any two states (issue 33): step 10 against step 11, a price of one's own, bad and huge sides, presenter view
    "/zh/compare?" + urlencode({"a": _q(WALKTHROUGH[9].inputs), "b": _q(WALKTHROUGH[10].inputs), "present": "1"}),
    "/zh/compare?" + urlencode({"a": "gpus=-3&method=x", "b": "x" * 5000, "price_a100_80g": "2"}),
    "/zh/compare?" + urlencode({"a": "gpu=h20_96g&gpus=16", "price_a100_80g": "abc"}),
]
# zh-read-9 (issue 37): the states the 12-03 read names, and this round's pages (the planner, the calibration page
# with and without a fitted log, the launch page's unmapped notes, the reference page, the error notices).
READ_9 = [
    "/zh/?method=grpo&reward=verifier", "/zh/?method=grpo", "/zh/?method=dpo",
    "/zh/?arch=qwen3_235b_a22b&gpus=128&gpu=h100_80g", "/zh/?policy_b=175&rm_b=175&gpus=8&gpu=a100_40g",
    "/zh/?present=1", "/zh/?rollouts=abc", "/zh/?gpus=999999", "/zh/reference",
    "/zh/plan", "/zh/plan?" + urlencode(dict(method="grpo", reward="verifier", arch="qwen3_8b", gpu="h100_80g",
                                              gpus=16, rollouts=2048, group=8, prompt_tokens=512, response_tokens=3000,
                                              response_max_tokens=8192, kl=0.001, prompts=17000, passes=1, max_gpus=64)),
    "/zh/calibrate", "/zh/launch?method=grpo&reward=verifier&arch=qwen25_7b&gpu=h100_80g&gpus=64&rollouts=1024"
                     "&passes=2&rollout_dtype=fp8&kl=0.001",
    "/zh/launch?method=dpo", "/zh/launch?policy_b=175&rm_b=175&gpus=8&gpu=a100_40g",
]
PAGES += READ_9
# zh-read-10 (issue 37, the independent read): the 2026 inputs' states and notices (speculative decoding with a model
# that has no MTP heads, an acceptance above the proposed tokens, agentic rollouts sync and async, per-tensor refit of a
# MoE with partial rollouts) and the planner when nothing meets the budget.
READ_10 = [
    "/zh/?speculative=mtp", "/zh/?speculative=draft&acceptance=9",
    "/zh/?method=grpo&reward=verifier&turns=4&env_latency_s=5&observation_tokens=512&agent_loop=sync",
    "/zh/?method=grpo&reward=verifier&turns=4&env_latency_s=5&observation_tokens=512&agent_loop=async&staleness=1"
    "&placement=separate",
    "/zh/?arch=deepseek_v3&gpus=256&gpu=h100_80g&method=grpo&reward=verifier&speculative=mtp",
    "/zh/?arch=qwen3_235b_a22b&gpus=128&gpu=h100_80g&refit=per_tensor&placement=separate&staleness=1"
    "&partial_rollouts=on",
    "/zh/plan?deadline_h=1&budget_usd=10",
]
PAGES += READ_10
# Chinese typography: no half-width : ; , ! ? ( ) next to a Chinese character (a space between them included), and
# none after a Latin word or a number when Chinese follows (「reward model, 然后」「β = 0.001; 组大小」); no half-width
# full stop right after a Chinese character.
HALF_WIDTH = re.compile(rf"[{HAN}]\s*[:;,!?()]|[:;,!?()]\s*[{HAN}]|[{HAN}]\.(?!\d)")
# a space between two Chinese characters (or after a full-width mark) inside one run: Chinese sets none
CJK_GAP = re.compile(rf"[{HAN}，。：；] +[{HAN}]")


def _leaks(client, url: str, headers: dict | None = None) -> tuple[set[str], list[str]]:  # noqa: ANN001
    r = client.get(url, headers=headers or {})
    assert r.status_code in (200, 404), (url, r.status_code)
    runs = _runs(r.text, prose_only=url == TUTORIAL)
    words = {w for run in runs for w in english_left(run)}
    punct = [run.strip()[:80] for run in runs if HALF_WIDTH.search(run) or CJK_GAP.search(run)]
    return words, punct


@pytest.mark.parametrize("url", PAGES)
def test_a_zh_page_reads_in_chinese(client, url: str) -> None:
    words, punct = _leaks(client, url)
    assert not words, f"English on {url}: {sorted(words)}"
    assert not punct, f"half-width punctuation between Chinese on {url}: {punct}"


def test_the_zh_calibration_result_reads_in_chinese(client) -> None:  # noqa: ANN001
    """The calibrate page with a fitted verl log: its phases, factors and notes, as a zh reader sees them."""
    from calibrate.logformats import verl_lines  # noqa: PLC0415

    log = verl_lines([(n, {"timing_s/gen": g, "timing_s/old_log_prob": 9.0, "timing_s/update_actor": 20.0,
                           "timing_s/update_weights": 3.0, "timing_s/step": g + 33.0, "response_length/mean": 1000.0})
                      for n, g in ((1, 29.0), (2, 30.0), (3, 31.0))])
    q = urlencode(dict(method="grpo", arch="qwen25_7b", policy_b=7.6, gpus=16, gpu="h100_80g", reward="verifier",
                       kl=0.001))
    r = client.post(f"/zh/calibrate?{q}", content=urlencode({"log": log}),
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 200 and 'id="calibrate-result"' in r.text
    runs = _runs(r.text)
    words = {w for run in runs for w in english_left(run)}
    punct = [run.strip()[:80] for run in runs if HALF_WIDTH.search(run)]
    assert not words, f"English on the calibration result: {sorted(words)}"
    assert not punct, f"half-width punctuation between Chinese on the calibration result: {punct}"


def test_the_half_width_check_sees_what_chinese_typography_forbids() -> None:
    for bad in ("生成,打分", "生成, 打分", "reward model, 然后", "β = 0.001; 组大小", "见下文:", "(见上文)", "生成 (TP 8)", "完成."):
        assert HALF_WIDTH.search(bad), bad
    for ok in ("生成，打分", "`ln(1 + x)`", "0.5 × 80 GB", "TP 8 × PP 2", "v0.4 的", "54%，"):
        assert not HALF_WIDTH.search(ok), ok
    assert CJK_GAP.search("仍要存 层数") and CJK_GAP.search("条术语。 打开") and not CJK_GAP.search("用 vLLM 生成")


@pytest.mark.parametrize("change", [{"rollouts": 1024}, {"method": "grpo"}, {"method": "dpo"}, {"pairs": 0},
                                    {"staleness": 1, "placement": "separate"}, {"arch": "deepseek_v3"}])
def test_a_zh_partial_reads_in_chinese(client, change: dict) -> None:
    words, punct = _leaks(client, f"/zh/?{_q(**change)}", {
        "HX-Request": "true", "HX-Current-URL": f"http://testserver/zh/?{_q()}"})
    assert not words, f"English in the partial for {change}: {sorted(words)}"
    assert not punct, f"half-width punctuation between Chinese in the partial for {change}: {punct}"


def test_the_tutorial_reading_leaves_out_only_addresses_and_english_blocks():
    html = ("<p>见 <a href='x'>github.com/OpenRLHF/OpenRLHF</a>、<a href='x'>README_zh.md</a>、"
            "<a href='x'>deepspeedai/DeepSpeed, blogs/deepspeed-chat</a> 和 <a href='x'>vLLM blog</a></p>"
            "<table><tr><td>优化器状态</td><td>Optimizer states (16 bytes/param)</td></tr></table>"
            "<ul><li>Anthropic HH-RLHF dataset card：<a href='x'>huggingface.co/datasets/Anthropic/hh-rlhf</a></li></ul>")
    runs = _runs(html, prose_only=True)
    # the three addresses and the English-only cell and list item are gone; the link text "vLLM blog" is prose
    assert [r.strip() for r in runs] == ["见", "、", "、", "和", "vLLM blog", "优化器状态"]
    assert {w for r in runs for w in english_left(r)} == {"blog"}
    # the other pages are read whole
    assert "Optimizer states (16 bytes/param)" in _runs(html)
