"""A seeded sample of valid workloads, shared by the golden-output tests and the model benchmark."""

from __future__ import annotations

import random

from app.model.inputs import CHOICES, NUMBERS, WorkloadInputs


def random_inputs(count: int, seed: int) -> list[WorkloadInputs]:
    """Numbers from the slider ladders (70 %) or uniform in range, choices uniform; the same list for a seed.  The rules
    between parameters are left to ``effective``: a named arch keeps the drawn ``policy_b`` here and the model uses
    the arch's own size, a longest response below the mean is raised to it."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        values: dict[str, object] = {}
        for spec in NUMBERS:
            x = rng.choice(spec.ladder) if rng.random() < 0.7 else rng.uniform(spec.minimum, spec.maximum)
            values[spec.name] = int(round(x)) if spec.integer else float(x)
        for spec in CHOICES:
            values[spec.name] = rng.choice(spec.choices)
        out.append(WorkloadInputs(**values))
    return out
