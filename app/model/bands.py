"""The model's calibration bands by kind of run: on the published rows of a kind (app/model/published_runs.py, the
rows the lab can enter with a published step time), how far the lab's step has been from the published one —
the lowest, the highest and the median of lab step / published step.  The planner quotes the band of each option's
kind beside its figures (GPU type, and on GB200 dense or mixture-of-experts).

``row_query`` enters a published row in the lab exactly as tests/model/test_frontier.py's ``row_inputs`` does
(tests/model/test_planner.py checks the two agree row by row); the bands are computed once, on first use.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from functools import cache

from app.model.assumptions import ARCHS
from app.model.evaluate import evaluate
from app.model.inputs import WorkloadInputs, normalise
from app.model.physics.architecture import policy_arch
from app.model.published_runs import RUNS, PublishedRun

KINDS = ("h100", "h20", "gb200_dense", "gb200_moe", "all")


@dataclass(frozen=True, slots=True, kw_only=True)
class Band:
    """On ``rows`` published rows of this kind the lab's step was ``low``–``high`` × the published (``median``)."""

    kind: str
    low: float
    high: float
    median: float
    rows: int


def row_query(r: PublishedRun) -> dict[str, str]:
    """A published row as lab inputs: its model, GPUs, batch, lengths, optimizer steps, KL, staleness, offload and
    LoRA as the row (or its recipe) gives them; a verifier reward (math and code rewards)."""
    q: dict[str, object] = dict(arch=r.arch, method="grpo", gpu=r.gpu, gpus=r.gpus, reward="verifier",
                                placement="colocated" if r.colocated in (True, None) else "separate")
    if r.responses_per_step:
        q["rollouts"] = min(r.responses_per_step, 8192)
    if r.group:
        q["group"] = r.group
    prompt = r.prompt_mean_tokens or r.prompt_max_tokens
    if prompt:
        q["prompt_tokens"] = int(prompt)
    if r.response_mean_tokens:
        q["response_tokens"] = int(r.response_mean_tokens)
    if r.response_max_tokens:
        q["response_max_tokens"] = r.response_max_tokens
    if r.optimizer_steps:
        q["optimizer_steps"] = r.optimizer_steps
    if r.kl is not None:
        q["kl"] = r.kl
    if r.staleness:
        q["staleness"], q["placement"] = min(r.staleness, 8), "separate"
    if r.colocated is False and r.gen_gpus:
        q["generation_gpus"] = r.gen_gpus
    if r.gen_tp:
        q["engine_tp"] = r.gen_tp
    if r.gen_release:
        q["engine_release"] = r.gen_release
    if r.partial_rollouts:
        q["partial_rollouts"] = "on"
    if r.rollout_dtype == "fp8":
        q["rollout_dtype"] = "fp8"
    if r.oversample:
        q["oversample"] = r.oversample
    if r.offload:
        q["offload"] = r.offload
    if r.lora:
        q["tuning"] = "lora"
    return {k: str(v) for k, v in q.items()}


def kind_of(gpu: str, moe: bool) -> str:
    """The kind of run a GPU type and a policy make: H100, H20 and GB200 (dense or MoE) have rows of their own.

    >>> kind_of("h100_80g", True), kind_of("gb200_186g", True), kind_of("b200_180g", False)
    ('h100', 'gb200_moe', 'all')
    """
    if gpu == "h100_80g":
        return "h100"
    if gpu == "h20_96g":
        return "h20"
    if gpu == "gb200_186g":
        return "gb200_moe" if moe else "gb200_dense"
    return "all"


@cache
def bands() -> dict[str, Band]:
    """Every kind's band, from every enterable row with a published step time (about 60 evaluations, once)."""
    ratios: dict[str, list[float]] = {k: [] for k in KINDS}
    for r in RUNS:
        step = r.figure("step_s")
        if r.arch not in ARCHS or r.gpu is None or step is None:
            continue
        ratio = evaluate(normalise(row_query(r))[0]).step.total_s / step
        ratios[kind_of(r.gpu, ARCHS[r.arch].moe)].append(ratio)
        ratios["all"].append(ratio)
    out = {}
    for k, xs in ratios.items():
        xs = xs or ratios["all"]
        out[k] = Band(kind=k, low=min(xs), high=max(xs), median=statistics.median(xs), rows=len(xs))
    return out


def band_of(inputs: WorkloadInputs, gpu: str) -> Band:
    """The band of an option's kind of run (its GPU type; on GB200, whether the policy is a mixture of experts)."""
    return bands()[kind_of(gpu, policy_arch(inputs).moe)]
