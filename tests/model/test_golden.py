"""The model gives exactly the recorded outputs (see golden.py): optimisations must not change a figure."""

from __future__ import annotations

import json

import pytest

from app.model import WorkloadInputs, evaluate

from .golden import GOLDEN_PATH, digest, figures, named_inputs

GOLDEN = json.loads(GOLDEN_PATH.read_text())
NAMED = named_inputs()


@pytest.mark.parametrize("name", sorted(GOLDEN["named"]))
def test_named_results_unchanged(name: str) -> None:
    # results of the default inputs, every preset and every walkthrough step, bit for bit
    assert figures(evaluate(NAMED[name])) == GOLDEN["named"][name]


def test_random_results_unchanged() -> None:
    # 300 seeded random workloads, compared by SHA-256 of their result
    changed = [
        case["inputs"] for case in GOLDEN["random"]
        if digest(figures(evaluate(WorkloadInputs(**case["inputs"])))) != case["sha256"]
    ]
    assert changed == [], f"{len(changed)} results changed, first: {changed[:1]}"


def test_golden_covers_presets_and_walkthrough() -> None:
    assert set(GOLDEN["named"]) == set(NAMED)
    assert len(GOLDEN["random"]) == 300
