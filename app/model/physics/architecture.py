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


def kv_bytes_per_layer_token(arch: Arch) -> float:
    """KV-cache bytes one attention layer keeps per token [3], B: MHA / GQA 2 (K and V) · kv_heads · head_dim · 2 B;
    MLA (kv_lora_rank + rope_dim) · 2 B — one latent vector instead of K and V per head."""
    if arch.attention == "mla":
        return (arch.kv_lora_rank + arch.rope_dim) * KV_BYTES_PER_VALUE
    return 2.0 * arch.kv_heads * arch.head_dim * KV_BYTES_PER_VALUE


def kv_bytes_per_token(arch: Arch) -> float:
    """KV-cache bytes per token of context that grow with the sequence [3], B: the full-attention layers' (every
    layer of a plain transformer).  Sliding-window and linear-attention layers add a part that stops growing
    (``kv_fixed_bytes``).

    MHA / GQA: 2 (K and V) · layers · kv_heads · head_dim · 2 B.  MLA (DeepSeek-V3): layers · (kv_lora_rank +
    rope_dim) · 2 B.  gpt-oss-20b: 12 full layers of 24 · 2 · 8 · 64 · 2 B = 24,576 B, half the 49,152 a
    full-attention rule gives.

    >>> kv_bytes_per_token(ARCHS["llama3_8b"]), kv_bytes_per_token(ARCHS["deepseek_v3"])
    (131072.0, 70272.0)
    >>> kv_bytes_per_token(ARCHS["gpt_oss_20b"]), kv_bytes_per_token(ARCHS["qwen3_next_80b_a3b"])
    (24576.0, 24576.0)
    """
    return arch.full_layers * kv_bytes_per_layer_token(arch)


def kv_fixed_bytes(arch: Arch, tokens: float) -> float:
    """The part of one sequence's cache that stops growing, B [vllm_hybrid_kv]: window layers · min(L, window) ·
    per-layer bytes per token (a paged engine frees the blocks that slide out of the window) + linear layers ·
    their constant state (values at the KV cache's 2 B).

    >>> kv_fixed_bytes(ARCHS["gpt_oss_20b"], 32_768)          # 12 · 128 · 2,048
    3145728.0
    >>> kv_fixed_bytes(ARCHS["qwen3_next_80b_a3b"], 10)      # 36 · 548,864 · 2, whatever the length
    39518208.0
    """
    window = arch.window_layers * min(max(tokens, 0.0), arch.window) * kv_bytes_per_layer_token(arch)
    return window + arch.linear_layers * arch.linear_state_values * KV_BYTES_PER_VALUE


def kv_sequence_bytes(arch: Arch, tokens: float, own_tokens: float | None = None) -> float:
    """KV-cache bytes of one sequence of L = ``tokens`` tokens, B:
        full layers · L · per-layer bytes + window layers · min(L, window) · per-layer bytes + linear layers · state
    ``own_tokens``: the full layers' tokens this sequence holds alone (a group's shared prompt counted once:
    prompt / group + response); None: all L.

    gpt-oss-20b at L = 32,768: 24,576 · 32,768 + 3,145,728 = 808.5 MB against 1,610.6 MB if every layer attended
    to the whole context (2.0× less); Qwen3-Next-80B-A3B: 24,576 · 32,768 + 39,518,208 = 844.8 MB against
    98,304 · 32,768 = 3,221.2 MB (3.8× less)."""
    grow = tokens if own_tokens is None else own_tokens
    return kv_bytes_per_token(arch) * grow + kv_fixed_bytes(arch, tokens)


def kv_context_factor(arch: Arch, context: float) -> float:
    """A decode step's KV read at ``context`` over the growing rate's: kv_sequence_bytes / (context · kv per
    token), exactly 1 for a model whose every layer attends to the whole context."""
    if not (arch.window_layers or arch.linear_layers) or context <= 0:
        return 1.0
    rate = kv_bytes_per_token(arch)
    if rate <= 0:
        return 1.0
    return kv_sequence_bytes(arch, context) / (context * rate)


def attention_flops_per_token(arch: Arch, context_tokens: float) -> float:
    """Forward FLOPs per token of causal attention over ``context_tokens`` earlier tokens [2, Table 1]:
    2 · d_attn · (full layers · context + window layers · min(context, window)), d_attn = heads · head dim; a
    linear-attention layer reads and updates its constant state, 4 FLOPs per state value (teaching assumption:
    multiply-add of the read and of the decayed update).  For a whole sequence of S tokens the average context is
    S / 2."""
    ctx = max(context_tokens, 0.0)
    attended = arch.full_layers * ctx + arch.window_layers * min(ctx, arch.window)
    return 2.0 * arch.attn_dim * attended + 4.0 * arch.linear_layers * arch.linear_state_values


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
