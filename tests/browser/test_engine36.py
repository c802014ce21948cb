"""Issue 36's engine mechanisms in Chromium: a wide-EP state's estimates name data-parallel attention in the split
and in "show the math" (en, zh), and the page carries a server-mode state without errors; screenshots of each."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from .helpers import LANGS, goto, shoot

pytestmark = pytest.mark.browser

WIDE = dict(arch="qwen3_30b_a3b", gpus=32, gpu="h100_80g", method="grpo", reward="verifier", rollouts=1024,
            placement="separate", engine_layout="dp_attention")
SERVER = dict(arch="qwen25_1_5b", policy_b=1.54, gpus=8, gpu="h100_80g", method="grpo", reward="verifier",
              placement="separate", generation_gpus=1, engine_api="http", engine_release="sglang")
WORDS = {"en": ("data-parallel attention over 8 GPUs", "wide expert parallelism"),
         "zh": ("8 张 GPU 上做 data parallel 注意力", "大规模专家并行")}


@pytest.mark.parametrize("lang", LANGS)
def test_a_wide_ep_state_reads_as_one(open_page, base_url: str, lang: str) -> None:
    page: Page = open_page()
    goto(page, f"{base_url}/{lang}/?{urlencode(WIDE)}")
    split, engine = WORDS[lang]
    # the step's block sits in the estimates' "more" details: open it as a reader does, then "show the math"
    page.locator("details.est-more > summary").first.click()
    legend = page.locator("#est-step .phase-legend")
    expect(legend.locator(".ph-layout")).to_contain_text(split)
    page.locator("#est-step details.math > summary").first.click()
    expect(page.locator("#est-step .math-list li").first).to_contain_text(engine)
    legend.scroll_into_view_if_needed()
    shoot(page, f"engine36-wide-ep-{lang}", full_page=False)


@pytest.mark.parametrize("lang", LANGS)
def test_a_server_mode_state_renders(open_page, base_url: str, lang: str) -> None:
    page: Page = open_page()
    goto(page, f"{base_url}/{lang}/?{urlencode(SERVER)}")
    page.locator("details.est-more > summary").first.click()
    legend = page.locator("#est-step .phase-legend")
    expect(legend.locator(".ph-sync")).to_be_visible()
    legend.scroll_into_view_if_needed()
    shoot(page, f"engine36-server-{lang}", full_page=False)
