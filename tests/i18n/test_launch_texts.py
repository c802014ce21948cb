"""The launch page's notes follow the state and its commands: no note restates what the one before it said, a
note about splitting rollouts appears only when they do not split, and each names only the flags of the commands shown."""

from __future__ import annotations

from support.page_text import query as _q
from support.page_text import text as _text

from app.model.scenarios import PRESET_BY_ID

# --- what a note compares ---------------------------------------------------------------------------------------------


def test_the_batch_note_quotes_the_plans_optimizer_steps(client) -> None:
    """Each command's batch note says the plan's mini-batch and optimizer steps, never the old teaching target.
    GRPO preset: 1,024 rollouts, GRPO's 1 optimizer step per RL step (NeMo RL) → one mini-batch of 1,024;
    PPO, separate, 510 rollouts, PPO's 4 steps: 504 = 4 × 126 is the most that splits over the actor's GPUs (said),
    512 rollouts give 4 × 128; no verl command → no word about 'the verl command'."""
    grpo = _text(client.get(f"/zh/launch?{_q(PRESET_BY_ID['grpo'].inputs)}").text)
    assert "每个优化器 step 取 1,024 条序列，每个 epoch 在本步的 rollout 上走 1 个优化器 step" in grpo
    assert "本 Lab 假设约 128 条" not in grpo
    assert "已对照 verl 0.9.1 检查" in grpo and "docs 2026" not in grpo and "main 分支" not in grpo
    off = _text(client.get("/zh/launch?placement=separate&rollouts=510").text)  # separate, synchronous: verl refuses
    assert "当前配置无法生成 verl 命令" in off and "verl 命令里" not in off
    assert "每个优化器 step 取 126 条序列，每个 epoch 在本步的 rollout 上走 4 个优化器 step" in off
    assert "每步 510 条 rollout 无法均分到训练 GPU 上：命令按 504 条设置" in off
    at = _text(client.get("/zh/launch?placement=separate").text)
    assert "每个优化器 step 取 128 条序列，每个 epoch 在本步的 rollout 上走 4 个优化器 step" in at
    en = _text(client.get("/en/launch?placement=separate&rollouts=510").text)
    assert "a verl command" not in en and "Each optimizer step takes 126 sequences, 4 optimizer steps per epoch" in en


# --- notes that follow the method and the commands --------------------------------------------------------------------


def test_the_launch_page_notes_follow_the_method_and_the_commands(client) -> None:
    """PPO, separate (OpenRLHF only): 514 rollouts do not split over the 4 training GPUs, with no word about GRPO's
    groups (512 do, and get no note); the prompt-length note names OpenRLHF's flag only; replicas read
    "每个副本 TP"."""
    body = _text(client.get("/zh/launch?placement=separate&rollouts=514").text)
    assert "每步 514 条 rollout 无法均分到训练 GPU 上：命令按 512 条设置" in body and "GRPO 还要按整组分" not in body
    assert "data.max_prompt_length" not in body and "--data.max_len" in body
    assert "每个 TP =" not in body and "每个副本 TP" in body
    assert "框架只接受" not in body
    assert "无法均分到训练 GPU 上" not in _text(client.get("/zh/launch?placement=separate").text)
