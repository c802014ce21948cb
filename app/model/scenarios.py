"""The evolution presets (eight cards, in order) and the step-by-step walkthrough, as data.

Each preset and step is a complete workload: it sets every parameter, so its link reopens exactly that state.
The text (title, question, reveal, takeaway) lives in the catalogues under ``preset.<id>.*`` and ``walk.<n>.*``.
A reveal never retypes a number: ``walk_figures(n)`` computes each figure it quotes from the model's results (the
step's own state and, where the reveal compares, a second state), and the template passes them as arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from app.model.assumptions import CONSTANTS, DPO_BATCH_PAIRS
from app.model.compare import DEFAULT_PRICES, with_method
from app.model.evaluate import Result, evaluate
from app.model.inputs import DEFAULTS, MODEL_READ_NAMES, WorkloadInputs
from app.model.meters import kl_reference

_BASE = DEFAULTS.model_dump()


def _w(**changes) -> WorkloadInputs:
    return WorkloadInputs(**{**_BASE, **changes})


def _walk(**changes) -> WorkloadInputs:
    """A walkthrough step's state: the 2023 separate layout unless the step says otherwise (the page's default is
    colocated, the layout the lab recommends; steps 10–12 compare the two)."""
    return _w(**{"placement": "separate", **changes})


@dataclass(frozen=True, slots=True)
class Preset:
    id: str
    inputs: WorkloadInputs


# The page's default layout is colocated (the one the lab recommends); from "scaled rollouts" on, the cards show the
# 2023 separate layout whose searched split their descriptions talk about.
# An agentic workload (the ``agentic`` card and walkthrough step 13): Qwen3-8B as a software-engineering agent under
# GRPO, 8 turns per episode of 512 tokens (2,048 at most), 1,024 tokens of tool output fed back per turn, unit tests as
# the verifier, and a sandbox that takes 60 s per turn to run them (a teaching input: SWE-bench-style test runs take
# tens of seconds to minutes), the agent loop synchronous (the batch waits for every environment)
_AGENT = dict(arch="qwen3_8b", policy_b=8.2, method="grpo", group=8, reward="verifier", kl=0.001, rollouts=512,
              prompt_tokens=1024, response_tokens=512, response_max_tokens=2048, engine="vllm", gpu="h100_80g",
              gpus=16, eval_every=10, turns=8, observation_tokens=1024, env_latency_s=60.0, agent_loop="sync")

PRESETS: tuple[Preset, ...] = (
    Preset("sft_only", _w(pairs=0, rollouts=0)),
    Preset("reward_model", _w(rollouts=0)),
    Preset("ppo_loop", _w(rollouts=512)),
    Preset("scaled_rollouts", _w(placement="separate", rollouts=2048, gpus=16)),
    Preset("eval_gated", _w(placement="separate", rollouts=2048, gpus=16, eval_every=10)),
    Preset("dpo", _w(placement="separate", rollouts=2048, gpus=16, eval_every=10, method="dpo", kl=0.1)),
    # GRPO with verifiable rewards, 2025–26 style: an 8 B GQA policy, 8 responses per prompt, a rule-based checker,
    # verl's β = 0.001, chain-of-thought responses with a long tail, a colocated vLLM hybrid engine on 16 H100s.
    Preset("grpo", _w(arch="qwen3_8b", policy_b=8.2, method="grpo", group=8, reward="verifier", kl=0.001,
                      rollouts=1024, prompt_tokens=256, response_tokens=2048, response_max_tokens=8192,
                      placement="colocated", engine="vllm", gpu="h100_80g", gpus=16, eval_every=10)),
    # agentic RL, 2026 style (``_AGENT``): the GRPO card's policy as a software-engineering agent, 8 turns per episode
    Preset("agentic", _w(**_AGENT, placement="colocated")),
)
PRESET_BY_ID = {p.id: p for p in PRESETS}


@dataclass(frozen=True, slots=True)
class WalkStep:
    number: int
    inputs: WorkloadInputs
    focus: str  # the meter or node this step is about (highlighted on the page)


# The 2026 steps (9–12) share one long-chain-of-thought GRPO workload from step 10 on (the ``grpo`` card's):
_COT = dict(arch="qwen3_8b", policy_b=8.2, method="grpo", group=8, reward="verifier", kl=0.001, rollouts=1024,
            prompt_tokens=256, response_tokens=2048, response_max_tokens=8192, engine="vllm", gpu="h100_80g",
            gpus=16, eval_every=10, staleness=0, offload="none", tuning="full")

WALKTHROUGH: tuple[WalkStep, ...] = (
    WalkStep(1, _walk(pairs=0, rollouts=0, step=1), "sft_trainer"),
    WalkStep(2, _walk(pairs=0, rollouts=0, gpus=1, placement="colocated", step=2), "train_memory"),
    WalkStep(3, _walk(rollouts=0, step=3), "reward_model"),
    WalkStep(4, _walk(rollouts=512, step=4), "rollout_load"),
    WalkStep(5, _walk(rollouts=2048, gpus=16, step=5), "rollout_gen"),
    WalkStep(6, _walk(rollouts=512, kl=0.002, epochs=4, step=6), "kl_risk"),
    WalkStep(7, _walk(rollouts=2048, gpus=16, eval_every=10, step=7), "eval_need"),
    WalkStep(8, _walk(rollouts=2048, gpus=16, eval_every=10, method="dpo", kl=0.1, step=8), "policy_update"),
    # 9. drop the critic: step 4's workload (7B, 512 rollouts, 8 A100s, separate) under GRPO with verl's β = 0.001
    #    and group 8; the reward model stays, so the critic is the only model that goes
    WalkStep(9, _walk(rollouts=512, method="grpo", group=8, kl=0.001, reward="model", placement="separate",
                   engine="vllm", step=9), "train_memory"),
    # 10. the longest response sets the step: mean 2,048 tokens, longest 8,192, colocated vLLM on 16 H100s
    WalkStep(10, _walk(**_COT, placement="colocated", step=10), "rollout_gen"),
    # 11. colocate or split: the same workload disaggregated, with the searched split
    WalkStep(11, _walk(**_COT, placement="separate", step=11), "rollout_load"),
    # 12. one step off-policy: the same split, generation of step n + 1 overlapping step n's training
    WalkStep(12, _walk(**{**_COT, "staleness": 1}, placement="separate", step=12), "policy_update"),
    # 13. the environment becomes the bottleneck: the agentic card's workload, 8 turns with a 60 s sandbox each
    WalkStep(13, _walk(**_AGENT, placement="colocated", step=13), "rollout_gen"),
)


# --- the figures each reveal quotes -------------------------------------------------------------------------------


def _inputs(n: int, **changes: object) -> WorkloadInputs:
    """Step n's workload, optionally changed (a second state the reveal compares with), without the step."""
    return WALKTHROUGH[n - 1].inputs.model_copy(update={**changes, "step": None})


def _phases(r: Result) -> dict[str, float]:
    """An RL step's phases and split (the figures most reveals quote)."""
    s = r.step
    return {"total_s": s.total_s, "generation_s": s.generation_s, "scoring_s": s.scoring_s,
            "training_s": s.training_s, "sync_s": s.sync_s, "overlap_s": s.overlap_s,
            "share_pct": 100 * s.generation_share, "gen_gpus": s.groups.generation, "score_gpus": s.groups.scoring,
            "train_gpus": s.groups.training, "tokens_per_s": s.gen.tokens_per_s,
            "idle_pct": 100 * s.idle_gpu_s / (s.total_s * r.inputs.gpus) if s.total_s > 0 else 0.0}


def _memory(r: Result) -> dict[str, float]:
    """The memory meter's figures: model states, the fullest GPU (as nvidia-smi shows it), its share of usable
    memory, the fullest GPU while it trains (the plan's training phase), the fewest GPUs."""
    a = r.meters["train_memory"].figure_args
    train = next((p.gb for p in r.cost.memory_by_phase if p.phase == "training"), a["per_gpu_gb"])
    return {"states_gb": a["total_gb"], "per_gpu_gb": a["per_gpu_gb"], "mem_pct": a["pct"], "train_gb": train,
            "train_pct": 100 * train / r.memory.usable_gb,
            "min_gpus": a["min_gpus"], "usable_gb": r.memory.usable_gb, "gpu_gb": a["gpu_gb"],
            "usable_pct": 100 * r.memory.usable_gb / a["gpu_gb"]}


def _prefixed(prefix: str, figures: dict[str, float]) -> dict[str, float]:
    return {f"{prefix}_{k}": v for k, v in figures.items()}


def _trained(r: Result) -> dict[str, float]:
    """What a trained model costs: bytes per parameter (weights, gradients, fp32 master weights and Adam's moments)
    and the policy's size."""
    return {"bytes_per_param": CONSTANTS["train_bytes_per_param"].value, "policy_b": r.inputs.policy_b}


def _step1(r: Result) -> dict[str, float]:
    """The question asks what SFT costs: the pass's time, its GPU-hours, and dollars at the planner's price."""
    i = r.inputs
    gpu_h = r.offline.sft_epoch_s * i.gpus / 3600
    price = DEFAULT_PRICES.price(i.gpu)
    return {**_memory(r), **_trained(r), "sft_s": r.offline.sft_epoch_s, "demos": i.demos,
            "seq_tokens": i.prompt_tokens + i.response_tokens, "gpus": i.gpus,
            "gpu_h": gpu_h, "usd_per_gpu_h": price, "usd": gpu_h * price}


def _step2(r: Result) -> dict[str, float]:
    return {**_memory(r), **_trained(r), "gpus": r.inputs.gpus}


def _step3(r: Result) -> dict[str, float]:
    i, o = r.inputs, r.offline
    return {**_memory(r), "rm_s": o.rm_epoch_s, "sft_s": o.sft_epoch_s, "ratio": o.rm_epoch_s / o.sft_epoch_s,
            "pairs": i.pairs, "seq_tokens": i.prompt_tokens + i.response_tokens, "gpus": i.gpus}


def _step4(r: Result) -> dict[str, float]:
    gen = {part: gb for lane in r.memory_lanes if lane.lane == "gen" for part, gb in lane.parts}
    return {**_phases(r), **_memory(r), "train_per_gpu_gb": r.memory.training_per_gpu_gb, "gpus": r.inputs.gpus,
            "rollouts": r.inputs.rollouts, "kv_gb": gen.get("kv", 0.0)}  # the KV cache: on the generation GPU


def _step5(r: Result) -> dict[str, float]:
    before = evaluate(WALKTHROUGH[3].inputs)
    ev = r.meters["eval_need"]
    return {**_phases(r), **_memory(r), "ratio": r.step.total_s / before.step.total_s,
            "before_total_s": before.step.total_s, "fixed_s": r.step.gpu_groups.fixed_step_s,
            "eval_every": r.inputs.eval_every, "eval_rollouts": ev.figure_args["samples"],
            "eval_s": 3600 * ev.figure_args["hours"], "eval_risk": ev.value}


def _step6(r: Result) -> dict[str, float]:
    before = evaluate(WALKTHROUGH[3].inputs)
    kl = r.meters["kl_risk"]
    return {**_phases(r), "risk": kl.value, "pressure": kl.figure_args["pressure"], "epochs": r.inputs.epochs,
            "kl": r.inputs.kl, "kl_ref": kl_reference("ppo"), "kl_ratio": kl_reference("ppo") / r.inputs.kl, "before_training_s": before.step.training_s,
            "training_ratio": r.step.training_s / before.step.training_s, "before_total_s": before.step.total_s}


def _step7(r: Result) -> dict[str, float]:
    before = evaluate(_inputs(7, eval_every=WALKTHROUGH[4].inputs.eval_every))
    ev, ev0 = r.meters["eval_need"], before.meters["eval_need"]
    return {"total_s": r.step.total_s, "eval_every": r.inputs.eval_every, "eval_rollouts": ev.figure_args["samples"],
            "eval_s": 3600 * ev.figure_args["hours"], "eval_risk": ev.value,
            "before_eval_every": before.inputs.eval_every, "before_eval_rollouts": ev0.figure_args["samples"],
            "before_eval_s": 3600 * ev0.figure_args["hours"], "before_eval_risk": ev0.value}


def _step8(r: Result) -> dict[str, float]:
    ppo = evaluate(with_method(r.inputs, "ppo"))
    d = r.dpo
    return {"dpo_gb": d.total_gb, "ppo_gb": ppo.memory.total_gb, "per_gpu_gb": d.per_gpu_gb, "epoch_s": d.epoch_s,
            "step_s": d.step_s, "reference_s": d.reference_step_s, "pairs": r.inputs.pairs, "gpus": r.inputs.gpus,
            "batch_pairs": DPO_BATCH_PAIRS}


def _step9(r: Result) -> dict[str, float]:
    """GRPO against the same workload under PPO (the compare page's counterpart)."""
    ppo = evaluate(with_method(r.inputs, "ppo"))

    def own(x: Result) -> dict[str, float]:
        return {**_phases(x), **_memory(x), "training_gpu_s": x.step.training_gpu_s,
                "peak_gb": x.memory.peak_per_gpu_gb, "batch": x.step.gen.batch, "waves": x.step.gen.waves}

    return {**own(r), **_prefixed("ppo", own(ppo)), "group": r.inputs.group, "rollouts": r.inputs.rollouts,
            "prompts_per_step": r.step.prompts_per_step, "kl": r.inputs.kl}


def _step10(r: Result) -> dict[str, float]:
    """The tail: the same step with no tail (longest = mean), and with twice the GPUs."""
    i, g = r.inputs, r.step.gen
    flat = evaluate(_inputs(10, response_max_tokens=i.response_tokens))
    wide = evaluate(_inputs(10, gpus=2 * i.gpus))
    return {**_phases(r), "gpus": i.gpus, "tail_s": r.step.tail_s, "tail_pct": 100 * r.step.tail_share, "floor_s": g.tail_floor_s,
            "batch_s": g.throughput_s, "mean_tokens": i.response_tokens, "longest_tokens": i.response_max_tokens,
            "flat_generation_s": flat.step.generation_s, "flat_total_s": flat.step.total_s,
            "wide_gpus": wide.inputs.gpus, "wide_generation_s": wide.step.generation_s,
            "wide_total_s": wide.step.total_s, "wide_tail_pct": 100 * wide.step.tail_share}


def _step11(r: Result) -> dict[str, float]:
    """The searched split against the fixed one and against the hybrid engine (the same workload colocated)."""
    co = evaluate(_inputs(11, placement="colocated"))
    return {**_phases(r), "fixed_s": r.step.gpu_groups.fixed_step_s, "tp": r.step.gpu_groups.engine_tp,
            "replicas": r.step.gpu_groups.replicas, "gpus": r.inputs.gpus,
            **_prefixed("co", {"total_s": co.step.total_s, "sync_s": co.step.sync_s, "sync_ms": 1000 * co.step.sync_s,
                               "tp": co.step.gpu_groups.engine_tp, "replicas": co.step.gpu_groups.replicas,
                               "generation_s": co.step.generation_s})}


def _step12(r: Result) -> dict[str, float]:
    """One step off-policy: max(generation, scoring + training) + sync, against the synchronous split (step 11)
    and the hybrid engine."""
    co = evaluate(_inputs(12, staleness=0, placement="colocated"))
    partial = evaluate(_inputs(12, partial_rollouts="on"))
    s = r.step
    # "the synchronous split": this step's split run synchronously (generation drained, then training)
    return {**_phases(r), "score_train_s": s.scoring_s + s.training_s, "same_layout_sync_s": s.sync_step_s,
            "staleness": r.inputs.staleness, "sync_total_s": s.sync_step_s, "co_total_s": co.step.total_s,
            "saved_pct": 100 * (1 - s.total_s / s.sync_step_s),
            # the equal-GPU comparison: the same GPUs colocated and synchronous (the hybrid engine) against async,
            # and async with partial rollouts (the engine never drains: the tail stops holding the step)
            "co_speedup": co.step.total_s / s.total_s, "partial_total_s": partial.step.total_s,
            "partial_speedup": co.step.total_s / partial.step.total_s, "tail_s": s.tail_s}


def _step13(r: Result) -> dict[str, float]:
    """The environment's share: the step's decoding against its waits for the sandbox, the same episodes with an
    asynchronous agent loop, and one turn with no environment."""
    i, g = r.inputs, r.step.gen
    overlapped = evaluate(_inputs(13, agent_loop="async"))
    one = evaluate(_inputs(13, turns=1, env_latency_s=0.0, observation_tokens=0))
    wait = g.env_wait_s
    return {**_phases(r), "turns": i.turns, "env_latency_s": i.env_latency_s, "observation_tokens": i.observation_tokens,
            "waits": i.turns - 1, "env_wait_s": wait, "decode_s": r.step.generation_s - wait, "env_pct": 100 * wait / r.step.total_s,
            "async_total_s": overlapped.step.total_s, "async_wait_s": overlapped.step.gen.env_wait_s,
            "one_total_s": one.step.total_s, "ratio": r.step.total_s / one.step.total_s}


_FIGURES: dict[int, Callable[[Result], dict[str, float]]] = {
    1: _step1, 2: _step2, 3: _step3, 4: _step4, 5: _step5, 6: _step6, 7: _step7, 8: _step8,
    9: _step9, 10: _step10, 11: _step11, 12: _step12, 13: _step13,
}


@cache
def _figures(n: int) -> tuple[tuple[str, float], ...]:
    return tuple(_FIGURES[n](evaluate(WALKTHROUGH[n - 1].inputs)).items())


def walk_figures(n: int) -> dict[str, float]:
    """The numbers step ``n``'s reveal quotes (argument name → figure), computed by the model.

    Pure and deterministic (each step's workload is fixed), so computed once per step.

    >>> f = walk_figures(9)
    >>> f["states_gb"] < f["ppo_states_gb"] and f["training_gpu_s"] < f["ppo_training_gpu_s"]
    True
    """
    return dict(_figures(n))


def moved_from_step(inputs: WorkloadInputs) -> bool:
    """Whether a walkthrough state has left its step's own settings (a control moved since the step's link): its
    reveal then quotes figures of a state the page no longer shows, and says so.

    >>> moved_from_step(WALKTHROUGH[3].inputs), moved_from_step(WALKTHROUGH[3].inputs.model_copy(update={"gpus": 16}))
    (False, True)
    >>> moved_from_step(DEFAULTS)
    False
    """
    return bool(inputs.step) and inputs != WALKTHROUGH[inputs.step - 1].inputs


def open_step(inputs: WorkloadInputs, query: Mapping[str, object]) -> WorkloadInputs:
    """The state a link opens: a bare step link (``?step=10`` as an instructor types it, with at most view flags
    beside it, ``present`` or ``lang``, which the model does not read) opens that step's own workload, so its card
    never stands over the default state; a step link with any model parameter keeps them (the instructor's change,
    which the card then says has moved).

    >>> open_step(DEFAULTS.model_copy(update={"step": 10}), {"step": "10", "present": "1"}) == WALKTHROUGH[9].inputs
    True
    >>> open_step(DEFAULTS.model_copy(update={"step": 10}), {"step": "10", "gpus": "8"}).method
    'ppo'
    """
    if inputs.step and not MODEL_READ_NAMES.intersection(query):
        return WALKTHROUGH[inputs.step - 1].inputs
    return inputs
