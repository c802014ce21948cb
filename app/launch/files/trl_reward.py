"""A TRL 1.16 reward function: --reward_funcs trl_reward.reward_fn (this file in the working directory; TRL's grpo
script imports it from there).

GRPOTrainer calls reward_fn(prompts=..., completions=..., completion_ids=..., **columns): one completion per prompt
and every other column of the dataset row as a keyword list (here "answer").  Return one float per completion
(None skips it).  Replace the check below with your verifier.
"""


def reward_fn(prompts, completions, answer=None, **kwargs):
    rewards = []
    for i, completion in enumerate(completions):
        text = completion[-1]["content"] if isinstance(completion, list) else completion
        words = text.strip().split()
        expected = None if answer is None else str(answer[i]).strip()
        rewards.append(1.0 if words and expected is not None and words[-1] == expected else 0.0)
    return rewards
