"""An OpenRLHF 0.11.2 reward function: --reward.remote_url points at this file (it must exist on every node: the
vLLM engine actors load it, see openrlhf/utils/agent.py).

OpenRLHF calls reward_func(queries, prompts, labels): the full texts (prompt + response), the prompts, and the
dataset's --data.label_key values.  Return a dict with "rewards" (a tensor, one value per query; the advantage is
computed from it), "scores" (the same or a 0/1 verdict, for dynamic filtering) and "extra_logs".
Replace the check below with your verifier.
"""

import torch


def reward_func(queries, prompts, labels):
    rewards = []
    for query, prompt, label in zip(queries, prompts, labels, strict=True):
        response = query[len(prompt):].strip()
        answer = response.split()[-1] if response else ""
        rewards.append(1.0 if answer == str(label).strip() else 0.0)
    rewards = torch.tensor(rewards)
    return {"rewards": rewards, "scores": rewards, "extra_logs": {"accuracy": rewards}}
