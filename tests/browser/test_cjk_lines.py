"""Issue 37: Chinese line breaking as Chromium applies it. Under :lang(zh) the page breaks lines strictly (no line
opens with 。，） or a small kana), titles and short labels keep a Chinese word whole (keep-all) and balance their
lines; the English page keeps the defaults. Screenshots (artifacts/screenshots/cjk-*.png) for people to look at."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .conftest import DESKTOP
from .helpers import goto, shoot

pytestmark = pytest.mark.browser

_STYLE = """(sel) => { const e = document.querySelector(sel); const s = getComputedStyle(e);
  return {lineBreak: s.lineBreak, wordBreak: s.wordBreak, textWrap: s.textWrap || s.textWrapStyle,
          lang: e.closest('[lang]').lang}; }"""


def _style(page: Page, selector: str) -> dict:
    return page.evaluate(_STYLE, selector)


def test_zh_titles_and_labels_keep_words_whole_and_balance(open_page, base_url: str) -> None:
    page: Page = open_page(viewport=DESKTOP)
    goto(page, f"{base_url}/zh/")
    for sel in ("h1", ".meter-label", ".preset-title"):
        s = _style(page, sel)
        assert s["lang"].startswith("zh"), s
        assert s["wordBreak"] == "keep-all", (sel, s)
        assert "balance" in s["textWrap"], (sel, s)
        assert s["lineBreak"] == "strict", (sel, s)
    body = _style(page, "main p")
    assert body["lineBreak"] == "strict" and body["wordBreak"] == "normal", body  # prose may break between 汉字
    # the effect: no meter title splits a Chinese word across lines (「Rollout 生成负 / 载」 before)
    split = page.evaluate("""() => [...document.querySelectorAll('.meter-label, .preset-title')].filter((e) => {
        const r = document.createRange(); const t = e.firstChild; if (!t || t.nodeType !== 3) return false;
        let prev = null;
        for (let i = 1; i < t.length; i++) {
          r.setStart(t, i - 1); r.setEnd(t, i); const a = r.getBoundingClientRect().top;
          r.setStart(t, i); r.setEnd(t, i + 1); const b = r.getBoundingClientRect().top;
          if (b > a + 2 && /[\\u4e00-\\u9fff]/.test(t.data[i - 1]) && /[\\u4e00-\\u9fff]/.test(t.data[i])) return true;
        }
        return false; }).map((e) => e.textContent)""")
    assert split == [], split
    shoot(page, "cjk-lab-zh-desktop", full_page=False)
    goto(page, f"{base_url}/zh/?present=1")
    shoot(page, "cjk-present-zh-desktop", full_page=False)


def test_the_english_page_keeps_the_defaults(open_page, base_url: str) -> None:
    page: Page = open_page(viewport=DESKTOP)
    goto(page, f"{base_url}/en/")
    s = _style(page, ".meter-label")
    assert s["wordBreak"] == "normal" and s["lineBreak"] != "strict", s


ZH_PAGES = {
    "compare": "/zh/compare", "reference": "/zh/reference", "plan": "/zh/plan", "calibrate": "/zh/calibrate",
    "nofit": "/zh/?policy_b=175&rm_b=175&gpus=8&gpu=a100_40g", "grpo": "/zh/?method=grpo&reward=verifier",
    "dpo": "/zh/?method=dpo", "launch": "/zh/launch?method=grpo&reward=verifier&arch=qwen25_7b&gpu=h100_80g&gpus=64"
                                        "&rollouts=1024&passes=2&rollout_dtype=fp8&kl=0.001",
}


@pytest.mark.parametrize("name", list(ZH_PAGES))
def test_zh_pages_keep_their_titles_whole(open_page, base_url: str, name: str) -> None:
    """Every zh page this round reads: its headings keep words whole and balance (computed style), and a screenshot
    (artifacts/screenshots/cjk-<name>-zh.png) for a person to look at."""
    page: Page = open_page(viewport=DESKTOP)
    goto(page, f"{base_url}{ZH_PAGES[name]}")
    s = _style(page, "h1, h2")
    assert (s["wordBreak"], s["lineBreak"]) == ("keep-all", "strict") and "balance" in s["textWrap"], s
    shoot(page, f"cjk-{name}-zh", full_page=False)
