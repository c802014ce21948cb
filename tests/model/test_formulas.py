"""Each formula of the workload model against values worked out by hand (the arithmetic is in the comments).

Constants used below (app/model/assumptions.py): 16 B/param training states, 2 B/param bf16 weights and KV
entries, 6N / 2N FLOPs per token, train MFU 0.35, forward MFU 0.45, decode bandwidth efficiency 0.60, usable
memory 90 %.  A100-80GB: 80 GB, 2.039 TB/s, 312 TFLOP/s; A100-40GB: 40 GB, 1.555 TB/s, 312 TFLOP/s.
"""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from app.model import DEFAULTS, WorkloadInputs, evaluate, normalise
from app.model import meters as M
from app.model.assumptions import CONSTANTS, GPUS, GpuSpec
from app.model.inputs import NUMBER_SPECS, STEP_MAX, Notice, effective
from app.model.physics import (
    NO_GENERATION,
    Groups,
    dpo,
    forward_seconds,
    generation,
    gpu_groups,
    kv_bytes_per_token,
    min_gpus_that_fit,
    model_memory,
    offline_stages,
    ppo_memory,
    ppo_step,
    train_seconds,
    zero_states_gb_per_gpu,
)
from app.model.scenarios import PRESET_BY_ID
from app.model.stages import (
    EDGES,
    NODE_IDS,
    STAGE_IDS,
    active_nodes,
    bottleneck_node,
    edge_states,
    stage_of,
)

A100_80 = GPUS["a100_80g"]
A100_40 = GPUS["a100_40g"]
approx = pytest.approx

# A "LLaMA-7B-shaped" model: 32 layers, d_model = 128 · 32 = 4096, N = 12 · L · d² = 12 · 32 · 4096² params.
L32_B = 12 * 32 * 4096**2 / 1e9  # = 6.442450944 B params


def w(**changes) -> WorkloadInputs:
    return WorkloadInputs(**{**DEFAULTS.model_dump(), **changes})


# --- constants sanity: the values the hand arithmetic below relies on -------------------------------------


def test_constants_used_by_hand_arithmetic() -> None:
    expected = {
        "train_bytes_per_param": 16, "infer_bytes_per_param": 2, "kv_bytes_per_value": 2,
        "train_flops_per_param_token": 6, "forward_flops_per_param_token": 2, "aspect_ratio_d_per_layer": 128,
        "params_per_layer_d2": 12, "train_mfu": 0.35, "forward_mfu": 0.45, "decode_bandwidth_efficiency": 0.60,
        "usable_memory_fraction": 0.90, "decode_step_overhead_separate_s": 0.004,
        "decode_step_overhead_colocated_s": 0.050, "hybrid_batch_per_gpu": 16, "dpo_batch_pairs": 64,
    }
    assert {k: CONSTANTS[k].value for k in expected} == expected


# --- KV cache --------------------------------------------------------------------------------------------


def test_kv_bytes_per_token_32_layers() -> None:
    # L = (N / (12 · 128²))^(1/3) = (6.442450944e9 / 196,608)^(1/3) = 32768^(1/3) = 32 layers, d = 4096
    # KV = 2 (K, V) · 32 layers · 4096 · 2 B = 524,288 B per token
    assert kv_bytes_per_token(L32_B) == approx(524_288, rel=1e-12)


def test_kv_bytes_per_token_40_layers() -> None:
    # LLaMA-13B's shape: L = 40, d = 5120 → N = 12 · 40 · 5120² = 12.582912 B
    # KV = 2 · 40 · 5120 · 2 B = 819,200 B per token
    assert kv_bytes_per_token(12 * 40 * 5120**2 / 1e9) == approx(819_200, rel=1e-12)


def test_kv_bytes_scale_as_n_to_two_thirds() -> None:
    # KV ∝ L · d ∝ L² ∝ N^(2/3): 8× the parameters → 4× the KV bytes per token
    assert kv_bytes_per_token(8 * L32_B) == approx(4 * 524_288, rel=1e-12)


# --- ZeRO model states ------------------------------------------------------------------------------------


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


def test_zero_stage3_on_one_gpu_is_unsharded() -> None:
    # N = 1: every stage holds all 16 B/param: 16 · 7 = 112 GB
    for stage in range(4):
        assert zero_states_gb_per_gpu(7, 1, stage) == approx(112.0)


def test_model_memory() -> None:
    m = model_memory(7, 1)
    assert m.actor_gb == approx(112.0)               # 16 B/param × 7 B = 112 GB (Adam states)
    assert m.critic_gb == approx(16.0)               # 16 B/param × 1 B (critic = RM size)
    assert m.reference_gb == approx(14.0)            # 2 B/param × 7 B, frozen bf16
    assert m.reward_gb == approx(2.0)                # 2 B/param × 1 B
    assert m.generation_weights_gb == approx(14.0)   # the engine's bf16 copy of the policy
    assert m.states_gb == approx(144.0)              # 112 + 16 + 14 + 2


# --- GPU groups -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gpus", "gen", "score", "train"),
    [
        # training ⌈G/2⌉, generation ⌈⌊G/2⌋/2⌉, scoring the rest
        (4, 1, 1, 2),      # train 2; rest 2 → gen 1, score 1
        (5, 1, 1, 3),      # train 3; rest 2 → gen 1, score 1
        (7, 2, 1, 4),      # train 4; rest 3 → gen 2, score 1
        (8, 2, 2, 4),      # OpenRLHF's 7B layout: 4 train, 2 vLLM, 2 ref + RM
        (16, 4, 4, 8),     # train 8; rest 8 → 4 + 4
        (4096, 1024, 1024, 2048),
    ],
)
def test_gpu_groups_separate(gpus: int, gen: int, score: int, train: int) -> None:
    assert gpu_groups(gpus, False) == Groups(gen, score, train, False)
    assert gen + score + train == gpus


@pytest.mark.parametrize("gpus", [1, 2, 3, 8, 4096])
def test_gpu_groups_colocated_share_all(gpus: int) -> None:
    assert gpu_groups(gpus, True) == Groups(gpus, gpus, gpus, True)


# --- generation: the decode roofline ----------------------------------------------------------------------


def test_generation_hand_case() -> None:
    # 32-layer 6.44 B policy, 146 rollouts of 512 + 1024 tokens, one A100-80GB (so tp = 1, one replica).
    g = generation(L32_B, 146, 512, 1024, 1, A100_80, 0.0, 0.004)
    # W = 2 B × 6.442450944 B = 12.884901888 GB;  KV per sequence = 1536 × 524,288 B = 0.805306368 GB
    # room = 80 × 0.9 − 0 − 12.884901888 = 59.115098112 GB → batch cap ⌊59.115 / 0.8053⌋ = ⌊73.41⌋ = 73
    # 146 sequences / 73 → 2 waves of b = 73
    assert (g.tensor_parallel, g.replicas, g.waves, g.batch) == (1, 1, 2, 73)
    assert g.kv_gb_per_replica == approx(73 * 0.805306368)
    # t_mem = (W + b · (512 + 1024/2) · KV) / (HBM · eff)
    #       = (12.884901888e9 + 73 · 1024 · 524,288) B / (2.039e12 · 0.6) B/s = 52.076478464e9 / 1.2234e12
    t_mem = 52.076478464e9 / 1.2234e12            # = 0.0425670 s
    # t_compute = b · 2N / (peak · mfu) = 73 · 12.884901888e9 / (312e12 · 0.45) = 0.0066994 s → memory bound
    t_compute = 73 * 12.884901888e9 / 140.4e12
    assert t_mem > t_compute and g.bound == "memory"
    assert g.decode_step_s == approx(t_mem + 0.004, rel=1e-12)
    # prefill = b · prompt · 2N / (peak · mfu) = 73 · 512 · 12.884901888e9 / 140.4e12 = 3.4301 s
    prefill = 73 * 512 * 12.884901888e9 / 140.4e12
    # seconds = waves · (prefill + response · step) = 2 · (3.4301 + 1024 · 0.046567) = 102.229 s
    assert g.seconds == approx(2 * (prefill + 1024 * (t_mem + 0.004)), rel=1e-12)
    assert g.seconds == approx(102.229, abs=1e-3)
    assert g.tokens_per_s == approx(146 * 1024 / g.seconds)


def test_generation_hybrid_batch_cap() -> None:
    # The colocated hybrid engine caps the batch at 16 per GPU: ⌈146 / 16⌉ = 10 waves of b = 14.6
    g = generation(L32_B, 146, 512, 1024, 1, A100_80, 0.0, 0.05, 16)
    assert (g.waves, g.batch) == (10, approx(14.6))
    t_mem = (12.884901888e9 + 14.6 * 1024 * 524_288) / 1.2234e12   # = 0.01693904 s
    assert g.decode_step_s == approx(t_mem + 0.05, rel=1e-12)


def test_generation_resident_memory_shrinks_the_batch() -> None:
    # 40 GB of training states resident: room = 72 − 40 − 12.885 = 19.115 GB → ⌊19.115 / 0.8053⌋ = 23 per wave
    g = generation(L32_B, 146, 512, 1024, 1, A100_80, 40.0, 0.004)
    assert g.waves == math.ceil(146 / 23) == 7
    assert g.batch == approx(146 / 7)


def test_generation_offloads_what_does_not_fit() -> None:
    # 70 B policy on one A100-40GB: W = 140 GB > 36 GB usable → room = 36 − 140 = −104 GB; batch 1
    g = generation(70, 4, 512, 512, 1, A100_40, 0.0, 0.004)
    kv_seq_gb = 1024 * kv_bytes_per_token(70) / 1e9      # ≈ 2.634 GB
    assert g.bound == "host_link"
    assert g.batch == 1 and g.waves == 4
    assert g.offloaded_gb == approx(kv_seq_gb + 104.0)  # min(W + kv, kv − room) = kv + 104 GB


def test_generation_more_replicas_not_slower_than_one() -> None:
    # 2 GPUs can run two tp = 1 replicas of 73 sequences each: never slower than one GPU doing 73
    two = generation(L32_B, 146, 512, 1024, 2, A100_80, 0.0, 0.004)
    one = generation(L32_B, 73, 512, 1024, 1, A100_80, 0.0, 0.004)
    assert two.seconds <= one.seconds
    assert two.tensor_parallel in (1, 2)


def test_generation_nothing_to_do() -> None:
    assert generation(7, 0, 512, 512, 8, A100_80, 0.0, 0.004) is NO_GENERATION
    assert generation(7, 512, 512, 512, 0, A100_80, 0.0, 0.004) is NO_GENERATION


# --- compute-bound phases ---------------------------------------------------------------------------------


def test_forward_seconds() -> None:
    # 2 FLOP × 7e9 × 1000 tokens / (8 GPUs × 312e12 × 0.45) = 1.4e13 / 1.1232e15 = 0.012464 s
    assert forward_seconds(7, 1000, 8, A100_80) == approx(1.4e13 / 1.1232e15, rel=1e-12)


def test_train_seconds() -> None:
    # 6 FLOP × 7e9 × 1000 tokens / (8 × 312e12 × 0.35) = 4.2e13 / 8.736e14 = 0.048077 s
    assert train_seconds(7, 1000, 8, A100_80) == approx(4.2e13 / 8.736e14, rel=1e-12)


def test_h100_is_faster_per_flop() -> None:
    # same FLOPs, peak 989 vs 312 TFLOP/s
    ratio = train_seconds(7, 1000, 1, A100_80) / train_seconds(7, 1000, 1, GPUS["h100_80g"])
    assert ratio == approx(989 / 312)


# --- one PPO step -----------------------------------------------------------------------------------------


def test_ppo_step_colocated_phases() -> None:
    i = w(policy_b=7, rm_b=1, rollouts=256, prompt_tokens=256, response_tokens=256, epochs=2, gpus=8,
          placement="colocated")
    s = ppo_step(i, A100_80)
    tokens = 256 * (256 + 256)  # = 131,072
    assert s.tokens == tokens
    # scoring: forwards of actor (old log-probs), reference (= policy size), reward model, critic (= RM size)
    assert s.scoring_s == approx(forward_seconds(7 + 7 + 1 + 1, tokens, 8, A100_80))
    # training: actor + critic, 6N per token per epoch
    assert s.training_s == approx(train_seconds(7 + 1, tokens * 2, 8, A100_80))
    # colocated: the phases run one after another on all 8 GPUs
    assert s.total_s == approx(s.generation_s + s.scoring_s + s.training_s, rel=1e-12)
    assert s.overlap_s == 0
    assert s.generation_share == approx(s.generation_s / s.total_s)
    assert s.groups == Groups(8, 8, 8, True)
    # generation ran on all 8 GPUs with the hybrid engine's cap of 16 sequences per GPU
    assert s.gen.gpus == 8 and s.gen.batch <= 16 * s.gen.tensor_parallel
    assert s.idle_gpu_s == approx(0.0, abs=1e-6)


def test_ppo_step_separate_phases() -> None:
    i = w(policy_b=7, rm_b=1, rollouts=256, prompt_tokens=256, response_tokens=256, epochs=1, gpus=8,
          placement="separate")
    s = ppo_step(i, A100_80)
    tokens = 256 * 512
    assert s.groups == Groups(2, 2, 4, False)
    # scoring: reference + RM on the 2 scoring GPUs, actor + critic forwards on the 4 training GPUs, in parallel
    ref_rm = forward_seconds(7 + 1, tokens, 2, A100_80)
    act_crit = forward_seconds(7 + 1, tokens, 4, A100_80)
    assert s.scoring_s == approx(max(ref_rm, act_crit))
    assert s.scoring_gpu_s == approx(ref_rm * 2 + act_crit * 4)
    assert s.training_s == approx(train_seconds(7 + 1, tokens, 4, A100_80))
    # scoring streams behind generation: step = max(generation, scoring) + training
    assert s.total_s == approx(max(s.generation_s, s.scoring_s) + s.training_s, rel=1e-12)
    assert s.overlap_s == approx(min(s.generation_s, s.scoring_s))
    assert s.generation_gpu_s == approx(s.generation_s * 2)
    used = s.generation_gpu_s + s.scoring_gpu_s + s.training_gpu_s
    assert s.idle_gpu_s == approx(s.total_s * 8 - used)


def test_ppo_memory_fits_and_min_gpus() -> None:
    # default workload: 7 B policy, 7 B RM/critic, 8 × A100-80GB, separate
    i = DEFAULTS
    step = ppo_step(i, A100_80)
    m = ppo_memory(i, A100_80, step)
    assert m.total_gb == approx(112 + 112 + 14 + 14)      # 252 GB: two 16 B/param models + two bf16 copies
    assert m.training_per_gpu_gb == approx(224 / 4)       # actor + critic states over 4 training GPUs = 56 GB
    assert m.scoring_per_gpu_gb == approx(28 / 2)         # reference + RM weights over 2 GPUs = 14 GB
    assert m.usable_gb == approx(72.0) and m.fits
    # fewest GPUs: 7 → train ⌈7/2⌉ = 4 → 56 GB ≤ 72; 6 → train 3 → 74.7 GB > 72
    assert m.min_gpus == 7


def test_min_gpus_that_fit() -> None:
    # smallest G with 100 GB / G ≤ 7.2 GB: 100 / 7.2 = 13.9 → 14
    assert min_gpus_that_fit(lambda g: 100 / g <= 7.2) == 14
    assert min_gpus_that_fit(lambda g: True) == 1
    assert min_gpus_that_fit(lambda g: g >= 4096) == 4096
    assert min_gpus_that_fit(lambda g: False) is None


# --- DPO and the offline stages ---------------------------------------------------------------------------


def test_dpo_costs() -> None:
    i = w(method="dpo", policy_b=7, prompt_tokens=512, response_tokens=512, pairs=64_000, epochs=2, gpus=8)
    d = dpo(i, A100_80)
    assert d.tokens_per_pair == 2048                       # chosen + rejected: 2 · (512 + 512)
    # policy trained (6N) + reference forward (2N) on 2048 tokens, per GPU:
    # 6 · 7e9 · 2048 / (312e12 · 0.35) + 2 · 7e9 · 2048 / (312e12 · 0.45) = 0.787692 + 0.204217 s
    train_pair = 6 * 7e9 * 2048 / (312e12 * 0.35)
    ref_pair = 2 * 7e9 * 2048 / (312e12 * 0.45)
    assert d.pair_s == approx(train_pair + ref_pair, rel=1e-12)
    assert d.step_s == approx(64 * d.pair_s / 8)           # one batch of 64 pairs on 8 GPUs
    assert d.reference_step_s == approx(64 * ref_pair / 8)
    assert d.epoch_s == approx(64_000 * d.pair_s / 8)
    assert d.total_s == approx(2 * d.epoch_s)
    assert d.total_gb == approx(18 * 7)                    # 16 B/param policy + 2 B/param reference = 126 GB
    assert d.per_gpu_gb == approx(126 / 8)
    assert d.fits
    assert d.min_gpus == 2                                 # 126 / 72 = 1.75 → 2


def test_dpo_does_not_fit_one_small_gpu() -> None:
    d = dpo(w(method="dpo", policy_b=7, gpus=1, gpu="a100_40g"), A100_40)
    assert not d.fits                                      # 126 GB > 36 GB usable
    assert d.min_gpus == 4                                 # 126 / 36 = 3.5 → 4


def test_offline_stages() -> None:
    i = w(policy_b=7, rm_b=1, demos=10_000, pairs=50_000, prompt_tokens=256, response_tokens=256, gpus=8)
    o = offline_stages(i, A100_80)
    # SFT: 10,000 demos × 512 tokens × 6 × 7e9 / (8 × 312e12 × 0.35)
    assert o.sft_epoch_s == approx(6 * 7e9 * 10_000 * 512 / (8 * 312e12 * 0.35))   # = 246.15 s
    # RM: 50,000 pairs × 2 responses × 512 tokens × 6 × 1e9 / (8 × 312e12 × 0.35)
    assert o.rm_epoch_s == approx(6 * 1e9 * 2 * 50_000 * 512 / (8 * 312e12 * 0.35))  # = 351.65 s
    assert o.sft_per_gpu_gb == approx(16 * 7 / 8)                                    # 14 GB
    assert o.rm_per_gpu_gb == approx(16 * 1 / 8)                                     # 2 GB


# --- meters -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (0.5, 0.0),       # below low: clamped
        (1.0, 0.0),       # low
        (60.0, 50.0),     # ln 60 / ln 3600 = 1/2 since 60² = 3600
        (3600.0, 100.0),  # high
        (1e9, 100.0),     # above high: clamped
    ],
)
def test_log_scale(x: float, expected: float) -> None:
    assert M.log_scale(x, 1.0, 3600.0) == approx(expected)


def test_log_scale_eval_range() -> None:
    # 1,000 → 0, 1,000,000 → 100: 10^4.5 = 31,623 samples is halfway
    assert M.log_scale(10**4.5, 1_000, 1_000_000) == approx(50.0)


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0, "ok"), (49.9, "ok"), (50, "warn"), (74.9, "warn"), (75, "hot"), (100, "hot")],
)
def test_level_default_thresholds(value: float, expected: str) -> None:
    assert M.level(value) == expected


def test_level_memory_thresholds() -> None:
    # memory levels: warn at 70 %, hot at 90 % of usable memory
    assert [M.level(v, 70, 90) for v in (69.9, 70, 89.9, 90)] == ["ok", "warn", "warn", "hot"]


def test_kl_pressure_and_risk() -> None:
    # PPO: x = epochs · 0.01 / β.  β = 0.01, 1 epoch: x = 1 → risk 100 · 1 / 2 = 50
    assert M.kl_pressure(1, 0.01, False) == approx(1.0)
    assert M.kl_risk(1, 0.01, False, True).value == 50
    # 4 epochs, β = 0.002: x = 4 · 0.01 / 0.002 = 20 → 100 · 20 / 21 = 95.2 → 95, hot
    assert M.kl_pressure(4, 0.002, False) == approx(20.0)
    r = M.kl_risk(4, 0.002, False, True)
    assert (r.value, r.level) == (95, "hot")
    # InstructGPT's β = 0.02, 1 epoch: x = 0.5 → 33.3 → 33, ok
    assert M.kl_risk(1, 0.02, False, True).value == 33
    # DPO: x = epochs · 0.05 / β; β = 0.1 → x = 0.5 → 33
    assert M.kl_pressure(1, 0.1, True) == approx(0.5)
    assert M.kl_risk(1, 0.1, True, True).value == 33
    # no loop: nothing drifts
    off = M.kl_risk(4, 0.001, False, False)
    assert (off.value, off.level, off.figure) == (0, "ok", "meter.kl_risk.figure_none")


def test_eval_need() -> None:
    # 100 steps × 512 rollouts × 1 epoch = 51,200 samples: 100 · log(51.2) / log(1000) = 57.0 → 57, warn
    m = M.eval_need(51_200, 9.0, True, False)
    assert m.value == round(100 * math.log(51.2) / math.log(1000)) == 57
    assert m.level == "warn"
    assert M.eval_need(1_000, 0.1, True, False).value == 0
    assert M.eval_need(2_000_000, 10.0, True, False).value == 100
    assert M.eval_need(2_000_000, 10.0, False, False).value == 0   # no loop, nothing to gate


def test_time_meters_scale() -> None:
    # 60 s of generation per step is halfway on the 1 s … 1 h log scale
    assert M.rollout_load(60.0, 120.0, 0.5, True).value == 50
    assert M.rollout_load(60.0, 120.0, 0.5, False).value == 0
    assert M.scoring_load(3600.0, 3600.0, 0.0, True).value == 100
    # under DPO the scoring meter shows the reference's log-probs for one batch
    assert M.scoring_load(0.0, 0.0, 0.0, False, dpo_reference_s=60.0).value == 50


def test_train_memory_meter() -> None:
    # 54 GB on a 72 GB usable card = 75 % → warn (70 ≤ 75 < 90)
    m = M.train_memory(54.0, 72.0, 432.0, 8, 80.0, True, 6, "ppo")
    assert (m.value, m.level) == (75, "warn")
    # does not fit: pinned at 100 and hot, whatever the percentage
    m = M.train_memory(112.0, 72.0, 112.0, 1, 80.0, False, 2, "sft")
    assert (m.value, m.level, m.figure) == (100, "hot", "meter.train_memory.figure_nofit")
    assert M.train_memory(1e5, 72.0, 1e5, 1, 80.0, False, None, "ppo").figure == "meter.train_memory.figure_never"


# --- stage rules (stages.py docstring table, every row) ----------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "stage"),
    [
        # row 1: pairs = 0 → sft_only, whatever else is set
        ({"pairs": 0}, "sft_only"),
        ({"pairs": 0, "method": "dpo", "rollouts": 4096, "eval_every": 1}, "sft_only"),
        # row 2: method = dpo → dpo (pairs > 0)
        ({"method": "dpo"}, "dpo"),
        ({"method": "dpo", "rollouts": 0, "eval_every": 1}, "dpo"),
        # row 3: rollouts = 0 → reward_model
        ({"rollouts": 0}, "reward_model"),
        ({"rollouts": 0, "eval_every": 5}, "reward_model"),
        # row 4: eval_every ≤ 20 → eval_gated (20 is gated, 21 is not), even with scaled rollouts
        ({"eval_every": 20}, "eval_gated"),
        ({"eval_every": 1, "rollouts": 8192}, "eval_gated"),
        ({"eval_every": 21}, "ppo_loop"),
        # row 5: rollouts ≥ 1,024 → scaled_rollouts
        ({"rollouts": 1024}, "scaled_rollouts"),
        ({"rollouts": 1023}, "ppo_loop"),
        # row 6: otherwise ppo_loop
        ({}, "ppo_loop"),
        ({"rollouts": 1}, "ppo_loop"),
    ],
)
def test_stage_rules(changes: dict, stage: str) -> None:
    assert stage_of(w(**changes)) == stage


def test_stage_ids() -> None:
    assert STAGE_IDS == ("sft_only", "reward_model", "ppo_loop", "scaled_rollouts", "eval_gated", "dpo")


ALL_ON = dict.fromkeys(NODE_IDS, True)


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
    ],
)
def test_active_nodes_per_stage(preset: str, inactive: set[str]) -> None:
    i = PRESET_BY_ID[preset].inputs
    assert stage_of(i) == preset
    expected = {node: node not in inactive for node in NODE_IDS}
    assert active_nodes(i, preset) == expected
    r = evaluate(i)
    assert {n: s.active for n, s in r.nodes.items()} == expected
    assert r.nodes["model_registry"].active  # there is always a model to register


def test_no_demonstrations_no_sft() -> None:
    a = active_nodes(w(demos=0), "ppo_loop")
    assert not a["demonstrations"] and not a["sft_trainer"]


def _active_edges(i: WorkloadInputs) -> set[str]:
    stage = stage_of(i)
    return {e.id for e in edge_states(i, stage, active_nodes(i, stage)) if e.active}


def test_edge_states_ppo_loop() -> None:
    # every edge of the loop; no eval gate (eval_every = 100), so the policy goes straight to the registry
    assert _active_edges(PRESET_BY_ID["ppo_loop"].inputs) == {
        "demos_sft", "pairs_rm", "rm_reward", "sft_rollout", "sft_reference", "rollout_reward", "reward_update",
        "reference_update", "update_rollout", "update_registry", "update_metrics",
    }


def test_edge_states_eval_gated() -> None:
    # the registry is fed through the eval harness only
    edges = _active_edges(PRESET_BY_ID["eval_gated"].inputs)
    assert {"update_eval", "eval_registry"} <= edges
    assert "update_registry" not in edges


def test_edge_states_dpo() -> None:
    assert _active_edges(PRESET_BY_ID["dpo"].inputs) == {
        "demos_sft", "sft_reference", "reference_update", "pairs_update", "update_eval", "eval_registry",
        "update_metrics",
    }


def test_edge_states_sft_only() -> None:
    assert _active_edges(PRESET_BY_ID["sft_only"].inputs) == {"demos_sft"}


def test_edges_metadata() -> None:
    i = DEFAULTS
    edges = edge_states(i, stage_of(i), active_nodes(i, stage_of(i)))
    assert [e.id for e in edges] == [e[0] for e in EDGES]
    # Metrics log is off the training path: the edges into it, and only those, are asynchronous
    assert {e.id for e in edges if e.asynchronous} == {e.id for e in edges if e.target == "metrics_log"} != set()


@pytest.mark.parametrize(
    ("stage", "fits", "phases", "expected"),
    [
        ("sft_only", True, (9, 9, 9), "sft_trainer"),
        ("reward_model", True, (9, 9, 9), "rm_trainer"),
        ("dpo", True, (9, 0, 0), "policy_update"),
        ("ppo_loop", False, (9, 0, 0), "policy_update"),       # does not fit: training is the bottleneck
        ("ppo_loop", True, (10, 5, 3), "rollout_gen"),         # most exposed seconds per step
        ("scaled_rollouts", True, (1, 5, 3), "reward_model"),
        ("eval_gated", True, (1, 2, 3), "policy_update"),
    ],
)
def test_bottleneck_node(stage: str, fits: bool, phases: tuple, expected: str) -> None:
    assert bottleneck_node(stage, fits, *phases) == expected


def test_bottleneck_is_marked_once() -> None:
    r = evaluate(DEFAULTS)
    assert [n for n, s in r.nodes.items() if s.bottleneck] == [r.bottleneck] == ["rollout_gen"]


# --- inputs.normalise --------------------------------------------------------------------------------------


def test_normalise_empty_query_is_defaults() -> None:
    inputs, notices = normalise({})
    assert inputs == DEFAULTS and notices == ()


@pytest.mark.parametrize(
    ("query", "field", "value", "notice"),
    [
        ({"rollouts": "-5"}, "rollouts", 0, Notice("rollouts", "below_min", "-5", "0")),
        ({"gpus": "10000"}, "gpus", 4096, Notice("gpus", "above_max", "10000", "4096")),
        ({"policy_b": "0.01"}, "policy_b", 0.1, Notice("policy_b", "below_min", "0.01", "0.1")),
        ({"kl": "5"}, "kl", 1.0, Notice("kl", "above_max", "5", "1")),
        ({"rollouts": "abc"}, "rollouts", 512, Notice("rollouts", "invalid", "abc", "512")),
        ({"kl": "nan"}, "kl", 0.02, Notice("kl", "invalid", "nan", "0.02")),
        ({"kl": "NaN"}, "kl", 0.02, Notice("kl", "invalid", "NaN", "0.02")),
        ({"gpus": "inf"}, "gpus", 4096, Notice("gpus", "above_max", "inf", "4096")),
        ({"policy_b": "-inf"}, "policy_b", 0.1, Notice("policy_b", "below_min", "-inf", "0.1")),
        ({"pairs": "1e309"}, "pairs", 10_000_000, Notice("pairs", "above_max", "1e309", "10000000")),
        ({"gpu": "v100"}, "gpu", "a100_80g", Notice("gpu", "unknown_choice", "v100", "a100_80g")),
        ({"method": "PPO"}, "method", "ppo", Notice("method", "unknown_choice", "PPO", "ppo")),
        ({"rollouts": ""}, "rollouts", 512, Notice("rollouts", "empty", "", "512")),     # empty → default, said
        ({"rollouts": "   "}, "rollouts", 512, Notice("rollouts", "empty", "", "512")),
        ({"method": ""}, "method", "ppo", Notice("method", "empty", "", "ppo")),
        ({"epochs": "2.6"}, "epochs", 3, Notice("epochs", "rounded", "2.6", "3")),       # integers are rounded
        ({"gpus": "7.5"}, "gpus", 8, Notice("gpus", "rounded", "7.5", "8")),
    ],
)
def test_normalise_corrects_with_a_notice(query: dict, field: str, value: object, notice: Notice) -> None:
    inputs, notices = normalise(query)
    assert getattr(inputs, field) == value
    assert notices == (notice,)


@pytest.mark.parametrize(
    ("query", "field", "value"),
    [
        ({"rollouts": ["4", "16"]}, "rollouts", 16),          # repeated → the last value
        ({"gpu": ["h100_80g", "h200_141g"]}, "gpu", "h200_141g"),
        ({"rollouts": []}, "rollouts", 512),                  # no value at all → default
        ({"epochs": "3.0"}, "epochs", 3),                     # a whole number written as a float
        ({"pairs": "1,420,000"}, "pairs", 1_420_000),         # thousands separators
        ({"pairs": "1_000"}, "pairs", 1_000),
        ({"policy_b": " 13.5 "}, "policy_b", 13.5),
        ({"gpu": "h100_80g"}, "gpu", "h100_80g"),
        ({"step": "3"}, "step", 3),
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
    # "²" is str.isdigit() but int() rejects it; 5,000 digits exceed int()'s default 4,300-digit limit
    # (both raised ValueError before; found by test_properties.test_normalise_never_fails)
    inputs, notices = normalise({"step": raw})
    assert inputs.step is None
    assert notices == (Notice("step", "invalid", raw[:40], ""),)


@pytest.mark.parametrize(
    "query",
    [{"gpus": "2"}, {"gpus": "3", "placement": "separate"}, {"gpus": "1", "placement": ["colocated", "separate"]}],
)
def test_normalise_separate_needs_four_gpus(query: dict) -> None:
    inputs, notices = normalise(query)
    assert inputs.placement == "colocated"
    assert Notice("placement", "separate_needs_gpus", "separate", "colocated") in notices


def test_normalise_separate_with_four_gpus_stays() -> None:
    inputs, notices = normalise({"gpus": "4", "placement": "separate"})
    assert inputs.placement == "separate" and notices == ()


def test_normalise_echo_is_truncated() -> None:
    _, notices = normalise({"rollouts": "x" * 500})
    assert notices[0].given == "x" * 40


def test_normalise_output_passes_strict_validation() -> None:
    inputs, notices = normalise({"rollouts": "-5", "gpus": "1e9", "kl": "nan", "gpu": "tpu", "epochs": "7.4"})
    assert [n.kind for n in notices] == ["below_min", "rounded", "invalid", "above_max", "unknown_choice"]
    assert WorkloadInputs(**inputs.model_dump()) == inputs


def test_effective_turns_small_separate_into_colocated() -> None:
    small = WorkloadInputs(gpus=2, placement="separate")  # strict validation allows it; the model corrects it
    assert effective(small).placement == "colocated"
    assert effective(DEFAULTS) is DEFAULTS
    assert evaluate(small).inputs.placement == "colocated"


# --- WorkloadInputs: strict validation (the JSON API's 422) ------------------------------------------------


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("gpus", 0), ("gpus", 4097), ("rollouts", -1), ("rollouts", 8193), ("policy_b", 0.05), ("rm_b", 1001),
        ("epochs", 0), ("epochs", 17), ("kl", 0.0), ("kl", 1.5), ("kl", math.nan), ("policy_b", math.inf),
        ("eval_every", 0), ("prompt_tokens", 8), ("response_tokens", 40_000), ("pairs", 10_000_001),
        ("demos", -1), ("method", "sgd"), ("placement", "remote"), ("gpu", "v100"), ("gpus", "many"),
        ("step", STEP_MAX + 1), ("step", 0),
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


def test_workload_inputs_frozen_and_ignores_extra() -> None:
    i = WorkloadInputs(colour="blue")
    assert i == DEFAULTS
    with pytest.raises(ValidationError):
        i.gpus = 16  # type: ignore[misc]


def test_custom_gpu_spec_is_computed_on_the_fly() -> None:
    # a GpuSpec that is not in GPUS (e.g. an A800 entered by hand) gives the same figures as its twin
    a800 = GpuSpec("a800", 80.0, 2.039, 312.0, 32.0, "nvidia_a100")
    assert ppo_step(DEFAULTS, a800) == ppo_step(DEFAULTS, A100_80)
