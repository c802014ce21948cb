"""The engineer's panel: its head (GPUs, card, placement), one step's figures, the memory capacity, the whole
run, and the RL method beside DPO.  The timeline and memory lanes in per cent of a bar are app/view/estimates.py's."""

from __future__ import annotations

from app.model import Result
from app.model.assumptions import IDLE_SHOWN_MIN_GPU_S
from app.model.physics.generation import engine_tp_case
from app.view.estimates import Lane, timeline
from app.view.regions.record import frozen


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
class EngineVM:
    """The generation engine of one RL step, in the units its sentences quote."""

    tp: int
    pp: int
    replicas: int
    engine_gpus: int
    batch: float
    waves: int
    tokens_per_s: float
    kv_gb_per_replica: float
    offloaded_gb: float
    decode_step_ms: float   # one decode step of one wave, ms
    bound: str              # what bounds a decode step: memory (bandwidth) or compute
    dp: int = 1             # wide EP: data-parallel attention ranks of one instance (1: the TP layout)

    @property
    def bound_key(self) -> str:
        return f"enum.bound.{self.bound}"


@frozen
class SplitVM:
    """The separate placement's GPU groups, and the step under OpenRLHF's fixed split they are compared with."""

    generation: int
    scoring: int
    training: int
    fixed_step_s: float


@frozen
class EstRlStepVM:
    """One step of the online RL loop: its phases on a timeline, their sentences, and the engine behind them."""

    timed: bool         # the RL step has a time (some GPU count up to 4,096 fits); else est.step_nofit
    at_gpus: int        # the step is timed on this many GPUs, the fewest that fit (0: the state's own)
    method: str
    total_s: float
    generation_s: float
    generation_gpu_s: float
    tail_s: float
    scoring_s: float
    scoring_hidden_s: float
    scoring_gpu_s: float
    training_s: float
    training_gpu_s: float
    sync_s: float
    sync_step_s: float      # the same step run synchronously (staleness 0)
    idle_gpu_s: float
    tokens: float
    show_tail: bool         # the longest response outlasts the mean's waves (a tail to name)
    show_env: bool          # an agentic episode waits for its environment between turns (a wait to name)
    env_s: float            # seconds of that wait the step does not hide
    turns: int
    show_sync: bool         # the weights travel to the engine after training (a sync phase to name)
    show_idle: bool         # enough GPU-seconds sit idle to be worth a line (``IDLE_SHOWN_MIN_GPU_S``)
    lanes: tuple[Lane, ...]
    epochs: int
    prompt_tokens: int
    response_tokens: int
    response_max_tokens: int
    policy_b: float
    rm_b: float
    staleness: int
    layout_case: str  # separate: searched (beat the fixed split) | unfit (the fixed split does not fit) | fixed | given
    #                   | given_trainer (given, and the training GPUs run the reference / reward forwards)
    generation_pct: float   # the step's generation share, %
    tail_pct: float         # the longest response's share of generation, %
    idle_pct: float         # GPU-seconds no phase uses, % of the step's GPU-seconds
    scoring_all_hidden: bool  # scoring hidden behind generation to within half a second
    scoring_hidden: bool      # at least half a second of scoring is hidden
    generation_key: str     # est.phase.gen, or est.phase.gen_all when generation is the whole (run-ahead) step
    idle_key: str           # est.phase.idle (separate: groups wait on each other), est.phase.idle_colocated
    engine_key: str         # est.math.engine, or est.math.engine_pp when a replica spans nodes (pipeline stages)
    engine_shape_key: str   # est.engine_shape (TP × replicas), or est.engine_shape_pp (replicas of TP × PP)
    scored_key: str         # what the scoring forwards score (est.scored.<method>[_ref]_rm|_verifier)
    trained_key: str        # what training updates (est.trained.<method>)
    sync_key: str           # est.phase.sync.refit | .broadcast
    engine: EngineVM
    split: SplitVM | None   # separate placement with a chosen split (its sentence), else None
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


@frozen
class EstDpoVM:
    """DPO's own passes over the pairs."""

    timed: bool      # DPO's own step has a time (``Dpo.timed_gpus``)
    at_gpus: int     # DPO's times are at this many GPUs, the fewest that fit (0: the state's own)
    total_s: float
    epochs: int
    pair_s: float
    step_s: float
    epoch_s: float
    pairs: int
    tokens_per_pair: int


@frozen
class EstOfflineVM:
    """The stages trained before the RL loop: an SFT epoch, and in the reward-model stage the RM's epoch."""

    sft_timed: bool   # some GPU count up to 4,096 holds SFT's states (else est.offline_sft_nofit)
    sft_at_gpus: int  # SFT's epoch is timed on this many GPUs, the fewest that fit (0: the state's own)
    sft_epoch_s: float
    demos: int
    show_rm: bool     # the stage trains a reward model: its epoch has a line
    rm_timed: bool
    rm_at_gpus: int
    rm_epoch_s: float
    pairs: int


@frozen
class EstStepVM:
    """The estimates panel's step block: exactly one of the RL step, DPO's passes or the offline stages."""

    rl: EstRlStepVM | None = None
    dpo: EstDpoVM | None = None
    offline: EstOfflineVM | None = None


@frozen
class EstRunVM:
    """A whole run: one pass over the prompt set (DPO: over the pairs, ``epochs`` times)."""

    dpo: bool       # the run is DPO's passes over the pairs (else the RL loop's over the prompts)
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
        return "est.run.dpo" if self.dpo else "est.run.rl"


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


def est_vs(r: Result) -> EstVsVM:
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


def _at(timed_gpus: int | None, gpus: int) -> int:
    """The "at N GPUs" rule of a stage timed by itself (DPO, SFT, RM): the count it is timed on when not the GPUs
    given (the fewest that fit), else 0; 0 also when none fits (its text says so instead)."""
    return timed_gpus if timed_gpus is not None and timed_gpus != gpus else 0


def _dpo_at(r: Result) -> int:
    """The GPUs DPO's own step is timed on when not the state's (the fewest that fit), else 0."""
    return _at(r.dpo.timed_gpus, r.inputs.gpus)


def _rl_step(r: Result) -> EstRlStepVM:
    """The RL step's figures in the units its texts use, and the catalogue keys its sentences take."""
    s, i, g = r.step, r.inputs, r.step.gen
    gpu_s = s.total_s * (r.timed_gpus or i.gpus)  # the step's GPU-seconds on the GPUs it is timed on
    rl_method = "grpo" if i.method == "grpo" else "ppo"
    scorer = {"model": "_rm", "verifier": "_verifier", "judge": "_judge"}[i.reward]
    scored = f"est.scored.{rl_method}{'_ref' if i.kl > 0 else ''}{scorer}"
    split = None
    if i.placement == "separate" and s.gpu_groups is not None:
        split = SplitVM(generation=s.gpu_groups.generation, scoring=s.gpu_groups.scoring,
                        training=s.gpu_groups.training, fixed_step_s=s.gpu_groups.fixed_step_s)
    engine = EngineVM(tp=g.tensor_parallel, pp=g.pipeline, replicas=g.replicas, engine_gpus=g.engine_gpus,
                      batch=g.batch, waves=g.waves, tokens_per_s=g.tokens_per_s, kv_gb_per_replica=g.kv_gb_per_replica,
                      offloaded_gb=g.offloaded_gb, decode_step_ms=g.decode_step_s * 1000, bound=g.bound,
                      dp=g.data_parallel)
    return EstRlStepVM(
        timed=r.timed, at_gpus=r.timed_gpus if r.timed_elsewhere else 0, method=i.method,
        total_s=s.total_s, generation_s=s.generation_s, generation_gpu_s=s.generation_gpu_s, tail_s=s.tail_s,
        scoring_s=s.scoring_s, scoring_hidden_s=s.scoring_hidden_s, scoring_gpu_s=s.scoring_gpu_s,
        training_s=s.training_s, training_gpu_s=s.training_gpu_s, sync_s=s.sync_s, sync_step_s=s.sync_step_s,
        idle_gpu_s=s.idle_gpu_s, tokens=s.tokens,
        show_tail=s.tail_s > 0, show_env=s.env_wait_s > 0, env_s=s.env_wait_s, turns=i.turns, show_sync=s.sync_s > 0, show_idle=s.idle_gpu_s > IDLE_SHOWN_MIN_GPU_S,
        lanes=timeline(r), epochs=i.epochs, prompt_tokens=i.prompt_tokens, response_tokens=i.response_tokens,
        response_max_tokens=i.response_max_tokens, policy_b=i.policy_b, rm_b=i.rm_b, staleness=i.staleness,
        layout_case=r.plan.layout_case, generation_pct=s.generation_share * 100, tail_pct=s.tail_share * 100,
        idle_pct=100 * s.idle_gpu_s / gpu_s if gpu_s > 0 else 0.0,
        scoring_all_hidden=s.scoring_hidden_all, scoring_hidden=s.scoring_hidden_any,
        generation_key="est.phase.gen_all" if s.generation_is_whole else "est.phase.gen",
        engine_key=("est.math.engine_dp" if g.data_parallel_attention else "est.math.engine_pp" if g.pipeline > 1
                    else "est.math.engine"),
        idle_key="est.phase.idle" if i.placement == "separate" else "est.phase.idle_colocated",
        engine_shape_key=("est.engine_shape_dp" if g.data_parallel_attention else "est.engine_shape_pp"
                          if g.pipeline > 1 else "est.engine_shape"),
        scored_key=scored, trained_key=f"est.trained.{rl_method}",
        sync_key=f"est.phase.sync.{'refit' if i.placement == 'colocated' else 'broadcast'}",
        engine=engine, split=split, engine_tp=i.engine_tp, engine_tp_case=engine_tp_case(i.engine_tp, g))


def est_step(r: Result) -> EstStepVM:
    """The step block of the state's loop (``StageCost.loop``): the RL step, DPO's passes, or the offline stages."""
    i = r.inputs
    if r.cost.online:
        return EstStepVM(rl=_rl_step(r))
    if r.cost.dpo:
        d = r.dpo
        return EstStepVM(dpo=EstDpoVM(timed=d.timed_gpus is not None, at_gpus=_dpo_at(r), total_s=d.total_s,
                                      epochs=i.epochs, pair_s=d.pair_s, step_s=d.step_s, epoch_s=d.epoch_s,
                                      pairs=i.pairs, tokens_per_pair=d.tokens_per_pair))
    o = r.offline
    return EstStepVM(offline=EstOfflineVM(
        sft_timed=o.sft_timed_gpus is not None, sft_at_gpus=_at(o.sft_timed_gpus, i.gpus), sft_epoch_s=o.sft_epoch_s,
        demos=i.demos, show_rm=r.cost.trains_rm, rm_timed=o.rm_timed_gpus is not None,
        rm_at_gpus=_at(o.rm_timed_gpus, i.gpus), rm_epoch_s=o.rm_epoch_s, pairs=i.pairs))


def est_run(r: Result) -> EstRunVM:
    """A whole run on the GPUs its step is timed on; none to time when no GPU count fits (``Result.run`` None)."""
    i, run = r.inputs, r.run
    gpus = (r.dpo.timed_gpus or i.gpus) if r.cost.dpo else (r.timed_gpus or i.gpus)
    return EstRunVM(dpo=r.cost.dpo, steps=run.steps if run else 0, seconds=run.hours * 3600 if run else 0.0,
                    gpu_hours=run.gpu_hours if run else 0.0, prompts=i.prompts, pairs=i.pairs, epochs=i.epochs,
                    gpus=gpus, timed=run is not None or not r.cost.online,
                    validation_seconds=run.validation_hours * 3600 if run else 0.0,
                    validation_passes=run.evals if run and run.validation_hours > 0 else 0, eval_every=i.eval_every)


def est_head(r: Result) -> EstHeadVM:
    i = r.inputs
    return EstHeadVM(gpus=i.gpus, gpu=i.gpu, placement=i.placement)


def est_cap(r: Result) -> EstCapVM:
    return EstCapVM(usable_gb=r.memory.usable_gb, gpu_gb=r.memory.gpu_memory_gb)
