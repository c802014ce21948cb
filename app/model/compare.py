"""Two methods on the same workload: the counterpart the compare view shows by default, and which pipeline nodes
one side has that the other does not."""

from __future__ import annotations

from app.model.evaluate import Result
from app.model.inputs import WorkloadInputs
from app.model.stages import NODE_IDS

# The KL coefficient each method starts from when the compare view switches to it: InstructGPT's β = 0.02 for PPO,
# the DPO paper's β = 0.1 (arXiv 2203.02155 App. C.4; arXiv 2305.18290 App. B)
METHOD_KL = {"ppo": 0.02, "dpo": 0.1}


def counterpart(inputs: WorkloadInputs) -> WorkloadInputs:
    """The same workload under the other method, with that method's usual KL coefficient.

    >>> counterpart(WorkloadInputs(method="ppo")).method, counterpart(WorkloadInputs(method="ppo")).kl
    ('dpo', 0.1)
    """
    other = "dpo" if inputs.method == "ppo" else "ppo"
    return inputs.model_copy(update={"method": other, "kl": METHOD_KL[other], "step": None})


def node_diff(a: Result, b: Result) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(nodes active in ``a`` only: what ``b`` removes, nodes active in ``b`` only: what it adds)."""
    removed = tuple(n for n in NODE_IDS if a.nodes[n].active and not b.nodes[n].active)
    added = tuple(n for n in NODE_IDS if b.nodes[n].active and not a.nodes[n].active)
    return removed, added
