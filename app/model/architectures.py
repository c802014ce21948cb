"""A custom architecture given by its ``config.json`` fields (MODEL-FRONTIER §C): the URL's shape parameters, the
``Arch`` they make, the parameters counted from it, and the one mapping from a Hugging Face ``config.json`` to them.

Pure Python, no I/O: the "paste config.json" route (app/routes/config.py) and the page's script
(app/static/config-paste.js, whose mapping tests/model/test_custom_shape.py checks against ``CONFIG_KEYS``) both
use what is here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache

from app.model.assumptions import Arch, c

# The URL's custom-shape parameters, in the form's order (their ranges: app/model/inputs.py SHAPE_NUMBERS).
SHAPE_NAMES: tuple[str, ...] = ("layers", "hidden", "heads", "kv_heads", "head_dim", "vocab", "tied", "intermediate",
                                "experts", "experts_active", "expert_hidden", "kv_lora_rank",
                                # the attention its layers really have (``attention_layers_from_config``)
                                "window_layers", "window", "linear_layers", "linear_state_values")

# config.json key(s) of each parameter, the first present wins: Hugging Face's names across Llama, Qwen2/3,
# Qwen3-MoE (num_experts), Mixtral and gpt-oss (num_local_experts), DeepSeek-V3 and Kimi-K2 (n_routed_experts).
CONFIG_KEYS: dict[str, tuple[str, ...]] = {
    "layers": ("num_hidden_layers",),
    "hidden": ("hidden_size",),
    "heads": ("num_attention_heads",),
    "kv_heads": ("num_key_value_heads",),
    "head_dim": ("head_dim",),
    "vocab": ("vocab_size",),
    "tied": ("tie_word_embeddings",),  # true → 1: the output layer shares the embedding matrix
    "intermediate": ("intermediate_size",),
    "experts": ("n_routed_experts", "num_experts", "num_local_experts"),
    "experts_active": ("num_experts_per_tok", "experts_per_token"),
    "expert_hidden": ("moe_intermediate_size",),
    "kv_lora_rank": ("kv_lora_rank",),
}
# MLA configs (DeepSeek-V3, Kimi-K2) have no head_dim: the query/key width is qk_nope_head_dim + qk_rope_head_dim.
HEAD_DIM_PARTS: tuple[str, str] = ("qk_nope_head_dim", "qk_rope_head_dim")
MAX_CONFIG_BYTES = 65_536  # a config.json is 1–5 kB; a paste past this is refused before it is parsed
MLA_ROPE_DIM = 64  # the decoupled RoPE key width of DeepSeek-V3 and Kimi-K2 (qk_rope_head_dim): teaching assumption
DENSE_FFN_PER_HIDDEN = 8.0 / 3.0  # SwiGLU width when intermediate_size is absent: 3 · d · 8d/3 = 8d², as N = 12·L·d²


def attention_layers_from_config(config: Mapping[str, object]) -> dict[str, int]:
    """The attention a config.json's layers really have: ``window_layers`` and ``window`` (``layer_types``
    "sliding_attention" with ``sliding_window``: gpt-oss, Gemma 3), ``linear_layers`` and ``linear_state_values``
    (``layer_types`` "linear_attention", or every ``full_attention_interval``-th layer full and the rest linear:
    Qwen3-Next's Gated DeltaNet, whose state is linear_num_value_heads · linear_key_head_dim · linear_value_head_dim
    recurrent values plus (linear_conv_kernel_dim − 1) · (2 · key heads · key dim + value heads · value dim)
    convolution inputs).  A plain transformer gives zeros.  The named architectures' fields are these
    (tests/model/test_attention_kv.py reads each model's config.json fields).

    >>> attention_layers_from_config({"num_hidden_layers": 4, "sliding_window": 128,
    ...     "layer_types": ["sliding_attention", "full_attention"] * 2})
    {'window_layers': 2, 'window': 128, 'linear_layers': 0, 'linear_state_values': 0}
    """
    if isinstance(config.get("text_config"), Mapping):
        config = config["text_config"]  # type: ignore[assignment]
    layers = _int(config.get("num_hidden_layers")) or 0
    types = config.get("layer_types")
    if not isinstance(types, list):
        interval = _int(config.get("full_attention_interval"))
        types = (["linear_attention" if (k + 1) % interval else "full_attention" for k in range(layers)]
                 if interval and config.get("linear_num_value_heads") else [])
    window = _int(config.get("sliding_window")) or 0
    window_layers = sum(1 for t in types if t == "sliding_attention") if window else 0
    linear_layers = sum(1 for t in types if t == "linear_attention")
    state = 0
    if linear_layers:
        kh, vh = (_int(config.get(k)) or 0 for k in ("linear_num_key_heads", "linear_num_value_heads"))
        kd, vd = (_int(config.get(k)) or 0 for k in ("linear_key_head_dim", "linear_value_head_dim"))
        conv = max((_int(config.get("linear_conv_kernel_dim")) or 1) - 1, 0)
        state = vh * kd * vd + conv * (2 * kh * kd + vh * vd)
    return {"window_layers": window_layers, "window": window if window_layers else 0, "linear_layers": linear_layers,
            "linear_state_values": state}


CONFIG_ERROR_KINDS = ("too_large", "empty", "malformed", "not_object", "no_layers")


class ConfigError(ValueError):
    """A paste that is not a config.json object; ``kind`` names the reason (a catalogue key's last part)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def _int(value: object) -> int | None:
    """A config value that is a whole number (JSON numbers only; true/false are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return None
    return int(value)


def params_from_config(config: object) -> dict[str, int]:
    """A parsed config.json → the URL's shape parameters it gives (absent or non-integer fields are left out).
    A multimodal config's language model is read from its ``text_config``.

    >>> params_from_config({"num_hidden_layers": 28, "hidden_size": 1536, "tie_word_embeddings": True, "x": 1})
    {'layers': 28, 'hidden': 1536, 'tied': 1}
    >>> params_from_config({"n_routed_experts": 256, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64})
    {'head_dim': 192, 'experts': 256}
    >>> params_from_config({"num_hidden_layers": 2, "sliding_window": 128,
    ...                     "layer_types": ["sliding_attention", "full_attention"]})
    {'layers': 2, 'window_layers': 1, 'window': 128}
    """
    if not isinstance(config, Mapping):
        raise ConfigError("not_object")
    if isinstance(config.get("text_config"), Mapping):
        config = config["text_config"]
    out: dict[str, int] = {}
    for name, keys in CONFIG_KEYS.items():
        for key in keys:
            raw = config.get(key)
            value = int(raw) if name == "tied" and isinstance(raw, bool) else _int(raw)
            if value is not None:
                out[name] = value
                break
        if name == "head_dim" and name not in out:
            nope, rope = (_int(config.get(k)) for k in HEAD_DIM_PARTS)
            if nope is not None and rope is not None:
                out[name] = nope + rope
    # sliding-window and linear-attention layers (gpt-oss, Gemma 3, Qwen3-Next): only what the config has
    out.update({k: v for k, v in attention_layers_from_config(config).items() if v})
    return out


def parse_config(text: str) -> dict[str, int]:
    """The pasted text of a config.json → its shape parameters; ``ConfigError`` when it is too long, empty, not JSON,
    not an object, or gives no ``num_hidden_layers`` (the field that turns the custom shape on)."""
    import json

    if len(text.encode("utf-8", "surrogatepass")) > MAX_CONFIG_BYTES:
        raise ConfigError("too_large")
    if not text.strip():
        raise ConfigError("empty")
    try:
        config = json.loads(text)
    except (ValueError, RecursionError):
        raise ConfigError("malformed") from None
    params = params_from_config(config)
    if "layers" not in params:
        raise ConfigError("no_layers")
    return params


def filled(layers: int, hidden: int | None = None, heads: int | None = None, kv_heads: int | None = None,
           head_dim: int | None = None, vocab: int | None = None, tied: int | None = None,
           intermediate: int | None = None,
           experts: int | None = None, experts_active: int | None = None, expert_hidden: int | None = None,
           kv_lora_rank: int | None = None, window_layers: int | None = None, window: int | None = None,
           linear_layers: int | None = None, linear_state_values: int | None = None) -> dict[str, int]:
    """Every shape field, the absent ones from the custom rule (teaching assumptions, as ``custom_arch``): hidden
    128 · layers, head dim 128 (or hidden / heads), heads hidden / head dim, 8 KV heads (at most the heads),
    Llama 3's vocabulary, untied embeddings, a SwiGLU width of 8/3 · hidden, no experts (8 routed per token and the dense width per
    expert when only ``experts`` is given), no latent KV, every layer full attention (windowed and linear layers at
    most the layers, together; a window without windowed layers, or such layers without their window or state,
    are none).

    >>> filled(32)["hidden"], filled(32)["heads"], filled(32)["kv_heads"], filled(32, heads=12, hidden=1536)["head_dim"]
    (4096, 32, 8, 128)
    """
    hidden = hidden or int(c("aspect_ratio_d_per_layer")) * layers
    head_dim = head_dim or (hidden // heads if heads else int(c("custom_head_dim")))
    heads = heads or max(1, hidden // head_dim)
    kv_heads = min(kv_heads or int(c("custom_kv_heads")), heads)
    intermediate = intermediate or round(DENSE_FFN_PER_HIDDEN * hidden)
    experts = experts or 0
    experts_active = min(experts_active or 8, experts) if experts else 0
    expert_hidden = (expert_hidden or intermediate) if experts else 0
    linear_layers = min(linear_layers or 0, layers) if linear_state_values else 0  # a linear layer keeps a state
    window_layers = min(window_layers or 0, layers - linear_layers) if window else 0
    return dict(layers=layers, hidden=hidden, heads=heads, kv_heads=kv_heads, head_dim=head_dim,
                vocab=vocab or int(c("custom_vocab")), tied=1 if tied else 0, intermediate=intermediate, experts=experts,
                experts_active=experts_active, expert_hidden=expert_hidden, kv_lora_rank=kv_lora_rank or 0,
                window_layers=window_layers, window=(window or 0) if window_layers else 0, linear_layers=linear_layers,
                linear_state_values=(linear_state_values or 0) if linear_layers else 0)


def count_params(s: Mapping[str, int]) -> tuple[float, float]:
    """(total, active) billions of parameters of a filled shape, norms and biases left out.

    Attention: GQA / MHA q, k, v, o = hidden · head_dim · (2 · heads + 2 · kv_heads); MLA (kv_lora_rank > 0, no
    query LoRA counted): q hidden · heads · head_dim, KV down hidden · (kv_lora_rank + 64), KV up kv_lora_rank ·
    heads · 2 · (head_dim − 64), o heads · (head_dim − 64) · hidden.  MLP: dense 3 · hidden · intermediate (SwiGLU);
    with experts every layer is a MoE layer of experts · 3 · hidden · expert_hidden plus a router (no shared
    experts, no dense first layers: a custom shape cannot say so).  Embeddings vocab · hidden, twice unless tied.
    Active: k of E routed experts, embeddings counted (as Qwen and DeepSeek count them).

    Qwen2.5-1.5B's fields (intermediate 8,960, tied): 28 · (5,505,024 + 41,287,680) + 233,373,696 = 1.544 B
    (published 1.54 B; its q, k, v biases and the norms are the missing 0.5 M).
    """
    d, layers = s["hidden"], s["layers"]
    if s["kv_lora_rank"]:
        rope = MLA_ROPE_DIM
        nope = max(s["head_dim"] - rope, 0)
        attn = (d * s["heads"] * s["head_dim"] + d * (s["kv_lora_rank"] + rope)
                + s["kv_lora_rank"] * s["heads"] * 2 * nope + s["heads"] * nope * d)
    else:
        attn = d * s["head_dim"] * (2 * s["heads"] + 2 * s["kv_heads"])
    embed = (1 if s["tied"] else 2) * s["vocab"] * d
    if s["experts"]:
        expert = 3 * d * s["expert_hidden"]
        total = layers * (attn + s["experts"] * expert + d * s["experts"]) + embed
        active = layers * (attn + s["experts_active"] * expert + d * s["experts"]) + embed
    else:
        total = active = layers * (attn + 3 * d * s["intermediate"]) + embed
    return total / 1e9, active / 1e9


@lru_cache(maxsize=256)
def shape_arch(layers: int, hidden: int | None = None, heads: int | None = None, kv_heads: int | None = None,
               head_dim: int | None = None, vocab: int | None = None, tied: int | None = None,
               intermediate: int | None = None,
               experts: int | None = None, experts_active: int | None = None, expert_hidden: int | None = None,
               kv_lora_rank: int | None = None, window_layers: int | None = None, window: int | None = None,
               linear_layers: int | None = None, linear_state_values: int | None = None) -> Arch:
    """The custom architecture of the URL's shape fields (``layers`` given): its ``Arch`` record with the
    parameters counted by ``count_params``.  MLA when ``kv_lora_rank`` > 0 (latent + 64 RoPE values per layer)."""
    s = filled(layers, hidden, heads, kv_heads, head_dim, vocab, tied, intermediate, experts, experts_active,
               expert_hidden, kv_lora_rank, window_layers, window, linear_layers, linear_state_values)
    total, active = count_params(s)
    mla = s["kv_lora_rank"] > 0
    return Arch("shape", s["layers"], s["hidden"], s["heads"], s["kv_heads"], s["head_dim"], s["vocab"],
                round(total, 3), round(active, 3), "mla" if mla else ("mha" if s["kv_heads"] == s["heads"] else "gqa"),
                experts=s["experts"], experts_per_token=s["experts_active"], kv_lora_rank=s["kv_lora_rank"],
                rope_dim=MLA_ROPE_DIM if mla else 0, expert_hidden=s["expert_hidden"],
                moe_layers=s["layers"] if s["experts"] else 0, window_layers=s["window_layers"], window=s["window"],
                linear_layers=s["linear_layers"], linear_state_values=s["linear_state_values"])
