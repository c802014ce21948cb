"""The whiteboard diagram's geometry: node boxes on a grid, the five group boxes, one SVG path per edge.

All of it is static (built at import); a node's or an edge's state comes from the model (app/model/stages.py).
"""

from __future__ import annotations

from app.model.stages import EDGES

VIEWBOX = (0, 0, 1075, 500)  # x, y, width, height: the one home of the diagram's size
NODE_W, NODE_H = 190, 66
COLS = (20, 230, 440, 650, 865)
ROWS = (62, 222, 382)
NODE_POS: dict[str, tuple[int, int]] = {
    "demonstrations": (COLS[0], ROWS[0]),
    "preference_data": (COLS[0], ROWS[2]),
    "sft_trainer": (COLS[1], ROWS[0]),
    "rm_trainer": (COLS[1], ROWS[2]),
    "reward_model": (COLS[2], ROWS[2]),
    "rollout_gen": (COLS[2], ROWS[0]),
    "reference_model": (COLS[3], ROWS[0]),
    "policy_update": (COLS[3], ROWS[1]),
    "model_registry": (COLS[4], ROWS[0]),
    "eval_harness": (COLS[4], ROWS[1]),
    "metrics_log": (COLS[4], ROWS[2]),
}
GROUP_LABEL_DX, GROUP_LABEL_DY = 14, 24  # a group's name, from its box's top-left corner
GROUPS = tuple((gid, x, y, w, h, x + GROUP_LABEL_DX, y + GROUP_LABEL_DY) for gid, x, y, w, h in (
    # id, x, y, width, height (then the name's x, y)
    ("data", 8, 20, 214, 470),
    ("sft", 218, 20, 214, 130),
    ("reward", 218, 328, 424, 162),  # its top 12 px higher than the rows' 18 px rule: its name clears the
    ("rl", 428, 20, 434, 296),       # RM trainer's flag at presenter sizes (read36: "REMOVED" overprinted it)
    ("eval", 853, 20, 214, 470),
))
FLAG_X = NODE_W - 3  # a node's flag (bottleneck, removed …): right-aligned at the box's right edge

Point = tuple[float, float]


def anchor(node: str, side: str) -> Point:
    """A point on a node's box: its left/right/top/bottom middle, or 30 px in from a corner (tr, br, bl, tl)."""
    x, y = NODE_POS[node]
    return {
        "l": (x, y + NODE_H / 2), "r": (x + NODE_W, y + NODE_H / 2),
        "t": (x + NODE_W / 2, y), "b": (x + NODE_W / 2, y + NODE_H),
        "tr": (x + NODE_W - 30, y), "br": (x + NODE_W - 30, y + NODE_H),
        "bl": (x + 30, y + NODE_H), "tl": (x + 30, y),
    }[side]


def line(p: Point, q: Point) -> str:
    return f"M{p[0]:.0f},{p[1]:.0f} L{q[0]:.0f},{q[1]:.0f}"


def cubic(p: Point, c1: Point, c2: Point, q: Point) -> str:
    return f"M{p[0]:.0f},{p[1]:.0f} C{c1[0]:.0f},{c1[1]:.0f} {c2[0]:.0f},{c2[1]:.0f} {q[0]:.0f},{q[1]:.0f}"


def curve(p: Point, c: Point, q: Point) -> str:
    return f"M{p[0]:.0f},{p[1]:.0f} Q{c[0]:.0f},{c[1]:.0f} {q[0]:.0f},{q[1]:.0f}"


def edge_path(edge: str, a: str, b: str) -> str:
    """One edge's SVG path: straight where the grid allows, curved around nodes elsewhere."""
    routes = {
        "sft_reference": lambda: curve(anchor(a, "tr"), (530, -12), anchor(b, "tl")),
        "update_rollout": lambda: curve(anchor(a, "l"), (560, 250), anchor(b, "br")),
        "reward_update": lambda: curve(anchor(a, "tr"), (640, 330), anchor(b, "bl")),
        "pairs_update": lambda: cubic(anchor(a, "b"), (115, 492), (745, 492), anchor(b, "b")),
        "update_registry": lambda: curve(anchor(a, "tr"), (850, 160), anchor(b, "bl")),
        "update_metrics": lambda: curve(anchor(a, "br"), (850, 340), anchor(b, "tl")),
        "rollout_reward": lambda: line(anchor(a, "b"), anchor(b, "t")),
        "reference_update": lambda: line(anchor(a, "b"), anchor(b, "t")),
        "eval_registry": lambda: line(anchor(a, "t"), anchor(b, "b")),
    }
    return routes[edge]() if edge in routes else line(anchor(a, "r"), anchor(b, "l"))


EDGE_PATHS: dict[str, str] = {eid: edge_path(eid, a, b) for eid, a, b, _ in EDGES}


# The GPU split drawn on the diagram (issue 33): a frame round each working node in its GPU group's colour, and the
# groups' key in the one empty cell of the grid (between the SFT and the reward-model groups, left of the RL loop).
FRAME_PAD = 6  # a frame's gap round its node's box
KEY_X, KEY_TOP, KEY_LINE, KEY_GAP = COLS[1] + 6, 178, 19, 7  # the key's left edge, first baseline, line and gap


# --- the phone's form (issue 33: the diagram fits 390 px): the same nodes in two columns, six rows, so the names
# stay 11 px and more on a 340 px frame.  app.js swaps the viewBox on a narrow screen (``data-layout="phone"``);
# the positions below reach the page as CSS, generated into the marked block at the end of app/static/app.css
# (``phone_css``; a test keeps the block equal to it, and the page keeps its one stylesheet).  Without JavaScript the wide diagram scrolls sideways in its frame, as before.
PHONE_COLS = (24, 238)  # a margin each side for the edges that go round a column
PHONE_ROWS = (26, 122, 218, 314, 410, 506)
PHONE_GRID: dict[str, tuple[int, int]] = {  # (column, row): the pipeline reads top to bottom
    "demonstrations": (0, 0), "preference_data": (1, 0),
    "sft_trainer": (0, 1), "rm_trainer": (1, 1),
    "rollout_gen": (0, 2), "reward_model": (1, 2),
    "reference_model": (0, 3), "policy_update": (1, 3),
    "eval_harness": (0, 4), "model_registry": (1, 4),
    "metrics_log": (1, 5),
}
PHONE_POS: dict[str, tuple[int, int]] = {n: (PHONE_COLS[c], PHONE_ROWS[r]) for n, (c, r) in PHONE_GRID.items()}
PHONE_KEY = (PHONE_COLS[0] + 6, PHONE_ROWS[5] + 14)  # the GPU key in the last row's free cell (its first baseline)
PHONE_VIEWBOX = (0, 0, PHONE_COLS[1] + NODE_W + 24, PHONE_ROWS[5] + 170)


def _phone_anchor(node: str, side: str, at: float = 0.5) -> Point:
    x, y = PHONE_POS[node]
    return {"l": (x, y + NODE_H * at), "r": (x + NODE_W, y + NODE_H * at), "t": (x + NODE_W * at, y),
            "b": (x + NODE_W * at, y + NODE_H)}[side]


def phone_edge_path(a: str, b: str) -> str:
    """One edge on the phone's grid: along a row, side to side; down one row, bottom to top; further down the same
    column, round the column's outer margin; across columns and rows, corner to corner."""
    (ca, ra), (cb, rb) = PHONE_GRID[a], PHONE_GRID[b]
    if ra == rb:
        return line(_phone_anchor(a, "r" if ca < cb else "l"), _phone_anchor(b, "l" if ca < cb else "r"))
    down = rb > ra
    if ca == cb and abs(ra - rb) == 1:
        return line(_phone_anchor(a, "b" if down else "t"), _phone_anchor(b, "t" if down else "b"))
    if ca == cb:  # round the outside: the left column's left margin, the right column's right one
        side, out = ("l", -20) if ca == 0 else ("r", 20)
        p, q = _phone_anchor(a, side, .7 if down else .3), _phone_anchor(b, side, .3 if down else .7)
        return cubic(p, (p[0] + out, p[1]), (q[0] + out, q[1]), q)
    right = cb > ca
    p = _phone_anchor(a, "b" if down else "t", .8 if right else .2)
    q = _phone_anchor(b, "t" if down else "b", .2 if right else .8)
    return line(p, q)


PHONE_EDGE_PATHS: dict[str, str] = {eid: phone_edge_path(a, b) for eid, a, b, _ in EDGES}


def phone_css() -> str:
    """The phone's form as CSS (SVG 2 geometry properties: a node's translate, an edge's ``d``, a frame's x and y,
    the key's offset), every rule under ``.diagram[data-layout="phone"]``."""
    scope = '.diagram[data-layout="phone"]'
    out = [PHONE_CSS_BEGIN, "@media (max-width: 640px) {", f"{scope} .grp {{ display: none; }}"]
    out += [f'{scope} g[data-pos="{n}"] {{ transform: translate({x}px, {y}px); }}' for n, (x, y) in PHONE_POS.items()]
    out += [f'{scope} path[data-edge="{e}"] {{ d: path("{d}"); }}' for e, d in PHONE_EDGE_PATHS.items()]
    out += [f'{scope} rect[data-frame="{n}"] {{ x: {x - FRAME_PAD}px; y: {y - FRAME_PAD}px; }}'
            for n, (x, y) in PHONE_POS.items()]
    dx, dy = PHONE_KEY[0], PHONE_KEY[1] - KEY_TOP  # the key's own translate(KEY_X, 0), replaced
    out.append(f"{scope} .gkey {{ transform: translate({dx}px, {dy}px); }}")
    out += ["}", PHONE_CSS_END]
    return "\n".join(out) + "\n"


PHONE_CSS_BEGIN = "/* --- generated by app/view/diagram.py (phone_css): the diagram's phone form (issue 33); do not edit by hand */"
PHONE_CSS_END = "/* --- end of the generated phone form (`python -m app.view.diagram` writes it again) */"


def write_phone_css(path: str) -> None:
    """Replace the generated block at the end of the stylesheet at ``path`` with ``phone_css()``."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head = text.split(PHONE_CSS_BEGIN)[0].rstrip("\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + "\n\n" + phone_css())


if __name__ == "__main__":
    from pathlib import Path

    write_phone_css(str(Path(__file__).resolve().parents[1] / "static" / "app.css"))
