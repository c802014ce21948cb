"""The state on screen as a launch layout: plain values every framework's builder reads.

``from_result(result)`` maps the model's inputs and the layout it chose onto a ``LaunchLayout`` once, with the notes
the reader should know (``launch.map.*``) and the reason, if any, that the state gets no command at all.  Facts come
from the model (its parameter table, its node size, its architectures, its stages, its memory verdict), never
restated here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from app.launch.common import Note, note
from app.model.assumptions import ARCHS, GPUS, GPUS_PER_NODE
from app.model.inputs import CHOICE_SPECS, PRACTICE_SPECS

if TYPE_CHECKING:
    from app.model.evaluate import Result

MAX_STALENESS = 64  # beyond this the layout is not read (the lab allows 0–4)
TEACHING_GPU_MEMORY_UTILIZATION = 0.6  # teaching assumption: the engine's share when the model gives it none


@dataclass(frozen=True, slots=True)
class LaunchLayout:
    """The state on screen, as plain values.  Strings use the lab's parameter values (app/model/inputs.py); counts
    are whole GPUs, tokens or sequences."""

    method: str = "ppo"                  # ppo | grpo | dpo
    arch: str = "custom"                 # an arch id of the lab; custom → placeholder checkpoint path
    policy_b: float = 7.0                # policy size, billions of parameters (total, for MoE)
    reward: str = "model"                # model (a learned reward model) | verifier (a rule or test in Python)
    rm_b: float = 7.0                    # reward-model size, billions
    gpus: int = 8                        # total GPUs = nodes · gpus_per_node
    gpus_per_node: int = 8               # GPUs used on each node (min(node size, gpus))
    nodes: int = 1
    placement: str = "colocated"         # colocated (every role on every GPU, in turn) | separate
    generation_gpus: int = 8             # separate: GPUs of the rollout engines (= rollout_tp · rollout_replicas)
    scoring_gpus: int = 8                # separate: GPUs of the reference and reward model forwards
    training_gpus: int = 8               # separate: GPUs of the actor (and critic) training
    rollout_tp: int = 1                  # tensor-parallel size of one rollout engine
    rollout_replicas: int = 8            # rollout engines; tp · pp · replicas = gpus (colocated) or generation_gpus
    rollout_pp: int = 1                  # pipeline stages of one engine (an engine larger than a node)
    rollout_ep: int = 1                  # expert-parallel size of one engine (MoE)
    rollout_dp: int = 1                  # wide EP: data-parallel attention ranks of one engine (EP = tp · dp)
    gpu_memory_utilization: float = 0.6  # the engine's share of each GPU's memory, 0–1
    train_backend: str = "fsdp"          # fsdp | megatron: how the model trains the policy
    train_tp: int = 1                    # Megatron tensor, pipeline, expert and context parallel degrees
    train_pp: int = 1
    train_ep: int = 1
    train_cp: int = 1
    group: int = 8                       # responses per prompt (grpo)
    rollouts: int = 512                  # responses per step
    kl: float = 0.02                     # KL coefficient β (0 = no reference model); DPO's β under dpo
    epochs: int = 1                      # optimisation epochs per batch of rollouts (dpo: epochs over the pairs)
    prompt_tokens: int = 512             # mean prompt length
    prompt_max_tokens: int = 512         # longest prompt
    response_tokens: int = 1024          # mean response length
    response_max_tokens: int = 1024      # longest response
    staleness: int = 0                   # 0 = on-policy; k ≥ 1 = generation runs k steps ahead (needs separate)
    engine: str = "vllm"                 # vllm | hf
    offload: str = "none"                # none | optimizer (Adam states in host memory)
    tuning: str = "full"                 # full | lora
    prompts: int = 31_000                # the RL prompt set (0 = all of the dataset)
    pairs: int = 161_000                 # dpo: preference pairs (0 = all of the dataset)
    eval_every: int = 100                # steps between evaluations: also the checkpoint interval
    passes: int = 1                      # passes over the prompt set (verl total_epochs, OpenRLHF num_episodes)
    optimizer_steps: int = 0             # optimizer steps per RL step over all its epochs (0: none planned, the
    #                                      builder's mini-batch of about TARGET_BATCH_SEQUENCES)
    micro_batch_tokens: int = 16_384     # tokens of one training micro-batch per GPU
    max_num_seqs: int = 256              # sequences one engine instance decodes at once
    rollout_dtype: str = "bf16"          # bf16 | fp8: the engine's weights
    oversample: float = 1.0              # responses generated per response kept (dynamic sampling when > 1)
    partial_rollouts: bool = False       # async: an unfinished response carries into the next step
    dpo_batch_pairs: int = 0             # dpo: pairs per optimizer step as the plan times it (0: none planned)
    engine_release: str = "vllm_v1"      # the engine release the plan timed (its decode-step overhead)
    engine_api: str = "inprocess"        # inprocess | http: how the trainer reaches separate engines
    turns: int = 1                       # agentic rollouts: model turns per episode (the plan's batch)

    @property
    def moe(self) -> bool:
        arch = ARCHS.get(self.arch)
        return arch is not None and arch.experts > 0


_CHOICES: dict[str, tuple[str, ...]] = {
    **{name: CHOICE_SPECS[name].choices for name in ("method", "arch", "reward", "placement", "engine", "offload",
                                                    "tuning")},
    "train_backend": ("fsdp", "megatron"),
    "rollout_dtype": ("bf16", "fp8"),
    "engine_release": (*PRACTICE_SPECS["engine_release"].choices, "hf"),  # type: ignore[union-attr]
    "engine_api": PRACTICE_SPECS["engine_api"].choices,  # type: ignore[union-attr]
}
_FLOATS = ("policy_b", "rm_b", "gpu_memory_utilization", "kl", "oversample")
_BOOLS = ("partial_rollouts",)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def invalid(layout: LaunchLayout) -> Note | None:  # noqa: C901, PLR0911, PLR0912 - one check per rule, in order
    """The first field that makes the layout unreadable, as a reason; None when the layout is readable."""
    for f in fields(LaunchLayout):
        value = getattr(layout, f.name)
        if f.name in _CHOICES:
            ok = isinstance(value, str) and value in _CHOICES[f.name]
        elif f.name in _FLOATS:
            ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        elif f.name in _BOOLS:
            ok = isinstance(value, bool)
        else:
            ok = isinstance(value, int) and not isinstance(value, bool)
        if not ok:
            return note("launch.reason.invalid_layout", field=f.name, value=_shown(value))
    rules = (
        ("gpus", layout.gpus >= 1),
        ("gpus_per_node", 1 <= layout.gpus_per_node <= GPUS_PER_NODE),
        ("nodes", layout.nodes >= 1 and layout.nodes * layout.gpus_per_node == layout.gpus),
        ("policy_b", layout.policy_b > 0),
        ("rm_b", layout.rm_b > 0),
        ("rollout_tp", 1 <= layout.rollout_tp <= layout.gpus),  # vLLM's TP may span nodes (through Ray)
        ("rollout_replicas", layout.rollout_replicas >= 1),
        ("rollout_pp", layout.rollout_pp >= 1),
        ("rollout_ep", layout.rollout_ep >= 1),
        ("rollout_dp", layout.rollout_dp >= 1),
        ("gpu_memory_utilization", 0 < layout.gpu_memory_utilization <= 1),
        ("train_tp", 1 <= layout.train_tp <= layout.gpus_per_node),
        ("train_pp", layout.train_pp >= 1),
        ("train_ep", layout.train_ep >= 1),
        ("train_cp", layout.train_cp >= 1),
        ("group", layout.group >= 1),
        ("rollouts", layout.rollouts >= 1),
        ("kl", (layout.kl > 0 if layout.method == "dpo" else layout.kl >= 0) and layout.kl <= 1),
        ("epochs", layout.epochs >= 1),
        ("prompt_tokens", layout.prompt_tokens >= 1),
        ("prompt_max_tokens", layout.prompt_max_tokens >= layout.prompt_tokens),
        ("response_tokens", layout.response_tokens >= 1),
        ("response_max_tokens", layout.response_max_tokens >= layout.response_tokens),
        ("staleness", 0 <= layout.staleness <= MAX_STALENESS),
        ("prompts", layout.prompts >= 0),
        ("pairs", layout.pairs >= 0),
        ("eval_every", layout.eval_every >= 1),
        ("passes", layout.passes >= 1),
        ("turns", layout.turns >= 1),
        ("optimizer_steps", layout.optimizer_steps >= 0),
        ("micro_batch_tokens", layout.micro_batch_tokens >= 1),
        ("max_num_seqs", layout.max_num_seqs >= 1),
        ("dpo_batch_pairs", layout.dpo_batch_pairs >= 0),
        ("oversample", 1 <= layout.oversample <= 16),
    )
    for name, ok in rules:
        if not ok:
            return note("launch.reason.invalid_layout", field=name, value=_shown(getattr(layout, name)))
    if layout.method == "dpo":
        return None
    engines = layout.rollout_tp * layout.rollout_pp * layout.rollout_dp * layout.rollout_replicas
    if layout.placement == "separate":
        split = (layout.generation_gpus, layout.scoring_gpus, layout.training_gpus)
        if min(split) < 0 or layout.generation_gpus < 1 or layout.training_gpus < 1 or sum(split) != layout.gpus:
            return note("launch.reason.invalid_layout", field="generation_gpus", value=_shown(split))
        if engines != layout.generation_gpus:
            return note("launch.reason.invalid_layout", field="rollout_replicas", value=_shown(engines))
    elif engines != layout.gpus:
        return note("launch.reason.invalid_layout", field="rollout_replicas", value=_shown(engines))
    return None


# --- from the lab's result -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mapped:
    """The state's launch layout, what the mapping chose (``launch.map.*`` notes), and why there is no command (a
    refusal), with the fewest GPUs that fit when the state does not fit."""

    layout: LaunchLayout
    notes: tuple[Note, ...]
    refusal: Note | None
    fit_gpus: int | None = None   # the state does not fit: the fewest GPUs that do (None: none, or it fits)


def pow2_divisor(n: int, at_most: int) -> int:
    """The largest power of 2 that divides ``n`` and is at most ``at_most`` (≥ 1).

    >>> pow2_divisor(6, 4), pow2_divisor(16, 8), pow2_divisor(7, 4), pow2_divisor(12, 8)
    (2, 8, 1, 4)
    """
    d = 1
    while d * 2 <= at_most and n % (d * 2) == 0:
        d *= 2
    return d


def from_result(result: Result) -> Mapped:
    """The launch layout of the state on screen: the model's resolved ``Plan`` (``result.plan``), field by field.

    The plan already obeys what the frameworks enforce (an engine TP vLLM starts, instances that cover their GPUs,
    whole hosts beyond one), so nothing here re-derives a layout, a batch or a fit: a state that does not fit on the
    GPUs given gets a refusal that names the plan's fewest GPUs that fit (whole hosts: a state with commands of its
    own); so does a stage with nothing to launch (SFT, the reward model).

    >>> from app.model import evaluate
    >>> from app.model.scenarios import PRESET_BY_ID
    >>> m = from_result(evaluate(PRESET_BY_ID["grpo"].inputs))   # 16 × H100, colocated, Qwen3-8B, TP 8
    >>> g = m.layout
    >>> g.nodes, g.gpus_per_node, g.placement, g.rollout_tp, g.rollout_replicas, g.gpu_memory_utilization
    (2, 8, 'colocated', 8, 2, 0.6)
    >>> [n.key for n in m.notes], m.refusal
    (['launch.map.memory_share', 'launch.map.prompt_max'], None)
    """
    i = result.inputs
    p = result.plan
    notes: list[Note] = []
    refusal: Note | None = None
    if p is None or p.kind == "none":
        refusal = note("launch.map.offline_stage")
    elif not p.fits:  # the plan's fewest GPUs that fit (whole hosts) is a state of its own, with its commands
        refusal = (note("launch.map.does_not_fit", gpus=i.gpus, min_gpus=p.min_gpus) if p.min_gpus
                   else note("launch.map.does_not_fit_never", gpus=i.gpus))
    fit_gpus = p.min_gpus if p is not None and not p.fits else None
    rl = p is not None and p.kind == "rl"
    e = p.engine if rl and p is not None else None
    t = p.training if p is not None else None
    if rl and p is not None and e is not None and refusal is None:
        if e.pipeline_parallel > 1:
            notes.append(note("launch.map.engine_pipeline", tp=e.tensor_parallel, pp=e.pipeline_parallel,
                              gpus=e.tensor_parallel * e.pipeline_parallel, replicas=e.instances))
        if p.groups.idle:
            notes.append(note("launch.map.one_node", used=p.gpus, gpus=p.gpus_given, idle=p.groups.idle))
        if e.gpu_memory_utilization > 0:
            notes.append(note("launch.map.memory_share", share=e.gpu_memory_utilization,
                              engine_gb=e.gpu_memory_utilization * GPUS[i.gpu].memory_gb,
                              gpu_gb=GPUS[i.gpu].memory_gb))

    if refusal is None and p is not None and p.nodes * p.gpus_per_node != p.gpus:
        refusal = note("launch.map.partial_node", gpus=p.gpus, per_node=GPUS[i.gpu].node_gpus)
    if refusal is None:
        notes.append(note("launch.map.prompt_max", tokens=i.prompt_tokens))
    if t is not None and t.backend == "megatron" and refusal is None:
        notes.append(note("launch.map.megatron", tp=t.tp, pp=t.pp, ep=t.ep, cp=t.cp))
    gpus = p.gpus if p is not None else i.gpus
    separate = rl and p is not None and p.placement == "separate"
    gen, score, train = ((p.groups.generation, p.groups.scoring, p.groups.training) if rl and p is not None
                         else (gpus, gpus, gpus))
    layout = LaunchLayout(
        method=i.method, arch=i.arch, policy_b=float(i.policy_b), reward=i.reward, rm_b=float(i.rm_b),
        gpus=gpus, gpus_per_node=p.gpus_per_node if p is not None else min(gpus, GPUS_PER_NODE),
        nodes=p.nodes if p is not None else 1, placement="separate" if separate else "colocated",
        generation_gpus=gen, scoring_gpus=score, training_gpus=train,
        rollout_tp=e.tensor_parallel if e else 1, rollout_replicas=e.instances if e else gpus,
        rollout_pp=e.pipeline_parallel if e else 1, rollout_ep=max(1, e.expert_parallel) if e else 1,
        rollout_dp=e.data_parallel if e else 1,
        gpu_memory_utilization=(e.gpu_memory_utilization if e and e.gpu_memory_utilization > 0
                                else TEACHING_GPU_MEMORY_UTILIZATION),
        train_backend=t.backend if t is not None else "fsdp", train_tp=t.tp if t else 1, train_pp=t.pp if t else 1,
        train_ep=t.ep if t else 1, train_cp=t.cp if t else 1,
        group=i.group, rollouts=i.rollouts, kl=float(i.kl), epochs=i.epochs,
        prompt_tokens=i.prompt_tokens, prompt_max_tokens=i.prompt_tokens,  # the lab has one prompt length
        response_tokens=i.response_tokens, response_max_tokens=i.response_max_tokens, staleness=i.staleness,
        engine=i.engine, offload=i.offload, tuning=i.tuning, prompts=i.prompts, pairs=i.pairs,
        eval_every=i.eval_every, passes=p.batch.passes if p is not None else 1,
        optimizer_steps=t.optimizer_steps if t is not None else 0,
        micro_batch_tokens=t.micro_batch_tokens if t is not None else 16_384,
        max_num_seqs=e.max_num_seqs if e else 256, rollout_dtype=e.dtype if e else "bf16",
        oversample=p.oversample if p is not None else 1.0,
        partial_rollouts=bool(p.partial_rollouts) if p is not None else False,
        dpo_batch_pairs=t.mini_batch_sequences if p is not None and p.kind == "dpo" and t is not None else 0,
        engine_release=e.release if e else "vllm_v1", engine_api=e.api if e else "inprocess",
        turns=p.batch.turns if p is not None else 1,
    )
    return Mapped(layout, tuple(notes), refusal, fit_gpus)
