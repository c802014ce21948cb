"""A generative LLM judge's reward (``reward=judge``, issue 36 item 7): the judge reads each rollout and writes its
verdict, so its own prefill and decode are charged to scoring.

References [n]: the list in ``app/model/physics/__init__.py``.
"""

from __future__ import annotations

from functools import lru_cache

from app.model.assumptions import COLOCATED_ENGINE_MEMORY_FRACTION, GpuSpec
from app.model.physics.architecture import custom_arch
from app.model.physics.generation import NO_GENERATION, Generation, generation


@lru_cache(maxsize=1024)
def judge_generation(judge_b: float, gpu: GpuSpec, rollouts: int, rollout_tokens: int, judge_tokens: int,
                     gpus: int) -> Generation:
    """The judge's pass over a step's rollouts on ``gpus`` GPUs: each rollout (prompt and response, ``rollout_tokens``)
    is its prompt, prefilled, and it decodes ``judge_tokens`` — the rollout engine's roofline (``generation``) for a
    dense model of ``judge_b`` B (the custom shape rule), served like the policy's engine at
    ``colocated_engine_memory_fraction`` of each GPU, searched over its tensor-parallel degrees, the longest verdict
    its floor (every verdict is ``judge_tokens`` long: no tail beyond it).  A teaching simplification: the judge
    sleeps while the other phases run, as the hybrid engine does, so its memory is the scoring GPUs' share.

    A 7 B judge writing 512 tokens for 512 rollouts of 1,536 tokens on 8 A100-80GB GPUs: prefill
    512 · 1,536 · 2 · 7e9 / (8 · 312e12 · 0.45) ≈ 9.8 s, then 512 decode steps of a batch of 64 per GPU."""
    if rollouts <= 0 or gpus <= 0 or judge_tokens <= 0:
        return NO_GENERATION
    return generation(custom_arch(judge_b), rollouts, rollout_tokens, judge_tokens, gpus, gpu,
                      COLOCATED_ENGINE_MEMORY_FRACTION * gpu.memory_gb)


def judge_seconds(judge_b: float, gpu: GpuSpec, rollouts: int, rollout_tokens: float, judge_tokens: int,
                  gpus: int) -> float:
    """Seconds of the judge's pass (``judge_generation``); 0 with no judge (``judge_b`` 0) or nothing to judge."""
    if judge_b <= 0:
        return 0.0
    return judge_generation(judge_b, gpu, rollouts, max(int(round(rollout_tokens)), 1), judge_tokens, gpus).seconds
