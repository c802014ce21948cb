"""The workload parameters: names, units, ranges, defaults, slider ladders, and clamping.

One name per parameter, shared by the page URL, the form, the partial and the JSON API
(see shared/design/PRODUCT.md, "the contract").  ``NUMBERS`` and ``CHOICES`` are the one table of parameters;
the pydantic model is built from it.  Two ways in:

* ``WorkloadInputs`` (pydantic) validates strictly; the JSON API uses it and answers 422 naming the field.
* ``normalise(query)`` never fails; the page uses it, clamps what is out of range and returns
  ``Notice`` objects that name the field, what was given and the value used.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, create_model, model_validator

from app.model.architectures import SHAPE_NAMES, shape_arch
from app.model.assumptions import (
    ARCH_IDS,
    ARCHS,
    DECODE_BANDWIDTH_EFFICIENCY,
    DECODE_STEP_OVERHEAD_VLLM_S,
    ENGINE_RELEASE_IDS,
    FORWARD_MFU,
    GPUS,
    JUDGE_DEFAULT_B,
    JUDGE_DEFAULT_TOKENS,
    MICRO_BATCH_TOKENS_PER_GPU,
    SEPARATE_MIN_GPUS,
    SPEC_ACCEPTANCE,
    SPEC_DRAFT_TOKENS,
    TRAIN_MFU,
)


@dataclass(frozen=True, slots=True)
class NumberSpec:
    name: str
    default: float
    minimum: float
    maximum: float
    integer: bool
    unit: str
    ladder: tuple[float, ...]  # slider notches (log-like spacing); typed values need not be on it
    group: str = "workload"
    description: str = ""


@dataclass(frozen=True, slots=True)
class ChoiceSpec:
    name: str
    default: str
    choices: tuple[str, ...]
    group: str = "workload"
    description: str = ""


_M = 1_000_000
_SIZES = (0.1, 0.125, 0.35, 0.5, 1, 1.3, 1.5, 3, 6, 7, 8, 13, 14, 30, 34, 65, 70, 175, 405, 671, 1_000)
_TOKENS = (16, 32, 64, 128, 256, 512, 1_024, 2_048, 4_096, 8_192, 16_384, 32_768, 65_536, 131_072)
NUMBERS: tuple[NumberSpec, ...] = (
    NumberSpec("demos", 13_000, 0, 10 * _M, True, "demos",
               (0, 1_000, 2_000, 5_000, 13_000, 20_000, 50_000, 100_000, 200_000, 500_000, _M, 2 * _M,
                5 * _M, 10 * _M), description="SFT demonstrations"),
    NumberSpec("pairs", 161_000, 0, 10 * _M, True, "pairs",
               (0, 1_000, 5_000, 10_000, 20_000, 61_000, 100_000, 161_000, 300_000, 500_000, _M, 1_420_000,
                2_920_000, 5 * _M, 10 * _M), description="preference pairs"),
    # up to 65,536 responses per step (prompts × group: 8,192 prompts × 8, or 1,024 × 64), as 2026's largest runs
    NumberSpec("rollouts", 512, 0, 65_536, True, "rollouts",
               (0, 16, 32, 64, 128, 256, 384, 512, 640, 768, 1_024, 1_536, 2_048, 3_072, 4_096, 6_144, 8_192, 16_384,
                32_768, 65_536),
               description="rollouts (responses) per RL step"),
    NumberSpec("policy_b", 7, 0.1, 1_100, False, "B params", _SIZES,  # up to Kimi-K2's 1,026 B
               description="policy size, billions of parameters (a named arch sets it)"),
    NumberSpec("rm_b", 7, 0.1, 1_000, False, "B params", _SIZES,
               description="reward model (and critic) size, billions of parameters"),
    NumberSpec("epochs", 1, 1, 16, True, "epochs", tuple(range(1, 17)),
               description="epochs per batch of rollouts (DPO: epochs over the pairs)"),
    NumberSpec("kl", 0.02, 0, 1, False, "β",
               (0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 1),
               description="KL coefficient β; 0 = no KL term and no reference model (DPO's β under DPO, ≥ 0.001)"),
    NumberSpec("eval_every", 100, 1, 1_000, True, "steps",
               (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1_000), description="RL (or DPO) steps between evals"),
    NumberSpec("group", 8, 1, 64, True, "responses per prompt", (1, 2, 4, 8, 16, 32, 64),
               group="algorithm", description="responses sampled per prompt (grpo)"),
    NumberSpec("staleness", 0, 0, 8, True, "steps", (0, 1, 2, 3, 4, 5, 6, 7, 8), group="algorithm", description="0 = synchronous on-policy; k = generation runs k steps ahead (separate placement)"),
    NumberSpec("oversample", 1, 1, 4, False, "×", (1, 1.25, 1.5, 2, 2.5, 3, 4), group="algorithm",
               description="responses generated per response kept (DAPO dynamic sampling drops all-right and all-wrong groups)"),
    NumberSpec("passes", 1, 1, 100, True, "passes", (1, 2, 3, 5, 10, 20, 50, 100), group="algorithm",
               description="passes over the prompt set: the run's totals"),
    NumberSpec("prompts", 31_000, 0, 10 * _M, True, "prompts",
               (0, 1_000, 5_000, 10_000, 31_000, 100_000, 300_000, _M, 3 * _M, 10 * _M),
               group="algorithm", description="the RL prompt set: one pass is the run"),
    NumberSpec("gpus", 8, 1, 4_096, True, "GPUs",
               (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1_024, 2_048, 4_096), group="hardware", description="total GPU count"),
    NumberSpec("prompt_tokens", 512, 16, 131_072, True, "tokens", _TOKENS, group="algorithm", description="prompt length"),
    NumberSpec("response_tokens", 1024, 16, 131_072, True, "tokens", _TOKENS, group="algorithm", description="mean response length"),
    NumberSpec("response_max_tokens", 1024, 16, 131_072, True, "tokens", _TOKENS, group="algorithm", description="the longest response (≥ the mean; absent: the mean)"),
    NumberSpec("optimizer_steps", 0, 0, 64, True, "optimizer steps", (0, 1, 2, 4, 8, 16, 32, 64), group="algorithm",
               description="optimizer steps per RL step (mini-batches per epoch); 0 = the method's recipe default: "
                           "GRPO 1 (NeMo RL), PPO 4 (verl's examples)"),
    NumberSpec("max_tokens_per_gpu", MICRO_BATCH_TOKENS_PER_GPU, 1_024, 131_072, True, "tokens",
               (1_024, 2_048, 4_096, 8_192, 16_384, 32_768, 65_536, 131_072), group="hardware",
               description="tokens of one training micro-batch (verl ppo_max_token_len_per_gpu); a sequence is never "
                           "cut, beyond context parallelism"),
    NumberSpec("context_parallel", 1, 1, 16, True, "GPUs", (1, 2, 4, 8, 16), group="hardware",
               description="context parallelism of training: each sequence's activations split over this many GPUs "
                           "(Megatron CP, verl Ulysses)"),
    NumberSpec("generation_gpus", 0, 0, 4_096, True, "GPUs",
               (0, 1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256, 512, 1_024, 2_048), group="hardware",
               description="separate placement: the GPUs that generate, as a recipe fixes them (NeMo RL's 1-step-off "
                           "halves, verl's 96 : 32); 0 = searched; at most gpus − 1"),
    NumberSpec("engine_tp", 0, 0, 64, True, "GPUs", (0, 1, 2, 4, 8, 16, 32, 64), group="hardware",
               description="tensor parallelism of one engine instance, as a recipe fixes it (vLLM "
                           "tensor_parallel_size); 0 = searched; capped by the NVLink domain, the GPUs and the heads, "
                           "widened when the instance does not fit"),
)
CHOICES: tuple[ChoiceSpec, ...] = (
    ChoiceSpec("method", "ppo", ("ppo", "grpo", "dpo"), description="ppo, grpo (critic-free, group baseline) or dpo"),
    ChoiceSpec("arch", "custom", ARCH_IDS, group="model", description="policy architecture; a named one sets policy_b"),
    ChoiceSpec("reward", "model", ("model", "verifier", "judge"), group="algorithm",
               description="a learned reward model, a rule-based checker, or a generative LLM judge (judge_b, "
                           "judge_tokens) whose own decode is charged to scoring"),
    ChoiceSpec("tuning", "full", ("full", "lora"), group="model", description="full fine-tuning or LoRA adapters on a frozen base"),
    ChoiceSpec("placement", "colocated", ("colocated", "separate"), group="hardware", description="colocated (hybrid engine) or separate (disaggregated) generation and scoring"),
    ChoiceSpec("engine", "vllm", ("vllm", "hf"), group="hardware", description="a paged inference engine, or HF generate inside the trainer"),
    ChoiceSpec("offload", "none", ("none", "optimizer", "params"), group="hardware", description="optimizer states (or parameters, gradients and optimizer states) in host memory"),
    ChoiceSpec("gpu", "a100_80g", tuple(GPUS), group="hardware", description="GPU type"),
    ChoiceSpec("partial_rollouts", "off", ("off", "on"), group="algorithm",
               description="async: an unfinished response continues into the next step (the engine never drains)"),
    ChoiceSpec("rollout_dtype", "bf16", ("bf16", "fp8"), group="hardware",
               description="the engine's weights (and KV cache) in bf16 or fp8"),
)
# The custom shape by its config.json fields (MODEL-FRONTIER §C; app/model/architectures.py maps config.json to them):
# optional, absent by default, used when arch=custom and ``layers`` is given.  Ranges hold every published shape with
# room (Llama-3.1-405B's 126 layers and 16,384 hidden; gpt-oss's 201,088-token vocabulary; Kimi-K2's 384 experts).
SHAPE_NUMBERS: tuple[NumberSpec, ...] = (
    NumberSpec("layers", 0, 1, 256, True, "layers", (1, 256), "model", "num_hidden_layers"),
    NumberSpec("hidden", 0, 64, 32_768, True, "d_model", (64, 32_768), "model", "hidden_size"),
    NumberSpec("heads", 0, 1, 512, True, "heads", (1, 512), "model", "num_attention_heads"),
    NumberSpec("kv_heads", 0, 1, 512, True, "KV heads", (1, 512), "model", "num_key_value_heads (≤ heads)"),
    NumberSpec("head_dim", 0, 8, 1_024, True, "per head", (8, 1_024), "model", "head_dim (MLA: qk_nope + qk_rope)"),
    NumberSpec("vocab", 0, 256, 1_048_576, True, "tokens", (256, 1_048_576), "model", "vocab_size"),
    NumberSpec("tied", 0, 0, 1, True, "0/1", (0, 1), "model", "tie_word_embeddings (1: tied)"),
    NumberSpec("intermediate", 0, 64, 262_144, True, "per layer", (64, 262_144), "model",
               "intermediate_size (dense MLP width)"),
    NumberSpec("experts", 0, 0, 1_024, True, "experts", (0, 1_024), "model", "routed experts (0: dense)"),
    NumberSpec("experts_active", 0, 0, 64, True, "per token", (0, 64), "model",
               "num_experts_per_tok (≤ experts)"),
    NumberSpec("expert_hidden", 0, 0, 65_536, True, "per expert", (0, 65_536), "model", "moe_intermediate_size"),
    NumberSpec("kv_lora_rank", 0, 0, 8_192, True, "latent", (0, 8_192), "model", "kv_lora_rank (MLA; 0: none)"),
    NumberSpec("window_layers", 0, 0, 256, True, "layers", (0, 256), "model",
               "layer_types \"sliding_attention\" (0: none)"),
    NumberSpec("window", 0, 0, 1_048_576, True, "tokens", (0, 1_048_576), "model", "sliding_window"),
    NumberSpec("linear_layers", 0, 0, 256, True, "layers", (0, 256), "model",
               "layer_types \"linear_attention\" (0: none)"),
    NumberSpec("linear_state_values", 0, 0, 16_777_216, True, "values", (0, 16_777_216), "model",
               "a linear layer's state per sequence (recurrent + convolution)"),
)
assert tuple(s.name for s in SHAPE_NUMBERS) == SHAPE_NAMES
# The factors a run's own log pins (``POST /api/calibrate``, app/calibrate/fit.py): optional, absent by default, and
# absent means the lab's own constant (``default`` here is that constant, for the texts; refit_s: the modelled refit,
# 0 standing in).  The range is the fit's bound: a fitted value never leaves it.  Each replaces the constant at the one
# place the physics uses it (docs/calibrate.md, "Factors").
FACTOR_NUMBERS: tuple[NumberSpec, ...] = (
    NumberSpec("decode_bandwidth_efficiency", DECODE_BANDWIDTH_EFFICIENCY, 0.05, 1.0, False, "of HBM bandwidth",
               (0.05, 1.0), "factor", "fraction of the datasheet HBM bandwidth a decode step reads at (the lab's "
               "decode_bandwidth_efficiency)"),
    NumberSpec("decode_step_overhead_s", DECODE_STEP_OVERHEAD_VLLM_S, 0.0, 0.5, False, "s per decode step",
               (0.0, 0.5), "factor", "fixed seconds each decode step adds (the lab's decode_step_overhead_vllm_s or "
               "_hf_s)"),
    NumberSpec("scoring_mfu", FORWARD_MFU, 0.01, 0.9, False, "of peak BF16", (0.01, 0.9), "factor",
               "utilisation of the scoring forwards: old log-probs, reference, values, reward model (the lab's "
               "forward_mfu)"),
    NumberSpec("train_mfu", TRAIN_MFU, 0.01, 0.9, False, "of peak BF16", (0.01, 0.9), "factor",
               "training utilisation of the RL loop's models (the lab's train_mfu)"),
    NumberSpec("refit_s", 0.0, 0.0, 3_600.0, False, "s per step", (0.0, 3_600.0), "factor",
               "seconds of the weight refit (colocated: refit and engine wake; separate: the weight broadcast) each "
               "step, in place of the modelled one"),
)
FACTOR_NAMES: tuple[str, ...] = tuple(s.name for s in FACTOR_NUMBERS)
# How 2026 systems run a step (issue 36): ordinary inputs with defaults, in the canonical query only when they differ
# from it, so every URL written before them still names the same state.
PRACTICE_CHOICES: tuple[ChoiceSpec, ...] = (
    ChoiceSpec("refit", "bucketed", ("bucketed", "per_tensor"), group="hardware",
               description="how the new weights reach the engine each step: bucketed (verl's checkpoint engine, NeMo "
                           "RL's refit buffer: the gather pipelined with the broadcast) or per_tensor (verl's NCCL "
                           "path: a collective per tensor)"),
    ChoiceSpec("speculative", "off", ("off", "mtp", "draft"), group="hardware",
               description="speculative decoding in the engine: off, the model's own multi-token-prediction heads "
                           "(mtp: DeepSeek-V3 ships one) or a draft (a small draft model or EAGLE head proposing "
                           "spec_draft_tokens); the target verifies them in one forward"),
    ChoiceSpec("agent_loop", "sync", ("sync", "async"), group="algorithm",
               description="multi-turn rollouts: sync (the engine's batch drains at every turn and waits for the "
                           "environment) or async (each trajectory proceeds on its own: verl's agent loop, SGLang's "
                           "async multi-turn; the environment's latency overlaps other trajectories' decoding)"),
    ChoiceSpec("engine_release", "vllm_v1", ENGINE_RELEASE_IDS, group="hardware",
               description="the paged engine and release, for its fixed CPU / scheduler cost per decode step "
                           "(data/engines.toml): vllm_v1 (vLLM V1, synchronous scheduling, CUDA graphs: what verl "
                           "0.9.1 starts), vllm_v1_async (--async-scheduling), vllm_v0, vllm_eager (enforce_eager, no "
                           "CUDA graphs) or sglang (its overlap scheduler); a fitted decode_step_overhead_s overrides it"),
    ChoiceSpec("engine_layout", "tp", ("tp", "auto", "dp_attention"), group="hardware",
               description="the engine instance of a mixture of experts: tp (tensor parallel within a node, pipeline "
                           "stages beyond: the layout the published recipes run), auto (the search takes the faster "
                           "that fits) or dp_attention (wide expert parallelism: "
                           "attention data-parallel, each GPU its own sequences' KV, the experts over all the "
                           "instance's GPUs, across nodes by DeepEP's all-to-all; SGLang --enable-dp-attention, vLLM "
                           "--data-parallel-size with --enable-expert-parallel); dense models always run tp"),
    ChoiceSpec("engine_api", "inprocess", ("inprocess", "http"), group="hardware",
               description="how the trainer reaches separate engines: inprocess (Ray actors and NCCL: verl, OpenRLHF, "
                           "NeMo RL) or http (TRL's vllm_mode=server: a vLLM server behind HTTP, every request and "
                           "every weight tensor a round trip); colocated engines are always in process"),
)
PRACTICE_NUMBERS: tuple[NumberSpec, ...] = (
    NumberSpec("acceptance", SPEC_ACCEPTANCE, 1.0, 8.0, False, "tokens per decode step",
               (1.0, 1.5, 1.8, 2.0, 2.5, 3.0, 4.0), group="hardware",
               description="speculative decoding: mean tokens each verification step emits (acceptance length; at "
                           "most the proposed tokens + 1)"),
    NumberSpec("turns", 1, 1, 64, True, "turns per episode", (1, 2, 3, 4, 6, 8, 12, 16, 32, 64), group="algorithm",
               description="agentic rollouts: model turns per episode (response_tokens and response_max_tokens are "
                           "per turn; between turns the environment answers)"),
    NumberSpec("env_latency_s", 0.0, 0.0, 600.0, False, "s per turn", (0, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 600),
               group="algorithm", description="agentic rollouts: seconds the environment (tool call, code sandbox, "
                                                 "test run) takes per turn"),
    NumberSpec("observation_tokens", 0, 0, 32_768, True, "tokens per turn", (0, 64, 256, 1_024, 4_096, 16_384),
               group="algorithm", description="agentic rollouts: tokens the environment feeds back per turn "
                                                 "(prefilled, scored and trained over, never generated)"),
)
# reward=judge: a generative LLM judge (an off-the-shelf instruct model prompted to grade each rollout, then a verdict),
# served like the rollout engine; its size and output length are teaching assumptions (judge_default_b: a 7 B judge,
# the reward model's default size; judge_default_tokens: a short rationale and a verdict in 512 tokens)
JUDGE_NUMBERS: tuple[NumberSpec, ...] = (
    NumberSpec("judge_b", JUDGE_DEFAULT_B, 0.5, 1_000, False, "B params", (0.5, 1.5, 3, 7, 8, 14, 32, 70, 235, 671), group="algorithm",
               description="reward=judge: the LLM judge's size, billions of parameters"),
    NumberSpec("judge_tokens", JUDGE_DEFAULT_TOKENS, 1, 32_768, True, "tokens per rollout", (1, 16, 64, 256, 512, 1_024, 2_048, 4_096,
                                                                         8_192, 32_768),
               group="algorithm", description="reward=judge: tokens the judge writes per rollout (its rationale and "
                                              "verdict), decoded on the scoring GPUs"),
)
PRACTICE_NUMBERS = (*PRACTICE_NUMBERS, *JUDGE_NUMBERS)
PRACTICE_SPECS: dict[str, NumberSpec | ChoiceSpec] = {s.name: s for s in (*PRACTICE_NUMBERS, *PRACTICE_CHOICES)}
PRACTICE_NAMES: tuple[str, ...] = tuple(PRACTICE_SPECS)
NUMBER_SPECS = {s.name: s for s in NUMBERS}
SHAPE_SPECS = {s.name: s for s in SHAPE_NUMBERS}
FACTOR_SPECS = {s.name: s for s in FACTOR_NUMBERS}
CHOICE_SPECS = {s.name: s for s in CHOICES}
PARAM_NAMES: tuple[str, ...] = (  # the contract's parameters in the form's order (the canonical query's order)
    "demos", "pairs", "rollouts", "policy_b", "rm_b", "epochs", "kl", "eval_every", "method",  # workload
    "group", "reward", "prompts", "prompt_tokens", "response_tokens", "response_max_tokens", "staleness",  # algorithm
    "partial_rollouts", "oversample", "passes",  # algorithm (timing)
    "arch", "tuning",  # model
    "optimizer_steps",  # algorithm
    "gpu", "gpus", "placement", "engine", "offload", "max_tokens_per_gpu", "context_parallel", "rollout_dtype",  # hardware & systems
    "generation_gpus", "engine_tp",  # hardware: a recipe's fixed split and engine degree (0 = searched)
)
FORM_GROUPS = ("workload", "algorithm", "model", "hardware")  # NumberSpec/ChoiceSpec.group, in the form's order
assert set(PARAM_NAMES) == set(NUMBER_SPECS) | set(CHOICE_SPECS)
# every name normalise() reads but ``step``: a step link that holds none of them is bare (scenarios.open_step)
MODEL_READ_NAMES = frozenset(s.name for s in (*NUMBERS, *CHOICES, *SHAPE_NUMBERS, *FACTOR_NUMBERS, *PRACTICE_CHOICES,
                                              *PRACTICE_NUMBERS))
STEP_MAX = 13  # walkthrough steps: len(scenarios.WALKTHROUGH) (tests/model/test_walk_figures.py checks it)
DPO_MIN_BETA = 0.001  # DPO's loss divides by nothing but needs β > 0 to mean anything (PRODUCT.md)


class _Inputs(BaseModel):
    """Behaviour shared by the generated model: the canonical query and the default of the longest response.

    Rules between parameters (the longest response below the mean, staleness without ``separate`` …) are not
    validation errors here: ``normalise`` applies them with a notice, ``effective`` before the model computes,
    as the first edition did for ``separate`` with fewer than 4 GPUs."""

    model_config = ConfigDict(frozen=True, extra="ignore", allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _longest_defaults_to_mean(cls, data: object) -> object:
        """An absent ``response_max_tokens`` is the mean: no tail.  A mean that will not validate is left to its own
        error: the longest response then takes the default mean, so the 422 names only the field that was given."""
        if isinstance(data, dict) and data.get("response_max_tokens") is None:
            spec = NUMBER_SPECS["response_tokens"]
            mean = data.get("response_tokens", spec.default)
            try:
                valid = spec.minimum <= float(mean) <= spec.maximum and float(mean).is_integer()
            except (TypeError, ValueError):
                valid = False
            data = {**data, "response_max_tokens": mean if valid else spec.default}
        return data

    def query(self, **changes: object) -> dict[str, str]:
        """The canonical query parameters (every contract parameter, ``step`` only when set)."""
        out = {name: fmt_param(changes[name] if name in changes else getattr(self, name)) for name in PARAM_NAMES}
        for name in (*SHAPE_NAMES, *FACTOR_NAMES):  # the custom shape's fields and the fitted factors, when set
            value = changes[name] if name in changes else getattr(self, name)
            if value is not None:
                out[name] = fmt_param(value)
        for name, spec in PRACTICE_SPECS.items():  # 2026 practice: only where it differs from the default
            value = changes[name] if name in changes else getattr(self, name)
            if value != spec.default:
                out[name] = fmt_param(value)
        step = changes.get("step", self.step)  # type: ignore[attr-defined]
        if step is not None:
            out["step"] = str(step)
        return out


def _empty_is_absent(value: object) -> object:
    """The lab's own GET form sends its unset shape fields as empty strings: absent, as on the page."""
    return None if value == "" else value


def _shape_field(spec: NumberSpec) -> tuple[object, object]:
    schema = {"anyOf": [{"type": "integer", "minimum": spec.minimum, "maximum": spec.maximum},
                        {"type": "null"}, {"type": "string", "enum": [""]}]}  # empty = absent, as the form sends it
    return Annotated[int | None, BeforeValidator(_empty_is_absent), WithJsonSchema(schema)], Field(
        None, ge=spec.minimum, le=spec.maximum,
        description=f"{spec.description} ({spec.unit}; custom shape, used when arch=custom and layers is given; "
                    "empty = absent)")


def _factor_field(spec: NumberSpec) -> tuple[object, object]:
    schema = {"anyOf": [{"type": "number", "minimum": spec.minimum, "maximum": spec.maximum},
                        {"type": "null"}, {"type": "string", "enum": [""]}]}
    return Annotated[float | None, BeforeValidator(_empty_is_absent), WithJsonSchema(schema)], Field(
        None, ge=spec.minimum, le=spec.maximum,
        description=f"{spec.description} ({spec.unit}; fitted to your run by POST /api/calibrate; absent or empty = "
                    "the lab's own value)")


def _field(spec: NumberSpec | ChoiceSpec) -> tuple[object, object]:
    if isinstance(spec, ChoiceSpec):
        return Literal[spec.choices], Field(spec.default, description=spec.description)  # type: ignore[valid-type]
    kind = int if spec.integer else float
    default = int(spec.default) if spec.integer else spec.default
    return kind, Field(default, ge=spec.minimum, le=spec.maximum, description=f"{spec.description} ({spec.unit})")


WorkloadInputs = create_model(  # the JSON API's query model, generated from NUMBERS and CHOICES
    "WorkloadInputs",
    __base__=_Inputs,
    __doc__="The workload, validated strictly (the JSON API's query model).",
    **{s.name: _field(s) for s in (*NUMBERS, *CHOICES, *PRACTICE_NUMBERS, *PRACTICE_CHOICES)},
    **{s.name: _shape_field(s) for s in SHAPE_NUMBERS},
    **{s.name: _factor_field(s) for s in FACTOR_NUMBERS},
    step=(int | None, Field(None, ge=1, le=STEP_MAX, description="walkthrough step (optional)")),
)
WorkloadInputs.__module__ = __name__

DEFAULTS = WorkloadInputs()


def fmt_param(value: object) -> str:
    """A parameter value as it appears in a URL: integers without '.0', floats in shortest form.

    >>> fmt_param(7.0), fmt_param(0.02), fmt_param(512), fmt_param("ppo")
    ('7', '0.02', '512', 'ppo')
    """
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return repr(value)
    return str(value)


@dataclass(frozen=True, slots=True)
class Notice:
    """What normalise() did to one parameter.

    ``kind``: below_min, above_max, rounded, empty, invalid, unknown_choice, separate_needs_gpus,
    below_mean (response_max_tokens raised to the mean), arch_sets_size (a named arch's policy_b),
    shape_sets_size (the custom shape's policy_b), above_heads (kv_heads or experts_active lowered to the heads or
    experts), shape_unused (a bad custom-shape field where no shape is used: another arch, or no layers),
    async_needs_separate (staleness switched placement), async_needs_gpus (staleness set to 0),
    dpo_needs_beta (DPO's β raised to 0.001)."""

    field: str
    kind: str
    given: str
    used: str


NOTICE_KINDS = ("below_min", "above_max", "rounded", "empty", "invalid", "unknown_choice", "separate_needs_gpus",
                "below_mean", "arch_sets_size", "async_needs_separate", "async_needs_gpus", "dpo_needs_beta",
                "shape_sets_size", "above_heads", "shape_unused", "mtp_needs_heads", "acceptance_above")
_MAX_ECHO = 40  # characters of a bad value echoed back in a notice


def _last(value: str | Sequence[str]) -> str | None:
    """The last of repeated values; None when a key came with no value at all."""
    if isinstance(value, str):
        return value
    return value[-1] if value else None


def _text(query: Mapping[str, str | Sequence[str]], name: str) -> str | None:
    raw = query.get(name)
    if raw is None:
        return None
    text = _last(raw)
    return None if text is None else text.strip()


def _number(spec: NumberSpec, text: str) -> tuple[float | int | None, str]:
    """One numeric parameter's text → (value, notice kind): the value None when the default applies (empty or not a
    number), the kind "" when the text was taken as it is.

    >>> _number(NUMBER_SPECS["gpus"], "12.6"), _number(NUMBER_SPECS["gpus"], "1e9"), _number(NUMBER_SPECS["kl"], "x")
    ((13, 'rounded'), (4096, 'above_max'), (None, 'invalid'))
    """
    if text == "":
        return None, "empty"
    try:
        number = float(text.replace(",", "").replace("_", ""))
    except ValueError:
        return None, "invalid"
    if math.isnan(number):
        return None, "invalid"
    if number < spec.minimum:
        number, kind = spec.minimum, "below_min"
    elif number > spec.maximum:
        number, kind = spec.maximum, "above_max"
    else:
        kind = ""
    if spec.integer and not float(number).is_integer():
        number = float(round(number))
        kind = kind or "rounded"
    return (int(number) if spec.integer else number), kind


def normalise(query: Mapping[str, str | Sequence[str]]) -> tuple[WorkloadInputs, tuple[Notice, ...]]:
    """Parse a query string mapping into clamped inputs plus one Notice per corrected field.

    Missing parameters take their defaults; unknown ones are ignored; a repeated one takes its last value.
    Then the rules between parameters: a named ``arch`` sets ``policy_b``; ``response_max_tokens`` is at least the
    mean (absent: the mean); ``staleness`` ≥ 1 needs ``separate``; ``separate`` needs 4 GPUs; DPO needs β ≥ 0.001.
    Never raises.
    """
    values: dict[str, object] = {}
    notices: list[Notice] = []
    for spec in (*NUMBERS, *PRACTICE_NUMBERS):
        text = _text(query, spec.name)
        if text is None:
            continue
        value, kind = _number(spec, text)
        if kind:
            used = fmt_param(spec.default if value is None else value)
            notices.append(Notice(spec.name, kind, text[:_MAX_ECHO], used))
        if value is not None:
            values[spec.name] = value
    shape_notices: list[Notice] = []
    for spec in SHAPE_NUMBERS:  # optional: an empty field (the form's unset ones) is absent, silently
        text = _text(query, spec.name)
        if not text:
            continue
        value, kind = _number(spec, text)
        if kind:
            shape_notices.append(Notice(spec.name, kind, text[:_MAX_ECHO], "" if value is None else fmt_param(value)))
        if value is not None:
            values[spec.name] = value
    for spec in FACTOR_NUMBERS:  # optional, as the shape's: empty is absent (the lab's own value), silently
        text = _text(query, spec.name)
        if not text:
            continue
        value, kind = _number(spec, text)
        if kind:
            notices.append(Notice(spec.name, kind, text[:_MAX_ECHO], "" if value is None else fmt_param(value)))
        if value is not None:
            values[spec.name] = value
    arch_text = _text(query, "arch")
    if (arch_text if arch_text in ARCH_IDS else "custom") == "custom" and "layers" in values:
        notices.extend(shape_notices)
    else:
        # a shape is used only with arch=custom and its layers given (``_between`` drops it otherwise): a field's
        # notice must not name a value "used" that nothing uses; layers' own notice (no valid layers) stays
        notices.extend(n if n.field == "layers" else Notice(n.field, "shape_unused", n.given, "")
                       for n in shape_notices)
    for spec in (*CHOICES, *PRACTICE_CHOICES):
        text = _text(query, spec.name)
        if text is None:
            continue
        if text == "":
            notices.append(Notice(spec.name, "empty", "", spec.default))
            continue
        if text in spec.choices:
            values[spec.name] = text
        else:
            notices.append(Notice(spec.name, "unknown_choice", text[:_MAX_ECHO], spec.default))
    text = _text(query, "step")
    if text is not None:
        # isdecimal, not isdigit: '²' is a digit that int() rejects; the length cap keeps int() from refusing
        # (or spending time on) a thousand-digit string
        if text.isdecimal() and len(text) <= 3 and 1 <= int(text) <= STEP_MAX:
            values["step"] = int(text)
        elif text:
            notices.append(Notice("step", "invalid", text[:_MAX_ECHO], ""))
    notices.extend(_between(values))
    inputs = WorkloadInputs.model_construct(**{**_DEFAULT_VALUES, **values})
    return inputs, tuple(notices)


def _between(values: dict[str, object]) -> list[Notice]:
    """The rules that tie parameters together, applied to ``values`` in place; a Notice for each change."""
    out: list[Notice] = []

    def get(name: str) -> object:
        return values.get(name, _DEFAULT_VALUES[name])

    arch = get("arch")
    if arch != "custom" or values.get("layers") is None:
        for name in SHAPE_NAMES:  # a shape applies to arch=custom with layers given; otherwise it is not used
            values.pop(name, None)
    else:
        out.extend(_shape_rules(values))
    if arch != "custom":
        size = ARCHS[arch].total_b  # type: ignore[index]
        if "policy_b" in values and values["policy_b"] != size:
            out.append(Notice("policy_b", "arch_sets_size", fmt_param(values["policy_b"]), fmt_param(size)))
        values["policy_b"] = size
    mean = get("response_tokens")
    if "response_max_tokens" not in values:
        values["response_max_tokens"] = mean
    elif values["response_max_tokens"] < mean:  # type: ignore[operator]
        out.append(Notice("response_max_tokens", "below_mean", fmt_param(values["response_max_tokens"]),
                          fmt_param(mean)))
        values["response_max_tokens"] = mean
    if get("staleness") and get("gpus") < SEPARATE_MIN_GPUS:  # type: ignore[operator]
        out.append(Notice("staleness", "async_needs_gpus", fmt_param(get("staleness")), "0"))
        values["staleness"] = 0
    elif get("staleness") and get("placement") != "separate":
        out.append(Notice("placement", "async_needs_separate", str(get("placement")), "separate"))
        values["placement"] = "separate"
    if get("placement") == "separate" and get("gpus") < SEPARATE_MIN_GPUS:  # type: ignore[operator]
        out.append(Notice("placement", "separate_needs_gpus", "separate", "colocated"))
        values["placement"] = "colocated"
    if get("generation_gpus") and get("generation_gpus") >= get("gpus"):  # type: ignore[operator]
        # the trainer needs at least one GPU of its own: a fixed split leaves it gpus − generation_gpus
        used = max(int(get("gpus")) - 1, 0)  # type: ignore[call-overload]
        out.append(Notice("generation_gpus", "generation_gpus_above", fmt_param(get("generation_gpus")), fmt_param(used)))
        values["generation_gpus"] = used
    mtp_layers = ARCHS[arch].mtp_layers if arch in ARCHS else 0  # type: ignore[index]
    if get("speculative") == "mtp" and not mtp_layers:
        # MTP heads ship with the weights (DeepSeek-V3's num_nextn_predict_layers); a model without them has none
        out.append(Notice("speculative", "mtp_needs_heads", "mtp", "off"))
        values["speculative"] = "off"
    if get("speculative") != "off":
        proposed = mtp_layers if get("speculative") == "mtp" else SPEC_DRAFT_TOKENS
        if get("acceptance") > proposed + 1:  # type: ignore[operator]
            out.append(Notice("acceptance", "acceptance_above", fmt_param(get("acceptance")),
                              fmt_param(float(proposed + 1))))
            values["acceptance"] = float(proposed + 1)
    if get("method") == "dpo" and get("kl") < DPO_MIN_BETA:  # type: ignore[operator]
        out.append(Notice("kl", "dpo_needs_beta", fmt_param(get("kl")), fmt_param(DPO_MIN_BETA)))
        values["kl"] = DPO_MIN_BETA
    return out


def _shape_rules(values: dict[str, object]) -> list[Notice]:
    """The custom shape's rules: KV heads at most the heads, active experts at most the experts; the parameters
    counted from the shape set ``policy_b`` (within its range)."""
    out: list[Notice] = []
    for name, bound in (("kv_heads", "heads"), ("experts_active", "experts")):
        if values.get(name) is not None and values.get(bound) is not None and values[name] > values[bound]:  # type: ignore[operator]
            out.append(Notice(name, "above_heads", fmt_param(values[name]), fmt_param(values[bound])))
            values[name] = values[bound]
    spec = NUMBER_SPECS["policy_b"]
    size = min(max(shape_of(values).total_b, spec.minimum), spec.maximum)
    if "policy_b" in values and values["policy_b"] != size:
        out.append(Notice("policy_b", "shape_sets_size", fmt_param(values["policy_b"]), fmt_param(size)))
    values["policy_b"] = size
    return out


def shape_of(values: Mapping[str, object]):  # noqa: ANN201 - an Arch
    """The custom shape's ``Arch`` from inputs (a mapping or WorkloadInputs' fields), ``layers`` given."""
    get = values.get if isinstance(values, Mapping) else lambda n: getattr(values, n)
    return shape_arch(*(get(n) for n in SHAPE_NAMES))  # type: ignore[arg-type]


_DEFAULT_VALUES = DEFAULTS.model_dump()  # what normalise() starts from (dumped once, not per call)


def refused(inputs: WorkloadInputs) -> list[dict]:
    """The rules between parameters that the strict JSON API refuses instead of correcting, as validation errors
    (FastAPI's 422 records: ``loc`` names the field).  The page applies the same rule with a visible notice
    (``normalise``).  A longest response below the mean cannot be: raising it silently would answer a question
    nobody asked.

    >>> [e["loc"] for e in refused(WorkloadInputs(response_tokens=2048, response_max_tokens=1024))]
    [('query', 'response_max_tokens')]
    >>> refused(WorkloadInputs(response_tokens=2048))
    []
    """
    if inputs.response_max_tokens < inputs.response_tokens:
        return [{"type": "greater_than_equal", "loc": ("query", "response_max_tokens"),
                 "msg": f"Input should be greater than or equal to response_tokens ({inputs.response_tokens}): "
                        "the longest response cannot be shorter than the mean",
                 "input": fmt_param(inputs.response_max_tokens), "ctx": {"ge": inputs.response_tokens}}]
    return []


def effective(inputs: WorkloadInputs) -> WorkloadInputs:
    """Inputs the model computes with: the rules of ``normalise`` between parameters, for inputs that arrive
    validated but not normalised (the JSON API).  Inputs that already obey them come back as they are."""
    i = inputs
    shaped = i.arch == "custom" and i.layers is not None
    if ((i.arch == "custom" or i.policy_b == ARCHS[i.arch].total_b)
            and (shaped or all(getattr(i, n) is None for n in SHAPE_NAMES))
            and (not shaped or (i.policy_b == _shape_size(i) and _shape_ok(i)))
            and i.response_max_tokens >= i.response_tokens
            and not (i.staleness and (i.gpus < SEPARATE_MIN_GPUS or i.placement != "separate"))
            and not (i.placement == "separate" and i.gpus < SEPARATE_MIN_GPUS)
            and not (i.method == "dpo" and i.kl < DPO_MIN_BETA)
            and not (i.generation_gpus and i.generation_gpus >= i.gpus)):
        return i
    values = {name: getattr(i, name) for name in _RULE_FIELDS}
    _between(values)
    return i.model_copy(update={k: values.get(k) for k in _RULE_FIELDS if getattr(i, k) != values.get(k)})


def _shape_size(i: WorkloadInputs) -> float:
    spec = NUMBER_SPECS["policy_b"]
    return min(max(shape_of(i).total_b, spec.minimum), spec.maximum)


def _shape_ok(i: WorkloadInputs) -> bool:
    return not ((i.kv_heads or 0) > (i.heads or 1 << 30) or (i.experts_active or 0) > (i.experts or 1 << 30))


_RULE_FIELDS = ("arch", "policy_b", "response_tokens", "response_max_tokens", "staleness", "gpus", "placement",
                "method", "kl", "generation_gpus", *SHAPE_NAMES)


# The KL coefficient each method starts from when the compare view switches to it: InstructGPT's β = 0.02 for PPO
# (arXiv 2203.02155 App. C.4), the DPO paper's β = 0.1 (arXiv 2305.18290 App. B), and GRPO's kl_loss_coef = 0.001,
# verl's documented default (verl docs, "Group Relative Policy Optimization (GRPO)": actor.kl_loss_coef,
# https://verl.readthedocs.io/en/latest/algo/grpo.html)
METHOD_KL = {"ppo": 0.02, "grpo": 0.001, "dpo": 0.1}
# Responses per prompt when switching to GRPO: the contract's default `group` (8). verl's GRPO page asks only for
# rollout.n > 1; DeepSeekMath sampled 64 (arXiv 2402.03300 §4.2); 8 is a teaching assumption between the two.
GRPO_GROUP = 8


def with_method(inputs: WorkloadInputs, method: str) -> WorkloadInputs:
    """The same workload under ``method``, with that method's usual KL coefficient (and under GRPO its usual
    group); the walkthrough step is dropped.

    >>> x = with_method(WorkloadInputs(method="ppo"), "grpo")
    >>> x.method, x.kl, x.group
    ('grpo', 0.001, 8)
    """
    update: dict[str, object] = {"method": method, "kl": METHOD_KL[method], "step": None}
    if method == "grpo":
        update["group"] = GRPO_GROUP
    return inputs.model_copy(update=update)
