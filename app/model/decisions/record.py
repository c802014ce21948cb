"""What a card decides from (``Facts``) and what it answers (``Verdict``, then the card's ``Decision``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from app.model.inputs import WorkloadInputs
from app.model.meters import Meter, TextArgs
from app.model.physics.offline import Dpo, Run
from app.model.physics.step import EqualGpus, Step
from app.model.physics.step_memory import Memory
from app.model.stage_cost import StageCost

DECISION_STATES = ("needed", "useful", "trade_off", "not_yet")


class Decision(NamedTuple):
    """One decision card (a named tuple: immutable and cheap to build)."""

    id: str
    state: str          # needed | useful | trade_off | not_yet
    reason: str         # catalogue key
    args: TextArgs      # the catalogue text's arguments


class Verdict(NamedTuple):
    """A card's answer before it is named: its state, the reason's short name (decision.<card>.<reason>) and the
    reason's arguments."""

    state: str
    reason: str
    args: TextArgs


def verdict(state: str, reason: str, **args: str | int | float | None) -> Verdict:
    return Verdict(state=state, reason=reason, args=args)


@dataclass(frozen=True, slots=True, kw_only=True)
class Facts:
    """Everything a card reads: the state's inputs and the model's figures for it, each computed once."""

    inputs: WorkloadInputs
    meters: dict[str, Meter]
    step: Step               # the RL step (in a DPO state, the same workload's under PPO)
    memory: Memory           # the RL loop's memory on the GPUs given
    dpo: Dpo
    cost: StageCost          # the stage's memory, fit and kind of loop: no card switches on the stage itself
    timed_gpus: int | None   # the GPU count ``step`` is timed on (None: no count fits, and no card quotes a time)
    gated: bool              # the state gates on evals (``stages.is_gated``)
    run: Run | None          # the whole run (None when no step is timed)
    equal_gpus: EqualGpus | None  # the sync-vs-async comparison on the timed GPUs (None without a timed RL step)

    @property
    def timed(self) -> bool:
        return self.timed_gpus is not None
