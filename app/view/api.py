"""The JSON answer of ``GET /api/evaluate``, as pydantic models: OpenAPI (/docs) documents every field.

The model's own records (GPU groups, the generation engine, memory by model, the DPO route, the run) are
NamedTuples; ``record_model`` derives a pydantic model from each one's declared fields, so a field added to the
model appears in the answer and its schema without a second list here.
"""

from __future__ import annotations

import typing
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from app.model import Result, WorkloadInputs
from app.model.physics.generation import Generation as GenerationRecord
from app.model.physics.layout import TrainingLayout as TrainingLayoutRecord
from app.model.physics.memory import ModelMemory as ModelMemoryRecord
from app.model.physics.offline import Dpo as DpoRecord
from app.model.physics.offline import Run as RunRecord
from app.model.physics.step import GpuLayout as GpuLayoutRecord
from app.model.physics.step import Step as StepRecord
from app.model.physics.training import TrainingTime as TrainingTimeRecord
from app.model.plan import Plan


def record_model(record: type) -> type[BaseModel]:
    """A pydantic model with a NamedTuple record's fields, in order, with their types and defaults (a NamedTuple
    itself would appear in JSON as an array); its documentation is the record's."""
    hints = typing.get_type_hints(record)
    fields: dict = {name: (hints[name], record._field_defaults.get(name, ...)) for name in record._fields}
    return create_model(record.__name__, __doc__=record.__doc__, **fields)


GpuLayout = record_model(GpuLayoutRecord)
Generation = record_model(GenerationRecord)
ModelMemory = record_model(ModelMemoryRecord)
Run = record_model(RunRecord)
Dpo = record_model(DpoRecord)


class MeterOut(BaseModel):
    value: int = Field(ge=0, le=100, description="0–100: the physical figure normalised against its budget")
    level: Literal["ok", "warn", "hot"]
    figure: str = Field(description="catalogue key of the sentence with the physical figure")
    figure_args: dict
    formula: str = Field(description="catalogue key of the formula behind it")
    formula_args: dict


class NodeOut(BaseModel):
    active: bool = Field(description="on the current path")
    state: str = Field(description="ok | needed | warning | overloaded | inactive | removed")
    bottleneck: bool


class EdgeOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    source: str = Field(alias="from")
    target: str = Field(alias="to")
    active: bool
    asynchronous: bool = Field(alias="async", description="off the training path (the metrics log)")


class DecisionOut(BaseModel):
    state: str = Field(description="needed | useful | trade_off | not_yet")
    reason: str = Field(description="catalogue key")
    args: dict


class ReasonOut(BaseModel):
    key: str
    args: dict


class StepOut(BaseModel):
    """One RL step, wall clock, on ``estimates.timed_gpus`` GPUs: the GPUs given when the models fit, the fewest
    that fit when they do not (a step on GPUs its models do not fit is never given)."""

    generation_s: float
    scoring_s: float
    training_s: float
    overlap_s: float = Field(description="scoring hidden behind generation (separate placement)")
    total_s: float
    generation_share: float = Field(description="generation_s / total_s")
    generation_gpu_s: float
    scoring_gpu_s: float
    training_gpu_s: float
    idle_gpu_s: float = Field(description="GPU-seconds no phase uses")
    tokens: float = Field(description="rollouts · (prompt + mean response) tokens")
    sync_s: float = Field(description="refit (colocated) or weight broadcast (separate) per step")
    tail_s: float = Field(description="seconds the longest response adds beyond the batch's own generation time")
    tail_share: float = Field(description="tail_s / generation_s")
    staleness: int = Field(description="steps generation runs ahead (0: on-policy)")
    sync_step_s: float = Field(description="the same layout run synchronously (equals total_s when staleness = 0)")
    prompts_per_step: float = Field(description="rollouts / group (GRPO), rollouts otherwise")
    gpu_groups: GpuLayout = Field(description=(
        "the layout the step runs on: GPUs per role (colocated: every role on all GPUs; separate, on-policy or run "
        "ahead: the split the model searches for the shortest step among those that fit, searched = true when it "
        "beats the fixed one), the engine's tensor parallel (within a node), pipeline stages and replicas, and "
        "fixed_step_s: the step on OpenRLHF's fixed split (training ½, generation ¼, scoring ¼)"))
    generation_engine: Generation
    training_layout: TrainingLayoutRecord | None = Field(
        None, description="the trainer's layout: fsdp | megatron, TP × PP × EP × CP, data-parallel sizes, GB per GPU")
    training_time: TrainingTimeRecord | None = Field(
        None, description="training's compute, pipeline bubble and communication per step, s")
    optimizer_steps: int = Field(0, description="optimizer steps this RL step takes (epochs · per epoch)")
    trainer_scores: bool = Field(False, description=(
        "separate placement with no scoring GPUs: the training GPUs also run the reference and reward-model "
        "forwards (a fixed split's trainer, as verl's and NeMo RL's)"))


class LaneOut(BaseModel):
    lane: str = Field(description="all | train | score | gen | rm")
    gpus: int
    parts: dict[str, float] = Field(description="model part → GB on one GPU of the lane")
    total_gb: float
    over: bool = Field(description="more than the usable memory")


class MemoryOut(BaseModel):
    total_gb: float
    per_gpu_gb: float = Field(description="the fullest GPU, before KV cache")
    gpu_memory_gb: float
    usable_gb: float
    fits: bool
    min_gpus: int | None = Field(description="smallest GPU count that fits (null: not even 4,096)")
    training_per_gpu_gb: float
    scoring_per_gpu_gb: float
    generation_per_gpu_gb: float
    kv_gb_per_replica: float
    kv_bytes_per_token: float = Field(description="the policy's KV cache per token (MHA / GQA / MLA) of one longest sequence: its cache over its tokens, less than the full-attention rate where sliding-window or linear-attention layers stop growing, B")
    activation_gb: float = Field(description="checkpointed activations of one micro-batch on a training GPU")
    logits_gb: float = Field(description="logits for the log-probs on a training GPU")
    host_gb: float = Field(description="optimizer states in host memory (offload=optimizer)")
    engine_gb_per_gpu: float = Field(description="memory the inference engine may use on each generation GPU")
    peak_per_gpu_gb: float = Field(description="the fullest GPU at its fullest phase, everything counted")
    lanes: list[LaneOut] = Field(description="GB on one GPU of each group, by model part")
    models: ModelMemory
    host_gb_per_node: float = Field(0.0, description="host memory one node needs: offloaded states and (colocated) "
                                                     "the sleeping engine's weights")
    wake_peak_gb: float = Field(0.0, description="colocated: one GPU when the engine wakes with the trainer's "
                                                 "states resident")
    engine_fits: bool = Field(True, description="the engine instance holds its weights and one longest sequence")


class OfflineOut(BaseModel):
    epoch_s: float
    per_gpu_gb: float


class EstimatesOut(BaseModel):
    step: StepOut | None = Field(description=(
        "one RL step, timed on timed_gpus GPUs: the GPUs given when memory.fits, else the fewest that fit (then it "
        "equals step_at_min_gpus); null when no GPU count up to 4,096 fits (fit_remedies says what would)"))
    timed_gpus: int | None = Field(None, description=(
        "the GPU count step and run are timed on: inputs.gpus when memory.fits, memory.min_gpus when not, null "
        "when no count up to 4,096 fits"))
    memory: MemoryOut
    step_at_min_gpus: StepOut | None = Field(
        None, description="when the state does not fit: the RL step at memory.min_gpus GPUs (labelled as such)")
    fit_remedies: list[str] = Field(
        default_factory=list, description="when no count up to 4,096 fits: the changes that each make it fit")
    run: Run | None = Field(description="one pass over the prompts (DPO: over the pairs, epochs times): steps, "
                                        "hours, GPU-hours on timed_gpus GPUs; null when no step is timed")
    dpo: Dpo
    sft: OfflineOut
    reward_model: OfflineOut


class EvaluateOut(BaseModel):
    """The model's whole result for one workload."""

    inputs: WorkloadInputs = Field(description="the normalised parameters")
    stage: str
    bottleneck: str = Field(description="the node that limits the step, or memory when the state does not fit "
                                        "(then no node is flagged)")
    meters: dict[str, MeterOut]
    nodes: dict[str, NodeOut]
    edges: dict[str, EdgeOut]
    decisions: dict[str, DecisionOut]
    reasons: list[ReasonOut]
    estimates: EstimatesOut
    plan: Plan = Field(description=(
        "the resolved run every surface and launch command reads (app/model/plan.py): hardware and GPU groups, the "
        "engine as launched, the training layout and batches, the one memory figure per GPU as nvidia-smi would show "
        "it (memory_per_gpu_gb, by phase in memory_by_phase), and the times"))


def step_out(s: StepRecord) -> StepOut:
    return StepOut(
        generation_s=s.generation_s, scoring_s=s.scoring_s, training_s=s.training_s, overlap_s=s.overlap_s,
        total_s=s.total_s, generation_share=s.generation_share, generation_gpu_s=s.generation_gpu_s,
        scoring_gpu_s=s.scoring_gpu_s, training_gpu_s=s.training_gpu_s, idle_gpu_s=s.idle_gpu_s,
        tokens=s.tokens, sync_s=s.sync_s, tail_s=s.tail_s, tail_share=s.tail_share, staleness=s.staleness,
        sync_step_s=s.sync_step_s, prompts_per_step=s.prompts_per_step, gpu_groups=s.gpu_groups._asdict(),
        generation_engine=s.gen._asdict(), training_layout=s.training_layout, training_time=s.training_time,
        optimizer_steps=s.optimizer_steps, trainer_scores=s.trainer_scores)


def evaluate_out(r: Result) -> EvaluateOut:
    s, m, o = r.step, r.memory, r.offline  # the step on timed_gpus (Result.timed: False → null)
    return EvaluateOut(
        inputs=r.inputs, stage=r.stage, bottleneck=r.bottleneck,
        meters={k: MeterOut(value=v.value, level=v.level, figure=v.figure, figure_args=v.figure_args,
                            formula=v.formula, formula_args=v.formula_args) for k, v in r.meters.items()},
        nodes={k: NodeOut(active=n.active, state=n.state, bottleneck=n.bottleneck) for k, n in r.nodes.items()},
        edges={e.id: EdgeOut(source=e.source, target=e.target, active=e.active, asynchronous=e.asynchronous)
               for e in r.edges},
        decisions={k: DecisionOut(state=d.state, reason=d.reason, args=d.args) for k, d in r.decisions.items()},
        reasons=[ReasonOut(key=x.key, args=x.args) for x in r.reasons],
        plan=r.plan,
        estimates=EstimatesOut(
            step=step_out(s) if r.timed else None,
            timed_gpus=r.timed_gpus,
            step_at_min_gpus=step_out(r.step_at_min_gpus) if r.step_at_min_gpus else None,
            fit_remedies=list(r.fit_remedies),
            memory=MemoryOut(
                total_gb=m.total_gb, per_gpu_gb=m.per_gpu_gb, gpu_memory_gb=m.gpu_memory_gb, usable_gb=m.usable_gb,
                fits=m.fits, min_gpus=m.min_gpus, training_per_gpu_gb=m.training_per_gpu_gb,
                scoring_per_gpu_gb=m.scoring_per_gpu_gb, generation_per_gpu_gb=m.generation_per_gpu_gb,
                kv_gb_per_replica=m.kv_gb_per_replica, kv_bytes_per_token=m.kv_bytes_per_token,
                activation_gb=m.activation_gb, logits_gb=m.logits_gb, host_gb=m.host_gb,
                engine_gb_per_gpu=m.engine_gb_per_gpu, peak_per_gpu_gb=m.peak_per_gpu_gb,
                lanes=[LaneOut(lane=x.lane, gpus=x.gpus, parts=dict(x.parts), total_gb=x.total_gb, over=x.over)
                       for x in r.memory_lanes],
                models=m.models._asdict(), host_gb_per_node=m.host_gb_per_node, wake_peak_gb=m.wake_peak_gb,
                engine_fits=m.engine_fits),
            run=r.run._asdict() if r.run is not None else None,
            dpo=r.dpo._asdict(),
            sft=OfflineOut(epoch_s=o.sft_epoch_s, per_gpu_gb=o.sft_per_gpu_gb),
            reward_model=OfflineOut(epoch_s=o.rm_epoch_s, per_gpu_gb=o.rm_per_gpu_gb),
        ),
    )


class LaunchNoteOut(BaseModel):
    key: str = Field(description="catalogue key (launch.note.*, launch.reason.*, launch.map.*, launch.unmapped.*)")
    args: dict
    text: dict[str, str] = Field(description="the sentence in each language")


class UnmappedOut(LaunchNoteOut):
    field: str = Field(description="the plan field this release cannot set as the plan has it")


class FrameworkLaunchOut(BaseModel):
    version: str
    pin: str
    command: str | None = Field(description="the shell command; null when the framework cannot run this plan")
    config: str | None = Field(description="verl: the Hydra config the overrides compose over")
    notes: list[LaunchNoteOut]
    unmapped: list[UnmappedOut] = Field(description="plan fields the command cannot set, each with why")
    files: list[str]
    reason: LaunchNoteOut | None = Field(description="why there is no command")


class LaunchOut(BaseModel):
    """The launch commands of one workload, each rendering its ``plan``."""

    query: str
    plan: Plan
    frameworks: dict[str, FrameworkLaunchOut]
    mapping: list[LaunchNoteOut]
    fit_gpus: int | None = Field(description="the state does not fit: the fewest GPUs that do (whole hosts)")

