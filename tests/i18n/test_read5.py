"""The fifth native read's findings (docs/i18n/reads/zh-read-5.md), each as the page renders it: notices in the
form's words, one-GPU wording, states whose model states do not fit, the asynchronous generation card, walkthrough
text that follows the model's figures, cards whose badge follows their warning, and figures that say what they count."""

from __future__ import annotations

import re
from functools import partial
from urllib.parse import urlencode

import pytest
from support.page_text import card, query, text, why

from app.model import DEFAULTS, evaluate
from app.model.scenarios import WALKTHROUGH

_q = query
_text, _card, _why = partial(text, joiner=""), partial(card, joiner=""), partial(why, joiner="")  # tags join flush

STEP = {w.number: w.inputs for w in WALKTHROUGH}


def _notices(body: str) -> list[str]:
    return [_text(li) for li in re.findall(r"<li data-field=[^>]*>(.*?)</li>", body, re.S)]


# --- 1. notices in the form's words ---------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "query", "expected"), [
    # 2 GPUs < 4: separate placement is switched to colocated, named by the radio labels the form shows
    ("zh", "gpus=2&placement=separate", "分离部署（separate）至少需要 4 张 GPU，已改为同卡部署（colocated）。"),
    ("en", "gpus=2&placement=separate", "Separate placement needs at least 4 GPUs; using Colocated placement"),
    ("zh", "placement=colocated&staleness=1",
     "同卡部署（colocated）时生成没法提前跑：「Generation 提前步数」≥ 1 需要分离部署，已改为分离部署（separate）。"),
    ("zh", "kl=5", "「KL penalty β」的 5 超过上限，已改为 1（kl）。"),
    ("zh", "method=zz", "「优化方法」没有 zz 这个选项，已改为「PPO」（method）。"),
])
def test_notices_use_the_forms_labels(client, lang: str, query: str, expected: str) -> None:
    """Before: 「placement = separate 至少需要 4 张 GPU，已改用 colocated 。」 (raw enum values)."""
    notices = _notices(client.get(f"/{lang}/?{query}").text)
    assert any(expected in n for n in notices), notices
    assert not any(re.search(r"= (separate|colocated)\b", n) for n in notices), notices
    assert not any(" 。" in n for n in notices), notices


# --- 2. one GPU: no "each", no "the fullest of 1", no "these GPUs" -------------------------------------------------


@pytest.mark.parametrize(("lang", "bad", "good"), [
    ("zh", ("每张要装", "卡里最满的一张", "这些卡上"), ("单张 80 GB 卡要装 112 GB", "这张卡上每个 epoch")),
    ("en", ("per GPU on 1 ×", "the fullest of 1", "on these GPUs"), ("on one 80 GB GPU", "on this GPU")),
])
def test_one_gpu_is_not_worded_as_many(client, lang: str, bad: tuple, good: tuple) -> None:
    """Step 2: SFT of a 7B policy on one A100 80GB: 7e9 × 16 B = 112 GB of states on the one card (156 % of 72 GB)."""
    r = evaluate(STEP[2])
    assert r.meters["train_memory"].figure == "meter.train_memory.figure_nofit_one"
    assert [x.key for x in r.reasons][-1] == "why.memory.nofit_one"  # does not fit: not "too tight"
    body = _text(client.get(f"/{lang}/?{_q(STEP[2])}").text)
    assert not [b for b in bad if b in body] and all(g in body for g in good)


# --- 3. model states that do not fit: the bottleneck is memory -----------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_state_that_does_not_fit_says_memory_is_the_bottleneck(client, lang: str) -> None:
    """PPO 7B/7B on 2 × A100 80GB (colocated): 252 GB of states, 143 GB on the fullest GPU, at least 5 GPUs.  Before:
    「瓶颈是 policy update……generation 用 33 小时（100%）」 and the card "add generation GPUs or shorten responses"."""
    two = DEFAULTS.model_copy(update={"gpus": 2, "placement": "colocated"})
    r = evaluate(two)
    assert not r.memory.fits
    assert r.reasons[1].key == "why.bottleneck.nofit" and r.reasons[1].args["min_gpus"] == 5
    assert r.decisions["rollout_throughput"].reason == "decision.rollout_throughput.nofit"
    body = client.get(f"/{lang}/?{_q(two)}").text
    why, card = _why(body), _card(body, "rollout_throughput")
    if lang == "zh":
        assert "瓶颈是显存" in why and "至少 5 张" in why and "（100%）" not in why
        assert "先让模型状态放得下" in card and "加 generation GPU，或者把回答缩短" not in card
    else:
        assert "Bottleneck: memory" in why and "at least 5" in why and "(100%)" not in why
        assert "Make the states fit first" in card and "Add generation GPUs or shorten" not in card


# --- 4. the asynchronous step is generation: the card says so, not "(100 %)" ----------------------------------------


@pytest.mark.parametrize(("lang", "good"), [("zh", "异步后 step 就等于它"), ("en", "the step is as long as generation")])
def test_the_async_generation_card_has_no_hundred_per_cent(client, lang: str, good: str) -> None:
    """Step 12 (staleness 1, separate): generation ≈ 83 s is the step; scoring + training hide behind it."""
    r = evaluate(STEP[12])
    assert r.step.generation_share >= 0.995
    card = _card(client.get(f"/{lang}/?{_q(STEP[12])}").text, "rollout_throughput")
    assert good in card and "100%" not in card


# --- 5. step 5's stage text follows the model: generation is 37 % of the step, not "the bulk" ----------------------


@pytest.mark.parametrize(("lang", "bad"), [("zh", ("占了 step 的大头", "要重点扩容")),
                                           ("en", ("because it dominates the step", "make generation the part"))])
def test_step_5_does_not_say_generation_dominates(client, lang: str, bad: tuple) -> None:
    """Step 5 (2,048 rollouts, 16 × A100, separate): generation ≈ 2.7 min of ≈ 7 min (37 %), the bottleneck is policy
    update; the why-panel's stage line quotes the share."""
    r = evaluate(STEP[5])
    assert r.bottleneck == "policy_update" and r.step.generation_share < 0.5
    body = client.get(f"/{lang}/?{_q(STEP[5])}").text
    assert not [b for b in bad if b in _text(body)]
    share = f"{100 * r.step.generation_share:.0f}%"
    assert share in _why(body)


# --- 6. step 4: the KV cache is on the generation GPU, not the training card ---------------------------------------


@pytest.mark.parametrize(("lang", "good"), [("zh", "KV cache 不在训练卡上，在生成那张卡上（53 GB）"),
                                            ("en", "not on the training GPUs but on the generation GPU (53 GB)")])
def test_step_4_puts_the_kv_cache_on_the_generation_gpu(client, lang: str, good: str) -> None:
    """Step 4, separate 1/2/5: training lane 22.4 + 22.4 + 4.5 + 12.6 = 61.9 GB, no KV; the generation lane holds
    14 GB of weights and ≈ 53 GB of KV cache."""
    body = _text(client.get(f"/{lang}/?{_q(STEP[4])}").text)
    assert good in body and "logits 和 KV cache" not in body and "logits and the KV cache" not in body


# --- step 9: the cause is the re-searched split, not freed memory --------------------------------------------------


@pytest.mark.parametrize(("lang", "good"), [
    ("zh", "训练卡 5 → 3 张"), ("en", "training GPUs 5 → 3")])
def test_step_9_says_the_split_moved_gpus_to_generation(client, lang: str, good: str) -> None:
    """GRPO vs PPO on step 4's workload: the search gives generation 2 GPUs (batch 512, 1 wave) instead of 1 (batch
    256, 2 waves) and training 3 instead of 5, so generation 117 → 43 s and training only 123 → 102 s."""
    r = evaluate(STEP[9])
    assert (r.step.groups.generation, r.step.groups.training, r.step.gen.waves) == (2, 3, 1)
    body = _text(client.get(f"/{lang}/?{_q(STEP[9])}").text)
    assert good in body and "显存腾出来给 KV cache" not in body and "more memory free for the KV cache" not in body


# --- 7–10: DPO eval card, DPO KL badge, the state's models beside DPO, the refit line -------------------------------

GRPO_PRESET = {"arch": "qwen3_8b", "policy_b": 8.2, "method": "grpo", "group": 8, "reward": "verifier", "kl": 0.001,
               "rollouts": 1024, "prompt_tokens": 256, "response_tokens": 2048, "response_max_tokens": 8192,
               "placement": "colocated", "gpu": "h100_80g", "gpus": 16, "eval_every": 10}


def test_the_dpo_eval_card_says_what_goes_unchecked(client) -> None:
    """DPO every 100 steps: 100 × 64 = 6,400 pairs between evals; 「漏检的不多」 named nothing."""
    dpo = DEFAULTS.model_copy(update={"method": "dpo", "kl": 0.1})
    card = _card(client.get(f"/zh/?{_q(dpo)}").text, "eval_gating")
    assert "漏掉退化的风险不大" in card and "漏检的不多" not in card and "6,400 对" in card


def test_a_loose_dpo_beta_is_not_badged_worth_doing() -> None:
    """DPO at β = 0.02: the KL meter reads 71 (warn), the card warns 「约束偏松」: the badge is a trade-off."""
    r = evaluate(DEFAULTS.model_copy(update={"method": "dpo", "kl": 0.02}))
    d = r.decisions["kl_control"]
    assert r.meters["kl_risk"].level == "warn" and d.reason == "decision.kl_control.warn" and d.state == "trade_off"


@pytest.mark.parametrize(("changes", "zh"), [
    ({}, "actor、reference"),                                       # verifier, β = 0.001
    ({"reward": "model"}, "actor、reference、reward model"),
    ({"kl": 0}, "actor"),                                           # β = 0 and a verifier: the actor only
])
def test_the_models_beside_dpo_are_this_states(client, changes: dict, zh: str) -> None:
    query = urlencode({**GRPO_PRESET, **changes})
    m = re.search(r"显存里的模型</th><td>(.*?)</td>", client.get(f"/zh/?{query}").text)
    assert m and _text(m.group(1)) == zh


@pytest.mark.parametrize(("lang", "good", "bad"), [("zh", "（见教程 13.2 节）", "见教程第"),
                                                   ("en", "not included", "also reshards")])
def test_the_refit_line_counts_one_thing_once(client, lang: str, good: str, bad: str) -> None:
    body = _text(client.get(f"/{lang}/?{urlencode(GRPO_PRESET)}").text)
    line = next(s for s in re.split(r"(?<=[）)])\s", body) if "refit" in s.lower() and "NVLink" in s)
    assert good in body and bad not in body and line.count("重新切分") <= 1


# --- meaning #6: the memory meter and the memory panel say what each counts ---------------------------------------


@pytest.mark.parametrize(("lang", "lane"), [("zh", "每张 GPU（共 16 张；生成时，含 KV cache） · 30.9 GB"),
                                            ("en", "Every GPU (16; while generating, with the KV cache) · 30.9 GB")])
def test_the_memory_panel_says_its_lane_counts_the_kv_cache(client, lang: str, lane: str) -> None:
    """GRPO preset, colocated on 16 H100: the meter's fullest GPU is the training phase without the KV cache,
    147.6 / 16 + 4.8 (activations) + 14.9 (logits) ≈ 29 GB; the panel's lane is the generation phase,
    9.225 + 2.05 (engine weights) + 19.6 (KV cache) ≈ 30.9 GB."""
    body = _text(client.get(f"/{lang}/?{urlencode(GRPO_PRESET)}").text)
    assert lane in body and "29 GB" in body


# --- runner-up: DPO's memory lane names the policy, not an actor ---------------------------------------------------


def test_the_dpo_memory_lane_names_the_policy(client) -> None:
    """Step 8 (DPO, 16 × A100): 7e9 × 16 B / 16 = 7 GB of policy states per GPU; DPO has no actor."""
    body = _text(client.get(f"/zh/?{_q(STEP[8])}").text)
    assert "policy 状态 7 GB" in body and "actor 状态 7 GB" not in body


def test_the_colocated_async_card_does_not_apply_colocated_timings_to_separate(client) -> None:
    """Step 10 (colocated): generation ≈ 47 s and scoring + training ≈ 32 s are the colocated timings; under separate
    placement (step 11) they are ≈ 83 s and ≈ 65 s, so the card must not say those two would overlap."""
    card = _card(client.get(f"/zh/?{_q(STEP[10])}").text, "sync_vs_async")
    assert "那时 generation" not in card and "当前同卡部署的" in card
