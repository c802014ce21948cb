"""The page's figures are the API's: for the same states, every number the lab prints in its live regions — meters,
the stage header, the step and memory charts, the run, RL beside DPO, the training line — equals /api/evaluate's,
formatted as the page formats it.  A view-model built with two fields swapped (policy size for the reward model's,
RL memory for DPO's) shows a wrong figure here, not only in a browser."""

from __future__ import annotations

import html as _html
import re

import pytest
from support.html import parse
from support.urls import lab_path

from app.i18n import translator
from app.model import WorkloadInputs
from app.model.scenarios import PRESETS, WALKTHROUGH

STATES = {
    "default": WorkloadInputs(),
    **{f"preset-{p.id}": p.inputs for p in PRESETS},
    **{f"step-{w.number}": w.inputs for w in WALKTHROUGH if w.number in (4, 9, 12)},
    "qwen3-8b-rm-70b": WorkloadInputs(arch="qwen3_8b", rm_b=70),
    "does-not-fit": WorkloadInputs(policy_b=175, rm_b=175),
}


def _region(body: str, dom_id: str) -> str:
    """The text of the element with this id (its markup removed, whitespace folded)."""
    m = re.search(rf'<(\w+)[^>]*\sid="{re.escape(dom_id)}"', body)
    assert m, f"no #{dom_id} on the page"
    tag, start = m.group(1), m.start()
    depth, k = 0, start
    for t in re.finditer(rf"<(/?){tag}\b[^>]*>", body[start:]):
        depth += -1 if t.group(1) else 1
        if depth == 0:
            k = start + t.end()
            break
    return " ".join(_html.unescape(re.sub(r"<[^>]+>", " ", body[start:k])).split())


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("state", list(STATES))
def test_the_page_prints_the_apis_figures(client, lang: str, state: str) -> None:
    inputs = STATES[state]
    t = translator(lang)
    api = client.get("/api/evaluate?" + lab_path(lang, inputs).split("?", 1)[1]).json()
    body = client.get(lab_path(lang, inputs)).text
    doc = parse(body)
    # the meters: level and bar
    for mid, m in api["meters"].items():
        meter = [e for e in doc.having("data-meter") if e.get("data-meter") == mid]
        assert len(meter) == 1 and meter[0].get("aria-valuenow") == str(m["value"]), mid
    # the stage header names the model's bottleneck: memory when the stage's models do not fit
    header = [e for e in doc.having("data-bottleneck")]
    est, mem = api["estimates"], api["estimates"]["memory"]
    fits = not api["meters"]["train_memory"]["figure"].startswith(("meter.train_memory.figure_nofit",
                                                                   "meter.train_memory.figure_never"))
    assert len(header) == 1
    assert header[0].get("data-bottleneck") == api["bottleneck"]
    assert (api["bottleneck"] == "memory") == (not fits)
    # RL beside DPO: the memory row holds the RL loop's total, then DPO's
    vs = _region(body, "est-vs")
    rl_gb, dpo_gb = t.fmt("gb", mem["total_gb"]), t.fmt("gb", est["dpo"]["total_gb"])
    assert re.search(rf"{re.escape(rl_gb)}\s+{re.escape(dpo_gb)}", vs), (rl_gb, dpo_gb, vs)
    # the training line names the policy's size (not the reward model's)
    if api["stage"] not in ("sft_only", "reward_model", "dpo"):
        step = _region(body, "est-step")
        size = re.escape(t.fmt('b', api['inputs']['policy_b']))
        assert re.search(rf"a {size} policy\b" if lang == "en" else rf"policy 为 {size}", step), step
        phases = _region(body, "chart-step_phases")
        # generation's bar is the batch when the longest response adds a tail (its own bar)
        fields = ("scoring_s", "training_s", "total_s") + (("generation_s",) if est["step"]["tail_s"] <= 0 else ())
        for field in fields:
            if est["step"][field] > 0:
                assert t.fmt("dur", est["step"][field]) in phases, (field, phases)
        chart = _region(body, "chart-step_vs_gpus")
        if mem["fits"]:
            assert t.fmt("dur", est["step"]["total_s"]) in chart and t.fmt("gpus", api["inputs"]["gpus"]) in chart
        else:  # the marker has no time where the models do not fit; the header gives the step where they do
            assert t("chart.step.marker_nofit", gpus=api["inputs"]["gpus"]) in chart
            stage = _region(body, "live-stage")
            assert t.fmt("dur", est["step"]["total_s"]) in stage and t.fmt("gpus", est["timed_gpus"]) in stage
    # the run
    run = _region(body, "est-run")
    if est["run"]["steps"]:
        assert t.fmt("n", est["run"]["steps"]) in run and t.fmt("n", est["run"]["gpu_hours"]) in run, run
