"""A seeded sample of valid workloads, shared by the golden-output tests and the model benchmark."""

from __future__ import annotations

import random

from app.model.assumptions import ARCHS
from app.model.inputs import CHOICES, NUMBERS, WorkloadInputs


def random_inputs(count: int, seed: int) -> list[WorkloadInputs]:
    """Numbers from the slider ladders (70 %) or uniform in range, choices uniform; a named arch sets ``policy_b`` and
    the longest response is at least the mean, as ``normalise`` would make them.  The same list for a seed."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        values: dict[str, object] = {}
        for spec in NUMBERS:
            x = rng.choice(spec.ladder) if rng.random() < 0.7 else rng.uniform(spec.minimum, spec.maximum)
            values[spec.name] = int(round(x)) if spec.integer else float(x)
        for spec in CHOICES:
            values[spec.name] = rng.choice(spec.choices)
        if values["arch"] != "custom":
            values["policy_b"] = ARCHS[values["arch"]].total_b  # a named arch sets the size (as normalise does)
        values["response_max_tokens"] = max(values["response_max_tokens"], values["response_tokens"])
        out.append(WorkloadInputs(**values))
    return out
