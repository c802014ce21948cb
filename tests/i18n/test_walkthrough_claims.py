"""The walkthrough's and the tutorial's claims follow the model, in both languages: each step's text quotes the
figures the model computes for it, and each tutorial claim (what the page flags, the fewest GPUs, which phase is the
bottleneck, the OpenRLHF and DeepSpeed-Chat figures, async against colocated, DeepSeek-V3's fit) is checked against the
state its link opens."""

from __future__ import annotations

import re
from functools import partial
from urllib.parse import parse_qs, urlsplit

import pytest
from support.page_text import query as _q
from support.page_text import text as _text
from support.page_text import why as _why

from app.i18n.formats import fmt_gb
from app.model import DEFAULTS, evaluate, normalise
from app.model.calibration import ROW_BY_ID
from app.model.scenarios import PRESET_BY_ID, WALKTHROUGH, walk_figures
from app.tutorial import figure, figures, lab_links, quote_figures, tutorial_path

STEP = {w.number: w.inputs for w in WALKTHROUGH}

_flush_text, _flush_why = partial(_text, joiner=""), partial(_why, joiner="")  # tags joined flush


# --- helpers ----------------------------------------------------------------------------------------------------------


LANGS = ("zh", "en")


def _src(lang: str) -> str:
    return tutorial_path(lang).read_text(encoding="utf-8")


def _section(lang: str, start: str, end: str) -> str:
    src = _src(lang)
    return src[src.index(start):src.index(end)]


def _eval(query: str):  # noqa: ANN202
    inputs, notices = normalise(parse_qs(query))
    assert notices == (), query
    return evaluate(inputs)


def _link_queries(text: str) -> list[str]:
    return [urlsplit(url).query for url, _stage in lab_links(text)]


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


# --- walkthrough steps ------------------------------------------------------------------------------------------------


def test_the_walkthrough_and_presets_read_as_teaching_text(client) -> None:
    body = _text(client.get("/zh/").text)
    assert "原来那个 Lab" not in body and "rollouts 仍为" not in body and "一整圈 loop" not in body
    assert "每步 rollout 数仍为 0" in body
    step10 = _text(client.get(f"/zh/?{_q(STEP[10])}").text)
    assert "秒的下限" not in step10 and "所以生成最少也要" in step10
    dpo = _why(client.get(f"/zh/?{_q(PRESET_BY_ID['dpo'].inputs)}").text)
    assert "rollouts 的设置" not in dpo and "「每个 step 的 rollout 数」" in dpo


def test_step_11_names_the_split_in_order(client) -> None:
    # step 11's numbers list the groups as the sentence does: generation, scoring, training, each with its count
    f = walk_figures(11)
    body = _text(client.get(f"/zh/?{_q(STEP[11])}").text)
    assert "½ / ¼ / ¼" not in body
    assert f"生成 {f['gen_gpus']:.0f} 张" in body
    assert body.index(f"生成 {f['gen_gpus']:.0f} 张") < body.index(f"打分 {f['score_gpus']:.0f} 张") \
        < body.index(f"训练 {f['train_gpus']:.0f} 张")


@pytest.mark.parametrize(("lang", "bad"), [("zh", ("占了 step 的大头", "要重点扩容")),
                                           ("en", ("because it dominates the step", "make generation the part"))])
def test_step_5_does_not_say_generation_dominates(client, lang: str, bad: tuple) -> None:
    """Step 5 (2,048 rollouts, 16 × A100, separate): generation ≈ 2.7 min of ≈ 7 min (37 %), the bottleneck is policy
    update; the why-panel's stage line quotes the share."""
    r = evaluate(STEP[5])
    assert r.bottleneck == "policy_update" and r.step.generation_share < 0.5
    body = client.get(f"/{lang}/?{_q(STEP[5])}").text
    assert not [b for b in bad if b in _flush_text(body)]
    share = f"{100 * r.step.generation_share:.0f}%"
    assert share in _flush_why(body)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_step_9_says_the_split_was_searched_again(client, lang: str) -> None:
    """GRPO vs PPO on step 4's workload: without a critic the split is searched again, and the numbers line quotes
    both splits as the model has them (PPO on OpenRLHF's fixed 2 / 2 / 4, GRPO on 1 / 2 / 5 in two waves); the cause
    is the split, not memory freed for the KV cache."""
    f = walk_figures(9)
    r = evaluate(STEP[9])
    assert (r.step.groups.generation, r.step.groups.training, r.step.gen.waves) == (f["gen_gpus"], f["train_gpus"],
                                                                                     f["waves"])
    assert (f["ppo_gen_gpus"], f["ppo_train_gpus"]) != (f["gen_gpus"], f["train_gpus"])
    good = (f"训练卡 {f['ppo_train_gpus']:.0f} → {f['train_gpus']:.0f} 张" if lang == "zh"
            else f"training GPUs {f['ppo_train_gpus']:.0f} → {f['train_gpus']:.0f}")
    body = _flush_text(client.get(f"/{lang}/?{_q(STEP[9])}").text)
    assert good in body and "显存腾出来给 KV cache" not in body and "more memory free for the KV cache" not in body


# --- tutorial: memory and the fewest GPUs -----------------------------------------------------------------------------


SEVENTY = "policy_b=70&rm_b=70&placement=separate"


def test_the_70b_page_flags_what_4_3_says() -> None:
    r = _eval(SEVENTY)
    # policy update's models do not fit: overloaded; the bottleneck is memory, so no node carries the flag
    assert r.nodes["policy_update"].state == "overloaded"
    assert r.bottleneck == "memory" and not any(n.bottleneck for n in r.nodes.values())
    zh = _section("zh", "### 10.3", "## 11.")
    assert "「Policy update」节点被标成「过载」" in zh and "标的是「瓶颈」" not in zh
    assert "阶段标题把瓶颈标为显存" in zh
    en = _section("en", "### 10.3", "## 11.")
    assert "the policy-update node, whose models do not fit, is flagged overloaded" in en
    assert "the stage header names memory as the bottleneck" in en and "its flag reads bottleneck" not in en


@pytest.mark.parametrize("lang", LANGS)
def test_4_3_quotes_model_states_and_the_training_lane(lang: str) -> None:
    """The training GPUs hold 560 GB of model states each (actor 280 + critic 280); the page's training lane adds
    activations and logits, and the tutorial quotes that sum (through {{fig}}) as the lane the page draws."""
    r = _eval(SEVENTY)
    train = next(lane for lane in r.memory.lanes if lane.lane == "train")
    quoted = figure(SEVENTY, "memory.training_per_gpu_gb+memory.activation_gb+memory.logits_gb", "gb", lang)
    assert quoted == fmt_gb(train.total_gb) and figure(SEVENTY, "memory.training_per_gpu_gb", "gb", lang) == "560 GB"
    assert abs(train.total_gb - (r.memory.training_per_gpu_gb + r.memory.activation_gb + r.memory.logits_gb)) < 1e-6
    assert train.total_gb > r.memory.training_per_gpu_gb
    assert quoted in quote_figures(_section(lang, "### 10.3", "## 11."), lang)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_tutorials_fewest_gpus_links_are_the_models_minimums(lang: str) -> None:
    """§4.3: 70B/70B PPO (separate, as the links are) fits first at memory.min_gpus, in whole hosts of 8 (a host
    fewer does not fit), and the link that says so opens that count, not 64; §9: 70B DPO's dpo.min_gpus likewise."""
    base = {"policy_b": ["70"], "rm_b": ["70"], "placement": ["separate"]}
    ppo = lambda g: evaluate(normalise({**base, "gpus": [str(g)]})[0])  # noqa: E731
    need = ppo(8).memory.min_gpus
    fewer = lambda n: n - 1 if n <= 8 else n - 8  # noqa: E731 - beyond one host, counts are whole hosts
    assert ppo(need).memory.fits and not ppo(fewer(need)).memory.fits and (need <= 8 or need % 8 == 0)
    links = _gpus_of_links(lang, policy_b="70", rm_b="70", method="ppo")
    assert need in links and 64 not in links
    # at 128 GPUs training, not generation, is the bottleneck (the lesson the section draws)
    assert 128 in links and ppo(128).bottleneck == "policy_update"
    dpo = lambda g: evaluate(normalise({**base, "kl": ["0.1"], "method": ["dpo"], "gpus": [str(g)]})[0])  # noqa: E731
    d_need = dpo(32).dpo.min_gpus
    assert dpo(d_need).dpo.fits and not dpo(fewer(d_need)).dpo.fits
    assert _gpus_of_links(lang, policy_b="70", rm_b="70", method="dpo") == {d_need}


def test_the_default_step_names_the_bottleneck_the_lab_marks() -> None:
    """§2.3: 512 rollouts on 1 generation GPU and 5 training GPUs: training (≈ 123 s) is a little longer than
    generation (≈ 117 s), so the policy-update node is the bottleneck; the tutorial says so in both languages."""
    r = evaluate(DEFAULTS)
    assert r.bottleneck == "policy_update" and r.step.training_s > r.step.generation_s
    assert "so the policy-update node is the one marked as the bottleneck" in _tutorial("en")
    assert "所以被标成「瓶颈」的是「Policy update」节点" in _tutorial("zh")


# --- tutorial: the OpenRLHF and DeepSpeed-Chat figures ----------------------------------------------------------------


OPENRLHF_FIG = re.compile(r"rollouts=1024&kl=0\.01&prompt_tokens=1024")


@pytest.mark.parametrize("lang", LANGS)
def test_chapters_5_and_6_quote_the_benchmarks_shape(lang: str) -> None:
    text = _section(lang, "## 4.", "## 5.") + _section(lang, "## 12.", "## 13.")  # 4 and 12, once 5 and 6
    openrlhf = [(q, f) for q, f, _m in figures(text) if OPENRLHF_FIG.search(q)]
    custom = [(q, f) for q, f in openrlhf if not q.startswith("arch=llama2_7b&")]
    # one quote in the custom GQA shape, the contrast after 5.2's table (≈ 362 s of generation against ≈ 491 s)
    assert len(openrlhf) > 40 and custom == [("rollouts=1024&kl=0.01&prompt_tokens=1024&placement=separate", "step.generation_s")]
    for q in _link_queries(text):
        params = {k: v[0] for k, v in parse_qs(q).items()}
        if params["rollouts"] == "1024" and params["prompt_tokens"] == "1024":
            assert params["arch"] == "llama2_7b" and params["policy_b"] == "6.7", q
    for q in _link_queries(_section(lang, "### 13.1", "### 13.2")):  # 13.1 reopens the same workload
        assert "arch=llama2_7b" in q and "policy_b=6.7" in q


@pytest.mark.parametrize(("row", "extra"), [("openrlhf", "&placement=separate"), ("openrlhf_hf", "&placement=colocated&engine=hf")])
def test_the_tutorials_openrlhf_figures_are_the_reality_tables(row: str, extra: str) -> None:
    """5.2's table (separate, vLLM) and 6.3's DeepSpeed-Chat column (colocated, HF generate) are the reality table's
    rows: the same step to the second (the row takes β = 0.02, the tutorial OpenRLHF's 0.01; β does not move time):
    ≈ 491 / 403 / 894 s and ≈ 686 / 201 / 992 s."""
    tutorial = _eval("arch=llama2_7b&rollouts=1024&kl=0.01&prompt_tokens=1024" + extra).step
    table = evaluate(ROW_BY_ID[row].inputs).step
    for name in ("generation_s", "training_s", "total_s"):
        assert getattr(tutorial, name) == pytest.approx(getattr(table, name), rel=1e-9)


def test_5_2_reads_memory_against_compute_without_the_fixed_overhead() -> None:
    """TP 2, batch ≈ 114: the memory read is the decode step less its 4 ms overhead and the all-reduce (≈ 42.9 ms);
    the arithmetic, 114 × 2 × 6.7e9 / (2 × 312e12 × 0.45), is ≈ 5.43 ms; 42.9 / 5.43 ≈ 7.9."""
    q = "arch=llama2_7b&rollouts=1024&kl=0.01&prompt_tokens=1024&placement=separate"
    g = _eval(q).step.gen
    mem = g.decode_step_s - 0.004 - g.all_reduce_s
    compute = g.batch * 6.7e9 * 2 / (g.tensor_parallel * 312e12 * 0.45)
    assert g.tensor_parallel == 2 and 7 < mem / compute < 9
    zh = _section("zh", "### 4.2", "## 5.")
    assert "差了" not in zh and "只有训练的 1/" in zh


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


# --- tutorial: generation, async, mixtures of experts -----------------------------------------------------------------


def test_13_5_quotes_generation_and_names_the_prefill() -> None:
    ppo = _eval("rollouts=512&placement=colocated").step
    grpo = _eval("rollouts=512&placement=colocated&method=grpo&kl=0.001&reward=verifier").step
    assert ppo.gen.batch == grpo.gen.batch and ppo.gen.decode_step_s == grpo.gen.decode_step_s
    # the prefill of 512 prompts of 512 tokens at 2 · 7e9 FLOPs per token on 8 GPUs at 45 %: ≈ 3.3 s, 1/8 of it once
    # per group of 8: the ≈ 2.9 s generation loses
    assert ppo.generation_s - grpo.generation_s == pytest.approx(512 * 512 * 14e9 / (8 * 312e12 * 0.45) * 7 / 8, rel=0.1)
    zh = _section("zh", "### 5.5", "## 6.")
    assert "纹丝不动" not in zh and "prefill" in zh
    assert "{{fig rollouts=512&placement=colocated step.generation_s dur}}" in zh
    assert "leaves generation alone" not in _section("en", "### 5.5", "## 6.")


NEMO = ("rollouts=2048&method=grpo&gpu=h100_80g&prompt_tokens=200&response_tokens=860&arch=llama3_8b&group=32"
        "&reward=verifier&response_max_tokens=3896&kl=0.001")


def _nemo(gpus: int, placement: str, staleness: int) -> float:
    return _eval(f"{NEMO}&gpus={gpus}&placement={placement}&staleness={staleness}").step.total_s


@pytest.mark.parametrize("lang", LANGS)
def test_16_2_links_the_states_its_text_compares(lang: str) -> None:
    links = {(int(p["gpus"][0]), p["placement"][0], int(p["staleness"][0]))
             for p in (parse_qs(q) for q in _link_queries(_section(lang, "### 8.2", "### 8.3")))}
    assert links == {(16, "colocated", 0), (16, "separate", 1), (16, "separate", 0), (32, "colocated", 0),
                     (32, "separate", 1)}


def test_async_on_16_gpus_is_slower_than_colocated_and_pays_on_32() -> None:
    """16 GPUs: colocated ≈ 51 s < async ≈ 58 s < synchronous on the same 4/4/8 split ≈ 66 s; 32 GPUs: async
    ≈ 29 s (max(22, 9.8 + 19.0) + 0.32) < colocated ≈ 42 s.  The text says the first honestly and links the second."""
    assert _nemo(16, "colocated", 0) < _nemo(16, "separate", 1) < _nemo(16, "separate", 0)
    assert _nemo(32, "separate", 1) < _nemo(32, "colocated", 0)
    assert "异步反而更慢" in _section("zh", "### 8.2", "### 8.3")
    assert "async is slower" in _section("en", "### 8.2", "### 8.3")


DSV3 = ("rollouts=512&method=grpo&kl=0.001&placement=colocated&gpu=h100_80g&gpus=256&prompt_tokens=200"
        "&response_tokens=545&arch=deepseek_v3&group=16&reward=verifier&response_max_tokens=1336")


def test_deepseek_v3_fits_on_256_h100_by_expert_and_pipeline_parallelism() -> None:
    """NeMo RL's DeepSeek-V3 run (256 × H100): the lab trains it with Megatron (TP × PP × EP) and fits it at exactly
    its fewest GPUs; offloading the optimizer states or B200s need fewer.  The tutorial says it fits (its figures
    are {{fig}} quotes) and no longer that it does not."""
    r = _eval(DSV3)
    layout = r.step.training_layout
    assert r.memory.fits and r.memory.min_gpus == r.inputs.gpus == 256
    assert layout.backend == "megatron" and layout.pp > 1 and layout.ep > 1
    assert not _eval(DSV3.replace("gpus=256", "gpus=192")).memory.fits
    assert _eval(DSV3 + "&offload=optimizer").memory.min_gpus < 256
    assert _eval(DSV3.replace("h100_80g", "b200_180g")).memory.min_gpus < 256
    zh = _section("zh", "### 11.2", "### 11.3")
    assert "Lab 算出来刚好放得下" in zh and "放不下：" not in zh and "只是示意" not in zh
    en = _section("en", "### 11.2", "### 11.3")
    assert "The lab says it just fits" in en and "does not fit" not in en and "only illustrative" not in en
    assert "EP {{fig" in zh and "EP {{fig" in en
