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
    ("reward", 218, 340, 424, 150),
    ("rl", 428, 20, 434, 300),
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
