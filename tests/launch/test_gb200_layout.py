"""GB200 NVL72 in the launch layout: a host (what Ray and the launchers call a node) is a compute tray of 4 GPUs,
while the engine's tensor parallelism may span trays inside the 72-GPU NVLink domain."""

from __future__ import annotations

from app.launch.layout import from_result
from app.model import evaluate, normalise


def result(**q: object):
    return evaluate(normalise({k: str(v) for k, v in q.items()})[0])


def test_a_gb200_run_is_laid_out_in_trays_of_four() -> None:
    # DeepSeek-V3 on 128 GB200s: 32 trays of 4; vLLM over NVLink beyond a tray (TP > 4), Megatron's TP on one tray
    r = result(arch="deepseek_v3", gpu="gb200_186g", gpus=128, method="grpo", reward="verifier",
               placement="colocated", rollouts=512)
    m = from_result(r)
    assert m.refusal is None
    g = m.layout
    assert (g.nodes, g.gpus_per_node) == (32, 4)
    assert g.rollout_tp > 4 and g.train_tp <= 4
    # the same state on HGX B200s: nodes of 8
    b = from_result(result(arch="deepseek_v3", gpu="b200_180g", gpus=128, method="grpo", reward="verifier",
                           placement="colocated", rollouts=512)).layout
    assert (b.nodes, b.gpus_per_node) == (16, 8)


def test_a_partial_tray_is_refused_with_the_tray_size() -> None:
    m = from_result(result(arch="llama3_8b", gpu="gb200_186g", gpus=6, method="grpo", reward="verifier",
                           placement="colocated"))
    # 6 GPUs are a tray and a half: no command, and the refusal names the tray's 4 (an HGX part's 8 would have fit)
    assert m.refusal is not None and m.refusal.key == "launch.map.partial_node"
    assert dict(m.refusal.args) == {"gpus": 6, "per_node": 4}
