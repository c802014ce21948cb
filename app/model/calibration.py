"""Published measurements, once: each row's inputs (as WorkloadInputs), its published figures, its source and the
tolerance the calibration tests hold the model to.  ``tests/model/test_calibration.py``, ``tests/model/
test_docs.py`` (the table in docs/model.md) and the page's reality table read these rows; ``compare(row)`` gives
the model's figure beside each published one.

Nothing here is fitted to a single row: every constant the model uses is in ``assumptions`` with its source, and
docs/model.md says which constants were chosen with which row in view.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.model.assumptions import SOURCES
from app.model.evaluate import Result, evaluate
from app.model.inputs import DEFAULTS, WorkloadInputs


@dataclass(frozen=True, slots=True)
class Published:
    """One published figure of a row: which model figure it is compared with, the value, the tolerance factor."""

    figure: str          # "generation_s" | "training_s" | "total_s" (seconds of one step)
    value: float
    tolerance: float     # the model must land within value / tolerance … value · tolerance


@dataclass(frozen=True, slots=True)
class Row:
    id: str
    inputs: WorkloadInputs
    published: tuple[Published, ...]
    source: str          # a key of assumptions.SOURCES
    note: str            # what was taken for what (English; the docs say more)

    @property
    def url(self) -> str:
        return SOURCES[self.source].url


def _w(**changes: object) -> WorkloadInputs:
    return WorkloadInputs(**{**DEFAULTS.model_dump(), "response_max_tokens": None, **changes})


# The OpenRLHF benchmark (OpenRLHF/OpenRLHF, benchmark/README.md): 7 B actor and 7 B critic/RM on 8 × A800-80GB
# (≈ A100-80GB for compute and bandwidth), 1,024 rollouts per step, prompt ≤ 1,024 and answer ≤ 1,024 tokens (taken at
# their maximum), Llama-2-7B shapes (MHA).
OPENRLHF = dict(arch="llama2_7b", policy_b=6.7, rm_b=7, gpu="a100_80g", gpus=8, rollouts=1024, prompt_tokens=1024,
                response_tokens=1024, epochs=1)

ROWS: tuple[Row, ...] = (
    Row("openrlhf", _w(**OPENRLHF, placement="separate", engine="vllm"),
        (Published("generation_s", 482.0, 2.0), Published("training_s", 403.0, 2.0), Published("total_s", 885.0, 2.0)),
        "openrlhf", "OpenRLHF 7B, Ray + vLLM, 8 × A800 (separate placement, vllm)"),
    # The same table's "DeepSpeed-Chat" column ran DeepSpeed-Chat with its hybrid engine disabled: HF generate inside
    # a ZeRO-3 trainer, which is engine=hf, colocated.
    Row("openrlhf_hf", _w(**OPENRLHF, placement="colocated", engine="hf"),
        (Published("generation_s", 697.0, 1.5), Published("training_s", 492.0, 3.0), Published("total_s", 1189.0, 2.0)),
        "openrlhf", "OpenRLHF table, DeepSpeed-Chat column (hybrid engine disabled): HF generate in the trainer"),
    # DeepSpeed-Chat blog: OPT-13B actor + OPT-350M critic/RM, step 3 in 9 h on 8 × A100-80GB over 131.9k prompts of
    # 256 + 256 tokens, 1,024 rollouts per step → ≈ 129 steps → ≈ 251 s per step (Llama-2-13B's shape stands in for
    # OPT-13B: 40 layers, d 5,120, MHA).  If the blog's 9 h counts one generation batch per 512 prompts, 126 s.
    Row("dschat_opt13b", _w(arch="llama2_13b", policy_b=13, rm_b=0.35, gpu="a100_80g", gpus=8, rollouts=1024,
                            prompt_tokens=256, response_tokens=256, epochs=1, placement="colocated", engine="hf"),
        (Published("total_s", 9 * 3600 / (131_900 / 1024), 2.0),),
        "dschat", "DeepSpeed-Chat OPT-13B step 3, 8 × A100-80GB (HF generate in the hybrid trainer)"),
    # NeMo RL v0.4 performance summary: Llama-3.1-8B GRPO on 16 H100s (DGX-H100, BF16, Megatron training, colocated
    # vLLM), 2,048 responses per step (64 prompts × 32 generations, the recipe grpo-llama3.1-8b-instruct-2n8g),
    # average sequence 1,060 tokens, longest 4,096, on-policy, math prompts of ≈ 200 tokens, a verifier, β = 0.01.
    Row("nemo_rl_llama31_8b", _w(arch="llama3_8b", policy_b=8.0, method="grpo", group=32, reward="verifier", kl=0.01,
                                 rollouts=2048, prompt_tokens=200, response_tokens=860, response_max_tokens=3896,
                                 gpu="h100_80g", gpus=16, placement="colocated", engine="vllm"),
        (Published("total_s", 97.7, 2.0),),
        "nemo_rl", "NeMo RL v0.4 GRPO, Llama-3.1-8B, 16 × H100, colocated vLLM, refit included"),
)
ROW_BY_ID = {r.id: r for r in ROWS}


@dataclass(frozen=True, slots=True)
class Comparison:
    figure: str
    published: float
    model: float
    tolerance: float

    @property
    def ratio(self) -> float:
        return self.model / self.published

    @property
    def within(self) -> bool:
        return self.published / self.tolerance <= self.model <= self.published * self.tolerance


def compare(row: Row, result: Result | None = None) -> tuple[Comparison, ...]:
    """The model's figure beside each published figure of ``row``."""
    step = (result or evaluate(row.inputs)).step
    return tuple(Comparison(p.figure, p.value, getattr(step, p.figure), p.tolerance) for p in row.published)
