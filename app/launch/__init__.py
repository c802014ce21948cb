"""Launch commands: for the state on screen, a verl, an OpenRLHF and a TRL command, each for a pinned release.

Pure Python (no web imports).  ``launch_commands(layout)`` turns a ``LaunchLayout`` into a ``Launch``: one
``Command`` per framework, or ``None`` with a reason when that framework cannot express the layout.  It never raises.
``for_state(result)`` maps the model's result onto a layout once (``layout.from_result``) and builds the commands;
a state with no launch file gets a refusal (``launch.map.*``) for all three.

One module per framework (``verl``, ``openrlhf``, ``trl``); ``releases`` pins their versions, ``sources`` says where
each flag is defined in that release; ``files/`` holds the templates a command expects beside it (reward functions,
the Accelerate config).  Notes and reasons are catalogue keys with arguments, never English strings.

A command is a starting point, not a tuned config: batch sizes, LoRA rank and token budgets are teaching
assumptions (``common.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from app.launch import openrlhf, trl, verl
from app.launch.common import Command, Launch, Note, note
from app.launch.facts import rl_facts
from app.launch.layout import LaunchLayout, Mapped, from_result, invalid
from app.launch.releases import FRAMEWORKS

if TYPE_CHECKING:
    from app.model.evaluate import Result

__all__ = ["FILES", "FRAMEWORKS", "Command", "Launch", "LaunchLayout", "Note", "State", "file_text", "for_state",
           "launch_commands"]


def launch_commands(layout: LaunchLayout) -> Launch:
    """The three commands for ``layout``; None and a reason for a framework that cannot express it.

    >>> launch = launch_commands(LaunchLayout(method="grpo", reward="verifier", kl=0.001))
    >>> [f.value for f in launch.verl.flags if f.name == "actor_rollout_ref.rollout.n"]
    ['8']
    >>> launch.verl_reason, launch.openrlhf.framework, launch.trl.version
    (None, 'openrlhf', 'TRL 1.16.0')
    """
    why = invalid(layout)
    if why is not None:
        return Launch(None, None, None, why, why, why)
    if layout.method == "dpo":
        return Launch(None, openrlhf.dpo_command(layout), trl.dpo_command(layout),
                      note("launch.reason.verl_no_dpo"), None, None)
    rl = rl_facts(layout)
    if rl.grpo and rl.group < 2:
        why = note("launch.reason.grpo_needs_group", group=layout.group)
    elif rl.prompts_per_step < 1:
        why = note("launch.reason.too_few_rollouts", rollouts=layout.rollouts, group=rl.group)
    elif layout.staleness > 0 and layout.placement == "colocated":
        why = note("launch.reason.async_needs_separate", staleness=layout.staleness)
    if why is not None:
        return Launch(None, None, None, why, why, why)
    v, v_why = verl.command(layout, rl)
    o, o_why = openrlhf.command(layout, rl)
    t, t_why = trl.command(layout, rl)
    return Launch(v, o, t, v_why, o_why, t_why)


@dataclass(frozen=True, slots=True)
class State:
    """A state's launch: the mapping (layout, notes, refusal, fewest GPUs that fit) and the commands."""

    mapped: Mapped
    launch: Launch

    def command(self, framework: str) -> Command | None:
        return None if self.mapped.refusal else self.launch.command(framework)

    def reason(self, framework: str) -> Note | None:
        return self.mapped.refusal or self.launch.reason(framework)


def for_state(result: Result) -> State:
    """The state's mapping, computed once, and its commands (none when the mapping refuses the state)."""
    mapped = from_result(result)
    if mapped.refusal is not None:
        return State(mapped, Launch(None, None, None, mapped.refusal, mapped.refusal, mapped.refusal))
    return State(mapped, launch_commands(mapped.layout))


# The templates a command expects beside it (Command.files): name → what it is for (a catalogue key).
FILES: dict[str, str] = {
    "verl_reward.py": "launch.file.verl_reward",
    "openrlhf_reward.py": "launch.file.openrlhf_reward",
    "trl_reward.py": "launch.file.trl_reward",
    "trl_zero3.yaml": "launch.file.trl_zero3",
    "trl_zero3_offload.yaml": "launch.file.trl_zero3_offload",
}


def file_text(name: str) -> str:
    """A template's text (``app/launch/files/<name>``)."""
    if name not in FILES:
        raise KeyError(name)
    return resources.files("app.launch").joinpath("files", name).read_text(encoding="utf-8")
