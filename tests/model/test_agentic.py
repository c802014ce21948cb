"""Agentic, multi-turn rollouts (issue 36, item 7): turns, the environment's latency per turn and the observation
tokens it feeds back; the engine drains and refills between turns; the arithmetic written out and its properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.model import evaluate, normalise
from app.model.inputs import WorkloadInputs
from app.model.physics.workload import episode_tokens

approx = pytest.approx
FEW = settings(max_examples=20, deadline=None, derandomize=True, database=None)
BASE = dict(arch="qwen3_8b", gpus=8, gpu="h100_80g", method="grpo", reward="verifier", rollouts=512, group=8,
            prompt_tokens=512, response_tokens=512, response_max_tokens=2048, placement="colocated")


def result(**q: object):
    return evaluate(normalise({k: str(v) for k, v in q.items()})[0])


def test_four_turns_with_two_seconds_of_environment_against_one_turn() -> None:
    # Qwen3-8B GRPO on 8 H100s, 512 trajectories, 512 tokens per turn (longest 2,048).  One turn: generation g1.
    # Four turns, synchronous (the batch drains at every turn): turn t decodes at the context 512 + t · 512, so
    # generation = g(turn 0) + g(turn 1) + g(turn 2) + g(turn 3) > 4 · g1, with g(turn 0) = g1; the environment's 2 s
    # between turns are waited for three times: + 3 · 2 = 6 s exactly.  The sequence trained is 512 + 4 · 512 = 2,560
    # tokens against 1,024, so training and scoring grow too.
    one = result(**BASE)
    four = result(**BASE, turns=4)
    four_env = result(**BASE, turns=4, env_latency_s=2)
    assert four_env.step.gen.turns == 4 and four_env.step.gen.env_wait_s == approx(3 * 2.0)
    assert four_env.step.generation_s == approx(four.step.generation_s + 6.0)
    assert four.step.generation_s > 4 * one.step.generation_s
    assert four_env.step.total_s == approx(four.step.total_s + 6.0)
    assert four.step.training_s > 2 * one.step.training_s
    assert episode_tokens(WorkloadInputs(prompt_tokens=512, turns=4), 512) == 512 + 4 * 512 == 2_560


def test_async_agent_loops_hide_the_environment_behind_other_trajectories() -> None:
    # agent_loop=async: the step is max(Σ turns' generation, the longest trajectory's turns at a batch of one +
    # 3 · latency): 2 s per turn hides behind 512 trajectories' decoding; 600 s per turn does not
    sync = result(**BASE, turns=4, env_latency_s=2, observation_tokens=256)
    hidden = result(**BASE, turns=4, env_latency_s=2, observation_tokens=256, agent_loop="async")
    slow = result(**BASE, turns=4, env_latency_s=600, observation_tokens=256, agent_loop="async")
    assert hidden.step.gen.env_wait_s == 0.0
    assert hidden.step.generation_s == approx(sync.step.generation_s - 6.0)
    assert slow.step.generation_s == approx(slow.step.gen.tail_floor_s + 3 * 600)
    assert slow.step.gen.env_wait_s > 0


def test_the_plan_names_the_episode() -> None:
    p = result(**BASE, turns=4, env_latency_s=2, observation_tokens=256, agent_loop="async").plan
    assert (p.batch.turns, p.batch.agent_loop, p.batch.env_latency_s, p.batch.observation_tokens) == (
        4, "async", 2.0, 256)
    assert result(**BASE).plan.batch.turns == 1
    q = normalise({"turns": "4", "env_latency_s": "2"})[0].query()
    assert q["turns"] == "4" and q["env_latency_s"] == "2" and "observation_tokens" not in q
    assert "turns" not in normalise({})[0].query()


# --- properties ----------------------------------------------------------------------------------------------------

_STATES = st.fixed_dictionaries({
    "arch": st.sampled_from(["qwen3_8b", "qwen3_30b_a3b", "llama3_8b"]),
    "gpus": st.sampled_from([8, 16, 32]),
    "placement": st.sampled_from(["colocated", "separate"]),
    "loop": st.sampled_from(["sync", "async"]),
    "obs": st.sampled_from([0, 256, 1024]),
})


def _q(s: dict, **more: object) -> dict:
    return {**BASE, "arch": s["arch"], "gpus": s["gpus"], "placement": s["placement"], "agent_loop": s["loop"],
            "observation_tokens": s["obs"], **more}


@FEW
@given(s=_STATES, turns=st.integers(1, 6), more=st.integers(0, 3), latency=st.sampled_from([0.0, 1.0, 5.0]))
def test_more_turns_never_shorten_a_step(s: dict, turns: int, more: int, latency: float) -> None:
    a = result(**_q(s, turns=turns, env_latency_s=latency))
    b = result(**_q(s, turns=turns + more, env_latency_s=latency))
    if a.step and b.step:
        assert b.step.total_s >= a.step.total_s * (1 - 1e-9)


@FEW
@given(s=_STATES, turns=st.integers(2, 6), latency=st.floats(0.0, 30.0), more=st.floats(0.0, 30.0))
def test_more_environment_latency_never_shortens_a_step(s: dict, turns: int, latency: float, more: float) -> None:
    a = result(**_q(s, turns=turns, env_latency_s=round(latency, 3)))
    b = result(**_q(s, turns=turns, env_latency_s=round(latency + more, 3)))
    if a.step and b.step:
        assert b.step.total_s >= a.step.total_s * (1 - 1e-9)


def test_the_environment_wait_is_not_counted_as_the_tail() -> None:
    # Qwen3-8B GRPO, 4 turns, 5 s of environment per turn, synchronous loop: generation waits 3 · 5 = 15 s for the
    # environment; that is no response's length, so the tail (generation − the batch's own time − the wait) is what
    # the longest responses add and the 15 s is its own field and its own chart part.
    r = result(**BASE, turns=4, env_latency_s=5, agent_loop="sync")
    assert r.step.env_wait_s == approx(15.0) == approx(r.step.gen.env_wait_s)
    assert r.step.tail_s == approx(max(0.0, r.step.gen.seconds - r.step.gen.throughput_s - 15.0))
    no_env = result(**BASE, turns=4, agent_loop="sync")
    assert r.step.tail_s == approx(no_env.step.tail_s)


def test_launch_says_every_framework_runs_single_turn_rollouts(client) -> None:
    # the plan's 4 turns reach each command's unmapped list (an environment is the user's code); 1 turn: no note
    body = client.get("/api/launch?turns=4&method=grpo&reward=verifier&kl=0.001").json()
    for framework in ("verl", "openrlhf", "trl"):
        unmapped = {u["field"]: u for u in body["frameworks"][framework]["unmapped"]}
        assert unmapped["turns"]["key"] == f"launch.unmapped.{framework}.turns", framework
    plain = client.get("/api/launch?method=grpo&reward=verifier&kl=0.001").json()["frameworks"]
    assert all(u["field"] != "turns" for f in plain.values() for u in f["unmapped"])


def test_the_rollout_node_says_what_holds_generation() -> None:
    # walkthrough step 13: 420 s of its 600 s of generation wait for the sandbox, 74 s for the longest responses:
    # the rollout node names the environment; one turn with a long tail names the tail
    from app.model.scenarios import WALKTHROUGH
    agentic = evaluate(WALKTHROUGH[12].inputs)
    assert agentic.step.env_wait_s > agentic.step.tail_s > 0
    assert agentic.nodes["rollout_gen"].note == "env"
    tail = result(**{**BASE, "response_max_tokens": 4096})
    assert tail.step.env_wait_s == 0 < tail.step.tail_s and tail.nodes["rollout_gen"].note == "tail"


@pytest.mark.parametrize(("q", "key"), [
    (dict(kl=0.0), "why.placement.separate_no_score"),     # the defaults' 7 B with a verifier, no reference: 7 + 9
    (dict(kl=0.001), "why.placement.separate"),            # the reference's forwards get GPUs of their own
])
def test_the_separate_placement_line_never_counts_zero_scoring_gpus(q: dict, key: str) -> None:
    r = result(placement="separate", method="grpo", reward="verifier", gpus=16, **q)
    assert (r.step.groups.scoring == 0) == (key == "why.placement.separate_no_score")
    assert key in [x.key for x in r.reasons]


def test_the_memory_line_under_a_reservation_says_what_is_in_use() -> None:
    # the defaults (7 B PPO, vLLM colocated on 8 A100 80GB): nvidia-smi shows the engine's reservation, the line
    # quotes it and what is in use beside it, and the meter's value is the share in use
    from app.i18n import translator
    from app.model import DEFAULTS

    r = evaluate(DEFAULTS)
    m = r.meters["train_memory"]
    assert m.reserved and "why.memory.fits_reserved" in [x.key for x in r.reasons]
    text = translator("zh")("why.memory.fits_reserved", **m.figure_args)
    gb = translator("zh").fmt("gb", m.figure_args["need_gb"])
    assert f"实际在用 {gb}" in text and "nvidia-smi" in text
