"""Launch files: for the layout the lab chose, a verl command line and an OpenRLHF one.

Pure Python (no web imports).  ``launch_commands(layout)`` turns a ``LaunchLayout`` — plain ints, floats and
strings the lead maps from the model's inputs and result — into a ``Launch``: one ``Command`` per framework, or
``None`` with a reason when that framework cannot express the layout.  It never raises: a layout it cannot read
gives ``None`` for both, with the field named.

Every flag a command can carry is in ``VERL_FLAGS`` or ``OPENRLHF_FLAGS`` (flag → source id), and every launcher
token in ``LAUNCHERS``; ``SOURCES`` says where each source id is published.  The flag names are the ones those
projects document today (verl-project/verl main, docs of August–September 2026; OpenRLHF 0.10.2, whose dotted
CLI replaced the flat flags of 0.9 and earlier — see docs/launch.md for the table, the old names and what each
maps from).  Notes and reasons are catalogue keys with arguments (``launch.note.*``, ``launch.reason.*``), never
English strings: the page translates them.

``layout_from(result)`` is that mapping for the lab's own state (the model's inputs and the GPU layout it chose);
``layout_notes(result)`` and ``layout_refusal(result)`` say what it had to change, or why the state has no launch
file at all (``launch.map.*`` keys).  The page ``/{lang}/launch`` (app/routes/launch.py) shows the result.

A command is a starting point, not a tuned config: batch sizes, LoRA rank and token budgets below are teaching
assumptions, each labelled where it is defined.
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.model.evaluate import Result

# --- sources ---------------------------------------------------------------------------------------------------------

_VERL = "https://github.com/verl-project/verl/blob/main/"
_ORLHF_DOCS = "https://openrlhf.readthedocs.io/en/latest/"

SOURCES: dict[str, tuple[str, str]] = {
    # id: (what, where)
    "verl.config": ("verl, Config Explanation (docs/examples/config.rst, updated 2026-08-24)",
                    _VERL + "docs/examples/config.rst"),
    "verl.perf": ("verl, Performance Tuning Guide (docs/perf/perf_tuning.rst)", _VERL + "docs/perf/perf_tuning.rst"),
    "verl.lora": ("verl, RL(HF) algorithms with LoRA Support (docs/advance/ppo_lora.rst, updated 2026-07-29)",
                  _VERL + "docs/advance/ppo_lora.rst"),
    "verl.v1async": ("verl, V1 Async Trainer (docs/advance/v1_async_trainer.md, updated 2026-09-16)",
                     _VERL + "docs/advance/v1_async_trainer.md"),
    "verl.grpo_example": ("verl, examples/grpo_trainer/run_qwen2-7b.sh", _VERL + "examples/grpo_trainer/run_qwen2-7b.sh"),
    "verl.ppo_rm_example": ("verl, examples/ppo_trainer/run_qwen2-7b_rm_seq_balance.sh",
                            _VERL + "examples/ppo_trainer/run_qwen2-7b_rm_seq_balance.sh"),
    "verl.moe_example": ("verl, examples/grpo_trainer/run_qwen3moe-30b_megatron.sh (Megatron, expert parallel)",
                         _VERL + "examples/grpo_trainer/run_qwen3moe-30b_megatron.sh"),
    "verl.hf_rollout_removed": ("verl PR #3071 “add a separate rollout worker” (removes hf_rollout); issue #4424",
                                "https://github.com/verl-project/verl/pull/3071"),
    "verl.dpo_extension": ("verl, Extend to other RL(HF) algorithms (docs/advance/dpo_extension.rst)",
                           _VERL + "docs/advance/dpo_extension.rst"),
    "openrlhf.options": ("OpenRLHF 0.10.2, Common CLI Options (OpenRLHF-Docs docs/source/common_options.rst)",
                         _ORLHF_DOCS + "common_options.html"),
    "openrlhf.hybrid": ("OpenRLHF, Hybrid Engine (OpenRLHF-Docs docs/source/hybrid_engine.rst)",
                        _ORLHF_DOCS + "hybrid_engine.html"),
    "openrlhf.async": ("OpenRLHF, Async Training & Partial Rollout (OpenRLHF-Docs docs/source/async_training.rst)",
                       _ORLHF_DOCS + "async_training.html"),
    "openrlhf.non_rl": ("OpenRLHF, Non-RL Methods: DPO (OpenRLHF-Docs docs/source/non_rl.rst)",
                        _ORLHF_DOCS + "non_rl.html"),
    "openrlhf.cli": ("OpenRLHF openrlhf/cli/train_ppo_ray.py (placement and estimator checks)",
                     "https://github.com/OpenRLHF/OpenRLHF/blob/main/openrlhf/cli/train_ppo_ray.py"),
    "deepspeed.launcher": ("DeepSpeed, Getting Started: resource configuration (multi-node)",
                           "https://www.deepspeed.ai/getting-started/#resource-configuration-multi-node"),
}

# verl has no release the flags are pinned to: its main branch as documented in a given month (repo, branch, year,
# month); the page writes the month in words (launch.version_branch), the command records it as text.
VERL_DOCS = ("verl-project/verl", "main", 2026, 9)
VERL_VERSION = f"{VERL_DOCS[0]} {VERL_DOCS[1]} (docs {VERL_DOCS[2]}-{VERL_DOCS[3]:02d})"
OPENRLHF_VERSION = "OpenRLHF 0.10.2"

# Flag name → source id.  verl takes Hydra overrides ``name=value``; OpenRLHF takes ``--name value`` (or a bare switch).
VERL_FLAGS: dict[str, str] = {
    "algorithm.adv_estimator": "verl.config",
    "algorithm.use_kl_in_reward": "verl.config",
    "algorithm.kl_ctrl.kl_coef": "verl.config",
    "data.train_files": "verl.config",
    "data.val_files": "verl.config",
    "data.train_batch_size": "verl.config",
    "data.max_prompt_length": "verl.config",
    "data.max_response_length": "verl.config",
    "data.train_max_samples": "verl.config",
    "actor_rollout_ref.hybrid_engine": "verl.config",
    "actor_rollout_ref.model.path": "verl.config",
    "actor_rollout_ref.model.enable_gradient_checkpointing": "verl.config",
    "actor_rollout_ref.model.lora_rank": "verl.lora",
    "actor_rollout_ref.model.lora_alpha": "verl.lora",
    "actor_rollout_ref.model.target_modules": "verl.lora",
    "actor_rollout_ref.actor.ppo_mini_batch_size": "verl.config",
    "actor_rollout_ref.actor.ppo_epochs": "verl.config",
    "actor_rollout_ref.actor.use_dynamic_bsz": "verl.config",
    "actor_rollout_ref.actor.ppo_max_token_len_per_gpu": "verl.config",
    "actor_rollout_ref.actor.use_kl_loss": "verl.config",
    "actor_rollout_ref.actor.kl_loss_coef": "verl.config",
    "actor_rollout_ref.actor.kl_loss_type": "verl.config",
    "actor_rollout_ref.actor.fsdp_config.optimizer_offload": "verl.config",
    "actor_rollout_ref.ref.fsdp_config.param_offload": "verl.config",
    "actor_rollout_ref.rollout.name": "verl.config",
    "actor_rollout_ref.rollout.n": "verl.config",
    "actor_rollout_ref.rollout.tensor_model_parallel_size": "verl.config",
    "actor_rollout_ref.rollout.gpu_memory_utilization": "verl.config",
    "actor_rollout_ref.rollout.load_format": "verl.lora",
    "actor_rollout_ref.rollout.nnodes": "verl.v1async",
    "actor_rollout_ref.rollout.n_gpus_per_node": "verl.v1async",
    "actor_rollout_ref.rollout.checkpoint_engine.backend": "verl.v1async",
    "critic.model.path": "verl.ppo_rm_example",
    "critic.model.enable_gradient_checkpointing": "verl.perf",
    "critic.model.fsdp_config.optimizer_offload": "verl.ppo_rm_example",
    "critic.use_dynamic_bsz": "verl.perf",
    "critic.ppo_max_token_len_per_gpu": "verl.perf",
    "reward_model.enable": "verl.config",
    "reward_model.model.path": "verl.config",
    "custom_reward_function.path": "verl.config",
    "trainer.use_v1": "verl.v1async",
    "trainer.v1.trainer_mode": "verl.v1async",
    "trainer.v1.separate_async.parameter_sync_step": "verl.v1async",
    "trainer.v1.sampler.max_off_policy_threshold": "verl.v1async",
    "trainer.nnodes": "verl.config",
    "trainer.n_gpus_per_node": "verl.config",
    "trainer.total_epochs": "verl.config",
}

OPENRLHF_FLAGS: dict[str, str] = {
    f"--{name}": "openrlhf.options" for name in (
        "actor.model_name_or_path", "actor.num_nodes", "actor.num_gpus_per_node",
        "actor.gradient_checkpointing_enable",
        "ref.num_nodes", "ref.num_gpus_per_node",
        "critic.num_nodes", "critic.num_gpus_per_node",
        "reward.model_name_or_path", "reward.remote_url", "reward.num_nodes", "reward.num_gpus_per_node",
        "vllm.num_engines", "vllm.tensor_parallel_size", "vllm.gpu_memory_utilization", "vllm.enable_sleep",
        "train.colocate_all", "train.async_enable", "train.async_queue_size",
        "train.batch_size", "train.micro_batch_size", "train.max_epochs", "train.num_episodes",
        "rollout.batch_size", "rollout.micro_batch_size", "rollout.n_samples_per_prompt", "rollout.max_new_tokens",
        "algo.advantage.estimator", "algo.kl.init_coef", "algo.kl.use_loss", "algo.kl.estimator",
        "data.prompt_dataset", "data.dataset", "data.apply_chat_template", "data.max_len", "data.max_samples",
        "ds.zero_stage", "ds.param_dtype", "ds.adam_offload", "ds.enable_sleep", "ds.lora.rank", "ds.lora.alpha",
        "model.model_name_or_path", "model.beta", "model.gradient_checkpointing_enable",
    )
}

# The fixed tokens in front of the flags, each with where it is documented.
LAUNCHERS: dict[str, tuple[tuple[str, ...], str]] = {
    "verl.main_ppo": (("python3", "-m", "verl.trainer.main_ppo"), "verl.v1async"),
    "openrlhf.train_ppo_ray": (("ray", "job", "submit", "--address=http://127.0.0.1:8265", "--",
                                "python3", "-m", "openrlhf.cli.train_ppo_ray"), "openrlhf.hybrid"),
    "openrlhf.train_dpo": (("deepspeed",), "openrlhf.non_rl"),  # then --num_gpus … --module openrlhf.cli.train_dpo
}
DEEPSPEED_LAUNCHER_FLAGS: dict[str, str] = {
    "--hostfile": "deepspeed.launcher", "--num_nodes": "deepspeed.launcher", "--num_gpus": "deepspeed.launcher",
    "--module": "openrlhf.non_rl",
}

# --- models and placeholders ---------------------------------------------------------------------------------------

# Hugging Face Hub ids of the lab's named architectures (PRODUCT.md ``arch``): the chat / instruct release, since RL
# starts from a tuned model.  ``custom`` has no id: the command carries PLACEHOLDER_MODEL and a note says so.
ARCH_MODEL_IDS: dict[str, str] = {
    "llama2_7b": "meta-llama/Llama-2-7b-chat-hf",
    "llama2_13b": "meta-llama/Llama-2-13b-chat-hf",
    "llama3_8b": "meta-llama/Llama-3.1-8B-Instruct",
    "llama3_70b": "meta-llama/Llama-3.1-70B-Instruct",
    "llama3_405b": "meta-llama/Llama-3.1-405B-Instruct",
    "qwen25_7b": "Qwen/Qwen2.5-7B-Instruct",
    "qwen3_8b": "Qwen/Qwen3-8B",
    "qwen3_32b": "Qwen/Qwen3-32B",
    "qwen3_30b_a3b": "Qwen/Qwen3-30B-A3B",
    "qwen3_235b_a22b": "Qwen/Qwen3-235B-A22B",
    "deepseek_v3": "deepseek-ai/DeepSeek-V3",
}
MOE_ARCHS = frozenset({"qwen3_30b_a3b", "qwen3_235b_a22b", "deepseek_v3"})

PLACEHOLDER_PREFIX = "/path/to/your/"
PLACEHOLDER_MODEL = PLACEHOLDER_PREFIX + "sft-checkpoint"
PLACEHOLDER_REWARD_MODEL = PLACEHOLDER_PREFIX + "reward-model"
PLACEHOLDER_TRAIN_FILES = PLACEHOLDER_PREFIX + "train.parquet"
PLACEHOLDER_VAL_FILES = PLACEHOLDER_PREFIX + "val.parquet"
PLACEHOLDER_PROMPTS = PLACEHOLDER_PREFIX + "prompts.jsonl"
PLACEHOLDER_PAIRS = PLACEHOLDER_PREFIX + "preference-pairs.jsonl"
PLACEHOLDER_VERL_REWARD_FN = PLACEHOLDER_PREFIX + "reward_fn.py"
PLACEHOLDER_OPENRLHF_REWARD_FN = PLACEHOLDER_PREFIX + "reward_func.py"
PLACEHOLDER_HOSTFILE = PLACEHOLDER_PREFIX + "hostfile"

# --- teaching assumptions (each a judgement, not a measurement) ----------------------------------------------------

TARGET_BATCH_SEQUENCES = 128  # sequences per optimizer step (MODEL-2026 §4: OpenRLHF's and InstructGPT's order)
LORA_RANK = 64                # verl examples/grpo_trainer/run_qwen2_5-3b_gsm8k_grpo_lora.sh; ppo_lora.rst: rank ≥ 32
LORA_ALPHA = 32               # the same example
TOKEN_BUDGET_FLOOR = 16_384   # tokens per GPU per micro-batch: verl's ppo_max_token_len_per_gpu default (config.rst)
REF_OFFLOAD_ABOVE_B = 7.0     # billions: config.rst recommends reference param offload for models larger than 7B
MAX_ROLLOUT_MICRO_BATCH = 8   # OpenRLHF's old default micro_rollout_batch_size (train_ppo_ray.py)
MAX_STALENESS = 64            # beyond this the layout is not read (the lab allows 0–4)


# --- the layout the lab chose --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LaunchLayout:
    """The state on screen, as plain values (the lead maps the model's inputs and result onto it).

    Strings use the contract's values (shared/design/PRODUCT.md); counts are whole GPUs, tokens or sequences.
    """

    method: str = "ppo"                  # ppo | grpo | dpo
    arch: str = "custom"                 # a PRODUCT.md arch id; custom → placeholder checkpoint path
    policy_b: float = 7.0                # policy size, billions of parameters (total, for MoE)
    reward: str = "model"                # model (a learned reward model) | verifier (a rule or test in Python)
    rm_b: float = 7.0                    # reward-model size, billions (not a flag: informs notes only)
    gpus: int = 8                        # total GPUs = nodes · gpus_per_node
    gpus_per_node: int = 8               # GPUs used on each node, 1–8 (min(8, gpus) for one node)
    nodes: int = 1                       # nodes
    placement: str = "colocated"         # colocated (every role on every GPU, in turn) | separate
    generation_gpus: int = 8             # separate: GPUs of the rollout engines (= rollout_tp · rollout_replicas)
    scoring_gpus: int = 8                # separate: GPUs of the reference and reward model forwards
    training_gpus: int = 8               # separate: GPUs of the actor (and critic) training
    rollout_tp: int = 1                  # tensor-parallel size of one rollout engine (≤ gpus_per_node)
    rollout_replicas: int = 8            # rollout engines; tp · replicas = gpus (colocated) or generation_gpus
    gpu_memory_utilization: float = 0.6  # the engine's share of each GPU's memory, 0–1
    group: int = 8                       # responses per prompt (grpo); ppo and dpo ignore it
    rollouts: int = 512                  # responses per step (prompts per step = rollouts // group)
    kl: float = 0.02                     # KL coefficient β (0 = no KL term, no reference model); DPO's β under dpo
    epochs: int = 1                      # optimisation epochs per batch of rollouts (dpo: epochs over the pairs)
    prompt_tokens: int = 512             # mean prompt length, tokens (informs notes only)
    prompt_max_tokens: int = 512         # longest prompt, tokens
    response_tokens: int = 1024          # mean response length, tokens (informs notes only)
    response_max_tokens: int = 1024      # longest response, tokens
    staleness: int = 0                   # 0 = on-policy; k ≥ 1 = generation runs k steps ahead (needs separate)
    engine: str = "vllm"                 # vllm (paged engine) | hf (HF generate inside the trainer)
    offload: str = "none"                # none | optimizer (Adam states in host memory)
    tuning: str = "full"                 # full | lora
    prompts: int = 31_000                # the RL prompt set (0 = all of the dataset)
    pairs: int = 161_000                 # dpo: preference pairs (0 = all of the dataset)


_CHOICES: dict[str, tuple[str, ...]] = {
    "method": ("ppo", "grpo", "dpo"),
    "arch": ("custom", *ARCH_MODEL_IDS),
    "reward": ("model", "verifier"),
    "placement": ("colocated", "separate"),
    "engine": ("vllm", "hf"),
    "offload": ("none", "optimizer"),
    "tuning": ("full", "lora"),
}
_FLOATS = ("policy_b", "rm_b", "gpu_memory_utilization", "kl")


# --- what comes out ------------------------------------------------------------------------------------------------

Arg = str | int | float


@dataclass(frozen=True, slots=True)
class Note:
    """A catalogue key (``launch.note.*`` or ``launch.reason.*``) and its arguments, translated by the page."""

    key: str
    args: tuple[tuple[str, Arg], ...] = ()

    @property
    def params(self) -> dict[str, Arg]:
        return dict(self.args)


@dataclass(frozen=True, slots=True)
class Flag:
    """One flag of a command: its documented name, its value (None for a bare switch) and its source id."""

    name: str
    value: str | None
    source: str


@dataclass(frozen=True, slots=True)
class Command:
    """One framework's command: the shell text (``\\`` continuations), what it is made of, and its notes."""

    framework: str                 # verl | openrlhf
    version: str                   # the release whose documented names it uses
    text: str                      # a multi-line shell command; shlex.split gives launcher + flag tokens
    launcher: tuple[str, ...]      # the tokens before the flags
    flags: tuple[Flag, ...]
    notes: tuple[Note, ...]


@dataclass(frozen=True, slots=True)
class Launch:
    """Both commands; a framework that cannot express the layout gives None and a reason."""

    verl: Command | None
    openrlhf: Command | None
    verl_reason: Note | None = None
    openrlhf_reason: Note | None = None


# --- helpers -------------------------------------------------------------------------------------------------------


def _num(value: float | int) -> str:
    """A number as a flag value: integers without '.0', floats to 6 significant digits in their shortest form
    (so that arithmetic noise such as 0.6000000000000001 does not reach the command).

    >>> _num(8), _num(0.6000000000000001), _num(0.001), _num(1e-05), _num(1.0), _num(True)
    ('8', '0.6', '0.001', '1e-05', '1', 'True')
    """
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, float):
        value = float(f"{value:.6g}")
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


def _whole_nodes(gpus: int, per_node: int) -> tuple[int, int] | None:
    """(nodes, GPUs per node) for a group of ``gpus`` on nodes of ``per_node``; None when it is not whole nodes.

    >>> _whole_nodes(4, 8), _whole_nodes(16, 8), _whole_nodes(12, 8)
    ((1, 4), (2, 8), None)
    """
    if gpus <= per_node:
        return 1, gpus
    if gpus % per_node == 0:
        return gpus // per_node, per_node
    return None


def _closest(candidates: list[int], target: int) -> int | None:
    """The candidate nearest ``target``, the smaller on a tie; None when there is none."""
    return min(candidates, key=lambda c: (abs(c - target), c)) if candidates else None


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted({*small, *(n // d for d in small)})


def _fit_prompts(prompts: int, group: int, world: int) -> int | None:
    """The most prompts per step, at most ``prompts``, whose responses (· group) split evenly over ``world``
    training GPUs (verl checks train_batch_size · rollout.n against the GPU count; DeepSpeed needs whole
    micro-batches per GPU) in mini-batches within 2× of TARGET_BATCH_SEQUENCES sequences when the step has that many:
    2,048 responses on 5 GPUs become 2,040 (mini-batches of 120), not 2,045 = 5 · 409, which only splits into
    mini-batches of 5 or 2,045.  None when not even one such batch fits.

    >>> _fit_prompts(512, 1, 6), _fit_prompts(64, 8, 6), _fit_prompts(4, 1, 8), _fit_prompts(2048, 1, 5)
    (510, 63, None, 2040)
    """
    unit = world // math.gcd(group, world)  # the fewest prompts whose responses split evenly over world
    if prompts < unit:
        return None
    near = [m for m in range(unit, min(prompts, 2 * TARGET_BATCH_SEQUENCES // group) + 1, unit)
            if m * group >= TARGET_BATCH_SEQUENCES // 2]
    return max(prompts - prompts % m for m in near) if near else prompts - prompts % unit


def _verl_mini_batch(prompts: int, group: int, world: int) -> int | None:
    """verl's ``ppo_mini_batch_size`` in prompts: it divides the prompts per step, its sequences (· group) split
    evenly over the ``world`` training GPUs, and it comes nearest TARGET_BATCH_SEQUENCES sequences.

    >>> _verl_mini_batch(64, 8, 8), _verl_mini_batch(512, 1, 8), _verl_mini_batch(3, 1, 8)
    (16, 128, None)
    """
    if (prompts * group) % world:
        return None
    fits = [m for m in _divisors(prompts) if (m * group) % world == 0]
    return _closest(fits, max(1, TARGET_BATCH_SEQUENCES // group))


def _batch_note(key: str, size: int) -> str:
    """A batch-size note: beside the lab's assumed size when it differs, or saying it is that size."""
    return key + ("_assumed" if size == TARGET_BATCH_SEQUENCES else "")


def _openrlhf_train_batch(samples: int, actor_gpus: int) -> int | None:
    """OpenRLHF's ``--train.batch_size`` in samples: it divides the samples per step, is a multiple of the actor's
    GPUs (one micro-batch of 1 each), and comes nearest TARGET_BATCH_SEQUENCES.

    >>> _openrlhf_train_batch(512, 8), _openrlhf_train_batch(512, 6), _openrlhf_train_batch(100, 8)
    (128, None, None)
    """
    fits = [b for b in _divisors(samples) if b % actor_gpus == 0]
    return _closest(fits, TARGET_BATCH_SEQUENCES)


def _render(launcher: tuple[str, ...], tokens: list[list[str]]) -> str:
    """The launcher on the first line, one flag per line after it, each line but the last ending in `` \\``;
    every token shell-quoted."""
    lines = [" ".join(shlex.quote(t) for t in launcher)]
    lines += ["    " + " ".join(shlex.quote(t) for t in flag) for flag in tokens]
    return " \\\n".join(lines)


class _Builder:
    """Collects one command's flags and notes; refuses a flag that is not in its table (a programming error)."""

    def __init__(self, framework: str, table: dict[str, str]) -> None:
        self.framework, self.table = framework, table
        self.flags: list[Flag] = []
        self.notes: list[Note] = []

    def add(self, name: str, value: object = None) -> None:
        if name not in self.table:
            raise KeyError(f"{name} is not a documented {self.framework} flag")
        text = None if value is None else (value if isinstance(value, str) else _num(value))  # type: ignore[arg-type]
        self.flags.append(Flag(name, text, self.table[name]))

    def note(self, key: str, **args: Arg) -> None:
        self.notes.append(Note(key, tuple(args.items())))

    def command(self, version: str, launcher: tuple[str, ...]) -> Command:
        if self.framework == "verl":
            tokens = [[f"{f.name}={f.value}"] for f in self.flags]
        else:
            tokens = [[f.name] if f.value is None else [f.name, f.value] for f in self.flags]
        return Command(self.framework, version, _render(launcher, tokens), launcher, tuple(self.flags),
                       tuple(self.notes))


def _reason(key: str, **args: Arg) -> Note:
    return Note(key, tuple(args.items()))


# --- checking the layout -------------------------------------------------------------------------------------------


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _invalid(layout: LaunchLayout) -> Note | None:  # noqa: C901, PLR0911, PLR0912 - one check per rule, in order
    """The first field that makes the layout unreadable, as a reason; None when the layout is readable."""
    for f in fields(LaunchLayout):
        value = getattr(layout, f.name)
        if f.name in _CHOICES:
            ok = isinstance(value, str) and value in _CHOICES[f.name]
        elif f.name in _FLOATS:
            ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        else:
            ok = isinstance(value, int) and not isinstance(value, bool)
        if not ok:
            return _reason("launch.reason.invalid_layout", field=f.name, value=_shown(value))
    rules = (
        ("gpus", layout.gpus >= 1),
        ("gpus_per_node", 1 <= layout.gpus_per_node <= 8),
        ("nodes", layout.nodes >= 1 and layout.nodes * layout.gpus_per_node == layout.gpus),
        ("policy_b", layout.policy_b > 0),
        ("rm_b", layout.rm_b > 0),
        ("rollout_tp", 1 <= layout.rollout_tp <= layout.gpus_per_node),
        ("rollout_replicas", layout.rollout_replicas >= 1),
        ("gpu_memory_utilization", 0 < layout.gpu_memory_utilization <= 1),
        ("group", layout.group >= 1),
        ("rollouts", layout.rollouts >= 1),
        ("kl", (layout.kl > 0 if layout.method == "dpo" else layout.kl >= 0) and layout.kl <= 1),  # contract: 0–1
        ("epochs", layout.epochs >= 1),
        ("prompt_tokens", layout.prompt_tokens >= 1),
        ("prompt_max_tokens", layout.prompt_max_tokens >= layout.prompt_tokens),
        ("response_tokens", layout.response_tokens >= 1),
        ("response_max_tokens", layout.response_max_tokens >= layout.response_tokens),
        ("staleness", 0 <= layout.staleness <= MAX_STALENESS),
        ("prompts", layout.prompts >= 0),
        ("pairs", layout.pairs >= 0),
    )
    for name, ok in rules:
        if not ok:
            return _reason("launch.reason.invalid_layout", field=name, value=_shown(getattr(layout, name)))
    if layout.method == "dpo":
        return None
    engines = layout.rollout_tp * layout.rollout_replicas
    if layout.placement == "separate":
        split = (layout.generation_gpus, layout.scoring_gpus, layout.training_gpus)
        if min(split) < 0 or layout.generation_gpus < 1 or layout.training_gpus < 1 or sum(split) != layout.gpus:
            return _reason("launch.reason.invalid_layout", field="generation_gpus",
                           value=_shown(split))
        if engines != layout.generation_gpus:
            return _reason("launch.reason.invalid_layout", field="rollout_replicas", value=_shown(engines))
    elif engines != layout.gpus:
        return _reason("launch.reason.invalid_layout", field="rollout_replicas", value=_shown(engines))
    return None


# --- shared facts of an RL layout ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Rl:
    grpo: bool
    group: int          # responses per prompt in the command (1 for ppo)
    prompts_per_step: int
    samples: int        # responses per step in the command (prompts_per_step · group)
    ref: bool           # a reference model runs (kl > 0)
    critic: bool        # ppo
    reward_model: bool  # a learned reward model (else a verifier function)
    model_path: str
    max_len: int        # longest prompt + longest response


def _rl_facts(layout: LaunchLayout) -> _Rl:
    grpo = layout.method == "grpo"
    group = layout.group if grpo else 1
    prompts = layout.rollouts // group
    return _Rl(grpo, group, prompts, prompts * group, layout.kl > 0, not grpo, layout.reward == "model",
               ARCH_MODEL_IDS.get(layout.arch, PLACEHOLDER_MODEL),
               layout.prompt_max_tokens + layout.response_max_tokens)


def _common_notes(b: _Builder, layout: LaunchLayout, rl: _Rl | None) -> None:
    b.note("launch.note.placeholders", prefix=PLACEHOLDER_PREFIX)
    if layout.arch == "custom":
        b.note("launch.note.custom_model", path=PLACEHOLDER_MODEL, size=layout.policy_b)
    if rl is None:
        return
    if not rl.ref:
        b.note("launch.note.no_reference")
    if layout.response_max_tokens > layout.response_tokens:
        b.note("launch.note.max_lengths", mean=layout.response_tokens, longest=layout.response_max_tokens)
    if layout.nodes > 1:
        b.note("launch.note.ray_cluster", nodes=layout.nodes)


# --- verl ------------------------------------------------------------------------------------------------------------


def _verl(layout: LaunchLayout, rl: _Rl) -> tuple[Command | None, Note | None]:  # noqa: PLR0915 - one flag a line
    if layout.engine == "hf":
        return None, _reason("launch.reason.verl_no_hf_rollout")
    separate = layout.placement == "separate"
    if separate and layout.staleness == 0:
        return None, _reason("launch.reason.verl_separate_sync")
    if separate:
        trainer_gpus = layout.scoring_gpus + layout.training_gpus
        trainer_nodes = _whole_nodes(trainer_gpus, layout.gpus_per_node)
        rollout_nodes = _whole_nodes(layout.generation_gpus, layout.gpus_per_node)
        if trainer_nodes is None:
            return None, _reason("launch.reason.not_whole_nodes", role="trainer", gpus=trainer_gpus,
                                 per_node=layout.gpus_per_node)
        if rollout_nodes is None:
            return None, _reason("launch.reason.not_whole_nodes", role="rollout", gpus=layout.generation_gpus,
                                 per_node=layout.gpus_per_node)
    else:
        trainer_gpus, trainer_nodes, rollout_nodes = layout.gpus, (layout.nodes, layout.gpus_per_node), None
    prompts = _fit_prompts(rl.prompts_per_step, rl.group, trainer_gpus)
    mini = None if prompts is None else _verl_mini_batch(prompts, rl.group, trainer_gpus)
    if prompts is None or mini is None:
        return None, _reason("launch.reason.batch_not_divisible", samples=rl.samples, gpus=trainer_gpus)

    b = _Builder("verl", VERL_FLAGS)
    budget = max(TOKEN_BUDGET_FLOOR, 2 * rl.max_len)  # perf_tuning.rst: at least 2 × (max prompt + max response)
    b.add("algorithm.adv_estimator", "grpo" if rl.grpo else "gae")
    b.add("data.train_files", PLACEHOLDER_TRAIN_FILES)
    b.add("data.val_files", PLACEHOLDER_VAL_FILES)
    b.add("data.train_batch_size", prompts)
    b.add("data.max_prompt_length", layout.prompt_max_tokens)
    b.add("data.max_response_length", layout.response_max_tokens)
    if layout.prompts > 0:
        b.add("data.train_max_samples", layout.prompts)
    b.add("actor_rollout_ref.hybrid_engine", not separate)
    b.add("actor_rollout_ref.model.path", rl.model_path)
    b.add("actor_rollout_ref.model.enable_gradient_checkpointing", True)
    if layout.tuning == "lora":
        b.add("actor_rollout_ref.model.lora_rank", LORA_RANK)
        b.add("actor_rollout_ref.model.lora_alpha", LORA_ALPHA)
        b.add("actor_rollout_ref.model.target_modules", "all-linear")
    b.add("actor_rollout_ref.actor.ppo_mini_batch_size", mini)
    b.add("actor_rollout_ref.actor.ppo_epochs", layout.epochs)
    b.add("actor_rollout_ref.actor.use_dynamic_bsz", True)
    b.add("actor_rollout_ref.actor.ppo_max_token_len_per_gpu", budget)
    kl_loss = rl.grpo and rl.ref
    b.add("actor_rollout_ref.actor.use_kl_loss", kl_loss)
    if kl_loss:
        b.add("actor_rollout_ref.actor.kl_loss_coef", layout.kl)
        b.add("actor_rollout_ref.actor.kl_loss_type", "low_var_kl")
    b.add("actor_rollout_ref.actor.fsdp_config.optimizer_offload", layout.offload == "optimizer")
    if rl.ref and layout.policy_b > REF_OFFLOAD_ABOVE_B:
        b.add("actor_rollout_ref.ref.fsdp_config.param_offload", True)
        b.note("launch.note.verl_ref_offload", size=layout.policy_b)
    b.add("actor_rollout_ref.rollout.name", "vllm")
    b.add("actor_rollout_ref.rollout.n", rl.group)
    b.add("actor_rollout_ref.rollout.tensor_model_parallel_size", layout.rollout_tp)
    b.add("actor_rollout_ref.rollout.gpu_memory_utilization", layout.gpu_memory_utilization)
    if layout.tuning == "lora":
        b.add("actor_rollout_ref.rollout.load_format", "safetensors")
    if rollout_nodes is not None:
        b.add("actor_rollout_ref.rollout.nnodes", rollout_nodes[0])
        b.add("actor_rollout_ref.rollout.n_gpus_per_node", rollout_nodes[1])
        b.add("actor_rollout_ref.rollout.checkpoint_engine.backend", "nccl")
    kl_in_reward = rl.critic and rl.ref
    b.add("algorithm.use_kl_in_reward", kl_in_reward)
    if kl_in_reward:
        b.add("algorithm.kl_ctrl.kl_coef", layout.kl)
    if rl.critic:
        b.add("critic.model.path", PLACEHOLDER_REWARD_MODEL if rl.reward_model else rl.model_path)
        b.add("critic.model.enable_gradient_checkpointing", True)
        b.add("critic.use_dynamic_bsz", True)
        b.add("critic.ppo_max_token_len_per_gpu", 2 * budget)  # perf_tuning.rst: critic ≥ 2 × the actor's limit
        b.add("critic.model.fsdp_config.optimizer_offload", layout.offload == "optimizer")
        b.note("launch.note.verl_critic_from_reward_model" if rl.reward_model else "launch.note.critic_from_policy")
    b.add("reward_model.enable", rl.reward_model)
    if rl.reward_model:
        b.add("reward_model.model.path", PLACEHOLDER_REWARD_MODEL)
        b.note("launch.note.verl_reward_model", path=PLACEHOLDER_REWARD_MODEL)
    else:
        b.add("custom_reward_function.path", PLACEHOLDER_VERL_REWARD_FN)
        b.note("launch.note.verl_verifier", path=PLACEHOLDER_VERL_REWARD_FN)
    if separate:
        b.add("trainer.use_v1", True)
        b.add("trainer.v1.trainer_mode", "separate_async")
        b.add("trainer.v1.separate_async.parameter_sync_step", prompts // mini)
        b.add("trainer.v1.sampler.max_off_policy_threshold", layout.staleness)
        b.note("launch.note.verl_trainer_pool", gpus=trainer_gpus, scoring=layout.scoring_gpus,
               training=layout.training_gpus)
        b.note("launch.note.verl_async", staleness=layout.staleness)
    b.add("trainer.nnodes", trainer_nodes[0])
    b.add("trainer.n_gpus_per_node", trainer_nodes[1])
    b.add("trainer.total_epochs", 1)
    b.note(_batch_note("launch.note.mini_batch", mini * rl.group), sequences=mini * rl.group,
           target=TARGET_BATCH_SEQUENCES)
    if prompts * rl.group != layout.rollouts:
        b.note(_rounded_key(rl), rollouts=layout.rollouts, used=prompts * rl.group)
    if layout.tuning == "lora":
        b.note("launch.note.verl_lora", rank=LORA_RANK, alpha=LORA_ALPHA)
    if layout.arch in MOE_ARCHS:
        b.note("launch.note.verl_moe")
    _common_notes(b, layout, rl)
    return b.command(VERL_VERSION, LAUNCHERS["verl.main_ppo"][0]), None


# --- OpenRLHF --------------------------------------------------------------------------------------------------------


def _openrlhf_roles(layout: LaunchLayout, rl: _Rl) -> tuple[dict[str, int], Note | None]:
    """GPUs per OpenRLHF role.  Colocated: every role on all GPUs.  Separate: the training group holds the actor
    (and the critic, half each), the scoring group the reference and the reward model (half each); the vLLM
    engines are the generation group."""
    roles: dict[str, int] = {}
    if layout.placement == "colocated":
        roles["actor"] = layout.gpus
        for role, present in (("ref", rl.ref), ("critic", rl.critic), ("reward", rl.reward_model)):
            if present:
                roles[role] = layout.gpus
        return roles, None
    train, score = layout.training_gpus, layout.scoring_gpus
    if rl.critic:
        if train < 2:
            return {}, _reason("launch.reason.training_split", gpus=train)
        roles["actor"], roles["critic"] = (train + 1) // 2, train // 2
    else:
        roles["actor"] = train
    scorers = [role for role, present in (("ref", rl.ref), ("reward", rl.reward_model)) if present]
    if len(scorers) > score:
        return {}, _reason("launch.reason.scoring_split", gpus=score, needed=len(scorers))
    if len(scorers) == 2:
        roles["ref"], roles["reward"] = (score + 1) // 2, score // 2
    elif scorers:
        roles[scorers[0]] = score
    return roles, None


def _openrlhf(layout: LaunchLayout, rl: _Rl) -> tuple[Command | None, Note | None]:  # noqa: PLR0912
    if layout.engine == "hf":
        return None, _reason("launch.reason.openrlhf_no_hf_rollout")
    if layout.tuning == "lora":
        return None, _reason("launch.reason.openrlhf_no_lora_rl")
    roles, why = _openrlhf_roles(layout, rl)
    if why is not None:
        return None, why
    placed: dict[str, tuple[int, int]] = {}
    for role, gpus in roles.items():
        nodes = _whole_nodes(gpus, layout.gpus_per_node)
        if nodes is None:
            return None, _reason("launch.reason.not_whole_nodes", role=role, gpus=gpus, per_node=layout.gpus_per_node)
        placed[role] = nodes
    actor_gpus = roles["actor"]
    prompts = _fit_prompts(rl.prompts_per_step, rl.group, actor_gpus)
    batch = None if prompts is None else _openrlhf_train_batch(prompts * rl.group, actor_gpus)
    if prompts is None or batch is None:
        return None, _reason("launch.reason.batch_not_divisible", samples=rl.samples, gpus=actor_gpus)
    samples = prompts * rl.group

    b = _Builder("openrlhf", OPENRLHF_FLAGS)
    colocated = layout.placement == "colocated"
    b.add("--actor.model_name_or_path", rl.model_path)
    for role in ("actor", "ref", "critic", "reward"):
        if role in placed:
            b.add(f"--{role}.num_nodes", placed[role][0])
            b.add(f"--{role}.num_gpus_per_node", placed[role][1])
    if rl.reward_model:
        b.add("--reward.model_name_or_path", PLACEHOLDER_REWARD_MODEL)
    else:
        b.add("--reward.remote_url", PLACEHOLDER_OPENRLHF_REWARD_FN)
        b.note("launch.note.openrlhf_verifier", path=PLACEHOLDER_OPENRLHF_REWARD_FN)
    b.add("--vllm.num_engines", layout.rollout_replicas)
    b.add("--vllm.tensor_parallel_size", layout.rollout_tp)
    b.add("--vllm.gpu_memory_utilization", layout.gpu_memory_utilization)
    if colocated:
        b.add("--train.colocate_all")
        b.add("--vllm.enable_sleep")
        b.add("--ds.enable_sleep")
        b.note("launch.note.openrlhf_hybrid")
    elif layout.staleness > 0:
        b.add("--train.async_enable")
        b.add("--train.async_queue_size", layout.staleness)
        b.note("launch.note.openrlhf_async", staleness=layout.staleness)
    b.add("--algo.advantage.estimator", "group_norm" if rl.grpo else "gae")
    b.add("--rollout.n_samples_per_prompt", rl.group)
    b.add("--rollout.batch_size", prompts)
    b.add("--rollout.micro_batch_size", max(1, min(MAX_ROLLOUT_MICRO_BATCH, samples // actor_gpus)))
    b.add("--rollout.max_new_tokens", layout.response_max_tokens)
    b.add("--data.max_len", rl.max_len)
    b.add("--train.batch_size", batch)
    b.add("--train.micro_batch_size", 1)
    b.add("--train.max_epochs", layout.epochs)
    b.add("--train.num_episodes", 1)
    b.add("--algo.kl.init_coef", layout.kl)
    if rl.grpo and rl.ref:
        b.add("--algo.kl.use_loss")
        b.add("--algo.kl.estimator", "k3")
    b.add("--data.prompt_dataset", PLACEHOLDER_PROMPTS)
    b.add("--data.apply_chat_template")
    if layout.prompts > 0:
        b.add("--data.max_samples", layout.prompts)
    b.add("--ds.zero_stage", 3)
    b.add("--ds.param_dtype", "bf16")
    if layout.offload == "optimizer":
        b.add("--ds.adam_offload")
    b.add("--actor.gradient_checkpointing_enable")
    if rl.critic:
        b.note("launch.note.critic_from_reward_model" if rl.reward_model else "launch.note.critic_from_policy")
    if layout.placement == "separate" and layout.scoring_gpus > 0 and not (rl.ref or rl.reward_model):
        b.note("launch.note.scoring_gpus_idle", gpus=layout.scoring_gpus)
    b.note(_batch_note("launch.note.train_batch", batch), samples=batch, target=TARGET_BATCH_SEQUENCES)
    if samples != layout.rollouts:
        b.note(_rounded_key(rl), rollouts=layout.rollouts, used=samples)
    _common_notes(b, layout, rl)
    return b.command(OPENRLHF_VERSION, LAUNCHERS["openrlhf.train_ppo_ray"][0]), None


def _openrlhf_dpo(layout: LaunchLayout) -> Command:
    per_step = layout.gpus * max(1, math.ceil(TARGET_BATCH_SEQUENCES / layout.gpus))  # a multiple of the GPUs
    launcher: tuple[str, ...] = LAUNCHERS["openrlhf.train_dpo"][0]
    if layout.nodes > 1:
        launcher += ("--hostfile", PLACEHOLDER_HOSTFILE, "--num_nodes", str(layout.nodes))
    launcher += ("--num_gpus", str(layout.gpus_per_node), "--module", "openrlhf.cli.train_dpo")
    b = _Builder("openrlhf", OPENRLHF_FLAGS)
    b.add("--model.model_name_or_path", ARCH_MODEL_IDS.get(layout.arch, PLACEHOLDER_MODEL))
    b.add("--data.dataset", PLACEHOLDER_PAIRS)
    b.add("--data.apply_chat_template")
    b.add("--data.max_len", layout.prompt_max_tokens + layout.response_max_tokens)
    if layout.pairs > 0:
        b.add("--data.max_samples", layout.pairs)
    b.add("--train.batch_size", per_step)
    b.add("--train.micro_batch_size", 1)
    b.add("--train.max_epochs", layout.epochs)
    b.add("--model.beta", layout.kl)
    b.add("--ds.zero_stage", 3)
    b.add("--ds.param_dtype", "bf16")
    if layout.offload == "optimizer":
        b.add("--ds.adam_offload")
    if layout.tuning == "lora":
        b.add("--ds.lora.rank", LORA_RANK)
        b.add("--ds.lora.alpha", LORA_ALPHA)
    b.add("--model.gradient_checkpointing_enable")
    b.note("launch.note.dpo_offline")
    b.note(_batch_note("launch.note.train_batch", per_step), samples=per_step, target=TARGET_BATCH_SEQUENCES)
    if layout.nodes > 1:
        b.note("launch.note.deepspeed_hostfile", nodes=layout.nodes, path=PLACEHOLDER_HOSTFILE)
    _common_notes(b, layout, None)
    return b.command(OPENRLHF_VERSION, launcher)


# --- the entry point -------------------------------------------------------------------------------------------------


def launch_commands(layout: LaunchLayout) -> Launch:
    """The verl and OpenRLHF commands for ``layout``; None and a reason for a framework that cannot express it.

    >>> launch = launch_commands(LaunchLayout(method="grpo", reward="verifier", kl=0.001))
    >>> [f.value for f in launch.verl.flags if f.name == "actor_rollout_ref.rollout.n"]
    ['8']
    >>> launch.verl_reason, launch.openrlhf.framework
    (None, 'openrlhf')
    """
    why = _invalid(layout)
    if why is not None:
        return Launch(None, None, why, why)
    if layout.method == "dpo":
        return Launch(None, _openrlhf_dpo(layout), _reason("launch.reason.verl_no_dpo"), None)
    rl = _rl_facts(layout)
    if rl.grpo and rl.group < 2:
        why = _reason("launch.reason.grpo_needs_group", group=layout.group)
    elif rl.prompts_per_step < 1:
        why = _reason("launch.reason.too_few_rollouts", rollouts=layout.rollouts, group=rl.group)
    elif layout.staleness > 0 and layout.placement == "colocated":
        why = _reason("launch.reason.async_needs_separate", staleness=layout.staleness)
    if why is not None:
        return Launch(None, None, why, why)
    verl, verl_why = _verl(layout, rl)
    openrlhf, openrlhf_why = _openrlhf(layout, rl)
    return Launch(verl, openrlhf, verl_why, openrlhf_why)


def _rounded_key(rl: _Rl) -> str:
    """The note for a rounded rollout count: GRPO also keeps whole groups of responses together."""
    return "launch.note.rollouts_rounded_grpo" if rl.grpo else "launch.note.rollouts_rounded"


def all_note_keys() -> frozenset[str]:
    """Every catalogue key this module can emit (notes and reasons), for the catalogue tests."""
    return frozenset({
        "launch.reason.invalid_layout", "launch.reason.verl_no_dpo", "launch.reason.verl_no_hf_rollout",
        "launch.reason.verl_separate_sync", "launch.reason.openrlhf_no_hf_rollout",
        "launch.reason.openrlhf_no_lora_rl", "launch.reason.grpo_needs_group", "launch.reason.too_few_rollouts",
        "launch.reason.async_needs_separate", "launch.reason.not_whole_nodes", "launch.reason.batch_not_divisible",
        "launch.reason.training_split", "launch.reason.scoring_split",
        "launch.note.placeholders", "launch.note.custom_model", "launch.note.rollouts_rounded",
        "launch.note.rollouts_rounded_grpo",
        "launch.note.no_reference", "launch.note.max_lengths", "launch.note.ray_cluster",
        "launch.note.verl_ref_offload", "launch.note.critic_from_reward_model", "launch.note.critic_from_policy",
        "launch.note.verl_reward_model", "launch.note.verl_verifier", "launch.note.verl_trainer_pool",
        "launch.note.verl_async", "launch.note.mini_batch", "launch.note.verl_lora", "launch.note.verl_moe",
        "launch.note.openrlhf_verifier", "launch.note.openrlhf_hybrid", "launch.note.openrlhf_async",
        "launch.note.scoring_gpus_idle", "launch.note.train_batch", "launch.note.dpo_offline",
        "launch.note.deepspeed_hostfile", "launch.note.mini_batch_assumed", "launch.note.train_batch_assumed",
        "launch.note.verl_critic_from_reward_model",
    })


# --- from the lab's result -------------------------------------------------------------------------------------------

NODE_GPUS = 8  # GPUs per node: the lab's node (app/model/assumptions.py ``gpus_per_node``; HGX / DGX boards)
TEACHING_GPU_MEMORY_UTILIZATION = 0.6  # teaching assumption: the engine's share when the model gives it none
OFFLINE_STAGES = ("sft_only", "reward_model")  # stages before the loop: nothing for these commands to launch


def _pow2_divisor(n: int, at_most: int) -> int:
    """The largest power of 2 that divides ``n`` and is at most ``at_most`` (≥ 1).

    >>> _pow2_divisor(6, 4), _pow2_divisor(16, 8), _pow2_divisor(7, 4), _pow2_divisor(12, 8)
    (2, 8, 1, 4)
    """
    d = 1
    while d * 2 <= at_most and n % (d * 2) == 0:
        d *= 2
    return d


@dataclass(frozen=True, slots=True)
class _Mapped:
    layout: LaunchLayout
    notes: tuple[Note, ...]
    refusal: Note | None


def _engine_share(result: Result) -> float | None:
    """The engine's share of each GPU's memory the model computed (memory.engine_gb_per_gpu / the card), rounded
    down to a hundredth so that the command never asks for more; None when the model gives the engine nothing."""
    mem = result.memory
    if mem.gpu_memory_gb <= 0 or mem.engine_gb_per_gpu <= 0:
        return None
    share = math.floor(mem.engine_gb_per_gpu / mem.gpu_memory_gb * 100 + 1e-9) / 100
    return min(share, 1.0) if share >= 0.01 else None


def _map(result: Result) -> _Mapped:  # noqa: PLR0912 - one rule of the mapping a branch
    i = result.inputs
    notes: list[Note] = []
    refusal: Note | None = None
    g = result.step.gpu_groups
    rl = result.stage not in (*OFFLINE_STAGES, "dpo")
    placement = i.placement
    if not rl or g is None:
        # DPO (and the stages before the loop): every GPU trains; no engine, so no engine shape
        gpus = i.gpus
        gen = score = train = gpus
        tp, replicas, share = 1, gpus, TEACHING_GPU_MEMORY_UTILIZATION
        placement = "colocated"
    else:
        tp = g.engine_tp
        if result.step.gen.pipeline > 1 and not result.memory.fits:
            refusal = _reason("launch.map.engine_does_not_fit")  # the model's engine shape is then no layout at all
        elif result.step.gen.pipeline > 1:
            refusal = _reason("launch.map.engine_spans_nodes", gpus=g.engine_tp, tp=result.step.gen.tensor_parallel,
                              pipeline=result.step.gen.pipeline)
        if g.colocated:
            gpus = gen = score = train = g.training  # all GPUs, or one node when the model runs the step on one
            if gpus % tp:
                fitted = _pow2_divisor(gpus, tp)
                notes.append(_reason("launch.map.tp_fit", model_tp=tp, tp=fitted, gpus=gpus))
                tp = fitted
            replicas = gpus // tp
        else:
            gen, score, train = g.generation, g.scoring, g.training
            replicas = max(1, g.replicas)
            if tp * replicas < gen:  # GPUs of the generation group no engine replica uses: training takes them
                notes.append(_reason("launch.map.gen_leftover", gpus=gen - tp * replicas, tp=tp, replicas=replicas))
                train += gen - tp * replicas
                gen = tp * replicas
            gpus = gen + score + train
        if gpus < i.gpus:
            notes.append(_reason("launch.map.one_node", used=gpus, gpus=i.gpus, idle=i.gpus - gpus))
        model_share = _engine_share(result)
        if model_share is None:
            share = TEACHING_GPU_MEMORY_UTILIZATION
            notes.append(_reason("launch.map.teaching_memory", share=share))
        else:
            share = model_share
            notes.append(_reason("launch.map.memory_share", share=share, engine_gb=result.memory.engine_gb_per_gpu,
                                 gpu_gb=result.memory.gpu_memory_gb))
    per_node = min(NODE_GPUS, gpus)
    nodes = math.ceil(gpus / NODE_GPUS)
    if result.stage in OFFLINE_STAGES:
        refusal = _reason("launch.map.offline_stage")
    elif refusal is None and nodes * per_node != gpus:
        refusal = _reason("launch.map.partial_node", gpus=gpus, per_node=NODE_GPUS)
    fits = result.dpo.fits if result.stage == "dpo" else result.memory.fits
    if refusal is None and not fits:
        notes.append(_reason("launch.map.does_not_fit"))
    if refusal is None:
        notes.append(_reason("launch.map.prompt_max", tokens=i.prompt_tokens))
    layout = LaunchLayout(
        method=i.method, arch=i.arch, policy_b=float(i.policy_b), reward=i.reward, rm_b=float(i.rm_b),
        gpus=gpus, gpus_per_node=per_node, nodes=nodes, placement=placement,
        generation_gpus=gen, scoring_gpus=score, training_gpus=train, rollout_tp=tp, rollout_replicas=replicas,
        gpu_memory_utilization=share, group=i.group, rollouts=i.rollouts, kl=float(i.kl), epochs=i.epochs,
        prompt_tokens=i.prompt_tokens, prompt_max_tokens=i.prompt_tokens,  # the lab has one prompt length
        response_tokens=i.response_tokens, response_max_tokens=i.response_max_tokens, staleness=i.staleness,
        engine=i.engine, offload=i.offload, tuning=i.tuning, prompts=i.prompts, pairs=i.pairs,
    )
    return _Mapped(layout, tuple(notes), refusal)


def layout_from(result: Result) -> LaunchLayout:
    """The launch layout of the state on screen: the model's inputs and the GPU layout it chose.

    Nodes of ``NODE_GPUS``: ``gpus_per_node = min(8, gpus)``, ``nodes = ⌈gpus / 8⌉`` (``gpus`` = the GPUs the chosen
    layout uses: all of them, or one node when the model runs the step on one).  Colocated: every role on those
    GPUs, engines of the model's TP (``engine_tp``) — the model counts ⌊G / tp⌋ replicas, the frameworks need
    ``tp · replicas = G``, so a TP that does not divide G is lowered to the largest power of 2 that does (a note
    says so).  Separate: the three groups as the model chose them; generation GPUs no replica uses go to training.
    ``gpu_memory_utilization`` = the model's engine share (``memory.engine_gb_per_gpu`` / the card), else the
    teaching 0.6.  The lab has one prompt length: it is also the longest prompt.

    >>> from app.model import evaluate
    >>> from app.model.scenarios import PRESET_BY_ID
    >>> grpo = layout_from(evaluate(PRESET_BY_ID["grpo"].inputs))   # 16 × H100, colocated, Qwen3-8B, TP 8
    >>> grpo.nodes, grpo.gpus_per_node, grpo.placement, grpo.rollout_tp, grpo.rollout_replicas
    (2, 8, 'colocated', 8, 2)
    >>> grpo.gpu_memory_utilization, grpo.group, grpo.kl, grpo.response_max_tokens   # 48 GB of 80 GB = 0.6
    (0.6, 8, 0.001, 8192)
    >>> ppo = layout_from(evaluate(PRESET_BY_ID["ppo_loop"].inputs))  # 8 × A100, separate 2 / 2 / 4
    >>> (ppo.generation_gpus, ppo.scoring_gpus, ppo.training_gpus), ppo.gpu_memory_utilization   # 72 / 80 GB
    ((2, 2, 4), 0.9)
    """
    return _map(result).layout


def layout_notes(result: Result) -> tuple[Note, ...]:
    """What the mapping chose that the reader should know (``launch.map.*`` keys with their arguments).

    >>> from app.model import evaluate
    >>> from app.model.scenarios import PRESET_BY_ID
    >>> [n.key for n in layout_notes(evaluate(PRESET_BY_ID["grpo"].inputs))]
    ['launch.map.memory_share', 'launch.map.prompt_max']
    """
    return _map(result).notes


def layout_refusal(result: Result) -> Note | None:
    """Why the state on screen has no launch file at all (``launch.map.*``), or None.

    >>> from app.model import evaluate
    >>> from app.model.scenarios import PRESET_BY_ID
    >>> layout_refusal(evaluate(PRESET_BY_ID["sft_only"].inputs)).key, layout_refusal(evaluate(PRESET_BY_ID["dpo"].inputs))
    ('launch.map.offline_stage', None)
    """
    return _map(result).refusal


def all_map_keys() -> frozenset[str]:
    """Every catalogue key ``layout_notes`` and ``layout_refusal`` can give, for the catalogue tests."""
    return frozenset({
        "launch.map.engine_spans_nodes", "launch.map.engine_does_not_fit", "launch.map.tp_fit", "launch.map.gen_leftover", "launch.map.one_node",
        "launch.map.teaching_memory", "launch.map.memory_share", "launch.map.offline_stage",
        "launch.map.partial_node", "launch.map.does_not_fit", "launch.map.prompt_max",
    })
