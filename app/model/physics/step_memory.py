"""Memory of an RL step: per-GPU lanes, the peak, whether it fits and the fewest GPUs that fit; the lanes of
every stage.

References [n]: the list in ``app/model/physics/__init__.py``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from app.model.assumptions import INFER_BYTES_PER_PARAM, SEPARATE_MIN_GPUS, GpuSpec
from app.model.inputs import WorkloadInputs
from app.model.physics.generation import Generation
from app.model.physics.layout import TrainingLayout, training_layout
from app.model.physics.memory import MAX_GPUS, Lane, ModelMemory, lane, min_gpus_that_fit, whole_hosts
from app.model.physics.step import (
    Groups,
    Step,
    colocated_engine_memory_gb,
    colocated_fits,
    generation_resident_gb,
    role_minimums,
)
from app.model.physics.workload import Workload, workload


class Memory(NamedTuple):
    models: ModelMemory
    per_gpu_gb: float          # the fullest GPU's model states and weights (before KV cache and activations)
    gpu_memory_gb: float
    usable_gb: float
    fits: bool                 # every lane fits and the engine instance holds its weights and one sequence's KV
    min_gpus: int | None       # smallest GPU count that fits this workload (None: not even 4,096)
    training_per_gpu_gb: float
    scoring_per_gpu_gb: float
    generation_per_gpu_gb: float
    kv_gb_per_replica: float
    kv_bytes_per_token: float = 0.0
    activation_gb: float = 0.0  # checkpointed activations on a training GPU (one micro-batch, split by TP and CP)
    logits_gb: float = 0.0      # one chunk of logits for the log-probs on a training GPU
    host_gb: float = 0.0        # offloaded states in host memory, all nodes (offload = optimizer | params)
    engine_gb_per_gpu: float = 0.0  # memory the inference engine may use on each generation GPU
    peak_per_gpu_gb: float = 0.0    # the fullest GPU at its fullest phase: states, weights, activations, logits —
    #                                 not the engine's KV cache, which takes whatever memory is left (paged)
    lanes: tuple[Lane, ...] = ()
    host_gb_per_node: float = 0.0   # host memory one node needs: offloaded states and (colocated) the sleeping
    #                                 engine's weights
    wake_peak_gb: float = 0.0       # colocated: a GPU when the engine wakes, what the trainer still holds resident
    #                                 (FSDP: its states; Megatron: its bf16 weights, before they go to the host)
    #                                 + engine weights + KV cache; 0 when placed apart
    engine_fits: bool = True        # the engine instance holds its weights and one longest sequence's KV

    @property
    def total_gb(self) -> float:
        return self.models.states_gb


def engine_parts(w: Workload, gen: Generation) -> tuple[tuple[str, float], tuple[str, float]]:
    """The engine's share of one generation GPU, GB: its weights as the engine plan holds them (``Generation.
    weights_gb_per_gpu``: fp8 rollouts hold half the bf16 bytes, experts split by EP), else weights / (TP · PP);
    and the batch's KV / (TP · PP) (the instance's KV, replicated per ``kv_replication``, spread over its GPUs).
    The fit search (``engine_fits``) sizes the instance with the same weights, so a lane is never over where the
    fewest GPUs that fit say it is not."""
    n = max(gen.instance_gpus, 1)  # tp · pp, or a wide-EP instance's dp ranks
    weights = gen.weights_gb_per_gpu if gen.weights_gb_per_gpu > 0 else w.mem.generation_weights_gb / n
    return ("gen_weights", weights), ("kv", gen.kv_gb_per_replica / n)


def memory_lanes(w: Workload, groups: Groups, layout: TrainingLayout, gen: Generation,
                 engine_gb: float) -> tuple[Lane, ...]:
    """Per-GPU memory lanes of an RL step, GB per model part.

    Colocated: one lane for every GPU — the resident states of the training layout (actor, critic, reference and
    reward model), plus the larger of the engine's share (``engine_parts``; the phases take turns) and the training
    phase's activations + logits; a Megatron trainer leaves the GPU while the engine runs (``generation_resident_gb``),
    so its lane is the larger of the engine's share and the training phase (states, activations, logits).  Separate: training GPUs (the layout's actor + critic, activations, logits),
    scoring GPUs (reference + reward shards, logits), generation GPUs (``engine_parts``), over beyond the engine's
    memory."""
    usable = w.usable_gb
    mem = w.mem
    gen_parts = engine_parts(w, gen)
    train_extra = (("activations", layout.activation_gb), ("logits", layout.logits_gb))
    if groups.colocated:
        engine_gb_per_gpu = gen_parts[0][1] + gen_parts[1][1]
        states = (("actor", layout.actor_gb), ("critic", layout.critic_gb), ("reference", layout.reference_gb),
                  ("reward", layout.reward_gb))
        if generation_resident_gb(layout) < layout.states_gb:  # the trainer leaves the GPU while the engine runs
            if engine_gb_per_gpu >= layout.states_gb + layout.extra_gb:
                return (lane("all", groups.training, (("actor", 0.0), *gen_parts), usable, keep="actor"),)
            return (lane("all", groups.training, (*states, *train_extra), usable, keep="actor"),)
        phase = gen_parts if engine_gb_per_gpu >= layout.extra_gb else train_extra
        return (lane("all", groups.training, (*states, *phase), usable, keep="actor"),)
    frozen = tuple((part, gb) for part, gb in (("reference", layout.reference_gb), ("reward", layout.reward_gb))
                   if gb > 0)  # a trainer that scores holds the frozen models (``trainer_scores``)
    lanes = [lane("train", groups.training, (("actor", layout.actor_gb), ("critic", layout.critic_gb), *frozen,
                                             *train_extra), usable, keep="actor")]
    if groups.scoring:
        s = groups.scoring
        lanes.append(lane("score", s, (("reference", mem.reference_gb / s), ("reward", mem.reward_gb / s),
                                       ("logits", w.score_extra_gb)), usable))
    total = gen_parts[0][1] + gen_parts[1][1]
    lanes.append(Lane("gen", groups.generation, gen_parts, total, total > min(usable, engine_gb) + 1e-9))
    return tuple(lanes)


def ppo_memory(inputs: WorkloadInputs, gpu: GpuSpec, step: Step, w: Workload | None = None) -> Memory:
    """The memory of an RL step per GPU on its layouts (``Step.training_layout``, ``Step.gen``): the lanes, whether
    it fits — exactly when every lane fits and the engine instance does — and the fewest GPUs that fit (colocated:
    bisection over G of ``colocated_fits``; separate: the sum of the roles' minimums, ``role_minimums``, and at
    least 4), in whole hosts beyond one (``whole_hosts``: 27 → 32 on HGX), a count a launch command can run."""
    w = w or workload(inputs, gpu)
    i = inputs
    colocated = i.placement == "colocated"
    groups = step.groups
    layout = step.training_layout or training_layout(w, max(groups.training, 1), colocated)
    mem = w.mem
    gen = step.gen
    has_engine = i.rollouts > 0 and gen.gpus > 0
    weights_gb = engine_parts(w, gen)[0][1] if has_engine else 0.0
    if colocated:
        train_gb = score_gb = layout.states_gb
        resident = generation_resident_gb(layout)
        # the engine's weights arrive with the trainer's bf16 weights still on the GPU (NeMo RL refits before it
        # offloads the model); the states that stay (FSDP) stay
        at_refit = resident if resident >= layout.states_gb else INFER_BYTES_PER_PARAM * layout.params_b_per_gpu
        gen_gb = at_refit + weights_gb
        engine_gb = colocated_engine_memory_gb(w, i, groups.training)
        min_g = min_gpus_that_fit(lambda g: colocated_fits(w, i, g))
        peak = max(layout.states_gb + layout.extra_gb, gen_gb)
    else:
        train_gb = layout.states_gb
        score_gb = mem.scoring_gb / groups.scoring if groups.scoring else 0.0
        gen_gb = weights_gb
        engine_gb = w.usable_gb
        t_min, s_min, g_min = step.role_minimums or role_minimums(w, i)
        possible = t_min is not None and g_min is not None and t_min + s_min + g_min <= MAX_GPUS
        min_g = max(SEPARATE_MIN_GPUS, t_min + s_min + g_min) if possible else None  # type: ignore[operator]
        peak = max(layout.peak_gb, score_gb + w.score_extra_gb if groups.scoring else 0.0, weights_gb)
    lanes = memory_lanes(w, groups, layout, gen, engine_gb)
    engine_ok = gen.fits or not has_engine
    nodes = max(1, math.ceil(max(groups.training, 1) / gpu.node_gpus))  # hosts: 8 GPUs on HGX, 4 on a GB200 tray
    host_per_node = layout.host_gb / nodes
    wake = 0.0
    if colocated and has_engine:
        per_node = min(groups.training, gpu.node_gpus)
        host_per_node += weights_gb * per_node if i.engine == "vllm" else 0.0
        host_per_node += (layout.states_gb - resident) * per_node  # a Megatron trainer's states while generating
        wake = at_refit + sum(v for _, v in engine_parts(w, gen))
    return Memory(
        models=mem, per_gpu_gb=max(train_gb, score_gb, gen_gb), gpu_memory_gb=gpu.memory_gb, usable_gb=w.usable_gb,
        fits=engine_ok and not any(ln.over for ln in lanes), min_gpus=whole_hosts(min_g, gpu.node_gpus),
        training_per_gpu_gb=train_gb,
        scoring_per_gpu_gb=score_gb, generation_per_gpu_gb=gen_gb, kv_gb_per_replica=gen.kv_gb_per_replica,
        kv_bytes_per_token=w.kv_bytes_per_token, activation_gb=layout.activation_gb, logits_gb=layout.logits_gb,
        host_gb=layout.host_gb, engine_gb_per_gpu=max(engine_gb, 0.0), peak_per_gpu_gb=peak, lanes=lanes,
        host_gb_per_node=host_per_node, wake_peak_gb=wake, engine_fits=engine_ok,
    )
