"""Issue 26 (time as it is really spent) and the engine layout of issue 24 (MODEL-FRONTIER A1, A6): unit tests with
the arithmetic written out, calibration against published rows (fitted to none), and properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.model import evaluate, normalise
from app.model.assumptions import ARCHS, ENGINE_WAKE_S, GPUS
from app.model.inputs import WorkloadInputs, effective
from app.model.physics.generation import engine_layout, engine_plan, generation, schedule
from app.model.physics.offline import rl_run
from app.model.physics.step import ppo_step
from app.model.published_runs import RUNS
from tests.model.test_frontier import row_inputs

H100 = GPUS["h100_80g"]
A100 = GPUS["a100_80g"]
ROW = {r.id: r for r in RUNS}


def w(**kw) -> WorkloadInputs:
    return effective(WorkloadInputs(**kw))


# --- continuous batching over the length distribution ------------------------------------------------------------


def test_equal_lengths_give_todays_throughput_formula() -> None:
    # Llama-3.1-8B, one H100 engine of TP 1 with 72 GB, 600 responses of 1,024 tokens after a 256-token prompt
    a = ARCHS["llama3_8b"]
    plan = engine_plan(a, H100, 72.0, 1, prompt_tokens=256, response_tokens=1024, longest_tokens=1024, group=1,
                       engine="vllm", gather_gpus=0, max_gpus=1)
    g = schedule(plan, 600, 1)
    # waves = ⌈600 / B⌉, b = 600 / waves; today's formula: waves · (b · prefill / C + mean · step(b))
    waves = math.ceil(600 / plan.batch_cap)
    b = 600 / waves
    formula = waves * (b * plan.prefill_flops / plan.compute_rate + 1024 * g.decode_step_s)
    assert (g.waves, g.batch) == (waves, b)
    assert g.seconds == pytest.approx(formula, rel=1e-9) and g.throughput_s == pytest.approx(formula, rel=1e-9)
    assert g.tail_s == pytest.approx(0.0, abs=1e-9 * formula)


def test_one_long_response_is_the_bulk_plus_the_tail_at_a_small_batch() -> None:
    # the same engine, mean 256 tokens but the longest 16,384: the drain adds ≈ the longest response decoded at a
    # small batch (the floor, longest · step(1)) on top of the batch's own time
    a = ARCHS["llama3_8b"]
    kw = dict(prompt_tokens=256, response_tokens=256, group=1, engine="vllm", gather_gpus=0, max_gpus=1)
    short = schedule(engine_plan(a, H100, 72.0, 1, longest_tokens=256, **kw), 600, 1)
    long = schedule(engine_plan(a, H100, 72.0, 1, longest_tokens=16_384, **kw), 600, 1)
    assert long.throughput_s == pytest.approx(short.throughput_s, rel=0.02)   # the bulk is the same batch
    # bulk + tail: more than the floor alone and more than the batch alone; the tail (what the drain adds) is about
    # the floor — the longest response at a batch of one — a little more since the few long survivors read their
    # growing KV caches together (k = 16,384 / 256 − 1 = 63: 1.1 % of the 600 still decode after 8,192 tokens)
    assert long.seconds > max(long.throughput_s, long.tail_floor_s)
    assert long.tail_s == pytest.approx(long.seconds - long.throughput_s)
    assert 0.8 * long.tail_floor_s < long.tail_s < 1.5 * long.tail_floor_s


def test_streaming_has_no_tail() -> None:
    # async with partial rollouts: the engine never drains, so the longest response does not hold the step
    i = w(arch="llama3_8b", method="grpo", group=16, reward="verifier", rollouts=1024, gpus=16, gpu="h100_80g",
          prompt_tokens=256, response_tokens=1024, response_max_tokens=16_384, staleness=1, placement="separate")
    off, on = (ppo_step(i.model_copy(update={"partial_rollouts": p}), H100) for p in ("off", "on"))
    assert on.gen.streaming and not off.gen.streaming
    assert on.tail_s == 0.0 < off.tail_s
    assert on.total_s <= off.total_s


# --- the engine layout (MODEL-FRONTIER A1) and weight sync (A6) ----------------------------------------------------


def test_qwen3_235b_engine_at_tp_8_holds_59_gb_per_gpu() -> None:
    # 235 B · 2 B = 470 GB over TP 8 = 58.75 GB per GPU (vllm-project/vllm#17439), the experts over EP = 8 GPUs;
    # TP 8 exceeds its 4 KV heads: each GPU keeps one head's cache (KV replicated twice)
    g = generation(ARCHS["qwen3_235b_a22b"], 512, 300, 5400, 64, H100, 72.0, longest_tokens=8000, group=16)
    e = engine_layout(g)
    assert (e.tensor_parallel, e.pipeline, e.expert_parallel, e.gpus_per_instance) == (8, 1, 8, 8)
    assert e.weights_gb_per_gpu == pytest.approx(470 / 8) and e.replicas == 8
    assert e.kv_gb_per_gpu == pytest.approx(72 - 58.75)


def test_deepseek_v3_engine_spreads_1342_gb_over_32_gpus() -> None:
    # 671 B · 2 B = 1,342 GB; in a colocated engine share of 48 GB per GPU the weights must leave a useful cache
    # (≥ 10 %: 43.2 GB) → ⌈1,342 / (8 · 43.2)⌉ = 4 stages of TP 8 = 32 GPUs, 41.9 GB per GPU, experts over EP 32
    g = generation(ARCHS["deepseek_v3"], 512, 200, 700, 256, H100, 48.0, longest_tokens=1336, group=16)
    e = engine_layout(g)
    assert (e.tensor_parallel, e.pipeline, e.expert_parallel, e.gpus_per_instance) == (8, 4, 32, 32)
    assert e.weights_gb_per_gpu == pytest.approx(1342 / 32) and e.replicas == 8


def test_fp8_rollouts_halve_the_engine_weights() -> None:
    # rollout_dtype = fp8: 1 B per parameter (vLLM FP8 W8A8) — Qwen3-235B-A22B fits TP 4 at 235 / 4 = 58.75 GB
    bf16, fp8 = (evaluate(w(arch="qwen3_235b_a22b", method="grpo", group=16, reward="verifier", kl=0, rollouts=512,
                            gpus=256, gpu="h100_80g", prompt_tokens=300, response_tokens=5400,
                            response_max_tokens=8000, staleness=1, placement="separate", rollout_dtype=d))
                 for d in ("bf16", "fp8"))
    assert fp8.step.generation_engine.weights_gb_per_gpu * fp8.step.generation_engine.gpus_per_instance == \
        pytest.approx(235.0)
    assert bf16.step.generation_engine.weights_gb_per_gpu * bf16.step.generation_engine.gpus_per_instance == \
        pytest.approx(470.0)
    assert fp8.step.generation_s < bf16.step.generation_s


def test_weight_sync_moves_the_whole_model_as_verl_measures_it() -> None:
    # separate placement refits every parameter (not the active ones), gathered, broadcast and loaded tensor by tensor
    # (physics/refit.py).  Qwen3-235B-A22B on 64 + 64 H20s, bucketed (verl's checkpoint engine): max(gather
    # 470 · 63 / 64 / 50 = 9.25 s, broadcast 470 / 50 = 9.4 s) + convert 2 · 470 / 4,000 = 0.235 s + 36,757 tensors
    # · 0.25 ms = 9.19 s: 18.8 s against verl's 23.7 s (the 2.5× short wire-only answer, 9.4 s, is gone)
    s = ppo_step(w(arch="qwen3_235b_a22b", method="grpo", reward="verifier", gpus=128, gpu="h20_96g", staleness=1,
                   placement="separate", generation_gpus=64), GPUS["h20_96g"])
    assert (s.groups.generation, s.groups.scoring + s.groups.training) == (64, 64)
    assert s.refit.tensors == 94 * (4 + 2 + 3 * 128 + 1) + 3 == 36_757
    assert s.sync_s == pytest.approx(470 / 50 + 2 * 470 / 4000 + 36_757 * 0.25e-3)
    assert s.sync_s / ROW["verl_sync_235b_a22b_64x64_ckpt"].figure("weight_sync_s") == pytest.approx(0.79, abs=0.01)


@pytest.mark.parametrize("row_id", [r for r in ROW if r.startswith("verl_sync_")])
def test_the_refit_lands_verls_checkpoint_engine_table(row_id: str) -> None:
    # verl fully_async.md, checkpoint-engine ablation (64 + 64, 16 + 16, 4 + 4 H20s; nccl = per tensor, checkpoint
    # engine = bucketed): each row within 2x, but the 7 B checkpoint-engine row, whose 0.02 s for 15.2 GB (760 GB/s)
    # is faster than one direction of NVLink can carry: inside one node the checkpoint engine hands CUDA IPC handles
    # over and moves no bytes, which the lab does not model (a listed miss)
    from app.model.physics.refit import refit_seconds
    row = ROW[row_id]
    mode = "per_tensor" if row.weight_sync == "nccl" else "bucketed"
    r = refit_seconds(ARCHS[row.arch], GPUS[row.gpu], mode=mode, train_gpus=row.train_gpus,
                      generation_gpus=row.gen_gpus, colocated=False)
    ratio = r.total_s / row.figure("weight_sync_s")
    if row_id == "verl_sync_7b_4x4_ckpt":
        assert ratio > 2, "the in-node IPC row lands: drop it from the misses"
        pytest.xfail(f"{ratio:.1f}x: in one node the checkpoint engine shares CUDA IPC handles, no bytes move")
    assert 0.5 <= ratio <= 2.0, f"{row_id}: {ratio:.2f}"


def test_a_colocated_engine_wakes_every_step() -> None:
    # the hybrid engine's refit plus its wake-up: the 8 GPUs' shards all-gathered (bucketed: pipelined with the
    # load) 16 GB · 7 / 8 over 900 / 2 · 0.77 GB/s = 0.040 s, converted 2 · 16 / 3,350 = 0.0096 s, loaded 291 tensors
    # · 0.25 ms = 0.073 s; then engine_wake_s + its weights per GPU back over the host link.  (Before the refit
    # mechanism: each GPU copied its slice, 16e9 / 8 / 346.5e9 = 0.0058 s.)
    s = ppo_step(w(arch="llama3_8b", method="grpo", reward="verifier", gpus=8, gpu="h100_80g",
                   placement="colocated"), H100)
    gather = 16e9 * 7 / 8 / (900e9 / 2 * 0.77)
    refit = max(gather, 0.0) + 2 * 16 / 3350 + 291 * 0.25e-3
    assert s.sync_s == pytest.approx(refit + ENGINE_WAKE_S + 16.0 / s.gen.tensor_parallel / 64.0)


# --- the async step ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("partial", ["off", "on"])
def test_the_async_step_lies_between_its_bounds(partial: str) -> None:
    # step = max(generation, scoring + training) + sync ≥ max(generation, scoring + training), and never longer
    # than the same split run synchronously (generation drained, then training)
    s = ppo_step(w(arch="qwen3_8b", method="grpo", group=8, reward="verifier", kl=0.001, rollouts=1024, gpus=16,
                   gpu="h100_80g", prompt_tokens=256, response_tokens=2048, response_max_tokens=8192, staleness=1,
                   placement="separate", partial_rollouts=partial), H100)
    assert s.total_s == pytest.approx(max(s.generation_s, s.scoring_s + s.training_s) + s.sync_s)
    assert s.total_s >= max(s.generation_s, s.scoring_s + s.training_s)
    assert s.total_s <= s.sync_step_s


def test_oversample_generates_more_and_passes_repeat_the_run() -> None:
    base = dict(arch="llama3_8b", method="grpo", reward="verifier", gpus=8, gpu="h100_80g", placement="colocated",
                rollouts=512, prompts=10_240, group=8)
    one, two = (ppo_step(w(**base, oversample=o), H100) for o in (1, 2))
    # DAPO's dynamic sampling: twice the responses generated, the same kept for scoring and training
    assert two.generation_s > one.generation_s and two.training_s == one.training_s
    assert two.gen.tokens_per_s * two.generation_s == pytest.approx(2 * one.gen.tokens_per_s * one.generation_s)
    # passes: ⌈10,240 · 8 / 512⌉ = 160 steps a pass, 3 passes = 480
    assert rl_run(w(**base, passes=3), one).steps == 3 * rl_run(w(**base), one).steps == 480


# --- calibration: published rows, fitted to none --------------------------------------------------------------------


def row_query(run_id: str, split: str = "searched") -> dict[str, str]:
    """A published row's inputs as tests/model/test_frontier.py enters them (partial rollouts where the row
    resumes interrupted responses: verl ``partial_rollout``, NeMo RL's ``in_flight_weight_updates``), on the lab's
    searched split (no ``generation_gpus``: the layouts the lab recommends) or the recipe's own."""
    q = row_inputs(ROW[run_id])
    if split == "searched":
        q.pop("generation_gpus", None)
    return q


def step_of_row(run_id: str, split: str = "searched") -> float:
    return evaluate(normalise(row_query(run_id, split))[0]).step.total_s


# NeMo RL's on- and off-policy rows at the same GPU count (docs/about/performance-summary.md, v0.5 and v0.6 tables;
# 1-step off = max_trajectory_age_steps 1 with in-flight weight updates, entered as partial rollouts)
NEMO_PAIRS = [
    ("nemo_v05_h100_grpo_llama31_8b_on_16g", "nemo_v05_h100_grpo_llama31_8b_1off_16g"),
    ("nemo_v05_h100_grpo_qwen3_30b_a3b_on_32g", "nemo_v05_h100_grpo_qwen3_30b_a3b_1off_32g"),
    ("nemo_v06_h100_grpo_qwen3_30b_a3b_on_32g", "nemo_v06_h100_grpo_qwen3_30b_a3b_1off_32g"),
    ("nemo_v05_gb200_grpo_llama31_8b_on_8g", "nemo_v05_gb200_grpo_llama31_8b_1off_8g"),
    ("nemo_v06_h100_grpo_dsv3_on_512g", "nemo_v06_h100_grpo_dsv3_1off_512g"),
    ("nemo_v06_h100_grpo_qwen3_235b_on_256g", "nemo_v06_h100_grpo_qwen3_235b_1off_256g"),
]


@pytest.mark.parametrize("split", ["searched", "recipe"])
@pytest.mark.parametrize(("on", "off"), NEMO_PAIRS, ids=lambda x: x)
def test_nemo_rl_one_step_off_is_faster_at_the_same_gpu_count(on: str, off: str, split: str) -> None:
    # ordered as published on the lab's searched split and on the recipe's own (since the trainer scores,
    # step.trainer_scores: before, 8 + 8 split its second half 3 scoring / 5 training, and Llama-3.1-8B 1-step-off
    # took 102 s against 92.7 colocated); within 2× where the run was measured, on the recipe's split (searched, the
    # lab's Qwen3-235B 1-step-off on 256 H100s is faster than NeMo RL's 128 + 128: 115 s, 0.499×)
    sync, async_ = step_of_row(on, split), step_of_row(off, split)
    assert async_ < sync  # published: 92.8 → 64.8 s, 198 → 154, 192 → 152, 91 → 71, 111 → 64.1, 312 → 231
    for run_id, model in ((on, sync), (off, async_)):
        if split == "recipe":
            assert 0.5 <= model / ROW[run_id].figure("step_s") <= 2.0, run_id


# verl docs/advance/fully_async.md (Qwen2.5-Math-7B DAPO on H20, 28K max response): colocated sync at 32 / 64 / 128
# GPUs against fully_async (staleness 0.5 entered as 1, partial rollouts) on the same GPUs split in half
VERL_PAIRS = [("verl_fa_7b_sync_32g", "verl_fa_7b_async_16_16"), ("verl_fa_7b_sync_64g", "verl_fa_7b_async_32_32"),
              ("verl_fa_7b_sync_128g", "verl_fa_7b_async_64_64"),
              ("verl_os_7b_fsdp2_sync_16g", "verl_os_7b_fsdp2_1off_4_12")]


@pytest.mark.parametrize(("sync_id", "async_id"), VERL_PAIRS, ids=lambda x: x)
def test_verl_async_is_faster_than_colocated_sync(sync_id: str, async_id: str) -> None:
    assert step_of_row(async_id) < step_of_row(sync_id)


def test_verl_7b_rows_within_2x() -> None:
    # every 7 B DAPO row of fully_async.md and one_step_off.md lands within 2× once its prompt is entered as a mean
    # (published_runs.DAPO_MATH_PROMPT_TOKENS: verl packs sequences, the 2,048 cap is not what it trains)
    ids = [r.id for r in RUNS if r.system == "verl" and r.arch == "qwen25_7b" and r.figure("step_s")
           and "retool" not in r.id]
    assert len(ids) == 15
    for run_id in ids:
        assert 0.5 <= step_of_row(run_id) / ROW[run_id].figure("step_s") <= 2.0, run_id


def test_verl_generation_flattens_from_64_to_128_gpus() -> None:
    # verl measured generation 151 → 178 s from 64 to 128 GPUs (step 365 → 356 s): the longest response bounds it.
    # The model's generation falls by less than a fifth when the GPUs double (the drain does not shrink)
    g64, g128 = (evaluate(normalise(row_query(r))[0]).step for r in ("verl_fa_7b_sync_64g", "verl_fa_7b_sync_128g"))
    assert g128.generation_s > 0.8 * g64.generation_s
    assert g128.tail_s > 0.5 * g128.generation_s       # the tail is most of it


def test_verl_30b_a3b_async_is_faster_than_its_sync_row() -> None:
    # Qwen3-30B-A3B GRPO on 128 H20 (fully_async.md): colocated sync 497.89 s, fully_async 96 : 32 282.75 s (1.76×).
    # The model has async faster too on its searched split; on verl's 96 : 32 (where the async row lands, 0.68×) it
    # does not, since the sync row is a miss at 0.26× (test_frontier.MISSES: verl prints neither its mean response
    # nor its engine TP, and the lab's defaults, 1,024 tokens and the fastest TP, make it 131 s)
    assert step_of_row("verl_fa_30b_a3b_async_96_32") < step_of_row("verl_fa_30b_a3b_sync_128g")


# --- properties ------------------------------------------------------------------------------------------------------

FEW = settings(max_examples=25, deadline=None, derandomize=True, database=None)
SMALL = dict(method=st.just("grpo"), reward=st.just("verifier"), gpu=st.sampled_from(["h100_80g", "a100_80g"]),
             arch=st.sampled_from(["llama3_8b", "qwen25_7b", "qwen3_8b", "qwen3_30b_a3b"]),
             rollouts=st.sampled_from([64, 256, 1024]), group=st.sampled_from([4, 8, 16]),
             prompt_tokens=st.sampled_from([128, 512, 2048]), response_tokens=st.sampled_from([256, 1024, 4096]))


def inputs(**fixed) -> st.SearchStrategy[WorkloadInputs]:
    return st.builds(WorkloadInputs, **{**SMALL, **fixed}).map(effective)


@FEW
@given(inputs(placement=st.just("colocated"), gpus=st.sampled_from([1, 2, 4, 8])), st.integers(0, 16_384),
       st.integers(1, 16_384))
def test_a_longer_longest_response_never_shortens_generation(i: WorkloadInputs, extra: int, more: int) -> None:
    lo, hi = (i.model_copy(update={"response_max_tokens": i.response_tokens + x}) for x in (extra, extra + more))
    a, b = (ppo_step(x, GPUS[i.gpu]) for x in (lo, hi))
    assert b.generation_s >= a.generation_s * (1 - 1e-9) and b.total_s >= a.total_s * (1 - 1e-9)


@FEW
@given(inputs(placement=st.just("separate"), gpus=st.sampled_from([8, 16, 32, 64]), staleness=st.integers(1, 8),
              response_max_tokens=st.sampled_from([4096, 8192, 16_384])))
def test_partial_rollouts_never_lengthen_an_async_step(i: WorkloadInputs) -> None:
    off, on = (ppo_step(i.model_copy(update={"partial_rollouts": p}), GPUS[i.gpu]) for p in ("off", "on"))
    assert on.total_s <= off.total_s * (1 + 1e-9)


@FEW
@given(inputs(placement=st.just("separate"), gpus=st.sampled_from([8, 16, 32, 64]),
              partial_rollouts=st.sampled_from(["off", "on"]), response_max_tokens=st.sampled_from([4096, 16_384])),
       st.integers(1, 7))
def test_more_staleness_never_lengthens_an_async_step(i: WorkloadInputs, k: int) -> None:
    a, b = (ppo_step(i.model_copy(update={"staleness": s}), GPUS[i.gpu]) for s in (k, k + 1))
    assert b.total_s <= a.total_s * (1 + 1e-9)


@FEW
@given(inputs(placement=st.just("colocated"), gpus=st.sampled_from([1, 2, 4, 8])),
       st.floats(1.0, 4.0), st.floats(0.0, 3.0))
def test_oversample_never_shortens_generation(i: WorkloadInputs, low: float, more: float) -> None:
    high = min(low + more, 4.0)
    a, b = (ppo_step(i.model_copy(update={"oversample": o}), GPUS[i.gpu]) for o in (low, high))
    assert b.generation_s >= a.generation_s * (1 - 1e-9)


# --- validation: outside the step, inside the run -----------------------------------------------------------------


def test_validation_is_one_pass_at_the_engines_floor_every_eval_every_steps() -> None:
    # verl's validation rows (fully_async.md, use_trainer_do_validate): the step column excludes validation (gen
    # 52.9 + update_actor 430.3 = 483.2 of the 484.6 s step), while the 50-step total (7 h 9 m = 515 s a step)
    # includes 205 s every test_freq 10 steps.  The lab: Step.validation_s = the engine's floor (a validation set
    # decoded in one wave, held by its longest answer), outside total_s; the run adds ⌊steps / eval_every⌋ of them
    q = {**row_query("verl_fa_7b_validate_sync_16g"), "eval_every": "10", "prompts": "25600"}
    r = evaluate(normalise(q)[0])
    s = r.step
    assert s.validation_s == s.gen.tail_floor_s > 0
    assert r.run.steps == 25_600 * 16 // 8192 == 50
    assert r.run.validation_hours == pytest.approx(5 * s.validation_s / 3600)
    assert r.run.hours == pytest.approx((50 * s.total_s + 5 * s.validation_s) / 3600)
    rare = evaluate(normalise({**q, "eval_every": "100"})[0]).run   # 50 steps, no validation pass
    assert rare.validation_hours == 0 and rare.hours == pytest.approx(50 * s.total_s / 3600)


def test_a_recipes_trainer_scores_on_its_own_gpus() -> None:
    # NeMo RL's Llama-3.1-8B 1-step-off recipe: vLLM on 8 H100s, the Megatron policy on the other 8, which computes
    # the reference and old-policy log-probs itself (no scoring pool).  The lab puts both forwards on those 8 GPUs:
    # 2 · 4.11e16 FLOPs / (8 · 989 TFLOP/s · 0.45) = 23.1 s, and the reference's bf16 shard, 16.06 GB / 8 = 2.0 GB,
    # in the training lane; no scoring lane.  Before, the 8 split 3 scoring / 5 training and the step was 102 s
    q = dict(arch="llama3_8b", gpu="h100_80g", gpus=16, method="grpo", reward="verifier", placement="separate",
             rollouts=2048, group=32, prompt_tokens=120, response_tokens=1123, response_max_tokens=4096,
             optimizer_steps=4, kl=0.01, staleness=1, partial_rollouts="on", generation_gpus=8, engine_tp=1)
    r = evaluate(normalise({k: str(v) for k, v in q.items()})[0])
    s = r.step
    assert (s.groups.generation, s.groups.scoring, s.groups.training) == (8, 0, 8) and s.trainer_scores
    flops = 41_145_369_932_852_840  # rollouts · (prompt + mean) tokens · 2 · 8.03 B: each forward
    assert s.scoring_s == pytest.approx(2 * flops / (8 * 989e12 * 0.45), rel=1e-3)
    train = next(lane for lane in r.memory_lanes if lane.lane == "train")
    assert dict(train.parts)["reference"] == pytest.approx(16.06 / 8, rel=1e-2)
    assert [lane.lane for lane in r.memory_lanes] == ["train", "gen"]
    assert s.total_s == pytest.approx(68.0, abs=0.5) and r.memory.fits
    # the searched split keeps OpenRLHF's own placement: reference on scoring GPUs (the 8-GPU 2 / 2 / 4)
    plain = evaluate(normalise({"placement": "separate", "gpus": "8"})[0]).step
    assert (plain.groups.generation, plain.groups.scoring, plain.groups.training) == (2, 2, 4)
    assert not plain.trainer_scores
