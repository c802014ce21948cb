"""Recorded model outputs, so that optimising ``app/model`` cannot silently change a figure.

``golden_results.json`` was written by the model *before* the hot-path optimisation (issue 2) with::

    .venv/bin/python -m tests.model.golden      # from the project root; rewrites the file

Re-record only when a change of results is intended, and say so in the commit message.

It holds the result of the default inputs, of every preset and of every walkthrough step, and a SHA-256 of
the result for a seeded random sample of inputs (bit-exact: floats are stored by ``repr``).  The diagram's
edge list is left out: it is topology (which arrows the page draws), not a figure, and test_formulas checks the
edge rules; everything else in ``Result`` is recorded.

History: recorded before the optimisation (which left every output bit-identical); re-recorded once for the
ppo_memory fix (per-GPU memory on the widest engine layout, see physics.ppo_memory), which changed only
``memory.per_gpu_gb`` / ``generation_per_gpu_gb`` and the train_memory meter figures that show them.
Re-recorded once, deliberately, for the second edition of the model (issue 15; docs/model.md "What moved"): every
RL-step figure moved (GQA custom shape, engines, the layout search, interconnect, activations, the tail), the
inputs gained nine parameters, the presets a seventh, the decisions two more.
Re-recorded once, deliberately, for the third native read of the zh pages (issue 17): no physics figure moved; only
text keys and their arguments did — the scoring meter's figure key (all of it hidden / nothing overlaps), the
decisions' reasons and arguments (GRPO's Reward model vs DPO and KL cards, DPO's eval card, and the DPO state's
Reward model vs DPO card now quoting the PPO counterpart: 252 GB and its step instead of 140 GB).
Re-recorded once, deliberately, for the fourth native read (docs/i18n/reads/zh-read-4.md): no physics figure moved
(physics.py and evaluate.py untouched); only text keys and arguments did — the train_memory meter's figure key in
an RL loop (figure_rl: the KV cache is not counted), the rollout meter's when the step is generation (figure_all),
the eval card's new ``gate_every`` argument, and the decisions' reasons where they now follow the state
(hf_separate / hf_unsharded, ok_colocated, grpo_low) in the random sample.
Re-recorded once, deliberately, for the fifth native read (docs/i18n/reads/zh-read-5.md): no physics figure moved
(physics.py untouched); only text keys and arguments did — one-GPU keys (figure_nofit_one, formula_one,
why.memory.*_one, why.offline.*_one), why.bottleneck.nofit when the states do not fit, the rollout card's nofit and
async reasons with a new ``peak_gb`` argument, the bottleneck reason's ``per_gpu_gb`` / ``min_gpus`` and the stage
reason's ``share`` arguments, and the KL card's badge (trade_off when the KL meter warns).
Re-recorded once, deliberately, for the expert/dense split (issue 24 §C, branch arch): a MoE model's routed-expert
parameters now come from its shape (moe_layers · experts · 3 · hidden · expert_hidden) instead of from total and
active counts; only MoE decode weight reads moved, by < 0.2 % (DeepSeek-V3: 653.9 B routed instead of 654.5 B).
Re-recorded once more on branch arch for the named shapes of MODEL-FRONTIER §C: ten more ``arch`` choices and
``policy_b`` up to 1,100 B (Kimi-K2) change the seeded random sample itself; no rule changed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

from pydantic import BaseModel

from app.model import DEFAULTS, WorkloadInputs, evaluate, sampling
from app.model.scenarios import PRESETS, WALKTHROUGH

GOLDEN_PATH = Path(__file__).with_name("golden_results.json")
RANDOM_SEED = 20240611
RANDOM_COUNT = 300


def plain(obj: object) -> object:
    """A result as JSON-ready data: dataclasses and pydantic models become dicts, floats keep their repr."""
    if isinstance(obj, BaseModel):
        return {k: plain(v) for k, v in obj.model_dump().items()}
    if isinstance(obj, tuple) and hasattr(obj, "_asdict"):  # the named tuples (meters, nodes, decisions)
        return {k: plain(v) for k, v in obj._asdict().items()}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [plain(v) for v in obj]
    if isinstance(obj, float):
        return repr(obj)  # exact, and inf/nan survive JSON
    return obj


def figures(result: object) -> dict:
    """``plain(result)`` without the diagram's edge list."""
    data = plain(result)
    assert isinstance(data, dict)
    data.pop("edges")
    return data


def digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def random_inputs(count: int = RANDOM_COUNT, seed: int = RANDOM_SEED) -> list[WorkloadInputs]:
    """A seeded sample: numbers from the slider ladders or uniform in range, choices uniform."""
    return sampling.random_inputs(count, seed)


def named_inputs() -> dict[str, WorkloadInputs]:
    named = {"default": DEFAULTS}
    named.update({f"preset:{p.id}": p.inputs for p in PRESETS})
    named.update({f"walk:{w.number}": w.inputs for w in WALKTHROUGH})
    return named


def record() -> dict:
    return {
        "named": {name: figures(evaluate(inp)) for name, inp in named_inputs().items()},
        "random": [
            {"inputs": inp.model_dump(), "sha256": digest(figures(evaluate(inp)))} for inp in random_inputs()
        ],
    }


if __name__ == "__main__":
    GOLDEN_PATH.write_text(json.dumps(record(), indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"wrote {GOLDEN_PATH}")
