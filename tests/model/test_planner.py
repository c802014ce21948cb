"""The run planner (app/model/planner.py): the search, its pruning, the choices, with the arithmetic written out,
properties of the frontier and of the choices, and a brute-force grid the planner must match or beat."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.model import WorkloadInputs, evaluate
from app.model.assumptions import GPUS
from app.model.planner import (
    DEFAULT_PRICES,
    NODE_LADDER,
    PRICES,
    Option,
    PlanQuery,
    choose,
    counts_of,
    normalise_plan,
    pareto,
    plan,
    plan_query,
    variants,
)

approx = pytest.approx
FEW = settings(max_examples=12, deadline=None, derandomize=True, database=None)

# The engineer's run 1 (shared/reviews/engineer-2026-12-03.md): Qwen3-8B GRPO, a math verifier, 2,048 rollouts per
# step, 256 prompts × 8, DAPO-Math-17k sized.
RUN1 = WorkloadInputs(method="grpo", reward="verifier", arch="qwen3_8b", gpu="h100_80g", gpus=16, rollouts=2048,
                      group=8, prompt_tokens=512, response_tokens=3000, response_max_tokens=8192, kl=0.001,
                      prompts=17000, passes=1)
SMALL = PlanQuery(max_gpus=64)  # 1–8 nodes: a quick search for the tests that search many times


def _opt(gpu: str, gpus: int, hours: float | None, price: float = 1.0, placement: str = "colocated") -> Option:
    fits = hours is not None
    return Option(gpu=gpu, gpus=gpus, nodes=gpus // GPUS[gpu].node_gpus, placement=placement, staleness=0,
                  offload="none", tuning="full", fits=fits, hours=hours, gpu_hours=hours * gpus if fits else None,
                  cost_usd=hours * gpus * price if fits else None, steps=1 if fits else None,
                  step_s=3600.0 * hours if fits else None, memory_per_gpu_gb=10.0, usd_per_gpu_hour=price,
                  inputs=WorkloadInputs(gpu=gpu, gpus=gpus))


@pytest.fixture(scope="module")
def run1():
    return plan(RUN1)


# --- the arithmetic ----------------------------------------------------------------------------------------------


def test_an_options_cost_is_its_hours_times_its_gpus_times_the_price(run1) -> None:
    # H100 × 16, colocated: the model's run hours on 16 GPUs, × 16 GPUs × $3.99 per GPU-hour (Lambda's 8x H100 SXM)
    o = next(o for o in run1.options if (o.gpu, o.gpus, o.placement) == ("h100_80g", 16, "colocated"))
    run = evaluate(RUN1.model_copy(update={"gpus": 16, "placement": "colocated"})).run
    assert o.fits and o.hours == run.hours and o.steps == run.steps == 67  # 17,000 × 8 / 2,048 = 66.4 → 67 steps
    assert PRICES["h100_80g"].usd_per_gpu_hour == 3.99
    assert o.cost_usd == approx(run.hours * 16 * 3.99)
    for o in run1.fitting:
        assert o.cost_usd == approx(o.hours * o.gpus * o.usd_per_gpu_hour)
        assert o.nodes * GPUS[o.gpu].node_gpus == o.gpus  # whole nodes


def test_cheapest_fastest_and_frontier_on_four_options_written_out() -> None:
    # a: 8 GPUs × 10 h × $1 = $80   b: 16 × 6 h × $1 = $96   c: 32 × 4 h × $1 = $128   d: 16 × 7 h × $1 = $112
    a, b, c, d = (_opt("h100_80g", 8, 10.0), _opt("h100_80g", 16, 6.0), _opt("h100_80g", 32, 4.0),
                  _opt("a100_80g", 16, 7.0))
    none = _opt("a100_40g", 8, None)  # does not fit: never chosen, never on the frontier
    opts = (a, b, c, d, none)
    assert [o.cost_usd for o in (a, b, c, d)] == [80.0, 96.0, 128.0, 112.0]
    got = choose(opts, deadline_h=8.0, budget_usd=100.0)
    # within 8 h: b ($96), c ($128), d ($112) → cheapest b; within $100: a (10 h), b (6 h) → fastest b
    assert got["cheapest"] is b and got["fastest"] is b and got["closest_to_deadline"] is None
    # d (7 h, $112) is beaten by b (6 h, $96): off the frontier; a, b, c each faster than every cheaper one
    assert pareto(opts) == (a, b, c)
    late = choose(opts, deadline_h=3.0, budget_usd=50.0)
    # nothing within 3 h: the closest is c at 4 h, late by 4 − 3 = 1 h; nothing within $50: the cheapest a, over by $30
    assert late["cheapest"] is None and late["closest_to_deadline"] is c and late["late_by_h"] == approx(1.0)
    assert late["fastest"] is None and late["closest_to_budget"] is a and late["over_budget_by_usd"] == approx(30.0)


def test_cheapest_is_the_least_cost_among_the_options_that_fit_and_meet_the_deadline(run1) -> None:
    in_time = [o for o in run1.options if o.fits and o.hours <= run1.query.deadline_h]
    assert run1.cheapest is not None and run1.cheapest.cost_usd == min(o.cost_usd for o in in_time)
    within = [o for o in run1.options if o.fits and o.cost_usd <= run1.query.budget_usd]
    assert run1.fastest is not None and run1.fastest.hours == min(o.hours for o in within)


def test_the_search_covers_every_gpu_type_whole_nodes_and_both_placements(run1) -> None:
    s = run1.searched
    assert s.gpus == tuple(GPUS) and len(GPUS) == 7 and not s.cut
    assert {o.gpu for o in run1.options} == set(GPUS)
    assert {o.placement for o in run1.options} == {"colocated", "separate"}
    assert s.variants == ("colocated-s0-none-full", "separate-s0-none-full")  # no opt-in: the workload's own only
    # 1 node up to the bound (1,024 GPUs): 8, 16, 24, 32, 48, …, 1,024 on HGX; 4, 8, 12, … on GB200's trays
    assert counts_of("h100_80g", 1024) == tuple(8 * n for n in NODE_LADDER[:14])  # 1 … 128 nodes
    assert counts_of("gb200_186g", 1024)[:4] == (4, 8, 12, 16)
    assert {o.gpus for o in run1.options if o.gpu == "h100_80g"} == set(counts_of("h100_80g", 1024))


def test_a_count_below_the_fewest_gpus_that_fit_is_pruned_and_does_not_fit() -> None:
    # Llama-3.1-70B GRPO colocated on A100 80GB: the fewest GPUs that fit, in whole nodes, is 4 nodes = 32 GPUs (the
    # plan's min_gpus; 27 GPUs before the rounding), the first count searched; 8, 16 and 24 are pruned, and 24 does not
    # fit
    w = WorkloadInputs(arch="llama3_70b", method="grpo", reward="verifier", gpu="a100_80g")
    p = plan(w, SMALL)
    first = min(o.gpus for o in p.options if o.gpu == "a100_80g" and o.placement == "colocated")
    r = evaluate(w.model_copy(update={"gpus": 8}))
    assert r.plan.min_gpus == 32 == math.ceil(27 / 8) * 8
    assert first == 32 and p.searched.pruned_below_min > 0
    assert not evaluate(w.model_copy(update={"gpus": 24})).cost.fits


def test_opt_ins_add_their_variants_and_only_then() -> None:
    base = WorkloadInputs(method="grpo", reward="verifier", arch="qwen3_8b")
    assert variants(base, PlanQuery(), "rl") == ((("colocated", 0, "full"), ("none",)),
                                                 (("separate", 0, "full"), ("none",)))
    every = variants(base, PlanQuery(allow_staleness=True, allow_offload=True, allow_lora=True), "rl")
    # staleness 1 runs separately only; each of (placement, staleness) × (full, lora), all three offloads
    assert [v for v, _ in every] == [("colocated", 0, "full"), ("colocated", 0, "lora"), ("separate", 0, "full"),
                                     ("separate", 0, "lora"), ("separate", 1, "full"), ("separate", 1, "lora")]
    assert {offs for _, offs in every} == {("none", "optimizer", "params")}
    # DPO has no placement to search
    assert variants(WorkloadInputs(method="dpo"), PlanQuery(), "dpo") == ((("colocated", 0, "full"), ("none",)),)


def test_nothing_fits_is_said_and_no_hours_are_given() -> None:
    # Kimi-K2 (1,026 B) on one node of anything: nothing fits
    p = plan(WorkloadInputs(arch="kimi_k2", method="grpo", reward="verifier"), PlanQuery(max_gpus=8))
    assert p.status == "nothing_fits" and p.cheapest is None and p.fastest is None and p.frontier == ()
    assert all(o.hours is None and o.cost_usd is None for o in p.options)


def test_nothing_meets_the_deadline_says_what_comes_closest_and_by_how_much() -> None:
    p = plan(RUN1, PlanQuery(deadline_h=0.01, max_gpus=64))
    fastest = min(o.hours for o in p.fitting)
    assert p.status == "late" and p.cheapest is None
    assert p.closest_to_deadline.hours == fastest and p.late_by_h == approx(fastest - 0.01)


def test_a_state_that_trains_no_loop_has_nothing_to_plan() -> None:
    p = plan(WorkloadInputs(pairs=0, rollouts=0))  # SFT only
    assert p.status == "no_loop" and p.options == () and p.searched.evaluations == 0


def test_the_search_is_bounded_and_says_when_it_was_cut(monkeypatch) -> None:
    import app.model.planner as planner

    monkeypatch.setattr(planner, "MAX_EVALUATIONS", 10)
    p = planner.plan(RUN1, SMALL)
    assert p.searched.cut and p.searched.evaluations <= 10


def test_the_plan_query_is_clamped_on_the_page() -> None:
    q, notices = normalise_plan({"deadline_h": "1e9", "budget_usd": "-5", "max_gpus": "12.4", "price_b200_180g": "2",
                                 "allow_offload": "on"})
    assert (q.deadline_h, q.budget_usd, q.max_gpus, q.price("b200_180g"), q.allow_offload) == (
        100_000.0, 0.0, 12, 2.0, True)
    assert [(n.field, n.kind) for n in notices] == [("deadline_h", "above_max"), ("budget_usd", "below_min"),
                                                    ("max_gpus", "rounded")]
    assert plan_query().prices == DEFAULT_PRICES


# --- what the pruning rests on ------------------------------------------------------------------------------------

def test_offload_is_searched_where_less_offload_fits_too() -> None:
    """Offload can shorten a step (the memory it frees buys a larger micro-batch, a larger KV cache or another
    layout): Qwen2.5-32B PPO colocated on 32 A100 40GB times 121.7 s without offload and 108.0 s with the optimizer's
    states offloaded, so the planner does not prune offload where less offload fits.  (119.0 and 105.3 s before the
    refit mechanism: its refit was each GPU's slice over NVLink, 65 GB / 8 / 231 GB/s = 0.035 s; now the 32 GPUs'
    shards are gathered over InfiniBand, 65 · 31 / 32 / 25 = 2.519 s, converted 2 · 65 / 1,555 = 0.084 s and 579
    tensors loaded at 0.25 ms = 0.145 s: 2.747 s, 2.712 s more in both.)"""
    q = dict(arch="qwen25_32b", gpu="a100_40g", gpus=32, placement="colocated", method="ppo", reward="verifier")
    none, opt = (evaluate(WorkloadInputs(**q, offload=o)).cost for o in ("none", "optimizer"))
    assert none.fits and opt.fits and opt.step_s < none.step_s
    assert none.step_s == approx(119.00 + 2.712, abs=0.01) and opt.step_s == approx(105.29 + 2.712, abs=0.01)
    p = plan(WorkloadInputs(**q), PlanQuery(allow_offload=True, max_gpus=32))
    found = {(o.gpu, o.gpus, o.placement, o.offload) for o in p.options}
    assert {("a100_40g", 32, "colocated", "none"), ("a100_40g", 32, "colocated", "optimizer")} <= found


# --- properties ------------------------------------------------------------------------------------------------

WORKLOADS = st.fixed_dictionaries({
    "arch": st.sampled_from(["qwen3_8b", "llama3_8b", "qwen25_32b", "llama3_70b", "qwen3_30b_a3b"]),
    "method": st.sampled_from(["ppo", "grpo", "dpo"]),
    "rollouts": st.sampled_from([256, 1024, 4096]),
    "response_tokens": st.sampled_from([512, 2048]),
    "prompts": st.sampled_from([5_000, 31_000]),
})


@FEW
@given(WORKLOADS, st.floats(0.5, 200), st.floats(10, 1e5))
def test_no_frontier_point_is_dominated_and_the_cheapest_meets_the_deadline(w: dict, deadline: float,
                                                                            budget: float) -> None:
    p = plan(WorkloadInputs(**w, reward="verifier"), PlanQuery(deadline_h=deadline, budget_usd=budget, max_gpus=64))
    fit = p.fitting
    for f in p.frontier:
        assert f.fits
        assert not any(o.hours <= f.hours and o.cost_usd <= f.cost_usd and (o.hours < f.hours or o.cost_usd < f.cost_usd)
                       for o in fit)
    # every option that fits is on the frontier or beaten by a frontier point
    for o in fit:
        assert any(f.hours <= o.hours and f.cost_usd <= o.cost_usd for f in p.frontier)
    if p.cheapest is not None:
        assert p.cheapest.hours <= deadline and p.cheapest in p.frontier
    else:
        assert all(o.hours > deadline for o in fit)
    if p.fastest is not None:
        assert p.fastest.cost_usd <= budget


@pytest.fixture(scope="module")
def run1_small():
    return plan(RUN1, SMALL)


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(st.floats(0.05, 50), st.floats(0.0, 50))
def test_raising_the_deadline_never_raises_the_cheapest_cost(run1_small, deadline: float, more: float) -> None:
    a = choose(run1_small.options, deadline, 1e9)["cheapest"]
    b = choose(run1_small.options, deadline + more, 1e9)["cheapest"]
    if a is not None:
        assert b is not None and b.cost_usd <= a.cost_usd


@FEW
@given(st.sampled_from(list(GPUS)), st.floats(1.1, 5.0), st.floats(0.5, 30))
def test_raising_one_gpu_types_price_never_makes_that_type_cheaper(gpu: str, factor: float, deadline: float) -> None:
    base = PlanQuery(deadline_h=deadline, max_gpus=64)
    dearer = plan_query(deadline_h=deadline, max_gpus=64, prices={gpu: base.price(gpu) * factor})
    a, b = plan(RUN1, base), plan(RUN1, dearer)

    def cheapest_of_type(p):  # noqa: ANN001, ANN202
        return min((o.cost_usd for o in p.fitting if o.gpu == gpu and o.hours <= deadline), default=None)

    ca, cb = cheapest_of_type(a), cheapest_of_type(b)
    assert (ca is None) == (cb is None)
    if ca is not None:
        assert cb == approx(ca * factor) and cb >= ca
    if a.cheapest is not None and a.cheapest.gpu != gpu:
        assert b.cheapest is not None and b.cheapest.gpu != gpu  # the type was not the cheapest, and is not now


# --- brute force --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("deadline", [2.0, 8.0, 48.0])
def test_the_planners_cheapest_is_the_brute_force_grids_cheapest_or_better(deadline: float) -> None:
    """Seven GPU types × five node counts (1, 2, 4, 8, 16 nodes) × two placements, each evaluated directly."""
    grid = []
    for gpu, spec in GPUS.items():
        for nodes in (1, 2, 4, 8, 16):
            for placement in ("colocated", "separate"):
                gpus = nodes * spec.node_gpus
                r = evaluate(RUN1.model_copy(update={"gpu": gpu, "gpus": gpus, "placement": placement}))
                if r.cost.fits and r.timed_gpus == gpus and r.run.hours <= deadline:
                    grid.append(r.run.hours * gpus * PRICES[gpu].usd_per_gpu_hour)
    p = plan(RUN1, PlanQuery(deadline_h=deadline, max_gpus=128))
    if grid:
        assert p.cheapest is not None and p.cheapest.cost_usd <= min(grid) * (1 + 1e-9)
    else:
        assert p.cheapest is None or p.cheapest.hours <= deadline


# --- the calibration bands ------------------------------------------------------------------------------------------



def test_each_band_is_the_spread_of_its_rows() -> None:
    from app.model.assumptions import ARCHS
    from app.model.bands import band_of, bands, kind_of
    from model.test_frontier import ENTERABLE, model_ratio

    timed = [r for r in ENTERABLE if r.figure("step_s") is not None]
    b = bands()
    assert b["all"].rows == len(timed) == 60
    ratios = [model_ratio(r) for r in timed if kind_of(r.gpu, ARCHS[r.arch].moe) == "gb200_moe"]
    assert (b["gb200_moe"].low, b["gb200_moe"].high, b["gb200_moe"].rows) == (min(ratios), max(ratios), len(ratios))
    assert b["gb200_moe"].high < 1 < b["h100"].high  # the lab is optimistic on GB200 MoE rows
    assert band_of(WorkloadInputs(arch="qwen3_30b_a3b"), "gb200_186g").kind == "gb200_moe"
    assert band_of(WorkloadInputs(arch="qwen3_8b"), "b200_180g").kind == "all"  # no B200 rows
