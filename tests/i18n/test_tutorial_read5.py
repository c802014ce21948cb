"""The fifth native read's tutorial findings (docs/i18n/reads/zh-read-5.md), in both languages: what 4.3 says the
page flags, the OpenRLHF and DeepSpeed-Chat figures of chapters 5–6 and the reality table from the same inputs,
13.5's generation time, 16.2's async links and 17.2's DeepSeek-V3 link against what the model shows for them."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from app.model import evaluate, normalise
from app.model.calibration import ROW_BY_ID
from app.tutorial import figure, figures, lab_links, quote_figures, tutorial_path

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


# --- 4.3: the 70B/70B page flags Reward model and Rollout gen 「过载」, Policy update 「瓶颈」 -------------------------

SEVENTY = "policy_b=70&rm_b=70&placement=separate"


def test_the_70b_page_flags_what_4_3_says() -> None:
    r = _eval(SEVENTY)
    states = {k: v.state for k, v in r.nodes.items()}
    assert states["reward_model"] == states["rollout_gen"] == "overloaded"
    # policy update is over memory too, but as the bottleneck its flag reads 瓶颈 (regions.html: bottleneck first)
    assert r.bottleneck == "policy_update" and r.nodes["policy_update"].bottleneck
    zh = _section("zh", "### 10.3", "## 11.")
    assert "「Reward model」和「Rollout gen」节点被标成「过载」" in zh
    assert "「Policy update」节点被标成「过载」" not in zh and "标的是「瓶颈」" in zh
    en = _section("en", "### 10.3", "## 11.")
    assert "the reward-model and rollout-gen nodes are flagged overloaded" in en
    assert "policy-update node in the overloaded state" not in en


@pytest.mark.parametrize("lang", LANGS)
def test_4_3_quotes_model_states_and_the_training_lane(lang: str) -> None:
    """4 training GPUs: 560 GB of model states each (actor 280 + critic 280); the page's training lane adds
    activations (≈ 21.1 GB) and logits (≈ 12.6 GB): 593.7 → '594 GB', the figure the tutorial now quotes."""
    r = _eval(SEVENTY)
    train = next(lane for lane in r.memory.lanes if lane.lane == "train")
    quoted = figure(SEVENTY, "memory.training_per_gpu_gb+memory.activation_gb+memory.logits_gb", "gb", lang)
    assert quoted == "594 GB" and figure(SEVENTY, "memory.training_per_gpu_gb", "gb", lang) == "560 GB"
    assert abs(train.total_gb - (r.memory.training_per_gpu_gb + r.memory.activation_gb + r.memory.logits_gb)) < 1e-6
    assert quoted in quote_figures(_section(lang, "### 10.3", "## 11."), lang)


# --- 5.2 and 6.x: the OpenRLHF workload is the reality table's (Llama-2-7B, MHA) -----------------------------------

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


# --- 13.5: generation moves 19 → 16 s, from the shared prefill, and the text says so ---------------------------------


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


# --- 16.2: the async links show what the text says --------------------------------------------------------------------

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


# --- 17.2: the DeepSeek-V3 link does not fit, and the text says so ---------------------------------------------------

DSV3 = ("rollouts=512&method=grpo&kl=0.001&placement=colocated&gpu=h100_80g&gpus=256&prompt_tokens=200"
        "&response_tokens=545&arch=deepseek_v3&group=16&reward=verifier&response_max_tokens=1336")


def test_deepseek_v3_does_not_fit_on_any_gpu_the_lab_has() -> None:
    """The engine's weights are 671e9 × 2 B / TP 8 ≈ 168 GB per GPU: more than usable memory on H100 (72 GB), with
    the optimizer offloaded, and on B200 (162 GB)."""
    for q in (DSV3, DSV3 + "&offload=optimizer", DSV3.replace("h100_80g", "b200_180g")):
        r = _eval(q)
        assert not r.memory.fits
        assert r.inputs.policy_b * 2 / r.step.gen.tensor_parallel > r.memory.usable_gb
    zh = _section("zh", "### 11.2", "### 11.3")
    assert "Lab 算出来放不下" in zh and "只是示意" in zh
    en = _section("en", "### 11.2", "### 11.3")
    assert "The lab says it does not fit" in en and "only illustrative" in en


# --- cross-references follow the term sheet ------------------------------------------------------------------------


def test_zh_cross_references_are_n_m_jie() -> None:
    src = _src("zh")
    assert "见教程" not in src
    assert re.findall(r"第 \d+\.\d+ 节", src) == []
