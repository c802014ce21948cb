"""Raised bounds (issue 36, item 5): responses and prompts up to 131,072 tokens (128K) and 65,536 rollouts per step.
At the maxima every page and API answers (no 500), every figure is finite, and where the memory model says a state
does not fit it says so and why (context parallelism and the engine's KV limits make the answer), never an absurd
number."""

from __future__ import annotations

import math
from urllib.parse import urlencode

import pytest

from app.model.evaluate import evaluate
from app.model.inputs import NUMBER_SPECS, WorkloadInputs, normalise

MAX = {"rollouts": 65_536, "prompt_tokens": 131_072, "response_tokens": 131_072, "response_max_tokens": 131_072}


def test_the_bounds_are_raised() -> None:
    assert NUMBER_SPECS["rollouts"].maximum == 65_536 and NUMBER_SPECS["rollouts"].ladder[-1] == 65_536
    for name in ("prompt_tokens", "response_tokens", "response_max_tokens"):
        assert NUMBER_SPECS[name].maximum == 131_072 and NUMBER_SPECS[name].ladder[-2:] == (65_536, 131_072)


def test_beyond_the_bounds_is_clamped_with_a_notice() -> None:
    i, notices = normalise({"rollouts": "100000", "response_tokens": "200000"})
    assert (i.rollouts, i.response_tokens, i.response_max_tokens) == (65_536, 131_072, 131_072)
    assert {(n.field, n.kind, n.used) for n in notices} >= {("rollouts", "above_max", "65536"),
                                                           ("response_tokens", "above_max", "131072")}


def _finite(node) -> bool:
    if isinstance(node, dict):
        return all(_finite(v) for v in node.values())
    if isinstance(node, list):
        return all(_finite(v) for v in node)
    return not isinstance(node, float) or math.isfinite(node)


STATES = {
    "7b_ppo_8gpus": dict(MAX),
    "7b_ppo_4096gpus": dict(MAX, gpus=4096),
    "qwen3_next_cp16": dict(MAX, method="grpo", reward="verifier", kl=0, arch="qwen3_next_80b_a3b", gpus=4096,
                            gpu="h100_80g", context_parallel=16, prompt_tokens=1024),
    "gpt_oss_120b_separate": dict(MAX, method="grpo", reward="verifier", kl=0, arch="gpt_oss_120b", gpus=1024,
                                  gpu="h200_141g", placement="separate", prompt_tokens=1024,
                                  response_tokens=65_536),
    "agentic": dict(MAX, turns=64, observation_tokens=32_768, env_latency_s=600, gpus=4096),
}


@pytest.mark.parametrize("state", STATES, ids=list(STATES))
def test_the_api_answers_at_the_maxima_with_finite_figures(client, state) -> None:
    r = client.get(f"/api/evaluate?{urlencode(STATES[state])}")
    assert r.status_code == 200
    body = r.json()
    assert _finite(body)
    est = body["estimates"]
    # a state that fits is timed; one that does not is not timed at all (no absurd number), and says so
    if est["memory"]["fits"]:
        assert est["step"]["total_s"] > 0
    else:
        assert est["step"] is None and any("nofit" in r["key"] for r in body["reasons"])


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("state", ["7b_ppo_8gpus", "qwen3_next_cp16"])
def test_the_page_renders_at_the_maxima(client, lang, state) -> None:
    r = client.get(f"/{lang}/?{urlencode(STATES[state])}")
    assert r.status_code == 200
    assert "NaN" not in r.text and "Infinity" not in r.text and "inf s" not in r.text


def test_a_128k_sequence_without_context_parallelism_does_not_fit_and_says_why() -> None:
    """A 7 B policy's one 262,144-token sequence keeps 32.7 layers · 4,096 · 2 B · 262,144 = 72.6 GB of checkpointed
    activations on one training GPU: more than an A100's 72 GB usable, at any GPU count, until context parallelism
    splits the sequence."""
    r = evaluate(WorkloadInputs(**STATES["7b_ppo_8gpus"]))
    assert not r.memory.fits and r.memory.min_gpus is None
    assert r.memory.activation_gb > r.memory.usable_gb
    split = evaluate(WorkloadInputs(**{**STATES["7b_ppo_8gpus"], "context_parallel": 16, "gpus": 64}))
    assert split.memory.activation_gb == pytest.approx(r.memory.activation_gb / 16)


def test_the_planner_and_launch_answer_at_the_maxima(client) -> None:
    q = urlencode(STATES["qwen3_next_cp16"])
    assert client.get(f"/api/plan?{q}&deadline_h=1000").status_code == 200
    r = client.get(f"/api/launch?{q}")
    assert r.status_code == 200 and _finite(r.json())
    assert client.get(f"/en/launch?{q}").status_code == 200
