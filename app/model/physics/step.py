"""One RL step: GPU groups, the phases of a layout (colocated or separate), the layout search, the Step record.

References [n]: the list in ``app/model/physics/__init__.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from app.model.assumptions import (
    COLOCATED_ENGINE_MEMORY_FRACTION,
    HIDDEN_SECONDS_THRESHOLD_S,
    INFER_BYTES_PER_PARAM,
    SEPARATE_MIN_GPUS,
    WHOLE_STEP_SHARE,
    GpuSpec,
)
from app.model.inputs import WorkloadInputs
from app.model.physics.generation import (
    EngineLayout,
    Engines,
    Generation,
    colocated_switch_seconds,
    engine_fits,
    engine_layout,
    step_engines,
    tensor_parallel_options,
)
from app.model.physics.judge import judge_generation, judge_seconds
from app.model.physics.layout import (
    TrainingLayout,
    backend_for,
    megatron_counts,
    min_training_gpus,
    training_fits,
    training_layout,
)
from app.model.physics.memory import MAX_GPUS, min_gpus_that_fit
from app.model.physics.refit import Refit, refit_seconds, server_mode, server_refit_seconds
from app.model.physics.training import (
    TrainingTime,
    compute_seconds,
    fastest_layout,
    generation_resident_gb,
    trainer_swap_seconds,
    training_seconds,
    training_time,
)
from app.model.physics.workload import Workload, _group, workload


class Groups(NamedTuple):
    """How many GPUs do what. Colocated: every role uses all GPUs, one phase after another."""

    generation: int
    scoring: int
    training: int
    colocated: bool


def gpu_groups(gpus: int, colocated: bool) -> Groups:
    """The fixed reference split (OpenRLHF's 8-GPU 7B layout: 4 train, 2 vLLM, 2 ref + RM): training ⌈G/2⌉,
    generation ⌈⌊G/2⌋/2⌉, scoring the rest.  ``separate`` compares every layout it searches with this one.

    >>> gpu_groups(8, False)
    Groups(generation=2, scoring=2, training=4, colocated=False)
    """
    if colocated:
        return Groups(gpus, gpus, gpus, True)
    training = (gpus + 1) // 2
    rest = gpus - training
    generation = (rest + 1) // 2
    return Groups(generation, rest - generation, training, False)


class GpuLayout(NamedTuple):
    """The layout a step runs on: GPU counts per role, the engine's shape (tensor parallel within a node, pipeline
    stages beyond it, replicas), and the step of OpenRLHF's fixed split (training ½, generation and scoring ¼
    each) it was compared with (separate placement; colocated: every role on all GPUs)."""

    generation: int
    scoring: int
    training: int
    engine_tp: int            # the engine's tensor parallel: within one node, at most its GPUs (MODEL-FRONTIER A1)
    replicas: int
    colocated: bool
    fixed_step_s: float       # the step on gpu_groups(G) (the same step when colocated)
    searched: bool            # True when the search found a layout faster than the fixed split
    engine_pp: int = 1        # the engine's pipeline stages: an instance larger than a node spans nodes by PP


class Phases(NamedTuple):
    """One layout's phase times, s."""

    generation: Generation
    scoring_s: float
    scoring_train_s: float    # the forwards on the training GPUs
    scoring_score_s: float    # the forwards on the scoring GPUs
    training_s: float
    sync_s: float
    total_s: float
    refit: Refit | None = None  # the modelled refit's terms (``refit_seconds``); None with nothing generated or hf
    sync_hidden_s: float = 0.0  # the refit's transfer run beside generation (in-flight weight updates), s


def _covered(g: Generation, gpus: int) -> bool:
    """Whether the engine's instances occupy all ``gpus`` (or nothing is generated)."""
    return g.gpus <= 0 or g.engine_gpus == gpus


def trainer_scores(w: Workload, score: int) -> bool:
    """Whether the frozen models' forwards (reference, reward model) run on the training GPUs: placed apart with no
    scoring GPUs while there is something to score — verl's and NeMo RL's trainers compute the reference log-probs
    themselves (verl's ``ActorRolloutRefWorker``, NeMo RL's policy worker), OpenRLHF's with
    ``--train.colocate_actor_ref``."""
    return score == 0 and bool(w.reference or w.reward_model)


def judge_pass_seconds(w: Workload, i: WorkloadInputs, gpus: int) -> float:
    """reward=judge: the LLM judge's own pass over the step's rollouts on ``gpus`` GPUs (``judge_seconds``: its
    prefill of each rollout and its decode of ``judge_tokens``), charged to scoring; 0 for any other reward."""
    return judge_seconds(w.judge_b, w.gpu, i.rollouts, w.seq_tokens, w.judge_tokens, gpus) if w.judge_b else 0.0


def scoring_gpu_seconds(w: Workload, i: WorkloadInputs) -> float:
    """The scoring GPUs' work in GPU-seconds, for balancing a split: the frozen forwards on one GPU, plus a judge's
    pass on one host times its GPUs (a judge may not fit on one GPU)."""
    b = compute_seconds(w.scoring_score_flops, 1, w.gpu, w.scoring_mfu)
    if w.judge_b:
        b += judge_pass_seconds(w, i, w.gpu.node_gpus) * w.gpu.node_gpus
    return b


def _separate_phases(w: Workload, i: WorkloadInputs, engines: Engines, gen: int, score: int, train: int) -> Phases:
    """Disaggregated: generation, scoring and training on their own GPUs.  Scoring streams behind generation;
    each step refits the engines (``refit_seconds``: the trainer's shards gathered, converted, broadcast at the
    engine's dtype over the link of both groups and loaded tensor by tensor, bucketed or per tensor).
    Synchronous: max(generation, scoring) + training + sync; with staleness ≥ 1 generation runs ahead:
    max(generation, scoring + training) + sync; with partial rollouts too (in-flight weight updates) the refit's
    gather and broadcast join the trainer's side, max(generation, scoring + training + transfer) + convert + load.  With no scoring GPUs (``trainer_scores``) the frozen models'
    forwards join the old-log-prob pass on the training GPUs, which then hold them too."""
    gpu = w.gpu
    g = engines.generation(gen)
    frozen = trainer_scores(w, score)
    on_trainer = w.scoring_train_flops + (w.scoring_score_flops if frozen else 0.0)
    s_train = compute_seconds(on_trainer, min(train, w.sequences), gpu, w.scoring_mfu)
    s_score = 0.0 if frozen else compute_seconds(w.scoring_score_flops, score, gpu, w.scoring_mfu)
    if w.judge_b:  # the judge's own prefill and decode, where the frozen models run
        if frozen:
            s_train += judge_pass_seconds(w, i, train)
        else:
            s_score += judge_pass_seconds(w, i, score)
    scoring = max(s_train, s_score)
    training = training_seconds(w, i, train, frozen=frozen)
    if i.rollouts <= 0:
        refit = None
    elif server_mode(i):  # behind HTTP (TRL vllm_mode=server): tensor by tensor, each with its round trip
        refit = server_refit_seconds(w.arch, gpu, train_gpus=train, generation_gpus=gen, dtype=i.rollout_dtype)
    else:
        refit = refit_seconds(w.arch, gpu, mode=i.refit, train_gpus=train, generation_gpus=gen,
                              dtype=i.rollout_dtype if i.engine == "vllm" else "bf16", colocated=False)
    sync = refit.total_s if refit else 0.0
    hidden = 0.0
    if refit and i.staleness and i.partial_rollouts == "on":
        # in-flight weight updates (NeMo RL's async recipes, grpo.async_grpo.in_flight_weight_updates: "generation
        # keeps running through the weight refit"): the trainer's gather and the broadcast run beside the engine's
        # decoding, after training; the engine pauses only to convert and load what arrived
        hidden = refit.total_s - refit.convert_s - refit.load_s - refit.http_s
        sync = refit.convert_s + refit.load_s + refit.http_s
    if i.refit_s is not None and i.rollouts > 0:  # the refit fitted to a run replaces the modelled broadcast
        sync, hidden = i.refit_s, 0.0
    total = (max(g.seconds, scoring + training + hidden) + sync if i.staleness
             else max(g.seconds, scoring) + training + sync)
    return Phases(generation=g, scoring_s=scoring, scoring_train_s=s_train, scoring_score_s=s_score,
                  training_s=training, sync_s=sync, total_s=total, refit=refit, sync_hidden_s=hidden)


def colocated_engine_memory_gb(w: Workload, i: WorkloadInputs, n: int) -> float:
    """What the engine may use on each of n colocated GPUs, GB: vllm min(0.6 · M, usable − what the trainer leaves
    on the GPU while the engine runs, ``generation_resident_gb``); hf what the states leave plus the gathered
    weights' own shard."""
    layout = training_layout(w, n, colocated=True)
    if i.engine == "vllm":
        return min(COLOCATED_ENGINE_MEMORY_FRACTION * w.gpu.memory_gb, w.usable_gb - generation_resident_gb(layout))
    free = w.usable_gb - layout.states_gb
    return free + INFER_BYTES_PER_PARAM * w.arch.total_b / n  # the gathered weights replace the shard


def _colocated_phases(w: Workload, i: WorkloadInputs, n: int) -> Phases:
    """Colocated: phases take turns on all G GPUs.  vllm = the hybrid engine (verl, OpenRLHF
    --colocate_all_models, NeMo RL): the engine gets ``colocated_engine_memory_gb`` of each GPU and each step pays
    a refit (``refit_seconds``: the G GPUs' shards all-gathered, converted and loaded tensor by tensor; no
    broadcast).  hf = HF generate inside the trainer: the ZeRO-3-sharded
    weights are all-gathered every decode step, the KV cache in what the states leave.  The hybrid engine also
    sleeps and wakes every step (``colocated_switch_seconds``), counted with the refit, and a Megatron trainer's
    states go to host memory and back (``trainer_swap_seconds``).
    step = generation + scoring + training + refit + wake."""
    gpu = w.gpu
    engine_memory = colocated_engine_memory_gb(w, i, n)
    g = step_engines(w, i, max(engine_memory, 0.01), n, gather_gpus=n if i.engine == "hf" else 0).generation(n)
    scoring = compute_seconds(w.scoring_train_flops + w.scoring_score_flops, min(n, w.sequences), gpu, w.scoring_mfu)
    scoring += judge_pass_seconds(w, i, n)  # reward=judge: its pass takes its turn on all G GPUs
    training = training_seconds(w, i, n, colocated=True)
    sync = 0.0
    refit = None
    if i.engine == "vllm" and i.rollouts > 0:
        refit = refit_seconds(w.arch, gpu, mode=i.refit, train_gpus=n, dtype=i.rollout_dtype, colocated=True)
        sync = refit.total_s + colocated_switch_seconds(g) + trainer_swap_seconds(
            w, fastest_layout(w, n, colocated=True))
    if i.refit_s is not None and i.rollouts > 0:  # the refit fitted to a run replaces refit, wake and swap
        sync = i.refit_s
    total = g.seconds + scoring + training + sync
    return Phases(generation=g, scoring_s=scoring, scoring_train_s=scoring, scoring_score_s=0.0,
                  training_s=training, sync_s=sync, total_s=total, refit=refit)


def colocated_fits(w: Workload, i: WorkloadInputs, gpus: int) -> bool:
    """Colocated fit at G GPUs: the training phase fits (``training_layout``) and the widest engine instance the
    G GPUs allow holds its weights and one longest sequence's KV in the engine's share (``engine_fits``)."""
    if not training_fits(w, gpus, colocated=True):
        return False
    if i.rollouts <= 0:
        return True
    engine_memory = colocated_engine_memory_gb(w, i, gpus)
    return engine_memory > 0 and engine_fits(w, i, engine_memory, gpus)


def _balanced(w: Workload, i: WorkloadInputs, engines: Engines, gpus: int, t_min: int, s_min: int,
              g_min: int) -> list[tuple[int, int, int]]:
    """Layouts near the split that balances the phases, for ``gpus`` GPUs.

    With generation ≈ A / x, scoring ≈ B / s and training ≈ C / t (A, B, C in GPU-seconds; A measured on the
    generation GPUs of the first layout below, C on the training minimum), the step max(A / x, B / s) + C / t under
    x + s + t = G is least at s = x · B / A and x = G / (k + √(k · C / A)), k = 1 + B / A.  The layouts: the roles'
    minimums (training t_min, scoring s_min, generation the rest), and that point, rounded and held to each role's
    minimum."""
    n = max(gpus - t_min - s_min, 1)
    a = engines.throughput(n) * n
    b = scoring_gpu_seconds(w, i)
    c = training_seconds(w, i, 1)
    out = [(gpus - t_min - s_min, s_min, t_min)]
    if a > 0 and c > 0:
        k = 1.0 + b / a
        gen = max(round(gpus / (k + math.sqrt(k * c / a))), g_min)
        score = max(s_min, round(gen * b / a)) if s_min else 0
        if gpus - gen - score >= t_min:
            out.append((gen, score, gpus - gen - score))
    return out


@dataclass(frozen=True, slots=True)
class Step:
    """One RL step on its layout: phase times, GPU-seconds, the groups, the engine and the training layout."""

    generation_s: float
    scoring_s: float
    training_s: float
    overlap_s: float          # scoring (separate) or scoring + training (async) hidden behind generation
    total_s: float
    generation_share: float   # generation_s / total_s
    generation_gpu_s: float
    scoring_gpu_s: float
    training_gpu_s: float
    idle_gpu_s: float         # GPU-seconds no phase uses (separate placement waits)
    tokens: float             # rollouts · (prompt + mean response)
    groups: Groups
    gen: Generation
    sync_s: float = 0.0       # refit (colocated) or weight broadcast (separate) per step
    gpu_groups: GpuLayout | None = None
    tail_s: float = 0.0       # seconds the longest response adds beyond the batch's own generation time
    tail_share: float = 0.0   # tail_s / generation_s
    env_wait_s: float = 0.0   # agentic rollouts: seconds generation waits for the environment between turns
    staleness: int = 0
    sync_step_s: float = 0.0  # the same layout run synchronously (equals total_s when staleness = 0)
    prompts_per_step: float = 0.0
    training_layout: TrainingLayout | None = None  # the trainer's layout on the training GPUs
    training_time: TrainingTime | None = None      # its compute, bubble and communication
    optimizer_steps: int = 0  # optimizer steps this RL step takes (epochs · per epoch)
    generation_engine: EngineLayout | None = None  # the engine as launched: tp × pp instances, ep, replicas, GB/GPU
    role_minimums: tuple[int | None, int, int | None] | None = None  # separate: (training, scoring, generation)
    validation_s: float = 0.0  # one validation pass, outside the step (``validation_seconds``); the run counts it
    trainer_scores: bool = False  # placed apart, the training GPUs run the frozen models' forwards (no scoring GPUs)
    refit: Refit | None = None  # the modelled refit: gather, convert, broadcast, per-tensor load (``refit_seconds``)

    @property
    def scoring_hidden_s(self) -> float:
        """Scoring seconds hidden behind generation (overlap_s counts training too when the step runs ahead)."""
        return min(self.overlap_s, self.scoring_s)

    @property
    def generation_is_whole(self) -> bool:
        """Generation runs ahead and everything else hides behind it: the step *is* generation (share ≥
        ``whole_step_share``)."""
        return bool(self.staleness) and self.generation_share >= WHOLE_STEP_SHARE

    @property
    def scoring_hidden_any(self) -> bool:
        """Some scoring (at least ``hidden_seconds_threshold_s``) hides behind generation."""
        return self.scoring_hidden_s >= HIDDEN_SECONDS_THRESHOLD_S

    @property
    def scoring_hidden_all(self) -> bool:
        """All of scoring hides behind generation (to within ``hidden_seconds_threshold_s``)."""
        return self.scoring_hidden_any and self.scoring_hidden_s >= self.scoring_s - HIDDEN_SECONDS_THRESHOLD_S


ASYNC_SPLIT_EIGHTHS = range(1, 8)  # the generation share of the GPUs the split search tries, in eighths


def _async_splits(w: Workload, i: WorkloadInputs, gpus: int, t_min: int, s_min: int,
                  g_min: int) -> list[tuple[int, int, int]]:
    """Splits the search tries beside the balance point: generation on 1/8 … 7/8 of the GPUs (an async step
    balances generation against scoring + training: verl's fully_async guidance, "the rollout time and train time
    close"; NeMo RL's 1-step-off recipes halve the GPUs), the rest R shared by scoring and training where
    B / s + C / t is least (B, C their GPU-seconds): s = R · √B / (√B + √C), held to each role's minimum."""
    b = scoring_gpu_seconds(w, i)
    c = training_seconds(w, i, 1)
    share = math.sqrt(b) / (math.sqrt(b) + math.sqrt(c)) if b > 0 and c > 0 else 0.0
    out = []
    for eighth in ASYNC_SPLIT_EIGHTHS:
        gen = max(g_min, round(gpus * eighth / 8))
        rest = gpus - gen
        score = max(s_min, round(rest * share)) if s_min else 0
        if rest - score >= t_min:
            out.append((gen, score, rest - score))
    return out


def _fixed_generation(w: Workload, i: WorkloadInputs, t_min: int, s_min: int) -> tuple[int, int, int]:
    """The split of a recipe that fixes its generation GPUs (``generation_gpus``: NeMo RL's 1-step-off recipes give
    half the GPUs to vLLM, verl's fully_async 30B-A3B run 96 of 128): generation exactly as given and the rest R the
    trainer's, which also runs the frozen models' forwards (``trainer_scores``: the recipes have no scoring pool)
    when its layout holds them; else R shared by scoring and training where B / s + C / t is least (as
    ``_async_splits``), scoring held to its minimum.  It is not searched and may not fit: the memory lanes then
    say so, as for any count the user gives."""
    rest = i.gpus - i.generation_gpus
    if (w.reference or w.reward_model) and training_fits(w, rest, colocated=True):
        return i.generation_gpus, 0, rest
    b = scoring_gpu_seconds(w, i)
    c = training_seconds(w, i, 1)
    share = math.sqrt(b) / (math.sqrt(b) + math.sqrt(c)) if b > 0 and c > 0 else 0.0
    score = min(max(s_min, round(rest * share)), rest - 1) if s_min else 0
    return i.generation_gpus, score, rest - score


def _best_separate(w: Workload, i: WorkloadInputs, engines: Engines, fixed: Groups,
                   minimums: tuple[int | None, int, int | None]) -> tuple[int, int, int] | None:
    """The fastest split of the separate GPUs among the fixed one, those near the balance point (``_balanced``)
    and generation's eighths (``_async_splits``), on all G GPUs and on one node (a step never has to span a second node), each role at least
    its minimum (``role_minimums``); None when the roles' minimums exceed G."""
    t_min, s_min, g_min = minimums
    if i.rollouts <= 0 or t_min is None or g_min is None or t_min + s_min + g_min > i.gpus:
        return None
    if i.generation_gpus:
        return _fixed_generation(w, i, t_min, s_min)
    layouts = [(fixed.generation, fixed.scoring, fixed.training), *_balanced(w, i, engines, i.gpus, t_min, s_min,
                                                                              g_min)]
    # generation on 1/8 … 7/8 of the GPUs: the balance point above assumes throughput linear in GPUs, which the
    # engine's degree and the tail break (16 H100s, 8B CoT: 4 / 4 / 8 balanced, 195 s; 8 / 3 / 5, 174 s)
    layouts += _async_splits(w, i, i.gpus, t_min, s_min, g_min)
    node = w.gpu.nvlink_domain_gpus
    if i.gpus > node and t_min + s_min + g_min <= node:
        one_node = gpu_groups(node, False)
        layouts += [(one_node.generation, one_node.scoring, one_node.training),
                    *_balanced(w, i, engines, node, t_min, s_min, g_min)]
    best, best_s = None, math.inf
    if backend_for(w.arch) == "megatron":  # Megatron's groups divide its GPUs: a split trains on a count it is given
        counts = megatron_counts(w.gpu.node_gpus)
        snapped = []
        for gen, score, train in layouts:
            fit = next((c for c in reversed(counts) if t_min <= c <= train and training_fits(w, c, colocated=False)),
                       train)
            snapped.append((gen + train - fit, score, fit))
        layouts = snapped
    for layout in dict.fromkeys(layouts):
        gen, score, train = layout
        if train < t_min or score < s_min or gen < max(g_min, 1):
            continue
        total = _separate_phases(w, i, engines, gen, score, train).total_s
        if total < best_s * (1 - 1e-12):
            best, best_s = layout, total
    return best


def ppo_step(inputs: WorkloadInputs, gpu: GpuSpec, w: Workload | None = None) -> Step:
    """One RL step (PPO or GRPO) on ``inputs.gpus`` GPUs.

    generation (decode roofline, see ``generation``) → scoring (``scoring_flops``) → training
    (``training_seconds`` on the ``training_layout``) → sync.  Colocated: ``_colocated_phases`` on all G GPUs, or
    on one node when that is faster.  Separate: the split between roles is searched (``_best_separate``) to
    minimise the step subject to fitting (``role_minimums``); the fixed ½ / ¼ / ¼ split (``gpu_groups``) is a
    candidate, so the search is never slower than it.
    """
    w = w or workload(inputs, gpu)
    i = inputs
    colocated = i.placement == "colocated"
    minimums = None
    if colocated:
        groups = gpu_groups(i.gpus, True)
        phases = _colocated_phases(w, i, i.gpus)
        layout_step = phases.total_s
        searched = False
        # a step never has to use every GPU: one NVLink domain (no InfiniBand: an HGX node, a GB200 NVL72 rack), one
        # GPU (no collectives at all), half and a quarter of them (whole hosts: a refit gathers the whole model however
        # many GPUs share it, so where the phases stop shortening, fewer GPUs do as well) and, for each engine degree,
        # the most GPUs its instances cover with none left over (``Engines.covering``: 6 of 7 GPUs for TP 2) are
        # tried too, so more GPUs never slow the step (the other GPUs then idle)
        node = gpu.node_gpus
        counts = [gpu.nvlink_domain_gpus, 1]
        for part in (i.gpus // 2, i.gpus // 4):
            if part >= 1:
                counts.append(part if part <= node else part - part % node)
        for tp in tensor_parallel_options(w.arch, i.gpus, i.engine, gpu.nvlink_domain_gpus):
            most = i.gpus - i.gpus % tp
            counts.append(most if most <= node else most - most % node)  # beyond a host: whole hosts
        covered = _covered(phases.generation, i.gpus)
        for n in dict.fromkeys(counts):
            if n < i.gpus and i.rollouts > 0 and colocated_fits(w, i, n):
                fewer = _colocated_phases(w, i, n)
                # engines that cover their GPUs first (a command can start them), then the fastest
                if (not _covered(fewer.generation, n), fewer.total_s) < (not covered, phases.total_s * (1 - 1e-12)):
                    groups, phases, searched = gpu_groups(n, True), fewer, True
                    covered = _covered(fewer.generation, n)
    else:
        engines = step_engines(w, i, w.usable_gb, i.gpus)
        fixed = gpu_groups(i.gpus, False)
        minimums = role_minimums(w, i)
        best = _best_separate(w, i, engines, fixed, minimums)
        groups = Groups(*best, False) if best else fixed
        left = groups.generation - engines.generation(groups.generation).engine_gpus
        if 0 < left < groups.generation:
            # GPUs no engine instance covers train, as a command would run them, or score where the trainer's layout
            # cannot take them (Megatron's groups divide its GPUs), or idle: the generation group is what the engines
            # cover
            more = training_fits(w, groups.training + left, colocated=False)
            to_score = not more and groups.scoring > 0  # else the scoring group takes them (no layout to divide)
            groups = Groups(groups.generation - left, groups.scoring + (left if to_score else 0),
                            groups.training + (left if more else 0), False)
        searched = groups != fixed and not i.generation_gpus  # a split the user fixed is not searched
        layout_step = (_separate_phases(w, i, engines, fixed.generation, fixed.scoring, fixed.training).total_s
                       if searched else 0.0)
        phases = _separate_phases(w, i, engines, groups.generation, groups.scoring, groups.training)
        layout_step = layout_step or phases.total_s
    g = phases.generation
    total = phases.total_s
    n = i.gpus
    if colocated:
        on = groups.training
        gen_gpu_s = g.seconds * on
        scoring_gpu_s = phases.scoring_s * on
        train_gpu_s = phases.training_s * on
        overlap = 0.0
    else:
        gen_gpu_s = g.seconds * groups.generation
        scoring_gpu_s = phases.scoring_score_s * groups.scoring + phases.scoring_train_s * groups.training
        train_gpu_s = phases.training_s * groups.training
        if i.staleness:
            overlap = g.seconds + phases.scoring_s + phases.training_s - (total - phases.sync_s)
        else:
            overlap = g.seconds + phases.scoring_s - max(g.seconds, phases.scoring_s)
    sync_total = total
    if i.staleness and not colocated:
        # the same split run synchronously: generation drains every step (no streaming), training waits for it
        drained = step_engines(w, i.model_copy(update={"staleness": 0}), w.usable_gb, i.gpus).seconds(groups.generation)
        sync_total = max(drained, phases.scoring_s) + phases.training_s + phases.sync_s + phases.sync_hidden_s
    used = gen_gpu_s + scoring_gpu_s + train_gpu_s
    layout = GpuLayout(generation=groups.generation, scoring=groups.scoring, training=groups.training,
                       engine_tp=g.tensor_parallel, engine_pp=g.pipeline, replicas=g.replicas,
                       colocated=colocated, fixed_step_s=layout_step, searched=searched)
    scored_by_trainer = not colocated and trainer_scores(w, groups.scoring)
    trainer = fastest_layout(w, groups.training, colocated, colocated or scored_by_trainer)
    tail = g.tail_s
    return Step(
        generation_s=g.seconds, scoring_s=phases.scoring_s, training_s=phases.training_s, overlap_s=max(overlap, 0.0),
        total_s=total, generation_share=g.seconds / total if total > 0 else 0.0,
        generation_gpu_s=gen_gpu_s, scoring_gpu_s=scoring_gpu_s, training_gpu_s=train_gpu_s,
        idle_gpu_s=max(0.0, total * n - used), tokens=w.tokens, groups=groups, gen=g,
        sync_s=phases.sync_s, gpu_groups=layout, tail_s=tail, tail_share=tail / g.seconds if g.seconds > 0 else 0.0,
        env_wait_s=g.env_wait_s,
        staleness=i.staleness, sync_step_s=sync_total, prompts_per_step=i.rollouts / _group(i),
        training_layout=trainer, training_time=training_time(w, trainer) if groups.training else None,
        optimizer_steps=w.optimizer_steps, role_minimums=minimums,
        generation_engine=engine_layout(g) if g.gpus else None, validation_s=validation_seconds(g),
        trainer_scores=scored_by_trainer, refit=phases.refit,
    )


def validation_seconds(g: Generation) -> float:
    """One validation pass, s: the validation set (a few hundred responses at most: AIME-2024's 30 problems × 2 in
    verl's validation rows) decoded in one wave on the step's engine, so its time is its longest answer at a small
    batch — the engine's floor (``Generation.tail_floor_s``; teaching assumption).  verl measures 205 s (colocated,
    16 H20s, 10K-token answers) and 95.7 s (trainer GPUs helping, ``use_trainer_do_validate``) every ``test_freq``
    steps, outside its step column; the lab counts it in the run, once every ``eval_every`` steps."""
    return g.tail_floor_s if g.gpus > 0 else 0.0


def role_minimums(w: Workload, i: WorkloadInputs) -> tuple[int | None, int, int | None]:
    """(training, scoring, generation) GPUs each role needs at least when placed apart.

    training: the fewest GPUs whose layout fits (``min_training_gpus``); scoring: ≥ one GPU per frozen model placed
    there (reference, reward model: OpenRLHF and verl give each role its own workers) and weights / S + logits ≤
    usable; generation: the fewest GPUs whose widest engine instance holds the weights and one longest sequence's
    KV (``engine_fits``).  None: the role never fits."""
    n_score = int(w.reference) + int(w.reward_model)
    s_min = 0
    if n_score:
        room_s = w.usable_gb - w.score_extra_gb
        s_min = MAX_GPUS + 1 if room_s <= 0 else max(n_score, math.ceil(w.mem.scoring_gb / room_s - 1e-9))
    if w.judge_b and i.rollouts > 0:  # the judge's engine holds its weights and one rollout's KV (``judge_generation``)
        judge_min = min_gpus_that_fit(lambda g: judge_generation(
            w.judge_b, w.gpu, i.rollouts, max(int(round(w.seq_tokens)), 1), w.judge_tokens, g).fits)
        s_min = max(s_min, MAX_GPUS + 1 if judge_min is None else judge_min)
    g_min = min_gpus_that_fit(lambda g: engine_fits(w, i, w.usable_gb, g)) if i.rollouts > 0 else 1
    return min_training_gpus(w), s_min, g_min


class EqualGpus(NamedTuple):
    """The sync-vs-async comparison on the same GPUs (issue 26): the colocated synchronous step (the hybrid
    engine) and the async step on a searched split with partial rollouts (the engine never drains), s."""

    colocated_sync_s: float
    async_s: float


def equal_gpu_steps(inputs: WorkloadInputs, gpu: GpuSpec, step: Step) -> EqualGpus:
    """``EqualGpus`` for ``inputs.gpus``, reusing ``step`` where the inputs already are one of the two (NeMo RL
    measures 1-step-off 1.43× faster than colocated synchronous on 16 H100s; verl fully_async 2.35× on 128 H20)."""
    i = inputs
    co = i.model_copy(update={"placement": "colocated", "staleness": 0})
    ahead = i.model_copy(update={"placement": "separate", "staleness": max(i.staleness, 1), "partial_rollouts": "on"})
    co_s = step.total_s if i == co else ppo_step(co, gpu).total_s
    if i.gpus < SEPARATE_MIN_GPUS:
        return EqualGpus(co_s, math.inf)
    return EqualGpus(co_s, step.total_s if i == ahead else ppo_step(ahead, gpu).total_s)
