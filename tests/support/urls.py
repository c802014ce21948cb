"""URLs and states every suite uses: the lab path of a workload, a URL's query, the presets and walkthrough steps,
and the one-notch moves of every slider and choice."""

from __future__ import annotations

import random
from urllib.parse import parse_qs, urlencode, urlsplit

from app.i18n import LANGS
from app.model import DEFAULTS, WorkloadInputs
from app.model.inputs import CHOICES, NUMBERS
from app.model.scenarios import PRESETS, WALKTHROUGH

__all__ = ["HTML_LANG", "HTMX", "LANGS", "STATES", "default_moves", "lab_path", "notches", "query_of", "random_moves"]

HTML_LANG = {"zh": "zh-CN", "en": "en"}
HTMX = {"HX-Request": "true"}

# Every workload the page is built around: the presets and the walkthrough steps.
STATES: dict[str, WorkloadInputs] = {
    **{f"preset-{p.id}": p.inputs for p in PRESETS},
    **{f"step-{w.number}": w.inputs for w in WALKTHROUGH},
}


def lab_path(lang: str, inputs: WorkloadInputs = DEFAULTS, **changes: object) -> str:
    return f"/{lang}/?{urlencode(inputs.query(**changes))}"


def query_of(url: str) -> dict[str, str]:
    """The query of a URL as {name: last value} (what normalise() reads)."""
    return {k: v[-1] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}


def notches(name: str) -> list[object]:
    """A slider's notches as the form sends them, or a choice's values."""
    for spec in NUMBERS:
        if spec.name == name:
            return [int(v) if spec.integer else v for v in spec.ladder]
    return list(next(c for c in CHOICES if c.name == name).choices)


def default_moves() -> list[tuple[str, dict[str, object], dict[str, object]]]:
    """Every one-notch move of every slider, both ways, and every choice switch, from the defaults."""
    moves = []
    for spec in NUMBERS:
        ladder = notches(spec.name)
        for a, b in zip(ladder, ladder[1:], strict=False):
            moves += [(f"{spec.name} {a}->{b}", {spec.name: a}, {spec.name: b}),
                      (f"{spec.name} {b}->{a}", {spec.name: b}, {spec.name: a})]
    for choice in CHOICES:
        for a in choice.choices:
            for b in choice.choices:
                if a != b:
                    moves.append((f"{choice.name} {a}->{b}", {choice.name: a}, {choice.name: b}))
    return moves


def random_moves(seed: int, n: int) -> list[tuple[str, dict[str, object], dict[str, object]]]:
    """n one-notch moves (or choice switches) from random states: every input on a random notch."""
    rng = random.Random(seed)
    names = [s.name for s in NUMBERS] + [c.name for c in CHOICES]
    moves = []
    for _ in range(n):
        state = {name: rng.choice(notches(name)) for name in names}
        name = rng.choice(names)
        values = notches(name)
        i = values.index(state[name])
        j = rng.choice([k for k in (i - 1, i + 1) if 0 <= k < len(values)]) if name in {s.name for s in NUMBERS} \
            else rng.choice([k for k in range(len(values)) if k != i])
        moves.append((f"{name} {values[i]}->{values[j]} in {state}", state, {**state, name: values[j]}))
    return moves
