"""Frontier-scale rules (MODEL-FRONTIER part A) with the arithmetic written out, their properties, and the
calibration against every published row the lab can enter (app/model/data/published_runs.toml), fitted to none."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.model import evaluate, normalise
from app.model.assumptions import ARCHS, GPUS
from app.model.bands import row_query
from app.model.physics.generation import kv_replication
from app.model.physics.layout import backend_for, megatron_bytes_per_param, megatron_states_gb
from app.model.published_runs import RUNS, PublishedRun

approx = pytest.approx
FEW = settings(max_examples=25, deadline=None, derandomize=True, database=None)


def result(**q: object):
    return evaluate(normalise({k: str(v) for k, v in q.items()})[0])


# --- A1: the engine ------------------------------------------------------------------------------------------------


def test_qwen3_235b_engine_at_tp_8_holds_59_gb_per_gpu() -> None:
    # 235 B in bf16 = 470 GB; TP 8 beyond its 4 KV heads (vLLM replicates them, 2 copies): 470 / 8 = 58.75 GB per GPU
    r = result(arch="qwen3_235b_a22b", gpus=128, gpu="h100_80g", method="grpo", reward="verifier",
               placement="separate")
    g = r.step.gen
    assert (g.tensor_parallel, g.pipeline) == (8, 1) and g.fits
    lane = next(x for x in r.memory.lanes if x.lane == "gen")
    assert dict(lane.parts)["gen_weights"] == approx(2 * 235.0 / 8) == approx(58.75)
    assert kv_replication(ARCHS["qwen3_235b_a22b"], 8) == 2.0


def test_deepseek_v3_over_a_32_gpu_engine_is_42_gb_per_gpu() -> None:
    # 671 B in bf16 = 1,342 GB over TP 8 × PP 4 = 32 GPUs: 41.9 GB per GPU
    assert 2 * ARCHS["deepseek_v3"].total_b / 32 == approx(41.9, abs=0.05)


# --- A2: the training layout ---------------------------------------------------------------------------------------


def test_megatron_distributed_optimizer_is_6_plus_12_over_d() -> None:
    # bf16 weights (2) + fp32 gradients (4) stay; fp32 main weights and Adam m, v (12) are shared by d copies
    for d in (1, 2, 8, 16, 64):
        assert megatron_bytes_per_param(d, "none", "full") == (6 + 12 / d, 0.0)
    assert megatron_bytes_per_param(4, "optimizer", "full") == (6.0, 3.0)   # the 12 / d on the host
    assert megatron_bytes_per_param(4, "params", "full") == (0.0, 9.0)


def test_deepseek_v3_at_ep16_pp16_on_256_gpus_is_53_gb_before_activations() -> None:
    # experts 58 · 256 · 3 · 7,168 · 2,048 = 653.9 B / (EP 16 · PP 16) = 2.55 B per GPU at 18 B (d_e = 256 / 256 = 1)
    # = 46.0 GB; the rest 17.1 B / (TP 1 · PP 16) = 1.07 B at 6 + 12 / 16 = 6.75 B (d = 16) = 7.2 GB: 53.2 GB
    a = ARCHS["deepseek_v3"]
    experts = a.expert_b / 256 * 18
    dense = a.dense_b / 16 * 6.75
    assert experts == approx(46.0, abs=0.1) and dense == approx(7.2, abs=0.1)
    gb, host, params = megatron_states_gb(a, 1, 16, 16, 256)
    assert gb == approx(experts + dense) == approx(53.2, abs=0.1) and host == 0


def test_backends_are_chosen_as_the_frameworks_do() -> None:
    assert backend_for(ARCHS["llama3_8b"]) == "fsdp" and backend_for(ARCHS["llama3_70b"]) == "fsdp"
    assert backend_for(ARCHS["llama3_405b"]) == "megatron" and backend_for(ARCHS["deepseek_v3"]) == "megatron"
    layout = result(arch="deepseek_v3", gpus=256, gpu="h100_80g", method="grpo", reward="verifier",
                    placement="colocated").step.training_layout
    assert layout.backend == "megatron" and layout.ep == 16 and layout.tp * layout.pp * layout.cp * layout.dp == 256


def test_more_gpus_keep_helping_deepseek_v3_training() -> None:
    # the issue: 322 s at 256 and at 512 GPUs (a ZeRO-3 floor); now the data-parallel shards shrink the step
    q = dict(arch="deepseek_v3", gpu="h100_80g", method="grpo", reward="verifier", placement="colocated",
             rollouts=512, prompt_tokens=512, response_tokens=700, response_max_tokens=1024)
    a, b = result(**q, gpus=256).step.training_s, result(**q, gpus=512).step.training_s
    assert b < a


def test_optimizer_steps_default_per_method() -> None:
    # NeMo RL GRPO: one optimizer step per RL step; verl's PPO examples: four (not rollouts / 128)
    assert result(method="grpo", rollouts=8192).step.optimizer_steps == 1
    assert result(method="ppo").step.optimizer_steps == 4
    assert result(method="grpo", optimizer_steps=4, epochs=2).step.optimizer_steps == 8


# --- A5: memory knobs -----------------------------------------------------------------------------------------------


def test_activations_split_by_context_parallelism_and_tokens() -> None:
    q = dict(arch="llama3_8b", gpus=8, gpu="h100_80g", placement="colocated", response_max_tokens=32_768,
             response_tokens=4096)
    one, four = result(**q).memory.activation_gb, result(**q, context_parallel=4).memory.activation_gb
    assert four == approx(one / 4)
    small = result(**{**q, "max_tokens_per_gpu": 1024, "response_max_tokens": 1024, "response_tokens": 1024}).memory
    assert small.activation_gb < one


# --- A7: honesty ------------------------------------------------------------------------------------------------------


def test_a_state_that_does_not_fit_carries_the_step_at_min_gpus() -> None:
    r = result(gpus=1, placement="colocated")
    assert not r.memory.fits and r.memory.min_gpus and r.step_at_min_gpus is not None
    assert r.step_at_min_gpus.groups.training <= r.memory.min_gpus


workloads = st.fixed_dictionaries({
    "arch": st.sampled_from(["custom", "llama3_8b", "qwen3_30b_a3b", "qwen3_235b_a22b", "deepseek_v3"]),
    "method": st.sampled_from(["ppo", "grpo"]),
    "placement": st.sampled_from(["colocated", "separate"]),
    "gpu": st.sampled_from(sorted(GPUS)),
    "gpus": st.sampled_from([1, 4, 8, 16, 64, 256]),
    "offload": st.sampled_from(["none", "optimizer", "params"]),
    "tuning": st.sampled_from(["full", "lora"]),
})


@FEW
@given(workloads)
def test_fits_exactly_when_every_lane_and_the_engine_fit(q: dict) -> None:
    m = result(**q).memory
    assert m.fits == (m.engine_fits and not any(lane.over for lane in m.lanes))


@FEW
@given(workloads)
def test_no_step_is_timed_by_streaming_weights_over_the_host_link(q: dict) -> None:
    g = result(**q).step.gen
    assert g.bound != "host_link"


@FEW
@given(workloads)
def test_offload_and_lora_never_raise_min_gpus(q: dict) -> None:
    base = result(**{**q, "offload": "none", "tuning": "full"}).memory.min_gpus
    for relief in ({"offload": "params"}, {"tuning": "lora"}):
        relieved = result(**{**q, "offload": "none", "tuning": "full", **relief}).memory.min_gpus
        if base is not None:
            assert relieved is not None and relieved <= base


@FEW
@given(workloads, st.sampled_from([2, 4]))
def test_more_gpus_never_slow_a_fitting_step(q: dict, factor: int) -> None:
    a = result(**q)
    b = result(**{**q, "gpus": q["gpus"] * factor})
    if a.memory.fits and b.memory.fits:
        assert b.step.total_s <= a.step.total_s * (1 + 1e-9)


# --- calibration: every row the lab can enter ----------------------------------------------------------------------

# Rows outside 2×, and why (docs/model.md, "Frontier calibration"): each a mechanism the lab lacks or a comparison
# the row does not allow, never a constant to fit.  Rows enter their recipe's engine TP (engine_tp) and split
# (generation_gpus), and NeMo RL's async rows their in-flight weight updates (partial_rollouts).
_GB200_MOE = ("mixture-of-experts on GB200 NVL72 at the recipe's engine TP and split: the lab's step is 0.25-0.48x "
              "NeMo RL's on 7 of its 14 GB200 MoE rows, where the lab's H100 MoE rows (0.64-1.75x) and its GB200 "
              "dense rows (Llama-3.1-8B, Qwen3-32B: 0.72-1.00x) land.  NeMo RL's GB200 MoE steps are barely shorter "
              "per GPU than its H100 ones on a part with 2.4x the bandwidth (DeepSeek-V3: 108 s on 128 GB200s, 134 s "
              "on 256 H100s), and its GB200 table breaks orderings its H100 table keeps (below); no source gives the "
              "Blackwell MoE costs that would explain it")
_SMALL_MOE_H20 = ("Qwen3-30B-A3B colocated on 128 H20s: verl prints generation 348 s where the lab's is 77 s, but "
                  "neither the mean response length nor the engine's TP for this run (the lab's defaults entered: "
                  "1,024 tokens, TP searched); the async 96 : 32 row of the same table, whose script gives TP 4, lands "
                  "at 1.04x")
MISSES = {
    "nemo_v05_h100_dapo_dsv3_on_512g": "DAPO, entered with oversample 3 (the recipe's batch_multiplier, the least "
                                       "it generates) and engine_release vllm_eager (the recipe's enforce_eager: 10 "
                                       "ms a decode step, 0.32 -> 0.34x): the recipe runs vLLM TP 64 across 8 HGX "
                                       "nodes (the lab caps it at 8 with pipeline stages) and draws up to 10 "
                                       "generation batches; the lab has no input for either",
    "nemo_v06_gb200_grpo_qwen3_235b_on_128g": "NeMo RL's step rises from 286 s on 64 GB200s to 345 s on 128; the "
                                              "lab's never rises with GPUs (a property), so at most one of the pair "
                                              "can land; and " + _GB200_MOE,
    "nemo_v05_gb200_grpo_qwen3_235b_1off_128g": _GB200_MOE,
    "nemo_v06_gb200_grpo_qwen3_235b_1off_128g": _GB200_MOE,
    "nemo_v05_gb200_grpo_qwen3_30b_a3b_on_16g": _GB200_MOE,
    "nemo_v06_gb200_grpo_qwen3_30b_a3b_on_16g": _GB200_MOE,
    "nemo_v05_gb200_grpo_qwen3_30b_a3b_1off_32g": _GB200_MOE,
    "nemo_v06_gb200_grpo_qwen3_30b_a3b_1off_16g": "NeMo RL's 1-step-off step (301 s) is longer than its on-policy "
                                                  "one on the same 16 GPUs (221 s), the reverse of every H100 pair; "
                                                  "the lab's async step is never longer than the same split run "
                                                  "synchronously (a property); and " + _GB200_MOE,
    "verl_fa_30b_a3b_sync_128g": _SMALL_MOE_H20,
    "verl_fa_7b_async_16_16": "entered at verl's fixed 16 : 16 split (generation_gpus; searched, the lab had moved "
                              "GPUs to training and landed at 1.48x): the lab's FSDP training of the 7 B on 16 H20s "
                              "takes 520 s against the 314 s verl prints (training_s), and it runs the old-log-prob "
                              "recompute (135 s) after it where verl's is inside that figure; no mean response "
                              "length is printed (the lab's 1,024 entered: 6 · 7.6 B · 8,192 · 1,144 tokens / "
                              "(16 · 148 TFLOP/s · 0.35) = 518 s)",
    "verl_fa_7b_validate_async_8_8": "as the 16 : 16 row, at verl's 8 : 8: the lab's training 1,039 s against verl's "
                                     "436 s (training_s); searched, 1.78x",
    "verl_tuning_qwen25_14b_full_4xh800": "not comparable: the table's count is the one its tuned script ran on "
                                          "(4 H800, whole-node tensor parallelism for vLLM), not the fewest that "
                                          "fit; the lab fits the same states with offload on 1",
    "verl_tuning_qwen25_32b_full_8xh20": "not comparable, as the 14 B row: the script's 8 H20 (one node, TP 8), "
                                         "not the fewest that fit (the lab: 2)",
}


# a published row as lab inputs: one function, the planner's calibration bands enter rows the same way
row_inputs = row_query

ENTERABLE = [r for r in RUNS if r.arch in ARCHS and r.gpu is not None
             and (r.figure("step_s") is not None or r.figure("min_gpus") is not None)]


def model_ratio(r: PublishedRun) -> float:
    res = evaluate(normalise(row_inputs(r))[0])
    if r.figure("step_s") is not None:
        return res.step.total_s / r.figure("step_s")  # type: ignore[operator]
    return (res.memory.min_gpus or 4096) / r.figure("min_gpus")  # type: ignore[operator]


@pytest.mark.parametrize("row", ENTERABLE, ids=lambda r: r.id)
def test_published_row_within_2x(row: PublishedRun) -> None:
    ratio = model_ratio(row)
    within = 0.5 <= ratio <= 2.0
    if row.id in MISSES:  # a listed miss that lands must leave the list (and docs/model.md)
        assert not within, f"{row.id} lands at {ratio:.2f}×: remove it from MISSES"
        pytest.xfail(f"{ratio:.2f}×: {MISSES[row.id]}")
    assert within, f"{row.id}: model / published = {ratio:.2f}"


def test_a_state_no_count_fits_names_what_would_make_it_fit() -> None:
    # Llama-3-8B on A100-40GB with a 131,072-token micro-batch: its activations alone, 32 · 4,096 · 2 B · 131,072 =
    # 34.4 GB, plus a 2.1 GB chunk of logits exceed 36 GB usable on every GPU count (FSDP does not split them):
    # a smaller micro-batch, context parallelism or a larger GPU each make it fit; more GPUs do not
    r = result(arch="llama3_8b", gpu="a100_40g", gpus=64, max_tokens_per_gpu=131_072, placement="colocated")
    assert not r.memory.fits and r.memory.min_gpus is None and r.step_at_min_gpus is None
    assert {"smaller_micro_batch", "context_parallel", "larger_gpu"} <= set(r.fit_remedies)
    assert "offload_params" not in r.fit_remedies
    assert [x.key for x in r.reasons if x.key.startswith("why.fit.remedy.")] == [
        f"why.fit.remedy.{name}" for name in r.fit_remedies]
    assert r.decisions["distributed_training"].reason == "decision.distributed_training.never"


@FEW
@given(st.sampled_from(["qwen3_30b_a3b", "qwen3_235b_a22b", "deepseek_v3", "llama3_405b"]),
       st.sampled_from([8, 16, 48, 64, 128, 256, 512]), st.sampled_from(["none", "optimizer"]), st.booleans())
def test_the_widest_tp_per_pipeline_depth_fits_whenever_any_layout_does(arch: str, gpus: int, offload: str,
                                                                 colocated: bool) -> None:
    from app.model.physics.layout import fitting_layouts, training_fits
    from app.model.physics.workload import workload
    i = normalise({"arch": arch, "gpus": str(gpus), "gpu": "h100_80g", "offload": offload, "method": "grpo",
                   "placement": "colocated" if colocated else "separate"})[0]
    w = workload(i, GPUS["h100_80g"])
    assert training_fits(w, gpus, colocated) == bool(fitting_layouts(w, gpus, colocated))


# --- the engine of a colocated Megatron trainer, and the cross-node expert exchange -------------------------------


def test_a_colocated_megatron_trainer_leaves_the_gpu_to_the_engine() -> None:
    # NeMo RL offloads the Megatron model and optimizer before generation (offload_before/after_refit), so the engine
    # gets its 0.6 · 80 = 48 GB whatever the trainer holds: Qwen3-235B's 470 GB at TP 8 is 58.75 GB a GPU, over the
    # 0.9 · 48 = 43.2 GB weights may take, so 2 stages (29.4 GB a GPU: NeMo RL's TP 16 instance) — not the 5 stages
    # the trainer's resident states had forced.  The swap: 2 · states / 64 GB/s host link, in sync_s
    from app.model.physics.step import colocated_engine_memory_gb, generation_resident_gb, trainer_swap_seconds
    from app.model.physics.workload import workload
    q = dict(arch="qwen3_235b_a22b", gpus=128, gpu="h100_80g", method="grpo", reward="verifier",
             placement="colocated", rollouts=512, group=32, prompt_tokens=120, response_tokens=5700,
             response_max_tokens=8192, kl=0.01)
    r = result(**q)
    i = normalise({k: str(v) for k, v in q.items()})[0]
    w = workload(i, GPUS["h100_80g"])
    layout = r.step.training_layout
    assert layout.backend == "megatron" and generation_resident_gb(layout) == 0.0
    assert colocated_engine_memory_gb(w, i, 128) == approx(48.0)
    assert (r.step.gen.tensor_parallel, r.step.gen.pipeline) == (8, 2) and r.step.gen.waves == 1
    assert trainer_swap_seconds(w, layout) == approx(2 * layout.states_gb / 64.0)
    assert r.memory.fits
    # FSDP (a dense 8 B model) keeps its states beside the engine, as verl's hybrid engine does without offload
    small = result(arch="llama3_8b", gpus=8, gpu="h100_80g", method="grpo", reward="verifier", placement="colocated")
    assert generation_resident_gb(small.step.training_layout) == small.step.training_layout.states_gb > 0


def test_the_cross_node_expert_exchange_holds_every_decode_step_of_the_tail() -> None:
    # DeepSeek-V3 on 256 H100s colocated: an instance of TP 8 × PP 4 = 32 GPUs (4 nodes) pays 58 MoE layers · 428 µs
    # = 24.8 ms every decode step (DeepEP, EP 32); the same model on one node's worth of experts would not
    from app.model.physics.network import expert_exchange_seconds
    g = result(arch="deepseek_v3", gpus=256, gpu="h100_80g", method="grpo", reward="verifier", placement="colocated",
               rollouts=512, group=16, prompt_tokens=120, response_tokens=744, response_max_tokens=1536).step.gen
    assert g.tensor_parallel * g.pipeline == 32
    exchange = expert_exchange_seconds(ARCHS["deepseek_v3"], g.batch, g.tensor_parallel, g.pipeline, GPUS["h100_80g"])
    assert exchange == approx(58 * 428e-6)
    assert g.all_reduce_s >= exchange and g.tail_floor_s >= 1536 * exchange
    assert expert_exchange_seconds(ARCHS["qwen3_235b_a22b"], 64, 8, 1, GPUS["h100_80g"]) == 0.0  # one node


# --- GB200 NVL72: one NVLink domain of 72 GPUs ----------------------------------------------------------------------


def test_gb200_is_one_72_gpu_nvlink_domain_where_hgx_parts_are_8() -> None:
    # NVIDIA's GB200 NVL72 table over its 72 GPUs: 13.4 TB / 72 = 186 GB, 576 TB/s / 72 = 8 TB/s, 360 PFLOP/s sparse
    # / 72 / 2 = 2,500 dense; 72 GPUs on NVLink, 4 to a compute tray.  Every HGX part keeps the 8-GPU baseboard
    from app.model.assumptions import GPUS_PER_NODE
    from app.model.physics.network import collective_bandwidth, expert_exchange_seconds
    gb = GPUS["gb200_186g"]
    assert (gb.memory_gb, gb.hbm_bandwidth_tb_per_s, gb.peak_bf16_tflops) == (186.0, 8.0, 2500.0)
    assert (gb.nvlink_domain_gpus, gb.node_gpus) == (72, 4)
    assert all(g.nvlink_domain_gpus == g.node_gpus == GPUS_PER_NODE for k, g in GPUS.items() if k != "gb200_186g")
    # a 64-GPU collective stays on NVLink in the rack (900 · 0.77 GB/s) and falls to InfiniBand on HGX (50 GB/s)
    assert collective_bandwidth(gb, 64) == approx(900e9 * 0.77)
    assert collective_bandwidth(GPUS["b200_180g"], 64) == approx(50e9)
    # DeepSeek-V3 at TP 32 (NeMo RL's GB200 recipe): no InfiniBand expert exchange inside the rack; on HGX, 58 · 428 µs
    assert expert_exchange_seconds(ARCHS["deepseek_v3"], 64, 32, 1, gb) == 0.0
    assert expert_exchange_seconds(ARCHS["deepseek_v3"], 64, 32, 1, GPUS["b200_180g"]) == approx(58 * 428e-6)
    # the engine may take TP up to 64 in the rack, 8 on a baseboard
    q = dict(arch="deepseek_v3", gpus=128, method="grpo", reward="verifier", placement="colocated", rollouts=512,
             group=16, prompt_tokens=120, response_tokens=711, response_max_tokens=1536)
    rack, hgx = result(**q, gpu="gb200_186g").step.gen, result(**q, gpu="b200_180g").step.gen
    assert rack.tensor_parallel > 8 and rack.pipeline == 1
    assert hgx.tensor_parallel <= 8 and hgx.tensor_parallel * hgx.pipeline > 8


def test_the_gb200_rows_enter_the_gb200() -> None:
    rows = [r for r in RUNS if r.hardware == "GB200-NVL72"]
    assert rows and all(r.gpu == "gb200_186g" and "gpu" not in r.assumed for r in rows)


# --- a recipe's fixed split (generation_gpus) -----------------------------------------------------------------------


def test_generation_gpus_fixes_the_split_the_search_would_move() -> None:
    # verl's fully_async Qwen3-30B-A3B run: 96 of 128 H20s generate, 32 train (its doc: "not optimal").  Searched, the
    # lab gives generation 16 GPUs; fixed, exactly 96, the other 32 shared by the reference and the trainer
    row = next(r for r in RUNS if r.id == "verl_fa_30b_a3b_async_96_32")
    q = row_inputs(row)
    assert q["generation_gpus"] == "96"
    fixed = evaluate(normalise(q)[0]).step
    searched = evaluate(normalise({k: v for k, v in q.items() if k != "generation_gpus"})[0]).step
    assert fixed.groups.generation == 96 and fixed.groups.scoring + fixed.groups.training == 32
    assert searched.groups.generation != 96 and searched.total_s <= fixed.total_s
    assert fixed.gpu_groups is not None and not fixed.gpu_groups.searched
    # colocated ignores it: every GPU generates
    assert evaluate(normalise({**q, "placement": "colocated", "staleness": "0"})[0]).step.groups.colocated


def test_generation_gpus_leaves_the_trainer_a_gpu_with_a_notice() -> None:
    i, notices = normalise({"gpus": "16", "placement": "separate", "generation_gpus": "16"})
    assert i.generation_gpus == 15
    assert [(n.field, n.kind, n.given, n.used) for n in notices] == [("generation_gpus", "generation_gpus_above",
                                                                      "16", "15")]
    assert normalise({"gpus": "16", "generation_gpus": "8"})[1] == ()
