"""Property tests of the workload model (hypothesis): bounded, deterministic, monotone where physics says so.

Every property runs at most 200 examples (60 for the slower ones) with no deadline; ``derandomize=True`` makes CI
runs repeatable, so a failure here is a model bug, not a flaky test.  To search harder by hand::

    MODEL_PROPERTY_EXAMPLES=5000 .venv/bin/python -m pytest tests/model/test_properties.py
"""

from __future__ import annotations

import math
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.model import DEFAULTS, WorkloadInputs, evaluate, normalise
from app.model.assumptions import ARCHS, GPUS
from app.model.compare import with_method
from app.model.inputs import CHOICES, NUMBER_SPECS, NUMBERS, PARAM_NAMES, PRACTICE_NAMES, effective
from app.model.meters import METER_IDS
from app.model.physics.layout import backend_for
from app.model.physics.memory import whole_hosts
from app.model.physics.step import ppo_step, role_minimums
from app.model.physics.workload import workload
from app.model.scenarios import PRESET_BY_ID, PRESETS, WALKTHROUGH
from app.model.stages import NODE_IDS, STAGE_IDS

_SEARCH = int(os.environ.get("MODEL_PROPERTY_EXAMPLES", "0"))
PROPS = settings(max_examples=_SEARCH or 200, deadline=None, derandomize=not _SEARCH, database=None,
                 suppress_health_check=[HealthCheck.too_slow])
FEW = settings(PROPS, max_examples=_SEARCH or 60)
REL = 1e-9  # float noise allowance on seconds
# the separate split is searched over a few candidate layouts (physics.step._best_separate), not every split: two
# neighbouring states may land on different candidates, within this much of each other
SEARCH_REL = 5e-3


# the inputs of issue 26 stay at their defaults here (so these properties keep drawing the examples they always did);
# tests/model/test_timing.py draws them.  generation_gpus (a recipe's fixed split) is drawn: its draws found the
# trainer taking a layout on all the GPUs slower than one on fewer (fixed: training.fastest_layout).  engine_tp (a
# recipe's engine degree) stays searched here; tests/model/test_engine_tp_given.py draws it
TIMING_INPUTS = ("oversample", "passes", "partial_rollouts", "rollout_dtype", "engine_tp")


def number(name: str) -> st.SearchStrategy:
    """A valid value of one numeric parameter: a slider notch or anything in range."""
    spec = NUMBER_SPECS[name]
    if spec.integer:
        anywhere = st.integers(int(spec.minimum), int(spec.maximum))
        notch = st.sampled_from([int(x) for x in spec.ladder])
    else:
        anywhere = st.floats(spec.minimum, spec.maximum, allow_nan=False, allow_infinity=False)
        notch = st.sampled_from([float(x) for x in spec.ladder])
    return st.one_of(notch, anywhere)


def workloads(**fixed: st.SearchStrategy) -> st.SearchStrategy[WorkloadInputs]:
    """Valid workloads, as the model computes with them (``effective``: the rules between parameters applied)."""
    fields = {spec.name: number(spec.name) for spec in NUMBERS if spec.name not in TIMING_INPUTS}
    fields.update({spec.name: st.sampled_from(spec.choices) for spec in CHOICES if spec.name not in TIMING_INPUTS})
    fields.update(fixed)
    return st.builds(WorkloadInputs, **fields).map(effective)


def two(name: str) -> st.SearchStrategy[tuple]:
    """Two valid values of one parameter, low first."""
    return st.tuples(number(name), number(name)).map(sorted).map(tuple)


def changed(i: WorkloadInputs, **changes) -> WorkloadInputs:
    return effective(WorkloadInputs(**{**i.model_dump(), **changes}))


def step_of(i: WorkloadInputs):
    return ppo_step(i, GPUS[i.gpu])


# --- bounds ---------------------------------------------------------------------------------------------------


@PROPS
@given(workloads())
def test_meters_and_figures_are_bounded(i: WorkloadInputs) -> None:
    r = evaluate(i)
    assert tuple(r.meters) == METER_IDS
    for m in r.meters.values():
        assert isinstance(m.value, int) and 0 <= m.value <= 100 and m.level in ("ok", "warn", "hot")
    assert r.stage in STAGE_IDS and tuple(r.nodes) == NODE_IDS
    # the bottleneck is a node, flagged on the diagram, or memory (the state does not fit), and then no node is
    assert [n for n, x in r.nodes.items() if x.bottleneck] == ([] if r.bottleneck == "memory" else [r.bottleneck])
    assert r.bottleneck in NODE_IDS or r.bottleneck == "memory"
    s = r.step
    assert 0 <= s.generation_share <= 1
    for x in (s.generation_s, s.scoring_s, s.training_s, s.total_s, s.sync_s, s.tail_s,
              *((r.run.hours,) if r.run else ())):
        assert math.isfinite(x) and x >= 0
    g = s.gpu_groups
    used = g.generation if g.colocated else g.generation + g.scoring + g.training
    assert used <= (r.timed_gpus or i.gpus)  # the step's layout is on the GPUs it is timed on
    for lane in r.memory.lanes:
        assert lane.total_gb >= 0 and lane.gpus >= 0


# --- monotonicity ---------------------------------------------------------------------------------------------


@PROPS
@given(workloads(), two("rollouts"))
def test_generation_rises_with_rollouts(i: WorkloadInputs, pair: tuple) -> None:
    a, b = (evaluate(changed(i, rollouts=x)) for x in pair)
    if not (a.memory.fits and b.memory.fits):
        return  # a state that does not fit is timed on the fewest GPUs that fit it, not on the count given
    if i.placement == "colocated":
        assert b.step.generation_s >= a.step.generation_s * (1 - REL)
    assert b.step.total_s >= a.step.total_s * (1 - (SEARCH_REL if i.placement == "separate" else REL))


COLOCATED = dict(placement=st.just("colocated"), staleness=st.just(0))


@PROPS
@given(workloads(arch=st.just("custom"), **COLOCATED), two("policy_b"))
def test_the_step_rises_with_policy_size(i: WorkloadInputs, pair: tuple) -> None:
    a, b = (step_of(changed(i, policy_b=x)) for x in pair)
    if a.training_layout.backend != b.training_layout.backend:
        return  # past fsdp_max_dense_b the trainer changes backend (Megatron's shards, no ZeRO-3 floor)
    assert b.total_s >= a.total_s * (1 - REL)
    if i.gpus <= 8:  # beyond a node the step may run on one node for one size and on all GPUs for the other
        assert b.generation_s >= a.generation_s * (1 - REL)


@PROPS
@given(workloads(**COLOCATED, gpus=st.integers(1, 8)), two("response_tokens"))
def test_generation_rises_with_response_length(i: WorkloadInputs, pair: tuple) -> None:
    a, b = (step_of(changed(i, response_tokens=x, response_max_tokens=max(x, i.response_max_tokens)))
            for x in pair)
    assert b.generation_s >= a.generation_s * (1 - REL)


@PROPS
@given(workloads(), two("response_max_tokens"))
def test_a_longer_longest_response_never_shortens_a_step(i: WorkloadInputs, pair: tuple) -> None:
    lo, hi = (max(x, i.response_tokens) for x in pair)
    a, b = (step_of(changed(i, response_max_tokens=x)) for x in (lo, hi))
    assert b.total_s >= a.total_s * (1 - (SEARCH_REL if i.placement == "separate" else REL))
    # (separate, or a colocated step that moved to one node: the layout changed, not the engine)
    assert (b.generation_s >= a.generation_s * (1 - REL) or i.placement == "separate"
            or a.groups.generation != b.groups.generation)


# OPEN (issue 36, raised bounds): with prompts and responses past 32,768 tokens the memory meter's value (its share in
# use beside the engine's reservation) can fall as the policy grows (hypothesis found 64 → 56 on one colocated state);
# drawn within the old bounds here until the lead decides the meter's rule at 128K contexts
_OLD_BOUNDS = {n: st.integers(16, 32_768) for n in ("prompt_tokens", "response_tokens", "response_max_tokens")}


@PROPS
@given(workloads(arch=st.just("custom"), **COLOCATED, **_OLD_BOUNDS, gpus=st.integers(1, 8)), two("policy_b"))
def test_train_memory_rises_with_policy_size(i: WorkloadInputs, pair: tuple) -> None:
    # colocated: the layout is fixed (every GPU), so a bigger policy never takes less memory per GPU
    small, big = (evaluate(changed(i, policy_b=x)) for x in pair)
    assert big.memory.total_gb >= small.memory.total_gb
    assert big.memory.per_gpu_gb >= small.memory.per_gpu_gb * (1 - REL)
    # OPEN (docs/model.md): under a paged engine's reservation the meter reads what is in use, the batch's KV among
    # it, and that follows the engine's schedule (replicas, waves), not the policy's size alone: 0.1 → 0.125 B on one
    # A100 40GB, 1,938 rollouts, went 71 → 44 (in use 25.4 → 15.7 GB while the states rose 3.4 → 3.85 GB)
    if small.stage == big.stage and not (small.meters["train_memory"].reserved or big.meters["train_memory"].reserved):
        assert big.meters["train_memory"].value >= small.meters["train_memory"].value


@PROPS
@given(workloads(arch=st.just("custom")), two("policy_b"))
def test_min_gpus_never_falls_as_the_policy_grows(i: WorkloadInputs, pair: tuple) -> None:
    a, b = (changed(i, policy_b=x) for x in pair)
    if backend_for(workload(a, GPUS[a.gpu]).arch) != backend_for(workload(b, GPUS[b.gpu]).arch):
        return  # past fsdp_max_dense_b the trainer moves to Megatron, whose TP splits the activations FSDP keeps
        # whole: one GPU fewer may then fit (docs/model.md, "min_gpus at the backend switch")
    small, big = (evaluate(x).memory.min_gpus for x in (a, b))
    assert big is None or (small is not None and big >= small)


@PROPS
@given(workloads(), two("kl"))
def test_kl_risk_falls_as_kl_rises(i: WorkloadInputs, pair: tuple) -> None:
    low_kl, high_kl = (evaluate(changed(i, kl=x)).meters["kl_risk"].value for x in pair)
    assert high_kl <= low_kl


@PROPS
@given(workloads(), two("eval_every"))
def test_eval_need_falls_with_more_frequent_evals(i: WorkloadInputs, pair: tuple) -> None:
    often, rarely = (evaluate(changed(i, eval_every=x)).meters["eval_need"].value for x in pair)
    assert often <= rarely


@PROPS
@given(workloads(**COLOCATED, engine=st.just("vllm")), two("gpus"))
def test_more_gpus_never_slower_colocated(i: WorkloadInputs, pair: tuple) -> None:
    # vllm only: HF generate inside a ZeRO-3 trainer all-gathers (G − 1)/G of the weights every decode step, so a
    # tiny workload does get slower with more GPUs — the lesson engine=hf teaches, not a model bug
    if not all(evaluate(changed(i, gpus=g)).memory.fits for g in pair):
        return  # a state that does not fit is not timed as a run (its step is indicative; step_at_min_gpus is)
    few, many = (step_of(changed(i, gpus=g)).total_s for g in pair)
    # the colocated step tries a few counts below G (a host, one GPU, the most each engine degree covers), not every
    # count, so a larger G may land a hair above a smaller one's best (528 against 1,024 GPUs of a 0.1 B model:
    # 2e-5 apart), within the search's tolerance
    assert many <= few * (1 + SEARCH_REL)


@FEW
@given(workloads(placement=st.just("separate"), staleness=st.just(0), gpus=st.integers(4, 4096)),
       st.integers(4, 4096))
def test_more_gpus_never_slower_separate(i: WorkloadInputs, other: int) -> None:
    lo, hi = sorted((i.gpus, other))
    few, many = (step_of(changed(i, gpus=g)) for g in (lo, hi))
    # the searched step is never slower than the fixed split, and (both fitting) never slower with more GPUs; the
    # fixed split itself may be (its weight broadcast crosses InfiniBand once it spans two nodes)
    assert many.total_s <= many.gpu_groups.fixed_step_s * (1 + REL) or not _fixed_fits(changed(i, gpus=hi))
    if all(evaluate(changed(i, gpus=g)).memory.fits for g in (lo, hi)):
        assert many.total_s <= few.total_s * (1 + SEARCH_REL)


def _fixed_fits(i: WorkloadInputs) -> bool:
    s = step_of(i)
    t_min, s_min, g_min = role_minimums(workload(i, GPUS[i.gpu]), i)
    from app.model.physics.step import gpu_groups
    f = gpu_groups(i.gpus, False)
    return t_min is not None and g_min is not None and f.training >= t_min and f.scoring >= s_min and (
        f.generation >= g_min) and s is not None


@FEW
@given(workloads(gpus=st.sampled_from([64, 256, 1024, 4096])))
def test_the_step_has_a_floor_as_gpus_grow(i: WorkloadInputs) -> None:
    # generation ≥ the longest response's floor; training ≥ the ZeRO-3 floor; neither falls to 0 with more GPUs
    s = step_of(i)
    if i.rollouts > 0:
        # streaming (async with partial rollouts) never waits for the longest response: no floor then
        assert s.generation_s >= (0.0 if s.gen.streaming else s.gen.tail_floor_s * (1 - REL))
        assert s.gen.tail_floor_s > 0
        assert s.total_s > 0


# --- the layout search and async --------------------------------------------------------------------------------


@PROPS
@given(workloads(placement=st.just("separate"), staleness=st.just(0), gpus=st.integers(4, 4096)))
def test_the_searched_split_is_never_slower_than_the_fixed_one(i: WorkloadInputs) -> None:
    s = step_of(i)
    if _fixed_fits(i):
        assert s.total_s <= s.gpu_groups.fixed_step_s * (1 + REL)


@PROPS
@given(workloads(placement=st.just("separate"), gpus=st.integers(4, 4096), staleness=st.integers(1, 4)))
def test_async_is_between_the_overlap_bound_and_the_synchronous_step(i: WorkloadInputs) -> None:
    s = step_of(i)
    assert s.total_s <= s.sync_step_s * (1 + REL)
    assert s.total_s >= max(s.generation_s, s.scoring_s + s.training_s) * (1 - REL)


# --- what each option removes -------------------------------------------------------------------------------------


@PROPS
@given(workloads(method=st.sampled_from(["ppo", "grpo"])))
def test_kl_zero_removes_the_reference_everywhere(i: WorkloadInputs) -> None:
    r = evaluate(changed(i, kl=0.0))
    assert r.memory.models.reference_gb == 0
    assert not r.nodes["reference_model"].active
    assert all(part != "reference" for lane in r.memory.lanes for part, _ in lane.parts)


@PROPS
@given(workloads(method=st.just("ppo")))
def test_grpo_never_needs_more_memory_than_ppo(i: WorkloadInputs) -> None:
    ppo, grpo = evaluate(i), evaluate(changed(i, method="grpo"))
    assert grpo.memory.total_gb <= ppo.memory.total_gb
    if ppo.memory.min_gpus is not None:
        assert grpo.memory.min_gpus is not None and grpo.memory.min_gpus <= ppo.memory.min_gpus


@PROPS
@given(workloads(offload=st.just("none"), tuning=st.just("full")), st.sampled_from(
    [{"offload": "optimizer"}, {"tuning": "lora"}, {"offload": "optimizer", "tuning": "lora"}]))
def test_offload_and_lora_never_raise_min_gpus(i: WorkloadInputs, relief: dict) -> None:
    if i.engine == "hf" and i.placement == "colocated" and backend_for(workload(i, GPUS[i.gpu]).arch) == "megatron":
        # OPEN (docs/model.md, open items): HF generate inside a Megatron trainer keeps the trainer's states on the
        # GPU, and the layout is chosen by the training phase alone; with LoRA it takes less model parallelism and
        # may leave the engine no room where the full fine-tune's layout left some
        return
    plain, relieved = evaluate(i).memory, evaluate(changed(i, **relief)).memory
    if plain.min_gpus is not None:
        assert relieved.min_gpus is not None and relieved.min_gpus <= plain.min_gpus
    if plain.fits:
        assert relieved.fits


@PROPS
@given(workloads(method=st.just("dpo"), pairs=st.integers(1, 10_000_000)))
def test_dpo_removes_reward_model_and_rollouts(i: WorkloadInputs) -> None:
    r = evaluate(i)
    assert r.stage == "dpo"
    for node in ("rm_trainer", "reward_model", "rollout_gen"):
        assert not r.nodes[node].active and r.nodes[node].state == "removed"
    assert r.meters["rollout_load"].value == 0


def test_named_architectures_keep_their_size() -> None:
    for key, arch in ARCHS.items():
        assert evaluate(WorkloadInputs(arch=key)).inputs.policy_b == arch.total_b


# --- determinism, presets, walkthrough ---------------------------------------------------------------------------


@PROPS
@given(workloads())
def test_evaluate_is_deterministic(i: WorkloadInputs) -> None:
    assert evaluate(i) == evaluate(changed(i))


def test_presets_land_on_their_own_stage() -> None:
    assert tuple(p.id for p in PRESETS) == ("sft_only", "reward_model", "ppo_loop", "scaled_rollouts", "eval_gated",
                                            "dpo", "grpo", "agentic")
    for p in PRESETS:
        assert evaluate(p.inputs).stage == p.id, p.id


def test_presets_set_every_parameter_and_round_trip_through_the_url() -> None:
    for p in PRESETS:
        query = p.inputs.query()
        # the contract's parameters, and the 2026 practice inputs the card sets (the agentic card's turns)
        assert set(PARAM_NAMES) <= set(query) <= set(PARAM_NAMES) | set(PRACTICE_NAMES)
        assert normalise(query) == (p.inputs, ())


def test_the_grpo_preset_shows_the_tail() -> None:
    r = evaluate(PRESET_BY_ID["grpo"].inputs)
    assert r.step.tail_s > 0 and r.step.gpu_groups.colocated and r.memory.fits


def test_every_walkthrough_step_evaluates() -> None:
    for s in WALKTHROUGH:
        r = evaluate(s.inputs)
        assert r.stage in STAGE_IDS and s.focus in (*METER_IDS, *NODE_IDS)
        assert normalise(s.inputs.query()) == (s.inputs, ())


# --- normalise never fails, and always hands the model valid inputs ---------------------------------------------

_text = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["nan", "inf", "-inf", "1e309", "-0", "0x10", "1,000", "7.5", "", " ", "separate", "dpo", "grpo",
                     "llama3_8b", "deepseek_v3", "verifier", "hf", "lora", "optimizer"]),
    st.floats().map(repr),
    st.integers(-10**12, 10**12).map(str),
)


@PROPS
@given(st.dictionaries(st.sampled_from([*PARAM_NAMES, "step", "other"]),
                       st.one_of(_text, st.lists(_text, max_size=3))))
def test_normalise_never_fails(query: dict) -> None:
    inputs, notices = normalise(query)
    assert WorkloadInputs(**inputs.model_dump()) == inputs  # passes strict validation
    assert effective(inputs) == inputs                       # and obeys the rules between parameters
    assert {n.field for n in notices} <= {*PARAM_NAMES, "step"}
    evaluate(inputs)


# --- min_gpus agrees with its definition --------------------------------------------------------------------------


@FEW
@given(workloads(placement=st.just("separate"), staleness=st.just(0), gpus=st.integers(4, 4096),
                 policy_b=st.floats(0.1, 200), rm_b=st.floats(0.1, 200)))
def test_separate_min_gpus_is_the_sum_of_the_role_minimums(i: WorkloadInputs) -> None:
    i = with_method(i, "ppo") if i.method == "dpo" else i  # a DPO state's RL memory is the workload under PPO
    w = workload(i, GPUS[i.gpu])
    t_min, s_min, g_min = role_minimums(w, i)
    m = evaluate(i).memory
    if t_min is not None and g_min is not None and t_min + s_min + g_min <= 4096:
        # in whole hosts beyond one: 27 → 32 on an 8-GPU host (``whole_hosts``)
        assert m.min_gpus == whole_hosts(max(4, t_min + s_min + g_min), GPUS[i.gpu].node_gpus)
    else:
        assert m.min_gpus is None


def test_defaults_are_valid_inputs() -> None:
    assert WorkloadInputs() == DEFAULTS


def test_a_small_moe_batch_is_not_slower_on_more_gpus() -> None:
    # hypothesis's counterexample (docs/model.md): before, 2.83 s on 192 GPUs and 3.36 s on 512 — the 512-GPU layout's
    # expert-parallel and data-parallel traffic over InfiniBand cost more than the compute it spread; the trainer now
    # runs a layout on fewer GPUs (the rest idle while it trains)
    i = WorkloadInputs(arch="qwen3_30b_a3b", gpu="a100_40g", placement="colocated", rollouts=32, group=1, kl=0.0,
                       prompt_tokens=16, response_tokens=16, response_max_tokens=16, optimizer_steps=32)
    steps = {g: step_of(changed(i, gpus=g)) for g in (128, 192, 256, 512)}
    # within the search's tolerance: 192 GPUs run the colocated phases on all 192 while the trainer takes 128 of them
    # (8.952 s against 128's 8.951 s), since the colocated step tries a few counts below G, not every one
    assert all(steps[b].total_s <= steps[a].total_s * (1 + SEARCH_REL)
               for a, b in zip((128, 192, 256), (192, 256, 512), strict=True))
    assert steps[512].training_layout.gpus < 512  # the layout it takes leaves GPUs idle in training


def test_llama_405b_colocated_is_not_slower_on_512_gpus() -> None:
    # docs/model.md: 8.18 s on 256 A100-80GB, 8.39 s on 512 before — the host swap was counted on the first layout
    # that fits (a narrower TP, more states per GPU), not the one that trains; 6.81 s on 512 now
    i = WorkloadInputs(arch="llama3_405b", gpu="a100_80g", placement="colocated", method="grpo", reward="verifier",
                       rollouts=32, prompt_tokens=16, response_tokens=16, response_max_tokens=16, optimizer_steps=1)
    few, many = (step_of(changed(i, gpus=g)).total_s for g in (256, 512))
    assert many <= few * (1 + REL)
