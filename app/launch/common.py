"""What every framework's builder shares: the records a command is made of, the shell rendering, the batch
arithmetic, the placeholders and the teaching assumptions."""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass

Arg = str | int | float

PLACEHOLDER_PREFIX = "/path/to/your/"
PLACEHOLDER_MODEL = PLACEHOLDER_PREFIX + "sft-checkpoint"
PLACEHOLDER_REWARD_MODEL = PLACEHOLDER_PREFIX + "reward-model"
PLACEHOLDER_CHECKPOINTS = PLACEHOLDER_PREFIX + "checkpoints"
PLACEHOLDER_HOSTFILE = PLACEHOLDER_PREFIX + "hostfile"
HEAD_ADDRESS = "HEAD_IP"  # the head node's address: the user writes it (a shell-safe word, never a guess)

# --- teaching assumptions (each a judgement, not a measurement) ----------------------------------------------------

TARGET_BATCH_SEQUENCES = 128  # sequences per optimizer step (MODEL-2026 §4: OpenRLHF's and InstructGPT's order)
LORA_RANK = 64                # verl examples/grpo_trainer/run_qwen2_5-3b_gsm8k_grpo_lora.sh; ppo_lora.rst: rank ≥ 32
LORA_ALPHA = 32               # the same example
REF_OFFLOAD_ABOVE_B = 7.0     # billions: verl's config.rst recommends reference param offload above 7B
MAX_ROLLOUT_MICRO_BATCH = 8   # OpenRLHF's old default micro_rollout_batch_size (train_ppo_ray.py)
RM_ENGINE_GB = 40.0           # a reward model's weights per GPU in its vLLM engine: half an 80 GB card (verl's
                              # reward.reward_model.rollout.gpu_memory_utilization default 0.5)


@dataclass(frozen=True, slots=True)
class Note:
    """A catalogue key (``launch.note.*``, ``launch.reason.*``, ``launch.map.*``) and its arguments."""

    key: str
    args: tuple[tuple[str, Arg], ...] = ()

    @property
    def params(self) -> dict[str, Arg]:
        return dict(self.args)


def note(key: str, **args: Arg) -> Note:
    return Note(key, tuple(args.items()))


@dataclass(frozen=True, slots=True)
class Flag:
    """One flag of a command: its name, its value (None for a bare switch) and its source id."""

    name: str
    value: str | None
    source: str


@dataclass(frozen=True, slots=True)
class Command:
    """One framework's command: the shell text (``\\`` continuations), what it is made of, and its notes."""

    framework: str                 # verl | openrlhf | trl
    version: str                   # the release it was checked against ("verl 0.9.1")
    text: str                      # a multi-line shell command; shlex.split gives launcher + flag tokens
    launcher: tuple[str, ...]      # the tokens before the flags
    flags: tuple[Flag, ...]
    notes: tuple[Note, ...]
    files: tuple[str, ...] = ()    # the template files (app/launch/files/) the command expects beside it
    config: str = ""               # verl: the Hydra config name the overrides compose over
    unmapped: tuple[Note, ...] = ()  # plan fields this release cannot set (``launch.unmapped.<field>``, reason)


@dataclass(frozen=True, slots=True)
class Launch:
    """One command per framework; a framework that cannot express the layout gives None and a reason."""

    verl: Command | None
    openrlhf: Command | None
    trl: Command | None
    verl_reason: Note | None = None
    openrlhf_reason: Note | None = None
    trl_reason: Note | None = None

    def command(self, framework: str) -> Command | None:
        return getattr(self, framework)

    def reason(self, framework: str) -> Note | None:
        return getattr(self, f"{framework}_reason")


def num(value: float | int) -> str:
    """A number as a flag value: integers without '.0', floats to 6 significant digits in their shortest form.

    >>> num(8), num(0.6000000000000001), num(0.001), num(1e-05), num(1.0), num(True)
    ('8', '0.6', '0.001', '1e-05', '1', 'True')
    """
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, float):
        value = float(f"{value:.6g}")
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


def whole_nodes(gpus: int, per_node: int) -> tuple[int, int] | None:
    """(nodes, GPUs per node) for a group of ``gpus`` on nodes of ``per_node``; None when it is not whole nodes.

    >>> whole_nodes(4, 8), whole_nodes(16, 8), whole_nodes(12, 8)
    ((1, 4), (2, 8), None)
    """
    if gpus <= per_node:
        return 1, gpus
    if gpus % per_node == 0:
        return gpus // per_node, per_node
    return None


def closest(candidates: list[int], target: int) -> int | None:
    """The candidate nearest ``target``, the smaller on a tie; None when there is none."""
    return min(candidates, key=lambda c: (abs(c - target), c)) if candidates else None


def divisors(n: int) -> list[int]:
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted({*small, *(n // d for d in small)})


def fit_prompts(prompts: int, group: int, world: int) -> int | None:
    """The most prompts per step, at most ``prompts``, whose responses (· group) split evenly over ``world``
    training GPUs, in mini-batches within 2× of TARGET_BATCH_SEQUENCES sequences when the step has that many:
    2,048 responses on 5 GPUs become 2,040 (mini-batches of 120), not 2,045 = 5 · 409.  None when not even one
    such batch fits.

    >>> fit_prompts(512, 1, 6), fit_prompts(64, 8, 6), fit_prompts(4, 1, 8), fit_prompts(2048, 1, 5)
    (510, 63, None, 2040)
    """
    unit = world // math.gcd(group, world)  # the fewest prompts whose responses split evenly over world
    if prompts < unit:
        return None
    near = [m for m in range(unit, min(prompts, 2 * TARGET_BATCH_SEQUENCES // group) + 1, unit)
            if m * group >= TARGET_BATCH_SEQUENCES // 2]
    return max(prompts - prompts % m for m in near) if near else prompts - prompts % unit


def mini_batch(prompts: int, group: int, world: int) -> int | None:
    """An optimizer mini-batch in prompts: it divides the prompts per step, its sequences (· group) split evenly
    over the ``world`` training GPUs, and it comes nearest TARGET_BATCH_SEQUENCES sequences.

    >>> mini_batch(64, 8, 8), mini_batch(512, 1, 8), mini_batch(3, 1, 8)
    (16, 128, None)
    """
    if (prompts * group) % world:
        return None
    fits = [m for m in divisors(prompts) if (m * group) % world == 0]
    return closest(fits, max(1, TARGET_BATCH_SEQUENCES // group))


def plan_batch(prompts: int, group: int, world: int, per_epoch: int) -> tuple[int, int] | None:
    """The step's prompts and the optimizer mini-batch (in prompts) that run the plan's ``per_epoch`` optimizer
    steps: the most prompts, at most ``prompts``, that split into ``per_epoch`` mini-batches whose sequences
    (· group) divide evenly over the ``world`` data-parallel ranks (verl ``ppo_mini_batch_size``, OpenRLHF
    ``--train.batch_size``, TRL's gradient accumulation); None when no count does.

    >>> plan_batch(128, 8, 16, 1), plan_batch(128, 8, 16, 4), plan_batch(514, 1, 4, 4), plan_batch(3, 1, 8, 4)
    ((128, 128), (128, 32), (512, 128), None)
    """
    per_epoch = max(per_epoch, 1)
    for p in range(prompts - prompts % per_epoch, 0, -per_epoch):
        if (p // per_epoch * group) % world == 0:
            return p, p // per_epoch
    return None


def step_batch(prompts: int, group: int, world: int, optimizer_steps: int, epochs: int
               ) -> tuple[int | None, int | None, bool]:
    """(prompts per step, mini-batch in prompts, whether they run the plan's optimizer steps): ``plan_batch`` for
    the plan's ``optimizer_steps`` (over all ``epochs``), else the teaching batch of about TARGET_BATCH_SEQUENCES
    sequences (``fit_prompts``, ``mini_batch``); (None, None, False) when not even one batch splits.

    >>> step_batch(128, 8, 16, 4, 1), step_batch(64, 8, 8, 0, 1)
    ((128, 32, True), (64, 16, False))
    """
    per_epoch = optimizer_steps // max(epochs, 1)
    planned = plan_batch(prompts, group, world, per_epoch) if per_epoch else None
    if planned is not None:
        return planned[0], planned[1], True
    fitted = fit_prompts(prompts, group, world)
    return fitted, None if fitted is None else mini_batch(fitted, group, world), False


def dpo_batch(planned: int, processes: int) -> int:
    """DPO's pairs per optimizer step on ``processes`` GPUs of one pair each per micro-batch: the plan's batch when it
    splits evenly, else the least multiple of the GPUs above it (every GPU takes at least one pair); with no plan,
    about TARGET_BATCH_SEQUENCES.

    >>> dpo_batch(64, 8), dpo_batch(64, 48), dpo_batch(0, 8)
    (64, 96, 128)
    """
    target = planned or TARGET_BATCH_SEQUENCES
    return processes * max(1, math.ceil(target / processes))


def batch_note(key: str, size: int) -> str:
    """A batch-size note: beside the lab's assumed size when it differs, or saying it is that size."""
    return key + ("_assumed" if size == TARGET_BATCH_SEQUENCES else "")


def render(launcher: tuple[str, ...], tokens: list[list[str]], header: tuple[str, ...] = ()) -> str:
    """Comment lines, then the launcher on one line and one flag per line after it, each line but the last ending in
    `` \\``; every token shell-quoted."""
    lines = [" ".join(shlex.quote(t) for t in launcher)]
    lines += ["    " + " ".join(shlex.quote(t) for t in flag) for flag in tokens]
    return "".join(f"# {h}\n" for h in header) + " \\\n".join(lines)


class Builder:
    """Collects one command's flags and notes; refuses a flag that is not in its table (a programming error)."""

    def __init__(self, framework: str, table: dict[str, str], style: str = "dashes") -> None:
        self.framework, self.table, self.style = framework, table, style
        self.flags: list[Flag] = []
        self.notes: list[Note] = []
        self.missing: list[Note] = []

    def add(self, name: str, value: object = None, source: str | None = None) -> None:
        """One flag; ``source`` overrides the table's when a shared name is defined in another file too."""
        if name not in self.table:
            raise KeyError(f"{name} is not a {self.framework} flag of the table")
        text = None if value is None else (value if isinstance(value, str) else num(value))  # type: ignore[arg-type]
        self.flags.append(Flag(name, text, source or self.table[name]))

    def note(self, key: str, **args: Arg) -> None:
        self.notes.append(note(key, **args))

    def unmapped(self, field: str, **args: Arg) -> None:
        """A plan field this release has no key for: ``launch.unmapped.<framework>.<field>`` says why."""
        self.missing.append(note(f"launch.unmapped.{self.framework}.{field}", **args))

    def tokens(self) -> list[list[str]]:
        if self.style == "hydra":
            return [[f"{f.name}={f.value}"] for f in self.flags]
        return [[f.name] if f.value is None else [f.name, f.value] for f in self.flags]

    def command(self, version: str, launcher: tuple[str, ...], files: tuple[str, ...] = (), config: str = "",
                header: tuple[str, ...] = ()) -> Command:
        return Command(self.framework, version, render(launcher, self.tokens(), header), launcher,
                       tuple(self.flags), tuple(self.notes), files, config, tuple(self.missing))


def shell_words(text: str) -> list[str]:
    """The words a POSIX shell reads from a command's text: comment lines dropped, a backslash-newline removed.

    >>> shell_words("# verl 0.9.1\\npython3 -m x \\\\\\n    a=1")
    ['python3', '-m', 'x', 'a=1']
    """
    body = "\n".join(line for line in text.split("\n") if not line.startswith("#"))
    return shlex.split(body.replace("\\\n", ""))
