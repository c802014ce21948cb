"""Every constant the workload model uses, in one place.

Each constant carries its value, its unit and either a source (a key of ``SOURCES``) or the label
"teaching assumption" (``source=None``).  The page's assumptions section and ``docs/model.md`` are
rendered from ``CONSTANTS`` and ``GPUS``, so what the reader sees is what the code computes with.

Units are in the names: ``_gb`` = 10^9 bytes, ``_tb_per_s`` = 10^12 bytes per second,
``_tflops`` = 10^12 FLOP per second, ``_s`` = seconds.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Source:
    key: str
    title: str
    url: str


SOURCES: dict[str, Source] = {
    s.key: s
    for s in (
        Source("nvidia_a100", "NVIDIA A100 Tensor Core GPU datasheet",
               "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf"),
        Source("nvidia_h100", "NVIDIA H100 Tensor Core GPU datasheet",
               "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet"),
        Source("nvidia_h200", "NVIDIA H200 Tensor Core GPU datasheet",
               "https://www.nvidia.com/en-us/data-center/h200/"),
        Source("zero", "Rajbhandari et al. 2019, ZeRO: Memory Optimizations Toward Training Trillion "
               "Parameter Models, §3 and Fig. 1", "https://arxiv.org/abs/1910.02054"),
        Source("kaplan", "Kaplan et al. 2020, Scaling Laws for Neural Language Models, §2.1",
               "https://arxiv.org/abs/2001.08361"),
        Source("tm101", "EleutherAI, Transformer Math 101", "https://blog.eleuther.ai/transformer-math/"),
        Source("vllm_blog", "vLLM blog 2023-06-20: Easy, Fast, and Cheap LLM Serving with PagedAttention",
               "https://blog.vllm.ai/2023/06/20/vllm.html"),
        Source("vllm_docs", "vLLM documentation: engine arguments (gpu_memory_utilization = 0.9)",
               "https://docs.vllm.ai/en/latest/serving/engine_args.html"),
        Source("openrlhf", "OpenRLHF README and benchmark table (A800-80GB, 1,024 rollouts per step)",
               "https://github.com/OpenRLHF/OpenRLHF"),
        Source("dschat", "DeepSpeed-Chat blog (deepspeedai/DeepSpeed, blogs/deepspeed-chat)",
               "https://github.com/deepspeedai/DeepSpeed/tree/master/blogs/deepspeed-chat"),
        Source("instructgpt", "Ouyang et al. 2022, Training language models to follow instructions with "
               "human feedback (InstructGPT)", "https://arxiv.org/abs/2203.02155"),
        Source("llama2", "Touvron et al. 2023, Llama 2: Open Foundation and Fine-Tuned Chat Models, §3.2",
               "https://arxiv.org/abs/2307.09288"),
        Source("dpo", "Rafailov et al. 2023, Direct Preference Optimization", "https://arxiv.org/abs/2305.18290"),
        Source("ppo", "Schulman et al. 2017, Proximal Policy Optimization Algorithms",
               "https://arxiv.org/abs/1707.06347"),
        Source("hh_rlhf", "Anthropic HH-RLHF dataset card (≈161k training pairs)",
               "https://huggingface.co/datasets/Anthropic/hh-rlhf"),
    )
}


@dataclass(frozen=True, slots=True)
class Constant:
    """One model constant. ``source`` is a key of SOURCES, or None for a teaching assumption."""

    key: str
    value: float
    unit: str
    source: str | None = None

    @property
    def teaching(self) -> bool:
        return self.source is None


@dataclass(frozen=True, slots=True)
class GpuSpec:
    """Dense BF16 figures from the vendor datasheet (SXM parts)."""

    key: str
    memory_gb: float
    hbm_bandwidth_tb_per_s: float
    peak_bf16_tflops: float
    host_link_gb_per_s: float  # PCIe to host memory, used when weights must be offloaded
    source: str


GPUS: dict[str, GpuSpec] = {
    g.key: g
    for g in (
        GpuSpec("a100_40g", 40.0, 1.555, 312.0, 32.0, "nvidia_a100"),
        GpuSpec("a100_80g", 80.0, 2.039, 312.0, 32.0, "nvidia_a100"),
        GpuSpec("h100_80g", 80.0, 3.35, 989.0, 64.0, "nvidia_h100"),
        GpuSpec("h200_141g", 141.0, 4.8, 989.0, 64.0, "nvidia_h200"),
    )
}

_CONSTANTS = (
    # --- bytes and FLOPs per parameter -------------------------------------------------------------
    Constant("train_bytes_per_param", 16.0, "B/param", "zero"),       # 2 bf16 w + 2 grad + 12 fp32 (w, m, v)
    Constant("infer_bytes_per_param", 2.0, "B/param", "zero"),        # bf16 weights
    Constant("kv_bytes_per_value", 2.0, "B", "vllm_blog"),            # bf16 K and V entries
    Constant("train_flops_per_param_token", 6.0, "FLOP/param/token", "kaplan"),
    Constant("forward_flops_per_param_token", 2.0, "FLOP/param/token", "kaplan"),
    # --- transformer shape rule (for KV-cache bytes) ------------------------------------------------
    Constant("aspect_ratio_d_per_layer", 128.0, "d_model/layer"),      # LLaMA-7B: 4096/32; LLaMA-13B: 5120/40
    Constant("params_per_layer_d2", 12.0, "params/(layer·d²)", "kaplan"),  # N ≈ 12·L·d²
    # --- achieved fractions of peak -----------------------------------------------------------------
    Constant("train_mfu", 0.35, "of peak BF16", "openrlhf"),         # OpenRLHF: 47–116 TFLOP/s on 312 peak
    Constant("forward_mfu", 0.45, "of peak BF16"),                     # scoring forwards and prefill
    Constant("decode_bandwidth_efficiency", 0.60, "of HBM bandwidth"),
    Constant("usable_memory_fraction", 0.90, "of GPU memory", "vllm_docs"),
    Constant("decode_step_overhead_separate_s", 0.004, "s per decode step"),   # dedicated engine, CUDA graphs
    Constant("decode_step_overhead_colocated_s", 0.050, "s per decode step"),  # hybrid engine, no CUDA graphs
    Constant("hybrid_batch_per_gpu", 16.0, "sequences per GPU"),  # hybrid engine generation batch (DS-Chat style)
    Constant("max_tensor_parallel", 64.0, "GPUs per engine replica"),
    # --- placement: how `separate` splits the GPUs (OpenRLHF's 8-GPU 7B layout: 4 train, 2 vLLM, 2 ref+RM)
    Constant("separate_min_gpus", 4.0, "GPUs"),
    # --- workload conventions ------------------------------------------------------------------------
    Constant("dpo_batch_pairs", 64.0, "pairs per DPO step", "dpo"),
    Constant("eval_gate_max_steps", 20.0, "PPO steps between evals"),
    Constant("scaled_rollouts_min", 1024.0, "rollouts per step", "openrlhf"),
    # --- meters: ranges the estimates are normalised against --------------------------------------
    Constant("meter_time_low_s", 1.0, "s (meter 0)"),
    Constant("meter_time_high_s", 3600.0, "s (meter 100)"),
    Constant("meter_eval_low", 1000.0, "samples between evals (meter 0)"),
    Constant("meter_eval_high", 1_000_000.0, "samples between evals (meter 100)"),
    Constant("kl_reference_ppo", 0.01, "β at which one epoch gives risk 50", "llama2"),
    Constant("kl_reference_dpo", 0.05, "β at which one epoch gives risk 50"),
    Constant("meter_warn", 50.0, "meter value"),
    Constant("meter_hot", 75.0, "meter value"),
    Constant("memory_warn", 70.0, "% of usable GPU memory"),
    Constant("memory_hot", 90.0, "% of usable GPU memory"),
)

CONSTANTS: dict[str, Constant] = {c.key: c for c in _CONSTANTS}


def c(key: str) -> float:
    """The value of one constant."""
    return CONSTANTS[key].value


# Module-level floats for the hot path (evaluate runs on every slider move).
TRAIN_BYTES = c("train_bytes_per_param")
INFER_BYTES = c("infer_bytes_per_param")
KV_BYTES = c("kv_bytes_per_value")
TRAIN_FLOPS = c("train_flops_per_param_token")
FWD_FLOPS = c("forward_flops_per_param_token")
ASPECT = c("aspect_ratio_d_per_layer")
PARAMS_PER_LAYER_D2 = c("params_per_layer_d2")
TRAIN_MFU = c("train_mfu")
FORWARD_MFU = c("forward_mfu")
DECODE_BW_EFF = c("decode_bandwidth_efficiency")
USABLE = c("usable_memory_fraction")
OVERHEAD_SEPARATE_S = c("decode_step_overhead_separate_s")
OVERHEAD_COLOCATED_S = c("decode_step_overhead_colocated_s")
HYBRID_BATCH_PER_GPU = c("hybrid_batch_per_gpu")
MAX_TP = int(c("max_tensor_parallel"))
SEPARATE_MIN_GPUS = int(c("separate_min_gpus"))
DPO_BATCH_PAIRS = c("dpo_batch_pairs")
EVAL_GATE_MAX_STEPS = c("eval_gate_max_steps")
SCALED_ROLLOUTS_MIN = c("scaled_rollouts_min")
METER_TIME_LOW_S = c("meter_time_low_s")
METER_TIME_HIGH_S = c("meter_time_high_s")
METER_EVAL_LOW = c("meter_eval_low")
METER_EVAL_HIGH = c("meter_eval_high")
KL_REF_PPO = c("kl_reference_ppo")
KL_REF_DPO = c("kl_reference_dpo")
METER_WARN = c("meter_warn")
METER_HOT = c("meter_hot")
MEMORY_WARN = c("memory_warn")
MEMORY_HOT = c("memory_hot")
