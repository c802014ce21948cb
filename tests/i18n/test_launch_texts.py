"""The launch page's notes follow the state and its commands: no note restates what the one before it said, a
note about splitting rollouts appears only when they do not split, and each names only the flags of the commands shown."""

from __future__ import annotations

from support.page_text import query as _q
from support.page_text import text as _text

from app.model.scenarios import PRESET_BY_ID

# --- what a note compares ---------------------------------------------------------------------------------------------


def test_the_launch_notes_do_not_restate_what_they_just_said(client) -> None:
    """GRPO preset: the mini-batch is 128 sequences, the lab's own assumption → no '(the lab assumes about 128)';
    PPO, separate, 510 rollouts: 102 samples against 128 → the comparison stays, while 512 rollouts give 128, said
    once as the assumption itself; no verl command → no word about 'the verl command'."""
    grpo = _text(client.get(f"/zh/launch?{_q(PRESET_BY_ID['grpo'].inputs)}").text)
    assert "每个优化器 step 取 128 条序列，这是本 Lab 假设的数值" in grpo and "本 Lab 假设约 128 条" not in grpo
    assert "已对照 verl 0.9.1 检查" in grpo and "docs 2026" not in grpo and "main 分支" not in grpo
    off = _text(client.get("/zh/launch?placement=separate&rollouts=510").text)  # separate, synchronous: verl refuses
    assert "当前配置无法生成 verl 命令" in off and "verl 命令里" not in off
    assert "全局训练 batch size 为 102 条样本（本 Lab 假设约 128 条）" in off
    at = _text(client.get("/zh/launch?placement=separate").text)
    assert "全局训练 batch size 为 128 条样本，这是本 Lab 假设的数值" in at and "本 Lab 假设约 128 条" not in at
    en = _text(client.get("/en/launch?placement=separate&rollouts=510").text)
    assert "a verl command" not in en and "(the lab assumes about 128)" in en


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
