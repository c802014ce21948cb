"""The log readers: each framework's lines as the pinned release writes them (tests/calibrate/logformats.py), the
phases they sum, the median, the limits, and a fuzz that no paste makes the reader raise anything but LogError."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.calibrate.logs import (
    MAX_LOG_BYTES,
    MAX_LOG_LINES,
    LogError,
    read_log,
)
from calibrate.logformats import (
    concat_dict_to_str,
    nemo_rl_lines,
    openrlhf_lines,
    tensorboard_csv,
    verl_lines,
    verl_source_function,
    wandb_csv,
)

VERL_STEP = {"actor/pg_loss": -0.012, "timing_s/gen": 172.0, "timing_s/reward": 3.0, "timing_s/old_log_prob": 20.5,
             "timing_s/ref": 18.0, "timing_s/adv": 0.4, "timing_s/update_actor": 74.0, "timing_s/update_weights": 6.5,
             "timing_s/step": 296.0, "response_length/mean": 1210.5, "response_length/max": 4096,
             "prompt_length/mean": 180.25, "perf/throughput": 1530.2, "training/epoch": 0}


def test_the_copy_of_verls_formatter_is_the_releases():
    """concat_dict_to_str is copied (its module imports torch); the copy is the wheel's function, node for node."""
    fn = verl_source_function()
    if fn is None:
        pytest.skip("verl 0.9.1's wheel is not in the cache (make wheels)")
    import inspect
    ours = ast.parse(inspect.getsource(concat_dict_to_str)).body[0]
    assert ast.dump(ours.args) == ast.dump(fn.args) and ast.dump(ours.body[0]) == ast.dump(fn.body[0])
    assert [ast.dump(n) for n in ours.body] == [ast.dump(n) for n in fn.body]


def test_verl_line_sums_its_timers_into_the_lab_phases():
    """scoring = reward 3.0 + old_log_prob 20.5 + ref 18.0 = 41.5 s; training = update_actor 74.0; adv is no phase."""
    log = read_log(verl_lines([(3, VERL_STEP)]))
    s = log.steps[0]
    assert (log.framework, log.format, log.steps_read, s.step) == ("verl", "console", 1, 3)
    assert (s.generation, s.scoring, s.training, s.refit, s.total) == (172.0, 41.5, 74.0, 6.5, 296.0)
    assert (s.response_mean, s.response_max, s.prompt_mean) == (1210.5, 4096.0, 180.25)
    assert "timing_s/adv" not in log.names and "timing_s/gen" in log.names


def test_verl_numpy_scalars_and_ray_prefixes_are_read():
    """reduce_metrics returns numpy scalars, which pprint writes as np.float64(…); Ray prefixes a worker's lines."""
    text = "(TaskRunner pid=4242) step:7 - timing_s/gen:np.float64(100.5) - timing_s/update_actor:np.float64(50.0)"
    s = read_log(text).steps[0]
    assert (s.step, s.generation, s.training) == (7, 100.5, 50.0)


def test_openrlhf_console_line_through_its_own_formatter():
    status = {"policy_loss": -0.01, "kl": 0.002, "timing/make_experience": 120.0, "timing/ppo_train": 403.0,
              "timing/broadcast": 4.5, "rollout/response_length_mean": 980.0, "timing/generation": 482.0}
    status["timing/step_total"] = sum(v for k, v in status.items() if k.startswith("timing/"))
    log = read_log(openrlhf_lines([(1, status), (2, status)]))
    s = log.steps[1]
    assert (log.framework, log.steps_read) == ("openrlhf", 2)
    assert (s.generation, s.scoring, s.training, s.refit, s.total, s.response_mean) == (
        482.0, 120.0, 403.0, 4.5, 482.0 + 120.0 + 403.0 + 4.5, 980.0)


def test_nemo_rl_console_block():
    """scoring = policy_and_reference_logprobs 9.1 + reward_calculation 0.4 = 9.5 s (two decimals, as printed)."""
    timing = {"total_step_time": 97.7, "generation": 50.12, "policy_and_reference_logprobs": 9.1,
              "reward_calculation": 0.4, "policy_training": 30.05, "prepare_for_generation/total": 4.2,
              "data_processing": 1.1}
    log = read_log(nemo_rl_lines([(1, timing, 1234.5678), (2, timing, 1300.0)]))
    s = log.steps[0]
    assert (log.framework, log.steps_read) == ("nemo_rl", 2)
    assert (s.generation, s.scoring, s.training, s.refit, s.total, s.response_mean) == (
        50.12, pytest.approx(9.5), 30.05, 4.2, 97.7, 1234.5678)


@pytest.mark.parametrize("export", [wandb_csv, tensorboard_csv], ids=["wandb", "tensorboard"])
@pytest.mark.parametrize(("framework", "metrics"), [
    ("verl", {"timing_s/gen": 172.0, "timing_s/update_actor": 74.0, "response_length/mean": 1200.0}),
    ("openrlhf", {"train/timing/generation": 172.0, "train/timing/ppo_train": 74.0,
                  "train/rollout/response_length_mean": 1200.0}),
    ("nemo_rl", {"timing/train/generation": 172.0, "timing/train/policy_training": 74.0,
                 "train/mean_gen_tokens_per_sample": 1200.0}),
])
def test_csv_exports_of_each_frameworks_names(export, framework, metrics):
    log = read_log(export([(10, metrics), (11, {k: v * 2 for k, v in metrics.items()})]))
    assert (log.framework, log.format, [s.step for s in log.steps]) == (framework, "csv", [10, 11])
    assert (log.steps[0].generation, log.steps[0].training, log.steps[0].response_mean) == (172.0, 74.0, 1200.0)
    assert log.steps[1].generation == 344.0


def test_a_step_logged_twice_keeps_its_last_record_and_steps_come_in_order():
    text = verl_lines([(2, {"timing_s/gen": 10.0}), (1, {"timing_s/gen": 5.0}), (2, {"timing_s/gen": 12.0})])
    assert [(s.step, s.generation) for s in read_log(text).steps] == [(1, 5.0), (2, 12.0)]


def test_negative_and_nan_steps_are_dropped_and_named():
    text = verl_lines([(1, {"timing_s/gen": 10.0}), (2, {"timing_s/gen": -3.0}), (3, {"timing_s/gen": float("nan")})])
    log = read_log(text)
    assert [s.step for s in log.steps] == [1] and log.dropped == (2, 3)


@pytest.mark.parametrize(("text", "kind"), [
    ("", "empty"),
    ("   \n\t\n", "empty"),
    ("The run was slow yesterday; generation took ages and then training.", "no_steps"),
    ("<script>alert(1)</script><b>step</b>", "no_steps"),
    ("step:1 - actor/pg_loss:0.1 - critic/vf_loss:0.2", "no_timings"),
    ("step:1 - timing_s/gen:-5.0", "bad_values"),
    ("step:1 - timing_s/gen:nan - timing_s/step:inf", "bad_values"),
    ("\x00\x01\x02binary\x00" * 50, "binary"),
    ("a" * (MAX_LOG_BYTES + 1), "too_large"),
    ("\n" * 10 + "x\n" * (MAX_LOG_LINES + 1), "too_many_lines"),
])
def test_unreadable_pastes_say_why(text, kind):
    with pytest.raises(LogError) as err:
        read_log(text)
    assert err.value.kind == kind


def test_an_unclosed_quote_does_not_swallow_the_paste():
    """Found by hand after the fuzz: csv.reader over all lines let one unclosed quote join 180,000 characters into one
    field, past csv's field limit (an exception, so a 500).  Each line is its own record now."""
    text = 'step,timing_s/gen\n1,"' + ("x" * 60_000 + "\n") * 3 + '"\n2,50.0\n'
    assert [(s.step, s.generation) for s in read_log(text).steps] == [(2, 50.0)]
    with pytest.raises(LogError):
        read_log('Step,a\n1,"x\n')


def test_the_size_limit_counts_bytes_not_characters():
    """MAX_LOG_BYTES is of UTF-8: 400,000 three-byte characters are 1.2 MB."""
    with pytest.raises(LogError) as err:
        read_log("步" * 400_000)
    assert (err.value.kind, err.value.limit) == ("too_large", MAX_LOG_BYTES)


_ALPHABET = st.sampled_from(["step:", "1", "2.5", " - ", "timing_s/gen", "timing_s/step", ":", "nan", "-", "inf",
                             "np.float64(", ")", "\n", "Global step ", "{", "}", "'", "timing/generation", ": ",
                             "• ", "generation", "s (", "=== Step 1/2 ===", ",", "Step", "tag,step,value", "e9",
                             "\x00", "\ufffd", "<b>", '"', "run,tag,step,value\n", "x" * 70_000])


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=400), st.lists(_ALPHABET, max_size=80).map("".join)))
def test_the_reader_never_raises_anything_but_log_error(text):
    try:
        log = read_log(text)
    except LogError as err:
        assert err.kind
        return
    assert log.steps and all(v is None or v >= 0 for s in log.steps
                             for v in (s.generation, s.scoring, s.training, s.refit, s.total))
