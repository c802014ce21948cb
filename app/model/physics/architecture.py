"""Architectures: the custom shape rule, KV-cache bytes and FLOPs per token, the weight bytes a decode step reads.

References [n]: the list in ``app/model/physics/__init__.py``.
"""

from __future__ import annotations

from functools import lru_cache

from app.model.assumptions import (
    ARCHS,
    D_MODEL_PER_LAYER,
    FORWARD_FLOPS_PER_PARAM_TOKEN,
    INFER_BYTES_PER_PARAM,
    KV_BYTES_PER_VALUE,
    LORA_TRAIN_FLOPS_PER_PARAM_TOKEN,
    PARAMS_PER_LAYER_D2,
    TRAIN_FLOPS_PER_PARAM_TOKEN,
    Arch,
    c,
)
from app.model.inputs import WorkloadInputs, shape_of

GIGA = 1e9


TERA = 1e12


@lru_cache(maxsize=256)
def custom_arch(params_b: float) -> Arch:
    """The ``custom`` architecture: a dense GQA transformer of ``params_b`` B parameters (teaching assumption).

    Shape rule: N = 12 · L · d² [2] with d = 128 · L (LLaMA-7B 4096/32, LLaMA-13B 5120/40), so
    L = (N / (12 · 128²))^(1/3); 8 KV heads of head dim 128 (as Llama 3 and Qwen 3), fewer when d < 1,024;
    Llama 3's vocabulary of 128,256 tokens.

    >>> a = custom_arch(12 * 32 * 4096**2 / 1e9); round(a.layers, 6), round(a.hidden), a.kv_heads
    (32.0, 4096, 8.0)
    """
    layers = (params_b * GIGA / (PARAMS_PER_LAYER_D2 * D_MODEL_PER_LAYER**2)) ** (1.0 / 3.0)
    head_dim = c("custom_head_dim")
    hidden = D_MODEL_PER_LAYER * layers
    heads = hidden / head_dim
    return Arch("custom", layers, hidden, heads, min(c("custom_kv_heads"), heads), head_dim,  # type: ignore[arg-type]
                int(c("custom_vocab")), params_b, params_b, "gqa")


def policy_arch(inputs: WorkloadInputs) -> Arch:
    """The policy's architecture: a named one from its config.json, the custom shape by its config.json fields
    (``layers`` given: app/model/architectures.py), or the custom shape rule at ``policy_b``."""
    if inputs.arch != "custom":
        return ARCHS[inputs.arch]
    if inputs.layers is not None:
        return shape_of(inputs)
    return custom_arch(inputs.policy_b)


def kv_bytes_per_token(arch: Arch) -> float:
    """KV-cache bytes per token [3], B.

    MHA / GQA: 2 (K and V) · layers · kv_heads · head_dim · 2 B.  MLA (DeepSeek-V3): layers · (kv_lora_rank +
    rope_dim) · 2 B — one latent vector per layer instead of K and V per head.

    >>> kv_bytes_per_token(ARCHS["llama3_8b"]), kv_bytes_per_token(ARCHS["deepseek_v3"])
    (131072.0, 70272.0)
    """
    if arch.attention == "mla":
        return arch.layers * (arch.kv_lora_rank + arch.rope_dim) * KV_BYTES_PER_VALUE
    return 2.0 * arch.layers * arch.kv_heads * arch.head_dim * KV_BYTES_PER_VALUE


def attention_flops_per_token(arch: Arch, context_tokens: float) -> float:
    """Forward FLOPs per token of causal attention over ``context_tokens`` earlier tokens [2, Table 1]:
    2 · layers · d_attn · context, d_attn = heads · head dim.  For a whole sequence of S tokens the average
    context is S / 2."""
    return 2.0 * arch.layers * arch.attn_dim * context_tokens


def forward_flops_per_token(arch: Arch, context_tokens: float) -> float:
    """2 · N_active + attention [2], FLOP per token (a mixture of experts computes with its active parameters)."""
    return FORWARD_FLOPS_PER_PARAM_TOKEN * arch.active_b * GIGA + attention_flops_per_token(arch, context_tokens)


def train_flops_per_token(arch: Arch, context_tokens: float, lora: bool = False) -> float:
    """Forward + backward, FLOP per token: 6 · N_active + 3 × attention [2]; LoRA 4 · N_active (no weight
    gradients of the frozen base [7])."""
    per_param = LORA_TRAIN_FLOPS_PER_PARAM_TOKEN if lora else TRAIN_FLOPS_PER_PARAM_TOKEN
    return per_param * arch.active_b * GIGA + 3.0 * attention_flops_per_token(arch, context_tokens)


def decode_weight_bytes(arch: Arch, batch: float) -> float:
    """Weight bytes one decode step reads for a batch of ``batch`` sequences, B.

    Dense: all 2 B/param.  Mixture of experts: 2 B · (dense + routed · (1 − (1 − k/E)^b)), the experts that at
    least one of b tokens is routed to (k of E per token, routed uniformly: a teaching assumption).

    >>> round(decode_weight_bytes(ARCHS["deepseek_v3"], 64) / 2e9 / ARCHS["deepseek_v3"].total_b, 2)
    0.87
    """
    if not arch.experts:
        return INFER_BYTES_PER_PARAM * arch.total_b * GIGA
    touched = 1.0 - (1.0 - arch.experts_per_token / arch.experts) ** max(batch, 1.0)
    return INFER_BYTES_PER_PARAM * (arch.dense_b + arch.routed_b * touched) * GIGA
