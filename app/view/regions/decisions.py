"""The decision cards' live part: each card's badge and reason."""

from __future__ import annotations

from app.model.decisions import Decision
from app.view.regions.record import frozen


@frozen
class DecisionVM:
    id: str
    decision: Decision

    @property
    def state_key(self) -> str:
        return f"decision.state.{self.decision.state}"

    @property
    def title_key(self) -> str:  # the card's title and summary (outside the region: they never change)
        return f"decision.{self.id}.title"

    @property
    def summary_key(self) -> str:
        return f"decision.{self.id}.summary"
