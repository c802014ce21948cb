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
from app.model.inputs import CHOICE_SPECS
from app.model.stages import RL_LOOP_STAGES

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

    @property
    def moe(self) -> bool:
        arch = ARCHS.get(self.arch)
        return arch is not None and arch.experts > 0


_CHOICES: dict[str, tuple[str, ...]] = {
    **{name: CHOICE_SPECS[name].choices for name in ("method", "arch", "reward", "placement", "engine", "offload",
                                                    "tuning")},
    "train_backend": ("fsdp", "megatron"),
}
_FLOATS = ("policy_b", "rm_b", "gpu_memory_utilization", "kl")


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
    )
    for name, ok in rules:
        if not ok:
            return note("launch.reason.invalid_layout", field=name, value=_shown(getattr(layout, name)))
    if layout.method == "dpo":
        return None
    engines = layout.rollout_tp * layout.rollout_pp * layout.rollout_replicas
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


def _engine_share(result: Result) -> float | None:
    """The engine's share of each GPU's memory the model computed, rounded down to a hundredth; None when the model
    gives the engine nothing."""
    mem = result.memory
    if mem.gpu_memory_gb <= 0 or mem.engine_gb_per_gpu <= 0:
        return None
    share = math.floor(mem.engine_gb_per_gpu / mem.gpu_memory_gb * 100 + 1e-9) / 100
    return min(share, 1.0) if share >= 0.01 else None


def _training(result: Result) -> tuple[str, int, int, int, int]:
    """The model's training layout (backend, TP, PP, EP, CP): ``step.training_layout`` when the model gives one."""
    t = getattr(result.step, "training_layout", None)
    if t is None:
        return "fsdp", 1, 1, 1, 1
    return t.backend, t.tp, t.pp, t.ep, t.cp


def _engine(result: Result) -> tuple[int, int, int]:
    """The model's engine (TP, PP, EP): ``step.generation_engine`` when the model gives one, else its plan."""
    e = getattr(result.step, "generation_engine", None)
    if e is not None:
        return e.tensor_parallel, e.pipeline, e.expert_parallel
    gen = result.step.gen
    return gen.tensor_parallel, gen.pipeline, getattr(gen, "expert_parallel", 1)


def _fit(result: Result) -> tuple[bool, int | None]:
    if result.stage == "dpo":
        return bool(result.dpo.fits), result.dpo.min_gpus
    return bool(result.memory.fits), result.memory.min_gpus


def from_result(result: Result) -> Mapped:  # noqa: C901, PLR0912, PLR0915 - one rule of the mapping a branch
    """The launch layout of the state on screen, computed once.

    Nodes of the GPU's host size (``GpuSpec.node_gpus``: 8, 4 on a GB200 tray); ``gpus`` = the GPUs the chosen layout uses.  Colocated: every
    role on those GPUs, engines of the model's TP (a TP that does not divide G is lowered to the largest power of 2
    that does: a note says so).  Separate: the model's three groups; generation GPUs no replica uses go to
    training.  ``gpu_memory_utilization`` = the model's engine share, else the teaching 0.6.  A state that does not
    fit gets no command: the refusal names the fewest GPUs that fit.

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
    notes: list[Note] = []
    refusal: Note | None = None
    fit_gpus: int | None = None
    g = result.step.gpu_groups
    rl = result.stage in RL_LOOP_STAGES
    placement = i.placement
    backend, ttp, tpp, tep, tcp = _training(result)
    eep = 1
    if not rl or g is None:
        gpus = i.gpus
        gen = score = train = gpus
        tp, pp, replicas, share = 1, 1, gpus, TEACHING_GPU_MEMORY_UTILIZATION
        placement = "colocated"
    else:
        etp, epp, eep = _engine(result)
        tp, pp = etp, epp  # one engine instance: tp × pp GPUs
        instance = tp * pp
        if g.colocated:
            gpus = gen = score = train = g.training
            if pp > 1 and gpus % instance:
                # the engines must cover every GPU: the fewest more stages whose instances divide the GPUs
                fitted = next((s for s in range(pp, gpus // tp + 1) if gpus % (tp * s) == 0), None)
                if fitted is None:
                    refusal = note("launch.map.engine_spans_nodes", gpus=instance, tp=tp, pipeline=pp)
                else:
                    notes.append(note("launch.map.pp_fit", model_pp=pp, pp=fitted, tp=tp, gpus=gpus))
                    pp = fitted
            elif gpus % tp:
                fitted = pow2_divisor(gpus, tp)
                notes.append(note("launch.map.tp_fit", model_tp=tp, tp=fitted, gpus=gpus))
                tp = fitted
            replicas = max(1, gpus // (tp * pp))
        else:
            gen, score, train = g.generation, g.scoring, g.training
            replicas = max(1, min(g.replicas, gen // instance)) if gen >= instance else 0
            if replicas == 0:
                refusal = note("launch.map.engine_spans_nodes", gpus=instance, tp=tp, pipeline=pp)
                replicas = 1
            elif instance * replicas < gen:
                notes.append(note("launch.map.gen_leftover", gpus=gen - instance * replicas, tp=instance,
                                  replicas=replicas))
                train += gen - instance * replicas
                gen = instance * replicas
            gpus = gen + score + train
        if pp > 1 and refusal is None:
            notes.append(note("launch.map.engine_pipeline", tp=tp, pp=pp, gpus=tp * pp, replicas=replicas))
        if gpus < i.gpus:
            notes.append(note("launch.map.one_node", used=gpus, gpus=i.gpus, idle=i.gpus - gpus))
        model_share = _engine_share(result)
        if model_share is None:
            share = TEACHING_GPU_MEMORY_UTILIZATION
            notes.append(note("launch.map.teaching_memory", share=share))
        else:
            share = model_share
            notes.append(note("launch.map.memory_share", share=share, engine_gb=result.memory.engine_gb_per_gpu,
                              gpu_gb=result.memory.gpu_memory_gb))
    node_gpus = GPUS[i.gpu].node_gpus  # a host's GPUs: 8 on an HGX baseboard, 4 on a GB200 NVL72 compute tray
    per_node = min(node_gpus, gpus)
    nodes = math.ceil(gpus / node_gpus)
    fits, min_gpus = _fit(result)
    if result.stage not in (*RL_LOOP_STAGES, "dpo"):
        refusal = note("launch.map.offline_stage")
    elif not fits:
        refusal = (note("launch.map.does_not_fit", gpus=i.gpus, min_gpus=min_gpus) if min_gpus
                   else note("launch.map.does_not_fit_never", gpus=i.gpus))
        fit_gpus = min_gpus or None
    elif refusal is None and nodes * per_node != gpus:
        refusal = note("launch.map.partial_node", gpus=gpus, per_node=node_gpus)
    if refusal is None:
        notes.append(note("launch.map.prompt_max", tokens=i.prompt_tokens))
    if backend == "megatron" and refusal is None:
        notes.append(note("launch.map.megatron", tp=ttp, pp=tpp, ep=tep, cp=tcp))
    layout = LaunchLayout(
        method=i.method, arch=i.arch, policy_b=float(i.policy_b), reward=i.reward, rm_b=float(i.rm_b),
        gpus=gpus, gpus_per_node=per_node, nodes=nodes, placement=placement,
        generation_gpus=gen, scoring_gpus=score, training_gpus=train, rollout_tp=tp, rollout_replicas=replicas,
        rollout_pp=pp, rollout_ep=max(1, eep), gpu_memory_utilization=share,
        train_backend=backend if backend in ("fsdp", "megatron") else "fsdp",
        train_tp=ttp, train_pp=tpp, train_ep=tep, train_cp=tcp,
        group=i.group, rollouts=i.rollouts, kl=float(i.kl), epochs=i.epochs,
        prompt_tokens=i.prompt_tokens, prompt_max_tokens=i.prompt_tokens,  # the lab has one prompt length
        response_tokens=i.response_tokens, response_max_tokens=i.response_max_tokens, staleness=i.staleness,
        engine=i.engine, offload=i.offload, tuning=i.tuning, prompts=i.prompts, pairs=i.pairs,
        eval_every=i.eval_every,
    )
    return Mapped(layout, tuple(notes), refusal, fit_gpus)

