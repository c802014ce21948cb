"""One run, resolved once: the ``Plan`` every surface and every launch command reads.

The model's search (``physics``) decides the layout, the engine, the training layout, the batches and the memory;
``resolve`` gathers those decisions into one keyword-built record, so the page, the charts, the API and the three
exporters quote one hardware split, one engine, one batch arithmetic and one memory figure per GPU, and none of them
derives its own.  The search already obeys the rules the frameworks enforce (vLLM's head divisibility
``generation.vllm_accepts_tp``, engines that cover their GPUs ``generation.covers``, whole hosts beyond one
``memory.whole_hosts``), so the plan is something a command can run as estimated.

Memory per GPU as ``nvidia-smi`` shows it for the exported command: the fullest GPU at its fullest phase —
generating, the engine's reservation (vLLM's ``gpu_memory_utilization`` × the card) plus what the trainer keeps on
the GPU while the engine runs (colocated); training, the states + activations + logits the trainer holds
(``memory_by_phase``).  The estimate assumes the log-probs' logits are computed in chunks or by a fused kernel
(``training.logits = "chunked"``), and every command turns that on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.model.assumptions import DPO_BATCH_PAIRS, GpuSpec
from app.model.inputs import WorkloadInputs
from app.model.physics.layout import TrainingLayout
from app.model.physics.memory import micro_batch_tokens
from app.model.physics.offline import Dpo, Run
from app.model.physics.refit import server_mode
from app.model.physics.step import Step
from app.model.physics.step_memory import Memory
from app.model.physics.training import generation_resident_gb, micro_batches_per_replica
from app.model.physics.workload import Workload, _group, optimizer_steps_per_epoch


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanGroups:
    """GPUs per phase (colocated: every phase on all of them, in turn)."""

    generation: int
    scoring: int
    training: int
    idle: int  # GPUs given that the layout leaves unused (the step is faster on fewer)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanEngine:
    """The rollout engine as a command starts it (vLLM ``LLM(...)`` arguments)."""

    name: str                       # vllm | hf
    tensor_parallel: int
    pipeline_parallel: int
    expert_parallel: int
    instances: int
    gpu_memory_utilization: float   # the engine's share of each GPU's memory (its reservation)
    max_num_seqs: int               # sequences one instance decodes at once (its batch)
    dtype: str                      # bf16 | fp8 (weights and KV cache)
    refit: str = "bucketed"         # bucketed | per_tensor: how the trainer's weights reach it each step
    speculative: str = "off"        # off | mtp | draft (vLLM speculative_config)
    num_speculative_tokens: int = 0  # tokens proposed per decode step (0: off)
    release: str = "vllm_v1"        # the engine release whose decode-step overhead is charged (engine_release)
    api: str = "inprocess"          # inprocess | http: how the trainer reaches it (http: TRL's vllm_mode=server)
    data_parallel: int = 1          # wide EP: attention data-parallel ranks of one instance (1: the TP layout)
    data_parallel_attention: bool = False  # attention data-parallel, experts over tp · dp = expert_parallel GPUs


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanTraining:
    """The trainer as a command configures it."""

    backend: str                    # fsdp | megatron
    tp: int
    pp: int
    ep: int
    cp: int
    dp: int
    micro_batch_tokens: int         # tokens of one micro-batch per GPU (verl ppo_max_token_len_per_gpu)
    mini_batch_sequences: int       # sequences per optimizer step
    micro_batches_per_rank: int     # micro-batches one data-parallel rank runs per optimizer step
    optimizer_steps: int            # optimizer steps per RL step (epochs × mini-batches per epoch)
    epochs: int                     # epochs over one step's rollouts (DPO: over the pairs)
    offload: str                    # none | optimizer | params
    tuning: str                     # full | lora
    gradient_checkpointing: bool
    logits: str                     # chunked: the log-probs never hold the whole fp32 logits (fused kernel)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanBatch:
    prompts_per_step: int
    group: int
    rollouts: int                   # responses kept per step
    generated: int                  # responses generated per step (rollouts × oversample)
    passes: int
    steps: int                      # RL (or DPO) steps of the whole run
    turns: int = 1                  # agentic rollouts: model turns per episode
    agent_loop: str = "sync"        # sync (the batch drains every turn) | async (trajectories on their own)
    env_latency_s: float = 0.0      # the environment's seconds per turn
    observation_tokens: int = 0     # tokens the environment feeds back per turn


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseMemory:
    phase: str                      # generation | scoring | training
    gb: float                       # the fullest GPU of that phase, as nvidia-smi shows it


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """The resolved run.  ``kind``: what trains (rl | dpo | none); ``timed`` False when no GPU count fits (no time
    figure, no command)."""

    kind: str
    trained: str                    # the trained model's name: policy (GRPO, DPO: no critic beside it) | actor
    gpu: str
    gpus: int                       # GPUs the run uses (the layout's, at most those given)
    gpus_given: int
    nodes: int
    gpus_per_node: int
    placement: str
    groups: PlanGroups
    engine: PlanEngine | None
    training: PlanTraining
    batch: PlanBatch
    layout_case: str                # the split against OpenRLHF's fixed one: fixed | searched | unfit | given |
    #                                 given_trainer (``layout_case``)
    staleness: int
    partial_rollouts: bool
    oversample: float
    fits: bool
    min_gpus: int | None            # the fewest GPUs that fit, whole hosts beyond one (None: none up to 4,096)
    timed_gpus: int | None          # the GPUs the times are for (the state's own, or min_gpus when it does not fit)
    memory_per_gpu_gb: float        # the one memory figure: max of ``memory_by_phase``
    memory_by_phase: tuple[PhaseMemory, ...]
    usable_gb: float
    step_s: float | None
    run_hours: float | None
    gpu_hours: float | None

    @property
    def timed(self) -> bool:
        return self.timed_gpus is not None

    @property
    def rl(self) -> bool:
        """An online RL loop: rollouts are generated, scored and trained every step."""
        return self.kind == "rl"


def layout_case(i: WorkloadInputs, step: Step) -> str:
    """How the step's split relates to OpenRLHF's fixed one (¼ generation, ¼ scoring, ½ training): ``fixed`` (not
    searched, or colocated), ``searched`` (faster), ``unfit`` (the search takes only layouts that fit, so a split
    slower than the fixed one means the fixed one does not fit), ``given`` / ``given_trainer`` (the recipe fixed the
    generation GPUs; the trainer scores on the rest itself)."""
    layout = step.gpu_groups
    if layout is not None and i.generation_gpus and not layout.colocated:
        return "given_trainer" if step.trainer_scores else "given"
    if layout is None or not layout.searched:
        return "fixed"
    return "unfit" if layout.fixed_step_s < step.total_s else "searched"


def _hosts(gpus: int, gpu: GpuSpec) -> tuple[int, int]:
    """(nodes, GPUs per node) of a run on ``gpus`` GPUs."""
    per_node = min(gpu.node_gpus, max(gpus, 1))
    return max(1, math.ceil(gpus / gpu.node_gpus)), per_node


def _rl_training(i: WorkloadInputs, w: Workload, layout: TrainingLayout | None) -> PlanTraining:
    per_epoch = optimizer_steps_per_epoch(i)
    t = layout
    return PlanTraining(
        backend=t.backend if t else "fsdp", tp=t.tp if t else 1, pp=t.pp if t else 1, ep=t.ep if t else 1,
        cp=t.cp if t else i.context_parallel, dp=t.dp if t else 1,
        micro_batch_tokens=math.ceil(micro_batch_tokens(w.longest_seq_tokens, w.max_tokens_per_gpu)),
        mini_batch_sequences=w.mini_batch, micro_batches_per_rank=micro_batches_per_replica(w, t) if t else 1,
        optimizer_steps=i.epochs * per_epoch, epochs=i.epochs,
        offload=i.offload, tuning=i.tuning, gradient_checkpointing=True, logits="chunked")


def rl_memory_by_phase(i: WorkloadInputs, step: Step, memory: Memory) -> tuple[PhaseMemory, ...]:
    """The fullest GPU of each phase as nvidia-smi shows it: the engine reserves its whole share while it runs."""
    layout = step.training_layout
    reserves = step.gen.gpus > 0 and i.engine == "vllm"
    # ``generation_per_gpu_gb`` is what is on a generation GPU when the engine starts (colocated: with the states
    # that stay); an engine without a reservation (HF generate) adds only the batch's KV, spread like engine_parts
    in_use = memory.generation_per_gpu_gb + memory.kv_gb_per_replica / max(step.gen.tensor_parallel * step.gen.pipeline, 1)
    training = layout.peak_gb if layout else memory.training_per_gpu_gb
    if step.groups.colocated:
        resident = generation_resident_gb(layout) if layout else 0.0
        # a reservation never shows less than what is in use (a state that does not fit has no room to reserve)
        generation = max(resident + memory.engine_gb_per_gpu, in_use) if reserves else in_use
        scoring = layout.states_gb + layout.logits_gb if layout else memory.scoring_per_gpu_gb
    else:
        generation = max(memory.engine_gb_per_gpu, in_use) if reserves else in_use
        scoring = memory.scoring_per_gpu_gb
    phases = [PhaseMemory(phase="generation", gb=generation)] if step.gen.gpus > 0 else []
    if scoring > 0:
        phases.append(PhaseMemory(phase="scoring", gb=scoring))
    phases.append(PhaseMemory(phase="training", gb=training))
    return tuple(phases)


def resolve(*, inputs: WorkloadInputs, kind: str, gpu: GpuSpec, w: Workload, step: Step, memory: Memory, dpo: Dpo,
            run: Run | None, fits: bool, min_gpus: int | None, timed_gpus: int | None, step_s: float | None,
            usable_gb: float, stage_per_gpu_gb: float, memory_by_phase: tuple[PhaseMemory, ...] = ()) -> Plan:
    """The ``Plan`` of a state whose model figures are given (``evaluate`` calls it once).  An RL state's layout is
    its step's (timed on ``timed_gpus``); DPO and the stages before the loop train on every GPU given, ZeRO-3.
    ``memory_by_phase``: the state's own figure (``StageCost.memory_by_phase``) when the plan is on its GPUs."""
    i = inputs
    trained = "policy" if kind == "dpo" or i.method == "grpo" else "actor"
    run_hours = run.hours if run is not None else None
    gpu_hours = run.gpu_hours if run is not None else None
    steps = run.steps if run is not None else 0
    if kind == "rl":
        g = step.groups
        used = g.training if g.colocated else g.generation + g.scoring + g.training
        engine = None
        if step.gen.gpus > 0:
            e = step.gen
            engine = PlanEngine(
                name=e.engine, tensor_parallel=e.tensor_parallel, pipeline_parallel=e.pipeline,
                expert_parallel=e.expert_parallel, instances=e.replicas,
                gpu_memory_utilization=_share(memory.engine_gb_per_gpu, gpu.memory_gb),
                max_num_seqs=max(1, math.ceil(e.batch)), dtype=i.rollout_dtype if e.engine == "vllm" else "bf16",
                refit=i.refit, speculative=i.speculative if e.speculative_tokens else "off",
                num_speculative_tokens=e.speculative_tokens,
                release=i.engine_release if e.engine == "vllm" else "hf",
                api="http" if server_mode(i) else "inprocess",
                data_parallel=e.data_parallel, data_parallel_attention=e.data_parallel_attention)
        phases = memory_by_phase or rl_memory_by_phase(i, step, memory)
        nodes, per_node = _hosts(used, gpu)
        given = timed_gpus or i.gpus
        return Plan(
            kind=kind, trained=trained, gpu=i.gpu, gpus=used, gpus_given=given, nodes=nodes, gpus_per_node=per_node,
            placement="colocated" if g.colocated else "separate",
            groups=PlanGroups(generation=g.generation if not g.colocated else used, scoring=g.scoring if not
                              g.colocated else used, training=g.training, idle=max(0, given - used)),
            engine=engine, training=_rl_training(i, w, step.training_layout),
            batch=PlanBatch(prompts_per_step=i.rollouts // _group(i), group=_group(i), rollouts=i.rollouts,
                generated=math.ceil(i.rollouts * i.oversample), passes=i.passes, steps=steps, turns=i.turns,
                agent_loop=i.agent_loop, env_latency_s=float(i.env_latency_s),
                observation_tokens=i.observation_tokens),
            layout_case=layout_case(i, step),
            staleness=i.staleness, partial_rollouts=i.partial_rollouts == "on", oversample=float(i.oversample),
            fits=fits, min_gpus=min_gpus, timed_gpus=timed_gpus,
            memory_per_gpu_gb=max(p.gb for p in phases), memory_by_phase=phases, usable_gb=usable_gb,
            step_s=step_s, run_hours=run_hours, gpu_hours=gpu_hours)
    gpus = i.gpus
    nodes, per_node = _hosts(gpus, gpu)
    micro = math.ceil(micro_batch_tokens(i.prompt_tokens + i.response_max_tokens, i.max_tokens_per_gpu))
    # DPO steps on batches of ``dpo_batch_pairs`` pairs (the model's DPO step); the stages before the loop have none
    pairs = int(DPO_BATCH_PAIRS) if kind == "dpo" else 0
    training = PlanTraining(backend="fsdp", tp=1, pp=1, ep=1, cp=1, dp=gpus, micro_batch_tokens=micro,
                            mini_batch_sequences=pairs, micro_batches_per_rank=1, optimizer_steps=1 if pairs else 0, epochs=i.epochs, offload=i.offload,
                            tuning=i.tuning, gradient_checkpointing=True, logits="chunked")
    return Plan(
        kind=kind, trained=trained, gpu=i.gpu, gpus=gpus, gpus_given=gpus, nodes=nodes, gpus_per_node=per_node, placement="colocated",
        groups=PlanGroups(generation=0, scoring=gpus if kind == "dpo" else 0, training=gpus, idle=0), engine=None,
        training=training,
        batch=PlanBatch(prompts_per_step=0, group=1, rollouts=0, generated=0, passes=i.passes if kind == "rl" else 1,
                        steps=steps),
        layout_case="fixed", staleness=0, partial_rollouts=False, oversample=1.0, fits=fits, min_gpus=min_gpus, timed_gpus=timed_gpus,
        memory_per_gpu_gb=stage_per_gpu_gb, memory_by_phase=(PhaseMemory(phase="training", gb=stage_per_gpu_gb),),
        usable_gb=usable_gb, step_s=step_s, run_hours=run_hours, gpu_hours=gpu_hours)


def _share(engine_gb: float, gpu_gb: float) -> float:
    """The engine's reservation as vLLM's ``gpu_memory_utilization``: its GB over the card's, down to a hundredth.

    >>> _share(48.0, 80.0), _share(0.0, 80.0)
    (0.6, 0.0)
    """
    if gpu_gb <= 0 or engine_gb <= 0:
        return 0.0
    return min(1.0, math.floor(engine_gb / gpu_gb * 100 + 1e-9) / 100)
