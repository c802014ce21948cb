"""The stage column: the stage header (``stage_vm``) and the diagram's nodes (``NodeVM``; an edge's view-model is
the model's own ``EdgeState``)."""

from __future__ import annotations

from dataclasses import field

from app.model import Result
from app.model.meters import TextArgs
from app.model.stage_cost import remedy_args
from app.model.stages import NodeState
from app.view.regions.record import frozen

FLAGGED_STATES = ("removed", "needed", "overloaded", "warning")  # a node in these states says so above it


@frozen
class StageVM:
    stage: str
    bottleneck: str   # the node that holds the step, or "memory" when the state does not fit (data-bottleneck)
    bottleneck_node: str  # the model's bottleneck (``Result.bottleneck``: a node, or memory)
    # when the RL step does not fit the GPUs given: it fits from ``min_gpus`` (shape.fit_at, with its step there),
    # or on no count up to 4,096 (shape.fit_never); both False when it fits or there is no RL loop
    fit_at: bool = False
    fit_never: bool = False
    gpus: int = 0
    min_gpus: int = 0
    seconds: float = 0.0  # the step at min_gpus
    remedies: tuple[str, ...] = ()  # "never": the changes that each alone make it fit (``Result.fit_remedies``)
    remedy_args: dict[str, TextArgs] = field(default_factory=dict)  # each remedy's values as tried (``stage_cost.remedy_args``)

    @property
    def name_key(self) -> str:
        return f"stage.{self.stage}.name"

    @property
    def desc_key(self) -> str:
        return f"stage.{self.stage}.desc"

    @property
    def bottleneck_key(self) -> str:  # the node's name ("" when memory holds the state: the line says so)
        return "" if self.bottleneck == "memory" else f"node.{self.bottleneck}.name"

    @property
    def remedy_keys(self) -> tuple[str, ...]:  # the short names of what alone would make it fit
        return tuple(f"shape.remedy.{n}" for n in self.remedies)

    @property
    def remedy_texts(self) -> tuple[tuple[str, dict], ...]:  # each short name with the values it was tried with
        return tuple((f"shape.remedy.{n}", self.remedy_args.get(n, {})) for n in self.remedies)


@frozen
class NodeVM:
    id: str
    state: NodeState

    @property
    def flag_key(self) -> str:  # the flag above the node: the bottleneck, or a state worth a word ("" none)
        if self.state.bottleneck:
            return "diagram.bottleneck"
        return f"node_state.{self.state.state}" if self.state.state in FLAGGED_STATES else ""

    @property
    def flag_why_key(self) -> str:  # why the flag is up: its <title> ("" when there is no flag)
        if self.state.bottleneck:
            return "diagram.why.bottleneck"
        return f"diagram.why.{self.state.state}" if self.flag_key else ""

    @property
    def name_key(self) -> str:  # its name and one-line description on the diagram (outside the region)
        return f"node.{self.id}.name"

    @property
    def desc_key(self) -> str:
        return f"node.{self.id}.desc"

    @property
    def note_key(self) -> str:  # what the method changes here ("" none)
        return f"node.note.{self.state.note}" if self.state.note else ""


def stage_vm(r: Result) -> StageVM:
    """The stage header: the model's bottleneck (``data-bottleneck``: a node, or memory when the state does not
    fit; the diagram flags the same), and, when the RL step does not fit, where it does and its step there."""
    unfit = r.cost.online and not r.memory.fits
    min_gpus, seconds = (r.timed_gpus, r.step.total_s) if unfit and r.timed else (0, 0.0)
    return StageVM(stage=r.stage, bottleneck=r.bottleneck, bottleneck_node=r.bottleneck,
                   fit_at=unfit and r.timed, fit_never=unfit and not r.timed,
                   gpus=r.inputs.gpus, min_gpus=min_gpus, seconds=seconds, remedies=r.fit_remedies,
                   remedy_args={n: remedy_args(n) for n in r.fit_remedies})
