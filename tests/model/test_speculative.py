"""Speculative decoding in the rollout engine (issue 36, item 3): MTP heads or a draft propose, the target verifies
them in one forward; the arithmetic written out and its properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.model import evaluate, normalise
from app.model.assumptions import ARCHS, GPUS
from app.model.physics.generation import draft_seconds, engine_plan, speculative_tokens, step_seconds

approx = pytest.approx
H100 = GPUS["h100_80g"]
FEW = settings(max_examples=20, deadline=None, derandomize=True, database=None)


def result(**q: object):
    return evaluate(normalise({k: str(v) for k, v in q.items()})[0])


def test_mtp_with_acceptance_2_halves_a_tail_bound_steps_tail() -> None:
    # DeepSeek-V3 (one MTP module, num_nextn_predict_layers 1) on an engine of TP 8 in 72 GB per GPU, longest 8,000
    # tokens: the floor is 8,000 · step(b = 1).  With MTP and acceptance 2 each verification step reads the weights
    # once for 2 tokens and adds one proposal (one layer's active weights, 2 · 37e9 / 61 B over the instance's HBM),
    # so the floor is 8,000 · (step(b = 1, 2 tokens) + draft) / 2: half, to within the proposal's 25 µs per step
    a = ARCHS["deepseek_v3"]
    assert a.mtp_layers == 1 and speculative_tokens(a, "mtp") == 1
    kw = dict(prompt_tokens=200, response_tokens=700, longest_tokens=8000, group=16, engine="vllm", gather_gpus=0,
              max_gpus=32)
    off = engine_plan(a, H100, 72.0, 8, **kw)
    mtp = engine_plan(a, H100, 72.0, 8, speculative="mtp", acceptance=2.0, **kw)
    assert mtp.draft_s == approx(1 * 2 * 37e9 / 61 / (mtp.gpus * 3.35e12 * 0.6))
    context = 200 + 8000 / 2
    one = off.floor_s / 8000
    verify = step_seconds(a, H100, 8, 1.0, context, _floor_flops(a, context),
                          mtp.hbm_rate, mtp.compute_rate, 0.0, 0.0, mtp.kv_per_token * mtp.kv_split, mtp.fixed_step_s,
                          1.0, mtp.pipeline, verify=2.0, draft_s=mtp.draft_s)[0]
    assert mtp.floor_s == approx(8000 * min(one, verify / 2))
    assert mtp.floor_s / off.floor_s == approx(0.5, abs=0.005)


def _floor_flops(arch, context: float) -> float:
    from app.model.physics.architecture import forward_flops_per_token
    return forward_flops_per_token(arch, context)


def test_a_draft_of_three_tokens_at_acceptance_2_on_llama_8b() -> None:
    # Llama-3.1-8B on one H100: step(b = 1) = 16.06 GB / (3.35 TB/s · 0.6) + 4,200 · 131,072 B / 2.01 TB/s + 4 ms
    # = 7.99 + 0.27 + 4 = 12.26 ms, floor 8,000 · 12.26 ms = 97.9 s; a draft proposes 3 tokens, each reading one
    # layer, 3 · 16.06 / 32 GB / 2.01 TB/s = 0.75 ms: the floor at acceptance 2 is 8,000 · (12.26 + 0.75) / 2 ms
    # = 52.0 s (the four verified tokens' compute, 4 · 2 · 8 GFLOP / 445 TFLOP/s = 0.07 ms, hides under the read)
    a = ARCHS["llama3_8b"]
    kw = dict(prompt_tokens=200, response_tokens=1000, longest_tokens=8000, group=1, engine="vllm", gather_gpus=0,
              max_gpus=1)
    off = engine_plan(a, H100, 72.0, 1, **kw)
    draft = engine_plan(a, H100, 72.0, 1, speculative="draft", acceptance=2.0, **kw)
    assert draft.draft_s == approx(draft_seconds(a, 3, 3.35e12 * 0.6)) == approx(3 * 16.06e9 / 32 / 2.01e12, rel=0.01)
    assert off.floor_s == approx(97.9, abs=0.1)
    assert draft.floor_s == approx(8000 * (off.floor_s / 8000 + draft.draft_s) / 2, rel=1e-3)
    assert draft.floor_s == approx(51.9, abs=0.1)


def test_the_step_and_the_plan_say_what_runs() -> None:
    q = dict(arch="deepseek_v3", gpus=256, gpu="h100_80g", method="grpo", reward="verifier", rollouts=512,
             prompt_tokens=200, response_tokens=700, response_max_tokens=8000, group=16)
    off, mtp = result(**q), result(**q, speculative="mtp", acceptance=1.8)
    assert mtp.step.gen.speculative_tokens == 1 and mtp.step.gen.acceptance == 1.8
    assert mtp.plan.engine.speculative == "mtp" and mtp.plan.engine.num_speculative_tokens == 1
    assert off.plan.engine.speculative == "off" and off.plan.engine.num_speculative_tokens == 0
    assert mtp.step.gen.tail_floor_s < off.step.gen.tail_floor_s and mtp.step.total_s < off.step.total_s


def test_mtp_needs_an_architecture_that_ships_the_heads() -> None:
    i, notices = normalise({"arch": "llama3_8b", "speculative": "mtp"})
    assert i.speculative == "off" and [(n.field, n.kind, n.used) for n in notices] == [
        ("speculative", "mtp_needs_heads", "off")]
    i, notices = normalise({"arch": "deepseek_v3", "speculative": "mtp", "acceptance": "3"})
    assert (i.speculative, i.acceptance) == ("mtp", 2.0)  # one MTP module: at most 1 + 1 tokens per step
    assert [(n.field, n.kind) for n in notices] == [("acceptance", "acceptance_above")]
    assert "speculative" not in normalise({})[0].query() and "acceptance" not in normalise({})[0].query()


def test_hf_generate_runs_without_speculation() -> None:
    q = dict(arch="llama3_8b", gpus=8, gpu="h100_80g", method="grpo", reward="verifier", engine="hf")
    assert result(**q, speculative="draft", acceptance=3).step.total_s == result(**q).step.total_s


# --- properties ----------------------------------------------------------------------------------------------------

_STATES = st.fixed_dictionaries({
    "arch": st.sampled_from(["llama3_8b", "qwen3_30b_a3b", "qwen25_7b", "deepseek_v3", "qwen3_32b"]),
    "gpus": st.sampled_from([8, 16, 64, 256]),
    "gpu": st.sampled_from(["h100_80g", "h200_141g", "h20_96g"]),
    "placement": st.sampled_from(["colocated", "separate"]),
    "rollouts": st.sampled_from([64, 512, 2048]),
    "response_tokens": st.sampled_from([256, 1024, 4096]),
    "longest": st.sampled_from([1, 2, 4]),
})


def _q(s: dict) -> dict:
    return dict(arch=s["arch"], gpus=s["gpus"], gpu=s["gpu"], placement=s["placement"], rollouts=s["rollouts"],
                method="grpo", reward="verifier", prompt_tokens=256, response_tokens=s["response_tokens"],
                response_max_tokens=s["response_tokens"] * s["longest"])


@FEW
@given(s=_STATES, mode=st.sampled_from(["mtp", "draft"]), acceptance=st.floats(1.0, 4.0))
def test_speculative_decoding_never_lengthens_a_step(s: dict, mode: str, acceptance: float) -> None:
    off = result(**_q(s))
    on = result(**_q(s), speculative=mode, acceptance=acceptance)
    if off.step and on.step:
        assert on.step.generation_s <= off.step.generation_s * (1 + 1e-9)
        assert on.step.total_s <= off.step.total_s * (1 + 1e-9)


@FEW
@given(s=_STATES, a=st.floats(1.0, 4.0), more=st.floats(0.0, 2.0))
def test_a_longer_acceptance_never_lengthens_generation(s: dict, a: float, more: float) -> None:
    one = result(**_q(s), speculative="draft", acceptance=a)
    two = result(**_q(s), speculative="draft", acceptance=min(a + more, 4.0))
    if one.step and two.step:
        assert two.step.total_s <= one.step.total_s * (1 + 1e-9)
        # on the same split: a faster engine can also move the searched split, trading generation GPUs for training
        same = [(s.gpu_groups.generation, s.gpu_groups.scoring, s.gpu_groups.training) for s in (one.step, two.step)]
        if same[0] == same[1]:
            assert two.step.generation_s <= one.step.generation_s * (1 + 1e-9)
