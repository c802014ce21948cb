"""The estimate's texts follow the state: decision cards, meters, the why-panel and the layout line say what the
model decided (what is hidden, what equals what, engine and placement, β against verl's default, the eval gate) in the
units a reader expects."""

from __future__ import annotations

import re
from functools import partial
from urllib.parse import urlencode

import pytest
from support.page_text import by_class as _by_class
from support.page_text import card as _card
from support.page_text import meter as _meter
from support.page_text import query as _q
from support.page_text import text as _text
from support.page_text import why as _why

from app.i18n.formats import fmt_duration
from app.model import DEFAULTS, evaluate
from app.model.assumptions import EVAL_GATE_MAX_STEPS
from app.model.scenarios import PRESET_BY_ID, WALKTHROUGH

# tags joined flush ('' keeps 「<code>x</code>」 as 「x」 in running text)
_flush_text, _flush_card, _flush_why = (partial(_text, joiner=""), partial(_card, joiner=""),
                                        partial(_why, joiner=""))

STEP = {w.number: w.inputs for w in WALKTHROUGH}

from .test_memory_texts import GRPO_PRESET  # noqa: E402

# --- the layout line --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "fixed"), [("zh", "生成 ¼、打分 ¼、训练 ½"),
                                             ("en", "¼ generation, ¼ scoring, ½ training")])
def test_the_fixed_split_lists_its_fractions_in_the_sentences_order(client, lang: str, fixed: str) -> None:
    """Default PPO (separate, 8 × A100): the layout line lists generation, scoring, training, and so do the
    fractions (generation ¼, scoring ¼, training ½), instead of "½ / ¼ / ¼" that a reader maps to generation."""
    line = _by_class(client.get(f"/{lang}/?placement=separate").text, "ph-layout")
    assert fixed in line and "½ / ¼ / ¼" not in line


# --- what overlaps, and when the step is generation -------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "whole", "part"), [("zh", "全部藏在生成后面", "重叠"),
                                                      ("en", "all of it hidden behind generation", "overlaps")])
def test_the_hidden_scoring_says_all_or_nothing_when_it_is(client, lang: str, whole: str, part: str) -> None:
    """Separate placement: GRPO with 2,048-token responses (2 / 2 / 4 GPUs): its 134 s of scoring all hide behind its
    135 s of generation → 'all of it', not 'of which 134 s'; PPO's generation (OpenRLHF's fixed split, 2 GPUs) hides only part of its ≈ 80 s → the part; colocated: the
    phases take turns, nothing overlaps → no clause at all."""
    grpo = DEFAULTS.model_copy(update={"method": "grpo", "kl": 0.001, "placement": "separate", "response_tokens": 2048})
    ppo = DEFAULTS.model_copy(update={"placement": "separate"})
    assert evaluate(grpo).step.scoring_hidden_all
    assert evaluate(ppo).step.scoring_hidden_any and not evaluate(ppo).step.scoring_hidden_all
    all_hidden = _meter(client.get(f"/{lang}/?{_q(grpo)}").text, "scoring_load")
    assert whole in all_hidden and part not in all_hidden
    some_hidden = _meter(client.get(f"/{lang}/?{_q(ppo)}").text, "scoring_load")
    assert part in some_hidden and whole not in some_hidden
    colocated = _meter(client.get(f"/{lang}/?{_q(placement='colocated')}").text, "scoring_load")
    assert whole not in colocated and part not in colocated


@pytest.mark.parametrize(("lang", "whole"), [("zh", "step 有多长，就由它决定"), ("en", "the step is as long as generation")])
def test_an_overlapped_step_is_not_100_percent_generation(client, lang: str, whole: str) -> None:
    """Step 12: scoring and training hide behind generation, so generation is the whole step (share 1.0).  The
    meter, the why-panel and the estimate panel say so instead of "占 100%" / "83 s of an 83 s step"."""
    r = evaluate(STEP[12])
    assert r.step.generation_is_whole
    body = client.get(f"/{lang}/?{_q(STEP[12])}").text
    assert whole in _meter(body, "rollout_load") and "100%" not in _meter(body, "rollout_load")
    why = _why(body)
    # no phase is "100 % of the step" (the memory line may say its GPU is reserved to 100 % of usable)
    assert "占 100%" not in why and "(100%)" not in why and "（100%）" not in why
    assert ("异步后 step 就由生成" if lang == "zh" else "asynchronous, the step is generation's") in why
    assert "100%" not in _by_class(body, "ph-gen")
    # synchronous (step 11), the share is a share and is printed as one
    assert "占整个 step 的" in _meter(client.get(f"/zh/?{_q(STEP[11])}").text, "rollout_load")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_async_card_prints_both_steps_in_seconds(client, lang: str) -> None:
    """Step 12 (staleness 1): the synchronous step (≈ 126 s) and the async one (≈ 83 s) in seconds, with the saving
    beside them, instead of "83 秒，而不是 2.1 分钟，省下 43 秒"."""
    r = evaluate(STEP[12])
    args = r.decisions["sync_vs_async"].args
    assert args["sync_s"] > 90  # the synchronous side would be printed in minutes by a duration format
    card = _card(client.get(f"/{lang}/?{_q(STEP[12])}").text, "sync_vs_async")
    unit = "秒" if lang == "zh" else "s"
    assert f"{args['sync_s']:.0f} {unit}" in card and f"{args['total_s']:.0f} {unit}" in card
    assert ("分钟" if lang == "zh" else " min") not in card


@pytest.mark.parametrize(("lang", "good"), [("zh", "异步后 step 就等于它"), ("en", "the step is as long as generation")])
def test_the_async_generation_card_has_no_hundred_per_cent(client, lang: str, good: str) -> None:
    """Step 12 with partial rollouts (staleness 1, separate): no response holds the engine, generation is the step and
    scoring + training hide behind it; the card says so, not "(100 %)".  Step 12 itself (no partial rollouts): the
    longest response holds the step, and the card says that instead, still without 100 % and without advising the
    running ahead it already does."""
    streaming = STEP[12].model_copy(update={"partial_rollouts": "on"})
    r = evaluate(streaming)
    assert r.step.generation_is_whole and r.decisions["rollout_throughput"].reason.endswith(".async")
    card = _flush_card(client.get(f"/{lang}/?{_q(streaming)}").text, "rollout_throughput")
    assert good in card and "100%" not in card
    tail = evaluate(STEP[12])
    assert tail.step.generation_is_whole and tail.decisions["rollout_throughput"].reason.endswith(".tail_ahead")
    card = _flush_card(client.get(f"/{lang}/?{_q(STEP[12])}").text, "rollout_throughput")
    assert good not in card and "100%" not in card
    # it runs ahead already: the card does not advise running ahead, it names partial rollouts
    assert ("partial rollout" in card and "让生成异步提前跑" not in card if lang == "zh"
            else "partial rollouts" in card and "let generation run ahead" not in card)


def test_the_colocated_async_card_does_not_apply_colocated_timings_to_separate(client) -> None:
    """Step 10 (colocated): generation ≈ 47 s and scoring + training ≈ 32 s are the colocated timings; under separate
    placement (step 11) they are ≈ 83 s and ≈ 65 s, so the card must not say those two would overlap."""
    card = _flush_card(client.get(f"/zh/?{_q(STEP[10])}").text, "sync_vs_async")
    assert "那时 generation" not in card and "当前同卡部署下" in card


# --- the generation card: engine and placement ------------------------------------------------------------------------


def test_hf_generate_under_separate_placement_has_no_all_gather_clause(client) -> None:
    """engine=hf on the default (separate) state: the generation GPUs hold whole weights, so the model's all-gather
    is 0 ms; the card neither prints "其中 0 毫秒" nor puts generation "in the trainer"."""
    inputs = DEFAULTS.model_copy(update={"engine": "hf", "placement": "separate"})
    r = evaluate(inputs)
    assert r.step.gen.gather_s == 0
    assert r.decisions["rollout_throughput"].reason == "decision.rollout_throughput.hf_separate"
    zh = _card(client.get(f"/zh/?{_q(inputs)}").text, "rollout_throughput")
    en = _card(client.get(f"/en/?{_q(inputs)}").text, "rollout_throughput")
    assert "0 毫秒" not in zh and "在 trainer 里" not in zh and "分离部署" in zh
    assert "0 ms" not in en and "inside the trainer" not in en
    # colocated on 8 GPUs the all-gather is real and the card says how long it takes
    colocated = evaluate(inputs.model_copy(update={"placement": "colocated"}))
    assert colocated.step.gen.gather_s > 0
    assert colocated.decisions["rollout_throughput"].reason == "decision.rollout_throughput.hf"


def test_hf_generate_on_one_gpu_gathers_nothing(client) -> None:
    """One colocated GPU: ZeRO-3 over 1 GPU shards nothing, the model's all-gather is 0 ms; neither the card nor the
    why-panel speaks of all-gathering sharded weights.  A 1B policy and reward model, so the states fit (7B ones on
    one A100 do not, and then the card speaks of memory: read-5 #3)."""
    one = DEFAULTS.model_copy(update={"engine": "hf", "placement": "colocated", "gpus": 1, "policy_b": 1, "rm_b": 1})
    r = evaluate(one)
    assert r.step.gen.gather_s == 0
    assert r.decisions["rollout_throughput"].reason == "decision.rollout_throughput.hf_unsharded"
    body = client.get(f"/zh/?{_q(one)}").text
    assert "0 毫秒" not in _card(body, "rollout_throughput") and "（0 毫秒）" not in _why(body)
    assert "不用 all-gather" in _why(body)


def test_the_colocated_generation_card_does_not_move_gpus_between_groups(client) -> None:
    """GRPO 7B on 8 × A100, colocated: generation 22 % of the step, not the bottleneck.  Every phase already uses
    all 8 GPUs, so the card points at training instead of "GPU 先往训练或 scoring 上加"; separate keeps that advice."""
    colocated = DEFAULTS.model_copy(update={"method": "grpo", "kl": 0.001, "placement": "colocated"})
    r = evaluate(colocated)
    assert r.decisions["rollout_throughput"].reason == "decision.rollout_throughput.ok_colocated"
    card = _card(client.get(f"/zh/?{_q(colocated)}").text, "rollout_throughput")
    assert "GPU 先往" not in card and "同卡部署下各阶段轮流用全部 GPU" in card


@pytest.mark.parametrize(("lang", "good", "bad"), [("zh", "（见教程 13.2 节）", "见教程第"),
                                                   ("en", "not included", "also reshards")])
def test_the_refit_line_counts_one_thing_once(client, lang: str, good: str, bad: str) -> None:
    body = _flush_text(client.get(f"/{lang}/?{urlencode(GRPO_PRESET)}").text)
    line = next(s for s in re.split(r"(?<=[）)])\s", body) if "refit" in s.lower() and "NVLink" in s)
    assert good in body and bad not in body and line.count("重新切分") <= 1


# --- KL and eval cards ------------------------------------------------------------------------------------------------


def test_the_grpo_kl_card_says_beta_is_the_default_and_names_a_lower_one(client) -> None:
    """β = 0.001 is verl's default kl_loss_coef: the card says so ("就是"), not "no higher than"; β = 0.0005 is
    below it and gets its own text."""
    at = PRESET_BY_ID["grpo"].inputs
    assert at.kl == 0.001
    card = _card(client.get(f"/zh/?{_q(at)}").text, "kl_control")
    assert "就是 verl 的默认 kl_loss_coef" in card and "不高于" not in card
    en = _card(client.get(f"/en/?{_q(at)}").text, "kl_control")
    assert "verl's default kl_loss_coef" in en and "no higher than" not in en
    low = evaluate(at.model_copy(update={"kl": 0.0005}))
    assert low.decisions["kl_control"].reason == "decision.kl_control.grpo_low"
    assert "比 verl 的默认 kl_loss_coef（0.001）还小" in _card(client.get(f"/zh/?{_q(at, kl=0.0005)}").text,
                                                               "kl_control")


def test_the_eval_card_names_the_gate_threshold(client) -> None:
    """Step 7 without its gate (eval every 40 steps → warn); the warn text says how far to go: an eval
    every EVAL_GATE_MAX_STEPS (20) steps or fewer is where the lab draws the eval gate.  Ten times step 7's prompts,
    so the run (152 steps) reaches its evals (at 16 steps it would end before the first: the none_in_run card)."""
    inputs = STEP[7].model_copy(update={"eval_every": 40, "step": None, "prompts": 10 * STEP[7].prompts})
    r = evaluate(inputs)
    assert r.decisions["eval_gating"].reason == "decision.eval_gating.warn"
    card = _card(client.get(f"/zh/?{_q(inputs)}").text, "eval_gating")
    assert f"缩到 {EVAL_GATE_MAX_STEPS:.0f} 个 step 以内" in card and "间隔再缩短些" not in card


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


def test_the_dpo_eval_card_says_what_goes_unchecked(client) -> None:
    """DPO every 100 steps: 100 × 64 = 6,400 pairs between evals; 「漏检的不多」 named nothing."""
    dpo = DEFAULTS.model_copy(update={"method": "dpo", "kl": 0.1})
    card = _flush_card(client.get(f"/zh/?{_q(dpo)}").text, "eval_gating")
    assert "漏掉退化的风险不大" in card and "漏检的不多" not in card and "6,400 对" in card


def test_a_loose_dpo_beta_is_not_badged_worth_doing() -> None:
    """DPO at β = 0.02: the KL meter reads 71 (warn), the card warns 「约束偏松」: the badge is a trade-off."""
    r = evaluate(DEFAULTS.model_copy(update={"method": "dpo", "kl": 0.02}))
    d = r.decisions["kl_control"]
    assert r.meters["kl_risk"].level == "warn" and d.reason == "decision.kl_control.warn_dpo" and d.state == "trade_off"
