"""Wide expert parallelism with data-parallel attention (issue 36, item 4): ``engine_layout=dp_attention``,
``generation.dp_plan`` / ``dp_step_seconds``, ``network.dispatch_combine_seconds``."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.model.assumptions import ARCHS, ENGINES_TOML, GPUS, SOURCES
from app.model.evaluate import evaluate
from app.model.inputs import WorkloadInputs
from app.model.physics.architecture import forward_flops_per_token
from app.model.physics.generation import _engine_workload, _plan, dp_plan, dp_step_seconds
from app.model.physics.network import dispatch_combine_seconds

DSV3 = ARCHS["deepseek_v3"]
BENCHMARKS = {b["id"]: b for b in tomllib.loads(ENGINES_TOML.read_text(encoding="utf-8"))["benchmark"]}


def _engine(gpu: str = "h200_141g", gpus: int = 16, prompt: int = 512, mean: int = 1024, longest: int = 1024):
    g = GPUS[gpu]
    return _engine_workload(DSV3, g, 0.9 * g.memory_gb, gpus, prompt, mean, longest, 1, "vllm", 0, dtype="fp8",
                            layout="dp_attention")


def test_dp_attention_holds_more_kv_per_gpu_than_a_tp_instance() -> None:
    """DeepSeek-V3 fp8 on 16 H200s, engine memory 0.9 · 141 = 126.9 GB a GPU, one sequence (512 + 1,024) · 35,136 B
    (MLA latent, fp8) = 53.97 MB:
        dp 16: weights a GPU 17.1 + 653.9 / 16 = 57.96 GB, KV room 68.94 GB, ⌊68.94 / 0.05397⌋ = 1,277 sequences a
               GPU, 20,432 on the instance (each GPU its own sequences' latent, once)
        TP 8 × PP 2: 16 · 126.9 − 671 = 1,359.4 GB of room, but every TP rank holds each latent (8 copies):
               ⌊1,359.4 / (8 · 0.05397)⌋ = 3,148 sequences, 197 a GPU — dp holds 6.5x more."""
    e = _engine()
    assert e.kv_seq_gb == pytest.approx((512 + 1024) * 35136 / 1e9)
    wide = dp_plan(e, 16)
    assert wide.fits and wide.weights_gb_per_gpu == pytest.approx(DSV3.dense_b + DSV3.expert_b / 16)
    assert wide.weights_gb_per_gpu == pytest.approx(57.96, abs=0.01)
    assert wide.batch_cap == 16 * int((126.9 - wide.weights_gb_per_gpu) / e.kv_seq_gb) == 20432
    tp = _plan(e, 8, min_pp=2)
    assert (tp.tp, tp.pipeline, tp.gpus, tp.kv_split) == (8, 2, 16, 8.0)
    assert tp.batch_cap == int((16 * 126.9 - 671.0) / (8 * e.kv_seq_gb)) == 3148
    assert wide.batch_cap / 16 > 6 * tp.batch_cap / 16


def test_the_all_to_all_grows_when_the_ep_group_crosses_nodes() -> None:
    """128 tokens a rank, DeepSeek-V3 (58 MoE layers, top-8, hidden 7,168), fp8 dispatch + bf16 combine:
        EP 8 in one H100 node:  58 · (2 · 10 µs + 128 · 8 · 7,168 · 3 B · 7/8 / 346.5 GB/s) = 58 · 75.6 µs = 4.39 ms
        EP 32 over 4 nodes:     58 · max(DeepEP's 428 µs, 20 µs + 21.3 MB / 50 GB/s = 447 µs) = 25.9 ms
        EP 32 in a GB200 NVL72 rack (one NVLink domain): NVLink again, 58 · (20 µs + 21.3 MB / 693 GB/s) = 2.94 ms"""
    h100, gb200 = GPUS["h100_80g"], GPUS["gb200_186g"]
    inside = dispatch_combine_seconds(DSV3, 128, 8, h100)
    assert inside == pytest.approx(58 * (20e-6 + 128 * 8 * 7168 * 3 * 7 / 8 / (900e9 / 2 * 0.77)))
    assert inside == pytest.approx(4.39e-3, abs=0.01e-3)
    across = dispatch_combine_seconds(DSV3, 128, 32, h100)
    assert across == pytest.approx(58 * (20e-6 + 128 * 8 * 7168 * 3 * 31 / 32 / 50e9)) == pytest.approx(25.9e-3, abs=0.1e-3)
    assert across > 5 * inside
    assert dispatch_combine_seconds(DSV3, 128, 32, gb200) == pytest.approx(
        58 * (20e-6 + 128 * 8 * 7168 * 3 * 31 / 32 / (1800e9 / 2 * 0.77)))
    assert dispatch_combine_seconds(ARCHS["llama3_70b"], 128, 32, h100) == 0.0  # dense: no experts to reach


@settings(max_examples=60, deadline=None)
@given(tokens=st.floats(0.5, 2048), inside=st.sampled_from([2, 4, 8]), outside=st.sampled_from([16, 32, 64, 128, 256]),
       arch=st.sampled_from(["deepseek_v3", "qwen3_235b_a22b", "qwen3_30b_a3b", "kimi_k2"]))
def test_crossing_nodes_never_cheapens_the_all_to_all(tokens: float, inside: int, outside: int, arch: str) -> None:
    a, h100 = ARCHS[arch], GPUS["h100_80g"]
    assert dispatch_combine_seconds(a, tokens, outside, h100) >= dispatch_combine_seconds(a, tokens, inside, h100)
    assert dispatch_combine_seconds(a, tokens * 2, outside, h100) >= dispatch_combine_seconds(a, tokens, outside, h100)


def test_a_recipe_fixes_the_layout_and_the_plan_names_it() -> None:
    q = dict(arch="deepseek_v3", policy_b=671, gpu="h200_141g", gpus=128, method="grpo", reward="verifier",
             rollouts=512, response_tokens=1024, response_max_tokens=4096, rollout_dtype="fp8")
    tp = evaluate(WorkloadInputs(**q))  # the default: the published recipes' TP layout
    wide = evaluate(WorkloadInputs(**q, engine_layout="dp_attention"))
    g = wide.step.gen
    assert not tp.step.gen.data_parallel_attention and tp.plan.engine.data_parallel == 1
    assert g.data_parallel_attention and g.tensor_parallel == 1 and g.pipeline == 1
    assert g.expert_parallel == g.data_parallel == g.instance_gpus and g.all_to_all_s > 0 and g.all_reduce_s == 0
    assert g.engine_gpus == g.data_parallel * g.replicas
    e = wide.plan.engine
    assert e.data_parallel_attention and e.data_parallel == g.data_parallel and e.expert_parallel == g.data_parallel
    assert e.tensor_parallel == 1
    # a GPU of it holds the dense part whole and 1 / dp of the experts (fp8: 1 B a parameter), and 1 / dp of the
    # instance's KV (engine_parts: the memory lanes' engine share)
    from app.model.physics.step_memory import engine_parts
    from app.model.physics.workload import workload
    w = workload(WorkloadInputs(**q, engine_layout="dp_attention"), GPUS["h200_141g"])
    (_, weights), (_, kv) = engine_parts(w, g)
    assert weights == g.weights_gb_per_gpu == pytest.approx(DSV3.dense_b + DSV3.expert_b / g.data_parallel)
    assert kv == pytest.approx(g.kv_gb_per_replica / g.data_parallel)
    # auto weighs both layouts and is never slower than either alone
    auto = evaluate(WorkloadInputs(**q, engine_layout="auto"))
    assert auto.step.generation_s <= min(tp.step.generation_s, wide.step.generation_s) + 1e-9


def test_dense_models_ignore_the_layout() -> None:
    q = dict(arch="llama3_8b", gpu="h100_80g", gpus=16, method="grpo", reward="verifier")
    assert evaluate(WorkloadInputs(**q, engine_layout="dp_attention")).step.total_s == evaluate(
        WorkloadInputs(**q)).step.total_s


def test_sglang_wide_ep_decode_throughput_per_node() -> None:
    """SGLang's 96-H100 DeepSeek-V3 deployment (sglang_large_ep): 22.3k output tokens/s per decode node.  The lab, a
    64-GPU wide-EP instance, fp8, 256 sequences a GPU at 2,050 tokens of context:
        t_mem     = (17.1 GB + 653.9 / 64 · touched GB + 256 · 2,050 · 35,136 B) / (3.35 TB/s · 0.6) = 22.8 ms
        t_compute = 256 · F(2,050) / (989 TFLOP/s · 0.45) = 46.1 ms
        all-to-all 58 · 487 µs (DeepEP at EP 64) · 256 / 128 = 56.5 ms, overhead 4 ms: a step of 106.6 ms
        256 · 8 / 0.1066 s = 19.2k tokens/s per node: 0.86x."""
    b = BENCHMARKS["sglang_large_ep_decode"]
    assert b["source"] in SOURCES
    gpu, dp = GPUS[b["gpu"]], b["dp"]
    e = _engine_workload(ARCHS[b["arch"]], gpu, 0.9 * gpu.memory_gb, dp, b["context_tokens"], 100, 100, 1, "vllm",
                         0, dtype=b["dtype"], layout="dp_attention")
    p = dp_plan(e, dp)
    assert p.fits and p.batch_cap >= b["sequences_per_gpu"] * dp
    batch, ctx = b["sequences_per_gpu"] * dp, b["context_tokens"]
    step, t_mem, t_compute, a2a = dp_step_seconds(DSV3, gpu, dp, batch, ctx, forward_flops_per_token(DSV3, ctx),
                                                  p.hbm_rate, p.compute_rate, p.kv_per_token, p.fixed_step_s,
                                                  p.weight_scale)
    assert a2a == pytest.approx(58 * 487e-6 * 2) and step == pytest.approx(max(t_mem, t_compute) + a2a + 0.004)
    per_node = batch / step / (dp / gpu.node_gpus)
    assert per_node == pytest.approx(19213, rel=1e-3)
    assert b["published"] / b["tolerance"] <= per_node <= b["published"] * b["tolerance"]


@settings(max_examples=25, deadline=None)
@given(gpus=st.sampled_from([8, 16, 32, 64]), memory=st.floats(20.0, 130.0),
       arch=st.sampled_from(["deepseek_v3", "qwen3_235b_a22b", "qwen3_30b_a3b"]))
def test_a_layout_that_may_go_wide_fits_wherever_tp_does(gpus: int, memory: float, arch: str) -> None:
    from app.model.physics.generation import engine_fits
    from app.model.physics.workload import workload
    base = dict(arch=arch, gpu="h200_141g", gpus=gpus, method="grpo", reward="verifier", rollout_dtype="fp8")
    tp = WorkloadInputs(**base)
    w = workload(tp, GPUS["h200_141g"])
    for layout in ("auto", "dp_attention"):
        assert engine_fits(w, WorkloadInputs(**base, engine_layout=layout), memory, gpus) >= engine_fits(
            w, tp, memory, gpus)
