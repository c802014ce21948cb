"""Read a pasted training log: each logged step's phase seconds and response lengths, in the frameworks' own names.

Four ways a run's steps reach a paste, each read as the pinned release writes it:

* **verl 0.9.1's console**: ``step:3 - timing_s/gen:172.0 - timing_s/update_actor:74.0 - …``, one line a step, as
  ``concat_dict_to_str`` prints it (verl/utils/logger/aggregate_logger.py:26-32: ``f"step:{step}"`` and
  ``f"{k}:{pprint.pformat(v)}"`` joined by ``" - "``; a numpy scalar prints as ``np.float64(172.0)``).
* **OpenRLHF 0.11.2's console**: ``✨ Global step 3: {'timing/generation': 482.1, …}``
  (openrlhf/trainer/ppo_trainer.py:551, ``logger.info(f"✨ Global step {global_step}: {log_status}")``: a Python dict;
  the async trainer's line, ppo_trainer_async.py:244, has no ✨).
* **NeMo RL v0.7.0's console**: a ``===== Step 3/100 =====`` header (nemo_rl/algorithms/grpo.py:2244), then under
  ``⏱️  Timing:`` the lines ``  • Total step time: 97.70s`` (:3075) and ``  • generation: 50.12s (51.3%)`` (:3081),
  and ``  • Mean Generation Length: 1234.5678`` (:3058).
* **A wandb or TensorBoard CSV export** of the same metrics: wide (a step column — ``_step``, ``Step``, ``step``,
  ``global_step``, ``train/global_step`` — and one column per metric, wandb's chart export writing ``run - key`` and
  ``key__MIN`` / ``key__MAX``, which are skipped) or long (``step``, ``tag``, ``value`` columns, as TensorBoard's
  scalars come out of ``tensorboard.data`` or a ``run,tag,step,value`` dump).  The names are the loggers': verl logs
  its keys as they are; OpenRLHF prefixes ``train/`` (openrlhf/utils/logging_utils.py:98 wandb, :130 TensorBoard);
  NeMo RL prefixes ``timing/train/`` to its timings (grpo.py:3100 ``prefix="timing/train"``, nemo_rl/utils/logger.py:364
  ``f"{prefix}/{k}"``) and ``train/`` to its rollout metrics (grpo.py:2410).

A paste is untrusted: its size and lines are bounded (``MAX_LOG_BYTES``, ``MAX_LOG_LINES``, ``MAX_LINE_CHARS``), it
is never stored and nothing of it is returned but numbers; what cannot be read raises ``LogError`` with a kind
(``LOG_ERROR_KINDS``) the caller turns into a 4xx that says what was expected.
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass

MAX_LOG_BYTES = 1_000_000   # a paste of a few hundred logged steps fits many times over
MAX_LOG_LINES = 20_000
MAX_LINE_CHARS = 65_536     # a verl line carries a few hundred metrics: ~10 kB
MAX_STEPS = 1_000           # the last steps of a longer paste are read
PHASES = ("generation", "scoring", "training", "refit", "step")
LENGTHS = ("response_mean", "response_max", "prompt_mean")
FRAMEWORKS = ("verl", "openrlhf", "nemo_rl")
LOG_ERROR_KINDS = ("empty", "too_large", "too_many_lines", "binary", "no_steps", "no_timings", "bad_values")


class LogError(ValueError):
    """A paste that cannot be read; ``kind`` is one of ``LOG_ERROR_KINDS``, ``limit`` the bound it broke (if any)."""

    def __init__(self, kind: str, limit: int = 0) -> None:
        super().__init__(kind)
        self.kind = kind
        self.limit = limit


@dataclass(frozen=True, slots=True)
class Name:
    """One logged metric: what it measures (a phase of ``PHASES`` or a length of ``LENGTHS``) and where the pinned
    release names it."""

    field: str
    source: str


def _names(framework: str, rows: tuple[tuple[str, str, str], ...]) -> dict[str, Name]:
    return {name: Name(field, source) for name, field, source in rows}


_VERL_RT = "verl/trainer/ppo/ray_trainer.py"
_VERL_MU = "verl/trainer/ppo/metric_utils.py"
# timing_s/<marked_timer name> (metric_utils.py:645 ``f"timing_s/{name}"``); the same names in wandb and TensorBoard
VERL = _names("verl", (
    ("timing_s/gen", "generation", f"{_VERL_RT}:1510"),
    ("timing_s/reward", "scoring", f"{_VERL_RT}:1561"),
    ("timing_s/old_log_prob", "scoring", f"{_VERL_RT}:1585"),
    ("timing_s/ref", "scoring", f"{_VERL_RT}:1620 (str(Role.RefPolicy) = 'ref', verl/trainer/ppo/utils.py:51)"),
    ("timing_s/values", "scoring", f"{_VERL_RT}:1626"),
    ("timing_s/update_critic", "training", f"{_VERL_RT}:1678"),
    ("timing_s/update_actor", "training", f"{_VERL_RT}:1689"),
    ("timing_s/update_weights", "refit", f"{_VERL_RT}:1715"),
    ("timing_s/step", "step", f"{_VERL_RT}:1508"),
    ("response_length/mean", "response_mean", f"{_VERL_MU}:573"),
    ("response_length/max", "response_max", f"{_VERL_MU}:574"),
    ("prompt_length/mean", "prompt_mean", f"{_VERL_MU}:589"),
))
_ORL = "openrlhf/trainer/ppo_trainer.py"
_OPENRLHF_CONSOLE = (
    ("timing/generation", "generation", f"{_ORL}:544"),
    ("timing/make_experience", "scoring", f"{_ORL}:256"),
    ("timing/ppo_train", "training", f"{_ORL}:257"),
    ("timing/broadcast", "refit", f"{_ORL}:258"),
    ("timing/step_total", "step", f"{_ORL}:545"),
    ("rollout/response_length_mean", "response_mean", f"{_ORL}:427"),
)
# the console's dict keys, and wandb's / TensorBoard's ``train/<key>`` (openrlhf/utils/logging_utils.py:98, :130)
OPENRLHF = _names("openrlhf", (*_OPENRLHF_CONSOLE,
                               *((f"train/{n}", f, f"{s}; openrlhf/utils/logging_utils.py:98")
                                 for n, f, s in _OPENRLHF_CONSOLE)))
_NRL = "nemo_rl/algorithms/grpo.py"
_NEMO_TIMERS = (
    ("generation", "generation", f"{_NRL}:2333"),
    ("exposed_generation", "generation", f"{_NRL}:3661 (async GRPO)"),
    ("reward_calculation", "scoring", f"{_NRL}:2425"),
    ("policy_and_reference_logprobs", "scoring", f"{_NRL}:2605"),
    ("policy_training", "training", f"{_NRL}:2730"),
    ("prepare_for_generation/total", "refit", f"{_NRL}:2281"),
    ("weight_sync", "refit", f"{_NRL}:3989 (async GRPO)"),
    ("total_step_time", "step", f"{_NRL}:2258"),
)
# the console's timer names (under "⏱️  Timing:"), and the loggers' ``timing/train/<timer>`` (grpo.py:3100)
NEMO_RL = _names("nemo_rl", (
    *((f"timing/train/{n}", f, f"{s}; prefix timing/train, {_NRL}:3100") for n, f, s in _NEMO_TIMERS),
    ("train/mean_gen_tokens_per_sample", "response_mean", f"{_NRL}:2408 (nemo_rl/experience/rollouts.py:816)"),
))
NAMES: dict[str, dict[str, Name]] = {"verl": VERL, "openrlhf": OPENRLHF, "nemo_rl": NEMO_RL}


@dataclass(frozen=True, slots=True, kw_only=True)
class StepRecord:
    """One logged step: seconds per phase (None: not logged) and the lengths the log reports, tokens."""

    step: int
    generation: float | None = None
    scoring: float | None = None
    training: float | None = None
    refit: float | None = None
    total: float | None = None      # the step as the framework timed it (``step`` in PHASES)
    response_mean: float | None = None
    response_max: float | None = None
    prompt_mean: float | None = None

    def phase(self, name: str) -> float | None:
        return self.total if name == "step" else getattr(self, name)


@dataclass(frozen=True, slots=True, kw_only=True)
class LogRead:
    """What a paste held: the framework, its format, the steps read (in step order) and the steps dropped for
    values no clock gives (negative, NaN, infinite), with the metric names that were matched."""

    framework: str
    format: str                     # console | csv
    steps: tuple[StepRecord, ...]
    dropped: tuple[int, ...]        # step numbers whose timings were negative, NaN or infinite
    names: tuple[str, ...]          # the logged names that were read, sorted

    @property
    def steps_read(self) -> int:
        return len(self.steps)


_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf|NaN|Infinity)"
_VALUE = re.compile(rf"^(?:np\.(?:float|int)\d*\()?({_NUMBER})\)?$")
_VERL_STEP = re.compile(r"(?:^|\s|\))step:(\d{1,9}) - ")
_OPENRLHF_STEP = re.compile(r"Global step (\d{1,9}): \{")
_DICT_PAIR = re.compile(rf"'([^'\\]{{1,200}})': (?:np\.(?:float|int)\d*\()?({_NUMBER})")
_NEMO_HEADER = re.compile(r"=+ Step (\d{1,9})/\d{1,9} =+")
_NEMO_TIMING = re.compile(rf"•\s+([A-Za-z0-9_/]{{1,120}}|Total step time):\s+({_NUMBER})s\b")
_NEMO_LENGTH = re.compile(rf"•\s+Mean Generation Length:\s+({_NUMBER})")
_CONTROL = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\ufffd]")  # not tab, newlines or ANSI's ESC
_STEP_COLUMNS = ("_step", "step", "Step", "global_step", "train/global_step", "trainer/global_step")


def _number(text: str) -> float | None:
    m = _VALUE.match(text.strip())
    return float(m.group(1)) if m else None


def _check(text: str) -> list[str]:
    """The paste's lines, or LogError for one too large, too long, empty or binary."""
    if len(text) > MAX_LOG_BYTES or len(text.encode("utf-8", "replace")) > MAX_LOG_BYTES:
        raise LogError("too_large", MAX_LOG_BYTES)
    if not text.strip():
        raise LogError("empty")
    if "\x00" in text or len(_CONTROL.findall(text)) > len(text) // 100 + 8:
        raise LogError("binary")
    lines = text.splitlines()
    if len(lines) > MAX_LOG_LINES:
        raise LogError("too_many_lines", MAX_LOG_LINES)
    return [line[:MAX_LINE_CHARS] for line in lines]


def _verl_lines(lines: list[str]) -> list[tuple[int, dict[str, float]]]:
    out = []
    for line in lines:
        m = _VERL_STEP.search(line)
        if not m:
            continue
        values: dict[str, float] = {}
        for part in line[m.end():].split(" - "):
            key, sep, raw = part.partition(":")
            if sep and key and " " not in key.strip():
                value = _number(raw)
                if value is not None:
                    values[key.strip()] = value
        out.append((int(m.group(1)), values))
    return out


def _openrlhf_lines(lines: list[str]) -> list[tuple[int, dict[str, float]]]:
    out = []
    for line in lines:
        m = _OPENRLHF_STEP.search(line)
        if m:
            out.append((int(m.group(1)), {k: float(v) for k, v in _DICT_PAIR.findall(line[m.end():])}))
    return out


def _nemo_lines(lines: list[str]) -> list[tuple[int, dict[str, float]]]:
    out: list[tuple[int, dict[str, float]]] = []
    for line in lines:
        if m := _NEMO_HEADER.search(line):
            out.append((int(m.group(1)), {}))
        elif out and (m := _NEMO_TIMING.search(line)):
            key = "total_step_time" if m.group(1) == "Total step time" else m.group(1)
            out[-1][1][f"timing/train/{key}"] = float(m.group(2))
        elif out and (m := _NEMO_LENGTH.search(line)):
            out[-1][1]["train/mean_gen_tokens_per_sample"] = float(m.group(1))
    return out


def _metric_name(column: str) -> str | None:
    """A CSV column's metric name: wandb's chart export writes ``<run> - <key>`` and ``<key>__MIN`` / ``__MAX``."""
    if column.endswith(("__MIN", "__MAX", "__min", "__max")):
        return None
    return column.rsplit(" - ", 1)[-1].strip()


def _csv_row(line: str) -> list[str]:
    """One line as one CSV record: a metrics export has no quoted field across lines, and reading one lets an
    unclosed quote swallow the rest of the paste into one field (past csv's field limit: an error, not a row)."""
    try:
        return next(csv.reader([line]), [])
    except csv.Error:
        return []


def _csv_lines(lines: list[str]) -> list[tuple[int, dict[str, float]]]:
    rows = [r for r in (_csv_row(line) for line in lines if line.strip()) if r]
    if len(rows) < 2:
        return []
    header = [h.strip() for h in rows[0]]
    lower = [h.lower() for h in header]
    by_step: dict[int, dict[str, float]] = {}
    if "tag" in lower and "value" in lower and "step" in lower:  # long: one scalar a row
        t, v, s = lower.index("tag"), lower.index("value"), lower.index("step")
        for row in rows[1:]:
            if len(row) > max(t, v, s):
                step, value = _number(row[s]), _number(row[v])
                if step is not None and 0 <= step < 1e9 and value is not None:
                    by_step.setdefault(int(step), {})[row[t].strip()] = value
        return sorted(by_step.items())
    step_col = next((header.index(c) for c in _STEP_COLUMNS if c in header), None)
    if step_col is None:
        return []
    names = [_metric_name(h) for h in header]
    for row in rows[1:]:
        if len(row) <= step_col:
            continue
        step = _number(row[step_col])
        if step is None or not 0 <= step < 1e9:  # NaN fails both comparisons
            continue
        values = by_step.setdefault(int(step), {})
        for k, cell in enumerate(row[:len(names)]):
            if k != step_col and names[k] and (value := _number(cell)) is not None:
                values[names[k]] = value  # wandb leaves a metric's cell empty on steps it was not logged
    return sorted(by_step.items())


def _framework(raw: list[tuple[int, dict[str, float]]]) -> tuple[str, dict[str, Name]]:
    """The framework whose names the steps use most (each name counted once)."""
    seen = set().union(*(values.keys() for _, values in raw)) if raw else set()
    counts = {f: len(seen & {n for n, name in NAMES[f].items() if name.field in PHASES}) for f in FRAMEWORKS}
    best = max(FRAMEWORKS, key=lambda f: counts[f])
    if counts[best] == 0:
        raise LogError("no_timings")
    return best, NAMES[best]


def _record(step: int, values: dict[str, float], names: dict[str, Name]) -> tuple[StepRecord | None, bool]:
    """One step's record from its logged values; (None, True) when a timing is negative, NaN or infinite."""
    fields: dict[str, float] = {}
    bad = False
    for key, value in values.items():
        name = names.get(key)
        if name is None:
            continue
        if not math.isfinite(value) or value < 0:
            bad = True
            continue
        fields[name.field] = fields.get(name.field, 0.0) + value if name.field in PHASES else value
    if bad:
        return None, True
    if not any(f in fields for f in PHASES):
        return None, False
    fields["total"] = fields.pop("step", None)  # type: ignore[assignment]
    return StepRecord(step=step, **fields), False


def read_log(text: str) -> LogRead:
    """The steps of a pasted log, or LogError.  Never raises anything else.

    >>> r = read_log("step:2 - timing_s/gen:172.0 - timing_s/update_actor:np.float64(74.5) - timing_s/step:260.0")
    >>> r.framework, r.steps_read, r.steps[0].generation, r.steps[0].training, r.steps[0].total
    ('verl', 1, 172.0, 74.5, 260.0)
    """
    lines = _check(text)
    fmt, raw = "console", _verl_lines(lines)
    for reader in (_openrlhf_lines, _nemo_lines):
        if not raw:
            raw = reader(lines)
    if not raw:
        fmt, raw = "csv", _csv_lines(lines)
    if not raw:
        raise LogError("no_steps")
    framework, names = _framework(raw)
    latest: dict[int, tuple[StepRecord | None, bool]] = {}
    for step, values in raw:  # a step logged twice (a resumed run) keeps its last record
        latest[step] = _record(step, values, names)
    steps = tuple(rec for _, (rec, _bad) in sorted(latest.items()) if rec is not None)[-MAX_STEPS:]
    dropped = tuple(step for step, (_rec, bad) in sorted(latest.items()) if bad)
    if not steps:
        raise LogError("bad_values" if dropped else "no_timings")
    used = sorted({k for _, values in raw for k in values if k in names})
    return LogRead(framework=framework, format=fmt, steps=steps, dropped=dropped, names=tuple(used))
