"""The architecture table (MODEL-FRONTIER §C): each shape's expert/dense split, with the arithmetic written out.

A routed SwiGLU expert holds three hidden × expert_hidden matrices (gate, up, down), so
expert_b = moe_layers · experts · 3 · hidden · expert_hidden; dense_b = total_b − expert_b.
"""

from __future__ import annotations

import pytest
from pytest import approx

from app.model.assumptions import ARCHS


@pytest.mark.parametrize(("key", "expert_b"), [
    # DeepSeek-V3 config.json: 61 layers, first_k_dense_replace 3 → 58 MoE layers; 256 routed experts,
    # hidden 7,168, moe_intermediate_size 2,048: 58 · 256 · 3 · 7,168 · 2,048 = 653,908,770,816
    ("deepseek_v3", 58 * 256 * 3 * 7168 * 2048 / 1e9),
    # Qwen3-30B-A3B: 48 layers all MoE (decoder_sparse_step 1, mlp_only_layers []), 128 experts, hidden 2,048,
    # moe_intermediate_size 768: 48 · 128 · 3 · 2,048 · 768 = 28,991,029,248
    ("qwen3_30b_a3b", 48 * 128 * 3 * 2048 * 768 / 1e9),
    # Qwen3-235B-A22B: 94 MoE layers, 128 experts, hidden 4,096, moe_intermediate_size 1,536
    # 94 · 128 · 3 · 4,096 · 1,536 = 227,096,395,776
    ("qwen3_235b_a22b", 94 * 128 * 3 * 4096 * 1536 / 1e9),
    # gpt-oss-120b: 36 layers, all MoE, 128 experts of 3 · 2,880 · 2,880: 36 · 128 · 24,883,200 = 114.67 B
    ("gpt_oss_120b", 36 * 128 * 3 * 2880 * 2880 / 1e9),
    # gpt-oss-20b: 24 · 32 · 24,883,200 = 19.11 B
    ("gpt_oss_20b", 24 * 32 * 3 * 2880 * 2880 / 1e9),
    # Kimi-K2: 61 layers, first_k_dense_replace 1 → 60 MoE layers of 384 experts: 60 · 384 · 3 · 7,168 · 2,048
    ("kimi_k2", 60 * 384 * 3 * 7168 * 2048 / 1e9),
])
def test_expert_parameters_from_the_shape(key: str, expert_b: float) -> None:
    a = ARCHS[key]
    assert a.moe
    assert a.expert_b == approx(expert_b)
    assert a.dense_b == approx(a.total_b - expert_b)


def test_expert_split_figures() -> None:
    assert ARCHS["deepseek_v3"].expert_b == approx(653.9, abs=0.05)        # ≈ 654 B of 671 B in routed experts
    assert ARCHS["deepseek_v3"].dense_b == approx(17.1, abs=0.05)          # attention, embeddings, shared, 3 dense
    assert ARCHS["qwen3_30b_a3b"].expert_b == approx(28.99, abs=0.005)
    assert ARCHS["qwen3_235b_a22b"].expert_b == approx(227.10, abs=0.005)


def test_active_parameters_agree_with_the_split() -> None:
    # active = dense + expert · k / E, against the published active count (within 3 %)
    # (gpt-oss's card leaves the 0.58 B input embedding out of its active count: 4.19 B by this rule, card 3.61 B)
    for key in ("deepseek_v3", "qwen3_30b_a3b", "qwen3_235b_a22b", "kimi_k2"):
        a = ARCHS[key]
        assert a.dense_b + a.expert_b * a.experts_per_token / a.experts == approx(a.active_b, rel=0.03), key


@pytest.mark.parametrize("key", [k for k, a in ARCHS.items() if not a.experts])
def test_dense_models_have_no_experts(key: str) -> None:
    a = ARCHS[key]
    assert not a.moe and a.expert_b == 0 and a.dense_b == a.total_b


# --- every named shape against its published parameter counts (MODEL-FRONTIER §C) ----------------------------------
# What config.json gives beyond the Arch record: the dense MLP width (intermediate_size), tied embeddings, q_lora_rank
# (MLA), projection biases (Qwen2.5: q, k, v; gpt-oss: every linear layer).  Each shape's own config.json, as cited in
# its Arch.source.
EXTRA: dict[str, dict] = {
    "llama2_7b": dict(ffn=11_008), "llama2_13b": dict(ffn=13_824),
    "llama3_8b": dict(ffn=14_336), "llama3_70b": dict(ffn=28_672), "llama3_405b": dict(ffn=53_248),
    "qwen25_1_5b": dict(ffn=8_960, tied=True, qkv_bias=True), "qwen25_3b": dict(ffn=11_008, tied=True, qkv_bias=True),
    "qwen25_7b": dict(ffn=18_944, qkv_bias=True), "qwen25_14b": dict(ffn=13_824, qkv_bias=True),
    "qwen25_32b": dict(ffn=27_648, qkv_bias=True),
    "qwen3_4b": dict(ffn=9_728, tied=True), "qwen3_8b": dict(ffn=12_288), "qwen3_14b": dict(ffn=17_408),
    "qwen3_32b": dict(ffn=25_600),
    "llama32_3b": dict(ffn=8_192, tied=True),
    "qwen3_30b_a3b": dict(ffn=6_144), "qwen3_235b_a22b": dict(ffn=12_288),
    "gpt_oss_20b": dict(ffn=2_880, bias=True), "gpt_oss_120b": dict(ffn=2_880, bias=True),
    "deepseek_v3": dict(ffn=18_432, q_lora=1_536), "kimi_k2": dict(ffn=18_432, q_lora=1_536),
}


def counted(key: str) -> tuple[float, float]:
    """(total, active) parameters in billions from the shape, norms left out (< 0.01 %).

    Attention: GQA q, k, v, o = hidden · head_dim · (2 · heads + 2 · kv_heads) (+ biases); MLA (DeepSeek-V3,
    Kimi-K2): q_a hidden · q_lora, q_b q_lora · heads · 192, kv_a hidden · (512 + 64), kv_b 512 · heads · (128 + 128),
    o heads · 128 · hidden.  MLP: 3 · hidden · ffn (SwiGLU) on dense layers; on MoE layers routed experts
    experts · 3 · hidden · expert_hidden, shared experts the same width, a router hidden · experts.  Embeddings
    vocab · hidden, twice unless tied.  Active: the routed experts count k / E of theirs and the input embedding
    (a lookup, no FLOPs) is left out — except where a vendor counts it (below)."""
    a, x = ARCHS[key], EXTRA[key]
    d = a.hidden
    if a.attention == "mla":
        nope = a.head_dim - a.rope_dim
        attn = (d * x["q_lora"] + x["q_lora"] * a.heads * a.head_dim + d * (a.kv_lora_rank + a.rope_dim)
                + a.kv_lora_rank * a.heads * 2 * nope + a.heads * nope * d)
    else:
        attn = d * a.head_dim * (2 * a.heads + 2 * a.kv_heads)
        if x.get("qkv_bias"):
            attn += a.head_dim * (a.heads + 2 * a.kv_heads)
        if x.get("bias"):
            attn += a.head_dim * (a.heads + 2 * a.kv_heads) + d
    expert = 3 * d * a.expert_hidden + (2 * a.expert_hidden + d if x.get("bias") else 0)  # gpt-oss: gate_up, down biases
    dense_mlp = 3 * d * x["ffn"]
    moe_layer_fixed = a.shared_experts * 3 * d * a.expert_hidden + d * a.experts + (a.experts if x.get("bias") else 0)
    dense_layers = a.layers - a.moe_layers
    embed = a.vocab * d * (1 if x.get("tied") else 2)
    total = a.layers * attn + dense_layers * dense_mlp + a.moe_layers * (moe_layer_fixed + a.experts * expert) + embed
    active = (a.layers * attn + dense_layers * dense_mlp
              + a.moe_layers * (moe_layer_fixed + a.experts_per_token * expert) + embed - a.vocab * d)
    return total / 1e9, active / 1e9


# Qwen3-Next's layers are not the GQA / MLA blocks ``counted`` knows: counted in their own test below
_OWN_COUNT = {"qwen3_next_80b_a3b"}


@pytest.mark.parametrize("key", [k for k in ARCHS if k not in _OWN_COUNT])
def test_total_parameters_from_the_shape_match_the_published_count(key: str) -> None:
    # e.g. Qwen2.5-1.5B: 28 · (1,536 · 128 · (2·12 + 2·2) + 128 · 16 + 3 · 1,536 · 8,960) + 151,936 · 1,536 (tied)
    #   = 28 · 46,797,824 + 233,373,696 = 1.544 B (model card: 1.54 B)
    # DeepSeek-V3: 61 · 187.1 M attention + 3 · 396.4 M dense MLP + 58 · 11.32 B MoE + 1.85 B embeddings = 671.0 B
    # Kimi-K2: 61 · 101.1 M + 396.4 M + 60 · 16.96 B + 2.35 B = 1,026 B ("1 T")
    total, _ = counted(key)
    assert total == approx(ARCHS[key].total_b, rel=0.03), f"{key}: {total:.2f} B from the shape"


@pytest.mark.parametrize("key", [k for k, a in ARCHS.items() if a.moe and k not in _OWN_COUNT])
def test_active_parameters_from_the_shape_match_the_published_count(key: str) -> None:
    # gpt-oss-20b: 24 · (26.5 M attention + 4 · 24.9 M experts + router) + 579 M unembedding = 3.61 B (card: 3.61 B);
    # Qwen3 and DeepSeek count the input embedding as active too: Qwen3-30B-A3B 3.04 + 0.31 = 3.35 B (card: 3.3 B)
    _, active = counted(key)
    with_input_embedding = active + ARCHS[key].vocab * ARCHS[key].hidden / 1e9
    published = ARCHS[key].active_b
    assert min(abs(active - published), abs(with_input_embedding - published)) <= 0.03 * published, (
        f"{key}: {active:.2f} / {with_input_embedding:.2f} B active from the shape")


def test_qwen3_next_parameters_from_its_config() -> None:
    """Qwen3-Next-80B-A3B's config.json (cfg_qwen3_next), layer by layer, norms left out:
    12 gated-attention layers: q and its output gate 2,048 · 16 · 256 · 2 = 16,777,216, k and v 2,048 · 2 · 256 · 2
      = 2,097,152, o 4,096 · 2,048 = 8,388,608: 27,262,976
    36 Gated DeltaNet layers: in_proj_qkvz 2,048 · (2 · 2,048 + 2 · 4,096) = 25,165,824, in_proj_ba 2,048 · 64 =
      131,072, conv1d 8,192 · 4 = 32,768, out_proj 4,096 · 2,048 = 8,388,608: 33,718,272
    48 MoE layers: 512 experts · 3 · 2,048 · 512 = 1,610,612,736, one shared expert 3,145,728 and its gate 2,048,
      router 2,048 · 512 = 1,048,576: 1,614,809,088
    embeddings untied 2 · 151,936 · 2,048 = 622,329,856
    total 327,155,712 + 1,213,857,792 + 77,510,836,224 + 622,329,856 = 79.67 B (card: 80 B);
    active without the embeddings 1,541,013,504 + 48 · (10 · 3,145,728 + 3,147,776 + 1,048,576) = 3.25 B (card: 3 B)."""
    a = ARCHS["qwen3_next_80b_a3b"]
    attn = 2048 * 16 * 256 * 2 + 2048 * 2 * 256 * 2 + 16 * 256 * 2048
    delta = 2048 * (2 * 2048 + 2 * 4096) + 2048 * 64 + 8192 * 4 + 4096 * 2048
    expert = 3 * 2048 * 512
    moe_fixed = expert + 2048 + 2048 * 512
    full, linear = a.layers - a.linear_layers, a.linear_layers
    assert (full, linear) == (12, 36) and attn == 27_262_976 and delta == 33_718_272
    total = full * attn + linear * delta + a.moe_layers * (moe_fixed + a.experts * expert) + 2 * a.vocab * a.hidden
    assert total / 1e9 == approx(79.67, abs=0.01) and total / 1e9 == approx(a.total_b, rel=0.03)
    active = full * attn + linear * delta + a.moe_layers * (moe_fixed + a.experts_per_token * expert)
    assert active / 1e9 == approx(3.25, abs=0.01) and active / 1e9 == approx(a.active_b, rel=0.1)  # "3B" rounds down
    assert a.expert_b == approx(48 * 512 * expert / 1e9)
