"""The compare page: any two of PPO / GRPO / DPO side by side, what disappears, what each phase and meter does.

httpx through the in-process ``client``; the expected values come from the model (``evaluate``), not from the page.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest
from support.html import parse
from support.urls import LANGS, query_of

from app.i18n import translator
from app.i18n.formats import row_duration_unit
from app.model import DEFAULTS, evaluate, normalise
from app.model.compare import METHOD_KL, ROW_IDS, node_diff, phase_rows, with_method
from app.model.meters import METER_IDS
from app.model.scenarios import WALKTHROUGH

PAIRS = [("ppo", "grpo"), ("ppo", "dpo"), ("grpo", "dpo")]


def _page(client, lang: str, query: dict) -> tuple[str, object]:
    r = client.get(f"/{lang}/compare?{urlencode(query)}")
    assert r.status_code == 200, r.text[:300]
    return r.text, parse(r.text)


def _notices(doc) -> list[str]:
    return [e.text for e in doc.elements if "notices" in (e.get("class") or "").split()]


def _sides(doc) -> tuple[dict[str, str], dict[str, str]]:
    """The queries of the two "open in the lab" links (left, right)."""
    links = {}
    for side in ("left", "right"):
        section = next(k for k, e in enumerate(doc.elements) if e.get("data-side") == side)
        link = next(e for e in doc.elements[section:] if e.tag == "a" and e.get("class") == "button")
        links[side] = query_of(link.get("href"))
    return links["left"], links["right"]


def _cells(doc, row_id: str) -> list[str]:
    k = next(k for k, e in enumerate(doc.elements) if e.get("data-compare-row") == row_id)
    return [e.text.strip() for e in doc.elements[k + 1:k + 5] if e.tag in ("th", "td")]


# --- the default pair ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("left", "right"), [("ppo", "grpo"), ("grpo", "ppo"), ("dpo", "ppo")])
def test_default_other_method(client, left, right):
    # GRPO's usual β is verl's kl_loss_coef 0.001 and its group 8; PPO's InstructGPT's 0.02; DPO's 0.1
    query = with_method(DEFAULTS, left).query()
    text, doc = _page(client, "en", query)
    a, b = _sides(doc)
    assert a["method"] == left and b["method"] == right
    assert float(b["kl"]) == METHOD_KL[right] == {"ppo": 0.02, "grpo": 0.001, "dpo": 0.1}[right]
    if right == "grpo":
        assert b["group"] == "8"
    assert doc.having("data-methods", f"{left}-{right}")
    assert not _notices(doc)


# --- each pair: links, removed / added, state changes, rows ------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("m_a", "m_b"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_each_pair_renders_and_matches_the_model(client, lang, m_a, m_b):
    # start from another pair's page and follow this pair's link, as a reader would
    _, start = _page(client, lang, WALKTHROUGH[3].inputs.query(step=None) | {"b_gpus": "16"})
    link = next(e for e in start.having("data-pair", f"{m_a}-{m_b}"))
    r = client.get(html.unescape(link.get("href")))
    assert r.status_code == 200
    doc = parse(r.text)
    assert not _notices(doc)
    a_q, b_q = _sides(doc)
    assert (a_q["method"], b_q["method"]) == (m_a, m_b)
    assert b_q["gpus"] == "16"  # the b_ override survives the pair switch
    left, right = normalise(a_q)[0], normalise(b_q)[0]
    assert right == with_method(left, m_b).model_copy(update={"gpus": 16})
    ra, rb = evaluate(left), evaluate(right)
    removed, added = node_diff(ra, rb)
    assert tuple(e.get("data-removed") for e in doc.having("data-removed")) == removed
    assert tuple(e.get("data-added") for e in doc.having("data-added")) == added
    changes = {e.get("data-node-change"): (e.get("data-from"), e.get("data-to")) for e in doc.having("data-node-change")}
    assert changes == {n: (ra.nodes[n].state, rb.nodes[n].state) for n in ra.nodes
                       if ra.nodes[n].state != rb.nodes[n].state}
    assert [e.get("data-compare-row") for e in doc.having("data-compare-row")] == list(ROW_IDS)
    t = translator(lang)
    for row in phase_rows(ra, rb):
        cells = _cells(doc, row.id)
        # a row of durations is written in one unit (issue 37: 「138 秒｜86 秒｜−51 秒」, not 「2.3 分钟｜86 秒」)
        spec = f"dur_{row_duration_unit(row.a or 0, row.b or 0)}" if row.unit == "dur" else row.unit
        assert cells[1] == ("—" if row.a is None else t.fmt(spec, row.a)), (row.id, cells)
        assert cells[2] == ("—" if row.b is None else t.fmt(spec, row.b)), (row.id, cells)
        if row.unit == "dur":
            units = {c.split()[-1] for c in cells[1:3] if c != "—"}
            units |= {cells[3].split(" · ")[0].split()[-1]} if cells[3][:1] in "+−" else set()
            assert len(units) == 1, (row.id, cells)
    assert len(doc.having("data-compare-meter")) == len(METER_IDS)
    current = [e.get("data-pair") for e in doc.elements if e.get("data-pair") and e.get("aria-current") == "true"]
    assert current == [f"{m_a}-{m_b}"]


def test_ppo_to_grpo_drops_the_critic(client):
    # step 4's workload (7B policy and reward model): the critic holds 16 B · 7e9 = 112 GB of model states
    q = WALKTHROUGH[3].inputs.query(step=None)
    text, doc = _page(client, "en", q)
    ra = evaluate(WALKTHROUGH[3].inputs.model_copy(update={"step": None}))
    rb = evaluate(with_method(ra.inputs, "grpo"))
    assert rb.memory.models.critic_gb == 0 and ra.memory.models.critic_gb == pytest.approx(112.0)
    critic = doc.having("data-critic", "removed")
    assert critic and "112 GB" in critic[0].text
    assert doc.having("data-compare-decision", "critic_vs_group")
    # each side's row is the model's: the step, memory of the fullest GPU, GPU-hours of one pass
    t = translator("en")
    assert _cells(doc, "step_s")[1:3] == [t.fmt("dur", ra.step.total_s), t.fmt("dur", rb.step.total_s)]
    # memory: the plan's one figure (separate: the generation GPUs' engine reservation, the same on both sides),
    # and the fullest GPU while it trains, where the critic's states go
    assert _cells(doc, "memory_gb")[1:3] == [t.fmt("gb", ra.plan.memory_per_gpu_gb),
                                            t.fmt("gb", rb.plan.memory_per_gpu_gb)]
    train = [next(p.gb for p in x.plan.memory_by_phase if p.phase == "training") for x in (ra, rb)]
    assert _cells(doc, "training_gb")[1:3] == [t.fmt("gb", g) for g in train] and train[1] < train[0]
    assert _cells(doc, "gpu_hours")[1:3] == [t.fmt("g3", ra.run.gpu_hours), t.fmt("g3", rb.run.gpu_hours)]
    assert _cells(doc, "training_s")[3].startswith("−")  # training falls without the critic


def test_grpo_with_a_verifier_removes_the_reward_model(client):
    # left: PPO with a reward model; right: GRPO scored by a verifier
    q = with_method(DEFAULTS, "ppo").query(rollouts=1024) | {"b_method": "grpo", "b_reward": "verifier"}
    _, doc = _page(client, "en", q)
    removed = {e.get("data-removed") for e in doc.having("data-removed")}
    assert {"reward_model", "rm_trainer"} <= removed
    assert doc.having("data-node-change", "reward_model")


def test_ppo_to_dpo_has_no_generation(client):
    q = with_method(DEFAULTS, "ppo").query() | {"b_method": "dpo"}
    _, doc = _page(client, "en", q)
    assert "rollout_gen" in {e.get("data-removed") for e in doc.having("data-removed")}
    gen = _cells(doc, "generation_s")
    assert gen[2] == "—" and gen[3] == translator("en")("compare.only_left")


def test_swap_link_swaps_the_sides(client):
    _, doc = _page(client, "zh", with_method(DEFAULTS, "ppo").query())
    swap = doc.having("data-swap")[0].get("href")
    r = client.get(html.unescape(swap))
    a, b = _sides(parse(r.text))
    assert (a["method"], b["method"]) == ("grpo", "ppo") and a["kl"] == "0.001"


def test_other_language_link_keeps_the_overrides(client):
    _, doc = _page(client, "en", {"method": "ppo", "b_method": "dpo", "b_gpus": "32"})
    alt = next(e for e in doc.tags("link") if e.get("hreflang") == "zh").get("href")
    q = query_of(html.unescape(alt))
    assert alt.startswith("/zh/compare?") and q["b_method"] == "dpo" and q["b_gpus"] == "32"


# --- bad values: a notice naming the (b_) field, never a 500 ---------------------------------------------------------

BAD = [
    ({"method": "ppo2"}, "method"),
    ({"b_method": "ppo2"}, "b_method"),
    ({"b_method": "grpo", "b_group": "0"}, "b_group"),
    ({"b_arch": "gpt5"}, "b_arch"),
    ({"b_kl": "-1"}, "b_kl"),
    ({"b_staleness": "9"}, "b_staleness"),
    ({"b_response_tokens": "4096", "b_response_max_tokens": "1024"}, "b_response_max_tokens"),
    ({"group": "0", "method": "grpo"}, "group"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("query", "field"), BAD, ids=[f for _, f in BAD])
def test_bad_values_give_notices(client, lang, query, field):
    text, doc = _page(client, lang, query)
    notices = _notices(doc)
    assert notices and field in notices[0], notices
    assert re.search(r"data-side=\"right\"", text)


def test_a_bad_b_method_falls_back_to_the_default_other(client):
    _, doc = _page(client, "en", {"method": "dpo", "b_method": "ppo2"})
    a, b = _sides(doc)
    assert (a["method"], b["method"]) == ("dpo", "ppo")
