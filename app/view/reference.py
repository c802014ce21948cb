"""The published measurements shown beside the model's estimate for the same configuration (the reality table)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from app.model import evaluate
from app.model.scenarios import _w


@dataclass(frozen=True, slots=True)
class RealityRow:
    key: str
    model: tuple[float, float, float]               # generation, training, step seconds
    published: tuple[float | None, float | None, float | None]
    source: str
    query: str


def reality_rows() -> tuple[RealityRow, ...]:
    openrlhf = _w(policy_b=7, rm_b=7, rollouts=1024, prompt_tokens=1024, response_tokens=1024, gpus=8,
                  gpu="a100_80g", placement="separate")
    hybrid = openrlhf.model_copy(update={"placement": "colocated"})
    dschat = _w(policy_b=13, rm_b=0.35, rollouts=1024, prompt_tokens=256, response_tokens=256, gpus=8,
                gpu="a100_80g", placement="colocated")
    rows = []
    for key, inputs, published, source in (
        ("openrlhf", openrlhf, (482, 403, 885), "openrlhf"),
        ("hybrid", hybrid, (697, 492, 1189), "openrlhf"),
        ("dschat", dschat, (None, None, 250), "dschat"),
    ):
        s = evaluate(inputs).step
        rows.append(RealityRow(key, (s.generation_s, s.training_s, s.total_s), published, source,
                               urlencode(inputs.query())))
    return tuple(rows)


REALITY = reality_rows()
