"""The live regions of the lab page, each with an immutable view-model (a NamedTuple: cheap to build, compared by
value): everything its template reads, and nothing else.

A region's template (a macro of app/templates/regions.html named after its ``kind``) receives only its view-model,
so what a region depends on is written exactly once, here.  The full page renders every region in place; an htmx
partial sends the regions whose view-model differs from the previous state's (``to_send``), each swapped by id.
"""

from __future__ import annotations

from typing import NamedTuple

from app.model import Result
from app.model.architectures import SHAPE_NAMES
from app.model.assumptions import CONSTANTS
from app.model.decisions import DECISION_IDS, Decision
from app.model.evaluate import Reason
from app.model.inputs import Notice, fmt_param
from app.model.meters import METER_IDS, Meter
from app.model.moves import Moves
from app.model.physics.architecture import kv_bytes_per_token, policy_arch
from app.model.stages import NODE_IDS, EdgeState, NodeState
from app.view.estimates import Lane, MemoryBars, memory_bars, timeline
from app.view.links import canonical_query, current_preset, walk_focus


class Region(NamedTuple):
    kind: str      # the macro in regions.html that renders it
    dom_id: str    # the element's id: an out-of-band swap replaces the element with this id
    vm: object     # the frozen view-model the macro receives


class StageVM(NamedTuple):
    stage: str
    bottleneck: str


class NodeVM(NamedTuple):
    id: str
    state: NodeState


class MeterVM(NamedTuple):
    id: str
    meter: Meter
    focus: bool
    band: tuple[str, str]  # the <meter>'s low and high attributes


class DecisionVM(NamedTuple):
    id: str
    decision: Decision


class StripVM(NamedTuple):
    meters: tuple[tuple[str, int, str], ...]  # (meter id, value, level)
    stage: str


class EstHeadVM(NamedTuple):
    gpus: int
    gpu: str
    placement: str


class EstStepVM(NamedTuple):
    stage: str
    step: object        # app.model.physics.Step
    dpo: object         # app.model.physics.Dpo
    offline: object     # app.model.physics.Stages
    lanes: tuple[Lane, ...]
    gpus: int
    epochs: int
    prompt_tokens: int
    response_tokens: int
    response_max_tokens: int
    policy_b: float
    rm_b: float
    pairs: int
    demos: int
    method: str
    placement: str
    engine: str
    staleness: int
    group: int
    kl: float
    reward: str
    layout_case: str  # separate placement: searched (beat the fixed split) | unfit (the fixed split does not fit) | fixed
    generation_pct: float   # the step's generation share, %
    tail_pct: float         # the longest response's share of generation, %
    idle_pct: float         # GPU-seconds no phase uses, % of the step's GPU-seconds
    decode_step_ms: float   # one decode step of one wave, ms
    scoring_all_hidden: bool  # scoring hidden behind generation to within half a second


class EstRunVM(NamedTuple):
    """A whole run: one pass over the prompt set (DPO: over the pairs, ``epochs`` times)."""

    stage: str
    steps: int
    seconds: float  # wall clock
    gpu_hours: float
    prompts: int
    pairs: int
    epochs: int
    gpus: int


class EstCapVM(NamedTuple):
    usable_gb: float
    gpu_gb: float


class EstVsVM(NamedTuple):
    ppo_total_gb: float
    ppo_min_gpus: int
    dpo_total_gb: float
    dpo_min_gpus: int
    dpo_step_s: float
    ppo_step_s: float
    generation_s: float
    rollouts: int
    method: str  # the RL method beside DPO: ppo or grpo (ppo when the state is DPO)
    ppo_fits: bool = True  # the RL loop's memory fits the GPUs on screen (else its step time is marked)
    dpo_fits: bool = True  # likewise DPO's
    models: tuple[str, ...] = ("actor",)  # the RL method's models in memory for this state (est.vs.m.<model>)


class ArchInfoVM(NamedTuple):
    """The policy's shape under the architecture picker: a named model's config.json, or the custom rule."""

    arch: str
    layers: float
    hidden: float
    heads: float
    kv_heads: float
    head_dim: int
    attention: str
    total_b: float
    active_b: float
    experts: int
    experts_per_token: int
    kv_bytes_per_token: float
    shape: tuple[tuple[str, str], ...] = ()  # the custom shape's URL fields (name, value or ""): the paste helper's


def arch_info(i) -> ArchInfoVM:  # noqa: ANN001 - WorkloadInputs
    a = policy_arch(i)
    shape = tuple((n, "" if getattr(i, n) is None else fmt_param(getattr(i, n))) for n in SHAPE_NAMES)
    return ArchInfoVM(a.key if i.arch == "custom" else i.arch, a.layers, a.hidden, a.heads, a.kv_heads, a.head_dim,
                      a.attention, a.total_b, a.active_b, a.experts, a.experts_per_token, kv_bytes_per_token(a), shape)


class MarkerVM(NamedTuple):
    query: str
    preset: str | None
    focus: str | None


class NoticesVM(NamedTuple):
    notices: tuple[Notice, ...]


class WhyVM(NamedTuple):
    reasons: tuple[Reason, ...]
    change: Moves | None
    stage: str
    bottleneck: str


ALWAYS_SENT = ("live-marker", "live-notices", "live-why")  # what moved changes with every move


def _vs(r: Result) -> EstVsVM:
    """The RL method beside DPO for this workload: the state's own step and memory (in a DPO state the model gives
    those of the same workload under PPO, app/model/evaluate.py)."""
    method = "grpo" if r.inputs.method == "grpo" else "ppo"
    m = r.memory.models  # the state's own models: no critic under GRPO, no reference at β = 0, none for a verifier
    models = ("actor", *(name for name, gb in (("critic", m.critic_gb), ("reference", m.reference_gb),
                                                ("reward", m.reward_gb)) if gb > 0))
    return EstVsVM(r.memory.total_gb, r.memory.min_gpus, r.dpo.total_gb, r.dpo.min_gpus, r.dpo.step_s,
                   r.step.total_s, r.step.generation_s, r.inputs.rollouts, method, r.memory.fits, r.dpo.fits, models)


def _layout_case(r: Result) -> str:
    """How the chosen split relates to OpenRLHF's fixed one (¼ generation, ¼ scoring, ½ training): the model searches only among layouts that
    fit, so a searched layout slower than the fixed split means the fixed split does not fit."""
    layout = r.step.gpu_groups
    if layout is None or not layout.searched:
        return "fixed"
    return "unfit" if layout.fixed_step_s < r.step.total_s else "searched"


def _step_percent(r: Result) -> tuple[float, float, float, float, bool]:
    """The step's figures in the units its texts use: generation and tail shares in %, the idle GPU-seconds in % of
    the step's GPU-seconds, one decode step in ms; and whether all of scoring hides behind generation
    (``Step.scoring_hidden_all``)."""
    s = r.step
    gpu_s = s.total_s * r.inputs.gpus
    idle_pct = 100 * s.idle_gpu_s / gpu_s if gpu_s > 0 else 0.0
    return (s.generation_share * 100, s.tail_share * 100, idle_pct, s.gen.decode_step_s * 1000,
            s.scoring_hidden_all)


def _band(meter_id: str) -> tuple[str, str]:
    keys = ("memory_warn", "memory_hot") if meter_id == "train_memory" else ("meter_warn", "meter_hot")
    return tuple(f"{CONSTANTS[k].value:g}" for k in keys)


BANDS = {mid: _band(mid) for mid in METER_IDS}


def strip(r: Result) -> StripVM:
    """The meter strip of the page (not a live region: app.js derives it after a move from the meters sent)."""
    return StripVM(tuple((k, r.meters[k].value, r.meters[k].level) for k in METER_IDS), r.stage)


def with_moves(regions: dict[str, Region], r: Result, change: Moves) -> dict[str, Region]:
    """A state's regions after a move: the why-panel also says what moved (``change``)."""
    why = Region("why", "live-why", WhyVM(r.reasons, change, r.stage, r.bottleneck))
    return {k: (why if k == "live-why" else v) for k, v in regions.items()}


def state_regions(r: Result, notices: tuple[Notice, ...] = ()) -> dict[str, Region]:
    """The live regions of one state (the why-panel without a previous state), in page order, by DOM id."""
    i = r.inputs
    focus = walk_focus(i)
    regions = [
        Region("marker", "live-marker", MarkerVM(canonical_query(i), current_preset(i), focus)),
        Region("notices", "live-notices", NoticesVM(notices)),
        Region("arch_info", "arch-info", arch_info(i)),
        Region("stage", "live-stage", StageVM(r.stage, r.bottleneck)),
    ]
    regions += [Region("node", f"dg-n-{k}", NodeVM(k, r.nodes[k])) for k in NODE_IDS]
    regions += [Region("edge", f"dg-e-{e.id}", e) for e in r.edges]
    regions += [Region("meter", f"meter-{k}", MeterVM(k, r.meters[k], focus == k, BANDS[k])) for k in METER_IDS]
    regions += [
        Region("est_head", "est-head", EstHeadVM(i.gpus, i.gpu, i.placement)),
        Region("est_step", "est-step", EstStepVM(
            r.stage, r.step, r.dpo, r.offline, timeline(r), i.gpus, i.epochs, i.prompt_tokens, i.response_tokens,
            i.response_max_tokens, i.policy_b, i.rm_b, i.pairs, i.demos, i.method, i.placement, i.engine, i.staleness,
            i.group, i.kl, i.reward, _layout_case(r), *_step_percent(r))),
        Region("est_mem", "est-mem", memory_bars(r)),
        Region("est_cap", "est-cap", EstCapVM(r.memory.usable_gb, r.memory.gpu_memory_gb)),
        Region("est_run", "est-run", EstRunVM(r.stage, r.run.steps, r.run.hours * 3600, r.run.gpu_hours, i.prompts, i.pairs,
                                              i.epochs, i.gpus)),
        Region("est_vs", "est-vs", _vs(r)),
        Region("why", "live-why", WhyVM(r.reasons, None, r.stage, r.bottleneck)),
    ]
    regions += [Region("decision", f"decision-{k}", DecisionVM(k, r.decisions[k])) for k in DECISION_IDS]
    return {reg.dom_id: reg for reg in regions}


def to_send(before: dict[str, Region] | None, now: dict[str, Region]) -> list[Region]:
    """The regions of ``now`` whose view-model differs from ``before``'s (all of them without a previous state)."""
    if before is None:
        return list(now.values())
    return [reg for dom_id, reg in now.items()
            if dom_id in ALWAYS_SENT or dom_id not in before or before[dom_id].vm != reg.vm]


__all__ = ["ALWAYS_SENT", "EdgeState", "MemoryBars", "Region", "state_regions", "to_send", "with_moves"]
