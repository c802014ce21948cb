"""The live regions of the lab page, each with a frozen view-model built by keyword (a dataclass compared by value):
everything its template reads, and nothing else.

A region's template (a macro of app/templates/regions.html named after its ``kind``) receives only its view-model,
so what a region depends on is written exactly once, here.  The full page renders every region in place; an htmx
partial sends the regions whose view-model differs from the previous state's (``to_send``), each swapped by id
(``hx-swap-oob``): the charts, the meter strip and the links that carry the state travel like any other region.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from app.model import Result
from app.model.architectures import SHAPE_NAMES
from app.model.assumptions import CONSTANTS
from app.model.decisions import DECISION_IDS, Decision
from app.model.evaluate import Reason
from app.model.inputs import Notice, fmt_param
from app.model.meters import METER_IDS, UNTIMED_FIGURES, Meter
from app.model.moves import Moves
from app.model.physics.architecture import kv_bytes_per_token, policy_arch
from app.model.physics.generation import engine_tp_case
from app.model.scenarios import moved_from_step
from app.model.stage_cost import remedy_args
from app.model.stages import NODE_IDS, RL_LOOP_STAGES, EdgeState, NodeState
from app.view.charts import MemoryChartVM, PhasesChartVM, StepChartVM, memory_chart, phases_chart, step_chart
from app.view.estimates import Lane, timeline
from app.view.links import canonical_query, current_preset, walk_focus
from app.view.timeline import timeline_chart

frozen = dataclass(frozen=True, slots=True, kw_only=True)


@frozen
class Region:
    kind: str      # the macro in regions.html that renders it
    dom_id: str    # the element's id: an out-of-band swap replaces the element with this id
    vm: object     # the frozen view-model the macro receives


@frozen
class StageVM:
    stage: str
    bottleneck: str   # the node that holds the step, or "memory" when the state does not fit (data-bottleneck)
    bottleneck_node: str  # the model's bottleneck (``Result.bottleneck``: a node, or memory)
    fit: str = ""         # when the RL step does not fit: "at" (shape.fit_at: from how many GPUs it does, and its
    #                       step there) or "never" (shape.fit_never); "" when it fits or there is no RL loop
    gpus: int = 0
    min_gpus: int = 0
    seconds: float = 0.0  # the step at min_gpus
    remedies: tuple[str, ...] = ()  # "never": the changes that each alone make it fit (``Result.fit_remedies``)
    remedy_args: dict = field(default_factory=dict)  # each remedy's values as tried (``stage_cost.remedy_args``)

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


@frozen
class MeterVM:
    id: str
    meter: Meter
    focus: bool
    band: tuple[str, str]  # the <meter>'s low and high attributes
    short: str             # catalogue key of the physical figure beside the level (meter.<id>.figure_short)
    at_gpus: int = 0       # the figure was timed on this many GPUs, the fewest that fit (0: the state's own)
    untimed: bool = False  # a time meter with no step to time (nothing fits): no level shown, only "does not fit"

    @property
    def level_key(self) -> str:
        return f"level.{self.meter.level}"

    @property
    def label_key(self) -> str:  # its name above the card (outside the region: it never changes)
        return f"meter.{self.id}.label"


@frozen
class DecisionVM:
    id: str
    decision: Decision

    @property
    def state_key(self) -> str:
        return f"decision.state.{self.decision.state}"

    @property
    def title_key(self) -> str:  # the card's title and summary (outside the region: they never change)
        return f"decision.{self.id}.title"

    @property
    def summary_key(self) -> str:
        return f"decision.{self.id}.summary"


@frozen
class StripVM:
    meters: tuple[tuple[str, int, str], ...]  # (meter id, value, level)
    stage: str

    @property
    def items(self) -> tuple[tuple[str, int, str, str], ...]:  # (meter id, value, level, its short name's key)
        return tuple((k, value, level, f"meter.{k}.short") for k, value, level in self.meters)

    @property
    def stage_key(self) -> str:
        return f"stage.{self.stage}.name"


@frozen
class LinksVM:
    """The links that hold the state (the other language, compare, launch, presenter view): the canonical query,
    and whether presenter view is on (kept by every link but the one that leaves it)."""

    query: str
    present: bool


@frozen
class EstHeadVM:
    gpus: int
    gpu: str
    placement: str

    @property
    def gpu_key(self) -> str:
        return f"gpu.{self.gpu}.name"

    @property
    def placement_key(self) -> str:
        return f"choice.placement.{self.placement}"


@frozen
class EstStepVM:
    stage: str
    rl_loop: bool
    timed: bool         # the RL step has a time (some GPU count up to 4,096 fits); else est.step_nofit
    at_gpus: int        # the step is timed on this many GPUs, the fewest that fit (0: the state's own)
    step: object        # app.model Step
    dpo: object         # app.model Dpo
    dpo_timed: bool = True  # DPO's own step has a time (``Dpo.timed_gpus``)
    dpo_at_gpus: int = 0    # DPO's times are at this many GPUs, the fewest that fit (0: the state's own)
    given_gpus: int = 0     # the GPUs given (an SFT / RM epoch timed on another count says so)
    offline: object     # app.model Stages
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
    staleness: int
    layout_case: str  # separate: searched (beat the fixed split) | unfit (the fixed split does not fit) | fixed | given
    #                   | given_trainer (given, and the training GPUs run the reference / reward forwards)
    generation_pct: float   # the step's generation share, %
    tail_pct: float         # the longest response's share of generation, %
    idle_pct: float         # GPU-seconds no phase uses, % of the step's GPU-seconds
    decode_step_ms: float   # one decode step of one wave, ms
    scoring_all_hidden: bool  # scoring hidden behind generation to within half a second
    scoring_hidden: bool      # at least half a second of scoring is hidden
    generation_key: str     # est.phase.gen, or est.phase.gen_all when generation is the whole (run-ahead) step
    idle_key: str           # est.phase.idle (separate: groups wait on each other), est.phase.idle_colocated
    engine_key: str         # est.math.engine, or est.math.engine_pp when a replica spans nodes (pipeline stages)
    engine_shape_key: str   # est.engine_shape (TP × replicas), or est.engine_shape_pp (replicas of TP × PP)
    scored_key: str         # what the scoring forwards score (est.scored.<method>[_ref]_rm|_verifier)
    trained_key: str        # what training updates (est.trained.<method>)
    sync_key: str           # est.phase.sync.refit | .broadcast
    show_layout: bool       # separate placement with a chosen split
    engine_tp: int = 0      # the engine TP the user gave (0: searched)
    engine_tp_case: str = ""  # physics.generation.engine_tp_case: "" | given | capped | widened

    @property
    def engine_tp_key(self) -> str:  # a sentence only when the engine runs at another degree than the one given
        return f"est.engine_tp.{self.engine_tp_case}" if self.engine_tp_case in ("capped", "widened") else ""

    @property
    def method_key(self) -> str:
        return f"method.short.{self.method}"

    @property
    def layout_key(self) -> str:  # how the chosen split compares with the fixed one
        return f"est.layout.{self.layout_case}"

    @property
    def bound_key(self) -> str:  # what bounds a decode step: memory bandwidth or compute
        return f"enum.bound.{self.step.gen.bound}"


@frozen
class EstRunVM:
    """A whole run: one pass over the prompt set (DPO: over the pairs, ``epochs`` times)."""

    stage: str
    steps: int
    seconds: float  # wall clock
    gpu_hours: float
    prompts: int
    pairs: int
    epochs: int
    gpus: int       # the GPUs the run is timed on (the fewest that fit, when the state's own do not)
    timed: bool = True  # False: no GPU count fits, no run to time (est.run.nofit)
    validation_seconds: float = 0.0  # of ``seconds``: the run's validation passes (Run.validation_hours)
    validation_passes: int = 0
    eval_every: int = 0

    @property
    def text_key(self) -> str:  # the run's sentence: over the pairs (DPO) or over the prompts
        return f"est.run.{'dpo' if self.stage == 'dpo' else 'rl'}"


@frozen
class EstCapVM:
    usable_gb: float
    gpu_gb: float


@frozen
class EstVsVM:
    ppo_total_gb: float
    ppo_min_gpus: int | None
    dpo_total_gb: float
    dpo_min_gpus: int | None
    dpo_step_s: float
    dpo_timed: bool = True  # DPO's step has a time (``Dpo.timed_gpus``)
    dpo_at_gpus: int = 0    # and it is at this many GPUs, the fewest that fit (0: the GPUs given)
    ppo_step_s: float
    generation_s: float
    rollouts: int
    method: str  # the RL method beside DPO: ppo or grpo (ppo when the state is DPO)
    ppo_fits: bool  # the RL loop's memory fits the GPUs on screen (else its step time is marked)
    ppo_at_gpus: int  # its step is timed on this many GPUs, the fewest that fit (0: the state's own, or none fits)
    ppo_timed: bool   # some GPU count fits the RL loop (else it has no step time: "—")
    dpo_fits: bool  # likewise DPO's
    models: tuple[str, ...]  # the RL method's models in memory for this state (est.vs.m.<model>)

    @property
    def method_key(self) -> str:
        return f"method.short.{self.method}"

    @property
    def model_keys(self) -> tuple[str, ...]:
        return tuple(f"est.vs.m.{m}" for m in self.models)


@frozen
class ShapeField:
    """One number field of the custom shape (the paste helper's): its URL name and value ("" when unset)."""

    name: str
    value: str

    @property
    def label_key(self) -> str:
        return f"input.{self.name}.label"


@frozen
class ArchInfoVM:
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
    shape: tuple[ShapeField, ...] = ()  # the custom shape's URL fields (name, value or ""): the paste helper's

    @property
    def info_key(self) -> str:  # the custom rule, or a named model's shape (mixture of experts or dense)
        if self.arch == "custom":
            return "arch.info.custom"
        return f"arch.info.{'moe' if self.experts else 'dense'}"

    @property
    def attention_key(self) -> str:
        return f"arch.attention.{self.attention}"


def arch_info(i) -> ArchInfoVM:  # noqa: ANN001 - WorkloadInputs
    a = policy_arch(i)
    shape = tuple(ShapeField(name=n, value="" if getattr(i, n) is None else fmt_param(getattr(i, n)))
                  for n in SHAPE_NAMES)
    return ArchInfoVM(arch=a.key if i.arch == "custom" else i.arch, layers=a.layers, hidden=a.hidden, heads=a.heads, kv_heads=a.kv_heads,
                      head_dim=a.head_dim, attention=a.attention, total_b=a.total_b, active_b=a.active_b,
                      experts=a.experts, experts_per_token=a.experts_per_token, kv_bytes_per_token=kv_bytes_per_token(a),
                      shape=shape)


@frozen
class MarkerVM:
    query: str
    preset: str | None
    focus: str | None
    walk_moved: bool = False  # a walkthrough state whose controls moved away from the step's (app.css shows a note)


@frozen
class NoticesVM:
    notices: tuple[Notice, ...]


@frozen
class WhyVM:
    reasons: tuple[Reason, ...]
    change: Moves | None
    stage: str
    bottleneck: str

    @property
    def changed(self) -> tuple[tuple[str, str, object, object], ...]:  # (name, its label's key, before, after)
        if self.change is None:
            return ()
        return tuple((c.name, f"input.{c.name}.label", c.before, c.after) for c in self.change.changed)

    @property
    def stage_keys(self) -> tuple[str, str] | None:  # the stage's name before and after, when it moved
        if self.change is None or not self.change.stage_before:
            return None
        return f"stage.{self.change.stage_before}.name", f"stage.{self.stage}.name"

    @property
    def bottleneck_keys(self) -> tuple[str, str] | None:  # the bottleneck node's name before and after
        if self.change is None or not self.change.bottleneck_before:
            return None
        return f"node.{self.change.bottleneck_before}.name", f"node.{self.bottleneck}.name"

    @property
    def meter_moves(self) -> tuple[tuple[object, str, bool], ...]:
        """(the move, its meter's label key, whether it went up), and whether its causes are named: only when
        several inputs changed at once (one input needs no naming)."""
        if self.change is None:
            return ()
        return tuple((mv, f"meter.{mv.meter}.label", mv.delta > 0) for mv in self.change.meters)

    @property
    def name_causes(self) -> bool:
        return self.change is not None and len(self.change.changed) > 1


FLAGGED_STATES = ("removed", "needed", "overloaded", "warning")  # a node in these states says so above it
ALWAYS_SENT = ("live-marker", "live-notices", "live-why")  # what moved changes with every move
# The regions a learner watches while a slider moves (the stage column's stage, diagram and meters, and the
# phone's meter strip): a partial sends them first, and the page paints them before the charts and the rest.
FIRST_PAINT = frozenset({"stage", "node", "edge", "meter", "strip"})


def _vs(r: Result) -> EstVsVM:
    """The RL method beside DPO for this workload: the state's own step and memory (in a DPO state the model gives
    those of the same workload under PPO, app/model/evaluate.py)."""
    m = r.memory.models  # the state's own models: no critic under GRPO, no reference at β = 0, none for a verifier
    # GRPO trains the policy with no critic beside it: 「policy」, as its memory line says (GRPO（policy、reference）)
    models = ("policy" if r.inputs.method == "grpo" else "actor", *(name for name, gb in (("critic", m.critic_gb), ("reference", m.reference_gb),
                                                ("reward", m.reward_gb)) if gb > 0))
    return EstVsVM(ppo_total_gb=r.memory.total_gb, ppo_min_gpus=r.memory.min_gpus, dpo_total_gb=r.dpo.total_gb,
                   dpo_min_gpus=r.dpo.min_gpus, dpo_step_s=r.dpo.step_s, ppo_step_s=r.step.total_s,
                   generation_s=r.step.generation_s, rollouts=r.inputs.rollouts,
                   method="grpo" if r.inputs.method == "grpo" else "ppo", ppo_fits=r.memory.fits,
                   ppo_at_gpus=r.timed_gpus if r.timed_elsewhere else 0, ppo_timed=r.timed,
                   dpo_fits=r.dpo.fits, models=models, dpo_timed=r.dpo.timed_gpus is not None,
                   dpo_at_gpus=_dpo_at(r))


def _layout_case(r: Result) -> str:
    """How the chosen split relates to OpenRLHF's fixed one (¼ generation, ¼ scoring, ½ training): the model searches
    only among layouts that fit, so a searched layout slower than the fixed split means the fixed split does not fit."""
    layout = r.step.gpu_groups
    if layout is not None and r.inputs.generation_gpus and not layout.colocated:
        # the user fixed the generation GPUs (``generation_gpus``); the trainer may score on the rest itself
        return "given_trainer" if r.step.trainer_scores else "given"
    if layout is None or not layout.searched:
        return "fixed"
    return "unfit" if layout.fixed_step_s < r.step.total_s else "searched"


def _dpo_at(r: Result) -> int:
    """The GPUs DPO's own step is timed on when not the state's (the fewest that fit), else 0."""
    at = r.dpo.timed_gpus
    return at if at is not None and at != r.inputs.gpus else 0


def _est_step(r: Result) -> EstStepVM:
    """The step's figures in the units its texts use, and the catalogue keys its sentences take."""
    s, i = r.step, r.inputs
    gpu_s = s.total_s * (r.timed_gpus or i.gpus)  # the step's GPU-seconds on the GPUs it is timed on
    rl_method = "grpo" if i.method == "grpo" else "ppo"  # a DPO state's step is the same workload's under PPO
    scored = f"est.scored.{rl_method}{'_ref' if i.kl > 0 else ''}{'_rm' if i.reward == 'model' else '_verifier'}"
    return EstStepVM(
        stage=r.stage, rl_loop=r.stage in RL_LOOP_STAGES, timed=r.timed,
        at_gpus=r.timed_gpus if r.timed_elsewhere else 0, step=s, dpo=r.dpo, offline=r.offline, lanes=timeline(r),
        dpo_timed=r.dpo.timed_gpus is not None, dpo_at_gpus=_dpo_at(r), given_gpus=i.gpus,
        gpus=r.timed_gpus or i.gpus, epochs=i.epochs, prompt_tokens=i.prompt_tokens, response_tokens=i.response_tokens,
        response_max_tokens=i.response_max_tokens, policy_b=i.policy_b, rm_b=i.rm_b, pairs=i.pairs, demos=i.demos,
        method=i.method, placement=i.placement, staleness=i.staleness, layout_case=_layout_case(r),
        generation_pct=s.generation_share * 100, tail_pct=s.tail_share * 100,
        idle_pct=100 * s.idle_gpu_s / gpu_s if gpu_s > 0 else 0.0, decode_step_ms=s.gen.decode_step_s * 1000,
        scoring_all_hidden=s.scoring_hidden_all, scoring_hidden=s.scoring_hidden_any,
        generation_key="est.phase.gen_all" if s.generation_is_whole else "est.phase.gen",
        engine_key="est.math.engine_pp" if s.gen.pipeline > 1 else "est.math.engine",
        idle_key="est.phase.idle" if i.placement == "separate" else "est.phase.idle_colocated",
        engine_shape_key="est.engine_shape_pp" if s.gen.pipeline > 1 else "est.engine_shape",
        scored_key=scored, trained_key=f"est.trained.{rl_method}", sync_key=f"est.phase.sync.{'refit' if i.placement == 'colocated' else 'broadcast'}",
        show_layout=i.placement == "separate" and s.gpu_groups is not None,
        engine_tp=i.engine_tp, engine_tp_case=engine_tp_case(i.engine_tp, s.gen))


def _est_run(r: Result) -> EstRunVM:
    """A whole run on the GPUs its step is timed on; none to time when no GPU count fits (``Result.run`` None)."""
    i, run = r.inputs, r.run
    gpus = (r.dpo.timed_gpus or i.gpus) if r.stage == "dpo" else (r.timed_gpus or i.gpus)
    return EstRunVM(stage=r.stage, steps=run.steps if run else 0, seconds=run.hours * 3600 if run else 0.0,
                    gpu_hours=run.gpu_hours if run else 0.0, prompts=i.prompts, pairs=i.pairs, epochs=i.epochs,
                    gpus=gpus, timed=run is not None or r.stage not in RL_LOOP_STAGES,
                    validation_seconds=run.validation_hours * 3600 if run else 0.0,
                    validation_passes=run.evals if run and run.validation_hours > 0 else 0, eval_every=i.eval_every)


def _band(meter_id: str) -> tuple[str, str]:
    keys = ("memory_warn", "memory_hot") if meter_id == "train_memory" else ("meter_warn", "meter_hot")
    return tuple(f"{CONSTANTS[k].value:g}" for k in keys)


BANDS = {mid: _band(mid) for mid in METER_IDS}
# the physical figure beside a meter's level: which of its figure's arguments it shows (none: the meter is idle)
SHORT_ARG = {"rollout_load": "seconds", "scoring_load": "seconds", "train_memory": "per_gpu_gb",
             "kl_risk": "pressure", "eval_need": "hours"}


def _short(m: Meter) -> str:
    """The short figure's key: none when the meter is idle, "does not fit" when no step is timed, the run's end
    when it comes before the first eval, "… at N GPUs" when the model timed it on the fewest GPUs that fit
    (``figure_args["at_gpus"]``)."""
    if m.figure in UNTIMED_FIGURES:
        return "meter.figure_short_nofit"
    if "run_steps" in m.figure_args:  # the run ends before its first eval: not "two evals 3.8 h apart"
        return f"meter.{m.id}.figure_short_beyond_run"
    if SHORT_ARG[m.id] not in m.figure_args:
        return "meter.figure_short_none"
    return f"meter.{m.id}.figure_short" + ("_at" if "at_gpus" in m.figure_args else "")


def stage_vm(r: Result) -> StageVM:
    """The stage header: the model's bottleneck (``data-bottleneck``: a node, or memory when the state does not
    fit; the diagram flags the same), and, when the RL step does not fit, where it does and its step there."""
    fit, min_gpus, seconds = "", 0, 0.0
    if r.cost.online and not r.memory.fits:
        fit = "at" if r.timed else "never"
        min_gpus, seconds = (r.timed_gpus, r.step.total_s) if r.timed else (0, 0.0)
    return StageVM(stage=r.stage, bottleneck=r.bottleneck, bottleneck_node=r.bottleneck, fit=fit,
                   gpus=r.inputs.gpus, min_gpus=min_gpus, seconds=seconds, remedies=r.fit_remedies,
                   remedy_args={n: remedy_args(n) for n in r.fit_remedies})


def strip(r: Result) -> StripVM:
    return StripVM(meters=tuple((k, r.meters[k].value, r.meters[k].level) for k in METER_IDS), stage=r.stage)


def with_moves(regions: dict[str, Region], r: Result, change: Moves) -> dict[str, Region]:
    """A state's regions after a move: the why-panel also says what moved (``change``)."""
    why = Region(kind="why", dom_id="live-why",
                 vm=WhyVM(reasons=r.reasons, change=change, stage=r.stage, bottleneck=r.bottleneck))
    return {k: (why if k == "live-why" else v) for k, v in regions.items()}


LINK_REGIONS = ("alt-link", "lang-switch", "compare-link", "launch-link", "present-link", "est-link")


def state_regions(r: Result, notices: tuple[Notice, ...] = (), present: bool = False) -> dict[str, Region]:
    """The live regions of one state (the why-panel without a previous state), in page order, by DOM id."""
    i = r.inputs
    focus = walk_focus(i)
    query = canonical_query(i)
    links = LinksVM(query=query, present=present)
    regions = [
        Region(kind="marker", dom_id="live-marker", vm=MarkerVM(query=query, preset=current_preset(i), focus=focus,
                                                                walk_moved=moved_from_step(i))),
        Region(kind="notices", dom_id="live-notices", vm=NoticesVM(notices=notices)),
        *(Region(kind=k.replace("-", "_"), dom_id=k, vm=links) for k in LINK_REGIONS),
        Region(kind="arch_info", dom_id="arch-info", vm=arch_info(i)),
        Region(kind="stage", dom_id="live-stage", vm=stage_vm(r)),
    ]
    regions += [Region(kind="node", dom_id=f"dg-n-{k}", vm=NodeVM(id=k, state=r.nodes[k])) for k in NODE_IDS]
    regions += [Region(kind="edge", dom_id=f"dg-e-{e.id}", vm=e) for e in r.edges]
    regions += [Region(kind="meter", dom_id=f"meter-{k}",
                       vm=MeterVM(id=k, meter=r.meters[k], focus=focus == k, band=BANDS[k], short=_short(r.meters[k]),
                                  at_gpus=r.meters[k].figure_args.get("at_gpus", 0),
                                  untimed=r.meters[k].figure in UNTIMED_FIGURES and k != "eval_need"))
                for k in METER_IDS]
    regions += [
        Region(kind="strip", dom_id="meter-strip", vm=strip(r)),
        Region(kind="chart_step", dom_id="chart-step_vs_gpus", vm=step_chart(r)),
        Region(kind="chart_timeline", dom_id="chart-timeline", vm=timeline_chart(r)),
        Region(kind="est_head", dom_id="est-head", vm=EstHeadVM(gpus=i.gpus, gpu=i.gpu, placement=i.placement)),
        Region(kind="est_step", dom_id="est-step", vm=_est_step(r)),
        Region(kind="chart_phases", dom_id="chart-step_phases", vm=phases_chart(r)),
        Region(kind="chart_memory", dom_id="est-mem", vm=memory_chart(r)),
        Region(kind="est_cap", dom_id="est-cap", vm=EstCapVM(usable_gb=r.memory.usable_gb, gpu_gb=r.memory.gpu_memory_gb)),
        Region(kind="est_run", dom_id="est-run", vm=_est_run(r)),
        Region(kind="est_vs", dom_id="est-vs", vm=_vs(r)),
        Region(kind="why", dom_id="live-why",
               vm=WhyVM(reasons=r.reasons, change=None, stage=r.stage, bottleneck=r.bottleneck)),
    ]
    regions += [Region(kind="decision", dom_id=f"decision-{k}", vm=DecisionVM(id=k, decision=r.decisions[k]))
                for k in DECISION_IDS]
    return {reg.dom_id: reg for reg in regions}


def to_send(before: dict[str, Region] | None, now: dict[str, Region]) -> list[Region]:
    """The regions of ``now`` whose view-model differs from ``before``'s (all of them without a previous state)."""
    if before is None:
        return list(now.values())
    return [reg for dom_id, reg in now.items()
            if dom_id in ALWAYS_SENT or dom_id not in before or before[dom_id].vm != reg.vm]


__all__ = ["ALWAYS_SENT", "FIRST_PAINT", "EdgeState", "MemoryChartVM", "PhasesChartVM", "Region", "StepChartVM", "replace",
           "state_regions", "to_send", "with_moves"]
