"""The reality table: each published row of app/model/calibration.py beside the model's figure for the same
configuration (generation, training and step seconds), with the link that opens that configuration."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from app.model import evaluate
from app.model.calibration import ROWS

FIGURES = ("generation_s", "training_s", "total_s")  # the table's columns


@dataclass(frozen=True, slots=True)
class RealityRow:
    key: str                                   # the calibration row's id (its label: est.reality.<key>)
    model: tuple[float, ...]                   # the model's seconds, one per column of FIGURES
    published: tuple[float | None, ...]        # the published seconds (None: not published)
    source: str
    query: str

    @property
    def name_key(self) -> str:
        return f"est.reality.{self.key}"


def reality_rows() -> tuple[RealityRow, ...]:
    rows = []
    for row in ROWS:
        step = evaluate(row.inputs).step
        published = {p.figure: p.value for p in row.published}
        rows.append(RealityRow(row.id, tuple(getattr(step, f) for f in FIGURES),
                               tuple(published.get(f) for f in FIGURES), row.source, urlencode(row.inputs.query())))
    return tuple(rows)


REALITY = reality_rows()
