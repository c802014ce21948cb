"""Facts every RL command shares: who runs (reference, critic, reward model), the batch in responses, the model's
Hub id, and the notes all frameworks carry."""

from __future__ import annotations

from dataclasses import dataclass

from app.launch.common import HEAD_ADDRESS, PLACEHOLDER_MODEL, PLACEHOLDER_PREFIX, Builder
from app.launch.layout import LaunchLayout

# Hugging Face Hub ids of the lab's named architectures: the chat / instruct release, since RL starts from a tuned
# model.  An arch without an id (``custom``, or one added to the lab later) gets PLACEHOLDER_MODEL and a note.
ARCH_MODEL_IDS: dict[str, str] = {
    "llama2_7b": "meta-llama/Llama-2-7b-chat-hf",
    "llama2_13b": "meta-llama/Llama-2-13b-chat-hf",
    "llama3_8b": "meta-llama/Llama-3.1-8B-Instruct",
    "llama3_70b": "meta-llama/Llama-3.1-70B-Instruct",
    "llama3_405b": "meta-llama/Llama-3.1-405B-Instruct",
    "qwen25_1_5b": "Qwen/Qwen2.5-1.5B-Instruct",
    "qwen25_3b": "Qwen/Qwen2.5-3B-Instruct",
    "qwen25_7b": "Qwen/Qwen2.5-7B-Instruct",
    "qwen25_14b": "Qwen/Qwen2.5-14B-Instruct",
    "qwen25_32b": "Qwen/Qwen2.5-32B-Instruct",
    "qwen3_4b": "Qwen/Qwen3-4B",
    "qwen3_14b": "Qwen/Qwen3-14B",
    "llama32_3b": "meta-llama/Llama-3.2-3B-Instruct",
    "qwen3_8b": "Qwen/Qwen3-8B",
    "qwen3_32b": "Qwen/Qwen3-32B",
    "qwen3_30b_a3b": "Qwen/Qwen3-30B-A3B",
    "qwen3_235b_a22b": "Qwen/Qwen3-235B-A22B",
    "deepseek_v3": "deepseek-ai/DeepSeek-V3",
    "gpt_oss_20b": "openai/gpt-oss-20b",
    "gpt_oss_120b": "openai/gpt-oss-120b",
    "qwen3_next_80b_a3b": "Qwen/Qwen3-Next-80B-A3B-Instruct",
    "kimi_k2": "moonshotai/Kimi-K2-Instruct",
}


@dataclass(frozen=True, slots=True)
class Rl:
    grpo: bool
    group: int          # responses per prompt in the command (1 for ppo)
    prompts_per_step: int
    samples: int        # responses per step (prompts_per_step · group)
    ref: bool           # a reference model runs (kl > 0)
    critic: bool        # ppo
    reward_model: bool  # a learned reward model (else a verifier function)
    model_path: str
    max_len: int        # longest prompt + longest response


def model_path(layout: LaunchLayout) -> str:
    return ARCH_MODEL_IDS.get(layout.arch, PLACEHOLDER_MODEL)


def rl_facts(layout: LaunchLayout) -> Rl:
    grpo = layout.method == "grpo"
    group = layout.group if grpo else 1
    prompts = layout.rollouts // group
    return Rl(grpo, group, prompts, prompts * group, layout.kl > 0, not grpo, layout.reward == "model",
              model_path(layout), layout.prompt_max_tokens + layout.response_max_tokens)


def rounded_key(rl: Rl) -> str:
    """The note for a rounded rollout count: GRPO also keeps whole groups of responses together."""
    return "launch.note.rollouts_rounded_grpo" if rl.grpo else "launch.note.rollouts_rounded"


def common_notes(b: Builder, layout: LaunchLayout, rl: Rl | None, ray: bool = True) -> None:
    b.note("launch.note.placeholders", prefix=PLACEHOLDER_PREFIX)
    if model_path(layout) == PLACEHOLDER_MODEL:
        b.note("launch.note.custom_model", path=PLACEHOLDER_MODEL, size=layout.policy_b)
    if rl is None:
        return
    if layout.reward == "judge":  # the command scores with a reward function: the judge is the user's to serve
        b.unmapped("reward")
    if layout.turns > 1:  # the environment is the user's: no command can bring the sandbox or the tools
        b.unmapped("turns", turns=layout.turns)
    if not rl.ref:
        b.note("launch.note.no_reference")
    if layout.response_max_tokens > layout.response_tokens:
        b.note("launch.note.max_lengths", mean=layout.response_tokens, longest=layout.response_max_tokens)
    if ray and layout.nodes > 1:
        b.note("launch.note.ray_start", nodes=layout.nodes, head=HEAD_ADDRESS)
