"""Published measurements of RL post-training runs, as data: one ``PublishedRun`` per table row, with its exact source.

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

from dataclasses import dataclass

# Allowed values (the lab's input keys).  GPU keys are app.model.assumptions.GPUS keys; arch keys are the lab's
# architecture keys (today's table plus the keys agreed for the ``arch`` branch).
METHODS = ("grpo", "ppo", "dapo")
GPU_KEYS = ("a100_40g", "a100_80g", "h100_80g", "h200_141g", "h20_96g", "b200_180g")
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
    "generation_s": "s",
    "training_s": "s",
    "total_hours": "h",                      # wall-clock hours of a whole run
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
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=8,
        train_gpus=8, gen_tp=1, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=1,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[1,1] T[1,1,1,1,1,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
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
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=256,
        train_gpus=256, gen_tp=32, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=16,
        train_ep=16, train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[32,1] T[1,1,16,16,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
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
        table_layout='G[64,1] T[8,4,32,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE,
        derived=('gpu', 'optimizer_steps'),
        notes=('Step time 458 s is the value after fix #1890 (the v0.5.0 tag printed 974, the same as its G-Average '
               'Seq len). The recipe samples 256 prompts x 16 = 4,096 responses per generation batch with dynamic '
               'sampling (batch_multiplier 3, up to 10 generation batches) and trains on 512, while the table '
               'prints G-GBS 512: how many responses a step really generated is not given. KL 0, prompts <= 512 '
               'tokens, responses <= 1,536 (overlong reward shaping from 1,024). DAPOMath17k prompts, length not '
               'given. Colocated: vLLM and Megatron share every GPU (refit in place). response_mean_tokens is the '
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
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=128,
        train_gpus=128, gen_tp=8, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=4, train_pp=8, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[8,1] T[4,1,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
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
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=16,
        train_gpus=16, gen_tp=2, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=2, train_ep=8,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[2,1] T[1,1,8,2,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
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
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=32,
        train_gpus=32, gen_tp=4, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=4, train_pp=4, train_ep=1,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[4,1] T[4,1,1,4,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
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
        total_max_tokens=4096, train_dtype='fp8', rollout_dtype='fp8', staleness=1, colocated=False, gen_gpus=8,
        train_gpus=8, gen_tp=1, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=1,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[1,1] T[1,1,1,1,1,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
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
        total_max_tokens=1536, train_dtype='fp8', rollout_dtype='fp8', staleness=1, colocated=False, gen_gpus=256,
        train_gpus=256, gen_tp=16, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=16,
        train_ep=16, train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[16,1] T[1,1,16,16,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
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
        hardware='GB200-NVL72', gpu='b200_180g', gpus=8,
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
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Table prints 7 layout cells; the recipe says TP1 PP1. Colocated: vLLM and Megatron share every GPU '
               '(refit in place). GB200 GPU (~186 GB HBM3e, 72-GPU NVLink domain) entered as b200_180g (assumed). '
               'prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / responses '
               'exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + problem). '
               "response_mean_tokens is the table's G-Average Seq len (read as generated tokens per response)."),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_llama31_8b_1off_8g',
        system='nemo_rl', model='LLAMA3.1_8B', arch='llama3_8b', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=8,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | LLAMA3.1_8B | 1-step Off | 8 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-llama3.1-8b-instruct-2n4g-async-1off.yaml'),
        figures=(_f('step_s', 71.1), _f('tokens_per_s_per_gpu', 4463.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=1107.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=4,
        train_gpus=4, gen_tp=1, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=1,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[1,1] T[1,1,1,1,1,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Table prints 7 layout cells; the recipe says TP1 PP1. Async GRPO (max_trajectory_age_steps=1, '
               'in-flight weight updates, async vLLM engine) on separate generation and training GPUs. GB200 GPU '
               '(~186 GB HBM3e, 72-GPU NVLink domain) entered as b200_180g (assumed). prompt_mean_tokens 120 is '
               'assumed: on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by '
               "99-131 tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_dsv3_on_128g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=128,
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
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('G-Average Seq len ~995 on GB200 vs ~740 on H100 in v0.5: the v0.6 page says the DeepSeek V3 '
               'checkpoint changed, so v0.5 DeepSeek rows are not comparable across hardware. Colocated: vLLM and '
               'Megatron share every GPU (refit in place). GB200 GPU (~186 GB HBM3e, 72-GPU NVLink domain) entered '
               'as b200_180g (assumed). prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x '
               'step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt '
               "template + problem). response_mean_tokens is the table's G-Average Seq len (read as generated "
               'tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_dsv3_1off_256g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=256,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | DeepSeek V3 | 1-step Off | 256 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-64n4g-async-1off.yaml'),
        figures=(_f('step_s', 64.5), _f('tokens_per_s_per_gpu', 31.7)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=994.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=128,
        train_gpus=128, gen_tp=16, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=8, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[16,1] T[1,1,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('G-Average Seq len ~995 on GB200 vs ~740 on H100 in v0.5 (checkpoint change, see the v0.6 page '
               'note). Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on '
               'separate generation and training GPUs. GB200 GPU (~186 GB HBM3e, 72-GPU NVLink domain) entered as '
               'b200_180g (assumed). prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x '
               'GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_qwen3_235b_on_64g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=64,
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
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU (~186 GB HBM3e, 72-GPU '
               'NVLink domain) entered as b200_180g (assumed). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_qwen3_235b_1off_128g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=128,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-235B | 1-step Off | 128 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-235b-32n4g-async-1off.yaml'),
        figures=(_f('step_s', 268.0), _f('tokens_per_s_per_gpu', 87.9)),
        prompts_per_step=16, group=32, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=8192, response_mean_tokens=5711.0, response_max_tokens=8192,
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=64,
        train_gpus=64, gen_tp=8, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=4, train_pp=4, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[8,1] T[4,1,16,4,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. GB200 GPU (~186 GB HBM3e, 72-GPU NVLink domain) entered as b200_180g '
               '(assumed). prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / '
               'responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_qwen3_30b_a3b_on_16g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=16,
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
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU (~186 GB HBM3e, 72-GPU '
               'NVLink domain) entered as b200_180g (assumed). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_qwen3_30b_a3b_1off_32g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=32,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-30B3A | 1-step Off | 32 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-30ba3b-8n4g-async-1off.yaml'),
        figures=(_f('step_s', 136.0), _f('tokens_per_s_per_gpu', 1558.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3204.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=16,
        train_gpus=16, gen_tp=1, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[1,1] T[1,1,16,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. GB200 GPU (~186 GB HBM3e, 72-GPU NVLink domain) entered as b200_180g '
               '(assumed). prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / '
               'responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_qwen3_32b_on_16g',
        system='nemo_rl', model='Qwen3-32B', arch='qwen3_32b', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=16,
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
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU (~186 GB HBM3e, 72-GPU '
               'NVLink domain) entered as b200_180g (assumed). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v05_gb200_grpo_qwen3_32b_1off_32g',
        system='nemo_rl', model='Qwen3-32B', arch='qwen3_32b', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=32,
        source=Source(**NEMO_V05_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-32B | 1-step Off | 32 GPUs'),
        recipe_source=Source(**NEMO_V05_RECIPES, path=_RECIPES + 'grpo-qwen3-32b-8n4g-async-1off.yaml'),
        figures=(_f('step_s', 210.0), _f('tokens_per_s_per_gpu', 1025.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3258.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=16,
        train_gpus=16, gen_tp=1, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=2, train_pp=1, train_ep=1,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[1,1] T[2,1,1,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. GB200 GPU (~186 GB HBM3e, 72-GPU NVLink domain) entered as b200_180g '
               '(assumed). prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / '
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
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=256,
        train_gpus=256, gen_tp=32, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=16,
        train_ep=16, train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[32,1] T[1,1,16,16,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
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
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=128,
        train_gpus=128, gen_tp=8, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=4, train_pp=8, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[8,1] T[4,1,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
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
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=16,
        train_gpus=16, gen_tp=2, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=2, train_ep=8,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[2,1] T[1,1,8,2,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
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
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=8, colocated=False, gen_gpus=64,
        train_gpus=128, gen_tp=2, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=8,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[2,1] T[1,1,8,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
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
        total_max_tokens=1536, train_dtype='fp8', rollout_dtype='fp8', staleness=1, colocated=False, gen_gpus=256,
        train_gpus=256, gen_tp=16, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=16,
        train_ep=16, train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[16,1] T[1,1,16,16,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
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
        hardware='GB200-NVL72', gpu='b200_180g', gpus=128,
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
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU (~186 GB HBM3e, 72-GPU '
               'NVLink domain) entered as b200_180g (assumed). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_dsv3_on_256g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=256,
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
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('The table prints training EP 16; the recipe grpo-deepseek-v3-64n4g.yaml sets EP 32 (recipe value '
               'kept in train_ep). Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU (~186 '
               'GB HBM3e, 72-GPU NVLink domain) entered as b200_180g (assumed). prompt_mean_tokens 120 is assumed: '
               'on the on-policy rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 '
               "tokens, read as the prompt (cot.txt template + problem). response_mean_tokens is the table's "
               'G-Average Seq len (read as generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_dsv3_1off_256g',
        system='nemo_rl', model='DeepSeek V3', arch='deepseek_v3', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=256,
        source=Source(**NEMO_V06_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | DeepSeek V3 | 1-step Off | 256 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-deepseek-v3-64n4g-async-1off.yaml'),
        figures=(_f('step_s', 61.7), _f('tokens_per_s_per_gpu', 26.7)),
        prompts_per_step=32, group=16, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=1536, response_mean_tokens=708.0, response_max_tokens=1536,
        total_max_tokens=1536, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=128,
        train_gpus=128, gen_tp=16, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=8, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[16,1] T[1,1,16,8,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. GB200 GPU (~186 GB HBM3e, 72-GPU NVLink domain) entered as b200_180g '
               '(assumed). prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / '
               'responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_qwen3_235b_on_64g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=64,
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
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU (~186 GB HBM3e, 72-GPU '
               'NVLink domain) entered as b200_180g (assumed). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_qwen3_235b_on_128g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=128,
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
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU (~186 GB HBM3e, 72-GPU '
               'NVLink domain) entered as b200_180g (assumed). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_qwen3_235b_1off_128g',
        system='nemo_rl', model='Qwen3-235B', arch='qwen3_235b_a22b', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=128,
        source=Source(**NEMO_V06_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-235B | 1-step Off | 128 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-235b-32n4g-async-1off.yaml'),
        figures=(_f('step_s', 278.0), _f('tokens_per_s_per_gpu', 85.5)),
        prompts_per_step=16, group=32, responses_per_step=512, train_batch=512, optimizer_steps=1,
        prompt_mean_tokens=120.0, prompt_max_tokens=8192, response_mean_tokens=5705.0, response_max_tokens=8192,
        total_max_tokens=8192, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=64,
        train_gpus=64, gen_tp=8, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=4, train_pp=4, train_ep=16,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[8,1] T[4,1,16,4,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async vLLM engine) on separate '
               'generation and training GPUs. GB200 GPU (~186 GB HBM3e, 72-GPU NVLink domain) entered as b200_180g '
               '(assumed). prompt_mean_tokens 120 is assumed: on the on-policy rows tokens/s/GPU x step x GPUs / '
               'responses exceeds G-Average Seq len by 99-131 tokens, read as the prompt (cot.txt template + '
               "problem). response_mean_tokens is the table's G-Average Seq len (read as generated tokens per "
               'response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_qwen3_30b_a3b_on_16g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=16,
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
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('Colocated: vLLM and Megatron share every GPU (refit in place). GB200 GPU (~186 GB HBM3e, 72-GPU '
               'NVLink domain) entered as b200_180g (assumed). prompt_mean_tokens 120 is assumed: on the on-policy '
               'rows tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
    PublishedRun(
        id='nemo_v06_gb200_grpo_qwen3_30b_a3b_1off_16g',
        system='nemo_rl', model='Qwen3-30B3A', arch='qwen3_30b_a3b', method='grpo',
        hardware='GB200-NVL72', gpu='b200_180g', gpus=16,
        source=Source(**NEMO_V06_TABLE, table='GB200 BF16 Benchmarks', row='GRPO | Qwen3-30B3A | 1-step Off | 16 GPUs'),
        recipe_source=Source(**NEMO_V06_RECIPES, path=_RECIPES + 'grpo-qwen3-30ba3b-4n4g-async-1off.yaml'),
        figures=(_f('step_s', 301.0), _f('tokens_per_s_per_gpu', 1406.0)),
        prompts_per_step=64, group=32, responses_per_step=2048, train_batch=512, optimizer_steps=4,
        prompt_mean_tokens=120.0, prompt_max_tokens=4096, response_mean_tokens=3197.0, response_max_tokens=4096,
        total_max_tokens=4096, train_dtype='bf16', rollout_dtype='bf16', staleness=1, colocated=False, gen_gpus=8,
        train_gpus=8, gen_tp=1, gen_pp=1, gen_ep=1, train_backend='megatron', train_tp=1, train_pp=1, train_ep=8,
        train_cp=1, kl=0.01, gen_memory_fraction=0.8, table_layout='G[1,1] T[1,1,16,1,n/a]',
        published=_NEMO_PUBLISHED,
        recipe=_NEMO_RECIPE + ('gen_gpus', 'train_gpus'),
        derived=('optimizer_steps',),
        assumed=('gpu', 'prompt_mean_tokens'),
        notes=('The table prints training EP 16, but the recipe trains on 8 GPUs (8 generation + 8 training) with '
               'EP 8 (recipe value kept). Async GRPO (max_trajectory_age_steps=1, in-flight weight updates, async '
               'vLLM engine) on separate generation and training GPUs. GB200 GPU (~186 GB HBM3e, 72-GPU NVLink '
               'domain) entered as b200_180g (assumed). prompt_mean_tokens 120 is assumed: on the on-policy rows '
               'tokens/s/GPU x step x GPUs / responses exceeds G-Average Seq len by 99-131 tokens, read as the '
               "prompt (cot.txt template + problem). response_mean_tokens is the table's G-Average Seq len (read as "
               'generated tokens per response).'),
    ),
)

RUNS: tuple[PublishedRun, ...] = NEMO_RL
RUN_BY_ID = {r.id: r for r in RUNS}
