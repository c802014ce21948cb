"""A walkthrough step beside its nearest evolution card (``app/model/card_diff.py``), as the step's answer says it:
the card, what the step changes of it (each input by its form label, the card's value as the form shows it) and
both step times."""

from __future__ import annotations

from dataclasses import dataclass

from app.model.card_diff import card_diff

frozen = dataclass(frozen=True, slots=True, kw_only=True)


@frozen
class CardDiffVM:
    card: int
    title_key: str
    changes: tuple[tuple[str, str, str | int | float], ...]  # (input, its label's key, the card's value)
    card_s: float
    step_s: float


def card_diff_vm(n: int) -> CardDiffVM | None:
    d = card_diff(n)
    if d is None:
        return None
    return CardDiffVM(card=d.card, title_key=f"preset.{d.preset}.title",
                      changes=tuple((name, f"input.{name}.label", card_value) for name, card_value, _ in d.changed),
                      card_s=d.card_step_s, step_s=d.step_s)


__all__ = ["CardDiffVM", "card_diff_vm"]
