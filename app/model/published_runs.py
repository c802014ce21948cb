"""Published measurements of RL post-training runs, as data: one ``PublishedRun`` per table row, with its exact source.

Sources: NVIDIA NeMo RL's performance summary (v0.5 and v0.6 tables, ``NEMO_RL``), verl's fully_async /
one_step_off experiments and weight-sync ablation (``VERL``) and its minimum-GPU table (``VERL_TUNING``).

Pure data (no imports from the rest of the model): the calibration code, the docs table (docs/published-runs.md) and
tests read these rows; nothing here is fitted.  Every row says which of its fields the source table prints
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

from dataclasses import dataclass, replace

# Allowed values (the lab's input keys).  GPU keys are app.model.assumptions.GPUS keys; arch keys are the lab's
# architecture keys (today's table plus the keys agreed for the ``arch`` branch).
METHODS = ("grpo", "ppo", "dapo")
GPU_KEYS = ("a100_40g", "a100_80g", "h100_80g", "h200_141g", "h20_96g", "b200_180g", "gb200_186g")
ARCH_KEYS = (
    "llama2_7b", "llama2_13b", "llama3_8b", "llama3_70b", "llama3_405b", "qwen25_7b", "qwen3_8b", "qwen3_32b",
    "qwen3_30b_a3b", "qwen3_235b_a22b", "deepseek_v3",
    # agreed for the arch branch (COORDINATION.md)
    "qwen25_1_5b", "qwen25_3b", "qwen25_14b", "qwen25_32b", "qwen3_4b", "qwen3_14b", "llama32_3b", "gpt_oss_20b",
    "gpt_oss_120b", "kimi_k2",
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


def _f(name: str, value: float) -> Figure:
    return Figure(name=name, value=value, unit=FIGURES[name])


# --- NVIDIA-NeMo/RL, docs/about/performance-summary.md ------------------------------------------------------------
# Step time: "time for each step, which includes training, generation, policy logprobs, and refit time"; step time,
# tokens/s/GPU and G-Average Seq len are "the average of 5 steps".  Megatron-Core training, vLLM generation,
# OpenMathInstruct-2 math prompts wrapped in examples/prompts/cot.txt (DAPO: DAPOMath17k).  "n8g" recipes are
# DGX-H100 (8 GPUs a node), "n4g" recipes GB200-NVL72 (4 GPUs a node).
_NEMO = "NVIDIA-NeMo/RL"
_PERF = "docs/about/performance-summary.md"
_RECIPES = "examples/configs/recipes/llm/performance/"
NEMO_V05_TABLE = dict(repo=_NEMO, path=_PERF, ref="main (after v0.5.0; fix #1890)",
                      commit="9dbd9adc95a10f5946cceb36e1d5b31e2429e470")
NEMO_V06_TABLE = dict(repo=_NEMO, path=_PERF, ref="v0.7.0", commit="81aa43dda4765b0429cf31dab44441e4e4383911")
NEMO_V05_RECIPES = dict(repo=_NEMO, ref="v0.5.0", commit="6c7089300fded94abfa49bb9cbf9eb357d862461")
NEMO_V06_RECIPES = dict(repo=_NEMO, ref="v0.6.0", commit="5fb588932bf835506a8a5bac01de4f8c7ab0a065")
_NEMO_PUBLISHED = ("model", "method", "hardware", "gpus", "total_max_tokens", "response_mean_tokens", "train_dtype",
                   "rollout_dtype", "staleness", "responses_per_step", "train_batch", "train_backend", "table_layout")
_NEMO_RECIPE = ("prompts_per_step", "group", "prompt_max_tokens", "response_max_tokens", "colocated", "gen_tp",
                "gen_pp", "gen_ep", "train_tp", "train_pp", "train_ep", "train_cp", "kl", "gen_memory_fraction")

NEMO_RL: tuple[PublishedRun, ...] = (
    PublishedRun(
        id='nemo_v05_h100_grpo_llama31_8b_on_16g',
        system='nemo_rl', model='LLAMA3.1_8B', arch='llama3_8b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=16,
        source=Source(**NEMO_V05_TABLE, table='H100 BF16 Benchmarks', row='GRPO | LLAMA3.1_8B | On policy | 16 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-llama3.1-8b-instruct-2n8g.yaml'),
        figures=(_f('step_s', 92.8), _f('tokens_per_s_per_gpu', 1581.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=1019.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=1,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=2, train_ep=1, train_cp=1, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[1,1] T[1,1,1,1,1,2,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Table prints the training layout as [1,1,1,1,1,2,n/a] (7 cells under 5 headings); the recipe says '
               'TP1 PP2. Colocated: vLLM and Megatron share every GPU (refit in place). prompt_mean_tokens 120 is '
               'assumed: on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by '
               "99-131 tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_h100_grpo_llama31_8b_1off_16g',
        system='nemo_rl', model='LLAMA3.1_8B', arch='llama3_8b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=16,
        source=Source(**NEMO_V05_TABLE, table='H100 BF16 Benchmarks', row='GRPO | LLAMA3.1_8B | 1-step Off | 16 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-llama3.1-8b-instruct-2n8g-async-1off.yaml'),
        figures=(_f('step_s', 64.8), _f('tokens_per_s_per_gpu', 2478.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=1123.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=8,
        train_gpus=8, gen_tp=1, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=1,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[1,1] T[1,1,1,1,1,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Table prints [1,1,1,1,1,1,n/a] (7 cells under 5 headings); the recipe says TP1 PP1. Async GRPO '
               '(max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate generation '
               'and training GPUs. prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x '
               'GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v05_h100_grpo_dsv3_on_256g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=256,
        source=Source(**NEMO_V05_TABLE, table='H100 BF16 Benchmarks', row='GRPO | DeepSeek V3 | On policy | 256 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-32n8g.yaml'),
        figures=(_f('step_s', 134.0), _f('tokens_per_s_per_gpu', 12.7)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=744.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=32,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=16, train_ep=16, train_cp=1, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[32,1] T[1,1,16,16,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). prompt_mean_tokens 120 is assumed: '
               'on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 '
               "tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_h100_grpo_dsv3_1off_512g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=512,
        source=Source(**NEMO_V05_TABLE, table='H100 BF16 Benchmarks', row='GRPO | DeepSeek V3 | 1-step Off | 512 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-64n8g-async-1off.yaml'),
        figures=(_f('step_s', 64.9), _f('tokens_per_s_per_gpu', 13.1)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=738.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=256,
        train_gpus=256, gen_tp=32, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=16,
        train_ep=16, train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[32,1] T[1,1,16,16,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU '
               'x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt '
               "template + problem). response_mean_tokens is the table's G-Average Seq len (read as generated "
               'tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_h100_dapo_dsv3_on_512g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='dapo',
        hardware='DGX-H100', gpu='h100_80g', gpus=512,
        source=Source(**NEMO_V05_TABLE, table='H100 BF16 Benchmarks', row='DAPO | DeepSeek V3 | On policy | 512 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'dapo-deepseek-v3-64n8g.yaml'),
        figures=(_f('step_s', 458.0), _f('tokens_per_s_per_gpu', 2.45)),
        prompts_per_step=256, group=16, responses_per_step=512, train_batch=512, optimizer_steps=8,
        prompt_max_tokens=512, response_mean_tokens=974.0, response_max_tokens=1536, total_max_tokens=1536,
        train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=64, gen_pp=1, gen_ep=1,
        train_backend='megatron', train_tp=8, train_pp=8, train_ep=32, train_cp=4, kl=0.0, gen_memory_fraction=0.6,
        oversample=3.0, table_layout='G[64,1] T[8,4,32,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('oversample',),
        derived=('gpu', 'optimizer_steps'),
        notes=('Step time 458 s is the value after fix #1890 (the v0.5.0 tag printed 974, the same as its G-Average '
               'Seq len). The recipe samples 256 prompts x 16 = 4,096 responses per generation batch with dynamic '
               'sampling (batch_multiplier 3, up to 10 generation batches) and trains on 512, while the table '
               'prints G-GBS 512: how many responses a step really generated is not given. KL 0, prompts <= 512 '
               'tokens, responses <= 1,536 (overlong reward shaping from 1,024). oversample 3 is the recipe\'s '
               'batch_multiplier (each generation batch draws 3x the prompts a step keeps; up to 10 such batches): '
               'the least dynamic sampling generates. The recipe also runs vLLM TP 64 with enforce_eager (no CUDA '
               'graphs). DAPOMath17k prompts, length not given. Colocated: vLLM and Megatron share every GPU (refit in place). response_mean_tokens is the '
               "table's G-Average Seq len (read as generated tokens per response)."),
    ),
    PublishedRun(
        id='nemo_v05_h100_grpo_qwen3_235b_on_128g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=128,
        source=Source(**NEMO_V05_TABLE, table='H100 BF16 Benchmarks', row='GRPO | Qwen3-235B | On policy | 128 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-235b-16n8g.yaml'),
        figures=(_f('step_s', 431.0), _f('tokens_per_s_per_gpu', 54.1)),
        prompts_per_step=16, group=32, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=8192, response_mean_tokens=5700.0, response_max_tokens=8192,
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=16,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=2, train_pp=8, train_ep=16, train_cp=2, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[16,1] T[2,2,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). prompt_mean_tokens 120 is assumed: '
               'on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 '
               "tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_h100_grpo_qwen3_235b_1off_256g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=256,
        source=Source(**NEMO_V05_TABLE, table='H100 BF16 Benchmarks', row='GRPO | Qwen3-235B | 1-step Off | 256 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-235b-32n8g-async-1off.yaml'),
        figures=(_f('step_s', 203.0), _f('tokens_per_s_per_gpu', 58.7)),
        prompts_per_step=16, group=32, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=8192, response_mean_tokens=5707.0, response_max_tokens=8192,
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=128,
        train_gpus=128, gen_tp=8, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=4, train_pp=8, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[8,1] T[4,1,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU '
               'x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt '
               "template + problem). response_mean_tokens is the table's G-Average Seq len (read as generated "
               'tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_h100_grpo_qwen3_30b_a3b_on_32g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=32,
        source=Source(**NEMO_V05_TABLE, table='H100 BF16 Benchmarks', row='GRPO | Qwen3-30B3A | On policy | 32 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-30ba3b-4n8g.yaml'),
        figures=(_f('step_s', 198.0), _f('tokens_per_s_per_gpu', 1066.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3196.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=2,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=8, train_cp=1, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[2,1] T[1,1,8,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). prompt_mean_tokens 120 is assumed: '
               'on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 '
               "tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_h100_grpo_qwen3_30b_a3b_1off_32g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=32,
        source=Source(**NEMO_V05_TABLE, table='H100 BF16 Benchmarks', row='GRPO | Qwen3-30B3A | 1-step Off | 32 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-30ba3b-4n8g-async-1off.yaml'),
        figures=(_f('step_s', 154.0), _f('tokens_per_s_per_gpu', 1391.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3201.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=16,
        train_gpus=16, gen_tp=2, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=2, train_ep=8,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[2,1] T[1,1,8,2,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU '
               'x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt '
               "template + problem). response_mean_tokens is the table's G-Average Seq len (read as generated "
               'tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_h100_grpo_qwen3_32b_on_32g',
        system='nemo_rl', model='Qwen3-32B', arch='qwen3_32b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=32,
        source=Source(**NEMO_V05_TABLE, table='H100 BF16 Benchmarks', row='GRPO | Qwen3-32B | On policy | 32 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-32b-4n8g.yaml'),
        figures=(_f('step_s', 376.0), _f('tokens_per_s_per_gpu', 571.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3251.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=4,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=4, train_pp=4, train_ep=1, train_cp=1, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[4,1] T[4,1,1,4,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). prompt_mean_tokens 120 is assumed: '
               'on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 '
               "tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_h100_grpo_qwen3_32b_1off_64g',
        system='nemo_rl', model='Qwen3-32B', arch='qwen3_32b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=64,
        source=Source(**NEMO_V05_TABLE, table='H100 BF16 Benchmarks', row='GRPO | Qwen3-32B | 1-step Off | 64 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-32b-8n8g-async-1off.yaml'),
        figures=(_f('step_s', 200.0), _f('tokens_per_s_per_gpu', 538.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3252.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=32,
        train_gpus=32, gen_tp=4, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=4, train_pp=4, train_ep=1,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[4,1] T[4,1,1,4,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU '
               'x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt '
               "template + problem). response_mean_tokens is the table's G-Average Seq len (read as generated "
               'tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_h100_fp8_grpo_llama31_8b_1off_16g',
        system='nemo_rl', model='LLAMA3.1_8B', arch='llama3_8b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=16,
        source=Source(**NEMO_V05_TABLE, table='H100 FP8 Benchmarks', row='GRPO | LLAMA3.1_8B | 1-step Off | 16 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-llama3.1-8b-instruct-2n8g-fp8-async-1off.yaml'),
        figures=(_f('step_s', 53.0), _f('tokens_per_s_per_gpu', 3052.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=1128.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='fp8', rollout_dtype='fp8', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=8,
        train_gpus=8, gen_tp=1, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=1,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[1,1] T[1,1,1,1,1,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('FP8 blockwise (e4m3) training and FP8 vLLM generation. Table prints 7 layout cells; recipe TP1 PP1. '
               'Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU '
               'x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt '
               "template + problem). response_mean_tokens is the table's G-Average Seq len (read as generated "
               'tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_h100_fp8_grpo_dsv3_1off_512g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=512,
        source=Source(**NEMO_V05_TABLE, table='H100 FP8 Benchmarks', row='GRPO | DeepSeek V3 | 1-step Off | 512 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-64n8g-fp8-async-1off.yaml'),
        figures=(_f('step_s', 67.6), _f('tokens_per_s_per_gpu', 14.1)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=761.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='fp8', rollout_dtype='fp8', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=256,
        train_gpus=256, gen_tp=16, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=16,
        train_ep=16, train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[16,1] T[1,1,16,16,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU '
               'x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt '
               "template + problem). response_mean_tokens is the table's G-Average Seq len (read as generated "
               'tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_llama31_8b_on_8g',
        system='nemo_rl', model='LLAMA3.1_8B', arch='llama3_8b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=8,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | LLAMA3.1_8B | On policy | 8 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-llama3.1-8b-instruct-2n4g.yaml'),
        figures=(_f('step_s', 91.0), _f('tokens_per_s_per_gpu', 3359.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=1066.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=1,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=1, train_cp=1, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[1,1] T[1,1,1,1,1,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Table prints 7 layout cells; the recipe says TP1 PP1. Colocated: vLLM and Megatron share every GPU '
               '(refit in place). GB200 GPU entered as gb200_186g (186 GB HBM3e, 72-GPU NVLink domain). '
               'prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / responses '
               'exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + problem). '
               "response_mean_tokens is the table's G-Average Seq len (read as generated tokens per response)."),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_llama31_8b_1off_8g',
        system='nemo_rl', model='LLAMA3.1_8B', arch='llama3_8b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=8,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | LLAMA3.1_8B | 1-step Off | 8 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-llama3.1-8b-instruct-2n4g-async-1off.yaml'),
        figures=(_f('step_s', 71.1), _f('tokens_per_s_per_gpu', 4463.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=1107.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=4,
        train_gpus=4, gen_tp=1, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=1,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[1,1] T[1,1,1,1,1,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Table prints 7 layout cells; the recipe says TP1 PP1. Async GRPO (max_trajectory_age_steps=1, '
               'in-flight weight updates, async vLLM engine) on separate generation and training GPUs. GB200 GPU '
               'entered as gb200_186g (186 GB HBM3e, 72-GPU NVLink domain). prompt_mean_tokens 120 is '
               'assumed: on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by '
               "99-131 tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_dsv3_on_128g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=128,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | DeepSeek V3 | On policy | 128 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-32n4g.yaml'),
        figures=(_f('step_s', 128.0), _f('tokens_per_s_per_gpu', 34.3)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=996.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=32,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=8, train_ep=16, train_cp=1, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[32,1] T[1,1,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('G-Average Seq len ~995 on GB200 vs ~740 on H100 in v0.5: the v0.6 page says the DeepSeek V3 '
               'checkpoint changed, so v0.5 DeepSeek rows are not comparable across hardware. Colocated: vLLM and '
               'Megatron share every GPU (refit in place). GB200 GPU entered as gb200_186g (186 GB HBM3e, 72-GPU '
               'NVLink domain). prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x '
               'step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt '
               "template + problem). response_mean_tokens is the table's G-Average Seq len (read as generated "
               'tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_dsv3_1off_256g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=256,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | DeepSeek V3 | 1-step Off | 256 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-64n4g-async-1off.yaml'),
        figures=(_f('step_s', 64.5), _f('tokens_per_s_per_gpu', 31.7)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=994.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=128,
        train_gpus=128, gen_tp=16, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=8, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[16,1] T[1,1,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('G-Average Seq len ~995 on GB200 vs ~740 on H100 in v0.5 (checkpoint change, see the v0.6 page '
               'note). Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on '
               'separate generation and training GPUs. GB200 GPU entered as gb200_186g (186 GB HBM3e, 72-GPU NVLink '
               'domain). prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x '
               'GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_qwen3_235b_on_64g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=64,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-235B | On policy | 64 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-235b-16n4g.yaml'),
        figures=(_f('step_s', 332.0), _f('tokens_per_s_per_gpu', 140.0)),
        prompts_per_step=16, group=32, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=8192, response_mean_tokens=5711.0, response_max_tokens=8192,
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=8,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=2, train_pp=4, train_ep=16, train_cp=2, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[8,1] T[2,2,16,4,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU entered as gb200_186g '
               '(186 GB HBM3e, 72-GPU NVLink domain). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_qwen3_235b_1off_128g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=128,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-235B | 1-step Off | 128 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-235b-32n4g-async-1off.yaml'),
        figures=(_f('step_s', 268.0), _f('tokens_per_s_per_gpu', 87.9)),
        prompts_per_step=16, group=32, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=8192, response_mean_tokens=5711.0, response_max_tokens=8192,
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=64,
        train_gpus=64, gen_tp=8, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=4, train_pp=4, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[8,1] T[4,1,16,4,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. GB200 GPU entered as gb200_186g (186 GB HBM3e, 72-GPU NVLink domain). '
               'prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / '
               'responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_qwen3_30b_a3b_on_16g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=16,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-30B3A | On policy | 16 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-30ba3b-4n4g.yaml'),
        figures=(_f('step_s', 232.0), _f('tokens_per_s_per_gpu', 1822.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3198.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=1,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=16, train_cp=1, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[1,1] T[1,1,16,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU entered as gb200_186g '
               '(186 GB HBM3e, 72-GPU NVLink domain). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_qwen3_30b_a3b_1off_32g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=32,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-30B3A | 1-step Off | 32 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-30ba3b-8n4g-async-1off.yaml'),
        figures=(_f('step_s', 136.0), _f('tokens_per_s_per_gpu', 1558.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3204.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=16,
        train_gpus=16, gen_tp=1, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[1,1] T[1,1,16,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. GB200 GPU entered as gb200_186g (186 GB HBM3e, 72-GPU NVLink domain). '
               'prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / '
               'responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_qwen3_32b_on_16g',
        system='nemo_rl', model='Qwen3-32B', arch='qwen3_32b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=16,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-32B | On policy | 16 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-32b-4n4g.yaml'),
        figures=(_f('step_s', 381.0), _f('tokens_per_s_per_gpu', 1127.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3253.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=1,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=2, train_pp=1, train_ep=1, train_cp=1, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[1,1] T[2,1,1,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU entered as gb200_186g '
               '(186 GB HBM3e, 72-GPU NVLink domain). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_qwen3_32b_1off_32g',
        system='nemo_rl', model='Qwen3-32B', arch='qwen3_32b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=32,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-32B | 1-step Off | 32 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-32b-8n4g-async-1off.yaml'),
        figures=(_f('step_s', 210.0), _f('tokens_per_s_per_gpu', 1025.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3258.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=16,
        train_gpus=16, gen_tp=1, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=2, train_pp=1, train_ep=1,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[1,1] T[2,1,1,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. GB200 GPU entered as gb200_186g (186 GB HBM3e, 72-GPU NVLink domain). '
               'prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / '
               'responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v06_h100_grpo_dsv3_on_256g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=256,
        source=Source(**NEMO_V06_TABLE, table='H100 BF16 Benchmarks', row='GRPO | DeepSeek V3 | On policy | 256 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-32n8g.yaml'),
        figures=(_f('step_s', 134.0), _f('tokens_per_s_per_gpu', 12.1)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=701.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=32,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=16, train_ep=16, train_cp=1, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[32,1] T[1,1,16,16,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). prompt_mean_tokens 120 is assumed: '
               'on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 '
               "tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_h100_grpo_dsv3_on_512g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=512,
        source=Source(**NEMO_V06_TABLE, table='H100 BF16 Benchmarks', row='GRPO | DeepSeek V3 | On policy | 512 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-64n8g.yaml'),
        figures=(_f('step_s', 111.0), _f('tokens_per_s_per_gpu', 7.24)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=697.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=32,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=16, train_ep=32, train_cp=1, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[32,1] T[1,1,16,16,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('The table prints training EP 16; the recipe grpo-deepseek-v3-64n8g.yaml sets EP 32 (recipe value '
               'kept in train_ep). Colocated: vLLM and Megatron share every GPU (refit in place). '
               'prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / responses '
               'exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + problem). '
               "response_mean_tokens is the table's G-Average Seq len (read as generated tokens per response)."),
    ),
    PublishedRun(
        id='nemo_v06_h100_grpo_dsv3_1off_512g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=512,
        source=Source(**NEMO_V06_TABLE, table='H100 BF16 Benchmarks', row='GRPO | DeepSeek V3 | 1-step Off | 512 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-64n8g-async-1off.yaml'),
        figures=(_f('step_s', 64.1), _f('tokens_per_s_per_gpu', 12.8)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=710.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=256,
        train_gpus=256, gen_tp=32, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=16,
        train_ep=16, train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[32,1] T[1,1,16,16,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU '
               'x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt '
               "template + problem). response_mean_tokens is the table's G-Average Seq len (read as generated "
               'tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_h100_grpo_qwen3_235b_on_128g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=128,
        source=Source(**NEMO_V06_TABLE, table='H100 BF16 Benchmarks', row='GRPO | Qwen3-235B | On policy | 128 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-235b-16n8g.yaml'),
        figures=(_f('step_s', 395.0), _f('tokens_per_s_per_gpu', 58.9)),
        prompts_per_step=16, group=32, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=8192, response_mean_tokens=5698.0, response_max_tokens=8192,
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=16,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=2, train_pp=8, train_ep=16, train_cp=2, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[16,1] T[2,2,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). prompt_mean_tokens 120 is assumed: '
               'on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 '
               "tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_h100_grpo_qwen3_235b_on_256g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=256,
        source=Source(**NEMO_V06_TABLE, table='H100 BF16 Benchmarks', row='GRPO | Qwen3-235B | On policy | 256 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-235b-32n8g.yaml'),
        figures=(_f('step_s', 312.0), _f('tokens_per_s_per_gpu', 37.4)),
        prompts_per_step=16, group=32, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=8192, response_mean_tokens=5713.0, response_max_tokens=8192,
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=16,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=2, train_pp=8, train_ep=16, train_cp=2, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[16,1] T[2,2,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). prompt_mean_tokens 120 is assumed: '
               'on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 '
               "tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_h100_grpo_qwen3_235b_1off_256g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=256,
        source=Source(**NEMO_V06_TABLE, table='H100 BF16 Benchmarks', row='GRPO | Qwen3-235B | 1-step Off | 256 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-235b-32n8g-async-1off.yaml'),
        figures=(_f('step_s', 231.0), _f('tokens_per_s_per_gpu', 58.7)),
        prompts_per_step=16, group=32, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=8192, response_mean_tokens=5721.0, response_max_tokens=8192,
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=128,
        train_gpus=128, gen_tp=8, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=4, train_pp=8, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[8,1] T[4,1,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU '
               'x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt '
               "template + problem). response_mean_tokens is the table's G-Average Seq len (read as generated "
               'tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_h100_grpo_qwen3_30b_a3b_on_32g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=32,
        source=Source(**NEMO_V06_TABLE, table='H100 BF16 Benchmarks', row='GRPO | Qwen3-30B3A | On policy | 32 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-30ba3b-4n8g.yaml'),
        figures=(_f('step_s', 192.0), _f('tokens_per_s_per_gpu', 1102.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3203.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=2,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=8, train_cp=1, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[2,1] T[1,1,8,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). prompt_mean_tokens 120 is assumed: '
               'on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 '
               "tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_h100_grpo_qwen3_30b_a3b_1off_32g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=32,
        source=Source(**NEMO_V06_TABLE, table='H100 BF16 Benchmarks', row='GRPO | Qwen3-30B3A | 1-step Off | 32 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-30ba3b-4n8g-async-1off.yaml'),
        figures=(_f('step_s', 152.0), _f('tokens_per_s_per_gpu', 1414.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3201.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=16,
        train_gpus=16, gen_tp=2, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=2, train_ep=8,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[2,1] T[1,1,8,2,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU '
               'x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt '
               "template + problem). response_mean_tokens is the table's G-Average Seq len (read as generated "
               'tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_h100_grpo_qwen3_30b_a3b_8off_192g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=192,
        source=Source(**NEMO_V06_TABLE, table='H100 BF16 Benchmarks', row='GRPO | Qwen3-30B3A | 8-step Off | 192 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-30ba3b-24n8g-async-8off.yaml'),
        figures=(_f('step_s', 34.5), _f('tokens_per_s_per_gpu', 1025.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3206.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=8, partial_rollouts=True, colocated=False, gen_gpus=64,
        train_gpus=128, gen_tp=2, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=8,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[2,1] T[1,1,8,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('8-step off-policy: 64 generation GPUs (vLLM TP2), 128 training GPUs (EP8). Async GRPO '
               '(max_trajectory_age_steps=8, in-flight weight updates, async vLLM engine) on separate generation '
               'and training GPUs. prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x '
               'GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v06_h100_swe_nemotron3_nano_30b_1off_128g',
        system='nemo_rl', model='Nemotron-3-Nano-30B-A3B', arch=None, method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=128,
        source=Source(**NEMO_V06_TABLE, table='H100 BF16 Benchmarks', row='SWE | Nemotron-3-Nano-30B-A3B | 1-step Off | 128 GPUs'),
        figures=(_f('step_s', 430.0), _f('tokens_per_s_per_gpu', 37.5)),
        responses_per_step=512, train_batch=512, optimizer_steps=1, response_mean_tokens=31599.0,
        total_max_tokens=131072, train_dtype='bf16', rollout_dtype='bf16', staleness=1, gen_tp=8, gen_pp=1,
        train_backend='megatron', train_tp=8, train_pp=1, train_ep=8, train_cp=8,
        table_layout='G[8,1] T[8,8,8,1,n/a]',
        published=('model', 'hardware', 'gpus', 'total_max_tokens', 'response_mean_tokens', 'train_dtype', 'rollout_dtype', 'staleness', 'responses_per_step', 'train_batch', 'train_backend', 'table_layout', 'gen_tp', 'gen_pp', 'train_tp', 'train_cp', 'train_ep', 'train_pp'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('method',),
        notes=("Algorithm column says 'SWE' (software-engineering agent task, dataset per the Nemotron 3 Super "
               'guide stage 2.2 on branch super-v3, not read); method grpo is assumed. No recipe under the '
               'performance folder; Nemotron-3-Nano-30B-A3B (hybrid Mamba-Transformer MoE) has no lab architecture. '
               'At the v0.6.0 tag this row sat in the GB200 table; fix #2563 moved it to the H100 BF16 table, whose '
               "header names the SWE dataset. response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_h100_fp8_grpo_dsv3_1off_512g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='DGX-H100', gpu='h100_80g', gpus=512,
        source=Source(**NEMO_V06_TABLE, table='H100 FP8 Benchmarks', row='GRPO | DeepSeek V3 | 1-step Off | 512 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-64n8g-fp8-async-1off.yaml'),
        figures=(_f('step_s', 59.2), _f('tokens_per_s_per_gpu', 14.1)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=721.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='fp8', rollout_dtype='fp8', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=256,
        train_gpus=256, gen_tp=16, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=16,
        train_ep=16, train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[16,1] T[1,1,16,16,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU '
               'x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt '
               "template + problem). response_mean_tokens is the table's G-Average Seq len (read as generated "
               'tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_dsv3_on_128g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=128,
        source=Source(**NEMO_V06_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | DeepSeek V3 | On policy | 128 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-32n4g.yaml'),
        figures=(_f('step_s', 108.0), _f('tokens_per_s_per_gpu', 30.2)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=711.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=32,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=8, train_ep=16, train_cp=1, kl=0.01,
        gen_memory_fraction=0.3, table_layout='G[32,1] T[1,1,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU entered as gb200_186g '
               '(186 GB HBM3e, 72-GPU NVLink domain). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_dsv3_on_256g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=256,
        source=Source(**NEMO_V06_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | DeepSeek V3 | On policy | 256 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-64n4g.yaml'),
        figures=(_f('step_s', 98.7), _f('tokens_per_s_per_gpu', 16.4)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=700.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=32,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=8, train_ep=32, train_cp=1, kl=0.01,
        gen_memory_fraction=0.3, table_layout='G[32,1] T[1,1,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('The table prints training EP 16; the recipe grpo-deepseek-v3-64n4g.yaml sets EP 32 (recipe value '
               'kept in train_ep). Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU entered '
               'as gb200_186g (186 GB HBM3e, 72-GPU NVLink domain). prompt_mean_tokens 120 is assumed: '
               'on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 '
               "tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_dsv3_1off_256g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=256,
        source=Source(**NEMO_V06_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | DeepSeek V3 | 1-step Off | 256 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-64n4g-async-1off.yaml'),
        figures=(_f('step_s', 61.7), _f('tokens_per_s_per_gpu', 26.7)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=708.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=128,
        train_gpus=128, gen_tp=16, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=8, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[16,1] T[1,1,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. GB200 GPU entered as gb200_186g (186 GB HBM3e, 72-GPU NVLink domain). '
               'prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / '
               'responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_qwen3_235b_on_64g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=64,
        source=Source(**NEMO_V06_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-235B | On policy | 64 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-235b-16n4g.yaml'),
        figures=(_f('step_s', 286.0), _f('tokens_per_s_per_gpu', 163.0)),
        prompts_per_step=16, group=32, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=8192, response_mean_tokens=5709.0, response_max_tokens=8192,
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=8,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=2, train_pp=4, train_ep=16, train_cp=2, kl=0.01,
        gen_memory_fraction=0.4, table_layout='G[8,1] T[2,2,16,4,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU entered as gb200_186g '
               '(186 GB HBM3e, 72-GPU NVLink domain). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_qwen3_235b_on_128g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=128,
        source=Source(**NEMO_V06_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-235B | On policy | 128 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-235b-32n4g.yaml'),
        figures=(_f('step_s', 345.0), _f('tokens_per_s_per_gpu', 67.4)),
        prompts_per_step=16, group=32, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=8192, response_mean_tokens=5693.0, response_max_tokens=8192,
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=8,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=2, train_pp=4, train_ep=16, train_cp=2, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[8,1] T[2,2,16,4,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU entered as gb200_186g '
               '(186 GB HBM3e, 72-GPU NVLink domain). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_qwen3_235b_1off_128g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=128,
        source=Source(**NEMO_V06_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-235B | 1-step Off | 128 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-235b-32n4g-async-1off.yaml'),
        figures=(_f('step_s', 278.0), _f('tokens_per_s_per_gpu', 85.5)),
        prompts_per_step=16, group=32, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=8192, response_mean_tokens=5705.0, response_max_tokens=8192,
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=64,
        train_gpus=64, gen_tp=8, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=4, train_pp=4, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[8,1] T[4,1,16,4,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. GB200 GPU entered as gb200_186g (186 GB HBM3e, 72-GPU NVLink domain). '
               'prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / '
               'responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_qwen3_30b_a3b_on_16g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=16,
        source=Source(**NEMO_V06_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-30B3A | On policy | 16 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-30ba3b-4n4g.yaml'),
        figures=(_f('step_s', 221.0), _f('tokens_per_s_per_gpu', 1910.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3199.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=0, colocated=True, gen_tp=1,
        gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=16, train_cp=1, kl=0.01,
        gen_memory_fraction=0.6, table_layout='G[1,1] T[1,1,16,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU entered as gb200_186g '
               '(186 GB HBM3e, 72-GPU NVLink domain). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_qwen3_30b_a3b_1off_16g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='GB200-NVL72', gpu='gb200_186g', gpus=16,
        source=Source(**NEMO_V06_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-30B3A | 1-step Off | 16 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-30ba3b-4n4g-async-1off.yaml'),
        figures=(_f('step_s', 301.0), _f('tokens_per_s_per_gpu', 1406.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3197.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, partial_rollouts=True, colocated=False, gen_gpus=8,
        train_gpus=8, gen_tp=1, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=8,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[1,1] T[1,1,16,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus', 'partial_rollouts'),
        derived=('gpu', 'optimizer_steps'),
        assumed=('prompt_mean_tokens',),
        notes=('The table prints training EP 16, but the recipe trains on 8 GPUs (8 generation + 8 training) with '
               'EP 8 (recipe value kept). Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async '
               'vLLM engine) on separate generation and training GPUs. GB200 GPU entered as gb200_186g (186 GB '
               'HBM3e, 72-GPU NVLink domain). prompt_mean_tokens 120 is assumed: on the on-policy rows '
               'tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
)


# --- volcengine/verl -----------------------------------------------------------------------------------------------
# Read at main, commit b178a3cd (2026-01-29).  fully_async.md and one_step_off.md are Meituan's experiments on H20s
# (Qwen2.5-Math-7B / Qwen3-30B-A3B-Base on DAPO-Math-17k); their per-step columns are seconds per step (verl timing
# keys), "total time" the wall clock of a run of N steps.  "Resource allocation a:b" is rollout GPUs : trainer GPUs.
# The shell scripts under verl/experimental/*/shell/ are the runs' configurations as committed, which do not always
# match the doc (each row's notes say where).
_VERL = dict(repo="volcengine/verl", ref="main", commit="b178a3cd56f58b2d502255daba591e92833930a7")
_FULLY = "docs/advance/fully_async.md"
_ONESTEP = "docs/advance/one_step_off.md"
_TUNING = "docs/perf/device_tuning.rst"
_FA_SH = "verl/experimental/fully_async_policy/shell/"
_OS_SH = "verl/experimental/one_step_off_policy/shell/"
_TUNE_SH = "examples/tuning/"


def _hm(days: int, hours: int, minutes: int) -> float:
    """Hours in a "1d 3h 43m" total."""
    return days * 24 + hours + minutes / 60


# fully_async.md "Asynchronous Training on 7B Model": Qwen2.5-Math-7B, DAPO, vLLM + FSDP2, rollout.n 16,
# ppo_mini_batch_size 32 prompts, colocate train_batch_size 512 prompts; async: require_batches 4 x
# trigger_parameter_sync_step 4 x 32 = 512 prompts between weight syncs, staleness_threshold 0.5, partial rollout.
_FA7 = dict(system="verl", model="Qwen2.5-Math-7B", arch="qwen25_7b", method="dapo", hardware="H20", gpu="h20_96g",
            prompts_per_step=512, group=16, responses_per_step=8192, train_batch=512, optimizer_steps=16,
            prompt_max_tokens=2048, response_max_tokens=28 * 1024, train_backend="fsdp", kl=0.0, run_steps=400)
_FA7_PUB = ("model", "method", "hardware", "gpus", "prompts_per_step", "group", "response_max_tokens",
            "train_backend", "colocated", "run_steps", "staleness")
_FA7_DER = ("gpu", "responses_per_step", "train_batch", "optimizer_steps")
_FA7_SYNC = dict(_FA7, colocated=True, staleness=0)
_FA7_ASYNC = dict(_FA7, colocated=False, staleness=1, staleness_threshold=0.5, partial_rollouts=True, gen_tp=4,
                  train_cp=4, offload="none")
_FA7_ASYNC_PUB = ("model", "method", "hardware", "gpus", "gen_gpus", "train_gpus", "group", "response_max_tokens",
                  "train_backend", "colocated", "run_steps", "staleness_threshold", "partial_rollouts")
_FA7_ASYNC_REC = ("prompt_max_tokens", "kl", "gen_tp", "train_cp", "offload")
_FA7_ASYNC_DER = ("gpu", "prompts_per_step", "responses_per_step", "train_batch", "optimizer_steps")
_FA7_NOTE = ("Qwen2.5-Math-7B has Qwen2.5-7B's shape (entered as qwen25_7b, assumed). Max response '28K' = 28 x 1024 "
             "in the scripts. No mean response length is printed (long chain-of-thought, up to 28K). ")
_FA7_SYNC_NOTE = (_FA7_NOTE + "Prompt cap 2,048 and KL 0 are the async scripts' (assumed for this run). ")
_FA7_ASYNC_NOTE = (_FA7_NOTE + "Async: 'gen' is the trainer's wait for samples, not generation time; staleness "
                   "entered as 1 (assumed) for staleness_threshold 0.5 + partial rollout (at most 1.5 steps of samples "
                   "between syncs). Layout from the script: vLLM TP4, FSDP2 (fsdp_size 8) with Ulysses sequence "
                   "parallel 4 (entered as train_cp), reference model offloaded. ")


def _fa_src(table: str, row: str) -> Source:
    return Source(**_VERL, path=_FULLY, table=table, row=row)


def _sh(path: str) -> Source:
    return Source(**_VERL, path=path)


_T7 = "Asynchronous Training on 7B Model"
_TMODE = "128-card 7B Asynchronous Mode Experiment"
_TSTALE = "128-card Stale Ablation Experiment"

VERL: tuple[PublishedRun, ...] = (
    PublishedRun(
        id="verl_fa_7b_sync_32g", **_FA7_SYNC, gpus=32,
        source=_fa_src(_T7, "colocate sync | 32"),
        figures=(_f("step_s", 790.10), _f("generation_s", 357.41), _f("logprob_s", 107.71), _f("training_s", 269.80),
                 _f("total_hours", _hm(3, 17, 5))),
        published=_FA7_PUB, derived=_FA7_DER, assumed=("arch", "prompt_max_tokens", "kl"),
        notes=_FA7_SYNC_NOTE + "Colocated synchronous baseline; its layout is not given (no colocate script in the folder).",
    ),
    PublishedRun(
        id="verl_fa_7b_async_16_16", **_FA7_ASYNC, gpus=32, gen_gpus=16, train_gpus=16,
        source=_fa_src(_T7, "fully_async_policy | 16:16"),
        recipe_source=_sh(_FA_SH + "dapo_7b_math_fsdp2_16_16.sh"),
        figures=(_f("step_s", 294.77), _f("wait_generation_s", 21.26), _f("training_s", 313.81),
                 _f("total_hours", _hm(1, 9, 26)), _f("speedup", 2.66)),
        published=_FA7_ASYNC_PUB, recipe=_FA7_ASYNC_REC, derived=_FA7_ASYNC_DER, assumed=("arch", "staleness"),
        notes=_FA7_ASYNC_NOTE + "The script sets staleness_threshold 0.1; the doc says 0.5 (doc kept). Speedup is "
              "the doc's, on 400-step wall clock against the 32-GPU colocated row.",
    ),
    PublishedRun(
        id="verl_fa_7b_sync_64g", **_FA7_SYNC, gpus=64,
        source=_fa_src(_T7, "colocate sync | 64"),
        figures=(_f("step_s", 365.28), _f("generation_s", 150.72), _f("logprob_s", 70.26), _f("training_s", 133.41),
                 _f("total_hours", _hm(1, 17, 32))),
        published=_FA7_PUB, derived=_FA7_DER, assumed=("arch", "prompt_max_tokens", "kl"),
        notes=_FA7_SYNC_NOTE + "Colocated synchronous baseline; layout not given.",
    ),
    PublishedRun(
        id="verl_fa_7b_async_32_32", **_FA7_ASYNC, gpus=64, gen_gpus=32, train_gpus=32,
        source=_fa_src(_T7, "fully_async_policy | 32:32"),
        recipe_source=_sh(_FA_SH + "dapo_7b_math_fsdp2_32_32.sh"),
        figures=(_f("step_s", 189.26), _f("wait_generation_s", 28.46), _f("training_s", 156.98),
                 _f("total_hours", _hm(0, 21, 40)), _f("speedup", 1.92)),
        published=_FA7_ASYNC_PUB, recipe=_FA7_ASYNC_REC, derived=_FA7_ASYNC_DER, assumed=("arch", "staleness"),
        notes=_FA7_ASYNC_NOTE + "The script sets staleness_threshold 0.1; the doc says 0.5 (doc kept).",
    ),
    PublishedRun(
        id="verl_fa_7b_sync_128g", **_FA7_SYNC, gpus=128,
        source=_fa_src(_T7, "colocate sync | 128"),
        figures=(_f("step_s", 356.30), _f("generation_s", 177.85), _f("logprob_s", 53.92), _f("training_s", 113.81),
                 _f("total_hours", _hm(1, 16, 48))),
        published=_FA7_PUB, derived=_FA7_DER, assumed=("arch", "prompt_max_tokens", "kl"),
        notes=_FA7_SYNC_NOTE + "Colocated synchronous baseline; layout not given. 64 -> 128 GPUs barely shortens the "
              "step (365 -> 356 s) and generation grows (151 -> 178 s): the longest response bounds it.",
    ),
    PublishedRun(
        id="verl_fa_7b_async_64_64", **_FA7_ASYNC, gpus=128, gen_gpus=64, train_gpus=64,
        source=_fa_src(_T7, "fully_async_policy | 64:64"),
        recipe_source=_sh(_FA_SH + "dapo_7b_math_fsdp2_64_64.sh"),
        figures=(_f("step_s", 150.63), _f("wait_generation_s", 33.14), _f("training_s", 113.16),
                 _f("total_hours", _hm(0, 17, 22)), _f("speedup", 2.35)),
        published=_FA7_ASYNC_PUB, recipe=_FA7_ASYNC_REC, derived=_FA7_ASYNC_DER, assumed=("arch", "staleness"),
        notes=_FA7_ASYNC_NOTE + "Same row in the mode table (partial rollout) and the stale ablation (0.5).",
    ),
    PublishedRun(
        id="verl_fa_7b_stream_64_64", **{**_FA7_ASYNC, "staleness": 0, "staleness_threshold": 0.0,
                                         "partial_rollouts": False},
        gpus=128, gen_gpus=64, train_gpus=64,
        source=_fa_src(_TMODE, "stream off policy pipeline (trigger_parameter_sync_step=4, require_batches=4)"),
        recipe_source=_sh(_FA_SH + "dapo_7b_math_fsdp2_64_64.sh"),
        figures=(_f("step_s", 231.34), _f("wait_generation_s", 128.47), _f("training_s", 98.77),
                 _f("total_hours", _hm(1, 1, 53))),
        published=_FA7_ASYNC_PUB + ("staleness",), recipe=_FA7_ASYNC_REC, derived=_FA7_ASYNC_DER,
        assumed=("arch",),
        notes=_FA7_NOTE + "Streaming without staleness (staleness_threshold 0, no partial rollout): samples flow "
              "to the trainer as they finish, weights sync every 512 prompts. Layout from the 64_64 script with "
              "these three settings changed as the doc says. The doc's 'async stream pipeline with stale samples' "
              "row is empty.",
    ),
    PublishedRun(
        id="verl_fa_7b_stale0.1_64_64", **{**_FA7_ASYNC, "staleness_threshold": 0.1}, gpus=128, gen_gpus=64,
        train_gpus=64,
        source=_fa_src(_TSTALE, "staleness_threshold 0.1"),
        recipe_source=_sh(_FA_SH + "dapo_7b_math_fsdp2_64_64.sh"),
        figures=(_f("step_s", 171.30), _f("wait_generation_s", 58.17), _f("training_s", 109.12),
                 _f("total_hours", _hm(0, 19, 59))),
        published=_FA7_ASYNC_PUB, recipe=_FA7_ASYNC_REC, derived=_FA7_ASYNC_DER, assumed=("arch", "staleness"),
        notes=_FA7_ASYNC_NOTE + "Partial rollout on.",
    ),
    PublishedRun(
        id="verl_fa_7b_stale0.3_64_64", **{**_FA7_ASYNC, "staleness_threshold": 0.3}, gpus=128, gen_gpus=64,
        train_gpus=64,
        source=_fa_src(_TSTALE, "staleness_threshold 0.3"),
        recipe_source=_sh(_FA_SH + "dapo_7b_math_fsdp2_64_64.sh"),
        figures=(_f("step_s", 146.11), _f("wait_generation_s", 38.88), _f("training_s", 103.22),
                 _f("total_hours", _hm(0, 17, 20))),
        published=_FA7_ASYNC_PUB, recipe=_FA7_ASYNC_REC, derived=_FA7_ASYNC_DER, assumed=("arch", "staleness"),
        notes=_FA7_ASYNC_NOTE + "Partial rollout on.",
    ),
    # fully_async.md "30B Model Mode Experiment": Qwen3-30B-A3B-Base, GRPO, vLLM + Megatron, H20, rollout.n 16,
    # ppo_mini_batch_size 128 prompts, train_batch_size 512 prompts, max response 8K.
    PublishedRun(
        id="verl_fa_30b_a3b_sync_128g", system="verl", model="Qwen3-30B-A3B-Base", arch="qwen3_30b_a3b",
        method="grpo", hardware="H20", gpu="h20_96g", gpus=128,
        source=_fa_src("30B Model Mode Experiment", "Colocate Sync | 128"),
        figures=(_f("step_s", 497.89), _f("generation_s", 348.05), _f("logprob_s", 28.73), _f("ref_s", 20.86),
                 _f("training_s", 86.27), _f("total_hours", _hm(2, 11, 39))),
        prompts_per_step=512, group=16, responses_per_step=8192, train_batch=2048, optimizer_steps=4,
        prompt_max_tokens=2048, response_max_tokens=8192, train_backend="megatron", colocated=True, staleness=0,
        run_steps=400,
        published=("model", "method", "hardware", "gpus", "prompts_per_step", "group", "response_max_tokens",
                   "train_backend", "colocated", "staleness", "run_steps"),
        derived=("arch", "gpu", "responses_per_step", "train_batch", "optimizer_steps"), assumed=("prompt_max_tokens",),
        notes="Colocated synchronous baseline; its layout is not given. Max response '8K' = 8 x 1024 in the async "
              "script; prompt cap 2,048 is the async script's (assumed for this run).",
    ),
    PublishedRun(
        id="verl_fa_30b_a3b_async_96_32", system="verl", model="Qwen3-30B-A3B-Base", arch="qwen3_30b_a3b",
        method="grpo", hardware="H20", gpu="h20_96g", gpus=128, gen_gpus=96, train_gpus=32,
        source=_fa_src("30B Model Mode Experiment", "Fully Async Policy | 96:32"),
        recipe_source=_sh(_FA_SH + "grpo_30b_a3b_base_math_megatron_96_32.sh"),
        figures=(_f("step_s", 282.75), _f("wait_generation_s", 22.06), _f("ref_s", 50.05), _f("training_s", 206.63),
                 _f("total_hours", _hm(1, 10, 41)), _f("speedup", 1.72)),
        prompts_per_step=512, group=16, responses_per_step=8192, train_batch=2048, optimizer_steps=4,
        prompt_max_tokens=2048, response_max_tokens=8192, train_backend="megatron", colocated=False, staleness=1,
        staleness_threshold=0.5, partial_rollouts=True, gen_tp=4, train_tp=2, train_pp=1, train_ep=8, train_cp=2,
        offload="params", kl=0.001, gen_memory_fraction=0.7, run_steps=400,
        published=("model", "method", "hardware", "gpus", "gen_gpus", "train_gpus", "prompts_per_step", "group",
                   "response_max_tokens", "train_backend", "colocated", "staleness_threshold", "partial_rollouts",
                   "run_steps"),
        recipe=("prompt_max_tokens", "gen_tp", "train_tp", "train_pp", "train_ep", "train_cp", "offload", "kl",
                "gen_memory_fraction"),
        derived=("arch", "gpu", "responses_per_step", "train_batch", "optimizer_steps"), assumed=("staleness",),
        notes="trigger_parameter_sync_step 4 x ppo_mini_batch_size 128 = 512 prompts between syncs. The doc calls "
              "96:32 'highly skewed ... not an optimal configuration'. 'Gen' is the trainer's wait for samples. "
              "Staleness entered as 1 (assumed) for staleness_threshold 0.5 with partial rollout. Script: params, "
              "grads and optimizer offloaded, KL loss 0.001 (low_var_kl), vLLM TP4 at 0.7 memory.",
    ),
    # fully_async.md "checkpoint-engine Ablation Experiment": single-step weight sync, H20, Megatron training.
    *(
        PublishedRun(
            id=f"verl_sync_{key}_{n}x{n}_{'ckpt' if ckpt else 'nccl'}", system="verl", model=model, arch=arch,
            method="grpo", hardware="H20", gpu="h20_96g", gpus=2 * n, gen_gpus=n, train_gpus=n, colocated=False,
            train_backend="megatron", weight_sync="checkpoint_engine" if ckpt else "nccl",
            source=_fa_src("checkpoint-engine Ablation Experiment", f"{model} | {n} | {n} | {ckpt}"),
            figures=(_f("weight_sync_s", seconds),),
            published=("model", "hardware", "gen_gpus", "train_gpus", "train_backend", "weight_sync", "colocated"),
            derived=("gpu", "gpus"), assumed=("method",) + (("arch",) if key == "7b" else ()),
            notes="Seconds for one parameter synchronization trainer -> rollout with default checkpoint-engine "
                  "settings (bucket 4,096 MB) or the per-tensor NCCL broadcast; 'trainer rank' / 'rollout rank' "
                  "read as GPUs. The doc says the time goes mostly to gathering parameters from Megatron/FSDP, not "
                  "to the broadcast. Method is irrelevant here (grpo assumed)."
                  + (" Qwen2.5-Math-7B entered as qwen25_7b (assumed)." if key == "7b" else ""),
        )
        for key, model, arch, n, ckpt, seconds in (
            ("7b", "Qwen2.5-Math-7B", "qwen25_7b", 4, False, 0.12),
            ("7b", "Qwen2.5-Math-7B", "qwen25_7b", 4, True, 0.02),
            ("30b_a3b", "Qwen3-30B-A3B", "qwen3_30b_a3b", 16, False, 15.76),
            ("30b_a3b", "Qwen3-30B-A3B", "qwen3_30b_a3b", 16, True, 4.38),
            ("235b_a22b", "Qwen3-235B-A22B", "qwen3_235b_a22b", 64, False, 58.57),
            ("235b_a22b", "Qwen3-235B-A22B", "qwen3_235b_a22b", 64, True, 23.70),
        )
    ),
    # fully_async.md "use_trainer_do_validate Experiment": Qwen2.5-Math-7B, DAPO, vLLM + FSDP2, max response 10K.
    PublishedRun(
        id="verl_fa_7b_validate_sync_16g", system="verl", model="Qwen2.5-Math-7B", arch="qwen25_7b", method="dapo",
        hardware="H20", gpu="h20_96g", gpus=16, prompts_per_step=512, group=16, responses_per_step=8192,
        train_batch=512, optimizer_steps=16, response_max_tokens=10 * 1024, train_backend="fsdp",
        colocated=True, staleness=0, run_steps=50, kl=0.0,
        source=_fa_src("use_trainer_do_validate Experiment", "colocate sync | 16"),
        figures=(_f("step_s", 484.623), _f("generation_s", 52.939), _f("training_s", 430.263),
                 _f("validate_s", 205.080), _f("total_hours", _hm(0, 7, 9))),
        published=("model", "method", "hardware", "gpus", "group", "response_max_tokens", "train_backend",
                   "colocated", "staleness", "run_steps"),
        derived=("gpu",), assumed=("arch", "prompts_per_step", "responses_per_step", "train_batch",
                                   "optimizer_steps", "kl"),
        notes="old_log_prob 0 in the table (not recorded). Batch sizes of the colocated run are not given: entered "
              "as the async row's (512 prompts x 16, ppo_mini_batch_size 32 -> 16 optimizer steps; assumed, the "
              "same experiment) with the DAPO scripts' KL 0 (assumed). The step column excludes validation: 50 "
              "steps in 7h9m = 515 s a step, 30 s above it, of which validation 205 s every test_freq 10 steps = "
              "20.5 s. "
              "Qwen2.5-Math-7B entered as qwen25_7b (assumed). Max response '10K' = 10 x 1024 read from '10K'.",
    ),
    PublishedRun(
        id="verl_fa_7b_validate_async_8_8", system="verl", model="Qwen2.5-Math-7B", arch="qwen25_7b", method="dapo",
        hardware="H20", gpu="h20_96g", gpus=16, gen_gpus=8, train_gpus=8, prompts_per_step=512, group=16,
        responses_per_step=8192, train_batch=512, optimizer_steps=16, response_max_tokens=10 * 1024,
        train_backend="fsdp", colocated=False, staleness=1, staleness_threshold=0.5, partial_rollouts=True,
        run_steps=50, kl=0.0,
        source=_fa_src("use_trainer_do_validate Experiment", "fully_async_policy | 8:8"),
        figures=(_f("step_s", 489.953), _f("wait_generation_s", 52.622), _f("training_s", 435.874),
                 _f("validate_s", 95.699), _f("total_hours", _hm(0, 7, 2))),
        published=("model", "method", "hardware", "gpus", "gen_gpus", "train_gpus", "group", "response_max_tokens",
                   "train_backend", "colocated", "staleness_threshold", "partial_rollouts", "run_steps"),
        derived=("gpu", "prompts_per_step", "responses_per_step", "train_batch", "optimizer_steps"),
        assumed=("arch", "staleness", "kl"),
        notes="KL 0 as the DAPO scripts (assumed). The step column excludes validation (95.7 s every test_freq "
              "10 steps). require_batches 4 x trigger 4 x ppo_mini_batch_size 32 = 512 prompts per step. Training dominates "
              "(436 of 490 s) at 8 training GPUs. Staleness entered as 1 (assumed). Qwen2.5-Math-7B entered as "
              "qwen25_7b (assumed).",
    ),
    # fully_async.md "Multi-Turn Tool Calling": ReTool SFT of Qwen2.5-7B-Instruct, DAPO, up to 16 turns, H20.
    PublishedRun(
        id="verl_fa_retool_7b_sync_32g", system="verl", model="Qwen2.5-7B-Instruct (ReTool SFT)", arch="qwen25_7b",
        method="dapo", hardware="H20", gpu="h20_96g", gpus=32, prompts_per_step=64, group=16,
        responses_per_step=1024, train_batch=256, optimizer_steps=4, prompt_max_tokens=2048,
        response_max_tokens=16384, colocated=True, staleness=0, run_steps=200,
        source=_fa_src("Multi-Turn Tool Calling / Experimental Results", "colocate | 32"),
        recipe_source=_sh(_FA_SH + "dapo_7b_async_retool.sh"),
        figures=(_f("step_s", 375.47), _f("generation_s", 228.03), _f("logprob_s", 35.19), _f("training_s", 111.84),
                 _f("total_hours", _hm(0, 22, 28))),
        published=("model", "method", "hardware", "gpus", "prompts_per_step", "colocated", "staleness", "run_steps"),
        recipe=("group", "prompt_max_tokens", "response_max_tokens"),
        derived=("arch", "gpu", "responses_per_step", "train_batch", "optimizer_steps"),
        notes="Multi-turn tool calls (sandbox code execution, up to 16 user / 16 assistant turns): tool latency "
              "sits inside generation. group, prompt and response caps from the async retool script (the colocated "
              "run has no script). train_batch_size 64 prompts, ppo_mini_batch_size 16 prompts.",
    ),
    PublishedRun(
        id="verl_fa_retool_7b_async_16_16", system="verl", model="Qwen2.5-7B-Instruct (ReTool SFT)",
        arch="qwen25_7b", method="dapo", hardware="H20", gpu="h20_96g", gpus=32, gen_gpus=16, train_gpus=16,
        prompts_per_step=64, group=16, responses_per_step=1024, train_batch=256, optimizer_steps=4,
        prompt_max_tokens=2048, response_max_tokens=16384, colocated=False, staleness=1, staleness_threshold=1.0,
        partial_rollouts=True, gen_tp=4, run_steps=200,
        source=_fa_src("Multi-Turn Tool Calling / Experimental Results", "fully_async_policy | 16: 16"),
        recipe_source=_sh(_FA_SH + "dapo_7b_async_retool.sh"),
        figures=(_f("step_s", 221.36), _f("wait_generation_s", 40.59), _f("training_s", 179.58),
                 _f("total_hours", _hm(0, 14, 4)), _f("speedup", 1.60)),
        published=("model", "method", "hardware", "gpus", "gen_gpus", "train_gpus", "colocated",
                   "staleness_threshold", "partial_rollouts", "run_steps"),
        recipe=("group", "prompt_max_tokens", "response_max_tokens", "gen_tp"),
        derived=("arch", "gpu", "prompts_per_step", "responses_per_step", "train_batch", "optimizer_steps"),
        assumed=("staleness",),
        notes="trigger 4 x require_batches 1 x ppo_mini_batch_size 16 = 64 prompts between syncs. The script sets "
              "staleness_threshold 0.5 and 4 + 4 GPUs on one node; the doc's run used 16 + 16 and threshold 1 (doc "
              "kept). Staleness entered as 1 (assumed). Multi-turn tool calls as in the colocated row.",
    ),
    # one_step_off.md "Experimental Results": Qwen2.5-Math-7B, DAPO, vLLM, 16 H20s (4 generation + 12 training for
    # the async rows).  Columns step / gen / wait_prev_gen / generate_sequences / old_log_prob / update_actor are
    # seconds per step; "total time" is the whole run (its step count is not given).
    PublishedRun(
        id="verl_os_7b_fsdp2_sync_16g", system="verl", model="Qwen2.5-Math-7B", arch="qwen25_7b", method="dapo",
        hardware="H20", gpu="h20_96g", gpus=16, prompts_per_step=512, group=12, responses_per_step=6144,
        train_batch=384, optimizer_steps=16, prompt_max_tokens=2048, response_max_tokens=20480,
        train_backend="fsdp", colocated=True, staleness=0, gen_tp=2, train_cp=4, offload="params", kl=0.0,
        source=Source(**_VERL, path=_ONESTEP, table="Experimental Results", row="colocate sync | VLLM+FSDP2"),
        recipe_source=_sh(_OS_SH + "dapo_7b_math_fsdp2_colocate.sh"),
        figures=(_f("step_s", 749.0), _f("generation_s", 321.0), _f("rollout_s", 247.0), _f("logprob_s", 88.0),
                 _f("training_s", 286.0), _f("total_hours", _hm(0, 19, 18))),
        published=("model", "method", "hardware", "gpus", "response_max_tokens", "train_backend", "colocated",
                   "staleness"),
        recipe=("prompts_per_step", "group", "prompt_max_tokens", "gen_tp", "train_cp", "offload", "kl"),
        derived=("gpu", "responses_per_step", "train_batch", "optimizer_steps"), assumed=("arch",),
        notes="The doc's machine line reads '2 nodes with 16 H20 GPUs each', yet generation 4 + training 12 = 16 "
              "GPUs; read as 16 in all. Max response 20,480 is the doc's (FSDP2); the script says 8,192. Script: "
              "512 prompts x 12, mini-batch 32 prompts, vLLM TP2, Ulysses SP 4 (entered as train_cp), offload on. "
              "Qwen2.5-Math-7B entered as qwen25_7b (assumed).",
    ),
    PublishedRun(
        id="verl_os_7b_fsdp2_1off_4_12", system="verl", model="Qwen2.5-Math-7B", arch="qwen25_7b", method="dapo",
        hardware="H20", gpu="h20_96g", gpus=16, gen_gpus=4, train_gpus=12, prompts_per_step=512, group=12,
        responses_per_step=6144, train_batch=384, optimizer_steps=16, prompt_max_tokens=2048,
        response_max_tokens=20480, train_backend="fsdp", colocated=False, staleness=1, gen_tp=2, train_cp=4,
        offload="none", kl=0.0, weight_sync="nccl",
        source=Source(**_VERL, path=_ONESTEP, table="Experimental Results", row="one-step-overlap async | VLLM+FSDP2"),
        recipe_source=_sh(_OS_SH + "dapo_7b_math_fsdp2_4_12.sh"),
        figures=(_f("step_s", 520.0), _f("wait_generation_s", 45.0), _f("rollout_s", 458.0), _f("logprob_s", 108.0),
                 _f("training_s", 337.0), _f("total_hours", _hm(0, 15, 34))),
        published=("model", "method", "hardware", "gpus", "gen_gpus", "train_gpus", "response_max_tokens",
                   "train_backend", "colocated", "staleness", "weight_sync"),
        recipe=("prompts_per_step", "group", "prompt_max_tokens", "gen_tp", "train_cp", "offload", "kl"),
        derived=("gpu", "responses_per_step", "train_batch", "optimizer_steps"), assumed=("arch",),
        notes="step ~ wait_prev_gen + old_log_prob + update_actor (the doc's rule). Generation on 4 GPUs takes 458 s "
              "against 247 s on 16 colocated. The doc: NCCL weight sync 'under 300ms' most of the time. Max response "
              "20,480 (doc) vs 8,192 (script). Reference model offloaded. Qwen2.5-Math-7B entered as qwen25_7b "
              "(assumed).",
    ),
    PublishedRun(
        id="verl_os_7b_megatron_sync_16g", system="verl", model="Qwen2.5-Math-7B", arch="qwen25_7b", method="dapo",
        hardware="H20", gpu="h20_96g", gpus=16, prompts_per_step=512, group=16, responses_per_step=8192,
        train_batch=512, optimizer_steps=16, prompt_max_tokens=2048, response_max_tokens=8192,
        train_backend="megatron", colocated=True, staleness=0, gen_tp=2, train_tp=2, train_pp=2, offload="params",
        kl=0.0,
        source=Source(**_VERL, path=_ONESTEP, table="Experimental Results", row="colocate sync | VLLM+Megatron"),
        recipe_source=_sh(_OS_SH + "dapo_7b_math_megatron_colocate.sh"),
        figures=(_f("step_s", 699.0), _f("generation_s", 207.0), _f("rollout_s", 162.0), _f("logprob_s", 119.0),
                 _f("training_s", 344.0), _f("total_hours", _hm(0, 18, 21))),
        published=("model", "method", "hardware", "gpus", "response_max_tokens", "train_backend", "colocated",
                   "staleness"),
        recipe=("prompts_per_step", "group", "prompt_max_tokens", "gen_tp", "train_tp", "train_pp", "offload", "kl"),
        derived=("gpu", "responses_per_step", "train_batch", "optimizer_steps"), assumed=("arch",),
        notes="Script: 512 prompts x 16 (the async Megatron script uses 12), vLLM TP2, Megatron TP2 PP2, offload "
              "on. Qwen2.5-Math-7B entered as qwen25_7b (assumed).",
    ),
    PublishedRun(
        id="verl_os_7b_megatron_1off_4_12", system="verl", model="Qwen2.5-Math-7B", arch="qwen25_7b", method="dapo",
        hardware="H20", gpu="h20_96g", gpus=16, gen_gpus=4, train_gpus=12, prompts_per_step=512, group=12,
        responses_per_step=6144, train_batch=384, optimizer_steps=16, prompt_max_tokens=2048,
        response_max_tokens=8192, train_backend="megatron", colocated=False, staleness=1, gen_tp=2, train_tp=2,
        train_pp=2, offload="none", kl=0.0, weight_sync="nccl",
        source=Source(**_VERL, path=_ONESTEP, table="Experimental Results",
                      row="one-step-overlap async | VLLM+Megatron"),
        recipe_source=_sh(_OS_SH + "dapo_7b_math_megatron_4_12.sh"),
        figures=(_f("step_s", 566.0), _f("wait_generation_s", 59.0), _f("rollout_s", 501.0), _f("logprob_s", 120.0),
                 _f("training_s", 347.0), _f("total_hours", _hm(0, 13, 6))),
        published=("model", "method", "hardware", "gpus", "gen_gpus", "train_gpus", "response_max_tokens",
                   "train_backend", "colocated", "staleness", "weight_sync"),
        recipe=("prompts_per_step", "group", "prompt_max_tokens", "gen_tp", "train_tp", "train_pp", "offload", "kl"),
        derived=("gpu", "responses_per_step", "train_batch", "optimizer_steps"), assumed=("arch",),
        notes="Reference model offloaded. Qwen2.5-Math-7B entered as qwen25_7b (assumed).",
    ),
)

# The DAPO-Math-17k rows print only the prompt cap (max_prompt_length 2,048, a truncation limit) and no mean.  verl
# trains them with use_remove_padding (sequence packing: the tokens a sequence has, not its cap), so a cap entered as
# the mean charges every sequence 2,048 prompt tokens it does not have.  Their prompt is entered at 120 tokens
# (assumed): one competition problem in DAPO's answer-format template, the length NeMo RL's math rows imply for a
# problem in its cot.txt template (tokens/s/GPU x step x GPUs / responses - G-Average Seq len = 99-131 tokens).
# Not the ReTool rows: a tool-use system prompt and multi-turn tool outputs lengthen their context (cap kept).
DAPO_MATH_PROMPT_TOKENS = 120.0
_DAPO_MATH_NOTE = (" Prompt entered at 120 tokens (assumed, DAPO_MATH_PROMPT_TOKENS): the 2,048 cap is a truncation "
                   "limit and verl packs sequences (use_remove_padding), training the tokens a prompt has.")


def _dapo_math_prompt(r: PublishedRun) -> PublishedRun:
    if r.prompt_mean_tokens is not None or r.model.startswith("Qwen2.5-7B-Instruct (ReTool"):
        return r
    return replace(r, prompt_mean_tokens=DAPO_MATH_PROMPT_TOKENS, assumed=r.assumed + ("prompt_mean_tokens",),
                   notes=r.notes + _DAPO_MATH_NOTE)


VERL = tuple(_dapo_math_prompt(r) if r.figure("step_s") is not None else r for r in VERL)

# device_tuning.rst "Hardware Resource Needed for RL" (last updated 06/25/2025): the MIN tag is "the minimum
# resources ... after applying all memory optimization techniques (e.g., offload, gradient checkpointing)".  The
# figure is the GPU count of the row's script; LoRA rows also print MaxBatch.  Every script: vLLM, FSDP unless
# named, gradient checkpointing on, actor params and optimizer offloaded, GSM8K prompts (LoRA rows: the script's
# dataset).  The model printed in the table is not always the script's (notes).
_TUNE_PUB = ("model", "method", "hardware", "gpus", "train_backend", "lora")
_TUNE_REC = ("prompts_per_step", "group", "prompt_max_tokens", "response_max_tokens", "gen_tp", "offload",
             "gen_memory_fraction")


def _tune(size: str, model: str, hardware: str, gpus: int, script: str) -> Source:
    return Source(**_VERL, path=_TUNING, table=f"{size} (MIN)", row=f"{model} | {hardware.replace(' ', '')}"
                  f" | {gpus} GPUs | {script}")


_LORA = dict(system="verl", method="grpo", hardware="H100", gpu="h100_80g", train_backend="fsdp", lora=True,
             prompt_max_tokens=512, response_max_tokens=1024, offload="params", staleness=0, colocated=True)
_LORA_NOTE = ("LoRA rank 32. prompts_per_step = MaxBatch (assumed: the scripts set data.train_batch_size = "
              "nproc_per_gpu x GPUs and the 7B script's comment tunes nproc_per_gpu by trial); rollout.n 5. ")

VERL_TUNING: tuple[PublishedRun, ...] = (
    *(
        PublishedRun(
            id=f"verl_tuning_{key}_lora_{gpus}xh100", model=model, arch=arch, gpus=gpus, **_LORA,
            prompts_per_step=max_batch, group=group, gen_tp=gpus, train_cp=sp if sp > 1 else None,
            gen_memory_fraction=mem,
            source=_tune(size, model, f"{gpus}*H100", gpus, script),
            recipe_source=_sh(_TUNE_SH + script),
            figures=(_f("min_gpus", gpus), _f("max_batch", max_batch)),
            published=_TUNE_PUB, recipe=_TUNE_REC[1:] + ("train_cp",) * (sp > 1) + ("staleness", "colocated"),
            derived=("gpu",) + (("arch",) if arch else ()), assumed=("prompts_per_step",),
            notes=_LORA_NOTE + note,
        )
        for key, size, model, arch, gpus, max_batch, group, sp, mem, script, note in (
            ("qwen25_0_5b", "0.5B", "Qwen2.5-0.5B", None, 1, 116, 1, 1, 0.1,
             "0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh",
             "No lab architecture for 0.5B. The script still sets nproc_per_gpu 1 and rollout.n 1."),
            ("qwen25_1_5b", "1.5B", "Qwen2.5-1.5B", "qwen25_1_5b", 1, 128, 5, 1, 0.1,
             "1.5b/qwen2-1.5b_grpo-lora_1_h100_fsdp_vllm.sh", "Script model: Qwen2.5-1.5B-Instruct."),
            ("qwen25_3b", "3B", "Qwen2.5-3B", "qwen25_3b", 1, 62, 5, 1, 0.1,
             "3b/qwen2-3b_grpo-lora_1_h100_fsdp_vllm.sh", "Script model: Qwen2.5-3B-Instruct."),
            ("qwen25_7b", "7B", "Qwen2.5-7B", "qwen25_7b", 1, 16, 5, 1, 0.2,
             "7b/qwen2-7b_grpo-lora_1_h100_fsdp_vllm.sh", "Script model: Qwen2.5-7B-Instruct."),
            ("qwen25_14b", "14B", "Qwen2.5-14B", "qwen25_14b", 2, 116, 5, 2, 0.25,
             "14b/qwen2-14b_grpo-lora_2_h100_fsdp_vllm.sh", "Script model: Qwen2.5-14B-Instruct; Ulysses SP 2."),
            ("qwen25_32b", "32B", "Qwen2.5-32B", "qwen25_32b", 4, 180, 5, 2, 0.3,
             "32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh", "Script model: Qwen2.5-32B-Instruct; Ulysses SP 2."),
            ("qwen25_72b", "70B", "Qwen2.5-72B", None, 8, 176, 5, 2, 0.4,
             "70b/qwen2-72b_grpo-lora_8_h100_fsdp_vllm.sh",
             "Script model: Qwen2.5-72B-Instruct (no lab architecture); Ulysses SP 2."),
        )
    ),
    PublishedRun(
        id="verl_tuning_qwen2_7b_full_2xh800", system="verl", model="Qwen2-7B", arch="qwen25_7b", method="grpo",
        hardware="H800", gpu="h100_80g", gpus=2, train_backend="fsdp", lora=False, prompts_per_step=1024, group=5,
        responses_per_step=5120, train_batch=1280, optimizer_steps=4, prompt_max_tokens=1024,
        response_max_tokens=1024, gen_tp=2, offload="params", kl=0.001, gen_memory_fraction=0.6, staleness=0,
        colocated=True,
        source=_tune("7B", "Qwen2-7B", "2*H800", 2, "qwen2-7b_grpo_2_h800_fsdp_vllm"),
        recipe_source=_sh(_TUNE_SH + "7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh"),
        figures=(_f("min_gpus", 2),),
        published=_TUNE_PUB, recipe=_TUNE_REC + ("kl", "staleness", "colocated"),
        derived=("responses_per_step", "train_batch", "optimizer_steps"), assumed=("arch", "gpu"),
        notes="Script model Qwen2-7B-Instruct (same shape as Qwen2.5-7B, entered as qwen25_7b, assumed); H800 "
              "entered as h100_80g (assumed: same HBM and compute, NVLink 400 GB/s). ppo_mini_batch_size 256 "
              "prompts, micro-batch 16 per GPU, KL loss 0.001.",
    ),
    PublishedRun(
        id="verl_tuning_qwen25_14b_full_4xh800", system="verl", model="Qwen2-14B", arch="qwen25_14b",
        method="grpo", hardware="H800", gpu="h100_80g", gpus=4, train_backend="fsdp", lora=False,
        prompts_per_step=1024, group=5, responses_per_step=5120, train_batch=1280, optimizer_steps=4,
        prompt_max_tokens=1024, response_max_tokens=1024, gen_tp=4, offload="params", kl=0.001,
        gen_memory_fraction=0.5, staleness=0, colocated=True,
        source=_tune("14B", "Qwen2-14B", "4*H800", 4, "qwen2-14b_grpo_4_h800_fsdp_vllm"),
        recipe_source=_sh(_TUNE_SH + "14b/qwen2_14b_grpo_4_h800_fsdp_vllm.sh"),
        figures=(_f("min_gpus", 4),),
        published=_TUNE_PUB, recipe=_TUNE_REC + ("kl", "staleness", "colocated"),
        derived=("responses_per_step", "train_batch", "optimizer_steps"), assumed=("arch", "gpu"),
        notes="There is no Qwen2-14B; the script trains Qwen2.5-Coder-14B-Instruct (entered as qwen25_14b, "
              "assumed). The doc links qwen2-14b_..., the file is qwen2_14b_.... H800 entered as h100_80g "
              "(assumed). ppo_mini_batch_size 256 prompts, KL loss 0.001.",
    ),
    PublishedRun(
        id="verl_tuning_qwen25_32b_full_8xh20", system="verl", model="Qwen2-32B", arch="qwen25_32b",
        method="grpo", hardware="H20", gpu="h20_96g", gpus=8, train_backend="megatron", lora=False,
        prompts_per_step=512, group=5, responses_per_step=2560, train_batch=1280, optimizer_steps=2,
        prompt_max_tokens=2048, response_max_tokens=6144, gen_tp=8, train_tp=8, offload="params", kl=0.001,
        gen_memory_fraction=0.6, staleness=0, colocated=True,
        source=_tune("32B", "Qwen2-32B", "8*H20", 8, "qwen2-32b_grpo_8_h20_megatron_vllm"),
        recipe_source=_sh(_TUNE_SH + "32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh"),
        figures=(_f("min_gpus", 8),),
        published=_TUNE_PUB, recipe=_TUNE_REC + ("train_tp", "kl", "staleness", "colocated"),
        derived=("responses_per_step", "train_batch", "optimizer_steps", "gpu"), assumed=("arch",),
        notes="There is no Qwen2-32B; the script trains Qwen2.5-32B (entered as qwen25_32b, assumed). Megatron "
              "TP8 with params, grads and optimizer offloaded; vLLM TP8. ppo_mini_batch_size 256 prompts.",
    ),
    *(
        PublishedRun(
            id=f"verl_tuning_qwen2_72b_full_32x{hw.lower()}", system="verl", model="Qwen2-70B", arch=None,
            method="grpo", hardware=hw, gpu=gpu, gpus=32, train_backend="fsdp", lora=False, prompts_per_step=1024,
            group=5, responses_per_step=5120, train_batch=1280, optimizer_steps=4, prompt_max_tokens=512,
            response_max_tokens=512, gen_tp=16, offload="params", kl=0.001, gen_memory_fraction=0.6, staleness=0,
            colocated=True,
            source=_tune("70B", "Qwen2-70B", f"32*{hw}", 32, f"qwen2-70b_grpo_32_{hw.lower()}_fsdp_vllm"),
            recipe_source=_sh(_TUNE_SH + f"70b/qwen2-70b_grpo_32_{hw.lower()}_fsdp_vllm.sh"),
            figures=(_f("min_gpus", 32),),
            published=_TUNE_PUB, recipe=_TUNE_REC + ("kl", "staleness", "colocated"),
            derived=("responses_per_step", "train_batch", "optimizer_steps") + (("gpu",) if hw == "H20" else ()),
            assumed=("gpu",) if hw == "H800" else (),
            notes="The script trains Qwen2-72B-Instruct: no lab architecture (llama3_70b is another shape). vLLM "
                  "TP16, dynamic batching at 24,000 tokens per GPU, ppo_mini_batch_size 256 prompts, KL loss 0.001."
                  + (" H800 entered as h100_80g (assumed)." if hw == "H800" else " H20 = h20_96g."),
        )
        for hw, gpu in (("H20", "h20_96g"), ("H800", "h100_80g"))
    ),
)

RUNS: tuple[PublishedRun, ...] = NEMO_RL + VERL + VERL_TUNING
RUN_BY_ID = {r.id: r for r in RUNS}
