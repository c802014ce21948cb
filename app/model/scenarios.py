"""The evolution presets (seven cards, in order) and the step-by-step walkthrough, as data.

Each preset and step is a complete workload: it sets every parameter, so its link reopens exactly that state.
The text (title, question, reveal, takeaway) lives in the catalogues under ``preset.<id>.*`` and ``walk.<n>.*``.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.model.inputs import DEFAULTS, WorkloadInputs

_BASE = DEFAULTS.model_dump()


def _w(**changes) -> WorkloadInputs:
    return WorkloadInputs(**{**_BASE, **changes})


@dataclass(frozen=True, slots=True)
class Preset:
    id: str
    inputs: WorkloadInputs


PRESETS: tuple[Preset, ...] = (
    Preset("sft_only", _w(pairs=0, rollouts=0)),
    Preset("reward_model", _w(rollouts=0)),
    Preset("ppo_loop", _w(rollouts=512)),
    Preset("scaled_rollouts", _w(rollouts=2048, gpus=16)),
    Preset("eval_gated", _w(rollouts=2048, gpus=16, eval_every=10)),
    Preset("dpo", _w(rollouts=2048, gpus=16, eval_every=10, method="dpo", kl=0.1)),
    # GRPO with verifiable rewards, 2025–26 style: an 8 B GQA policy, 8 responses per prompt, a rule-based checker,
    # verl's β = 0.001, chain-of-thought responses with a long tail, a colocated vLLM hybrid engine on 16 H100s.
    Preset("grpo", _w(arch="qwen3_8b", policy_b=8.2, method="grpo", group=8, reward="verifier", kl=0.001,
                      rollouts=1024, prompt_tokens=256, response_tokens=2048, response_max_tokens=8192,
                      placement="colocated", engine="vllm", gpu="h100_80g", gpus=16, eval_every=10)),
)
PRESET_BY_ID = {p.id: p for p in PRESETS}


@dataclass(frozen=True, slots=True)
class WalkStep:
    number: int
    inputs: WorkloadInputs
    focus: str  # the meter or node this step is about (highlighted on the page)


WALKTHROUGH: tuple[WalkStep, ...] = (
    WalkStep(1, _w(pairs=0, rollouts=0, step=1), "sft_trainer"),
    WalkStep(2, _w(pairs=0, rollouts=0, gpus=1, placement="colocated", step=2), "train_memory"),
    WalkStep(3, _w(rollouts=0, step=3), "reward_model"),
    WalkStep(4, _w(rollouts=512, step=4), "rollout_load"),
    WalkStep(5, _w(rollouts=2048, gpus=16, step=5), "rollout_gen"),
    WalkStep(6, _w(rollouts=512, kl=0.002, epochs=4, step=6), "kl_risk"),
    WalkStep(7, _w(rollouts=2048, gpus=16, eval_every=10, step=7), "eval_need"),
    WalkStep(8, _w(rollouts=2048, gpus=16, eval_every=10, method="dpo", kl=0.1, step=8), "policy_update"),
)
