"""The why-panel: the model's reasons for this state, and what moved since the previous one."""

from __future__ import annotations

from app.model import Result
from app.model.evaluate import Reason
from app.model.moves import Moves
from app.view.regions.record import frozen


@frozen
class WhyVM:
    reasons: tuple[Reason, ...]
    change: Moves | None
    stage: str
    bottleneck: str

    @property
    def changed(self) -> tuple[tuple[str, str, object, object], ...]:  # (name, its label's key, before, after)
        if self.change is None:
            return ()
        return tuple((c.name, f"input.{c.name}.label", c.before, c.after) for c in self.change.changed)

    @property
    def stage_keys(self) -> tuple[str, str] | None:  # the stage's name before and after, when it moved
        if self.change is None or not self.change.stage_before:
            return None
        return f"stage.{self.change.stage_before}.name", f"stage.{self.stage}.name"

    @property
    def bottleneck_keys(self) -> tuple[str, str] | None:  # the bottleneck node's name before and after
        if self.change is None or not self.change.bottleneck_before:
            return None
        return f"node.{self.change.bottleneck_before}.name", f"node.{self.bottleneck}.name"

    @property
    def meter_moves(self) -> tuple[tuple[object, str, bool], ...]:
        """(the move, its meter's label key, whether it went up), and whether its causes are named: only when
        several inputs changed at once (one input needs no naming)."""
        if self.change is None:
            return ()
        return tuple((mv, f"meter.{mv.meter}.label", mv.delta > 0) for mv in self.change.meters)

    @property
    def name_causes(self) -> bool:
        return self.change is not None and len(self.change.changed) > 1


def why_vm(r: Result, change: Moves | None = None) -> WhyVM:
    """The why-panel of ``r``; after a move it also says what moved (``change``)."""
    return WhyVM(reasons=r.reasons, change=change, stage=r.stage, bottleneck=r.bottleneck)
