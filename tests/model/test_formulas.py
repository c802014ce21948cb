"""Each formula of the workload model against values worked out by hand (the arithmetic is in the comments).

Constants used below (app/model/assumptions.py): 16 B/param training states (4 on the GPU with offload), 2 B/param
bf16 weights and KV entries, 6N / 2N FLOPs per token, train MFU 0.35, forward MFU 0.45, decode bandwidth efficiency
0.60, usable memory 90 %, vLLM 4 ms and HF 10 ms per decode step, NVLink collectives at 77 % of one direction.
A100-80GB: 80 GB, 2.039 TB/s, 312 TFLOP/s, NVLink 600 GB/s, IB 25 GB/s; H100: 80 GB, 3.35 TB/s, 989 TFLOP/s,
NVLink 900 GB/s, IB 50 GB/s.  MODEL-2026's checks are marked "MODEL-2026".
"""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from app.model import DEFAULTS, WorkloadInputs, evaluate, normalise
from app.model import meters as M
from app.model.assumptions import ARCHS, CONSTANTS, GPUS
from app.model.decisions import DECISION_IDS
from app.model.inputs import NUMBER_SPECS, STEP_MAX, Notice, effective
from app.model.physics.architecture import (
    attention_flops_per_token,
    custom_arch,
    decode_weight_bytes,
    kv_bytes_per_token,
    train_flops_per_token,
)
from app.model.physics.generation import NO_GENERATION, engine_plan, generation, schedule, tensor_parallel_options
from app.model.physics.memory import (
    activation_gb,
    logits_gb,
    min_gpus_that_fit,
    model_memory,
    trained_bytes_per_param,
    zero_states_gb_per_gpu,
)
from app.model.physics.network import all_gather_seconds, zero3_floor_seconds
from app.model.physics.offline import dpo, offline_stages
from app.model.physics.step import Groups, gpu_groups, ppo_step
from app.model.physics.step_memory import ppo_memory
from app.model.physics.training import forward_seconds, train_seconds
from app.model.scenarios import PRESET_BY_ID
from app.model.stages import EDGES, NODE_IDS, STAGE_IDS, active_nodes, bottleneck_node, edge_states, stage_of

A100_80 = GPUS["a100_80g"]
A100_40 = GPUS["a100_40g"]
H100 = GPUS["h100_80g"]
approx = pytest.approx

# A "LLaMA-7B-shaped" custom model: 32 layers, d_model = 128 · 32 = 4096, N = 12 · L · d² = 12 · 32 · 4096² params.
L32_B = 12 * 32 * 4096**2 / 1e9  # = 6.442450944 B params


def w(**changes) -> WorkloadInputs:
    return WorkloadInputs(**{**DEFAULTS.model_dump(), "response_max_tokens": None, **changes})


# --- constants sanity: the values the hand arithmetic below relies on -------------------------------------


def test_constants_used_by_hand_arithmetic() -> None:
    expected = {
        "train_bytes_per_param": 16, "infer_bytes_per_param": 2, "offload_gpu_bytes_per_param": 4,
        "kv_bytes_per_value": 2, "train_flops_per_param_token": 6, "forward_flops_per_param_token": 2,
        "lora_train_flops_per_param_token": 4, "aspect_ratio_d_per_layer": 128, "params_per_layer_d2": 12,
        "custom_kv_heads": 8, "custom_head_dim": 128, "train_mfu": 0.35, "forward_mfu": 0.45,
        "decode_bandwidth_efficiency": 0.60, "usable_memory_fraction": 0.90, "decode_step_overhead_vllm_s": 0.004,
        "decode_step_overhead_hf_s": 0.010, "hf_batch_per_gpu": 16, "dpo_batch_pairs": 64,
        "micro_batch_tokens_per_gpu": 16_384, "logits_chunk_tokens": 4096, "logits_bytes_per_value": 4,
        "grpo_optimizer_steps": 1, "ppo_optimizer_steps": 4, "megatron_resident_bytes_per_param": 6,
        "megatron_sharded_bytes_per_param": 12, "collective_bus_efficiency": 0.77,
        "colocated_engine_memory_fraction": 0.6, "gpus_per_node": 8,
    }
    assert {k: CONSTANTS[k].value for k in expected} == expected


# --- architectures: the KV cache (MODEL-2026 §1) --------------------------------------------------------------


@pytest.mark.parametrize(
    ("arch", "expected"),
    [
        ("llama3_8b", 131_072),     # 2 · 32 layers · 8 KV heads · 128 · 2 B
        ("qwen25_7b", 57_344),      # 2 · 28 · 4 · 128 · 2
        ("llama3_70b", 327_680),    # 2 · 80 · 8 · 128 · 2
        ("qwen3_32b", 262_144),     # 2 · 64 · 8 · 128 · 2
        ("llama2_13b", 819_200),    # 2 · 40 · 40 · 128 · 2: multi-head (the vLLM blog's ≈ 800 KB)
        ("deepseek_v3", 70_272),    # MLA: 61 · (512 + 64) · 2
    ],
)
def test_kv_bytes_per_token_of_named_architectures(arch: str, expected: int) -> None:
    assert kv_bytes_per_token(ARCHS[arch]) == expected


def test_gqa_needs_far_less_kv_than_mha() -> None:
    # LLaMA-13B (MHA) 819,200 B against Llama-3.1-8B's 131,072: 6.25×; against Qwen2.5-7B's 57,344: 14.3×;
    # DeepSeek-V3's 70,272 against a multi-head 61-layer, 128-head model of head dim 128: 2 · 61 · 128 · 128 · 2 =
    # 3,997,696 B → 57× (the design's "165×" compares with head dim 192 for K plus 128 for V).
    assert kv_bytes_per_token(ARCHS["llama2_13b"]) / kv_bytes_per_token(ARCHS["llama3_8b"]) == approx(6.25)
    assert kv_bytes_per_token(ARCHS["llama2_13b"]) / kv_bytes_per_token(ARCHS["qwen25_7b"]) == approx(14.29, rel=1e-3)


def test_custom_architecture_shape_rule() -> None:
    # N = 12 · L · d², d = 128 · L: L32_B gives L = 32, d = 4,096; 8 KV heads of 128 → KV = 2 · 32 · 8 · 128 · 2
    a = custom_arch(L32_B)
    assert (a.layers, a.hidden, a.kv_heads, a.head_dim) == (approx(32.0), approx(4096.0), 8, 128)
    assert kv_bytes_per_token(a) == approx(131_072, rel=1e-12)
    # KV ∝ layers (kv width fixed at 8 · 128): 8× the parameters → 2× the layers → 2× the KV bytes
    assert kv_bytes_per_token(custom_arch(8 * L32_B)) == approx(2 * 131_072, rel=1e-12)
    # a small model (d < 1,024) keeps its KV width at d: 0.1 B → L = 7.99, d = 1,022.6 → 7.99 KV heads of 128
    tiny = custom_arch(0.1)
    assert tiny.kv_heads * tiny.head_dim == approx(tiny.hidden)


# --- mixture of experts (MODEL-2026 §1) -----------------------------------------------------------------------


def test_moe_flops_use_active_parameters() -> None:
    # DeepSeek-V3 training FLOPs per token (attention aside): 6 · 37e9 = 2.22e11, 671 / 37 = 18.1× below dense 671 B
    v3 = ARCHS["deepseek_v3"]
    assert train_flops_per_token(v3, 0) == approx(2.22e11)
    assert 6 * 671e9 / train_flops_per_token(v3, 0) == approx(18.14, rel=1e-3)


def test_moe_memory_uses_total_parameters() -> None:
    # the actor's Adam states: 16 B · 671 B = 10,736 GB, not 16 · 37
    assert model_memory(671, 1, critic=False, reward=False).actor_gb == approx(10_736)


def test_moe_decode_reads_the_experts_a_batch_touches() -> None:
    # routed = 58 MoE layers · 256 experts · 3 · 7,168 · 2,048 = 653.9 B (its shape, test_architectures);
    # touched at b: 1 − (1 − 8/256)^b = 3.1 % at b = 1, 87 % at 64
    v3 = ARCHS["deepseek_v3"]
    assert v3.routed_b == approx(58 * 256 * 3 * 7168 * 2048 / 1e9)
    touched_1, touched_64 = 1 - (1 - 8 / 256) ** 1, 1 - (1 - 8 / 256) ** 64
    assert (touched_1, touched_64) == (approx(0.03125), approx(0.8690, rel=1e-3))
    assert decode_weight_bytes(v3, 1) == approx(2e9 * (v3.dense_b + v3.routed_b * 0.03125))
    assert decode_weight_bytes(v3, 64) == approx(2e9 * (v3.dense_b + v3.routed_b * (1 - (1 - 8 / 256) ** 64)))
    # a dense model reads all its weights at any batch
    assert decode_weight_bytes(ARCHS["llama3_8b"], 64) == approx(16e9)


# --- long context (MODEL-2026 §1) ------------------------------------------------------------------------------


def test_long_context_attention_term() -> None:
    # Kaplan Table 1: 2 · layers · d_attn · context per token (forward).  For a whole sequence of S the average
    # causal context is S / 2, so training costs 6N + 3 · 2 · L · d · S/2 = 6N · (1 + S / (24 d)) for N = 12 L d²:
    # 7 B-shaped (d 4,096) at S = 32,768: 1 + 32,768 / 98,304 = 1.333 (MODEL-2026 writes 1 + S / (12 d) = 1.67,
    # which counts the full context for every token; the causal average is half of it); at 2,048: 1.021.
    a = custom_arch(L32_B)
    assert attention_flops_per_token(a, 1000) == approx(2 * 32 * 4096 * 1000)
    for s, factor in ((32_768, 1 + 32_768 / (24 * 4096)), (2048, 1 + 2048 / (24 * 4096))):
        assert train_flops_per_token(a, s / 2) / (6 * L32_B * 1e9) == approx(factor, rel=1e-9)
    causal_32k = 1 + 32_768 / (24 * 4096)
    assert causal_32k == approx(1.3333, rel=1e-4)


# --- ZeRO model states --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stage", "expected_gb"),
    [
        (0, 120.0),       # 16 B · 7.5 B = 120 GB, not sharded
        (1, 31.40625),    # 4 · 7.5 + 12 · 7.5 / 64 = 30 + 1.40625
        (2, 16.640625),   # 2 · 7.5 + 14 · 7.5 / 64 = 15 + 1.640625
        (3, 1.875),       # 16 · 7.5 / 64 = 120 / 64
    ],
)
def test_zero_states_gb_per_gpu(stage: int, expected_gb: float) -> None:
    assert zero_states_gb_per_gpu(7.5, 64, stage) == approx(expected_gb, rel=1e-12)


def test_model_memory_ppo_and_grpo() -> None:
    # PPO, 7 B policy and 7 B RM/critic: 16 · 7 + 16 · 7 + 2 · 7 + 2 · 7 = 252 GB
    m = model_memory(7, 7)
    assert (m.actor_gb, m.critic_gb, m.reference_gb, m.reward_gb, m.generation_weights_gb) == (112, 112, 14, 14, 14)
    assert m.states_gb == 252
    # MODEL-2026 §2: GRPO with a verifier: no critic, no reward model: 16 · 7 + 2 · 7 = 126 GB (15.75 per GPU of 8)
    g = model_memory(7, 7, critic=False, reward=False)
    assert g.states_gb == 126 and g.states_gb / 8 == 15.75
    # kl = 0: no reference either: 112 GB
    assert model_memory(7, 7, critic=False, reward=False, reference=False).states_gb == 112


def test_offload_and_lora_bytes_per_param() -> None:
    # offload=optimizer: 4 B on the GPU (bf16 weights + grads), 12 B in host memory [ZeRO-Offload]
    assert trained_bytes_per_param("optimizer", "full") == (4.0, 12.0)
    # LoRA: 2 B frozen base + 0.5 % adapters at 16 B = 2.08 B; the reference is the base (no second copy)
    assert trained_bytes_per_param("none", "lora") == (approx(2.08), 0.0)
    m = model_memory(7, 7, tuning="lora")
    assert m.reference_gb == 0 and m.actor_gb == approx(2.08 * 7)
    off = model_memory(7, 7, offload="optimizer")
    assert off.actor_gb == 28 and off.host_gb == 12 * 14   # 4 · 7 on GPUs; 12 · (7 + 7) in host memory


# --- activations and logits (MODEL-2026 §7) -------------------------------------------------------------------


def test_activations_and_logits_of_a_long_sequence() -> None:
    # Llama-3-8B, one 32,768-token sequence: 32 · 4,096 · 2 · 32,768 = 8.59 GB; the logits come in chunks of 4,096
    # tokens in fp32 (NeMo RL logprob_chunk_size): 128,256 · 4 · 4,096 = 2.10 GB, not 128,256 · 6 · 32,768 = 25.2 GB
    a = ARCHS["llama3_8b"]
    act, logit = activation_gb(a, 32_768), logits_gb(a.vocab, 32_768)
    assert act == approx(32 * 4096 * 2 * 32_768 / 1e9)
    assert logit == approx(128_256 * 4 * 4096 / 1e9)
    assert act + logit == approx(10.69, abs=0.01)


def test_a_32k_sequence_decides_the_fit() -> None:
    # Llama-3.1-8B GRPO on one H100 node: states at 8 GPUs are 144 / 8 = 18 GB (kl > 0, verifier) + 10.7 GB of
    # one 32k sequence's activations (8.59) and one chunk of logits (2.10) = 28.7 GB ≤ 72: fits; on 2 GPUs
    # 72 + 10.7 > 72: does not
    base = dict(arch="llama3_8b", policy_b=8.0, method="grpo", reward="verifier", gpu="h100_80g",
                placement="colocated", prompt_tokens=512, response_tokens=2048, response_max_tokens=32_256)
    r = evaluate(w(**base, gpus=8))
    assert r.memory.activation_gb + r.memory.logits_gb == approx(10.69, abs=0.01)
    assert r.memory.fits
    assert not evaluate(w(**base, gpus=2)).memory.fits


# --- interconnect (MODEL-2026 §3, §4) -----------------------------------------------------------------------------


def test_hf_generate_all_gather_per_decode_step() -> None:
    # 2P · (G − 1) / G / bandwidth: 14 GB · 7/8 / (300 GB/s · 0.77 = 231 GB/s) = 53.0 ms — today's 50 ms, derived
    assert all_gather_seconds(14.0, 8, A100_80) == approx(14e9 * 7 / 8 / 231e9)
    assert all_gather_seconds(14.0, 8, A100_80) * 1e3 == approx(53, abs=0.5)
    assert all_gather_seconds(14.0, 1, A100_80) == 0


def test_zero3_floor_at_4096_gpus() -> None:
    # 7 B actor + 7 B critic, 512 rollouts / 128 per mini-batch = 4 optimizer steps, over InfiniBand (50 GB/s):
    # 4 · 2 · 3 · 2 B · 7 B / 50 GB/s = 4 · 2 · 42 GB / 50 GB/s = 6.72 s
    floor = 2 * zero3_floor_seconds(7, 4, 4096, H100)
    assert floor == approx(4 * 2 * 42 / 50)
    step = ppo_step(w(policy_b=7, rm_b=7, gpus=4096, gpu="h100_80g", placement="colocated"), H100)
    assert step.training_s >= 6.72 * (1 - 1e-9)
    # inside one node it is NVLink: 42 GB / (450 · 0.77 GB/s) per optimizer step
    assert zero3_floor_seconds(7, 1, 8, H100) == approx(42 / (450 * 0.77))


def test_tensor_parallel_within_a_node_and_the_kv_heads() -> None:
    assert tensor_parallel_options(ARCHS["llama3_8b"], 64, "vllm") == (1, 2, 4, 8)   # min(8, 8 KV heads)
    # TP may exceed the KV heads (vLLM replicates them) but must divide the attention heads: Qwen2.5-7B's 28 heads
    # take TP 1, 2 or 4, never 8 (28 / 8 = 3.5: vLLM refuses it at start-up); 4 KV heads: 4 % 4 = 0
    assert tensor_parallel_options(ARCHS["qwen25_7b"], 64, "vllm") == (1, 2, 4)
    # Qwen2.5-1.5B: 12 heads (12 / 8 = 1.5), 2 KV heads (TP 4 replicates each twice)
    assert tensor_parallel_options(ARCHS["qwen25_1_5b"], 64, "vllm") == (1, 2, 4)
    assert tensor_parallel_options(ARCHS["llama3_8b"], 2, "vllm") == (1, 2)
    assert tensor_parallel_options(ARCHS["llama3_8b"], 64, "hf") == (1,)            # HF generate: no TP
    # no engine is ever wider than a node (today's model allowed TP 64 for a 7 B engine)
    r = evaluate(w(policy_b=7, gpus=4096, placement="colocated"))
    assert r.step.gen.tensor_parallel <= 8


def test_weight_broadcast_and_refit() -> None:
    # separate (the refit mechanism, physics/refit.py, bucketed): max(gather, broadcast ≥ 2P / link) + convert + load.
    # 70 B on 64 H100s (24 generate, 13 score, 27 train: across nodes, InfiniBand 50 GB/s): broadcast 2 · 70.6 / 50
    # = 2.824 s (the wire alone, which was the whole answer before), gather 141.2 · 26 / 27 / 50 = 2.719 s, convert
    # 2 · 141.2 / 3,350 = 0.084 s, 80 · (4 + 2 + 3) + 3 = 723 tensors · 0.25 ms = 0.181 s: 3.089 s
    s70 = ppo_step(w(arch="llama3_70b", policy_b=70.6, rm_b=7, gpu="h100_80g", gpus=64, placement="separate"), H100)
    assert (s70.groups.generation, s70.groups.training) == (24, 27)
    assert s70.refit.gather_s == approx(141.2 * 26 / 27 / 50, rel=0.01)
    assert s70.refit.broadcast_s == approx(2 * 70.6 / 50)
    assert s70.sync_s == approx(2 * 70.6 / 50 + 2 * 141.2 / 3350 + 723 * 0.25e-3)
    broadcast_671b = 2 * 671 / 50
    assert broadcast_671b == approx(26.84)
    # colocated (vllm): the 8 A100s' shards all-gathered, 14 GB · 7 / 8 / 231 GB/s = 53 ms, converted 2 · 14 / 2,039
    # = 13.7 ms, 299 tensors (the custom shape's 32.9 layers · 9 + 3) · 0.25 ms = 74.8 ms (bucketed: the gather
    # overlaps nothing colocated); plus the engine's wake-up: 1 s (engine_wake_s) + its weights per GPU back over the
    # host link (14 GB / TP / 32 GB/s).  Before the refit mechanism: 2P / G per GPU, 14 GB / 8 / 231 GB/s = 7.6 ms
    s7 = ppo_step(w(policy_b=7, gpus=8, placement="colocated"), A100_80)
    wake = 1.0 + 14.0 / s7.gen.tensor_parallel / 32.0
    assert s7.refit.tensors == 299
    assert s7.sync_s == approx(14e9 * 7 / 8 / 231e9 + 2 * 14 / 2039 + 299 * 0.25e-3 + wake, rel=1e-3)


# --- generation: engine plans and the decode roofline --------------------------------------------------------


def test_engine_plan_and_schedule_hand_case() -> None:
    # custom 32-layer 6.44 B policy (KV 131,072 B/token), 146 rollouts of 512 + 1,024, one A100-80GB, vllm, TP 1
    a = custom_arch(L32_B)
    plan = engine_plan(a, A100_80, 72.0, 1, prompt_tokens=512, response_tokens=1024, longest_tokens=1024, group=1,
                       engine="vllm", gather_gpus=0, max_gpus=1)
    # W = 2 · 6.442450944 = 12.884901888 GB; kv_seq = (512 + 1,024) · 131,072 B = 0.201326592 GB
    # room = 72 − 12.884901888 = 59.115098112 GB → B = ⌊59.115 / 0.20133⌋ = 293
    assert plan.batch_cap == 293
    g = schedule(plan, 146, 1)
    assert (g.waves, g.batch) == (1, 146)
    # t_mem = (W + b · (512 + 512) · kv) / (2.039e12 · 0.6) = (12.884901888e9 + 146 · 1,024 · 131,072) / 1.2234e12
    t_mem = (12.884901888e9 + 146 * 1024 * 131_072) / 1.2234e12                 # = 0.026550 s
    # t_compute = b · (2N + 2 · 32 · 4,096 · 1,024) / (312e12 · 0.45) = 0.013678 s → memory bound
    t_compute = 146 * (2 * L32_B * 1e9 + 2 * 32 * 4096 * 1024) / 140.4e12
    assert t_mem > t_compute and g.bound == "memory"
    assert g.decode_step_s == approx(t_mem + 0.004, rel=1e-12)
    # prefill = b · 512 · (2N + 2 · 32 · 4,096 · 256) / 140.4e12 = 6.896 s; seconds = prefill + 1,024 · step
    prefill = 146 * 512 * (2 * L32_B * 1e9 + 2 * 32 * 4096 * 256) / 140.4e12
    assert g.seconds == approx(prefill + 1024 * (t_mem + 0.004), rel=1e-12)
    assert g.seconds == approx(38.18, abs=0.01)
    # floor: 1,024 · ((W + 1,024 · kv) / 1.2234e12 + 4 ms) = 14.99 s, below the batch's own 38.2 s: no tail
    assert g.tail_floor_s == approx(1024 * ((12.884901888e9 + 1024 * 131_072) / 1.2234e12 + 0.004), rel=1e-3)
    assert g.tail_s == 0


def test_group_shares_the_prompt_kv_and_prefill() -> None:
    # GRPO: 8 responses of one prompt share its KV and prefill: kv_seq = (512 / 8 + 1,024) · kv
    a = custom_arch(L32_B)
    one = engine_plan(a, A100_80, 72.0, 1, prompt_tokens=512, response_tokens=1024, longest_tokens=1024, group=1,
                      engine="vllm", gather_gpus=0, max_gpus=1)
    eight = engine_plan(a, A100_80, 72.0, 1, prompt_tokens=512, response_tokens=1024, longest_tokens=1024, group=8,
                        engine="vllm", gather_gpus=0, max_gpus=1)
    assert eight.kv_footprint_gb == approx((64 + 1024) * 131_072 / 1e9)
    assert eight.batch_cap > one.batch_cap
    assert eight.prefill_flops == approx(one.prefill_flops / 8)


def test_the_longest_response_floor() -> None:
    # MODEL-2026 §5: Llama-3.1-8B on H100 engines of TP 1, longest response 4,096 tokens:
    # 4,096 · ((16 GB + (512 + 2,048) · 131,072 B) / (3.35 TB/s · 0.6) + 4 ms) = 4,096 · 12.13 ms = 49.7 s
    # (the design's ≈ 49 s leaves out the sequence's own KV) — at any GPU count
    floor = 4096 * ((16e9 + 2560 * 131_072) / (3.35e12 * 0.6) + 0.004)
    assert floor == approx(49.7, abs=0.05)
    for gpus in (1, 8, 64, 512):
        g = generation(ARCHS["llama3_8b"], 512, 512, 512, gpus, H100, 72.0, longest_tokens=4096, tensor_parallel=1)
        assert g.tail_floor_s == approx(floor, rel=1e-6)
        assert g.seconds >= floor * (1 - 1e-9)


def test_hf_engine_reserves_full_length_and_gathers() -> None:
    # hf: kv_seq = (prompt + longest) · kv, batch ≤ 16 per GPU, step + 10 ms + the all-gather over the trainer's G
    a = custom_arch(L32_B)
    plan = engine_plan(a, A100_80, 50.0, 1, prompt_tokens=512, response_tokens=512, longest_tokens=2048, group=8,
                       engine="hf", gather_gpus=8, max_gpus=1)
    assert plan.kv_footprint_gb == approx((512 + 2048) * 131_072 / 1e9)
    assert plan.batch_cap == 16
    assert plan.fixed_step_s == approx(0.010 + all_gather_seconds(2 * L32_B, 8, A100_80))


def test_generation_nothing_to_do() -> None:
    assert generation(custom_arch(7), 0, 512, 512, 8, A100_80, 72.0) is NO_GENERATION
    assert generation(custom_arch(7), 512, 512, 512, 0, A100_80, 72.0) is NO_GENERATION


# --- compute-bound phases -------------------------------------------------------------------------------------


def test_forward_and_train_seconds() -> None:
    # 2 · 7e9 · 1,000 / (8 · 312e12 · 0.45) and 6 · 7e9 · 1,000 / (8 · 312e12 · 0.35)
    assert forward_seconds(7, 1000, 8, A100_80) == approx(1.4e13 / 1.1232e15, rel=1e-12)
    assert train_seconds(7, 1000, 8, A100_80) == approx(4.2e13 / 8.736e14, rel=1e-12)


def test_grpo_step_figures() -> None:
    # MODEL-2026 §2: 7 B policy, 8 × A100-80GB, colocated, 512 rollouts × (512 + 1,024) = 786,432 tokens
    tokens = 512 * (512 + 1024)
    assert tokens == 786_432
    # training 6 · 7e9 · 786,432 / (8 · 312e12 · 0.35) = 37.8 s (half of PPO's 75.6 s with a 7 B critic)
    assert train_seconds(7, tokens, 8, A100_80) == approx(37.8, abs=0.05)
    assert train_seconds(14, tokens, 8, A100_80) == approx(75.6, abs=0.05)
    # scoring (old log-probs + reference) 2 · 14e9 · 786,432 / (8 · 312e12 · 0.45) = 19.6 s
    assert forward_seconds(14, tokens, 8, A100_80) == approx(19.6, abs=0.05)
    # the step adds causal attention at half the 1,536-token sequence: × (1 + 1,536 / (24 · d)), d = 128 · 32.9
    i = w(policy_b=7, method="grpo", reward="verifier", rollouts=512, gpus=8, placement="colocated")
    r = evaluate(i)
    d = custom_arch(7).hidden
    assert r.step.training_s == approx(37.8 * (1 + 1536 / (24 * d)), rel=2e-3)
    assert r.step.scoring_s == approx(19.6 * (1 + 1536 / (24 * d)), rel=2e-3)
    assert r.memory.total_gb == 126


def test_colocated_beats_separate_for_a_7b_grpo_step() -> None:
    # MODEL-2026 §3: with a paged engine and a refit, colocation is the faster choice on 8 GPUs
    base = dict(policy_b=7, method="grpo", reward="verifier", rollouts=512, gpus=8)
    assert ppo_step(w(**base, placement="colocated"), A100_80).total_s < ppo_step(w(**base, placement="separate"),
                                                                                 A100_80).total_s


# --- one RL step: layouts -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gpus", "gen", "score", "train"),
    [(4, 1, 1, 2), (5, 1, 1, 3), (7, 2, 1, 4), (8, 2, 2, 4), (16, 4, 4, 8), (4096, 1024, 1024, 2048)],
)
def test_gpu_groups_fixed_split(gpus: int, gen: int, score: int, train: int) -> None:
    # the reference split: training ⌈G/2⌉, generation ⌈⌊G/2⌋/2⌉, scoring the rest
    assert gpu_groups(gpus, False) == Groups(gen, score, train, False)


def test_colocated_step_is_the_sum_of_its_phases() -> None:
    i = w(policy_b=7, rm_b=1, rollouts=256, prompt_tokens=256, response_tokens=256, epochs=2, gpus=8,
          placement="colocated")
    s = ppo_step(i, A100_80)
    assert s.tokens == 256 * 512
    assert s.total_s == approx(s.generation_s + s.scoring_s + s.training_s + s.sync_s, rel=1e-12)
    assert s.overlap_s == 0 and s.groups == Groups(8, 8, 8, True)
    assert s.gpu_groups.colocated and s.gpu_groups.fixed_step_s == s.total_s


def test_separate_step_and_the_searched_layout() -> None:
    i = w(policy_b=7, rm_b=1, rollouts=256, prompt_tokens=256, response_tokens=256, gpus=8, placement="separate")
    s = ppo_step(i, A100_80)
    g = s.groups
    assert g.generation + g.scoring + g.training <= 8
    # scoring streams behind generation: step = max(generation, scoring) + training + sync
    assert s.total_s == approx(max(s.generation_s, s.scoring_s) + s.training_s + s.sync_s, rel=1e-12)
    # never slower than the fixed split
    assert s.total_s <= s.gpu_groups.fixed_step_s
    assert (s.gpu_groups.generation, s.gpu_groups.scoring, s.gpu_groups.training) == (g.generation, g.scoring,
                                                                                      g.training)


def test_async_step() -> None:
    # staleness 1: step = max(generation, scoring + training) + sync; the synchronous one is the upper bound
    i = w(policy_b=7, rollouts=1024, gpus=16, placement="separate", staleness=1)
    s = ppo_step(i, A100_80)
    assert s.total_s == approx(max(s.generation_s, s.scoring_s + s.training_s) + s.sync_s, rel=1e-12)
    assert s.sync_step_s == approx(max(s.generation_s, s.scoring_s) + s.training_s + s.sync_s, rel=1e-12)
    assert s.total_s <= s.sync_step_s


def test_default_memory() -> None:
    # default workload: custom 7 B policy, 7 B RM/critic, 8 × A100-80GB, in the 2023 separate layout
    i = DEFAULTS.model_copy(update={"placement": "separate"})
    step = ppo_step(i, A100_80)
    m = ppo_memory(i, A100_80, step)
    assert m.total_gb == 252 and m.usable_gb == 72.0
    # a training GPU also holds one micro-batch (16,384 tokens) of activations and logits:
    # 32.9 layers · 4,212 · 2 B · 16,384 = 4.54 GB + one 4,096-token chunk of fp32 logits, 128,256 · 4 · 4,096 =
    # 2.10 GB → 224 / (72 − 6.64) → 4 GPUs
    a = custom_arch(7)
    assert m.activation_gb == approx(a.layers * a.hidden * 2 * 16_384 / 1e9)
    assert m.logits_gb == approx(128_256 * 4 * 4096 / 1e9)
    assert m.kv_bytes_per_token == approx(2 * a.layers * 8 * 128 * 2)
    assert step.groups.training >= math.ceil(224 / (72 - m.activation_gb - m.logits_gb))
    assert m.fits
    # lanes: every part in GB per GPU; their totals are what the bars draw
    for lane in m.lanes:
        assert lane.total_gb == approx(sum(gb for _, gb in lane.parts))
        assert lane.over == (lane.total_gb > 72.0 + 1e-9)
    # the meter's figure: the fullest GPU without the engine's KV cache (it takes whatever is left):
    # training GPUs 224 / T + activations + logits
    assert m.peak_per_gpu_gb == approx(224 / step.groups.training + m.activation_gb + m.logits_gb)


def test_min_gpus_that_fit() -> None:
    assert min_gpus_that_fit(lambda g: 100 / g <= 7.2) == 14        # 100 / 7.2 = 13.9 → 14
    assert min_gpus_that_fit(lambda g: True) == 1
    assert min_gpus_that_fit(lambda g: g >= 4096) == 4096
    assert min_gpus_that_fit(lambda g: False) is None


def test_offload_makes_13b_fit_on_8_gpus() -> None:
    # OpenRLHF trains 13 B PPO on 8 GPUs with Adam offloaded: 4 B/param on GPUs: (52 + 52) / 4 training GPUs = 26 GB
    base = dict(arch="llama2_13b", policy_b=13, rm_b=13, gpus=8, rollouts=1024, placement="separate")
    assert not evaluate(w(**base)).memory.fits                     # 416 GB of Adam states do not fit in 8 × 72
    r = evaluate(w(**base, offload="optimizer"))
    assert r.memory.fits and r.memory.host_gb == 12 * 26


# --- a whole run ---------------------------------------------------------------------------------------------------


def test_run_totals() -> None:
    # PPO: ⌈31,000 / 512⌉ = 61 steps; GRPO (group 8): ⌈31,000 · 8 / 512⌉ = 485 steps
    r = evaluate(DEFAULTS)
    assert r.run.steps == 61
    assert r.run.hours == approx(61 * r.step.total_s / 3600)
    assert r.run.gpu_hours == approx(r.run.hours * 8)
    assert evaluate(w(method="grpo", reward="verifier")).run.steps == 485
    # DPO: ⌈161,000 / 64⌉ · 1 epoch = 2,516 steps, one pass over the pairs
    d = evaluate(w(method="dpo", kl=0.1))
    assert d.run.steps == 2516 and d.run.hours == approx(d.dpo.total_s / 3600)


# --- DPO and the offline stages -------------------------------------------------------------------------------


def test_dpo_costs() -> None:
    i = w(method="dpo", policy_b=7, prompt_tokens=512, response_tokens=512, pairs=64_000, epochs=2, gpus=8)
    d = dpo(i, A100_80)
    assert d.tokens_per_pair == 2048                       # chosen + rejected: 2 · (512 + 512)
    # policy trained (6N + 3 · attention at 512) + reference forward (2N + attention), 2,048 tokens, per GPU
    a = custom_arch(7)
    att = 2 * a.layers * a.hidden * 512
    train_pair = (6 * 7e9 + 3 * att) * 2048 / (312e12 * 0.35)
    ref_pair = (2 * 7e9 + att) * 2048 / (312e12 * 0.45)
    assert d.pair_s == approx(train_pair + ref_pair, rel=1e-12)
    assert d.step_s == approx(64 * d.pair_s / 8)
    assert d.epoch_s == approx(64_000 * d.pair_s / 8) and d.total_s == approx(2 * d.epoch_s)
    assert d.total_gb == approx(18 * 7)                    # 16 B/param policy + 2 B/param reference = 126 GB
    assert d.fits
    # activations + logits of a 16,384-token micro-batch ride on every GPU: 126 / g + 4.54 + 2.10 ≤ 72 → g = 2
    assert d.min_gpus == math.ceil(126 / (72 - d.activation_gb - d.logits_gb)) == 2


def test_stage_lanes() -> None:
    # the lanes the page draws, GB per GPU: DPO's one lane, SFT's and the RM's, the RL step's (Memory.lanes)
    r = evaluate(w(method="dpo", kl=0.1, gpus=8, policy_b=7))
    (lane,) = r.memory_lanes
    assert lane.lane == "all" and dict(lane.parts)["actor"] == approx(112 / 8)
    assert dict(lane.parts)["reference"] == approx(14 / 8)
    assert lane.total_gb == approx(126 / 8 + r.dpo.activation_gb + r.dpo.logits_gb)
    rm = evaluate(w(rollouts=0)).memory_lanes
    assert [x.lane for x in rm] == ["sft", "rm"] and rm[0].parts == (("sft", approx(112 / 8)),)
    rl = evaluate(DEFAULTS)
    assert rl.memory_lanes == rl.memory.lanes


def test_offline_stages() -> None:
    i = w(policy_b=7, rm_b=1, demos=10_000, pairs=50_000, prompt_tokens=256, response_tokens=256, gpus=8)
    o = offline_stages(i, A100_80)
    assert o.sft_epoch_s == approx(6 * 7e9 * 10_000 * 512 / (8 * 312e12 * 0.35))
    assert o.rm_epoch_s == approx(6 * 1e9 * 2 * 50_000 * 512 / (8 * 312e12 * 0.35))
    assert o.sft_per_gpu_gb == approx(16 * 7 / 8) and o.rm_per_gpu_gb == approx(16 * 1 / 8)


# --- meters ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("x", "expected"), [(0.5, 0.0), (1.0, 0.0), (60.0, 50.0), (3600.0, 100.0), (1e9, 100.0)])
def test_log_scale(x: float, expected: float) -> None:
    assert M.log_scale(x, 1.0, 3600.0) == approx(expected)


@pytest.mark.parametrize(("value", "expected"), [(0, "ok"), (49.9, "ok"), (50, "warn"), (74.9, "warn"), (75, "hot")])
def test_level_default_thresholds(value: float, expected: str) -> None:
    assert M.level(value) == expected


def test_kl_pressure_and_risk_per_method() -> None:
    # PPO: x = epochs · 0.01 / β.  β = 0.01, 1 epoch → 50; 4 epochs at 0.002 → x = 20 → 95, hot
    assert M.kl_risk(1, 0.01, "ppo", True).value == 50
    r = M.kl_risk(4, 0.002, "ppo", True)
    assert (r.value, r.level) == (95, "hot")
    # DPO: x = epochs · 0.05 / β; β = 0.1 → 33
    assert M.kl_risk(1, 0.1, "dpo", True).value == 33
    # GRPO with a verifier: x = epochs · 0.001 / (β + 0.001): verl's β = 0.001 → x = 0.5 → 33, ok (not hot)
    g = M.kl_risk(1, 0.001, "grpo", True, verifier=True)
    assert (g.value, g.level) == (33, "ok")
    # DAPO's β = 0 with a verifier: x = 0.001 / 0.001 = 1 → 50, warn — not "hot"
    assert M.kl_risk(1, 0.0, "grpo", True, verifier=True).value == 50
    # β = 0 against a learned reward model: nothing holds the policy → 100, hot
    assert (M.kl_risk(1, 0.0, "ppo", True).value, M.kl_risk(1, 0.0, "ppo", True).level) == (100, "hot")
    # GRPO with a reward model at β = 0.001: x = 1 → 50
    assert M.kl_risk(1, 0.001, "grpo", True).value == 50
    off = M.kl_risk(4, 0.001, "ppo", False)
    assert (off.value, off.figure) == (0, "meter.kl_risk.figure_none")


def test_eval_need() -> None:
    # 100 steps × 512 rollouts × 1 epoch = 51,200 samples: 100 · log(51.2) / log(1000) = 57.0 → warn
    m = M.eval_need(51_200, 9.0, True, False)
    assert m.value == round(100 * math.log(51.2) / math.log(1000)) == 57 and m.level == "warn"


def test_train_memory_meter() -> None:
    m = M.train_memory(54.0, 72.0, 432.0, 8, 80.0, True, 6, "ppo")
    assert (m.value, m.level) == (75, "warn")
    m = M.train_memory(112.0, 72.0, 112.0, 1, 80.0, False, 2, "sft")  # one GPU: its own wording (read-5 #2)
    assert (m.value, m.level, m.figure) == (100, "hot", "meter.train_memory.figure_nofit_one")
    m = M.train_memory(224.0, 72.0, 448.0, 2, 80.0, False, 7, "sft")
    assert (m.value, m.level, m.figure) == (100, "hot", "meter.train_memory.figure_nofit")


# --- stage rules (stages.py docstring table, every row) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "stage"),
    [
        # row 1: method = grpo, rollouts > 0, and a verifier or pairs → grpo (even with an eval gate)
        ({"method": "grpo"}, "grpo"),
        ({"method": "grpo", "reward": "verifier", "pairs": 0}, "grpo"),
        ({"method": "grpo", "eval_every": 10, "rollouts": 4096}, "grpo"),
        ({"method": "grpo", "rollouts": 0}, "reward_model"),
        ({"method": "grpo", "pairs": 0}, "sft_only"),           # a reward model needs pairs
        # row 2: pairs = 0 → sft_only, unless an online loop scores with a verifier
        ({"pairs": 0}, "sft_only"),
        ({"pairs": 0, "method": "dpo", "rollouts": 4096, "eval_every": 1}, "sft_only"),
        ({"pairs": 0, "reward": "verifier"}, "ppo_loop"),
        ({"pairs": 0, "reward": "verifier", "rollouts": 0}, "sft_only"),
        # row 3: method = dpo
        ({"method": "dpo"}, "dpo"),
        # row 4: rollouts = 0 → reward_model
        ({"rollouts": 0}, "reward_model"),
        # row 5: eval_every ≤ 20 → eval_gated
        ({"eval_every": 20}, "eval_gated"),
        ({"eval_every": 21}, "ppo_loop"),
        # row 6: rollouts ≥ 1,024
        ({"rollouts": 1024}, "scaled_rollouts"),
        ({"rollouts": 1023}, "ppo_loop"),
        # row 7: otherwise
        ({}, "ppo_loop"),
    ],
)
def test_stage_rules(changes: dict, stage: str) -> None:
    assert stage_of(w(**changes)) == stage


def test_stage_ids() -> None:
    assert STAGE_IDS == ("sft_only", "reward_model", "ppo_loop", "scaled_rollouts", "eval_gated", "dpo", "grpo", "agentic")


@pytest.mark.parametrize(
    ("preset", "inactive"),
    [
        ("sft_only", {"preference_data", "rm_trainer", "reward_model", "rollout_gen", "policy_update",
                      "reference_model", "eval_harness", "metrics_log"}),
        ("reward_model", {"rollout_gen", "policy_update", "reference_model", "eval_harness", "metrics_log"}),
        ("ppo_loop", {"eval_harness"}),
        ("scaled_rollouts", {"eval_harness"}),
        ("eval_gated", set()),
        ("dpo", {"rm_trainer", "reward_model", "rollout_gen"}),
        ("grpo", {"rm_trainer", "reward_model"}),  # a verifier scores: no reward model, no RM trainer
    ],
)
def test_active_nodes_per_stage(preset: str, inactive: set[str]) -> None:
    i = PRESET_BY_ID[preset].inputs
    assert stage_of(i) == preset
    expected = {node: node not in inactive for node in NODE_IDS}
    assert active_nodes(i, preset) == expected
    r = evaluate(i)
    assert {n: s.active for n, s in r.nodes.items()} == expected


def test_verifier_and_kl_zero_show_what_is_removed() -> None:
    r = evaluate(w(method="grpo", reward="verifier", kl=0.0))
    assert r.nodes["reward_model"].state == r.nodes["rm_trainer"].state == "removed"
    assert r.nodes["reference_model"].state == "removed" and not r.nodes["reference_model"].active
    assert r.memory.models.reference_gb == 0 and r.memory.models.reward_gb == 0 and r.memory.models.critic_gb == 0


def _active_edges(i: WorkloadInputs) -> set[str]:
    stage = stage_of(i)
    return {e.id for e in edge_states(i, stage, active_nodes(i, stage)) if e.active}


def test_edge_states() -> None:
    assert _active_edges(PRESET_BY_ID["ppo_loop"].inputs) == {
        "demos_sft", "pairs_rm", "rm_reward", "sft_rollout", "sft_reference", "rollout_reward", "reward_update",
        "reference_update", "update_rollout", "update_registry", "update_metrics",
    }
    assert _active_edges(PRESET_BY_ID["dpo"].inputs) == {
        "demos_sft", "sft_reference", "reference_update", "pairs_update", "update_eval", "eval_registry",
        "update_metrics",
    }
    assert _active_edges(PRESET_BY_ID["sft_only"].inputs) == {"demos_sft"}
    edges = edge_states(DEFAULTS, stage_of(DEFAULTS), active_nodes(DEFAULTS, stage_of(DEFAULTS)))
    assert [e.id for e in edges] == [e[0] for e in EDGES]


@pytest.mark.parametrize(
    ("stage", "fits", "phases", "expected"),
    [
        ("sft_only", True, (9, 9, 9), "sft_trainer"), ("reward_model", True, (9, 9, 9), "rm_trainer"),
        ("dpo", True, (9, 0, 0), "policy_update"), ("ppo_loop", False, (9, 0, 0), "memory"),
        ("sft_only", False, (9, 9, 9), "memory"), ("dpo", False, (9, 0, 0), "memory"),
        ("ppo_loop", True, (10, 5, 3), "rollout_gen"), ("grpo", True, (1, 2, 3), "policy_update"),
    ],
)
def test_bottleneck_node(stage: str, fits: bool, phases: tuple, expected: str) -> None:
    assert bottleneck_node(stage, fits, *phases) == expected


# --- decisions ---------------------------------------------------------------------------------------------------


def test_eight_decisions() -> None:
    assert DECISION_IDS[-2:] == ("critic_vs_group", "sync_vs_async")
    r = evaluate(DEFAULTS)  # colocated: no staleness to choose
    assert tuple(r.decisions) == DECISION_IDS
    assert r.decisions["critic_vs_group"].reason == "decision.critic_vs_group.critic"
    assert r.decisions["sync_vs_async"].reason == "decision.sync_vs_async.colocated"
    assert evaluate(w(placement="separate")).decisions["sync_vs_async"].reason == "decision.sync_vs_async.sync"
    g = evaluate(w(method="grpo", reward="verifier", group=8)).decisions
    assert (g["critic_vs_group"].state, g["critic_vs_group"].args["prompts"]) == ("useful", 64)   # 512 / 8
    assert g["rm_vs_dpo"].reason == "decision.rm_vs_dpo.verifier"
    assert evaluate(w(method="grpo", group=1)).decisions["critic_vs_group"].reason == "decision.critic_vs_group.group_one"
    a = evaluate(w(staleness=1, gpus=16)).decisions["sync_vs_async"]
    assert a.reason == "decision.sync_vs_async.async" and a.args["saved_s"] >= 0
    assert evaluate(w(placement="colocated")).decisions["sync_vs_async"].reason == "decision.sync_vs_async.colocated"
    # the existing cards learn the new answers: vLLM vs HF generate, offload and LoRA
    assert evaluate(w(engine="hf", placement="colocated")).decisions["rollout_throughput"].reason == (
        "decision.rollout_throughput.hf")
    assert evaluate(w(offload="optimizer")).decisions["distributed_training"].reason == (
        "decision.distributed_training.offload")
    assert evaluate(w(tuning="lora")).decisions["distributed_training"].reason == "decision.distributed_training.lora"
    assert evaluate(w(method="grpo", kl=0.0, reward="verifier")).decisions["kl_control"].reason == (
        "decision.kl_control.no_kl_verifier")


@pytest.mark.parametrize("changes", [{}, {"tuning": "lora"}, {"offload": "optimizer"}, {"kl": 0.001}])
def test_the_rm_vs_dpo_card_under_grpo_counts_only_the_reward_model(changes: dict) -> None:
    """GRPO has no critic: DPO saves only the reward model's weights (7B at 2 B/param = 14 GB), not a critic too."""
    r = evaluate(w(method="grpo", **changes))
    d = r.decisions["rm_vs_dpo"]
    assert d.reason == "decision.rm_vs_dpo.grpo"
    assert d.args["saved_gb"] == pytest.approx(r.memory.models.reward_gb) == pytest.approx(14.0)
    assert evaluate(w(**changes)).decisions["rm_vs_dpo"].reason == "decision.rm_vs_dpo.ppo"  # PPO keeps its text


def test_the_rm_vs_dpo_card_under_grpo_without_a_reference() -> None:
    # β = 0: GRPO holds actor 112 + reward model 14 = 126 GB; DPO policy 112 + reference 14 = 126 GB: no saving
    d = evaluate(w(method="grpo", kl=0.0)).decisions["rm_vs_dpo"]
    assert d.reason == "decision.rm_vs_dpo.grpo_no_ref"
    assert d.args["grpo_gb"] == pytest.approx(126.0) == d.args["dpo_gb"]


@pytest.mark.parametrize(
    ("kl", "reason", "ratio"),
    [(0.0005, "grpo_low", 0.5), (0.001, "grpo", 1.0), (0.02, "grpo_mid", 20.0), (0.04, "grpo_mid", 40.0),
     (0.1, "grpo_high", 100.0)],
)
def test_the_kl_card_under_grpo_follows_beta(kl: float, reason: str, ratio: float) -> None:
    """Against verl's default kl_loss_coef 0.001 and DeepSeekMath's 0.04: β = 0.02 is 0.02 / 0.001 = 20× the one;
    below the default (0.0005) and at it (0.001) are two texts: the card says "is verl's default" only when it is."""
    d = evaluate(w(method="grpo", reward="verifier", kl=kl)).decisions["kl_control"]
    assert d.reason == f"decision.kl_control.{reason}"
    assert (d.args["verl_kl"], d.args["deepseekmath_kl"]) == (0.001, 0.04)
    assert d.args["ratio"] == pytest.approx(ratio)


def test_the_kl_card_under_grpo_without_kl_names_grpos_default() -> None:
    d = evaluate(w(method="grpo", kl=0.0)).decisions["kl_control"]
    assert d.reason == "decision.kl_control.no_kl_grpo" and d.args["verl_kl"] == 0.001
    assert evaluate(w(kl=0.0)).decisions["kl_control"].reason == "decision.kl_control.no_kl"  # PPO: Llama 2's 0.01


# --- inputs.normalise --------------------------------------------------------------------------------------------


def test_normalise_empty_query_is_defaults() -> None:
    inputs, notices = normalise({})
    assert inputs == DEFAULTS and notices == ()
    assert inputs.response_max_tokens == inputs.response_tokens == 1024


@pytest.mark.parametrize(
    ("query", "field", "value", "notice"),
    [
        ({"rollouts": "-5"}, "rollouts", 0, Notice("rollouts", "below_min", "-5", "0")),
        ({"gpus": "10000"}, "gpus", 4096, Notice("gpus", "above_max", "10000", "4096")),
        ({"kl": "5"}, "kl", 1.0, Notice("kl", "above_max", "5", "1")),
        ({"kl": "-1"}, "kl", 0.0, Notice("kl", "below_min", "-1", "0")),
        ({"kl": "nan"}, "kl", 0.02, Notice("kl", "invalid", "nan", "0.02")),
        ({"gpu": "v100"}, "gpu", "a100_80g", Notice("gpu", "unknown_choice", "v100", "a100_80g")),
        ({"method": "ppo2"}, "method", "ppo", Notice("method", "unknown_choice", "ppo2", "ppo")),
        ({"arch": "gpt5"}, "arch", "custom", Notice("arch", "unknown_choice", "gpt5", "custom")),
        ({"group": "0"}, "group", 1, Notice("group", "below_min", "0", "1")),
        ({"staleness": "9"}, "staleness", 8, Notice("staleness", "above_max", "9", "8")),
        ({"rollouts": ""}, "rollouts", 512, Notice("rollouts", "empty", "", "512")),
        ({"epochs": "2.6"}, "epochs", 3, Notice("epochs", "rounded", "2.6", "3")),
        ({"response_max_tokens": "100"}, "response_max_tokens", 1024,
         Notice("response_max_tokens", "below_mean", "100", "1024")),
        ({"arch": "llama3_8b", "policy_b": "7"}, "policy_b", 8.0, Notice("policy_b", "arch_sets_size", "7", "8")),
        ({"method": "dpo", "kl": "0"}, "kl", 0.001, Notice("kl", "dpo_needs_beta", "0", "0.001")),
        ({"staleness": "1", "placement": "colocated"}, "placement", "separate",
         Notice("placement", "async_needs_separate", "colocated", "separate")),
        ({"staleness": "2", "gpus": "2"}, "staleness", 0, Notice("staleness", "async_needs_gpus", "2", "0")),
    ],
)
def test_normalise_corrects_with_a_notice(query: dict, field: str, value: object, notice: Notice) -> None:
    inputs, notices = normalise(query)
    assert getattr(inputs, field) == value
    assert notice in notices
    assert WorkloadInputs(**inputs.model_dump()) == inputs


@pytest.mark.parametrize(
    ("query", "field", "value"),
    [
        ({"rollouts": ["4", "16"]}, "rollouts", 16), ({"pairs": "1,420,000"}, "pairs", 1_420_000),
        ({"gpu": "b200_180g"}, "gpu", "b200_180g"), ({"kl": "0"}, "kl", 0.0), ({"step": "3"}, "step", 3),
        ({"arch": "qwen3_8b"}, "policy_b", 8.2),   # a named arch sets policy_b quietly when the URL has none
        ({"response_tokens": "2048"}, "response_max_tokens", 2048),  # absent: the mean
        ({"method": "grpo", "group": "16"}, "group", 16),
    ],
)
def test_normalise_accepts_quietly(query: dict, field: str, value: object) -> None:
    inputs, notices = normalise(query)
    assert getattr(inputs, field) == value
    assert notices == ()


def test_normalise_ignores_unknown_parameters() -> None:
    assert normalise({"colour": "blue", "foo": ["1", "2"]}) == (DEFAULTS, ())


@pytest.mark.parametrize("raw", ["0", str(STEP_MAX + 1), "x", "-1", "1.5", "²", "9" * 5000])
def test_normalise_bad_step(raw: str) -> None:
    inputs, notices = normalise({"step": raw})
    assert inputs.step is None and notices == (Notice("step", "invalid", raw[:40], ""),)


def test_normalise_separate_needs_four_gpus() -> None:
    inputs, notices = normalise({"gpus": "3", "placement": "separate"})
    assert inputs.placement == "colocated"
    assert Notice("placement", "separate_needs_gpus", "separate", "colocated") in notices


def test_effective_applies_the_rules_between_parameters() -> None:
    # strict validation allows these; the model computes with the rules normalise applies
    assert effective(WorkloadInputs(gpus=2, placement="separate")).placement == "colocated"
    assert effective(WorkloadInputs(response_tokens=2048, response_max_tokens=16)).response_max_tokens == 2048
    assert effective(WorkloadInputs(arch="qwen3_32b")).policy_b == 32.8
    assert effective(WorkloadInputs(staleness=1, placement="colocated")).placement == "separate"
    assert effective(DEFAULTS) is DEFAULTS


# --- WorkloadInputs: strict validation (the JSON API's 422) ------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("gpus", 0), ("gpus", 4097), ("rollouts", -1), ("policy_b", 0.05), ("epochs", 17), ("kl", -0.1),
        ("kl", 1.5), ("kl", math.nan), ("method", "ppo2"), ("method", "sgd"), ("arch", "gpt5"), ("group", 0),
        ("group", 65), ("staleness", 9), ("engine", "trt"), ("offload", "all"), ("tuning", "qlora"),
        ("reward", "human"), ("gpu", "v100"), ("response_max_tokens", 200_000), ("prompts", -1), ("step", STEP_MAX + 1),
    ],
)
def test_workload_inputs_strict(field: str, bad: object) -> None:
    with pytest.raises(ValidationError) as err:
        WorkloadInputs(**{field: bad})
    assert [e["loc"] for e in err.value.errors()] == [(field,)]


def test_workload_inputs_accepts_every_bound() -> None:
    for spec in NUMBER_SPECS.values():
        for value in (spec.minimum, spec.maximum):
            value = int(value) if spec.integer else value
            assert getattr(WorkloadInputs(**{spec.name: value}), spec.name) == value


def test_workload_inputs_is_generated_from_the_table() -> None:
    fields = WorkloadInputs.model_fields
    for spec in NUMBER_SPECS.values():
        assert fields[spec.name].default == spec.default
    assert fields["kl"].default == 0.02 and DEFAULTS.arch == "custom" and DEFAULTS.method == "ppo"
    with pytest.raises(ValidationError):
        DEFAULTS.gpus = 16  # type: ignore[misc]


def test_the_dpo_card_quotes_ppo_as_the_estimate_table_does() -> None:
    """DPO preset (16 × A100, 7B/7B): PPO holds actor 112 + critic 112 + reference 14 + reward model 14 = 252 GB,
    against DPO's 112 + 14 = 126 GB; the card's PPO figures are the PPO counterpart's, not the DPO state's own
    critic-less RL-loop memory (140 GB) and step."""
    from app.model.compare import counterpart
    from app.model.scenarios import PRESET_BY_ID

    r = evaluate(PRESET_BY_ID["dpo"].inputs)
    ppo = evaluate(counterpart(r.inputs))
    d = r.decisions["rm_vs_dpo"]
    assert d.reason == "decision.rm_vs_dpo.dpo"
    assert (d.args["ppo_gb"], d.args["dpo_gb"]) == (pytest.approx(252.0), pytest.approx(126.0))
    assert d.args["ppo_gb"] == ppo.memory.total_gb and d.args["ppo_step_s"] == ppo.step.total_s
