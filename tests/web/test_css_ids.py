"""The stylesheet names some of the contract's ids by hand (the current stage on the evolution path, the current
preset card): every stage and preset id the model defines has its rule, and the stylesheet names no other."""

from __future__ import annotations

import re

from app import templating
from app.model.scenarios import PRESETS
from app.model.stages import STAGE_IDS

CSS = (templating.STATIC / "app.css").read_text(encoding="utf-8")


def test_every_stage_lights_its_place_on_the_evolution_path() -> None:
    named = set(re.findall(r'\.shape:has\(\[data-stage="(\w+)"\]\) \.p-(\w+)', CSS))
    assert named == {(s, s) for s in STAGE_IDS}


def test_every_preset_card_is_marked_when_it_is_the_current_state() -> None:
    named = set(re.findall(r'main:has\(\[data-current-preset="(\w+)"\]\) \[data-preset="(\w+)"\]', CSS))
    assert named == {(p.id, p.id) for p in PRESETS}


def test_the_stylesheet_names_no_unknown_stage() -> None:
    assert set(re.findall(r'data-stage="(\w+)"', CSS)) <= set(STAGE_IDS)
