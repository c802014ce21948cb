"""The GPU split drawn on the diagram (issue 33, "one workload, one answer"): which GPU group runs which node, from
the plan (``Result.plan``: placement, groups, engine, trainer) — a frame round each working node in its group's
colour and a key with each group's GPUs — so a card and a step that differ in placement say so on the diagram."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from app.i18n import LANGS
from app.model import evaluate
from app.model.stages import NODE_PHASE, RL_STEP_NODES
from app.view.regions import placement_vm, state_regions, to_send
from tests.support.html import parse
from tests.support.urls import STATES, lab_path

ENGINE = {"vllm": "vLLM", "hf": "HF generate"}
TRAINER = {"fsdp": "FSDP", "megatron": "Megatron"}


def gpus(n: int) -> str:
    return f"{n} GPU" + ("s" if n != 1 else "")


def _drawn(html: str) -> tuple[str, dict[str, str], list[str]]:
    """(data-placement, {framed node: its frame's phase}, the key's lines as shown) of the page's diagram."""
    doc = parse(html)
    (svg,) = doc.having("id", "dg-placement")
    frames = {e.get("data-frame"): e.get("class").removeprefix("gf-") for e in doc.having("data-frame")}
    lines = [re.sub(r"\s+", " ", e.text).strip() for e in doc.elements if e.tag == "text"
             and (e.get("class") or "").startswith("gk-")]
    return svg.get("data-placement"), frames, lines


@pytest.mark.parametrize("name", sorted(STATES))
def test_the_diagram_draws_the_plans_gpu_split(client, name: str) -> None:  # noqa: ANN001
    r = evaluate(STATES[name])
    p = r.plan
    placement, frames, lines = _drawn(client.get(lab_path("en", STATES[name])).text)
    if p.rl and p.placement == "separate":
        assert placement == "separate"
        # each working node of the loop in its own group's colour
        assert frames == {n: NODE_PHASE[n] for n in RL_STEP_NODES if r.nodes[n].active}
        engine, trainer = ENGINE[p.engine.name], TRAINER[p.training.backend]
        assert lines[:6] == ["Generation", f"{engine} · {gpus(p.groups.generation)}", "Scoring",
                             f"{gpus(p.groups.scoring)}" if p.layout_case != "given_trainer" else "on the training GPUs",
                             "Training", f"{trainer} · {gpus(p.groups.training)}"]
    elif p.rl:
        assert placement == "colocated"
        assert set(frames.values()) == {"all"} and set(frames) == {n for n in RL_STEP_NODES if r.nodes[n].active}
        assert lines[:4] == ["Colocated", f"{p.groups.training} GPUs in turns", f"{ENGINE[p.engine.name]} generates,",
                             f"{TRAINER[p.training.backend]} trains"]
    else:
        assert placement == "train"
        assert set(frames) == {n for n in NODE_PHASE if r.nodes[n].active}
        assert all(phase == ("training" if NODE_PHASE[n] == "training" else "all") for n, phase in frames.items())
        assert lines[:2] == ["Training", f"{TRAINER[p.training.backend]} · {gpus(p.groups.training)}"]
    assert ("idle" in " ".join(lines)) == (p.groups.idle > 0)


def test_card_3_and_step_4_say_on_the_diagram_that_their_placement_differs(client) -> None:  # noqa: ANN001
    """The review's case: card 3 (colocated, 2.3 min) and step 4 (separate, 3.9 min) on the same 512 rollouts."""
    card, step = (_drawn(client.get(lab_path("en", STATES[k])).text) for k in ("preset-ppo_loop", "step-4"))
    assert card[0] == "colocated" and step[0] == "separate"
    assert card[2] != step[2]


@pytest.mark.parametrize("lang", LANGS)
def test_the_key_is_in_both_languages(client, lang: str) -> None:  # noqa: ANN001
    for name in ("step-4", "step-10", "step-1"):
        _, _, lines = _drawn(client.get(lab_path(lang, STATES[name])).text)
        assert lines and all(lines)
        if lang == "zh":
            assert not any(re.search(r"\b(GPUs|Generation|Training|Scoring|Colocated|in turns)\b", x) for x in lines)


def test_a_move_that_changes_the_split_sends_the_placement_region(client) -> None:  # noqa: ANN001
    """The GPU count and the placement are what a partial redraws the frames and the key for."""
    base = STATES["step-4"]
    before = state_regions(evaluate(base))
    for change in ({"gpus": 16}, {"placement": "colocated"}):
        now = state_regions(evaluate(base.model_copy(update=change)))
        assert "dg-placement" in {reg.dom_id for reg in to_send(before, now)}, change
        assert placement_vm(evaluate(base.model_copy(update=change))) != before["dg-placement"].vm
    r = client.get(f"/en/?{urlencode(base.query(gpus=16))}",
                   headers={"HX-Request": "true", "HX-Current-URL": f"http://testserver{lab_path('en', base)}"})
    assert 'id="dg-placement"' in r.text and "hx-swap-oob" in r.text.split('id="dg-placement"')[1][:400]
