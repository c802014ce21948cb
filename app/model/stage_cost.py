"""The one per-stage switch: what the stage's memory is (lanes, meter, fit, the fewest GPUs), what its step costs by
phase, on how many GPUs its times are taken, and, when a loop fits on no GPU count, what would make it fit.

Stages (``stages.stage_of``): the RL loop's stages (``RL_LOOP_STAGES``) use the RL step's memory; ``dpo`` the DPO
route's; ``sft_only`` and ``reward_model`` the states trained before the loop, ZeRO-3 over all G GPUs.

The timing rule (``timed_gpus``), one decision for every surface: a state's RL step is timed on its own GPUs when
its memory fits; when it does not, on the fewest GPUs that fit (``Memory.min_gpus``), and every time figure says
so ("at N GPUs"); when no count up to 4,096 fits, no time figure exists at all (the page says "does not fit",
the API's step is null).  A step computed on GPUs its models do not fit is never shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.model.assumptions import GPUS, INFER_BYTES_PER_PARAM, USABLE_MEMORY_FRACTION, GpuSpec
from app.model.inputs import WorkloadInputs, effective
from app.model.meters import Meter, memory_what, train_memory
from app.model.physics.architecture import policy_arch
from app.model.physics.memory import Lane, lane, whole_hosts
from app.model.physics.offline import Dpo, Stages
from app.model.physics.step import Step, ppo_step
from app.model.physics.step_memory import Memory, ppo_memory
from app.model.physics.workload import workload
from app.model.plan import PhaseMemory
from app.model.stages import RL_LOOP_STAGES

# What may make a loop fit that fits on no GPU count up to 4,096, tried one at a time (``fit_remedies``): the
# change's name (a catalogue key suffix) and the inputs it sets.  The texts quote the values tried
# (``remedy_args``), so they stay true when a value changes: the largest GPU is whichever has the most memory.
REMEDY_MICRO_BATCH_TOKENS = 1_024
REMEDY_CONTEXT_PARALLEL = 8
LARGEST_GPU = max(GPUS.values(), key=lambda g: g.memory_gb).key
REMEDIES: tuple[tuple[str, dict[str, object]], ...] = (
    ("offload_params", {"offload": "params"}),
    ("lora", {"tuning": "lora"}),
    ("colocated", {"placement": "colocated", "staleness": 0}),
    ("smaller_micro_batch", {"max_tokens_per_gpu": REMEDY_MICRO_BATCH_TOKENS}),
    ("context_parallel", {"context_parallel": REMEDY_CONTEXT_PARALLEL}),
    ("larger_gpu", {"gpu": LARGEST_GPU}),
)


def remedy_args(name: str) -> dict[str, object]:
    """What a remedy's text quotes: the value the remedy was tried with (``tokens`` per micro-batch, the ``cp``
    degree, the larger GPU's key and memory); the GPU count searched up to is the catalogue's ``{max_gpus:n}``.

    >>> remedy_args("larger_gpu")
    {'gpu': 'gb200_186g', 'gpu_gb': 186.0}
    """
    args: dict[str, object] = {}
    if name == "smaller_micro_batch":
        args["tokens"] = REMEDY_MICRO_BATCH_TOKENS
    elif name == "context_parallel":
        args["cp"] = REMEDY_CONTEXT_PARALLEL
    elif name == "larger_gpu":
        args.update(gpu=LARGEST_GPU, gpu_gb=GPUS[LARGEST_GPU].memory_gb)
    return args


def timed_gpus(fits: bool, min_gpus: int | None, gpus: int) -> int | None:
    """The GPU count a state's RL step is timed on (the module's timing rule): its own when it fits, the fewest
    that fit when it does not, None when none up to 4,096 does.

    >>> timed_gpus(True, 8, 8), timed_gpus(False, 128, 8), timed_gpus(False, None, 8)
    (8, 128, None)
    """
    if fits:
        return gpus
    return min_gpus


@dataclass(frozen=True, slots=True, kw_only=True)
class StageCost:
    """One state's cost in its stage, decided once: the memory the stage's meter reads (the fullest GPU, every
    model's states, the fewest GPUs that fit) and its step by phase (None: the stage has no such phase, or no step
    is timed because no GPU count fits).  The memory meter, the distributed-training card and the compare view
    read it; none of them switches on the stage again."""

    stage: str
    loop: str                # what trains in this stage (``loop_of``): rl (an online RL loop) | dpo | none (SFT, RM)
    per_gpu_gb: float        # the fullest GPU at its fullest phase as nvidia-smi shows it (RL: the engine's whole
    #                          reservation while it generates, ``plan.rl_memory_by_phase``)
    total_gb: float          # every trained and frozen model's states, all GPUs together
    usable_gb: float
    fits: bool
    min_gpus: int | None     # the fewest GPUs that fit (None: none up to 4,096)
    what: str                # the models counted (``meters.memory_what``; enum.what.<what>)
    timed_gpus: int | None   # the GPU count the stage's step is timed on (``timed_gpus``)
    memory_by_phase: tuple[PhaseMemory, ...] = ()  # the fullest GPU of each phase as nvidia-smi shows it
    trains_rm: bool = False  # before the loop, the reward model trains beside SFT (the reward_model stage)
    need_gb: float = 0.0     # what the fullest GPU has in use at its fullest phase: the lanes' states, weights,
    #                          activations, logits and the batch's KV, without the rest of the engine's up-front
    #                          reservation; the meter's level and bar, so a reservation alone never reads as "tight"
    generation_s: float | None = None
    scoring_s: float | None = None
    training_s: float | None = None
    sync_s: float | None = None
    step_s: float | None = None

    @property
    def online(self) -> bool:
        """An online RL loop: rollouts are generated, scored and trained on every step."""
        return self.loop == "rl"

    @property
    def dpo(self) -> bool:
        return self.loop == "dpo"

    @property
    def trains(self) -> bool:
        """A policy is being trained on preferences or rewards (RL or DPO): KL and eval gating apply."""
        return self.loop != "none"


def loop_of(stage: str) -> str:
    """What trains in ``stage``: ``rl`` in the RL loop's stages, ``dpo``, or ``none`` before the loop (SFT, RM).

    >>> loop_of("grpo"), loop_of("dpo"), loop_of("reward_model")
    ('rl', 'dpo', 'none')
    """
    return "rl" if stage in RL_LOOP_STAGES else "dpo" if stage == "dpo" else "none"


def stage_cost(stage: str, i: WorkloadInputs, gpu: GpuSpec, memory: Memory, d: Dpo, offline: Stages,
               step: Step, rl_timed_gpus: int | None, rl_phases: tuple[PhaseMemory, ...] = ()) -> StageCost:
    """The stage's ``StageCost``: the RL loop's from the RL step (timed on ``rl_timed_gpus``, ``timed_gpus``); DPO's
    from its route (per 64-pair batch: the reference's forward is its scoring, the policy's update its training;
    no generation, no sync); before the loop (SFT, RM) the states alone, ZeRO-3 over G, and no step."""
    usable = gpu.memory_gb * USABLE_MEMORY_FRACTION
    loop = loop_of(stage)
    if loop == "rl":
        what = memory_what("grpo" if i.method == "grpo" else "ppo", memory.models.reference_gb > 0,
                           memory.models.reward_gb > 0)
        timed = rl_timed_gpus is not None
        return StageCost(
            stage=stage, loop=loop, per_gpu_gb=max((p.gb for p in rl_phases), default=memory.peak_per_gpu_gb),
            total_gb=memory.total_gb, usable_gb=usable, memory_by_phase=rl_phases,
            need_gb=max([memory.peak_per_gpu_gb, *(ln.total_gb for ln in memory.lanes)]),
            fits=memory.fits, min_gpus=memory.min_gpus, what=what, timed_gpus=rl_timed_gpus,
            generation_s=step.generation_s if timed else None, scoring_s=step.scoring_s if timed else None,
            training_s=step.training_s if timed else None, sync_s=step.sync_s if timed else None,
            step_s=step.total_s if timed else None)
    if loop == "dpo":
        dpo_gb = d.per_gpu_gb + d.activation_gb + d.logits_gb
        return StageCost(
            stage=stage, loop=loop, per_gpu_gb=dpo_gb, memory_by_phase=(PhaseMemory(phase="training", gb=dpo_gb),),
            need_gb=dpo_gb,
            total_gb=d.total_gb,
            usable_gb=usable, fits=d.fits, min_gpus=d.min_gpus, what="dpo", timed_gpus=d.timed_gpus,
            **(dict(scoring_s=d.reference_step_s, training_s=d.step_s - d.reference_step_s, step_s=d.step_s)
               if d.timed_gpus is not None else {}))
    per_gpu = max(offline.sft_per_gpu_gb, offline.rm_per_gpu_gb if stage == "reward_model" else 0.0)
    total = per_gpu * i.gpus
    return StageCost(stage=stage, loop=loop, per_gpu_gb=per_gpu, total_gb=total, usable_gb=usable, fits=per_gpu <= usable,
                     memory_by_phase=(PhaseMemory(phase="training", gb=per_gpu),), need_gb=per_gpu,
                     trains_rm=stage == "reward_model",
                     min_gpus=whole_hosts(math.ceil(total / usable - 1e-9), gpu.node_gpus), what="rm" if stage == "reward_model" else "sft",
                     timed_gpus=None)


def stage_lanes(stage: str, inputs: WorkloadInputs, memory: Memory, d: Dpo, offline: Stages) -> tuple[Lane, ...]:
    """The memory lanes the page draws for ``stage``, GB per GPU and part: the RL step's lanes (``memory_lanes``);
    DPO's one lane (policy states, reference, activations, logits, ZeRO-3 over G); SFT's states (and the reward
    model's while it trains) before the loop."""
    usable = memory.usable_gb
    g = inputs.gpus
    loop = loop_of(stage)
    if loop == "rl":
        return memory.lanes
    if loop == "dpo":
        reference = 0.0 if inputs.tuning == "lora" else INFER_BYTES_PER_PARAM * policy_arch(inputs).total_b
        return (lane("all", g, (("actor", (d.total_gb - reference) / g), ("reference", reference / g),
                                ("activations", d.activation_gb), ("logits", d.logits_gb)), usable, keep="actor"),)
    lanes = [lane("all", g, (("sft", offline.sft_per_gpu_gb),), usable, keep="sft")]
    if stage == "reward_model":
        lanes.append(lane("rm", g, (("rm", offline.rm_per_gpu_gb),), usable, keep="rm"))
    return tuple(lanes)


def stage_memory_meter(cost: StageCost, i: WorkloadInputs, gpu: GpuSpec) -> Meter:
    """The stage's memory meter, from its ``StageCost``: the RL step's fullest GPU, DPO's policy states + reference
    + activations + logits, or before the loop SFT's (and the reward model's) states, ZeRO-3 over G."""
    return train_memory(cost.per_gpu_gb, cost.usable_gb, cost.total_gb, i.gpus, gpu.memory_gb, cost.fits,
                        cost.min_gpus, cost.what, need_gb=cost.need_gb)


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
