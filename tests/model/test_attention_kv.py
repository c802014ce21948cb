"""KV per token from the attention a model really has (issue 36, item 5): sliding windows and linear-attention layers,
read from each model's config.json, with the arithmetic written out; the engine's batch and a decode step's read
follow; the training activations do not change."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from pytest import approx

from app.model.architectures import attention_layers_from_config, params_from_config
from app.model.assumptions import ARCHS, GPUS
from app.model.evaluate import evaluate
from app.model.inputs import WorkloadInputs
from app.model.physics.architecture import (
    attention_flops_per_token,
    kv_bytes_per_token,
    kv_context_factor,
    kv_fixed_bytes,
    kv_sequence_bytes,
)
from app.model.physics.generation import engine_plan, step_seconds
from app.model.physics.memory import activation_gb

FIXTURES = Path(__file__).parent.parent / "fixtures"
GPT_OSS = ARCHS["gpt_oss_20b"]
NEXT = ARCHS["qwen3_next_80b_a3b"]


def _full(arch):  # the same model if every layer attended to the whole context
    return dataclasses.replace(arch, window_layers=0, window=0, linear_layers=0, linear_state_values=0)


def test_the_named_archs_carry_what_their_config_json_says() -> None:
    for key, name in (("gpt_oss_20b", "gpt_oss_20b_config.json"), ("qwen3_next_80b_a3b", "qwen3_next_80b_a3b_config.json")):
        config = json.loads((FIXTURES / name).read_text())
        a = ARCHS[key]
        got = attention_layers_from_config(config)
        assert got == {"window_layers": a.window_layers, "window": a.window, "linear_layers": a.linear_layers,
                       "linear_state_values": a.linear_state_values}, key
        shape = params_from_config(config)
        assert (shape["layers"], shape["hidden"], shape["heads"], shape["kv_heads"], shape["head_dim"]) == (
            a.layers, a.hidden, a.heads, a.kv_heads, a.head_dim), key
    # gpt-oss-120b: the same alternation over 36 layers
    assert (ARCHS["gpt_oss_120b"].window_layers, ARCHS["gpt_oss_120b"].window) == (18, 128)


def test_qwen3_next_state_from_its_fields() -> None:
    # recurrent 32 · 128 · 128 = 524,288; convolution (4 − 1) · (2 · 16 · 128 + 32 · 128) = 3 · 8,192 = 24,576
    assert NEXT.linear_state_values == 32 * 128 * 128 + 3 * (2 * 16 * 128 + 32 * 128) == 548_864
    assert NEXT.linear_layers == 36 and NEXT.full_layers == 12  # full_attention_interval 4: layers 4, 8, …, 48


def test_sliding_window_kv_of_gpt_oss_written_out() -> None:
    # one layer: 2 (K, V) · 8 KV heads · 64 · 2 B = 2,048 B per token; 12 full + 12 window layers of 128 tokens
    assert kv_bytes_per_token(GPT_OSS) == 12 * 2048 == 24_576
    assert kv_fixed_bytes(GPT_OSS, 32_768) == 12 * 128 * 2048 == 3_145_728
    assert kv_fixed_bytes(GPT_OSS, 100) == 12 * 100 * 2048  # shorter than the window: every token kept
    seq = kv_sequence_bytes(GPT_OSS, 32_768)
    assert seq == 24_576 * 32_768 + 3_145_728 == 808_452_096
    full = kv_sequence_bytes(_full(GPT_OSS), 32_768)
    assert full == 24 * 2048 * 32_768 == 1_610_612_736
    assert full / seq == approx(1.992, abs=1e-3)  # half the layers keep 128 tokens, not 32,768


def test_linear_attention_kv_of_qwen3_next_written_out() -> None:
    # one full layer: 2 · 2 KV heads · 256 · 2 B = 2,048 B per token, 12 of them: 24,576 B per token; 36 DeltaNet
    # layers keep 548,864 values at 2 B each = 39,518,208 B whatever the length
    assert kv_bytes_per_token(NEXT) == 24_576
    assert kv_fixed_bytes(NEXT, 1) == kv_fixed_bytes(NEXT, 131_072) == 36 * 548_864 * 2 == 39_518_208
    seq = kv_sequence_bytes(NEXT, 32_768)
    assert seq == 24_576 * 32_768 + 39_518_208 == 844_824_576
    assert kv_sequence_bytes(_full(NEXT), 32_768) / seq == approx(98_304 * 32_768 / 844_824_576) == approx(3.813, abs=1e-3)


def test_a_plain_transformer_is_unchanged() -> None:
    a = ARCHS["llama3_8b"]
    assert kv_fixed_bytes(a, 10_000) == 0 and kv_context_factor(a, 10_000) == 1.0
    assert kv_sequence_bytes(a, 1000) == 131_072 * 1000
    assert kv_sequence_bytes(a, 1000, own_tokens=600) == 131_072 * 600  # a shared prompt counted once


def test_window_attention_flops_written_out() -> None:
    # 2 · d_attn (64 · 64 = 4,096) · (12 · 10,000 + 12 · 128) tokens attended
    assert attention_flops_per_token(GPT_OSS, 10_000) == 2 * 4096 * (12 * 10_000 + 12 * 128)
    # Qwen3-Next: 2 · (16 · 256) · 12 · 10,000 + 4 · 36 · 548,864 (the state read and updated)
    assert attention_flops_per_token(NEXT, 10_000) == 2 * 4096 * 12 * 10_000 + 4 * 36 * 548_864


def test_activations_do_not_change() -> None:
    # checkpointed layer inputs: layers · d · 2 B per token, whatever each layer's attention
    assert activation_gb(GPT_OSS, 32_768) == activation_gb(_full(GPT_OSS), 32_768) == 24 * 2880 * 2 * 32_768 / 1e9


def test_the_engine_holds_more_sequences_and_reads_less() -> None:
    """gpt-oss-20b on one H100 at 0.6 · 80 = 48 GB: weights 2 · 20.9 = 41.8 GB leave 6.2 GB; a 512 + 32,768-token
    sequence keeps 24,576 · 33,280 + 3,145,728 = 821.0 MB, against 1,635.8 MB for full attention: 7 sequences against 3."""
    gpu = GPUS["h100_80g"]
    kw = dict(prompt_tokens=512, response_tokens=32_768, longest_tokens=32_768, group=1, engine="vllm", gather_gpus=0,
              max_gpus=1)
    real = engine_plan(GPT_OSS, gpu, 48.0, 1, **kw)
    full = engine_plan(_full(GPT_OSS), gpu, 48.0, 1, **kw)
    assert real.kv_footprint_gb == approx((24_576 * 33_280 + 3_145_728) / 1e9)
    assert full.kv_footprint_gb == approx(49_152 * 33_280 / 1e9)
    assert (real.batch_cap, full.batch_cap) == (int((48 - 41.8) / 0.821) , int((48 - 41.8) / 1.6358)) == (7, 3)
    # a decode step of 64 sequences at context 16,896 reads 64 · KV(16,896) of cache, not 64 · 16,896 · 49,152
    args = (gpu, 1, 64.0, 16_896.0, 1e9, 3.35e12 * 0.6, 989e12 * 0.45, 0.0, 0.0)
    t_real = step_seconds(GPT_OSS, *args, kv_bytes_per_token(GPT_OSS), 0.0)[1]
    t_full = step_seconds(_full(GPT_OSS), *args, kv_bytes_per_token(_full(GPT_OSS)), 0.0)[1]
    weights = t_real * 3.35e12 * 0.6 - 64 * kv_sequence_bytes(GPT_OSS, 16_896)
    assert t_full * 3.35e12 * 0.6 - weights == approx(64 * 16_896 * 49_152)


def test_a_long_context_gpt_oss_step_is_shorter_than_its_full_attention_twin() -> None:
    i = WorkloadInputs(arch="gpt_oss_20b", policy_b=20.9, method="grpo", reward="verifier", kl=0, gpu="h100_80g",
                       gpus=8, rollouts=256, prompt_tokens=1024, response_tokens=16_384, response_max_tokens=32_768)
    r = evaluate(i)
    assert r.memory.kv_bytes_per_token == approx(kv_sequence_bytes(GPT_OSS, 1024 + 32_768) / (1024 + 32_768))
    assert r.memory.kv_bytes_per_token < kv_bytes_per_token(_full(GPT_OSS))


@given(window=st.integers(1, 1 << 17), extra=st.integers(0, 1 << 17), tokens=st.integers(1, 1 << 18),
       layers=st.integers(0, 12))
def test_a_longer_window_never_shrinks_kv(window: int, extra: int, tokens: int, layers: int) -> None:
    a = dataclasses.replace(GPT_OSS, window_layers=layers, window=window)
    b = dataclasses.replace(GPT_OSS, window_layers=layers, window=window + extra)
    assert kv_sequence_bytes(b, tokens) >= kv_sequence_bytes(a, tokens)
    assert kv_sequence_bytes(b, tokens) <= kv_sequence_bytes(_full(GPT_OSS), tokens) + 1e-6  # never above full


@given(tokens=st.integers(1, 1 << 18), more=st.integers(0, 1 << 18))
def test_kv_never_shrinks_with_length(tokens: int, more: int) -> None:
    for a in (GPT_OSS, NEXT, ARCHS["deepseek_v3"]):
        assert kv_sequence_bytes(a, tokens + more) >= kv_sequence_bytes(a, tokens)
