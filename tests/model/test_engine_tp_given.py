"""The engine's tensor parallelism as a recipe fixes it (``engine_tp``; physics.generation.pinned_tp_options):
run as given, capped where the lab's engine cannot go, widened where the instance would not fit — and said so."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.model import evaluate, normalise
from app.model.physics.generation import engine_tp_case

FEW = settings(max_examples=20, deadline=None, derandomize=True, database=None)


def result(**q: object):
    return evaluate(normalise({k: str(v) for k, v in q.items()})[0])


# NeMo RL's Qwen3-30B-A3B on-policy recipe (grpo-qwen3-30ba3b-4n8g.yaml, v0.5.0): 32 H100s colocated, vLLM TP 2
NEMO_30B = dict(arch="qwen3_30b_a3b", gpu="h100_80g", gpus=32, method="grpo", reward="verifier",
                placement="colocated", rollouts=2048, group=32, prompt_tokens=120, response_tokens=3196,
                response_max_tokens=4096, optimizer_steps=4, kl=0.01)


def test_a_given_degree_runs_as_given() -> None:
    searched, pinned = result(**NEMO_30B), result(**NEMO_30B, engine_tp=2)
    assert searched.step.gen.tensor_parallel == 4                 # the lab's fastest: shorter tail at TP 4
    assert (pinned.step.gen.tensor_parallel, pinned.step.gen.replicas) == (2, 16)  # 32 GPUs / TP 2
    assert engine_tp_case(2, pinned.step.gen) == "given"
    assert engine_tp_case(0, searched.step.gen) == ""
    # at TP 2 a replica's KV cache is 2 · (48 − 30.5) = 35 GB: 35 GB / (≈ 3,200 tokens · 98,304 B a token) ≈ 111
    # sequences, fewer than the 2,048 / 16 = 128 it gets, so it decodes them in 2 waves of 64; at TP 4 one replica
    # holds 4 · 32.75 = 131 GB, ≈ 416 sequences, and its 256 run in one wave: generation more than doubles
    assert (pinned.step.gen.waves, pinned.step.gen.batch) == (2, 64)
    assert (searched.step.gen.waves, searched.step.gen.batch) == (1, 256)
    assert pinned.step.generation_s > 2 * searched.step.generation_s


def test_a_degree_beyond_the_nvlink_domain_is_capped() -> None:
    # NeMo RL runs DeepSeek-V3 at vLLM TP 32 across 4 HGX nodes; the lab's engine keeps TP inside the 8-GPU node
    # and takes pipeline stages instead (1,342 GB / 48 GB usable: TP 8 × PP 4)
    r = result(arch="deepseek_v3", gpu="h100_80g", gpus=256, method="grpo", reward="verifier",
               placement="colocated", rollouts=512, group=16, prompt_tokens=120, response_tokens=744,
               response_max_tokens=1536, engine_tp=32)
    assert (r.step.gen.tensor_parallel, r.step.gen.pipeline) == (8, 4)
    assert engine_tp_case(32, r.step.gen) == "capped"


def test_a_degree_too_narrow_for_the_weights_is_widened() -> None:
    # Qwen3-235B-A22B in bf16 is 470 GB: on one 80 GB H100 (48 GB for a colocated engine) it cannot run at TP 1;
    # the narrowest degree whose instance holds the weights and a sequence's KV is taken instead
    q = dict(arch="qwen3_235b_a22b", gpu="h100_80g", gpus=128, method="grpo", reward="verifier",
             placement="colocated", rollouts=512, group=32, prompt_tokens=120, response_tokens=5700,
             response_max_tokens=8192)
    r = result(**q, engine_tp=1)
    assert r.step.gen.tensor_parallel * r.step.gen.pipeline * 48 >= 470
    assert engine_tp_case(1, r.step.gen) == "widened"
    assert r.memory.fits == result(**q).memory.fits               # the fit test does not depend on it


@FEW
@given(st.sampled_from(["llama3_8b", "qwen25_7b", "qwen3_32b", "qwen3_30b_a3b"]), st.sampled_from([1, 2, 8, 16, 64]),
       st.sampled_from([1, 2, 4, 8, 16, 64]), st.sampled_from(["h100_80g", "a100_80g", "gb200_186g"]))
def test_a_given_degree_never_beats_the_searched_one(arch: str, gpus: int, tp: int, gpu: str) -> None:
    # colocated, the same GPU counts are tried either way and the step grows with generation: the searched engine
    # (the fastest fitting degree) is never slower than the given one, and the fit never depends on it
    q = dict(arch=arch, gpus=gpus, gpu=gpu, method="grpo", reward="verifier", placement="colocated",
             response_tokens=1024, response_max_tokens=4096)
    searched, pinned = result(**q), result(**q, engine_tp=tp)
    assert searched.memory.fits == pinned.memory.fits
    if searched.memory.fits:
        assert searched.step.total_s <= pinned.step.total_s * (1 + 1e-9)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_says_when_the_degree_moved(client, lang: str) -> None:
    capped = client.get(f"/{lang}/?arch=deepseek_v3&gpu=h100_80g&gpus=256&method=grpo&reward=verifier"
                        "&placement=separate&engine_tp=32").text
    widened = client.get(f"/{lang}/?arch=qwen3_235b_a22b&gpu=h100_80g&gpus=128&method=grpo&reward=verifier"
                         "&engine_tp=1").text
    given_ = client.get(f"/{lang}/?arch=qwen3_30b_a3b&gpu=h100_80g&gpus=32&method=grpo&engine_tp=2").text
    asked = {"en": "used", "zh": "实际用"}[lang]
    assert 'class="ph-engine-tp"' in capped and "32" in capped.split('class="ph-engine-tp"')[1][:400]
    assert 'class="ph-engine-tp"' in widened and asked in widened.split('class="ph-engine-tp"')[1][:600]
    assert 'class="ph-engine-tp"' not in given_


def test_the_api_refuses_a_degree_out_of_range(client) -> None:
    r = client.get("/api/evaluate?engine_tp=65")
    assert r.status_code == 422 and any("engine_tp" in e["loc"] for e in r.json()["detail"])
    assert client.get("/api/evaluate?engine_tp=2&arch=qwen3_8b&gpus=8").status_code == 200
