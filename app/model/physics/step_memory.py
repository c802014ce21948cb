"""Memory of an RL step: per-GPU lanes, the peak, whether it fits and the fewest GPUs that fit; the lanes of
every stage.

Conventions: sizes ``*_b`` are billions of parameters, so ``bytes_per_param × params_b`` is GB (10^9 B).

References
[1] ZeRO, Rajbhandari et al. 2019, §3, §5 and Fig. 1.     [2] Kaplan et al. 2020, §2.1 and Table 1.
[3] vLLM blog 2023-06-20 (KV cache per token, 14–24× over HF generate).
[4] OpenRLHF benchmark (A800, 1,024 rollouts per step).    [5] DeepSeekMath (GRPO), arXiv 2402.03300.
[6] ZeRO-Offload, arXiv 2101.06840.                        [7] LoRA, arXiv 2106.09685.
[8] verl: performance tuning guide and config defaults.    [9] nccl-tests PERFORMANCE.md (bus bandwidth).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from app.model.assumptions import COLOCATED_ENGINE_MEMORY_FRACTION, INFER_BYTES_PER_PARAM, SEPARATE_MIN_GPUS, GpuSpec
from app.model.inputs import WorkloadInputs
from app.model.physics.architecture import policy_arch
from app.model.physics.generation import _widest_engine
from app.model.physics.memory import MAX_GPUS, Lane, ModelMemory, lane, min_gpus_that_fit
from app.model.physics.offline import Dpo, Stages
from app.model.physics.step import Groups, Step, _fits_colocated
from app.model.physics.workload import Workload, workload


class Memory(NamedTuple):
    models: ModelMemory
    per_gpu_gb: float          # the fullest GPU's model states and weights (before KV cache and activations)
    gpu_memory_gb: float
    usable_gb: float
    fits: bool
    min_gpus: int | None       # smallest GPU count that fits this workload (None: not even 4,096)
    training_per_gpu_gb: float
    scoring_per_gpu_gb: float
    generation_per_gpu_gb: float
    kv_gb_per_replica: float
    kv_bytes_per_token: float = 0.0
    activation_gb: float = 0.0  # checkpointed activations on a training GPU (one micro-batch)
    logits_gb: float = 0.0      # logits for the log-probs on a training GPU
    host_gb: float = 0.0        # optimizer states in host memory (offload=optimizer)
    engine_gb_per_gpu: float = 0.0  # memory the inference engine may use on each generation GPU
    peak_per_gpu_gb: float = 0.0    # the fullest GPU at its fullest phase: states, weights, activations, logits —
    #                                 not the engine's KV cache, which takes whatever memory is left (paged)
    lanes: tuple[Lane, ...] = ()

    @property
    def total_gb(self) -> float:
        return self.models.states_gb


def memory_lanes(w: Workload, groups: Groups, tp: int, kv_gb_per_replica: float, engine_gb: float) -> tuple[Lane, ...]:
    """Per-GPU memory lanes of an RL step, GB per model part.

    Colocated: one lane for every GPU — the resident shards of actor, critic, reference and reward model, plus
    the larger of the engine's share (weights / tp + KV / tp; the phases take turns) and the training phase's
    activations + logits.  Separate: training GPUs (actor + critic shards, activations, logits), scoring GPUs
    (reference + reward shards, logits), generation GPUs (weights / tp, KV / tp)."""
    usable = w.usable_gb
    mem = w.mem
    kv_split = 1 if w.arch.attention == "mla" else tp
    gen_parts = (("gen_weights", mem.generation_weights_gb / tp), ("kv", kv_gb_per_replica / kv_split))
    train_extra = (("activations", w.activation_gb), ("logits", w.logits_gb))
    if groups.colocated:
        n = groups.training
        engine_gb_per_gpu = gen_parts[0][1] + gen_parts[1][1]
        phase = gen_parts if engine_gb_per_gpu >= w.train_peak_extra_gb else train_extra
        return (lane("all", n, (("actor", mem.actor_gb / n), ("critic", mem.critic_gb / n),
                                ("reference", mem.reference_gb / n), ("reward", mem.reward_gb / n), *phase),
                     usable, keep="actor"),)
    t = max(groups.training, 1)
    lanes = [lane("train", groups.training, (("actor", mem.actor_gb / t), ("critic", mem.critic_gb / t), *train_extra),
                  usable, keep="actor")]
    if groups.scoring:
        s = groups.scoring
        lanes.append(lane("score", s, (("reference", mem.reference_gb / s), ("reward", mem.reward_gb / s),
                                       ("logits", w.score_extra_gb)), usable))
    total = gen_parts[0][1] + gen_parts[1][1]
    lanes.append(Lane("gen", groups.generation, gen_parts, total, total > min(usable, engine_gb) + 1e-9))
    return tuple(lanes)


def _peak_per_gpu_gb(w: Workload, groups: Groups, tp: int) -> float:
    """The fullest GPU at its fullest phase, GB: states and weights plus activations and logits, without the
    engine's KV cache (a paged engine takes whatever memory is left).  Colocated: states / G + the larger of the
    engine's weights / tp and the training phase's activations + logits."""
    mem = w.mem
    gen = mem.generation_weights_gb / tp
    if groups.colocated:
        return mem.states_gb / groups.training + max(gen, w.train_peak_extra_gb)
    train = mem.training_gb / max(groups.training, 1) + w.train_peak_extra_gb
    score = mem.scoring_gb / groups.scoring + w.score_extra_gb if groups.scoring else 0.0
    return max(train, score, gen)


def ppo_memory(inputs: WorkloadInputs, gpu: GpuSpec, step: Step, w: Workload | None = None) -> Memory:
    """Model states per GPU with ZeRO-3 sharding over each group [1], the engine's share, activations and logits;
    whether it fits, and the fewest GPUs that fit (colocated: bisection over G; separate: the sum of the roles'
    minimums, ``role_minimums``, and at least 4)."""
    w = w or workload(inputs, gpu)
    i = inputs
    colocated = i.placement == "colocated"
    groups = step.groups
    tp = _widest_engine(w, groups.generation, i.engine)
    mem = w.mem
    if colocated:
        n = groups.training  # all G GPUs, or one node when the step runs on one node (``ppo_step``)
        states = mem.states_gb / n
        train_gb, score_gb, gen_gb = states, states, states + mem.generation_weights_gb / tp
        engine_gb = min(COLOCATED_ENGINE_MEMORY_FRACTION * gpu.memory_gb, w.usable_gb - states)
        fits = _fits_colocated(w, n, i.engine)
        floor = w.mem.states_gb / max(w.usable_gb - w.train_peak_extra_gb, 1e-9)  # below it the states cannot fit
        min_g = min_gpus_that_fit(lambda g: _fits_colocated(w, g, i.engine), lo=max(1, math.floor(floor)))
    else:
        train_gb = mem.training_gb / max(groups.training, 1)
        score_gb = mem.scoring_gb / groups.scoring if groups.scoring else 0.0
        gen_gb = mem.generation_weights_gb / tp
        engine_gb = w.usable_gb
        t_min, s_min, g_min = w.role_minimums
        possible = t_min is not None and g_min is not None and t_min + s_min + g_min <= MAX_GPUS
        min_g = max(SEPARATE_MIN_GPUS, t_min + s_min + g_min) if possible else None  # type: ignore[operator]
        fits = (possible and groups.training >= t_min and groups.scoring >= s_min  # type: ignore[operator]
                and groups.generation >= g_min)  # type: ignore[operator]
    lanes = memory_lanes(w, groups, tp, step.gen.kv_gb_per_replica, engine_gb)
    return Memory(
        models=mem, per_gpu_gb=max(train_gb, score_gb, gen_gb), gpu_memory_gb=gpu.memory_gb, usable_gb=w.usable_gb,
        fits=bool(fits), min_gpus=min_g, training_per_gpu_gb=train_gb, scoring_per_gpu_gb=score_gb,
        generation_per_gpu_gb=gen_gb, kv_gb_per_replica=step.gen.kv_gb_per_replica,
        kv_bytes_per_token=w.kv_bytes_per_token, activation_gb=w.activation_gb, logits_gb=w.logits_gb,
        host_gb=mem.host_gb, engine_gb_per_gpu=max(engine_gb, 0.0),
        peak_per_gpu_gb=_peak_per_gpu_gb(w, groups, tp), lanes=lanes,
    )


def stage_lanes(stage: str, inputs: WorkloadInputs, memory: Memory, d: Dpo, offline: Stages) -> tuple[Lane, ...]:
    """The memory lanes the page draws for ``stage``, GB per GPU and part: the RL step's lanes (``memory_lanes``);
    DPO's one lane (policy states, reference, activations, logits, ZeRO-3 over G); SFT's states (and the reward
    model's while it trains) before the loop."""
    usable = memory.usable_gb
    g = inputs.gpus
    if stage in ("ppo_loop", "scaled_rollouts", "eval_gated", "grpo"):
        return memory.lanes
    if stage == "dpo":
        reference = 0.0 if inputs.tuning == "lora" else INFER_BYTES_PER_PARAM * policy_arch(inputs).total_b
        return (lane("all", g, (("actor", (d.total_gb - reference) / g), ("reference", reference / g),
                                ("activations", d.activation_gb), ("logits", d.logits_gb)), usable, keep="actor"),)
    lanes = [lane("all", g, (("sft", offline.sft_per_gpu_gb),), usable, keep="sft")]
    if stage == "reward_model":
        lanes.append(lane("rm", g, (("rm", offline.rm_per_gpu_gb),), usable, keep="rm"))
    return tuple(lanes)
