"""URLs that hold a state: the lab's canonical query, preset and walkthrough links."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from urllib.parse import quote_plus, urlencode

from app.model import WorkloadInputs
from app.model.scenarios import PRESETS, WALKTHROUGH

_PLAIN = re.compile(r"[A-Za-z0-9_.~-]*")  # what quote_plus leaves as it is: every number and choice the lab writes


@lru_cache(maxsize=2048)  # the page's own, the marker's and the language switch's: one encoding per state
def canonical_query(inputs: WorkloadInputs) -> str:
    """Every parameter in the contract's order (``step`` when set): one encoding for the page's own URL, the
    other language's, the compare page's and the form's.  The same text as ``urlencode``, which quotes character by
    character; values that need no quoting (all of the lab's) are written as they are.

    >>> canonical_query(WorkloadInputs()) == urlencode(WorkloadInputs().query())
    True
    """
    return "&".join(f"{k}={v if _PLAIN.fullmatch(v) else quote_plus(v)}" for k, v in inputs.query().items())


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
