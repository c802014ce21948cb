"""The engine's fixed CPU / scheduler cost per decode step, by engine and release (issue 36, item 2):
data/engines.toml, ``engine_release``, ``generation._engine_workload``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.model.assumptions import ARCHS, CONSTANTS, DECODE_STEP_OVERHEAD_S, ENGINE_RELEASES, GPUS, SOURCES
from app.model.evaluate import evaluate
from app.model.inputs import DEFAULTS, PRACTICE_SPECS, WorkloadInputs
from app.model.physics.generation import _engine_workload, _plan


def _floor(release: str, overhead_s: float | None = None):
    """Qwen2.5-1.5B on one H100: a 512-token prompt and a 4,096-token longest response."""
    e = _engine_workload(ARCHS["qwen25_1_5b"], GPUS["h100_80g"], 0.9 * 80, 1, 512, 1024, 4096, 1, "vllm", 0,
                         release=release, overhead_s=overhead_s)
    return _plan(e, 1)


def test_every_release_row_is_a_constant_with_its_source_or_labelled_teaching() -> None:
    for r in ENGINE_RELEASES.values():
        c = CONSTANTS[r.constant]
        assert c.value == r.overhead_s and c.unit == "s per decode step"
        assert r.kind in ("fit", "teaching") and r.derivation
        if r.kind == "fit":
            assert c.source == r.source and r.source in SOURCES
        else:
            assert c.teaching and (r.source is None or r.source in SOURCES)


def test_the_default_release_is_the_one_verl_starts_and_keeps_the_former_constant() -> None:
    assert PRACTICE_SPECS["engine_release"].default == "vllm_v1" == DEFAULTS.engine_release
    assert DECODE_STEP_OVERHEAD_S["vllm_v1"] == CONSTANTS["decode_step_overhead_vllm_s"].value == 0.004
    # V0's fit: (29 + 33) / 38 · 5 ms = 8.16 ms; V1 keeps the scheduling, 29 / 38 · 5 = 3.82 ms
    assert round((29 + 33) / 38 * 5, 2) == 8.16 and round(29 / 38 * 5, 2) == 3.82
    assert DECODE_STEP_OVERHEAD_S["vllm_v0"] == 0.008


def test_overhead_dominates_the_tail_of_a_small_model() -> None:
    """Qwen2.5-1.5B on an H100, one sequence at the context 512 + 4,096 / 2 = 2,560 tokens:
        weights 2 B · 1.54e9 = 3.08e9 B, KV 2,560 · 28,672 B = 73.4e6 B
        t_mem = 3.1534e9 / (3.35e12 · 0.6) = 1.569 ms
        vllm_v1: step = 1.569 + 4 = 5.569 ms, the overhead 4 / 5.569 = 72 % of the tail
        tail floor = 4,096 · 5.569 ms = 22.81 s (16.4 s of it overhead)
        vllm_v1_async / sglang: 1.569 + 0.5 = 2.069 ms a step, 8.47 s: 2.7x shorter."""
    t_mem = (2 * 1.54e9 + 2560 * 28672) / (3.35e12 * 0.6)
    assert t_mem == pytest.approx(1.569e-3, rel=1e-3)
    v1 = _floor("vllm_v1")
    assert v1.floor_s == pytest.approx(4096 * (t_mem + 0.004), rel=1e-9) == pytest.approx(22.81, abs=0.01)
    share = 0.004 / (t_mem + 0.004)
    assert share == pytest.approx(0.718, abs=1e-3) and share > 0.5  # the overhead, not the weights, sets the tail
    fast = _floor("vllm_v1_async")
    assert fast.floor_s == pytest.approx(4096 * (t_mem + 0.0005), rel=1e-9) == pytest.approx(8.47, abs=0.01)
    assert _floor("sglang").floor_s == fast.floor_s
    assert _floor("vllm_eager").floor_s > _floor("vllm_v0").floor_s > v1.floor_s


def test_a_fitted_overhead_overrides_the_release() -> None:
    assert _floor("vllm_eager", overhead_s=0.004).floor_s == _floor("vllm_v1").floor_s


def test_the_release_reaches_the_step_and_the_plan() -> None:
    base = dict(arch="qwen25_1_5b", policy_b=1.54, gpu="h100_80g", gpus=8, method="grpo", reward="verifier",
                rollouts=512, response_tokens=1024, response_max_tokens=4096)
    v1 = evaluate(WorkloadInputs(**base))
    fast = evaluate(WorkloadInputs(**base, engine_release="sglang"))
    assert fast.step.generation_s < v1.step.generation_s
    assert v1.plan.engine.release == "vllm_v1" and fast.plan.engine.release == "sglang"
    # an old URL names the same state: the default is not in the canonical query
    assert "engine_release" not in WorkloadInputs(**base).query()
    assert WorkloadInputs(**base, engine_release="sglang").query()["engine_release"] == "sglang"


@settings(max_examples=40, deadline=None)
@given(low=st.floats(0.0, 0.05), extra=st.floats(0.0, 0.05), tokens=st.sampled_from([256, 1024, 4096]))
def test_a_larger_overhead_never_shortens_a_step(low: float, extra: float, tokens: int) -> None:
    base = dict(arch="qwen25_7b", policy_b=7.6, gpu="h100_80g", gpus=8, method="grpo", reward="verifier",
                rollouts=256, response_tokens=tokens, response_max_tokens=tokens)
    a = evaluate(WorkloadInputs(**base, decode_step_overhead_s=low)).step
    b = evaluate(WorkloadInputs(**base, decode_step_overhead_s=low + extra)).step
    assert b.generation_s >= a.generation_s - 1e-9
    assert b.total_s >= a.total_s - 1e-6


def test_hf_ignores_the_release() -> None:
    base = dict(DEFAULTS.model_dump(), engine="hf", response_max_tokens=None)
    assert evaluate(WorkloadInputs(**base)).step.total_s == evaluate(
        WorkloadInputs(**{**base, "engine_release": "sglang"})).step.total_s


def test_the_calibrate_pages_lab_value_is_the_releases() -> None:
    """A fitted overhead is compared with the lab's own: the state's engine release's, not always vLLM V1's."""
    from app.calibrate.fit import _lab_values

    class _Lab:
        refit = 1.0

    assert _lab_values(WorkloadInputs(engine_release="sglang"), _Lab())["decode_step_overhead_s"] == 0.0005
    assert _lab_values(WorkloadInputs(), _Lab())["decode_step_overhead_s"] == 0.004
    assert _lab_values(WorkloadInputs(engine="hf", engine_release="sglang"), _Lab())["decode_step_overhead_s"] == 0.010
