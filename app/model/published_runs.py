"""Published measurements of RL post-training runs: one ``PublishedRun`` per table row, with its exact source, read
from the data file app/model/data/published_runs.toml (this module is its schema and loader).

Sources: NVIDIA NeMo RL's performance summary (v0.5 and v0.6 tables, ``NEMO_RL``), verl's fully_async /
one_step_off experiments and weight-sync ablation (``VERL``) and its minimum-GPU table (``VERL_TUNING``).

No imports from the rest of the model: the calibration code, the docs table (docs/published-runs.md) and tests read
these rows; nothing here is fitted.  Every row says which of its fields the source table prints
(``published``), which were read from the run's recipe or script in the same repository (``recipe``), which are
arithmetic on those (``derived``) and which are this file's assumptions (``assumed``); ``notes`` says what the row
leaves unsaid.  A field that is ``None`` is unknown.

Field meanings (units in the names): ``gpus`` is every GPU of the run (generation + training); ``gen_gpus`` /
``train_gpus`` only when the two run on separate GPUs (``colocated=False``).  ``responses_per_step`` is the number
of sampled responses per RL step (NeMo RL's "G-GBS"), ``train_batch`` the responses per optimizer step (NeMo RL's
"T-GBS"), ``optimizer_steps`` their ratio.  ``staleness``: 0 on-policy, k = rollouts may be k policy versions old.
Layout fields are the degrees the run used: generation engine TP/PP/EP, training TP/PP/EP/CP.  ``figures`` are the
measured values, each with its unit.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib.resources import files

# Allowed values (the lab's input keys).  GPU keys are app.model.assumptions.GPUS keys; arch keys are the lab's
# architecture keys (today's table plus the keys agreed for the ``arch`` branch).
METHODS = ("grpo", "ppo", "dapo")
GPU_KEYS = ("a100_40g", "a100_80g", "h100_80g", "h200_141g", "h20_96g", "b200_180g", "gb200_186g")
ARCH_KEYS = (
    "llama2_7b", "llama2_13b", "llama3_8b", "llama3_70b", "llama3_405b", "qwen25_7b", "qwen3_8b", "qwen3_32b",
    "qwen3_30b_a3b", "qwen3_235b_a22b", "deepseek_v3",
    # agreed for the arch branch (COORDINATION.md)
    "qwen25_1_5b", "qwen25_3b", "qwen25_14b", "qwen25_32b", "qwen3_4b", "qwen3_14b", "llama32_3b", "gpt_oss_20b",
    "gpt_oss_120b", "kimi_k2", "qwen3_next_80b_a3b",
)
DTYPES = ("bf16", "fp8")
FIGURES = {  # figure name -> unit
    "step_s": "s",                          # wall-clock seconds of one RL step (as the source defines a step)
    "tokens_per_s_per_gpu": "tokens/s/GPU",  # NeMo RL: tokens processed / (step time x GPUs)
    "min_gpus": "GPUs",                      # smallest GPU count the source ran the configuration on
    "max_batch": "sequences",                # verl device_tuning "MaxBatch" (LoRA rows)
    "weight_sync_s": "s",                    # seconds to push the trainer's weights into the rollout engine
    "generation_s": "s",                     # the generation phase of a synchronous step
    "rollout_s": "s",                        # the rollout engine's own generate call (verl generate_sequences)
    "wait_generation_s": "s",                # async: time the trainer waited for samples (verl gen / wait_prev_gen)
    "logprob_s": "s",                        # recomputing old log-probs with the training engine
    "ref_s": "s",                            # reference-model log-probs
    "training_s": "s",                       # the policy update (verl update_actor)
    "validate_s": "s",                       # one validation pass
    "total_hours": "h",                      # wall-clock hours of a whole run of ``run_steps`` steps
    "speedup": "x",                          # ratio the source prints against its own baseline
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Source:
    """Where a row (or its recipe) is printed: repository, file, the git ref and the exact commit read."""

    repo: str
    path: str
    ref: str          # the tag or branch the commit was read at
    commit: str       # 40 hex digits
    table: str = ""   # the section / table heading
    row: str = ""     # the row as the table names it

    @property
    def url(self) -> str:
        return f"https://github.com/{self.repo}/blob/{self.commit}/{self.path}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Figure:
    name: str         # a key of FIGURES
    value: float
    unit: str         # FIGURES[name]


@dataclass(frozen=True, slots=True, kw_only=True)
class PublishedRun:
    id: str
    system: str                                  # "nemo_rl" | "verl" | "openrlhf"
    model: str                                   # the model as the source names it
    arch: str | None                             # lab architecture key, None when the lab has none
    method: str                                  # a METHODS value
    hardware: str                                # the hardware as the source names it
    gpu: str | None                              # lab GPU key
    gpus: int
    source: Source
    figures: tuple[Figure, ...]
    notes: str
    recipe_source: Source | None = None
    prompts_per_step: int | None = None
    group: int | None = None                     # responses per prompt
    responses_per_step: int | None = None
    train_batch: int | None = None               # responses per optimizer step
    optimizer_steps: int | None = None           # optimizer steps per RL step
    prompt_mean_tokens: float | None = None
    prompt_max_tokens: int | None = None
    response_mean_tokens: float | None = None
    response_max_tokens: int | None = None
    total_max_tokens: int | None = None          # prompt + response cap
    train_dtype: str | None = None               # a DTYPES value
    rollout_dtype: str | None = None
    staleness: int | None = None
    colocated: bool | None = None
    gen_gpus: int | None = None
    train_gpus: int | None = None
    gen_tp: int | None = None
    gen_pp: int | None = None
    gen_ep: int | None = None
    gen_release: str | None = None               # the engine release the recipe runs (engine_release: a recipe
                                                 # with enforce_eager runs vllm_eager)
    train_backend: str | None = None             # "megatron" | "fsdp"
    train_tp: int | None = None
    train_pp: int | None = None
    train_ep: int | None = None
    train_cp: int | None = None
    kl: float | None = None                      # KL penalty coefficient (0 = no reference model term)
    offload: str | None = None                   # "none" | "optimizer" | "params" (params + grads + optimizer)
    lora: bool | None = None                     # LoRA adapters instead of full fine-tuning
    staleness_threshold: float | None = None     # verl fully_async: allowed fraction of stale samples
    partial_rollouts: bool | None = None         # interrupted rollouts resume after a weight sync (verl
                                                 # partial_rollout; NeMo RL in_flight_weight_updates)
    oversample: float | None = None              # dynamic sampling: generated responses / responses kept
    weight_sync: str | None = None               # "nccl" (tensor by tensor) | "checkpoint_engine" (bucketed)
    run_steps: int | None = None                 # steps the total_hours figure covers
    gen_memory_fraction: float | None = None     # vLLM gpu_memory_utilization
    table_layout: str = ""                       # the layout cells exactly as the table prints them
    published: tuple[str, ...] = ()              # fields copied from the source table
    recipe: tuple[str, ...] = ()                 # fields read from the recipe / script
    derived: tuple[str, ...] = ()                # arithmetic on published / recipe fields
    assumed: tuple[str, ...] = ()                # this file's assumptions (see notes)

    def figure(self, name: str) -> float | None:
        return next((f.value for f in self.figures if f.name == name), None)


DATA = files("app.model") / "data" / "published_runs.toml"


def _source(d: dict, refs: dict[str, dict]) -> Source:
    """A row's source: its repository at a commit (``at``, a key of the file's ``[refs]``), the file and the table."""
    ref = refs[d["at"]]
    return Source(repo=ref["repo"], ref=ref["ref"], commit=ref["commit"], path=d["path"], table=d.get("table", ""),
                  row=d.get("row", ""))


_TUPLES = ("published", "recipe", "derived", "assumed")


def _run(d: dict, refs: dict[str, dict], notes: dict[str, str]) -> PublishedRun:
    # TOML has no null: an unknown field is absent (``arch`` too, when the lab has no such architecture)
    fields = {"arch": None} | {k: tuple(v) if k in _TUPLES else v for k, v in d.items()
                               if k not in ("source", "recipe_source", "figures", "notes")}
    return PublishedRun(
        **fields, source=_source(d["source"], refs),
        recipe_source=_source(d["recipe_source"], refs) if "recipe_source" in d else None,
        figures=tuple(Figure(name=name, value=value, unit=FIGURES[name]) for name, value in d["figures"].items()),
        notes=" ".join(notes[n] for n in d["notes"]))


_DATA = tomllib.loads(DATA.read_text(encoding="utf-8"))
# The DAPO-Math-17k rows print only the prompt cap (max_prompt_length 2,048, a truncation limit) and no mean.  verl
# trains them with use_remove_padding (sequence packing: the tokens a sequence has, not its cap), so a cap entered as
# the mean charges every sequence 2,048 prompt tokens it does not have.  Their prompt is entered at 120 tokens
# (assumed): one competition problem in DAPO's answer-format template, the length NeMo RL's math rows imply for a
# problem in its cot.txt template (tokens/s/GPU x step x GPUs / responses - G-Average Seq len = 99-131 tokens).
# Not the ReTool rows: a tool-use system prompt and multi-turn tool outputs lengthen their context (cap kept).
DAPO_MATH_PROMPT_TOKENS: float = _DATA["dapo_math_prompt_tokens"]
NEMO_RL: tuple[PublishedRun, ...] = tuple(_run(d, _DATA["refs"], _DATA["notes"]) for d in _DATA["nemo_rl"])
VERL: tuple[PublishedRun, ...] = tuple(_run(d, _DATA["refs"], _DATA["notes"]) for d in _DATA["verl"])
VERL_TUNING: tuple[PublishedRun, ...] = tuple(_run(d, _DATA["refs"], _DATA["notes"]) for d in _DATA["verl_tuning"])
RUNS: tuple[PublishedRun, ...] = NEMO_RL + VERL + VERL_TUNING
RUN_BY_ID = {r.id: r for r in RUNS}
