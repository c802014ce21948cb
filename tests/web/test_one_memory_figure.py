"""One memory figure per state: the memory meter, the memory chart and the API quote the plan's
``memory_per_gpu_gb`` (the fullest GPU at its fullest phase as nvidia-smi would show it for the exported command),
and the chart breaks it down by phase.  A reader that quoted another figure (the states alone, the training peak
before the engine's reservation, the lanes' total) fails here."""

from __future__ import annotations

import re

import pytest
from support.page_text import meter as _meter
from support.page_text import query as _q
from support.page_text import text as _text

from app.i18n import translator
from app.model import evaluate
from app.model.scenarios import PRESETS, WALKTHROUGH

STATES = [p.inputs for p in PRESETS] + [s.inputs for s in WALKTHROUGH]


@pytest.mark.parametrize("i", STATES, ids=[f"s{k}" for k in range(len(STATES))])
def test_the_meter_the_chart_and_the_api_quote_the_plans_one_memory_figure(client, i) -> None:
    r = evaluate(i)
    p = r.plan
    # a state that does not fit: its plan is the run on its fewest GPUs that fit, while its own page shows its own
    # GPUs (over the line); both are one figure, the largest of their phases
    own = p.timed_gpus == r.inputs.gpus
    figure, phases = (p.memory_per_gpu_gb, p.memory_by_phase) if own else (r.cost.per_gpu_gb, r.cost.memory_by_phase)
    assert figure == max(x.gb for x in phases)
    assert not own or (r.cost.per_gpu_gb, r.cost.memory_by_phase) == (p.memory_per_gpu_gb, p.memory_by_phase)
    t = translator("en")
    shown = t.fmt("gb", figure)
    assert r.meters["train_memory"].figure_args["per_gpu_gb"] == figure
    # the page: the meter's figure and the chart's nvidia-smi line carry the same number
    body = client.get(f"/en/?{_q(i)}").text
    assert shown in _meter(body, "train_memory")
    row = re.search(r'<tr class="mem-peak"[^>]*>(.*?)</tr>', body, re.S)
    assert row, "the memory chart's nvidia-smi row"
    peak = _text(row.group(1))
    assert shown in peak
    for x in phases:
        assert t.fmt("gb", x.gb) in peak
    # the API: the plan's figure
    assert client.get(f"/api/evaluate?{_q(i)}").json()["plan"]["memory_per_gpu_gb"] == pytest.approx(
        p.memory_per_gpu_gb)


def test_a_colocated_engine_is_counted_with_its_whole_reservation() -> None:
    """GRPO preset, 16 × H100 colocated: vLLM reserves gpu_memory_utilization × 80 GB = 0.6 × 80 = 48 GB on every GPU
    while it generates, beside the FSDP states the trainer keeps (policy 16 B × 8.2 B / 16 + reference 2 B × 8.2 B /
    16 ≈ 9.2 GB): ≈ 57.2 GB, what nvidia-smi shows; training needs only ≈ 16.5 GB."""
    r = evaluate(next(p for p in PRESETS if p.id == "grpo").inputs)
    by = {x.phase: x.gb for x in r.plan.memory_by_phase}
    assert r.plan.engine.gpu_memory_utilization == 0.6
    assert by["generation"] == pytest.approx(48.0 + r.step.training_layout.states_gb)
    assert by["generation"] == pytest.approx(57.2, abs=0.1) and by["training"] == pytest.approx(16.5, abs=0.1)
    assert r.plan.memory_per_gpu_gb == by["generation"]


def test_hf_generate_reserves_nothing_and_is_counted_once() -> None:
    """The default 7 B PPO on 8 × A100 80 GB with HF generate, colocated: the FSDP states stay on each GPU
    (actor + critic 16 B × 7 B × 2 / 8 = 28 GB, reference + reward 2 B × 7 B × 2 / 8 = 3.5 GB: 31.5 GB), the
    actor's bf16 weights are gathered for generate (2 B × 7 B = 14 GB) and the batch's KV comes on top (3.3 GB):
    ≈ 48.8 GB — below the 72 GB usable, no reservation.  Counting the states twice gave 80.3 GB (112 % of usable)
    on a state the page said fits (zh-read-10, §4.2)."""
    from app.model import normalise

    i, _ = normalise({"engine": ["hf"]})
    r = evaluate(i)
    by = {x.phase: x.gb for x in r.plan.memory_by_phase}
    kv = r.memory.kv_gb_per_replica / (r.step.gen.tensor_parallel * r.step.gen.pipeline)
    assert r.step.training_layout.states_gb == pytest.approx(31.5)
    assert by["generation"] == pytest.approx(31.5 + 14.0 + kv)
    assert by["generation"] == pytest.approx(48.8, abs=0.1)
    assert r.plan.memory_per_gpu_gb == pytest.approx(r.cost.need_gb)
    assert not r.meters["train_memory"].reserved
    assert r.plan.fits and r.plan.memory_per_gpu_gb <= r.plan.usable_gb


NOT_FIT = [{"gpus": ["1"]}, {"policy_b": ["70"], "gpus": ["8"]},
           {"policy_b": ["70"], "gpus": ["8"], "placement": ["separate"]}, {"engine": ["hf"], "gpus": ["2"]},
           {"arch": ["deepseek-v3"], "gpus": ["16"]}]


@pytest.mark.parametrize("q", [None, *NOT_FIT], ids=["states", *(f"nofit{k}" for k in range(len(NOT_FIT)))])
def test_the_figure_is_never_below_a_lane_of_the_same_page(q) -> None:
    """The memory chart's lanes (what each GPU group has in use) and the nvidia-smi figure are on one page: a
    reservation can show more than is in use, never less — a state with no room to reserve shows its lane (1 GPU,
    7 B PPO: 252 GB of states + 14 GB of engine weights + KV ≈ 266 GB, not the 252 GB the empty reservation gave)."""
    from app.model import normalise

    states = STATES if q is None else [normalise(q)[0]]
    for i in states:
        r = evaluate(i)
        if not r.plan.rl or r.memory is None:
            continue
        lanes = max(ln.total_gb for ln in r.memory.lanes)
        assert r.cost.per_gpu_gb >= lanes - 1e-9, i.query()
