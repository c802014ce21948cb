"""The diagram's phone form (issue 33) has one home, app/view/diagram.py: the block at the end of app/static/app.css
is generated from it (``phone_css``) and must equal it; every node has a cell of its own and every edge a path."""

from __future__ import annotations

from pathlib import Path

from app.model.stages import EDGES, NODE_IDS
from app.view import diagram

CSS = Path(diagram.__file__).resolve().parents[1] / "static" / "app.css"


def test_the_stylesheets_phone_block_is_the_generated_one() -> None:
    text = CSS.read_text(encoding="utf-8")
    assert text.count(diagram.PHONE_CSS_BEGIN) == 1
    block = diagram.PHONE_CSS_BEGIN + text.split(diagram.PHONE_CSS_BEGIN)[1]
    assert block == diagram.phone_css(), "app.css's phone block is stale: run `python -m app.view.diagram`"


def test_every_node_has_its_own_cell_inside_the_phone_viewbox() -> None:
    assert set(diagram.PHONE_GRID) == set(NODE_IDS)
    assert len(set(diagram.PHONE_GRID.values())) == len(NODE_IDS)
    _, _, width, height = diagram.PHONE_VIEWBOX
    for node, (x, y) in diagram.PHONE_POS.items():
        assert x > 0 and y > 0 and x + diagram.NODE_W < width and y + diagram.NODE_H < height, node
    # the GPU key sits in the one free cell, left of the last row's node
    assert diagram.PHONE_KEY[0] + 180 < diagram.PHONE_POS["metrics_log"][0]
    # two columns of 190 and their margins: 340 px shows the names at 11 px and more (15 × 340 / 452 = 11.3)
    assert 15 * 340 / width >= 11


def test_every_edge_has_a_phone_path() -> None:
    assert set(diagram.PHONE_EDGE_PATHS) == {e for e, *_ in EDGES}
    assert all(d.startswith("M") for d in diagram.PHONE_EDGE_PATHS.values())
