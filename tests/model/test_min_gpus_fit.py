"""The fewest GPUs that fit do fit: the memory lanes hold the engine's weights as the engine plan does (fp8
rollouts: half the bf16 bytes), so ``memory.min_gpus`` and ``memory.fits`` agree, and the page's step "at N GPUs,
the fewest that fit" (``Result.timed_gpus``) is a step on GPUs that fit."""

from __future__ import annotations

import pytest

from app.model import WorkloadInputs, evaluate
from app.model.inputs import effective


def test_deepseek_v3_fp8_rollouts_hold_671_gb_of_weights_on_a_16_gpu_engine() -> None:
    # DeepSeek-V3 rolled out in fp8: 671 B parameters · 1 B = 671 GB per engine instance; TP 8 × PP 2 = 16 GPUs →
    # 671 / 16 = 41.9 GB of weights per generation GPU.  Counted in bf16 (1,342 / 16 = 83.9 GB) the generation lane
    # was over the 72 GB usable (90 % of 80 GB), so 512 GPUs "did not fit" while the fewest that fit were 292.
    r = evaluate(effective(WorkloadInputs(arch="deepseek_v3", gpus=512, placement="separate", rollout_dtype="fp8")))
    g = r.step.gen
    assert (g.tensor_parallel, g.pipeline) == (8, 2)
    gen_lane = next(lane for lane in r.memory.lanes if lane.lane == "gen")
    assert dict(gen_lane.parts)["gen_weights"] == pytest.approx(671 / 16, rel=1e-6)   # 41.9 GB
    assert not gen_lane.over and r.memory.fits and r.memory.min_gpus <= 512


@pytest.mark.parametrize("arch", ["deepseek_v3", "qwen3_235b_a22b", "llama3_405b"])
@pytest.mark.parametrize("placement", ["colocated", "separate"])
@pytest.mark.parametrize("dtype", ["bf16", "fp8"])
def test_a_state_that_does_not_fit_fits_on_its_fewest_gpus(arch: str, placement: str, dtype: str) -> None:
    i = effective(WorkloadInputs(arch=arch, gpus=32, placement=placement, rollout_dtype=dtype))
    r = evaluate(i)
    assert not r.memory.fits
    if r.memory.min_gpus is None:
        return
    assert evaluate(i.model_copy(update={"gpus": r.memory.min_gpus})).memory.fits
    assert r.timed_gpus == r.memory.min_gpus and r.step_at_min_gpus is r.step
