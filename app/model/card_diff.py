"""One workload, one answer: a walkthrough step beside the evolution card nearest its workload.

Five steps show a card's workload exactly (their figures are the card's); others change one or two inputs of a
card, sometimes only the placement, which a learner does not see.  Where an RL step differs from its card in one
or two inputs and the step time differs too, the step says what differs and quotes both times, so "2.3 min on the
card, 3.9 min in the walkthrough" is one workload placed two ways, not two answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from app.model.evaluate import evaluate
from app.model.inputs import PARAM_NAMES
from app.model.scenarios import PRESETS, WALKTHROUGH

frozen = dataclass(frozen=True, slots=True, kw_only=True)

MAX_CHANGES = 2        # more differences than this: a different workload, not the card's
SAME_STEP_REL = 0.005  # step times within 0.5 %: the same answer, nothing to say


@frozen
class CardDiff:
    step: int
    card: int                     # the card's place on the evolution path (1 …)
    preset: str
    changed: tuple[tuple[str, object, object], ...]  # (input, the card's value, the step's value), in form order
    card_step_s: float
    step_s: float


def nearest_card(n: int) -> tuple[int, tuple[str, ...]]:
    """The card whose workload differs from step ``n``'s in the fewest inputs, and those inputs (the first such
    card on the path when several tie).

    >>> nearest_card(5), nearest_card(4)
    ((4, ()), (3, ('placement',)))
    """
    step = WALKTHROUGH[n - 1].inputs
    best: tuple[int, tuple[str, ...]] | None = None
    for k, p in enumerate(PRESETS, 1):
        diff = tuple(name for name in PARAM_NAMES if name != "step" and getattr(step, name) != getattr(p.inputs, name))
        if best is None or len(diff) < len(best[1]):
            best = (k, diff)
    assert best is not None
    return best


@cache
def card_diff(n: int) -> CardDiff | None:
    """What step ``n`` changes of its nearest card, with both step times; None when it shows the card's workload,
    changes more than ``MAX_CHANGES`` inputs, has no RL step, or takes the same time.

    >>> d = card_diff(4)
    >>> d.card, d.changed, d.step_s > d.card_step_s
    (3, (('placement', 'colocated', 'separate'),), True)
    """
    card, changed = nearest_card(n)
    if not 0 < len(changed) <= MAX_CHANGES:
        return None
    p = PRESETS[card - 1]
    a, b = evaluate(p.inputs), evaluate(WALKTHROUGH[n - 1].inputs)
    if not (a.plan.rl and b.plan.rl and a.timed and b.timed):
        return None
    if abs(a.step.total_s - b.step.total_s) <= SAME_STEP_REL * a.step.total_s:
        return None
    return CardDiff(step=n, card=card, preset=p.id,
                    changed=tuple((name, getattr(p.inputs, name), getattr(b.inputs, name)) for name in changed),
                    card_step_s=a.step.total_s, step_s=b.step.total_s)


__all__ = ["CardDiff", "card_diff", "nearest_card"]
