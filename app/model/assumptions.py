"""Every constant the workload model uses, in one place: values, units, sources, GPUs and architectures.

Each constant carries its value, its unit and either a source (a key of ``SOURCES``) or the label
"teaching assumption" (``source=None``).  The page's assumptions section and ``docs/model.md`` are
rendered from ``CONSTANTS``, ``GPUS`` and ``ARCHS``, so what the reader sees is what the code computes with.

Units are in the names: ``_gb`` = 10^9 bytes, ``_tb_per_s`` = 10^12 bytes per second, ``_gb_per_s`` = 10^9 bytes
per second, ``_tflops`` = 10^12 FLOP per second, ``_s`` = seconds, ``_b`` = 10^9 parameters.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path


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
        # no public NVIDIA datasheet: a secondary source, Tom's Hardware's report of the HGX H20's retail listing
        # (its specification table: 96 GB HBM3, 4.0 TB/s, BF16/FP16 tensor 148 TFLOP/s dense); NVLink 900 GB/s as in
        # the same listing's coverage (e.g. TweakTown, 2024)
        Source("nvidia_h20", "NVIDIA H20 (China-market Hopper): 96 GB HBM3, 4.0 TB/s, 148 TFLOP/s dense FP16/BF16, "
               "NVLink 900 GB/s — no public NVIDIA datasheet; figures as reported by Tom's Hardware (a secondary source)",
               "https://www.tomshardware.com/pc-components/gpus/new-nvidia-ai-gpus-designed-to-get-around-us-export-bans-come-to-china-h20-l20-and-l2-to-fill-void-left-by-restricted-models"),
        Source("nvidia_b200", "NVIDIA HGX B200: 180 GB HBM3e, 8 TB/s, 2.25 PFLOP/s dense BF16 (4.5 sparse), "
               "NVLink 5 1.8 TB/s (NVIDIA HGX platform page; per-GPU table in G. Lockwood's notes)",
               "https://www.nvidia.com/en-us/data-center/hgx/"),
        # the rack's specification table divided by its 72 GPUs: 13.4 TB HBM3e / 72 = 186 GB, 576 TB/s / 72 = 8 TB/s,
        # FP16/BF16 360 PFLOP/s (with sparsity) / 72 / 2 = 2.5 PFLOP/s dense, NVLink 130 TB/s / 72 = 1.8 TB/s; one
        # NVLink domain of 72 GPUs, 4 GPUs (2 superchips) per compute tray; Grace reached over NVLink-C2C 900 GB/s
        Source("nvidia_gb200", "NVIDIA GB200 NVL72 (72 Blackwell GPUs in one NVLink domain, 4 per compute tray): "
               "per GPU 186 GB HBM3e, 8 TB/s, 2.5 PFLOP/s dense BF16, NVLink 5 1.8 TB/s, NVLink-C2C 900 GB/s to the "
               "Grace CPU (the rack's table over 72 GPUs: 13.4 TB, 576 TB/s, 360 PFLOP/s sparse, 130 TB/s)",
               "https://www.nvidia.com/en-us/data-center/gb200-nvl72/"),
        Source("zero", "Rajbhandari et al. 2019, ZeRO: Memory Optimizations Toward Training Trillion "
               "Parameter Models, §3, §5 and Fig. 1", "https://arxiv.org/abs/1910.02054"),
        Source("zero_offload", "Ren et al. 2021, ZeRO-Offload: Democratizing Billion-Scale Model Training",
               "https://arxiv.org/abs/2101.06840"),
        Source("kaplan", "Kaplan et al. 2020, Scaling Laws for Neural Language Models, §2.1 and Table 1",
               "https://arxiv.org/abs/2001.08361"),
        Source("tm101", "EleutherAI, Transformer Math 101", "https://blog.eleuther.ai/transformer-math/"),
        Source("vllm_blog", "vLLM blog 2023-06-20: Easy, Fast, and Cheap LLM Serving with PagedAttention",
               "https://blog.vllm.ai/2023/06/20/vllm.html"),
        Source("vllm_docs", "vLLM documentation: engine arguments (gpu_memory_utilization = 0.9)",
               "https://docs.vllm.ai/en/latest/serving/engine_args.html"),
        Source("nccl_tests", "NVIDIA nccl-tests: bus bandwidth of all-gather / all-reduce (PERFORMANCE.md)",
               "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"),
        Source("openrlhf", "OpenRLHF README and benchmark table (A800-80GB, 1,024 rollouts per step)",
               "https://github.com/OpenRLHF/OpenRLHF"),
        Source("openrlhf_70b", "OpenRLHF examples/scripts/train_ppo_llama_ray_70b.sh (70 B PPO on 16 A100s, "
               "--adam_offload)", "https://github.com/OpenRLHF/OpenRLHF/tree/main/examples/scripts"),
        Source("dschat", "DeepSpeed-Chat blog (deepspeedai/DeepSpeed, blogs/deepspeed-chat)",
               "https://github.com/deepspeedai/DeepSpeed/tree/master/blogs/deepspeed-chat"),
        Source("verl", "verl documentation: performance tuning guide and config defaults (kl_loss_coef 0.001, "
               "ppo_max_token_len_per_gpu 16,384, rollout gpu_memory_utilization 0.6)",
               "https://verl.readthedocs.io/en/latest/perf/perf_tuning.html"),
        Source("verl_tail", "verl issues #7412 (slowest generation call 539 s against a 267 s mean) and #2751 "
               "(generation time flat as nodes are added)", "https://github.com/volcengine/verl/issues/7412"),
        Source("nemo_rl", "NeMo RL v0.4 performance summary (docs/about/performance-summary.md): GRPO on DGX-H100",
               "https://github.com/NVIDIA-NeMo/RL/blob/main/docs/about/performance-summary.md"),
        Source("nemo_rl_recipes", "NeMo RL example configs: grpo_math_1B.yaml (32 prompts × 16 generations = "
               "train_global_batch_size 512: one optimizer step per step), the performance recipes under "
               "examples/configs/recipes/llm/performance/ (Megatron TP × CP × EP × PP; logprob_chunk_size 4,096)",
               "https://github.com/NVIDIA-NeMo/RL/tree/main/examples/configs"),
        Source("verl_examples", "verl examples/ppo_trainer scripts (data.train_batch_size 1,024 prompts, "
               "ppo_mini_batch_size 256: four optimizer steps per step) and docs/perf/dpsk.md (Megatron backend, "
               "expert and context parallelism for DeepSeek-V3 and Qwen3-235B)",
               "https://github.com/volcengine/verl/tree/main/examples/ppo_trainer"),
        Source("megatron_distopt", "Megatron-LM distributed optimizer (docs/source/api-guide/dist_optimizer.md): "
               "bf16 parameters and fp32 gradients stay (2 + 4 B), fp32 main parameters and Adam moments (12 B) are "
               "sharded over the data-parallel ranks", "https://github.com/NVIDIA/Megatron-LM/blob/main/docs/source/api-guide/dist_optimizer.md"),
        Source("grpo", "Shao et al. 2024, DeepSeekMath (GRPO: group baseline, no critic)",
               "https://arxiv.org/abs/2402.03300"),
        Source("dapo", "Yu et al. 2025, DAPO: An Open-Source LLM Reinforcement Learning System at Scale (no KL term)",
               "https://arxiv.org/abs/2503.14476"),
        Source("lora", "Hu et al. 2021, LoRA: Low-Rank Adaptation of Large Language Models",
               "https://arxiv.org/abs/2106.09685"),
        Source("instructgpt", "Ouyang et al. 2022, Training language models to follow instructions with "
               "human feedback (InstructGPT)", "https://arxiv.org/abs/2203.02155"),
        Source("llama2", "Touvron et al. 2023, Llama 2: Open Foundation and Fine-Tuned Chat Models, §3.2",
               "https://arxiv.org/abs/2307.09288"),
        Source("dpo", "Rafailov et al. 2023, Direct Preference Optimization", "https://arxiv.org/abs/2305.18290"),
        Source("ppo", "Schulman et al. 2017, Proximal Policy Optimization Algorithms",
               "https://arxiv.org/abs/1707.06347"),
        Source("hh_rlhf", "Anthropic HH-RLHF dataset card (≈161k training pairs)",
               "https://huggingface.co/datasets/Anthropic/hh-rlhf"),
        Source("cfg_llama2", "Llama-2-7b / 13b config.json (meta-llama on Hugging Face; mirrored in "
               "huggyllama/llama-7b, llama-13b)", "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json"),
        Source("cfg_llama31", "Llama-3.1-8B / 70B / 405B config.json and params.json (meta-llama on Hugging Face)",
               "https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json"),
        Source("cfg_qwen25", "Qwen2.5-1.5B / 3B / 7B / 14B / 32B config.json (Qwen on Hugging Face; the same shapes in "
               "NVIDIA-NeMo/Megatron-Bridge models/qwen/qwen_provider.py); sizes from the model cards (1.54 / 3.09 / "
               "7.61 / 14.7 / 32.5 B)", "https://huggingface.co/Qwen/Qwen2.5-1.5B/blob/main/config.json"),
        Source("cfg_qwen3", "Qwen3-4B / 8B / 14B / 32B / 30B-A3B / 235B-A22B config.json (Qwen on Hugging Face; the same "
               "shapes in NVIDIA-NeMo/Megatron-Bridge models/qwen/qwen_provider.py); sizes from the model cards",
               "https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json"),
        Source("length_tail", "Response lengths of RL rollouts: a long tail reaching the maximum (TLT, Hu et al. "
               "2025, arXiv 2511.16665, Fig. 2; verl issue #7412: mean 1,267, longest 3,072 tokens)",
               "https://arxiv.org/abs/2511.16665"),
        Source("vllm_fp8", "vLLM documentation: FP8 W8A8 weights (1 byte per parameter) and the FP8 KV cache "
               "(kv_cache_dtype=fp8, 1 byte per value)", "https://docs.vllm.ai/en/latest/features/quantization/fp8.html"),
        Source("nemo_rl_fp8", "NeMo RL performance summary: FP8 generation rows beside BF16 ones of the same runs",
               "https://github.com/NVIDIA-NeMo/RL/blob/main/docs/about/performance-summary.md"),
        Source("deepep", "DeepEP (deepseek-ai), docs/legacy.md, low-latency kernels with pure RDMA on H800 + CX7 "
               "400 Gb/s, 128 tokens per rank, hidden 7,168, top-8: dispatch + combine 77 + 114 µs at EP 8, 118 + 195 "
               "at 16, 155 + 273 at 32, 173 + 314 at 64, 192 + 369 at 128, 194 + 360 at 256",
               "https://github.com/deepseek-ai/DeepEP/blob/0297fc801788b14b338a46554faca28d419e518a/docs/legacy.md"),
        Source("vllm_sleep", "vLLM blog 2025-10-26, Zero-Reload Model Switching with vLLM Sleep Mode (level 1: "
               "weights to host memory, KV cache freed; wake-ups of 0.1–6 s from 0.6 B to 235 B)",
               "https://blog.vllm.ai/2025/10/26/sleep-mode.html"),
        Source("verl_async", "verl docs/advance/fully_async.md and one_step_off.md: sync vs async rows, partial "
               "rollouts, the checkpoint-engine weight-sync table (Qwen3-235B-A22B 23.7 s, Qwen3-30B-A3B 4.4 s)",
               "https://github.com/volcengine/verl/blob/main/docs/advance/fully_async.md"),
        Source("cfg_llama32", "Llama-3.2-3B config.json (meta-llama on Hugging Face) and model card (3.21 B)",
               "https://huggingface.co/meta-llama/Llama-3.2-3B/blob/main/config.json"),
        Source("cfg_gpt_oss", "gpt-oss-20b / gpt-oss-120b config.json (openai on Hugging Face; the same shapes in "
               "NVIDIA-NeMo/Megatron-Bridge models/gpt_oss/gpt_oss_provider.py) and the gpt-oss model card, Table 1 "
               "(20.91 B total / 3.61 B active; 116.83 B / 5.13 B)",
               "https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json"),
        Source("cfg_qwen3_next", "Qwen3-Next-80B-A3B-Instruct config.json (Qwen on Hugging Face: num_hidden_layers 48, "
               "hidden_size 2048, num_attention_heads 16, num_key_value_heads 2, head_dim 256, full_attention_interval "
               "4, linear_num_key_heads 16, linear_num_value_heads 32, linear_key_head_dim 128, linear_value_head_dim "
               "128, linear_conv_kernel_dim 4, num_experts 512, num_experts_per_tok 10, moe_intermediate_size 512, "
               "shared_expert_intermediate_size 512, vocab_size 151936) and its model card (80 B total, 3 B activated)",
               "https://huggingface.co/Qwen/Qwen3-Next-80B-A3B-Instruct/blob/main/config.json"),
        Source("vllm_hybrid_kv", "vLLM design docs, Hybrid KV Cache Manager: sliding-window layers keep only the "
               "blocks inside their window, Mamba / linear-attention layers one constant-size state per request, "
               "beside the full-attention layers' growing cache",
               "https://docs.vllm.ai/en/latest/design/hybrid_kv_cache_manager.html"),
        Source("cfg_kimi_k2", "Kimi-K2 model summary (MoonshotAI/Kimi-K2 README §2: 1 T total, 32 B activated, 61 layers "
               "of which 1 dense, 384 experts, 8 selected, 1 shared, MLA) and config.json (moonshotai on Hugging Face)",
               "https://huggingface.co/moonshotai/Kimi-K2-Instruct/blob/main/config.json"),
        Source("deepseek_v3_report", "DeepSeek-AI 2024, DeepSeek-V3 Technical Report, §2.2 (one MTP module, "
               "config.json num_nextn_predict_layers 1) and §5.4.3 (speculative decoding with it: the second token "
               "accepted 85–90% of the time, 1.8× the tokens per second)", "https://arxiv.org/abs/2412.19437"),
        Source("vllm_spec", "vLLM documentation, speculative decoding: a draft model or MTP / EAGLE heads propose "
               "num_speculative_tokens, the target verifies them in one forward; disable_by_batch_size turns it off "
               "at large batches, where the step is compute-bound",
               "https://docs.vllm.ai/en/latest/features/spec_decode.html"),
        Source("vllm_perf_v06", "vLLM blog 2024-09-05, vLLM v0.6.0: 2.7x Throughput Improvement and 5x Latency "
               "Reduction (profile of Llama 3 8B on one H100 under V0: HTTP API server 33 %, scheduling 29 %, GPU "
               "38 % of the time); vLLM blog 2025-01-27, vLLM V1 (GPU time of a Llama-8B step 'as low as ~5ms', up to "
               "1.7x V0's throughput)", "https://blog.vllm.ai/2024/09/05/perf-update.html"),
        Source("vllm_async_scheduling", "vLLM pull request #32618 (2026-01): async scheduling with pipeline "
               "parallelism, 31.8 % lower time per output token (Qwen3-30B-A3B FP8, PP 4, 128 sequences); "
               "SchedulerConfig.async_scheduling", "https://github.com/vllm-project/vllm/pull/32618"),
        Source("sglang_v04", "LMSYS blog 2024-12-04, SGLang v0.4: zero-overhead batch scheduler (the CPU scheduler "
               "runs one batch ahead; Nsight shows no idle GPU time between consecutive decode batches) and "
               "data-parallel attention for DeepSeek models", "https://lmsys.org/blog/2024-12-04-sglang-v0-4/"),
        Source("trl_server", "TRL documentation, vLLM integration (vllm_mode server: trl vllm-serve on its own GPUs, "
               "reached over HTTP; colocate: vLLM in the trainer's processes) and trl/extras/vllm_client.py "
               "(VLLMClient: generate, update_named_param — an HTTP POST and an NCCL broadcast per parameter — "
               "reset_prefix_cache)", "https://huggingface.co/docs/trl/main/en/vllm_integration"),
        Source("trl_colocate", "Hugging Face blog 2025-06-03, No GPU left behind: Unlocking Efficiency with "
               "Co-located vLLM in TRL (GRPO on 8 H100s: colocate 1.43x server mode for a 1.5 B model, 1.73x for "
               "7 B at TP 8)", "https://huggingface.co/blog/vllm-colocate"),
        Source("sglang_large_ep", "LMSYS blog 2025-05-05, Deploying DeepSeek with PD Disaggregation and "
               "Large-scale Expert Parallelism on 96 H100 GPUs (DP attention, EP 72 over 9 decode nodes with DeepEP: "
               "22.3k output tokens/s per node for 2,000-token inputs; up to 5x vanilla tensor parallelism)",
               "https://lmsys.org/blog/2025-05-05-large-scale-ep/"),
        Source("cfg_deepseek_v3", "DeepSeek-V3 config.json (deepseek-ai on Hugging Face; inference/configs/"
               "config_671B.json in deepseek-ai/DeepSeek-V3) and its technical report (671 B total, 37 B active)", "https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json"),
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


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineRelease:
    """One row of data/engines.toml: an engine release's fixed seconds per decode step and how they were found."""

    id: str
    engine: str          # vllm (a paged engine: vLLM or SGLang) | hf
    constant: str        # its key in CONSTANTS (listed on /reference)
    overhead_s: float
    kind: str            # fit | teaching
    source: str | None   # a key of SOURCES (None: a teaching assumption with no source)
    derivation: str


ENGINES_TOML = Path(__file__).resolve().parent / "data" / "engines.toml"
ENGINE_RELEASES: dict[str, EngineRelease] = {
    r["id"]: EngineRelease(id=r["id"], engine=r["engine"], constant=r["constant"], overhead_s=float(r["overhead_s"]),
                           kind=r["kind"], source=r["source"] or None, derivation=r["derivation"])
    for r in tomllib.loads(ENGINES_TOML.read_text(encoding="utf-8"))["release"]
}
ENGINE_RELEASE_IDS: tuple[str, ...] = tuple(k for k, r in ENGINE_RELEASES.items() if r.engine == "vllm")


@dataclass(frozen=True, slots=True)
class GpuSpec:
    """Dense BF16 figures from the vendor datasheet (SXM parts) and the links a GPU talks over.

    ``nvlink_gb_per_s`` is the datasheet's bidirectional NVLink figure (halve it for one direction);
    ``ib_gb_per_s`` the InfiniBand bandwidth per GPU between nodes, ``host_link_gb_per_s`` PCIe to host memory
    (both teaching assumptions, stated in docs/model.md; GB200: one direction of NVLink-C2C, from its datasheet).
    ``nvlink_domain_gpus``: the GPUs that reach each other over NVLink — an HGX / DGX baseboard's 8
    (``gpus_per_node``), a GB200 NVL72 rack's 72; beyond it, InfiniBand.  ``node_gpus``: the GPUs of one host
    (what a launch command calls a node): 8 on a baseboard, 4 on a GB200 compute tray."""

    key: str
    memory_gb: float
    hbm_bandwidth_tb_per_s: float
    peak_bf16_tflops: float
    host_link_gb_per_s: float
    nvlink_gb_per_s: float
    ib_gb_per_s: float
    source: str
    nvlink_domain_gpus: int = 8
    node_gpus: int = 8
    host_link_source: str | None = None  # a key of SOURCES when the host link is the datasheet's, else teaching


GPUS: dict[str, GpuSpec] = {
    g.key: g
    for g in (
        GpuSpec("a100_40g", 40.0, 1.555, 312.0, 32.0, 600.0, 25.0, "nvidia_a100"),
        GpuSpec("a100_80g", 80.0, 2.039, 312.0, 32.0, 600.0, 25.0, "nvidia_a100"),
        GpuSpec("h100_80g", 80.0, 3.35, 989.0, 64.0, 900.0, 50.0, "nvidia_h100"),
        GpuSpec("h200_141g", 141.0, 4.8, 989.0, 64.0, 900.0, 50.0, "nvidia_h200"),
        GpuSpec("h20_96g", 96.0, 4.0, 148.0, 64.0, 900.0, 50.0, "nvidia_h20"),
        GpuSpec("b200_180g", 180.0, 8.0, 2250.0, 64.0, 1800.0, 50.0, "nvidia_b200"),
        # InfiniBand 50 GB/s per GPU as on HGX (one 400 Gb/s ConnectX-7 per GPU); the host link is NVLink-C2C
        GpuSpec("gb200_186g", 186.0, 8.0, 2500.0, 450.0, 1800.0, 50.0, "nvidia_gb200", nvlink_domain_gpus=72,
                node_gpus=4, host_link_source="nvidia_gb200"),
    )
}


@dataclass(frozen=True, slots=True)
class Arch:
    """A policy architecture, as its published config.json gives it.

    ``total_b`` / ``active_b``: billions of parameters stored / used per token (equal for a dense model).
    ``attention``: "mha", "gqa" or "mla".  MoE: ``experts`` routed experts, ``experts_per_token`` routed to,
    ``expert_hidden`` the width of one routed expert's MLP (config.json ``moe_intermediate_size``) and
    ``moe_layers`` the layers that have routed experts (DeepSeek-V3: 61 − ``first_k_dense_replace`` 3 = 58).
    MLA: the latent KV cache of ``kv_lora_rank + rope_dim`` values per layer.  ``head_dim`` is the attention
    width per head (for MLA the query/key width, nope + rope).

    Attention a layer really has (config.json ``layer_types``, ``sliding_window``, ``full_attention_interval``;
    ``attention_layers_from_config`` in app/model/architectures.py reads them): ``window_layers`` layers attend to
    the last ``window`` tokens only (gpt-oss: every other layer, 128 tokens), ``linear_layers`` layers keep a
    constant state of ``linear_state_values`` values per sequence instead of a KV cache (Qwen3-Next's Gated
    DeltaNet: three of every four layers); the rest attend to the whole context."""

    key: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int
    total_b: float
    active_b: float
    attention: str
    experts: int = 0
    experts_per_token: int = 0
    shared_experts: int = 0
    kv_lora_rank: int = 0
    rope_dim: int = 0
    expert_hidden: int = 0
    moe_layers: int = 0
    source: str | None = None
    mtp_layers: int = 0       # multi-token-prediction modules shipped with the weights (num_nextn_predict_layers)
    window_layers: int = 0    # sliding-window layers (layer_types "sliding_attention")
    window: int = 0           # their window, tokens (sliding_window)
    linear_layers: int = 0    # linear-attention / state-space layers (layer_types "linear_attention")
    linear_state_values: int = 0  # one such layer's fixed state per sequence, values (recurrent + convolution)

    @property
    def full_layers(self) -> int:
        """Layers whose KV cache grows with the whole context."""
        return self.layers - self.window_layers - self.linear_layers

    @property
    def attn_dim(self) -> int:
        """d_attn of Kaplan et al. Table 1: heads · head dim."""
        return self.heads * self.head_dim

    @property
    def moe(self) -> bool:
        """A mixture of experts: it has routed experts."""
        return self.experts > 0

    @property
    def expert_b(self) -> float:
        """Billions of parameters in all routed experts (0 for a dense model): a SwiGLU expert holds three
        hidden × expert_hidden matrices (gate, up, down), so moe_layers · experts · 3 · hidden · expert_hidden.

        DeepSeek-V3: 58 · 256 · 3 · 7,168 · 2,048 = 653.9 B of its 671 B (tests/model/test_architectures.py)."""
        if not self.moe:
            return 0.0
        return self.moe_layers * self.experts * 3 * self.hidden * self.expert_hidden / 1e9

    @property
    def routed_b(self) -> float:
        """The name physics reads: ``expert_b``."""
        return self.expert_b

    @property
    def dense_b(self) -> float:
        """Parameters every token uses, ``total_b − expert_b``: attention, embeddings, shared experts, dense
        layers."""
        return self.total_b - self.expert_b


# Values from each model's config.json (see SOURCES cfg_*); sizes in 10^9 parameters as their model cards give them.
ARCHS: dict[str, Arch] = {
    a.key: a
    for a in (
        Arch("llama2_7b", 32, 4096, 32, 32, 128, 32_000, 6.7, 6.7, "mha", source="cfg_llama2"),
        Arch("llama2_13b", 40, 5120, 40, 40, 128, 32_000, 13.0, 13.0, "mha", source="cfg_llama2"),
        Arch("llama3_8b", 32, 4096, 32, 8, 128, 128_256, 8.0, 8.0, "gqa", source="cfg_llama31"),
        Arch("llama3_70b", 80, 8192, 64, 8, 128, 128_256, 70.6, 70.6, "gqa", source="cfg_llama31"),
        Arch("llama3_405b", 126, 16384, 128, 8, 128, 128_256, 405.0, 405.0, "gqa", source="cfg_llama31"),
        Arch("qwen25_1_5b", 28, 1536, 12, 2, 128, 151_936, 1.54, 1.54, "gqa", source="cfg_qwen25"),
        Arch("qwen25_3b", 36, 2048, 16, 2, 128, 151_936, 3.09, 3.09, "gqa", source="cfg_qwen25"),
        Arch("qwen25_7b", 28, 3584, 28, 4, 128, 152_064, 7.6, 7.6, "gqa", source="cfg_qwen25"),
        Arch("qwen25_14b", 48, 5120, 40, 8, 128, 152_064, 14.7, 14.7, "gqa", source="cfg_qwen25"),
        Arch("qwen25_32b", 64, 5120, 40, 8, 128, 152_064, 32.5, 32.5, "gqa", source="cfg_qwen25"),
        Arch("qwen3_4b", 36, 2560, 32, 8, 128, 151_936, 4.0, 4.0, "gqa", source="cfg_qwen3"),
        Arch("qwen3_8b", 36, 4096, 32, 8, 128, 151_936, 8.2, 8.2, "gqa", source="cfg_qwen3"),
        Arch("qwen3_14b", 40, 5120, 40, 8, 128, 151_936, 14.8, 14.8, "gqa", source="cfg_qwen3"),
        Arch("qwen3_32b", 64, 5120, 64, 8, 128, 151_936, 32.8, 32.8, "gqa", source="cfg_qwen3"),
        Arch("llama32_3b", 28, 3072, 24, 8, 128, 128_256, 3.21, 3.21, "gqa", source="cfg_llama32"),
        Arch("qwen3_30b_a3b", 48, 2048, 32, 4, 128, 151_936, 30.5, 3.3, "gqa", experts=128, experts_per_token=8,
             expert_hidden=768, moe_layers=48, source="cfg_qwen3"),
        Arch("qwen3_235b_a22b", 94, 4096, 64, 4, 128, 151_936, 235.0, 22.0, "gqa", experts=128, experts_per_token=8,
             expert_hidden=1536, moe_layers=94, source="cfg_qwen3"),
        Arch("deepseek_v3", 61, 7168, 128, 128, 192, 129_280, 671.0, 37.0, "mla", experts=256, experts_per_token=8,
             shared_experts=1, kv_lora_rank=512, rope_dim=64, expert_hidden=2048, moe_layers=58,
             source="cfg_deepseek_v3", mtp_layers=1),
        # gpt-oss: 64 query heads of 64 over hidden 2,880, every layer MoE (num_local_experts, experts_per_token 4,
        # intermediate_size 2,880 per expert); attention alternates a 128-token sliding window and full context
        # (layer_types ["sliding_attention", "full_attention"] × 12 or × 18, sliding_window 128)
        Arch("gpt_oss_20b", 24, 2880, 64, 8, 64, 201_088, 20.9, 3.6, "gqa", experts=32, experts_per_token=4,
             expert_hidden=2880, moe_layers=24, source="cfg_gpt_oss", window_layers=12, window=128),
        Arch("gpt_oss_120b", 36, 2880, 64, 8, 64, 201_088, 116.8, 5.1, "gqa", experts=128, experts_per_token=4,
             expert_hidden=2880, moe_layers=36, source="cfg_gpt_oss", window_layers=18, window=128),
        # Qwen3-Next-80B-A3B: 48 layers, full_attention_interval 4 (one gated-attention layer of 16 heads, 2 KV heads
        # of 256, after three Gated DeltaNet layers), 512 experts of 512, 10 routed + 1 shared.  A DeltaNet layer's
        # state per sequence: the recurrent state linear_num_value_heads 32 × linear_key_head_dim 128 ×
        # linear_value_head_dim 128 = 524,288 values, plus the convolution's last linear_conv_kernel_dim − 1 = 3
        # inputs of (2 · 16 · 128 + 32 · 128) = 8,192 channels = 24,576: 548,864 values
        Arch("qwen3_next_80b_a3b", 48, 2048, 16, 2, 256, 151_936, 80.0, 3.0, "gqa", experts=512, experts_per_token=10,
             shared_experts=1, expert_hidden=512, moe_layers=48, source="cfg_qwen3_next", linear_layers=36,
             linear_state_values=548_864),
        # Kimi-K2: DeepSeek-V3's layout with 384 experts, 64 heads and first_k_dense_replace 1 (60 MoE layers);
        # 1,026 B counted from its config.json (tests/model/test_architectures.py), which the README rounds to "1 T"
        Arch("kimi_k2", 61, 7168, 64, 64, 192, 163_840, 1026.0, 32.0, "mla", experts=384, experts_per_token=8,
             shared_experts=1, kv_lora_rank=512, rope_dim=64, expert_hidden=2048, moe_layers=60, source="cfg_kimi_k2"),
    )
}
ARCH_IDS: tuple[str, ...] = ("custom", *ARCHS)

_CONSTANTS = (
    # --- bytes and FLOPs per parameter -------------------------------------------------------------
    Constant("train_bytes_per_param", 16.0, "B/param", "zero"),       # 2 bf16 w + 2 grad + 12 fp32 (w, m, v)
    Constant("infer_bytes_per_param", 2.0, "B/param", "zero"),        # bf16 weights
    Constant("offload_gpu_bytes_per_param", 4.0, "B/param", "zero_offload"),  # bf16 w + grad stay; 12 B on host
    Constant("kv_bytes_per_value", 2.0, "B", "vllm_blog"),            # bf16 K and V entries
    Constant("train_flops_per_param_token", 6.0, "FLOP/param/token", "kaplan"),
    Constant("forward_flops_per_param_token", 2.0, "FLOP/param/token", "kaplan"),
    Constant("lora_train_flops_per_param_token", 4.0, "FLOP/param/token", "lora"),  # no weight grads of the base
    Constant("lora_trainable_fraction", 0.005, "of the parameters"),   # adapters, trained with Adam (16 B/param)
    # --- the custom architecture's shape rule --------------------------------------------------------
    Constant("aspect_ratio_d_per_layer", 128.0, "d_model/layer"),      # LLaMA-7B: 4096/32; LLaMA-13B: 5120/40
    Constant("params_per_layer_d2", 12.0, "params/(layer·d²)", "kaplan"),  # N ≈ 12·L·d²
    Constant("custom_kv_heads", 8.0, "KV heads"),                      # GQA as in Llama 3 / Qwen 3
    Constant("custom_head_dim", 128.0, "per head"),
    Constant("custom_vocab", 128_256.0, "tokens"),                     # Llama 3's vocabulary
    # --- activations and logits while training -----------------------------------------------------
    Constant("micro_batch_tokens_per_gpu", 16_384.0, "tokens per GPU", "verl"),  # ppo_max_token_len_per_gpu
    Constant("activation_bytes_per_value", 2.0, "B"),                  # bf16 layer inputs kept by checkpointing
    Constant("logits_bytes_per_value", 4.0, "B"),                      # fp32 logits of one chunk for the log-probs
    Constant("logits_chunk_tokens", 4096.0, "tokens", "nemo_rl_recipes"),  # logprob_chunk_size: logits in chunks
    # --- optimizer steps per RL step (the ``optimizer_steps`` input's default per method) -----------
    Constant("grpo_optimizer_steps", 1.0, "optimizer steps per RL step", "nemo_rl_recipes"),
    Constant("ppo_optimizer_steps", 4.0, "optimizer steps per RL step", "verl_examples"),
    # --- training layout -------------------------------------------------------------------------------
    Constant("fsdp_max_dense_b", 100.0, "B params"),  # dense models up to here train with FSDP / ZeRO-3
    Constant("megatron_resident_bytes_per_param", 6.0, "B/param", "megatron_distopt"),  # bf16 w + fp32 grad
    Constant("megatron_sharded_bytes_per_param", 12.0, "B/param", "megatron_distopt"),  # fp32 w, m, v over d
    Constant("megatron_max_expert_parallel", 16.0, "GPUs", "nemo_rl_recipes"),  # EP 8–16 in every MoE recipe
    Constant("megatron_max_pipeline", 16.0, "stages", "nemo_rl_recipes"),  # PP 1–16 in every recipe
    Constant("param_offload_bytes_per_param", 8.0, "B/param per optimizer step"),  # bf16 w in (fwd + bwd), grads out, w back
    # --- achieved fractions of peak -----------------------------------------------------------------
    Constant("train_mfu", 0.35, "of peak BF16", "openrlhf"),         # OpenRLHF: 47–116 TFLOP/s on 312 peak
    Constant("forward_mfu", 0.45, "of peak BF16"),                     # scoring forwards and prefill
    Constant("decode_bandwidth_efficiency", 0.60, "of HBM bandwidth"),
    Constant("usable_memory_fraction", 0.90, "of GPU memory", "vllm_docs"),
    # --- engines ----------------------------------------------------------------------------------------
    # the fixed CPU / scheduler seconds of one decode step, one per engine release (data/engines.toml)
    # (a fit cites its source; a teaching figure is labelled one, its bounding source named in the row's derivation)
    *(Constant(r.constant, r.overhead_s, "s per decode step", r.source if r.kind == "fit" else None)
      for r in ENGINE_RELEASES.values()),
    Constant("hf_batch_per_gpu", 16.0, "sequences per GPU"),  # generation batch of generate() inside a trainer
    Constant("colocated_engine_memory_fraction", 0.6, "of GPU memory", "verl"),  # gpu_memory_utilization
    Constant("engine_min_kv_fraction", 0.1, "of the engine's memory"),  # a useful KV cache beside the weights
    Constant("engine_wake_s", 1.0, "s per step"),  # colocated: KV cache re-allocated, engine resumed (vllm_sleep)
    Constant("rollout_fp8_bytes_per_param", 1.0, "B/param", "vllm_fp8"),      # FP8 W8A8 engine weights
    Constant("rollout_fp8_kv_bytes_per_value", 1.0, "B", "vllm_fp8"),         # kv_cache_dtype=fp8
    # --- speculative decoding (physics/generation.py): MTP heads or a draft model propose, the target verifies ----
    Constant("spec_draft_tokens", 3.0, "tokens proposed per decode step"),  # speculative=draft: vLLM's k
    Constant("spec_acceptance", 1.8, "tokens per decode step", "deepseek_v3_report"),  # the acceptance default
    # a proposal reads one decoder layer's worth of the target's weights (an MTP module, an EAGLE head)
    Constant("spec_draft_layers", 1.0, "decoder layers per proposed token"),
    # --- reward=judge (physics/judge.py): a generative LLM judge's defaults --------------------------------------
    Constant("judge_default_b", 7.0, "B params"),             # the reward model's default size (rm_b)
    Constant("judge_default_tokens", 512.0, "tokens per rollout"),  # a short rationale and a verdict
    # --- the refit (physics/refit.py): a fit to verl's checkpoint-engine ablation table (fully_async.md) ---------
    # load per tensor: the geometric mean of the bucketed rows' seconds per tensor beyond the wire (Qwen3-235B-A22B
    # (23.7 − 9.4 − 0.235) / 36,757 = 0.383 ms, Qwen3-30B-A3B (4.38 − 1.22 − 0.03) / 18,771 = 0.167 ms): 0.25 ms
    Constant("refit_load_per_tensor_s", 0.25e-3, "s per tensor", "verl_async"),
    # per_tensor's collective per tensor across nodes: the NCCL rows' seconds per tensor beyond the wire less the
    # load (235B (58.57 − 18.89) / 36,757 − 0.25 = 0.83 ms; 30B (15.76 − 2.39) / 18,771 − 0.25 = 0.46 ms): 0.6 ms
    Constant("refit_collective_per_tensor_s", 0.6e-3, "s per tensor across nodes", "verl_async"),
    Constant("refit_convert_passes", 2.0, "HBM passes over the gathered bytes"),  # read once, write once
    # --- server-mode generation (TRL vllm_mode=server): the engine behind HTTP (physics/refit.py) ---------------
    # one HTTP request and its answer between the trainer and the vLLM server on the cluster's network (FastAPI +
    # uvicorn on a LAN; no published figure)
    Constant("http_round_trip_s", 2e-3, "s per request"),
    # requests per step beside the weight push: the batch's /generate/ and /reset_prefix_cache/ (trl vllm_client.py)
    Constant("server_requests_per_step", 2.0, "requests per step", "trl_server"),
    # --- interconnect -----------------------------------------------------------------------------------
    Constant("gpus_per_node", 8.0, "GPUs per node", "nvidia_h100"),    # DGX / HGX 8-GPU baseboards
    Constant("collective_bus_efficiency", 0.77, "of one-way NVLink", "nccl_tests"),  # ≈ 230 of 300 GB/s on A100
    Constant("collective_latency_s", 10e-6, "s per collective"),
    # an engine instance whose experts span nodes exchanges each MoE layer's tokens over RDMA every decode step:
    # dispatch + combine at EP 32 (155 + 273 µs for ≤ 128 tokens per rank; 313–561 µs from EP 16 to 256)
    Constant("expert_exchange_s", 428e-6, "s per MoE layer per decode step", "deepep"),
    # wide EP's all-to-all moves each routed token in fp8 (dispatch) and back in bf16 (combine), as DeepEP's
    # low-latency kernels do (its EP-32 dispatch: 128 · 8 · 7,168 B in 155 µs, 47 GB/s)
    Constant("dispatch_combine_bytes_per_value", 3.0, "B per value (dispatch + combine)", "deepep"),
    # --- display decisions, made once in the model (Step.generation_is_whole, Step.scoring_hidden_all) -------
    Constant("whole_step_share", 0.995, "of the step"),  # generation this much of the step: the step *is* generation
    Constant("hidden_seconds_threshold_s", 0.5, "s"),  # scoring hidden (or left) below this is shown as none
    # the step's legend names idle GPU time only above this: less rounds to nothing at the precision it prints
    Constant("idle_shown_min_gpu_s", 0.5, "GPU-s"),
    # --- decision cards: where a card's advice changes (app/model/decisions/) -----------------------------------
    Constant("tail_share_worth_work", 0.25, "of generation"),  # the longest response's share: the tail is the work
    Constant("generation_share_worth_work", 0.5, "of the step"),  # generation this much of the step: worth speeding
    Constant("kl_too_strong", 0.5, "β"),  # a KL coefficient this large holds the policy at the reference
    # --- placement: the reference layout `separate` is compared with (OpenRLHF's 8-GPU 7B layout) -------
    Constant("separate_min_gpus", 4.0, "GPUs"),
    # --- rewards ------------------------------------------------------------------------------------------
    Constant("verifier_gpu_seconds", 0.0, "GPU-s per response"),       # a rule or a unit test, on CPU
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
    Constant("kl_reference_grpo", 0.001, "β at which one epoch gives risk 50", "verl"),
    Constant("verifier_kl_floor", 0.001, "β-equivalent of a verifier's reward"),
    Constant("meter_warn", 50.0, "meter value"),
    Constant("meter_hot", 75.0, "meter value"),
    Constant("memory_warn", 70.0, "% of usable GPU memory"),
    Constant("memory_hot", 90.0, "% of usable GPU memory"),
    # teaching assumption: an engine reservation smaller than this is not told apart from what is in use
    Constant("memory_reserved_shown", 0.5, "GB per GPU"),
)

CONSTANTS: dict[str, Constant] = {c.key: c for c in _CONSTANTS}


def c(key: str) -> float:
    """The value of one constant."""
    return CONSTANTS[key].value


# Named module-level values, each with its unit in the name (the constant keys above are the reference).
TRAIN_BYTES_PER_PARAM = c("train_bytes_per_param")
INFER_BYTES_PER_PARAM = c("infer_bytes_per_param")
OFFLOAD_GPU_BYTES_PER_PARAM = c("offload_gpu_bytes_per_param")
KV_BYTES_PER_VALUE = c("kv_bytes_per_value")
TRAIN_FLOPS_PER_PARAM_TOKEN = c("train_flops_per_param_token")
FORWARD_FLOPS_PER_PARAM_TOKEN = c("forward_flops_per_param_token")
LORA_TRAIN_FLOPS_PER_PARAM_TOKEN = c("lora_train_flops_per_param_token")
LORA_TRAINABLE_FRACTION = c("lora_trainable_fraction")
D_MODEL_PER_LAYER = c("aspect_ratio_d_per_layer")
PARAMS_PER_LAYER_D2 = c("params_per_layer_d2")
MICRO_BATCH_TOKENS_PER_GPU = c("micro_batch_tokens_per_gpu")
ACTIVATION_BYTES_PER_VALUE = c("activation_bytes_per_value")
LOGITS_BYTES_PER_VALUE = c("logits_bytes_per_value")
LOGITS_CHUNK_TOKENS = c("logits_chunk_tokens")
GRPO_OPTIMIZER_STEPS = int(c("grpo_optimizer_steps"))
PPO_OPTIMIZER_STEPS = int(c("ppo_optimizer_steps"))
FSDP_MAX_DENSE_B = c("fsdp_max_dense_b")
MEGATRON_RESIDENT_BYTES_PER_PARAM = c("megatron_resident_bytes_per_param")
MEGATRON_SHARDED_BYTES_PER_PARAM = c("megatron_sharded_bytes_per_param")
MEGATRON_MAX_EXPERT_PARALLEL = int(c("megatron_max_expert_parallel"))
MEGATRON_MAX_PIPELINE = int(c("megatron_max_pipeline"))
PARAM_OFFLOAD_BYTES_PER_PARAM = c("param_offload_bytes_per_param")
TRAIN_MFU = c("train_mfu")
FORWARD_MFU = c("forward_mfu")
DECODE_BANDWIDTH_EFFICIENCY = c("decode_bandwidth_efficiency")
USABLE_MEMORY_FRACTION = c("usable_memory_fraction")
DECODE_STEP_OVERHEAD_VLLM_S = c("decode_step_overhead_vllm_s")
DECODE_STEP_OVERHEAD_HF_S = c("decode_step_overhead_hf_s")
DECODE_STEP_OVERHEAD_S = {k: r.overhead_s for k, r in ENGINE_RELEASES.items()}  # by engine release (engine_release)
HF_BATCH_PER_GPU = c("hf_batch_per_gpu")
COLOCATED_ENGINE_MEMORY_FRACTION = c("colocated_engine_memory_fraction")
ENGINE_MIN_KV_FRACTION = c("engine_min_kv_fraction")
ENGINE_WAKE_S = c("engine_wake_s")
EXPERT_EXCHANGE_S = c("expert_exchange_s")
DISPATCH_COMBINE_BYTES = c("dispatch_combine_bytes_per_value")
SPEC_DRAFT_TOKENS = int(c("spec_draft_tokens"))
SPEC_ACCEPTANCE = c("spec_acceptance")
JUDGE_DEFAULT_B = c("judge_default_b")
JUDGE_DEFAULT_TOKENS = int(c("judge_default_tokens"))
SPEC_DRAFT_LAYERS = c("spec_draft_layers")
REFIT_LOAD_PER_TENSOR_S = c("refit_load_per_tensor_s")
REFIT_COLLECTIVE_PER_TENSOR_S = c("refit_collective_per_tensor_s")
REFIT_CONVERT_PASSES = c("refit_convert_passes")
HTTP_ROUND_TRIP_S = c("http_round_trip_s")
SERVER_REQUESTS_PER_STEP = int(c("server_requests_per_step"))
ROLLOUT_BYTES_PER_PARAM = {"bf16": INFER_BYTES_PER_PARAM, "fp8": c("rollout_fp8_bytes_per_param")}
ROLLOUT_KV_BYTES_PER_VALUE = {"bf16": KV_BYTES_PER_VALUE, "fp8": c("rollout_fp8_kv_bytes_per_value")}
GPUS_PER_NODE = int(c("gpus_per_node"))
COLLECTIVE_BUS_EFFICIENCY = c("collective_bus_efficiency")
COLLECTIVE_LATENCY_S = c("collective_latency_s")
SEPARATE_MIN_GPUS = int(c("separate_min_gpus"))
WHOLE_STEP_SHARE = c("whole_step_share")
HIDDEN_SECONDS_THRESHOLD_S = c("hidden_seconds_threshold_s")
IDLE_SHOWN_MIN_GPU_S = c("idle_shown_min_gpu_s")
TAIL_SHARE_WORTH_WORK = c("tail_share_worth_work")
GENERATION_SHARE_WORTH_WORK = c("generation_share_worth_work")
KL_TOO_STRONG = c("kl_too_strong")
DPO_BATCH_PAIRS = c("dpo_batch_pairs")
EVAL_GATE_MAX_STEPS = c("eval_gate_max_steps")
SCALED_ROLLOUTS_MIN = c("scaled_rollouts_min")
METER_TIME_LOW_S = c("meter_time_low_s")
METER_TIME_HIGH_S = c("meter_time_high_s")
METER_EVAL_LOW = c("meter_eval_low")
METER_EVAL_HIGH = c("meter_eval_high")
KL_REFERENCE_PPO = c("kl_reference_ppo")
KL_REFERENCE_DPO = c("kl_reference_dpo")
KL_REFERENCE_GRPO = c("kl_reference_grpo")
VERIFIER_KL_FLOOR = c("verifier_kl_floor")
METER_WARN = c("meter_warn")
METER_HOT = c("meter_hot")
MEMORY_WARN_PCT = c("memory_warn")
MEMORY_HOT_PCT = c("memory_hot")
MEMORY_RESERVED_SHOWN_GB = c("memory_reserved_shown")
