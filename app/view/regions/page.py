"""The regions every state carries besides its figures: the state marker, the normalisation notices, and the links
that hold the state."""

from __future__ import annotations

from app.model.inputs import Notice
from app.view.regions.record import frozen


@frozen
class LinksVM:
    """The links that hold the state (the other language, compare, launch, presenter view): the canonical query,
    and whether presenter view is on (kept by every link but the one that leaves it)."""

    query: str
    present: bool


@frozen
class MarkerVM:
    query: str
    preset: str | None
    focus: str | None
    walk_moved: bool = False  # a walkthrough state whose controls moved away from the step's (app.css shows a note)


@frozen
class NoticesVM:
    notices: tuple[Notice, ...]
