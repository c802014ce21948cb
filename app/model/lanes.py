"""Per-GPU memory of the current stage, by GPU group and model part, in GB: what the memory bars draw.

RL stages take the step's lanes (``physics.memory_lanes``: colocated one lane, separate one per role).  DPO: the
policy's trained states and the reference's weights, ZeRO-3 over every GPU, plus one micro-batch's activations
and logits.  SFT and the reward model's training (before the loop): their states over every GPU.
"""

from __future__ import annotations

from app.model.evaluate import Result
from app.model.physics import Lane
from app.model.stages import RL_LOOP_STAGES


def _lane(name: str, gpus: int, parts: list[tuple[str, float]], usable_gb: float) -> Lane:
    total = sum(gb for _, gb in parts)
    return Lane(name, gpus, tuple(parts), total, total > usable_gb)


def memory_lanes(r: Result) -> tuple[Lane, ...]:
    """The lanes of ``r``'s stage, GB on one GPU of each group.

    >>> from app.model import DEFAULTS, evaluate
    >>> r = evaluate(DEFAULTS.model_copy(update={"rollouts": 0, "pairs": 0}))  # SFT only, 7 B on 8 GPUs
    >>> [(lane.lane, lane.gpus, round(lane.total_gb, 1)) for lane in memory_lanes(r)]  # 16 B/param · 7e9 / 8
    [('all', 8, 14.0)]
    """
    i, m = r.inputs, r.memory
    if r.stage in RL_LOOP_STAGES:
        return m.lanes
    if r.stage == "dpo":
        d = r.dpo
        reference_gb = m.models.reference_gb / i.gpus if i.tuning != "lora" else 0.0
        parts = [("actor", d.per_gpu_gb - reference_gb), ("reference", reference_gb), ("activations", d.activation_gb)]
        return (_lane("all", i.gpus, [(k, v) for k, v in parts if v > 0 or k == "actor"], m.usable_gb),)
    lanes = [_lane("all", i.gpus, [("sft", r.offline.sft_per_gpu_gb)], m.usable_gb)]
    if r.stage == "reward_model":
        lanes.append(_lane("rm", i.gpus, [("rm", r.offline.rm_per_gpu_gb)], m.usable_gb))
    return tuple(lanes)
