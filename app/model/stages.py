"""Stage rules, diagram node and edge states, and the bottleneck node.

The stage is derived from the inputs alone (docs/model.md has the same rules as a table):

| order | rule                                                                              | stage            |
|-------|-----------------------------------------------------------------------------------|------------------|
| 0     | turns > 1, rollouts > 0, method ≠ dpo, and reward = verifier / judge or pairs > 0 | agentic          |
| 1     | method = grpo, rollouts > 0, and reward = verifier / judge or pairs > 0           | grpo             |
| 2     | pairs = 0, unless an online loop scores without one (reward = verifier / judge, rollouts > 0, method ≠ dpo) | sft_only |
| 3     | method = dpo                                                                      | dpo              |
| 4     | rollouts = 0                                                                      | reward_model     |
| 5     | eval_every ≤ 20 RL steps                                                          | eval_gated       |
| 6     | rollouts ≥ 1,024 per step                                                         | scaled_rollouts  |
| 7     | otherwise                                                                         | ppo_loop         |

``grpo`` is the online critic-free loop: a group of responses per prompt, scored against the group's mean, no
value model.  Its eval gate still shows (the eval harness node) but the stage stays ``grpo``.  ``agentic`` is the
online loop whose rollouts are multi-turn episodes (tool calls, sandboxes): the environment answers between turns.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.model.assumptions import EVAL_GATE_MAX_STEPS, SCALED_ROLLOUTS_MIN
from app.model.inputs import WorkloadInputs

STAGE_IDS = ("sft_only", "reward_model", "ppo_loop", "scaled_rollouts", "eval_gated", "dpo", "grpo", "agentic")
RL_LOOP_STAGES = ("ppo_loop", "scaled_rollouts", "eval_gated", "grpo", "agentic")  # the stages with an online RL loop
NODE_IDS = (
    "demonstrations", "preference_data", "sft_trainer", "rm_trainer", "reward_model", "rollout_gen",
    "policy_update", "reference_model", "eval_harness", "model_registry", "metrics_log",
)
# (edge id, from, to, async)
EDGES: tuple[tuple[str, str, str, bool], ...] = (
    ("demos_sft", "demonstrations", "sft_trainer", False),
    ("pairs_rm", "preference_data", "rm_trainer", False),
    ("rm_reward", "rm_trainer", "reward_model", False),
    ("sft_rollout", "sft_trainer", "rollout_gen", False),
    ("sft_reference", "sft_trainer", "reference_model", False),
    ("rollout_reward", "rollout_gen", "reward_model", False),
    ("reward_update", "reward_model", "policy_update", False),
    ("reference_update", "reference_model", "policy_update", False),
    ("update_rollout", "policy_update", "rollout_gen", False),
    ("pairs_update", "preference_data", "policy_update", False),
    ("update_eval", "policy_update", "eval_harness", False),
    ("eval_registry", "eval_harness", "model_registry", False),
    ("update_registry", "policy_update", "model_registry", False),
    ("update_metrics", "policy_update", "metrics_log", True),
)
DPO_REMOVES = ("rm_trainer", "reward_model", "rollout_gen")
# The phase of a step each working node runs in, so the GPU group that runs it (``Plan.groups``): the engine
# generates, the reward model and the reference score (forwards only), the trainers train.  The diagram frames each
# node in its group's colour (issue 33: placement drawn on the diagram).
NODE_PHASE: dict[str, str] = {
    "rollout_gen": "generation", "reward_model": "scoring", "reference_model": "scoring",
    "policy_update": "training", "sft_trainer": "training", "rm_trainer": "training",
}
RL_STEP_NODES = ("rollout_gen", "reward_model", "reference_model", "policy_update")  # what one RL step runs
MEMORY = "memory"  # the bottleneck when the stage's models do not fit: no node, the memory itself


def stage_of(i: WorkloadInputs) -> str:
    """The architecture stage, by the rules in the module docstring."""
    # a verifier or an LLM judge scores without a reward model trained on preference pairs
    no_pairs_needed = i.reward in ("verifier", "judge")
    online_verifier = i.method != "dpo" and no_pairs_needed and i.rollouts > 0
    if i.turns > 1 and i.rollouts > 0 and i.method != "dpo" and (no_pairs_needed or i.pairs > 0):
        return "agentic"
    if i.method == "grpo" and i.rollouts > 0 and (no_pairs_needed or i.pairs > 0):
        return "grpo"
    if i.pairs == 0 and not online_verifier:
        return "sft_only"
    if i.method == "dpo":
        return "dpo"
    if i.rollouts == 0:
        return "reward_model"
    if i.eval_every <= EVAL_GATE_MAX_STEPS:
        return "eval_gated"
    if i.rollouts >= SCALED_ROLLOUTS_MIN:
        return "scaled_rollouts"
    return "ppo_loop"


def is_gated(i: WorkloadInputs) -> bool:
    return i.eval_every <= EVAL_GATE_MAX_STEPS


@dataclass(frozen=True, slots=True)
class NodeState:
    """One diagram node's state."""

    active: bool
    state: str  # ok | needed | warning | overloaded | inactive | removed
    bottleneck: bool = False  # the node that holds the step (never set when the bottleneck is memory)
    note: str = ""  # what the method changes here: actor_critic | actor_only | verifier | no_kl | tail ("" = none)


NODE_STATE_NAMES = ("ok", "needed", "warning", "overloaded", "inactive", "removed")
NODE_NOTES = ("", "actor_critic", "actor_only", "verifier", "judge", "no_kl", "tail", "env")


@dataclass(frozen=True, slots=True)
class EdgeState:
    """One diagram edge's state."""

    id: str
    source: str
    target: str
    active: bool
    asynchronous: bool


def active_nodes(i: WorkloadInputs, stage: str) -> dict[str, bool]:
    rl_loop = stage in RL_LOOP_STAGES
    dpo = stage == "dpo"
    rm = i.pairs > 0 and i.method != "dpo" and i.reward == "model"
    judge = rl_loop and i.reward == "judge"  # an LLM judge scores: the reward node runs, nothing trains it
    return {
        "demonstrations": i.demos > 0,
        "sft_trainer": i.demos > 0,
        "preference_data": i.pairs > 0,
        "rm_trainer": rm,
        "reward_model": rm or judge,
        "rollout_gen": rl_loop,
        "policy_update": rl_loop or dpo,
        "reference_model": (rl_loop and i.kl > 0) or dpo,
        "eval_harness": is_gated(i),
        "model_registry": True,
        "metrics_log": rl_loop or dpo,
    }


def edge_states(i: WorkloadInputs, stage: str, active: dict[str, bool]) -> tuple[EdgeState, ...]:
    dpo = stage == "dpo"
    gated = is_gated(i)
    special = {
        "pairs_update": dpo,
        "update_rollout": not dpo,
        "update_eval": gated,
        "eval_registry": gated,
        "update_registry": not gated,
    }
    return tuple(EdgeState(id=eid, source=a, target=b, active=active[a] and active[b] and special.get(eid, True),
                           asynchronous=asy) for eid, a, b, asy in EDGES)


def bottleneck_node(stage: str, fits: bool, generation_s: float, exposed_scoring_s: float,
                    training_s: float) -> str:
    """What limits the current stage: ``memory`` when the stage's models do not fit (no node is the bottleneck then:
    the stage header, the why-panel and the diagram all say memory, and no node is flagged); the trainer before the
    loop exists; DPO's policy update; otherwise the phase with the most exposed wall-clock time per step."""
    if not fits:
        return MEMORY
    if stage == "sft_only":
        return "sft_trainer"
    if stage == "reward_model":
        return "rm_trainer"
    if stage == "dpo":
        return "policy_update"
    phases = (("rollout_gen", generation_s), ("reward_model", exposed_scoring_s), ("policy_update", training_s))
    return max(phases, key=lambda p: p[1])[0]


# a meter's level → the state of the node it watches (memory: "hot" is only strained while the states fit)
LOAD_STATE = {"hot": "overloaded", "warn": "warning", "ok": "ok"}
MEMORY_STATE = {"hot": "warning", "warn": "warning", "ok": "ok"}


def node_notes(i: WorkloadInputs, stage: str, tail_bound: bool, env_bound: bool = False) -> dict[str, str]:
    """What the method changes on a node, for the diagram: PPO's update trains actor + critic, GRPO's the actor
    alone (a group baseline instead of a critic); a verifier scores instead of the reward model; β = 0 drops the
    reference; generation is tail-bound when the longest response sets the step.

    >>> node_notes(WorkloadInputs(method="grpo", reward="verifier", kl=0), "grpo", True)["policy_update"]
    'actor_only'
    """
    if stage not in RL_LOOP_STAGES:
        return {}
    notes = {"policy_update": "actor_only" if i.method == "grpo" else "actor_critic"}
    if i.reward in ("verifier", "judge"):
        notes["reward_model"] = i.reward
    if i.kl == 0:
        notes["reference_model"] = "no_kl"
    if env_bound:  # an agentic episode's generation waits longer for its environment than for its longest response
        notes["rollout_gen"] = "env"
    elif tail_bound:
        notes["rollout_gen"] = "tail"
    return notes


def node_states(i: WorkloadInputs, stage: str, active: dict[str, bool], meter_levels: dict[str, str],
                fits: bool, bottleneck: str, tail_bound: bool = False, env_bound: bool = False) -> dict[str, NodeState]:
    dpo = stage == "dpo"
    online = stage in RL_LOOP_STAGES
    removed = set(DPO_REMOVES) if dpo else set()
    if online and i.reward == "verifier":
        removed |= {"rm_trainer", "reward_model"}  # a verifier scores instead: no reward model to train or run
    if online and i.reward == "judge":
        removed.add("rm_trainer")  # an LLM judge is prompted, not trained: the reward node runs, its trainer goes
    if online and i.kl == 0:
        removed.add("reference_model")  # kl = 0: no KL term, no reference model (DAPO)
    notes = node_notes(i, stage, tail_bound, env_bound)
    out: dict[str, NodeState] = {}
    for node in NODE_IDS:
        on = active[node]
        if not on:
            if node in removed:
                state = "removed"
            elif node == "eval_harness" and meter_levels["eval_need"] != "ok":
                state = "needed"
            else:
                state = "inactive"
        elif node == "rollout_gen":
            state = LOAD_STATE[meter_levels["rollout_load"]]
        elif node == "reward_model" and stage not in ("reward_model", "sft_only"):
            state = LOAD_STATE[meter_levels["scoring_load"]]
        elif node == "policy_update":
            state = "overloaded" if not fits else MEMORY_STATE[meter_levels["train_memory"]]
        elif node == "reference_model":
            state = LOAD_STATE[meter_levels["kl_risk"]]
        else:
            state = "ok"
        out[node] = NodeState(active=on, state=state, bottleneck=node == bottleneck, note=notes.get(node, ""))
    return out
