"""The cards about what the run learns from: demonstrations or preferences, a reward model or DPO, a critic or a
group baseline."""

from __future__ import annotations

from app.model.assumptions import TRAIN_BYTES_PER_PARAM
from app.model.decisions.record import Facts, Verdict, verdict


def sft_vs_preference(f: Facts) -> Verdict:
    i = f.inputs
    if i.demos == 0:
        return verdict("needed", "no_sft", pairs=i.pairs)
    if i.pairs == 0:
        if f.cost.online and i.reward in ("verifier", "judge"):  # a checker or an LLM judge replaces the pairs
            return verdict("useful", i.reward, demos=i.demos, rollouts=i.rollouts)
        return verdict("not_yet", "sft_only", demos=i.demos)
    return verdict("useful", "both", demos=i.demos, pairs=i.pairs, ratio=i.pairs / i.demos)


def rm_vs_dpo(f: Facts) -> Verdict:
    """A reward model against DPO, and a verifier, which needs neither."""
    i, dpo, ppo_gb = f.inputs, f.dpo, f.memory.total_gb
    if f.cost.online and i.reward == "verifier":
        return verdict("trade_off", "verifier", rollouts=i.rollouts, rm_b=i.rm_b)
    if f.cost.online and i.reward == "judge":  # prompted, not trained: no pairs, but its own decode every step
        return verdict("trade_off", "judge", rollouts=i.rollouts, judge_b=i.judge_b, judge_tokens=i.judge_tokens)
    if i.pairs == 0:
        return verdict("not_yet", "no_pairs")
    if f.cost.dpo:
        # a DPO state's step and memory are the same workload's under PPO (evaluate), timed where PPO fits
        # and DPO's pass where DPO fits (``Dpo.timed_gpus``), labelled; none when no count fits either
        if dpo.timed_gpus is None:
            return verdict("trade_off", "dpo_never", dpo_gb=dpo.total_gb, ppo_gb=ppo_gb)
        return verdict("trade_off", "dpo" if f.timed else "dpo_ppo_nofit", dpo_gb=dpo.total_gb, ppo_gb=ppo_gb,
                       epoch_s=dpo.epoch_s, dpo_gpus=dpo.timed_gpus, ppo_step_s=f.step.total_s if f.timed else None,
                       ppo_gpus=f.timed_gpus)
    if i.rollouts == 0:
        return verdict("useful", "rm_idle", rm_b=i.rm_b)
    if i.method == "grpo" and i.kl > 0:
        # GRPO has no critic already: DPO saves only the reward model's weights (both keep a reference)
        return verdict("needed", "grpo", rollouts=i.rollouts, saved_gb=ppo_gb - dpo.total_gb)
    if i.method == "grpo":
        # β = 0: GRPO keeps no reference, DPO needs one; the saving can be nothing (or negative)
        return verdict("needed", "grpo_no_ref", rollouts=i.rollouts, grpo_gb=ppo_gb, dpo_gb=dpo.total_gb)
    return verdict("needed", "ppo", rollouts=i.rollouts, saved_gb=ppo_gb - dpo.total_gb)


def critic_vs_group(f: Facts) -> Verdict:
    i = f.inputs
    if not f.cost.online:
        return verdict("not_yet", "no_loop")
    if i.method == "ppo":
        return verdict("trade_off", "critic" if f.timed else "critic_nofit", critic_gb=f.memory.models.critic_gb,
                       rm_b=i.rm_b, training_s=f.step.training_s if f.timed else None, group=i.group)
    if i.group == 1:
        return verdict("needed", "group_one", rollouts=i.rollouts)
    if i.rollouts < i.group:
        return verdict("needed", "too_few", rollouts=i.rollouts, group=i.group)
    return verdict("useful", "group", group=i.group, prompts=f.step.prompts_per_step,
                   saved_gb=TRAIN_BYTES_PER_PARAM * i.rm_b, rollouts=i.rollouts)
