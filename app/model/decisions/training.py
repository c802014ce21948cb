"""The cards about training the policy: sharding and offload, the KL constraint, eval gating."""

from __future__ import annotations

from app.model.assumptions import EVAL_GATE_MAX_STEPS, KL_REFERENCE_GRPO, KL_TOO_STRONG
from app.model.decisions.record import Facts, Verdict, verdict

# The KL coefficient DeepSeekMath's GRPO runs used (Shao et al. 2024, arXiv 2402.03300, §4.2: "the KL coefficient
# is 0.04"); the KL card compares β with it and with verl's default kl_loss_coef (KL_REFERENCE_GRPO, 0.001).
DEEPSEEKMATH_KL = 0.04


def distributed_training(f: Facts) -> Verdict:
    """Sharding, offload, LoRA, from the stage's memory (``StageCost``)."""
    i, memory, cost = f.inputs, f.memory, f.cost
    args = dict(total_gb=cost.total_gb, gpus=i.gpus, per_gpu_gb=cost.total_gb / i.gpus, usable_gb=memory.usable_gb,
                min_gpus=cost.min_gpus or 0, host_gb=memory.host_gb,
                activation_gb=memory.activation_gb + memory.logits_gb)
    if not cost.fits:
        if not cost.min_gpus:
            return verdict("needed", "never", **args)
        relieved = i.offload == "optimizer" or i.tuning == "lora"
        return verdict("needed", "nofit_relieved" if relieved else "nofit", **args)
    if i.tuning == "lora":
        return verdict("useful", "lora", **args)
    if i.offload == "optimizer":
        return verdict("useful", "offload", **args)
    if cost.total_gb > memory.usable_gb:
        return verdict("needed", "sharded", **args)
    return verdict("not_yet", "single", **args)


def kl_control(f: Facts) -> Verdict:
    """The KL penalty against the reference: off, too strong, or against each method's usual β."""
    i, rl_loop = f.inputs, f.cost.online
    if not f.cost.trains:
        return verdict("not_yet", "no_loop")
    lvl = f.meters["kl_risk"].level
    args = dict(kl=i.kl, epochs=i.epochs, ref_gb=f.memory.models.reference_gb)
    grpo = rl_loop and i.method == "grpo"
    dpo_unit = "_dpo" if f.cost.dpo else ""  # DPO passes over its pairs (过 N 遍), it has no PPO epochs
    if grpo:
        args.update(verl_kl=KL_REFERENCE_GRPO, deepseekmath_kl=DEEPSEEKMATH_KL, ratio=i.kl / KL_REFERENCE_GRPO)
    if rl_loop and i.kl == 0:
        return verdict("trade_off" if i.reward == "verifier" else "needed",
                       "no_kl_verifier" if i.reward == "verifier" else ("no_kl_grpo" if grpo else "no_kl"), **args)
    if lvl == "hot":
        return verdict("needed", "hot" + dpo_unit, **args)
    if i.kl >= KL_TOO_STRONG:
        return verdict("trade_off", "too_strong", **args)
    if grpo:
        # against verl's default 0.001 and DeepSeekMath's 0.04: below the one, at it, between, above the other
        reason = ("grpo_low" if i.kl < KL_REFERENCE_GRPO else "grpo" if i.kl == KL_REFERENCE_GRPO else
                  "grpo_mid" if i.kl <= DEEPSEEKMATH_KL else "grpo_high")
        # the badge follows the meter: a loose constraint (warn) is a trade-off, not "worth doing"
        return verdict("useful" if reason != "grpo_high" and lvl != "warn" else "trade_off", reason, **args)
    return verdict("trade_off" if lvl == "warn" else "useful", ("warn" if lvl == "warn" else "ok") + dpo_unit, **args)


def eval_gating(f: Facts) -> Verdict:
    """How often the run is evaluated, and whether an eval gates the checkpoints."""
    if not f.cost.trains:
        return verdict("not_yet", "offline")
    i, run, meter = f.inputs, f.run, f.meters["eval_need"]
    lvl = meter.level
    args = dict(eval_every=i.eval_every, samples=meter.figure_args.get("samples", 0),
                hours=meter.figure_args.get("hours", 0), gate_every=EVAL_GATE_MAX_STEPS,
                evals=run.evals if run else 0, run_steps=run.steps if run else 0, run_hours=run.hours if run else 0.0)
    unit = "_dpo" if f.cost.dpo else ""  # DPO trains on preference pairs, not rollouts
    if f.cost.online and not f.timed:
        # no count fits: how long the steps between two evals take has no answer
        state = "useful" if f.gated else "needed" if lvl == "hot" else "useful" if lvl == "warn" else "trade_off"
        return verdict(state, "nofit", **args)
    if run is not None and run.steps > 0 and run.evals == 0:
        # the run ends before its first eval (default: every 100 steps, a 61-step run): not "eval every 100
        # steps, 3.8 h apart" as if an eval came, but that none does
        return verdict("needed", "none_in_run" + unit, **args)
    if f.gated:
        return verdict("useful", "gated" + unit, **args)
    if lvl == "hot":
        return verdict("needed", "hot" + unit, **args)
    if lvl == "warn":
        return verdict("useful", "warn" + unit, **args)
    return verdict("trade_off", "ok" + unit, **args)
