"""The model against published measurements (shared/design/calibration.md and MODEL-2026 "Calibration available to
you"), each with its source and tolerance.

The published step figures live once, in ``app/model/calibration.py`` (inputs, figures, source, tolerance); this file
asserts them and the closed-form checks.  Tolerances are explicit and deliberately different: closed-form rules
(ZeRO, KV bytes) must match to a few per cent; wall-clock estimates of whole RL systems only to a factor of 1.5–2,
since the model knows nothing of their kernels, schedulers or padding.  docs/model.md tabulates the same
comparisons with the model's figures and says where the model is still off.
"""

from __future__ import annotations

import pytest

from app.model import WorkloadInputs, evaluate
from app.model.assumptions import ARCHS, GPUS
from app.model.calibration import OPENRLHF, ROW_BY_ID, ROWS, compare
from app.model.physics.architecture import kv_bytes_per_token
from app.model.physics.memory import zero_states_gb_per_gpu
from app.model.physics.offline import dpo
from app.model.physics.step import gpu_groups


def within_factor(estimate: float, published: float, factor: float) -> bool:
    return published / factor <= estimate <= published * factor


# --- every published step figure, at its row's tolerance ----------------------------------------------------------


@pytest.mark.parametrize(
    ("row_id", "figure"), [(r.id, p.figure) for r in ROWS for p in r.published], ids=lambda x: str(x))
def test_published_step_figures(row_id: str, figure: str) -> None:
    # openrlhf: OpenRLHF benchmark, 7 B Ray + vLLM, 482 / 403 / 885 s, within 2×
    # openrlhf_hf: the same table's "DeepSpeed-Chat" column (hybrid engine disabled = HF generate in the trainer):
    #   697 s generation within 1.5×; 1,189 s step within 2×; 492 s training within 3× (the model is 2.4× low)
    # dschat_opt13b: DeepSpeed-Chat OPT-13B, ≈ 251 s per step (9 h / ≈ 129 steps), within 2×
    # nemo_rl_llama31_8b: NeMo RL v0.4 GRPO Llama-3.1-8B on 16 H100s, 97.7 s per step, within 2×
    row = ROW_BY_ID[row_id]
    (c,) = [c for c in compare(row) if c.figure == figure]
    assert c.within, f"{row_id} {figure}: model {c.model:.0f} s vs published {c.published:.0f} s (×{c.tolerance})"


def test_rows_cite_a_known_source() -> None:
    for row in ROWS:
        assert row.url.startswith("https://") and row.published


def test_openrlhf_layout_is_near_optimal() -> None:
    # MODEL-2026 §3: the search never loses to OpenRLHF's fixed 2 / 2 / 4, and the 8-GPU 7 B case stays within 5 %
    # of it (the reference and reward model each need their own GPU, the actor and critic four between them)
    s = evaluate(ROW_BY_ID["openrlhf"].inputs).step
    fixed = gpu_groups(8, False)
    assert (fixed.generation, fixed.scoring, fixed.training) == (2, 2, 4)
    assert s.total_s <= s.gpu_groups.fixed_step_s
    assert s.total_s >= 0.95 * s.gpu_groups.fixed_step_s


# --- ZeRO (Rajbhandari et al. 2019, arXiv 1910.02054, Fig. 1): Ψ = 7.5 B, N_d = 64 -------------------------------


@pytest.mark.parametrize(("stage", "published_gb"), [(0, 120.0), (1, 31.4), (2, 16.6), (3, 1.9)])
def test_zero_figure_1(stage: int, published_gb: float) -> None:
    # tolerance 2 % (the paper rounds 1.875 GB to 1.9)
    assert zero_states_gb_per_gpu(7.5, 64, stage) == pytest.approx(published_gb, rel=0.02)


# --- KV cache (vLLM blog 2023-06-20): LLaMA-13B ≈ 800 KB per token, ≈ 1.7 GB per 2,048-token sequence --------------


def test_llama13b_kv_cache() -> None:
    # arch llama2_13b (40 layers, 40 KV heads of 128): 819,200 B per token, tolerance 5 % of the blog's ≈ 800 KB;
    # 2,048 tokens → 1.68 GB, tolerance 5 % of ≈ 1.7 GB
    kv = kv_bytes_per_token(ARCHS["llama2_13b"])
    assert kv == pytest.approx(800e3, rel=0.05)
    assert 2048 * kv / 1e9 == pytest.approx(1.7, rel=0.05)


# --- generation share of step time: 50–85 % for standard PPO (OpenRLHF README "80 %"; table 54–79 %) ---------------


@pytest.mark.parametrize("row_id", ["openrlhf", "openrlhf_hf"])
def test_generation_share_openrlhf(row_id: str) -> None:
    share = evaluate(ROW_BY_ID[row_id].inputs).step.generation_share
    assert 0.50 <= share <= 0.85, share


def test_generation_share_never_below_40_percent_for_standard_ppo() -> None:
    # calibration.md: "never below 40 %" — standard PPO of 2023: MHA Llama-2 shapes, the OpenRLHF config, separate
    # placement (the 2023 layout), over the GPU types of calibration.md and B200.  Not H20: with 148 TFLOP/s against
    # 4 TB/s it is a compute-poor part, and there training, not generation, takes most of a PPO step (26 % generation
    # here) — the reason labels that train on H20 favour critic-free methods and LoRA.  Not GB200 either, a part no
    # 2023 PPO run used: on 8 of them the split search lands on 4 / 2 / 2 (37 %) within 1 % of the B200's 3 / 2 / 3
    for gpu in ("a100_40g", "a100_80g", "h100_80g", "h200_141g", "b200_180g"):
        for arch, size in (("llama2_7b", 6.7), ("llama2_13b", 13.0)):
            i = WorkloadInputs(**{**OPENRLHF, "gpu": gpu, "arch": arch, "policy_b": size}, placement="separate")
            r = evaluate(i)
            if r.memory.fits:
                assert r.step.generation_share >= 0.40, (gpu, arch, r.step.generation_share)


# --- per-GPU efficiency (OpenRLHF table): generation 2.5–7.7 TFLOP/s per GPU, training 47–116 ----------------------


def test_generation_tflops_per_gpu_openrlhf() -> None:
    # forward FLOPs of every token the rollouts hold, 2N · 1,024 · 2,048, over generation seconds × all 8 GPUs;
    # tolerance: within 3× of the published 2.5–7.7 TFLOP/s, and far below peak (< 5 % of 312)
    s = evaluate(ROW_BY_ID["openrlhf"].inputs).step
    per_gpu_tflops = 2 * 6.7e9 * 1024 * 2048 / (s.generation_s * 8) / 1e12
    assert 2.5 / 3 <= per_gpu_tflops <= 7.7 * 3, per_gpu_tflops
    assert per_gpu_tflops / 312 < 0.05


def test_training_tflops_per_gpu_openrlhf() -> None:
    # 6N × tokens for actor + critic over the 4 training GPUs; published 47–116 TFLOP/s
    s = evaluate(ROW_BY_ID["openrlhf"].inputs).step
    tflops = 6 * (6.7 + 7) * 1e9 * 1024 * 2048 / (s.training_s * s.groups.training) / 1e12
    assert 47 <= tflops <= 116, tflops


# --- what fits ------------------------------------------------------------------------------------------------


def test_7b_ppo_does_not_fit_one_a100_80gb() -> None:
    # 7 B actor + 7 B critic at 16 B/param = 224 GB of training states alone, on a 72 GB usable card
    r = evaluate(WorkloadInputs(policy_b=7, rm_b=7, gpus=1, gpu="a100_80g", placement="colocated"))
    assert not r.memory.fits and r.meters["train_memory"].level == "hot"
    assert r.decisions["distributed_training"].state == "needed"
    assert r.memory.min_gpus and r.memory.min_gpus > 1


@pytest.mark.parametrize(("policy_b", "gpu"), [(6.7, "a100_40g"), (13, "a100_80g")])
def test_dschat_table3_largest_single_gpu_actor_needs_sharding(policy_b: float, gpu: str) -> None:
    # DeepSpeed-Chat Table 3 trains 6.7 B on one A100-40GB and 13 B on one A100-80GB — with ZeRO offload / LoRA.
    # Plain 16 B/param says the states alone do not fit (107 GB > 36 GB; 208 GB > 72 GB).
    usable = GPUS[gpu].memory_gb * 0.9
    assert zero_states_gb_per_gpu(policy_b, 1, 0) > usable
    sft = evaluate(WorkloadInputs(policy_b=policy_b, pairs=0, rollouts=0, gpus=1, gpu=gpu))
    assert sft.stage == "sft_only" and sft.meters["train_memory"].value == 100
    assert not dpo(WorkloadInputs(policy_b=policy_b, gpus=1, gpu=gpu, method="dpo"), GPUS[gpu]).fits


def test_openrlhf_13b_on_8_gpus_fits_with_adam_offload() -> None:
    # OpenRLHF README: 13 B PPO on 8 A100s with --adam_offload.  Without offload 416 GB of Adam states over
    # 8 × 72 GB cannot leave room for the rest; with 4 B/param on the GPUs it fits
    base = dict(arch="llama2_13b", policy_b=13, rm_b=13, gpu="a100_80g", gpus=8, rollouts=1024, prompt_tokens=1024,
                response_tokens=1024, placement="separate")
    assert not evaluate(WorkloadInputs(**base)).memory.fits
    assert evaluate(WorkloadInputs(**base, offload="optimizer")).memory.fits


def test_openrlhf_70b_on_16_gpus_is_at_the_edge_not_impossible() -> None:
    # examples/scripts/train_ppo_llama_ray_70b.sh: Llama-2-70B actor, critic and RM on 16 A100s (4 actor, 4 critic,
    # 2 ref, 2 RM, 2 vLLM engines of TP 2), micro-batch of one sequence, --adam_offload.  At 4 B/param the actor's
    # 282 GB over its 4 GPUs is 70.6 GB of an 80 GB card — over the model's 72 GB usable once a micro-batch's
    # activations and logits are added.  Llama-3.1-70B's shape stands in (its 128k vocabulary makes the logits larger
    # than Llama-2's 32k).  The model must not call it impossible: min_gpus within 1.5× of 16.
    i = WorkloadInputs(arch="llama3_70b", policy_b=70.6, rm_b=70.6, gpu="a100_80g", gpus=16, rollouts=1024,
                       prompt_tokens=1024, response_tokens=1024, placement="separate", offload="optimizer")
    m = evaluate(i).memory
    assert m.min_gpus is not None and within_factor(m.min_gpus, 16, 1.5), m.min_gpus
    actor_gb_per_gpu = 4 * 70.6 / 4  # 4 B/param · 70.6 B over OpenRLHF's 4 actor GPUs: 70.6 GB, at the edge of 80
    assert actor_gb_per_gpu / m.usable_gb > 0.95  # 98 % of the 72 GB usable, before activations and logits
