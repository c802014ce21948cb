"""URLs that hold a state: the lab's canonical query, preset and walkthrough links."""

from __future__ import annotations

from functools import cache, lru_cache
from urllib.parse import urlencode

from app.model import WorkloadInputs
from app.model.scenarios import PRESETS, WALKTHROUGH


@lru_cache(maxsize=2048)  # the page's own, the marker's and the language switch's: one encoding per state
def canonical_query(inputs: WorkloadInputs) -> str:
    """Every parameter in the contract's order (``step`` when set): one encoding for the page's own URL, the
    other language's, the compare page's and the form's."""
    return urlencode(inputs.query())


def lab_url(lang: str, inputs: WorkloadInputs, path: str = "", **changes) -> str:
    return f"/{lang}/{path}?{urlencode(inputs.query(**changes))}"


@cache
def preset_links(lang: str) -> tuple[tuple[str, str], ...]:
    """(preset id, URL) in card order."""
    return tuple((p.id, lab_url(lang, p.inputs)) for p in PRESETS)


@cache
def walk_links(lang: str) -> tuple[tuple[int, str, str], ...]:
    """(step number, URL, focus) in order."""
    return tuple((w.number, lab_url(lang, w.inputs), w.focus) for w in WALKTHROUGH)


_PRESET_OF = {p.inputs: p.id for p in reversed(PRESETS)}  # inputs → preset id (the first preset wins a tie)


def current_preset(inputs: WorkloadInputs) -> str | None:
    return _PRESET_OF.get(inputs.model_copy(update={"step": None}))


def walk_focus(inputs: WorkloadInputs) -> str | None:
    """The meter or node the current walkthrough step is about (highlighted on the page)."""
    return WALKTHROUGH[inputs.step - 1].focus if inputs.step else None
