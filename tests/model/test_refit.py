"""The refit as a mechanism (issue 36, item 1): gather → convert → broadcast (separate) → load tensor by tensor, the
arithmetic written out, and its properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.model import evaluate, normalise
from app.model.assumptions import ARCHS, GPUS
from app.model.physics.refit import REFIT_MODES, refit_seconds, weight_tensors

approx = pytest.approx
H100 = GPUS["h100_80g"]
FEW = settings(max_examples=40, deadline=None, derandomize=True, database=None)


def result(**q: object):
    return evaluate(normalise({k: str(v) for k, v in q.items()})[0])


def test_a_colocated_deepseek_v3_refit_is_tens_of_seconds() -> None:
    # DeepSeek-V3 colocated on 256 H100s (the NeMo RL recipe's GPUs): the shards all-gathered over InfiniBand,
    # 1,342 GB · 255 / 256 / 50 GB/s = 26.73 s; converted 2 · 1,342 / 3,350 = 0.80 s; 45,337 tensors
    # (3 · (7 + 2 + 3) + 58 · (7 + 2 + 3 · 256 + 1 + 3) + 3) loaded at 0.25 ms = 11.33 s.
    # bucketed: max(26.73, 0) + 0.80 + 11.33 = 38.9 s; per tensor: + 45,337 · 0.6 ms more and no overlap = 66.1 s
    # (the lab said 2.4 s before: each GPU copying its own 1,342 / 8 GB slice over NVLink, plus the wake-up)
    a = ARCHS["deepseek_v3"]
    assert weight_tensors(a) == 3 * (7 + 2 + 3) + 58 * (7 + 2 + 3 * 256 + 1 + 3) + 3 == 45_337
    b = refit_seconds(a, H100, mode="bucketed", train_gpus=256, colocated=True)
    assert b.gather_s == approx(1342 * 255 / 256 / 50)
    assert b.convert_s == approx(2 * 1342 / 3350)
    assert b.load_s == approx(45_337 * 0.25e-3)
    assert b.broadcast_s == 0.0
    assert b.total_s == approx(26.73 + 0.80 + 11.33, abs=0.02)
    p = refit_seconds(a, H100, mode="per_tensor", train_gpus=256, colocated=True)
    assert p.total_s == approx(b.gather_s + b.convert_s + 45_337 * (0.25e-3 + 0.6e-3))
    assert p.total_s == approx(66.1, abs=0.1)


def test_the_step_carries_the_refit_with_the_wake_up() -> None:
    # the step's sync is the refit + the engine's wake-up + a Megatron trainer's swap; its terms are on the Step
    s = result(arch="deepseek_v3", gpus=256, gpu="h100_80g", method="grpo", reward="verifier",
               placement="colocated", rollouts=512, prompt_tokens=200, response_tokens=700).step
    assert s.refit is not None and s.refit.mode == "bucketed" and s.refit.tensors == 45_337
    assert s.sync_s > s.refit.total_s > 30


def test_fp8_rollouts_broadcast_half_the_bytes() -> None:
    # separate placement broadcasts the engine's dtype: Llama-3.1-70B over 16 + 16 H100s (InfiniBand, 50 GB/s):
    # bf16 2 · 70.6 / 50 = 2.824 s, fp8 70.6 / 50 = 1.412 s; the gather stays bf16 (the trainer's weights)
    a = ARCHS["llama3_70b"]
    bf16, fp8 = (refit_seconds(a, H100, mode="per_tensor", train_gpus=16, generation_gpus=16, dtype=d,
                               colocated=False) for d in ("bf16", "fp8"))
    assert bf16.broadcast_s == approx(2 * 70.6 / 50) and fp8.broadcast_s == approx(70.6 / 50)
    assert fp8.broadcast_s == approx(bf16.broadcast_s / 2)
    assert fp8.gather_s == bf16.gather_s
    assert fp8.total_s == approx(bf16.total_s - 70.6 / 50)


def test_an_explicit_refit_s_overrides_the_mechanism() -> None:
    q = dict(arch="qwen3_30b_a3b", gpus=32, gpu="h100_80g", method="grpo", reward="verifier")
    for placement in ("colocated", "separate"):
        assert result(**q, placement=placement, refit_s=7.5).step.sync_s == 7.5
        assert result(**q, placement=placement, refit="per_tensor", refit_s=7.5).step.sync_s == 7.5


def test_the_refit_input_is_in_the_url_only_when_it_differs() -> None:
    i, notices = normalise({"refit": "per_tensor"})
    assert i.refit == "per_tensor" and notices == () and i.query()["refit"] == "per_tensor"
    assert "refit" not in normalise({})[0].query()
    i, notices = normalise({"refit": "pipelined"})
    assert i.refit == "bucketed" and [(n.field, n.kind) for n in notices] == [("refit", "unknown_choice")]


def test_the_plan_names_the_refit() -> None:
    r = result(arch="qwen3_235b_a22b", gpus=128, gpu="h100_80g", method="grpo", reward="verifier",
               refit="per_tensor")
    assert r.plan.engine.refit == "per_tensor"
    assert result(arch="qwen3_8b", gpus=8, gpu="h100_80g", method="grpo", reward="verifier").plan.engine.refit == "bucketed"


# --- properties ----------------------------------------------------------------------------------------------------

_CASES = st.fixed_dictionaries({
    "arch": st.sampled_from(sorted(ARCHS)),
    "gpu": st.sampled_from(sorted(GPUS)),
    "train": st.sampled_from([1, 2, 8, 16, 64, 256]),
    "gen": st.sampled_from([1, 8, 32, 128]),
    "colocated": st.booleans(),
    "dtype": st.sampled_from(["bf16", "fp8"]),
})


@FEW
@given(c=_CASES, cost=st.floats(0.0, 5e-3), more=st.floats(0.0, 5e-3))
def test_a_larger_per_tensor_cost_never_shortens_a_refit(c: dict, cost: float, more: float) -> None:
    for mode in REFIT_MODES:
        kw = dict(mode=mode, train_gpus=c["train"], generation_gpus=c["gen"], dtype=c["dtype"],
                  colocated=c["colocated"])
        a = refit_seconds(ARCHS[c["arch"]], GPUS[c["gpu"]], per_tensor_s=cost, **kw)
        b = refit_seconds(ARCHS[c["arch"]], GPUS[c["gpu"]], per_tensor_s=cost + more, **kw)
        assert b.total_s >= a.total_s


@FEW
@given(c=_CASES)
def test_bucketing_never_lengthens_a_refit(c: dict) -> None:
    kw = dict(train_gpus=c["train"], generation_gpus=c["gen"], dtype=c["dtype"], colocated=c["colocated"])
    bucketed = refit_seconds(ARCHS[c["arch"]], GPUS[c["gpu"]], mode="bucketed", **kw)
    per_tensor = refit_seconds(ARCHS[c["arch"]], GPUS[c["gpu"]], mode="per_tensor", **kw)
    assert bucketed.total_s <= per_tensor.total_s
    assert bucketed.total_s >= max(bucketed.gather_s, bucketed.broadcast_s)


@FEW
@given(arch=st.sampled_from(sorted(ARCHS)))
def test_a_moe_has_more_tensors_than_a_dense_model_of_its_layers(arch: str) -> None:
    a = ARCHS[arch]
    dense_rule = a.layers * (((7 if a.attention == "mla" else 4) + 2) + 3) + 3
    assert weight_tensors(a) >= dense_rule
    assert (weight_tensors(a) > dense_rule) == a.moe
