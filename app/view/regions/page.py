"""The regions every state carries besides its figures: the state marker, the normalisation notices, and the links
that hold the state."""

from __future__ import annotations

from urllib.parse import urlencode

from app.model.inputs import Notice
from app.view.regions.record import frozen


@frozen
class LinksVM:
    """The links that hold the state (the other language, compare, launch, presenter view): the canonical query,
    and whether presenter view is on (kept by every link but the one that leaves it); ``counterpart_query``: the
    same workload under the other method (the compare link's ``b``)."""

    query: str
    present: bool
    counterpart_query: str = ""

    @property
    def compare_query(self) -> str:
        """The compare page of this state (``a``) and its counterpart (``b``), each a whole lab query."""
        return urlencode({"a": self.query, "b": self.counterpart_query, **({"present": "1"} if self.present else {})})


@frozen
class MarkerVM:
    query: str
    preset: str | None
    focus: str | None
    walk_moved: bool = False  # a walkthrough state whose controls moved away from the step's (app.css shows a note)


@frozen
class NoticesVM:
    notices: tuple[Notice, ...]
