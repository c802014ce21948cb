"""The stage column: the stage header (``stage_vm``) and the diagram's nodes (``NodeVM``; an edge's view-model is
the model's own ``EdgeState``)."""

from __future__ import annotations

from dataclasses import field

from app.model import Result
from app.model.meters import TextArgs
from app.model.stage_cost import remedy_args
from app.model.stages import NODE_PHASE, RL_STEP_NODES, NodeState
from app.view.diagram import FRAME_PAD, KEY_GAP, KEY_LINE, KEY_TOP, KEY_X, NODE_H, NODE_POS, NODE_W
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


@frozen
class GpuFrame:
    """A frame round one node in the colour of the GPU group that runs it (``phase``: generation | scoring |
    training, or ``all`` when every GPU runs every phase)."""

    node: str
    phase: str
    x: int
    y: int
    w: int
    h: int


@frozen
class GpuLine:
    """One line of the GPU key: a group's name (``head``) or what runs it and on how many GPUs."""

    key: str
    args: TextArgs
    phase: str   # the colour: generation | scoring | training | all | idle
    head: bool
    y: int


@frozen
class PlacementVM:
    """The plan's GPU split on the diagram (``Plan.placement``, ``Plan.groups``, the engine and the trainer)."""

    placement: str   # separate | colocated | train (no RL loop: every GPU trains): data-placement
    gpus: int        # the GPUs the run uses
    frames: tuple[GpuFrame, ...]
    lines: tuple[GpuLine, ...]
    x: int = KEY_X


# the engine's and the trainer's names, the same in both languages (names, docs/i18n/terms.md)
TOOL_NAMES = {"vllm": "vLLM", "hf": "HF generate", "fsdp": "FSDP", "megatron": "Megatron"}


def _frame(node: str, phase: str) -> GpuFrame:
    x, y = NODE_POS[node]
    return GpuFrame(node=node, phase=phase, x=x - FRAME_PAD, y=y - FRAME_PAD, w=NODE_W + 2 * FRAME_PAD,
                    h=NODE_H + 2 * FRAME_PAD)


def placement_vm(r: Result) -> PlacementVM:
    """Which GPU group runs which node, from the plan: separate, a key line per group (generation on the engine,
    scoring, training on the trainer, idle GPUs); colocated, one group taking turns; before the loop and under DPO,
    every GPU trains.  Each working node (``NODE_PHASE``, lit on the diagram) gets its group's frame."""
    p = r.plan
    g = p.groups
    trainer = TOOL_NAMES[p.training.backend]
    # an RL step runs the loop's nodes (the SFT trainer made its start, before the run); otherwise every trainer
    # of the stage trains on every GPU, one after another
    working = [n for n in (RL_STEP_NODES if p.rl else NODE_PHASE) if r.nodes[n].active]
    rows: list[list[tuple[str, TextArgs, str, bool]]] = []
    if p.rl and p.placement == "separate":
        placement = "separate"
        frames = tuple(_frame(n, NODE_PHASE[n]) for n in working)
        engine = TOOL_NAMES[p.engine.name] if p.engine else ""
        scored_by_trainer = p.layout_case == "given_trainer"  # the trainer runs the forwards on its own GPUs
        rows.append([("diagram.gpus.generation", {}, "generation", True),
                     ("diagram.gpus.tool_on", {"tool": engine, "gpus": g.generation}, "generation", False)])
        rows.append([("diagram.gpus.scoring", {}, "scoring", True),
                     ("diagram.gpus.on_trainer", {}, "scoring", False) if scored_by_trainer else
                     ("diagram.gpus.on", {"gpus": g.scoring}, "scoring", False)])
        rows.append([("diagram.gpus.training", {}, "training", True),
                     ("diagram.gpus.tool_on", {"tool": trainer, "gpus": g.training}, "training", False)])
    elif p.rl:
        placement = "colocated"
        frames = tuple(_frame(n, "all") for n in working)
        engine = TOOL_NAMES[p.engine.name] if p.engine else ""
        rows.append([("diagram.gpus.colocated", {}, "all", True),
                     ("diagram.gpus.turns", {"gpus": g.training}, "all", False),
                     ("diagram.gpus.first", {"tool": engine}, "all", False),
                     ("diagram.gpus.then", {"tool": trainer}, "all", False)])
    else:
        placement = "train"
        # every GPU trains, stage after stage: the trainers in the training colour (a DPO reference forward runs on
        # the same GPUs, so it is framed as theirs, not as a scoring group of its own)
        frames = tuple(_frame(n, "training" if NODE_PHASE[n] == "training" else "all") for n in working)
        rows.append([("diagram.gpus.training", {}, "training", True),
                     ("diagram.gpus.tool_on", {"tool": trainer, "gpus": g.training}, "training", False)])
    if g.idle:
        rows.append([("diagram.gpus.idle", {"gpus": g.idle}, "idle", False)])
    lines: list[GpuLine] = []
    y = KEY_TOP
    for row in rows:
        for key, args, phase, head in row:
            lines.append(GpuLine(key=key, args=args, phase=phase, head=head, y=y))
            y += KEY_LINE
        y += KEY_GAP
    return PlacementVM(placement=placement, gpus=p.gpus, frames=frames, lines=tuple(lines))
