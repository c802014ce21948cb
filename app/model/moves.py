"""What moved since the previous state: the parameters that changed, each meter that moved and which parameter
moved it, and whether the stage or the bottleneck changed.  Pure; the "why it changes" panel formats it."""

from __future__ import annotations

from dataclasses import dataclass

from app.model.evaluate import Result, evaluate
from app.model.inputs import PARAM_NAMES
from app.model.meters import METER_IDS


@dataclass(frozen=True, slots=True)
class Changed:
    name: str
    before: float | str
    after: float | str


@dataclass(frozen=True, slots=True)
class MeterMove:
    meter: str
    before: int
    after: int
    causes: tuple[str, ...]  # the parameters that move this meter on their own (all changed ones if none does)

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class Moves:
    changed: tuple[Changed, ...]
    meters: tuple[MeterMove, ...]
    stage_before: str | None       # the previous stage, when it differs
    bottleneck_before: str | None  # the previous bottleneck node, when it differs


def moves(previous: Result, result: Result) -> Moves:
    """Compare two evaluated states.  When several parameters changed at once, the previous state is evaluated
    again with each changed parameter alone, so a meter's move names the parameters that cause it.

    >>> from app.model import DEFAULTS
    >>> before = evaluate(DEFAULTS)
    >>> after = evaluate(DEFAULTS.model_copy(update={"rollouts": 1024}))
    >>> m = moves(before, after)
    >>> [c.name for c in m.changed], m.meters[0].meter, m.meters[0].causes
    (['rollouts'], 'rollout_load', ('rollouts',))
    """
    b_in, a_in = previous.inputs, result.inputs
    changed = tuple(Changed(p, getattr(b_in, p), getattr(a_in, p)) for p in PARAM_NAMES
                    if getattr(b_in, p) != getattr(a_in, p))
    names = tuple(c.name for c in changed)
    alone = {} if len(names) < 2 else {
        p: evaluate(b_in.model_copy(update={p: getattr(a_in, p)})) for p in names}
    meter_moves = []
    for mid in METER_IDS:
        b, a = previous.meters[mid].value, result.meters[mid].value
        if a == b:
            continue
        causes = names if len(names) < 2 else (tuple(p for p in names if alone[p].meters[mid].value != b) or names)
        meter_moves.append(MeterMove(mid, b, a, causes))
    return Moves(
        changed=changed,
        meters=tuple(meter_moves),
        stage_before=previous.stage if previous.stage != result.stage else None,
        bottleneck_before=previous.bottleneck if previous.bottleneck != result.bottleneck else None,
    )
