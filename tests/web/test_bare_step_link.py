"""One workload, one answer (issue 33): a bare step link (``/en/?step=10``, as an instructor types it) opens the
step's own workload — the stage, the meters and the diagram its own link shows — not the default state under the
step's question; a step link that carries a parameter keeps it (the instructor's change)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from app.i18n import LANGS
from app.model import DEFAULTS
from app.model.scenarios import WALKTHROUGH
from tests.support.html import parse

STEPS = [w.number for w in WALKTHROUGH]  # however many steps the walkthrough has


def _shown(client, path: str) -> dict:  # noqa: ANN001
    """What the page shows of a state: its stage, every meter's value, each node's state and the moved note."""
    r = client.get(path)
    assert r.status_code == 200, path
    doc = parse(r.text)
    return {
        "stage": [e.get("data-stage") for e in doc.having("data-stage")],
        "meters": {e.get("data-meter"): e.get("aria-valuenow") for e in doc.having("data-meter")},
        "nodes": {e.get("data-node"): (e.get("data-active"), e.get("class")) for e in doc.having("data-node")},
        "moved": "data-walk-moved" in doc.by_id("live-marker").attrs,
    }


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", STEPS)
def test_a_bare_step_link_opens_the_steps_own_workload(client, lang: str, n: int) -> None:  # noqa: ANN001
    own = _shown(client, f"/{lang}/?{urlencode(WALKTHROUGH[n - 1].inputs.query())}")
    assert not own["moved"]
    for flags in ("", "&present=1", "&present=1&lang=zh&colour=blue"):  # view flags and unknown names aside
        bare = _shown(client, f"/{lang}/?step={n}{flags}")
        assert bare == own, f"/{lang}/?step={n}{flags} does not open step {n}'s workload"


def test_step_10_bare_is_grpo_not_the_default_ppo_loop(client) -> None:  # noqa: ANN001
    """The review's case: the stage under step 10's GRPO question said "PPO rollout loop"."""
    assert DEFAULTS.method == "ppo" and WALKTHROUGH[9].inputs.method == "grpo"
    assert _shown(client, "/en/?step=10")["stage"] == ["grpo"]
    r = client.get("/en/?step=10")
    doc = parse(r.text)
    assert [e.get("value") for e in doc.having("name", "method", "input") if "checked" in e.attrs] == ["grpo"]


@pytest.mark.parametrize("n", STEPS)
def test_a_step_link_with_a_parameter_keeps_it(client, n: int) -> None:  # noqa: ANN001
    """Any model parameter beside ``step`` is the instructor's change: the page shows that state and says it moved."""
    gpus = 32 if WALKTHROUGH[n - 1].inputs.gpus != 32 else 64
    shown = _shown(client, f"/en/?step={n}&gpus={gpus}")
    doc = parse(client.get(f"/en/?step={n}&gpus={gpus}").text)
    assert [e.get("value") for e in doc.having("name", "gpus", "input")][:1] == [str(gpus)]
    assert shown["moved"]
