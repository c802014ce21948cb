"""The one per-stage switch: what the stage's memory is (lanes, meter, fit), and, when a loop fits on no GPU count,
what would make it fit.

Stages (``stages.stage_of``): the RL loop's stages (``RL_LOOP_STAGES``) use the RL step's memory; ``dpo`` the DPO
route's; ``sft_only`` and ``reward_model`` the states trained before the loop, ZeRO-3 over all G GPUs.
"""

from __future__ import annotations

import math

from app.model.assumptions import GPUS, INFER_BYTES_PER_PARAM, USABLE_MEMORY_FRACTION, GpuSpec
from app.model.inputs import WorkloadInputs, effective
from app.model.meters import Meter, memory_what, train_memory
from app.model.physics.architecture import policy_arch
from app.model.physics.memory import Lane, lane
from app.model.physics.offline import Dpo, Stages
from app.model.physics.step import ppo_step
from app.model.physics.step_memory import Memory, ppo_memory
from app.model.physics.workload import workload
from app.model.stages import RL_LOOP_STAGES

# What may make a loop fit that fits on no GPU count up to 4,096, tried one at a time (``fit_remedies``): the
# change's name (a catalogue key suffix) and the inputs it sets.
REMEDIES: tuple[tuple[str, dict[str, object]], ...] = (
    ("offload_params", {"offload": "params"}),
    ("lora", {"tuning": "lora"}),
    ("colocated", {"placement": "colocated", "staleness": 0}),
    ("smaller_micro_batch", {"max_tokens_per_gpu": 1_024}),
    ("context_parallel", {"context_parallel": 8}),
    ("larger_gpu", {"gpu": "b200_180g"}),
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


def stage_memory_meter(stage: str, i: WorkloadInputs, gpu: GpuSpec, memory: Memory, d: Dpo,
                       offline: Stages) -> tuple[bool, Meter]:
    """Whether the stage fits, and its memory meter: the RL step's fullest GPU (``Memory``), DPO's policy states
    + reference + activations + logits, or before the loop SFT's (and the reward model's) states, ZeRO-3 over G."""
    usable = gpu.memory_gb * USABLE_MEMORY_FRACTION
    if stage in RL_LOOP_STAGES:
        what = memory_what("grpo" if i.method == "grpo" else "ppo", memory.models.reference_gb > 0,
                                  memory.models.reward_gb > 0)
        return memory.fits, train_memory(memory.peak_per_gpu_gb, usable, memory.total_gb, i.gpus,
                                                gpu.memory_gb, memory.fits, memory.min_gpus, what)
    if stage == "dpo":
        return d.fits, train_memory(d.per_gpu_gb + d.activation_gb + d.logits_gb, usable, d.total_gb, i.gpus,
                                           gpu.memory_gb, d.fits, d.min_gpus, "dpo")
    per_gpu = max(offline.sft_per_gpu_gb, offline.rm_per_gpu_gb if stage == "reward_model" else 0.0)
    total = per_gpu * i.gpus
    fits = per_gpu <= usable
    return fits, train_memory(per_gpu, usable, total, i.gpus, gpu.memory_gb, fits,
                                     math.ceil(total / usable - 1e-9), "rm" if stage == "reward_model" else "sft")


def fit_remedies(inputs: WorkloadInputs) -> tuple[str, ...]:
    """The ``REMEDIES`` that, each alone, make an RL loop that fits on no GPU count up to 4,096 fit on some count
    (``Memory.min_gpus`` not None); empty when none does."""
    out = []
    for name, change in REMEDIES:
        if all(getattr(inputs, k) == v for k, v in change.items()):
            continue
        i = effective(inputs.model_copy(update=change))
        gpu = GPUS[i.gpu]
        w = workload(i, gpu)
        if ppo_memory(i, gpu, ppo_step(i, gpu, w), w).min_gpus is not None:
            out.append(name)
    return tuple(out)
