"""How every region's view-model is declared: frozen (a partial compares view-models by value, so they must not
change once built), slotted, and keyword-only (a record of many fields filled by position lets two arguments swap
unseen)."""

from __future__ import annotations

from dataclasses import dataclass

frozen = dataclass(frozen=True, slots=True, kw_only=True)
