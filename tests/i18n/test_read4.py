"""The fourth native read's findings (docs/i18n/reads/zh-read-4.md), each as the page renders it: fractions in the
sentence's order, one unit on both sides of a comparison, card text that follows the state (engine and placement,
β at verl's default, colocated or separate, reward model or verifier, staleness), and the launch page's notes."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from support.page_text import by_class as _by_class
from support.page_text import card as _card
from support.page_text import meter as _meter
from support.page_text import query as _q
from support.page_text import text as _text
from support.page_text import why as _why

from app.model import DEFAULTS, evaluate, normalise
from app.model.assumptions import EVAL_GATE_MAX_STEPS
from app.model.meters import memory_what
from app.model.scenarios import PRESET_BY_ID, WALKTHROUGH, walk_figures
from app.tutorial import figures, lab_links, tutorial_path

STEP = {w.number: w.inputs for w in WALKTHROUGH}


# --- 1. OpenRLHF's fixed split, in the order the sentence lists the groups --------------------------------------


@pytest.mark.parametrize(("lang", "fixed"), [("zh", "生成 ¼、打分 ¼、训练 ½"),
                                             ("en", "¼ generation, ¼ scoring, ½ training")])
def test_the_fixed_split_lists_its_fractions_in_the_sentences_order(client, lang: str, fixed: str) -> None:
    """Default PPO (separate, 8 × A100): the layout line lists generation, scoring, training, and so do the
    fractions (generation ¼, scoring ¼, training ½), instead of "½ / ¼ / ¼" that a reader maps to generation."""
    line = _by_class(client.get(f"/{lang}/?placement=separate").text, "ph-layout")
    assert fixed in line and "½ / ¼ / ¼" not in line


def test_step_11_names_the_split_in_order(client) -> None:
    # step 11's numbers list the groups as the sentence does: generation, scoring, training, each with its count
    f = walk_figures(11)
    body = _text(client.get(f"/zh/?{_q(STEP[11])}").text)
    assert "½ / ¼ / ¼" not in body
    assert f"生成 {f['gen_gpus']:.0f} 张" in body
    assert body.index(f"生成 {f['gen_gpus']:.0f} 张") < body.index(f"打分 {f['score_gpus']:.0f} 张") \
        < body.index(f"训练 {f['train_gpus']:.0f} 张")


# --- 2. before and after in one unit ------------------------------------------------------------------------


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


# --- 3. HF generate with nothing to all-gather -----------------------------------------------------------------


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


# --- 4. when the step is generation (staleness ≥ 1) ------------------------------------------------------------


@pytest.mark.parametrize(("lang", "whole"), [("zh", "step 有多长，就由它决定"), ("en", "the step is as long as generation")])
def test_an_overlapped_step_is_not_100_percent_generation(client, lang: str, whole: str) -> None:
    """Step 12: scoring and training hide behind generation, so generation is the whole step (share 1.0).  The
    meter, the why-panel and the estimate panel say so instead of "占 100%" / "83 s of an 83 s step"."""
    r = evaluate(STEP[12])
    assert r.step.generation_share >= 0.995
    body = client.get(f"/{lang}/?{_q(STEP[12])}").text
    assert whole in _meter(body, "rollout_load") and "100%" not in _meter(body, "rollout_load")
    why = _why(body)
    assert "100%" not in why
    assert ("异步后 step 就由生成" if lang == "zh" else "asynchronous, the step is generation's") in why
    assert "100%" not in _by_class(body, "ph-gen")
    # synchronous (step 11), the share is a share and is printed as one
    assert "占整个 step 的" in _meter(client.get(f"/zh/?{_q(STEP[11])}").text, "rollout_load")


# --- 5. GRPO's β at verl's default -------------------------------------------------------------------------------


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


# --- 6. colocated: no split to move GPUs across ------------------------------------------------------------------


def test_the_colocated_generation_card_does_not_move_gpus_between_groups(client) -> None:
    """GRPO 7B on 8 × A100, colocated: generation 22 % of the step, not the bottleneck.  Every phase already uses
    all 8 GPUs, so the card points at training instead of "GPU 先往训练或 scoring 上加"; separate keeps that advice."""
    colocated = DEFAULTS.model_copy(update={"method": "grpo", "kl": 0.001, "placement": "colocated"})
    r = evaluate(colocated)
    assert r.decisions["rollout_throughput"].reason == "decision.rollout_throughput.ok_colocated"
    card = _card(client.get(f"/zh/?{_q(colocated)}").text, "rollout_throughput")
    assert "GPU 先往" not in card and "同卡部署下各阶段轮流用全部 GPU" in card


# --- 7. the memory label names the models it counts ---------------------------------------------------------------


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


# --- 8–10 and the runners-up: wording -----------------------------------------------------------------------------


def test_the_walkthrough_and_presets_read_as_teaching_text(client) -> None:
    body = _text(client.get("/zh/").text)
    assert "原来那个 Lab" not in body and "rollouts 仍为" not in body and "一整圈 loop" not in body
    assert "每步 rollout 数仍为 0" in body
    step10 = _text(client.get(f"/zh/?{_q(STEP[10])}").text)
    assert "秒的下限" not in step10 and "所以生成最少也要" in step10
    dpo = _why(client.get(f"/zh/?{_q(PRESET_BY_ID['dpo'].inputs)}").text)
    assert "rollouts 的设置" not in dpo and "「每个 step 的 rollout 数」" in dpo


def test_the_eval_card_names_the_gate_threshold(client) -> None:
    """Step 7 without its gate (eval every 100 steps → warn or hot); the warn text says how far to go: an eval
    every EVAL_GATE_MAX_STEPS (20) steps or fewer is where the lab draws the eval gate."""
    inputs = STEP[7].model_copy(update={"eval_every": 40, "step": None})
    r = evaluate(inputs)
    assert r.decisions["eval_gating"].reason == "decision.eval_gating.warn"
    card = _card(client.get(f"/zh/?{_q(inputs)}").text, "eval_gating")
    assert f"缩到 {EVAL_GATE_MAX_STEPS:.0f} 个 step 以内" in card and "间隔再缩短些" not in card


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


def test_the_memory_meter_says_the_kv_cache_is_not_counted(client) -> None:
    """Step 10 (colocated, 16 × H100): the meter's fullest GPU (states + the training phase's activations and
    logits) is smaller than the memory panel's lane, which adds the engine's KV cache; the meter says it leaves
    the KV cache out."""
    r = evaluate(STEP[10])
    lane = r.memory.lanes[0]
    assert lane.total_gb > r.memory.peak_per_gpu_gb  # the panel's lane includes the KV cache
    assert "推理引擎的 KV cache 用剩下的显存，不计在内" in _meter(client.get(f"/zh/?{_q(STEP[10])}").text, "train_memory")


def test_a_step_time_that_does_not_fit_is_marked(client) -> None:
    """Step 2 (7B on one A100): DPO needs at least 3 GPUs, so its "64 pairs in 1.6 min" is marked as not fitting."""
    r = evaluate(STEP[2])
    assert not r.dpo.fits and r.dpo.min_gpus == 3
    body = client.get(f"/zh/?{_q(STEP[2])}").text
    m = re.search(r'<table class="vs">(.*?)</table>', body, re.S)
    assert m and "64 对需" in _text(m.group(1)) and "（放不下）" in _text(m.group(1))


# --- the launch page -----------------------------------------------------------------------------------------


def test_the_launch_page_notes_follow_the_method_and_the_commands(client) -> None:
    """Default PPO (separate: OpenRLHF only): 512 rollouts do not split over the training GPUs, with no word about
    GRPO's groups; the prompt-length note names OpenRLHF's flag only; replicas read "每个副本 TP 1"."""
    body = _text(client.get("/zh/launch?placement=separate").text)
    assert "无法均分到训练 GPU 上：命令按" in body and "GRPO 还要按整组分" not in body
    assert "data.max_prompt_length" not in body and "--data.max_len" in body
    assert "每个 TP =" not in body and "每个副本 TP" in body
    assert "框架只接受" not in body


# --- the tutorial's claims follow the model ------------------------------------------------------------------------


def _tutorial(lang: str) -> str:
    return tutorial_path(lang).read_text(encoding="utf-8")


def _gpus_of_links(lang: str, **must: str) -> set[int]:
    """The gpus= of every lab link in the tutorial whose query has the given parameters."""
    out = set()
    for url, _stage in lab_links(_tutorial(lang)):
        q = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
        if all(q.get(k) == v for k, v in must.items()):
            out.add(int(q["gpus"]))
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_tutorials_fewest_gpus_links_are_the_models_minimums(lang: str) -> None:
    """§4.3: 70B/70B PPO fits first at memory.min_gpus (66: 65 does not fit), and the link that says so opens that
    count, not 64 (which the model shows at 144 % of usable memory); §9: 70B DPO's dpo.min_gpus (33, not 32)."""
    ppo = lambda g: evaluate(normalise({"policy_b": ["70"], "rm_b": ["70"], "gpus": [str(g)]})[0])  # noqa: E731
    need = ppo(8).memory.min_gpus
    assert ppo(need).memory.fits and not ppo(need - 1).memory.fits
    links = _gpus_of_links(lang, policy_b="70", rm_b="70", method="ppo")
    assert need in links and 64 not in links
    # at 128 GPUs training, not generation, is the bottleneck (the lesson the section draws)
    assert 128 in links and ppo(128).bottleneck == "policy_update"
    dpo = lambda g: evaluate(normalise({"policy_b": ["70"], "rm_b": ["70"], "kl": ["0.1"], "method": ["dpo"],  # noqa: E731
                                        "gpus": [str(g)]})[0])
    d_need = dpo(32).dpo.min_gpus
    assert dpo(d_need).dpo.fits and not dpo(d_need - 1).dpo.fits
    assert _gpus_of_links(lang, policy_b="70", rm_b="70", method="dpo") == {d_need}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_tutorials_hybrid_engine_of_2023_is_hf_generate(lang: str) -> None:
    """§6.3 argues about generation inside the trainer (DeepSpeed-Chat 2023): its colocated links, the OpenRLHF
    workload and the OPT-13B recipe, set engine=hf, as the lab's reality table does for the same recipe; with the
    paged engine the model's colocated generation is faster than separate, the reverse chapter 15 draws."""
    src = _tutorial(lang)
    section = src[src.index("### 12.3"):src.index("### 12.4")]
    colocated = re.findall(r"\]\((/(?:zh|en)/\?[^ )]*placement=colocated[^ )]*)", section)
    assert colocated and all("engine=hf" in url for url in colocated)
    assert all("engine=hf" in q for q, _f, _m in figures(section) if "placement=colocated" in q)
    q = {"rollouts": ["1024"], "kl": ["0.01"], "prompt_tokens": ["1024"]}
    separate = evaluate(normalise({**q, "placement": ["separate"]})[0]).step
    hf = evaluate(normalise({**q, "placement": ["colocated"], "engine": ["hf"]})[0]).step
    paged = evaluate(normalise({**q, "placement": ["colocated"]})[0]).step
    assert hf.generation_s > separate.generation_s > paged.generation_s


def test_the_default_step_names_the_bottleneck_the_lab_marks() -> None:
    """§2.3: 512 rollouts on 1 generation GPU and 5 training GPUs: training (≈ 123 s) is a little longer than
    generation (≈ 117 s), so the policy-update node is the bottleneck; the tutorial says so in both languages."""
    r = evaluate(DEFAULTS)
    assert r.bottleneck == "policy_update" and r.step.training_s > r.step.generation_s
    assert "so the policy-update node is the one marked as the bottleneck" in _tutorial("en")
    assert "所以被标成「瓶颈」的是「Policy update」节点" in _tutorial("zh")


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
