"""The policy's shape under the architecture picker (``arch_info``)."""

from __future__ import annotations

from app.model.architectures import SHAPE_NAMES
from app.model.inputs import fmt_param
from app.model.physics.architecture import kv_bytes_per_token, kv_fixed_bytes, policy_arch
from app.view.regions.record import frozen


@frozen
class ShapeField:
    """One number field of the custom shape (the paste helper's): its URL name and value ("" when unset)."""

    name: str
    value: str

    @property
    def label_key(self) -> str:
        return f"input.{self.name}.label"


@frozen
class ArchInfoVM:
    """The policy's shape under the architecture picker: a named model's config.json, or the custom rule."""

    arch: str
    custom: bool   # the custom rule at policy_b (no config.json: neither a named model nor the pasted shape)
    layers: float
    hidden: float
    heads: float
    kv_heads: float
    head_dim: int
    attention: str
    total_b: float
    active_b: float
    experts: int
    experts_per_token: int
    kv_bytes_per_token: float
    shape: tuple[ShapeField, ...] = ()  # the custom shape's URL fields (name, value or ""): the paste helper's
    window_layers: int = 0   # layers that keep only a sliding window (gpt-oss)
    window: int = 0
    linear_layers: int = 0   # linear-attention layers with a constant state (Qwen3-Next)
    state_mb: float = 0.0    # their state per sequence, MB

    @property
    def mix_key(self) -> str:  # the attention the layers really have, "" for a plain transformer
        if self.linear_layers:
            return "arch.info.linear"
        return "arch.info.window" if self.window_layers else ""

    @property
    def info_key(self) -> str:  # the custom rule, or a named model's shape (mixture of experts or dense)
        if self.custom:
            return "arch.info.custom"
        return f"arch.info.{'moe' if self.experts else 'dense'}"

    @property
    def attention_key(self) -> str:
        return f"arch.attention.{self.attention}"


def arch_info(i) -> ArchInfoVM:  # noqa: ANN001 - WorkloadInputs
    a = policy_arch(i)
    shape = tuple(ShapeField(name=n, value="" if getattr(i, n) is None else fmt_param(getattr(i, n)))
                  for n in SHAPE_NAMES)
    return ArchInfoVM(arch=a.key if i.arch == "custom" else i.arch, custom=a.key == "custom", layers=a.layers, hidden=a.hidden, heads=a.heads, kv_heads=a.kv_heads,
                      head_dim=a.head_dim, attention=a.attention, total_b=a.total_b, active_b=a.active_b,
                      experts=a.experts, experts_per_token=a.experts_per_token, kv_bytes_per_token=kv_bytes_per_token(a),
                      shape=shape, window_layers=a.window_layers, window=a.window, linear_layers=a.linear_layers,
                      state_mb=kv_fixed_bytes(a, 0) / 1e6)
