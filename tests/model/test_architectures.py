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
    for key in ("deepseek_v3", "qwen3_30b_a3b", "qwen3_235b_a22b"):
        a = ARCHS[key]
        assert a.dense_b + a.expert_b * a.experts_per_token / a.experts == approx(a.active_b, rel=0.03), key


@pytest.mark.parametrize("key", [k for k, a in ARCHS.items() if not a.experts])
def test_dense_models_have_no_experts(key: str) -> None:
    a = ARCHS[key]
    assert not a.moe and a.expert_b == 0 and a.dense_b == a.total_b
