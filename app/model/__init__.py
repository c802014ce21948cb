"""The RLHF workload model: pure Python, no web imports.  ``evaluate(inputs) -> Result``."""

from app.model.evaluate import Result, evaluate
from app.model.inputs import DEFAULTS, WorkloadInputs, normalise

__all__ = ["DEFAULTS", "Result", "WorkloadInputs", "evaluate", "normalise"]
