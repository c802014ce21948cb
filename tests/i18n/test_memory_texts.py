"""The memory texts say what they count and follow the state: which models the figure holds, the KV cache the
meter leaves out and the panel's lane adds, one GPU worded as one, and states that do not fit named as such."""

from __future__ import annotations

import re
from functools import partial
from urllib.parse import urlencode

import pytest
from support.page_text import card as _card
from support.page_text import meter as _meter
from support.page_text import query as _q
from support.page_text import text as _text
from support.page_text import why as _why

from app.i18n.formats import fmt_gb
from app.model import DEFAULTS, evaluate, normalise
from app.model.meters import memory_what
from app.model.scenarios import WALKTHROUGH

# tags joined flush ('' keeps 「<code>x</code>」 as 「x」 in running text)
_flush_text, _flush_card, _flush_why = (partial(_text, joiner=""), partial(_card, joiner=""),
                                        partial(_why, joiner=""))

STEP = {w.number: w.inputs for w in WALKTHROUGH}


# --- which models the memory figure counts ----------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "label"), [("zh", "GRPO（policy、reference、reward model）"),
                                             ("en", "GRPO (policy, reference, reward model)")])
def test_grpo_with_a_reward_model_names_it_in_the_memory_figure(client, lang: str, label: str) -> None:
    """Step 9 (GRPO, reward = model): 112 + 14 + 14 = 140 GB of states include the reward model; the meter and the
    why-panel say so.  With a verifier the label stays policy + reference (112 + 14 = 126 GB)."""
    r = evaluate(STEP[9])
    assert r.memory.models.reward_gb > 0 and round(r.memory.total_gb) == 140
    body = client.get(f"/{lang}/?{_q(STEP[9])}").text
    assert label in _meter(body, "train_memory") and label in _why(body)
    verifier = client.get(f"/{lang}/?{_q(STEP[9], reward='verifier')}").text
    assert label not in _meter(verifier, "train_memory")
    assert memory_what("grpo", True, False) == "grpo" and memory_what("grpo", False, False) == "grpo_noref"


GRPO_PRESET = {"arch": "qwen3_8b", "policy_b": 8.2, "method": "grpo", "group": 8, "reward": "verifier", "kl": 0.001,
               "rollouts": 1024, "prompt_tokens": 256, "response_tokens": 2048, "response_max_tokens": 8192,
               "placement": "colocated", "gpu": "h100_80g", "gpus": 16, "eval_every": 10}


@pytest.mark.parametrize(("changes", "zh"), [
    ({}, "policy、reference"),                                      # verifier, β = 0.001
    ({"reward": "model"}, "policy、reference、reward model"),
    ({"kl": 0}, "policy"),                                          # β = 0 and a verifier: the policy only
])  # GRPO trains a policy with no critic: 「policy」 as in its memory line 「GRPO（policy、reference）」, not actor
def test_the_models_beside_dpo_are_this_states(client, changes: dict, zh: str) -> None:
    query = urlencode({**GRPO_PRESET, **changes})
    m = re.search(r"显存里的模型</th><td>(.*?)</td>", client.get(f"/zh/?{query}").text)
    assert m and _flush_text(m.group(1)) == zh


def test_the_dpo_memory_lane_names_the_policy(client) -> None:
    """Step 8 (DPO, 16 × A100): 7e9 × 16 B / 16 = 7 GB of policy states per GPU; DPO has no actor (nor has GRPO)."""
    body = _flush_text(client.get(f"/zh/?{_q(STEP[8])}").text)
    assert "policy 状态 7 GB" in body and "actor 状态 7 GB" not in body
    grpo = _flush_text(client.get(f"/zh/?{urlencode(GRPO_PRESET)}").text)
    assert "policy 状态" in grpo and "actor 状态" not in grpo


# --- the KV cache: left out of the meter, in the panel's lane, on the generation GPU ----------------------------------


def test_the_memory_meter_quotes_the_plans_nvidia_smi_figure(client) -> None:
    """Step 10 (colocated, 16 × H100): the meter's fullest GPU is the plan's one memory figure, as nvidia-smi shows
    it for the exported command: the engine's whole reservation (gpu_memory_utilization × the card) beside what the
    trainer keeps on the GPU while generating, more than the lanes' states + the batch's KV cache; the meter says the
    reservation and the KV cache are in it."""
    r = evaluate(STEP[10])
    p = r.plan
    generating = next(x.gb for x in p.memory_by_phase if x.phase == "generation")
    e = p.engine
    assert generating >= e.gpu_memory_utilization * r.memory.gpu_memory_gb  # the whole reservation
    assert r.meters["train_memory"].figure_args["per_gpu_gb"] == p.memory_per_gpu_gb >= r.memory.lanes[0].total_gb
    text = _meter(client.get(f"/zh/?{_q(STEP[10])}").text, "train_memory")
    need = r.meters["train_memory"].figure_args["need_gb"]
    assert need == max(lane.total_gb for lane in r.memory.lanes) < p.memory_per_gpu_gb  # in use: states + batch KV
    assert "nvidia-smi 显示的数字" in text and "推理引擎预先占下自己的份额" in text
    assert f"实际在用 {fmt_gb(need)}" in text and "不计在内" not in text


@pytest.mark.parametrize(("lang", "lane"), [("zh", "每张 GPU（共 16 张；生成时，含 KV cache） · "),
                                            ("en", "Every GPU (16; while generating, with the KV cache) · ")])
def test_the_memory_panel_says_its_lane_counts_the_kv_cache(client, lang: str, lane: str) -> None:
    """GRPO preset, colocated on 16 H100: the panel's lane is the generation phase — the states, the engine's weights
    and the batch's KV cache (≈ 30.9 GB) plus the rest of the engine's reservation its batch leaves unused — and so
    sums to the plan's one figure as nvidia-smi shows it (≈ 57.2 GB); it says that it counts the KV cache."""
    r = evaluate(normalise({k: [str(v)] for k, v in GRPO_PRESET.items()})[0])
    (gen_lane,) = r.memory.lanes
    assert gen_lane.total_gb == pytest.approx(30.9, abs=0.05) and gen_lane.total_gb < r.plan.memory_per_gpu_gb
    body = _flush_text(client.get(f"/{lang}/?{urlencode(GRPO_PRESET)}").text)
    assert lane + fmt_gb(r.plan.memory_per_gpu_gb) in body


@pytest.mark.parametrize(("lang", "good"), [("zh", "KV cache 不在训练卡上，在生成用的卡上（每张 53 GB）"),
                                            ("en", "not on the training GPUs but on the generation GPUs (53 GB each)")])
def test_step_4_puts_the_kv_cache_on_the_generation_gpu(client, lang: str, good: str) -> None:
    """Step 4, separate: the training lane holds no KV; the generation lane (2 GPUs: one engine of TP 2) holds its
    weights and ≈ 53 GB of KV cache on each GPU (「每张」: the page's split gives generation 2 GPUs, not one)."""
    body = _flush_text(client.get(f"/{lang}/?{_q(STEP[4])}").text)
    assert good in body and "logits 和 KV cache" not in body and "logits and the KV cache" not in body


# --- one GPU, and states that do not fit ------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "bad", "good"), [
    ("zh", ("每张要装", "卡里最满的一张", "这些卡上", "这张卡上每个 epoch"),
     ("单张 80 GB 卡要装 112 GB", "按放得下模型状态的最少卡数 2 张 GPU 算，每个 epoch")),
    ("en", ("per GPU on 1 ×", "the fullest of 1", "on these GPUs", "on this GPU."),
     ("on one 80 GB GPU", "per epoch at 2 GPUs, the fewest its states fit on")),
])
def test_one_gpu_is_not_worded_as_many(client, lang: str, bad: tuple, good: tuple) -> None:
    """Step 2: SFT of a 7B policy on one A100 80GB: 7e9 × 16 B = 112 GB of states on the one card (156 % of 72 GB);
    its epoch is timed on the 2 GPUs that hold them (the timing rule), not on the one card."""
    r = evaluate(STEP[2])
    assert r.meters["train_memory"].figure == "meter.train_memory.figure_nofit_one"
    assert [x.key for x in r.reasons][-1] == "why.memory.nofit_one"  # does not fit: not "too tight"
    body = _flush_text(client.get(f"/{lang}/?{_q(STEP[2])}").text)
    assert not [b for b in bad if b in body] and all(g in body for g in good)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_state_that_does_not_fit_says_memory_is_the_bottleneck(client, lang: str) -> None:
    """PPO 7B/7B on 2 × A100 80GB (colocated): 252 GB of states do not fit; the why-panel names memory and the model's
    fewest GPUs.  Before: 「瓶颈是 policy update……generation 用 33 小时（100%）」 and the card "add generation GPUs or
    shorten responses"."""
    two = DEFAULTS.model_copy(update={"gpus": 2, "placement": "colocated"})
    r = evaluate(two)
    need = r.memory.min_gpus
    assert not r.memory.fits and need > 2
    assert r.reasons[1].key == "why.bottleneck.nofit" and r.reasons[1].args["min_gpus"] == need
    assert r.decisions["rollout_throughput"].reason == "decision.rollout_throughput.nofit"
    body = client.get(f"/{lang}/?{_q(two)}").text
    why, card = _flush_why(body), _flush_card(body, "rollout_throughput")
    if lang == "zh":
        assert "瓶颈是显存" in why and f"至少 {need} 张" in why and "（100%）" not in why
        assert "先让模型状态放得下" in card and "加 generation GPU，或者把回答缩短" not in card
    else:
        assert "Bottleneck: memory" in why and f"at least {need}" in why and "(100%)" not in why
        assert "Make the states fit first" in card and "Add generation GPUs or shorten" not in card


def test_a_step_time_that_does_not_fit_is_marked(client) -> None:
    """Step 2 (7B on one A100): DPO needs more GPUs than the one it has, so its "64 pairs in …" is timed on the
    fewest that fit and says so (the timing rule, applied to DPO's own step)."""
    r = evaluate(STEP[2])
    assert not r.dpo.fits and r.dpo.min_gpus > STEP[2].gpus
    body = client.get(f"/zh/?{_q(STEP[2])}").text
    m = re.search(r'<table class="vs">(.*?)</table>', body, re.S)
    at = f"（按放得下的最少卡数 {r.dpo.min_gpus} 张 GPU）"
    assert m and "64 对需" in _text(m.group(1)) and at in _text(m.group(1)) and "（放不下）" not in _text(m.group(1))
