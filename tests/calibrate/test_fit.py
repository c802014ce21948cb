"""The fit: medians written out, the outlier named, each factor recovered from a log the lab's own phases wrote
(verl, OpenRLHF and NeMo RL formats), bounds, and the returned query answered by /api/evaluate within 15 % of the
measured phases."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.calibrate.fit import CalibrationError, calibrate, predicted_phases
from app.calibrate.logs import read_log
from app.model.evaluate import evaluate
from app.model.inputs import FACTOR_SPECS, WorkloadInputs
from calibrate.logformats import nemo_rl_lines, openrlhf_lines, tensorboard_csv, verl_lines, wandb_csv

GRPO_7B = WorkloadInputs(method="grpo", arch="qwen25_7b", gpus=16, gpu="h100_80g", reward="verifier", kl=0.001)


def _verl(p, step: int = 1, scale: float = 1.0) -> str:
    return verl_lines([(step, {"timing_s/gen": p.generation * scale, "timing_s/old_log_prob": p.scoring * scale,
                               "timing_s/update_actor": p.training * scale, "timing_s/update_weights": p.refit * scale,
                               "timing_s/step": p.step * scale})])


def _openrlhf(p) -> str:
    return openrlhf_lines([(1, {"timing/generation": p.generation, "timing/make_experience": p.scoring,
                                "timing/ppo_train": p.training, "timing/broadcast": p.refit,
                                "timing/step_total": p.step})])


def _csv(p, export=wandb_csv) -> str:
    """verl's names in a wandb (or TensorBoard) export: step 1's phases."""
    return export([(1, {"timing_s/gen": p.generation, "timing_s/old_log_prob": p.scoring,
                        "timing_s/update_actor": p.training, "timing_s/update_weights": p.refit,
                        "timing_s/step": p.step})])


def _tensorboard(p) -> str:
    return _csv(p, tensorboard_csv)


def _nemo(p) -> str:
    return nemo_rl_lines([(1, {"total_step_time": p.step, "generation": p.generation,
                               "policy_and_reference_logprobs": p.scoring, "policy_training": p.training,
                               "prepare_for_generation/total": p.refit}, 1024.0)])


def test_the_median_over_three_noisy_steps_is_used_and_the_outlier_named():
    """generation 100, 104, 190 s: median 104 (not the mean 131.3); 190 > 1.5 × 104 = 156, so step 3 is named.
    training 50, 48, 52: median 50, none beyond 1.5×.  The fit matches 104 s, not 131.3."""
    text = "\n".join(verl_lines([(n, {"timing_s/gen": g, "timing_s/update_actor": t})])
                     for n, g, t in ((1, 100.0, 50.0), (2, 104.0, 48.0), (3, 190.0, 52.0)))
    c = calibrate(GRPO_7B, read_log(text))
    gen = next(p for p in c.phases if p.phase == "generation")
    train = next(p for p in c.phases if p.phase == "training")
    assert (gen.measured_s, gen.steps, train.measured_s) == (104.0, 3, 50.0)
    assert [(o.step, o.phase, o.seconds, o.median_s) for o in c.outliers] == [(3, "generation", 190.0, 104.0)]
    assert gen.calibrated_s == pytest.approx(104.0, rel=0.01)
    assert c.steps_read == 3 and c.step_numbers == (1, 2, 3)


# (state, the generation factor its decode step is most sensitive to, its known value): a 7 B policy on 16 H100s
# decodes in a few ms a step, mostly the engine's fixed overhead; a 70 B one on A100s reads 140 GB of weights a step
GRID = [
    (GRPO_7B, "decode_step_overhead_s", 0.0075),
    (WorkloadInputs(), "decode_bandwidth_efficiency", 0.35),
    (WorkloadInputs(arch="llama3_70b", gpus=64, gpu="h100_80g", placement="separate", method="grpo",
                    reward="verifier", kl=0.001), "decode_bandwidth_efficiency", 0.45),
    (WorkloadInputs(engine="hf", rollouts=256), "decode_bandwidth_efficiency", 0.3),
]
KNOWN = {"scoring_mfu": 0.3, "train_mfu": 0.22, "refit_s": 12.0}


@pytest.mark.parametrize("write", [_verl, _openrlhf, _nemo, _csv, _tensorboard],
                         ids=["verl", "openrlhf", "nemo_rl", "wandb-csv", "tensorboard-csv"])
@pytest.mark.parametrize(("state", "gen_factor", "value"), GRID, ids=["grpo7b-h100", "ppo7b-a100", "70b-separate",
                                                                      "hf-generate"])
def test_round_trip_recovers_known_factors(state, gen_factor, value, write):
    """The lab's phases at known factors, written as a log line and pasted with the state: each factor comes back
    within 5 %, each phase within 10 %."""
    truth = {**KNOWN, gen_factor: value}
    measured = predicted_phases(state.model_copy(update=truth))
    c = calibrate(state, read_log(write(measured)))
    got = {f.name: f for f in c.factors}
    for name, want in truth.items():
        assert got[name].value == pytest.approx(want, rel=0.05), name
        assert got[name].status == "fitted"
    other = next(n for n in ("decode_bandwidth_efficiency", "decode_step_overhead_s") if n != gen_factor)
    assert got[other].value is None and got[other].status == "held"
    for p in c.phases:
        assert p.calibrated_s == pytest.approx(p.measured_s, rel=0.10), p.phase


def test_the_query_answered_by_the_api_lands_within_15_percent(client):
    """verl-like measured phases (not the lab's): generation 1.6×, scoring 1.4×, training 0.8× the lab's, refit 9 s.
    The query /api/calibrate would return, asked of /api/evaluate, answers each within 15 %."""
    lab = predicted_phases(WorkloadInputs())
    text = verl_lines([(1, {"timing_s/gen": lab.generation * 1.6, "timing_s/old_log_prob": lab.scoring * 1.4,
                            "timing_s/update_actor": lab.training * 0.8, "timing_s/update_weights": 9.0})])
    c = calibrate(WorkloadInputs(), read_log(text))
    step = client.get("/api/evaluate", params=c.query).json()["estimates"]["step"]
    for phase, key in (("generation", "generation_s"), ("scoring", "scoring_s"), ("training", "training_s"),
                       ("refit", "sync_s")):
        want = next(p.measured_s for p in c.phases if p.phase == phase)
        assert step[key] == pytest.approx(want, rel=0.15), phase


def test_a_factor_that_hits_its_bound_says_so_and_the_other_takes_up_the_rest():
    """Generation 15× the lab's on the 7 B PPO state: decode efficiency would have to be below its bound 0.05; it
    stops there and the per-step overhead is fitted to the rest."""
    lab = predicted_phases(WorkloadInputs())
    c = calibrate(WorkloadInputs(), read_log(verl_lines([(1, {"timing_s/gen": lab.generation * 15})])))
    got = {f.name: f for f in c.factors}
    eff, ovh = got["decode_bandwidth_efficiency"], got["decode_step_overhead_s"]
    assert (eff.status, eff.value) == ("at_bound", FACTOR_SPECS["decode_bandwidth_efficiency"].minimum)
    assert ovh.status == "fitted" and ovh.value > 0.004
    assert next(p for p in c.phases if p.phase == "generation").calibrated_s == pytest.approx(lab.generation * 15,
                                                                                                rel=0.02)


def test_a_too_fast_training_is_held_at_the_upper_bound():
    """Training 100× faster than the lab's: train_mfu stops at its bound 0.9 and says so."""
    lab = predicted_phases(WorkloadInputs())
    c = calibrate(WorkloadInputs(), read_log(verl_lines([(1, {"timing_s/update_actor": lab.training / 100})])))
    train = next(f for f in c.factors if f.name == "train_mfu")
    assert (train.status, train.value, train.maximum) == ("at_bound", 0.9, 0.9)


def test_unlogged_phases_fit_nothing_and_stay_absent_from_the_query():
    c = calibrate(WorkloadInputs(), read_log(verl_lines([(1, {"timing_s/update_actor": 50.0})])))
    status = {f.name: f.status for f in c.factors}
    assert status == {"decode_bandwidth_efficiency": "not_logged", "decode_step_overhead_s": "not_logged",
                      "scoring_mfu": "not_logged", "train_mfu": "fitted", "refit_s": "not_logged"}
    assert set(c.query) & set(FACTOR_SPECS) == {"train_mfu"}
    assert next(f for f in c.factors if f.name == "train_mfu").pinned_by == ("timing_s/update_actor",)


def test_a_state_with_factors_is_fitted_afresh():
    """Factors already in the state do not bias the fit: it starts from the lab's constants."""
    text = verl_lines([(1, {"timing_s/update_actor": 50.0})])
    a = calibrate(WorkloadInputs(), read_log(text))
    b = calibrate(WorkloadInputs(train_mfu=0.05, refit_s=100.0), read_log(text))
    assert a.query == b.query and a.phases == b.phases


def test_the_log_lengths_are_reported_beside_the_states():
    text = verl_lines([(1, {"timing_s/gen": 100.0, "response_length/mean": 900.0, "response_length/max": 3000,
                            "prompt_length/mean": 200.0})])
    c = calibrate(WorkloadInputs(), read_log(text))
    assert [(x.name, x.log, x.state) for x in c.lengths] == [
        ("response_mean", 900.0, 1024.0), ("response_max", 3000.0, 1024.0), ("prompt_mean", 200.0, 512.0)]


@pytest.mark.parametrize(("state", "kind"), [
    (WorkloadInputs(method="dpo"), "not_rl"),
    (WorkloadInputs(rollouts=0), "not_rl"),
    (WorkloadInputs(arch="kimi_k2", gpus=8), "no_fit"),  # fits from more GPUs than the run had
    (WorkloadInputs(arch="llama3_8b", gpu="a100_40g", gpus=64, max_tokens_per_gpu=131_072), "no_fit"),  # on none
])
def test_a_state_without_an_rl_step_is_refused(state, kind):
    text = verl_lines([(1, {"timing_s/gen": 100.0})])
    with pytest.raises(CalibrationError) as err:
        calibrate(state, read_log(text))
    assert err.value.kind == kind


@settings(max_examples=25, deadline=None)
@given(st.dictionaries(st.sampled_from(["timing_s/gen", "timing_s/old_log_prob", "timing_s/update_actor",
                                        "timing_s/update_weights", "timing_s/step"]),
                       st.floats(min_value=0.0, max_value=1e6, allow_nan=False), min_size=1))
def test_any_readable_log_fits_within_the_bounds(metrics):
    """Whatever seconds a log holds (0 to 11 days a phase), the fit answers, and every factor it sets lies within
    its bounds: a value outside them is reported at the bound, never written into the query."""
    c = calibrate(GRPO_7B, read_log(verl_lines([(1, metrics)])))
    for f in c.factors:
        assert f.value is None or f.minimum <= f.value <= f.maximum, (f.name, f.value)
        assert f.status in ("fitted", "at_bound", "held", "not_logged", "insensitive")
    assert all(FACTOR_SPECS[k].minimum <= float(v) <= FACTOR_SPECS[k].maximum
               for k, v in c.query.items() if k in FACTOR_SPECS)


@pytest.mark.parametrize(("state", "gen_factor", "value"), GRID, ids=["grpo7b-h100", "ppo7b-a100", "70b-separate",
                                                                      "hf-generate"])
def test_the_phases_read_are_the_plans_step(state, gen_factor, value):
    """predicted_phases reads evaluate(...).step (the Plan has step_s, no phases yet): its step is the plan's, with
    and without fitted factors, so switching the one function to the plan changes no answer."""
    for x in (state, state.model_copy(update={**KNOWN, gen_factor: value})):
        assert predicted_phases(x).step == evaluate(x).plan.step_s
