"""The contract of PRODUCT.md: the HTML hooks, the JSON shape, the partial's regions and byte budget."""

from __future__ import annotations

import gzip
import math
from urllib.parse import urlsplit

import pytest
from support.budgets import PARTIAL_MAX_BYTES
from support.html import parse
from support.urls import HTMX, LANGS, STATES, lab_path, query_of

from app.model import evaluate, normalise
from app.model.decisions import DECISION_IDS, DECISION_STATES
from app.model.inputs import CHOICES, NUMBERS, PARAM_NAMES, SHAPE_NAMES, SHAPE_NUMBERS
from app.model.meters import METER_IDS
from app.model.physics.generation import Generation as GenerationRecord
from app.model.physics.memory import ModelMemory as ModelMemoryRecord
from app.model.physics.offline import Dpo as DpoRecord
from app.model.physics.offline import Run as RunRecord
from app.model.physics.step import GpuLayout as GpuLayoutRecord
from app.model.scenarios import PRESETS
from app.model.stages import NODE_IDS, STAGE_IDS

PRESET_ORDER = ("sft_only", "reward_model", "ppo_loop", "scaled_rollouts", "eval_gated", "dpo", "grpo")
# PRODUCT.md's parameters, first and second edition (the form's order is the canonical query's: a set here)
CONTRACT_INPUTS = {"demos", "pairs", "rollouts", "policy_b", "rm_b", "epochs", "kl", "eval_every", "method",
                   "placement", "gpu", "gpus", "prompt_tokens", "response_tokens",
                   "arch", "group", "reward", "response_max_tokens", "staleness", "engine", "offload", "tuning",
                   "prompts",
                   # PRODUCT.md third edition (frontier scale): frontier's and timing's inputs
                   "optimizer_steps", "max_tokens_per_gpu", "context_parallel",
                   "oversample", "rollout_dtype", "partial_rollouts", "passes",
                   # calibration (issue 26): a recipe's fixed split, 0 = searched (docs/model.md, Inputs)
                   "generation_gpus",
                   # calibration (issue 24): a recipe's engine tensor parallelism, 0 = searched
                   "engine_tp"}
# PRODUCT.md third edition: the custom shape by its config.json fields (optional, absent by default; the model may
# read more of config.json, e.g. tied embeddings and the dense MLP width)
CONTRACT_SHAPE_INPUTS = {"layers", "hidden", "heads", "kv_heads", "head_dim", "vocab", "experts", "experts_active",
                         "expert_hidden", "kv_lora_rank"}
NODE_STATES = ("ok", "needed", "warning", "overloaded", "inactive", "removed")


def test_contract_ids_match_the_model():
    """The ids written in PRODUCT.md are the ones the model uses (a rename would break links and these tests)."""
    assert tuple(p.id for p in PRESETS) == PRESET_ORDER
    assert STAGE_IDS == PRESET_ORDER
    assert METER_IDS == ("rollout_load", "scoring_load", "train_memory", "kl_risk", "eval_need")
    assert DECISION_IDS == ("sft_vs_preference", "rm_vs_dpo", "rollout_throughput", "distributed_training",
                            "kl_control", "eval_gating", "critic_vs_group", "sync_vs_async")
    assert len(NODE_IDS) == 11
    assert set(PARAM_NAMES) == CONTRACT_INPUTS and len(PARAM_NAMES) == len(CONTRACT_INPUTS)
    assert set(SHAPE_NAMES) >= CONTRACT_SHAPE_INPUTS and not set(SHAPE_NAMES) & set(PARAM_NAMES)
    assert {s.name for s in (*NUMBERS, *CHOICES)} == CONTRACT_INPUTS
    assert {s.name for s in SHAPE_NUMBERS} == set(SHAPE_NAMES)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", PRESETS, ids=[p.id for p in PRESETS])
def test_preset_url_renders_its_stage(client, lang, preset):
    doc = parse(client.get(lab_path(lang, preset.inputs)).text)
    stages = doc.having("data-stage")
    assert [e.get("data-stage") for e in stages] == [preset.id]


@pytest.fixture(scope="module")
def api(client):
    cache: dict[str, dict] = {}

    def get(inputs) -> dict:
        key = lab_path("x", inputs)
        if key not in cache:
            r = client.get("/api/evaluate", params=inputs.query())
            assert r.status_code == 200
            cache[key] = r.json()
        return cache[key]

    return get


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("state", STATES, ids=list(STATES))
def test_every_hook_is_on_the_lab_page(client, api, lang, state):
    inputs = STATES[state]
    r = client.get(lab_path(lang, inputs))
    assert r.status_code == 200
    doc = parse(r.text)
    data = api(inputs)

    assert [e.get("data-stage") for e in doc.having("data-stage")] == [data["stage"]]

    # meters: the <meter> element itself carries data-meter, once per id, aria-valuenow 0..100 = the JSON value
    meters = doc.having("data-meter")
    assert sorted(e.get("data-meter") for e in meters) == sorted(METER_IDS)
    for el in meters:
        mid = el.get("data-meter")
        assert el.tag == "meter" or el.get("role") == "meter", mid
        now = el.get("aria-valuenow")
        assert now is not None and now.isdecimal() and 0 <= int(now) <= 100, (mid, now)
        assert int(now) == data["meters"][mid]["value"], mid
        if el.tag == "meter":
            assert float(el.get("value")) == int(now)

    # diagram nodes
    nodes = doc.having("data-node")
    assert sorted(e.get("data-node") for e in nodes) == sorted(NODE_IDS)
    for el in nodes:
        nid = el.get("data-node")
        assert el.get("data-active") in ("true", "false"), nid
        assert (el.get("data-active") == "true") == data["nodes"][nid]["active"], nid

    # preset cards: in order, each a link holding the full query that reopens the preset's stage
    cards = doc.having("data-preset")
    assert [e.get("data-preset") for e in cards] == list(PRESET_ORDER)
    for el in cards:
        assert el.tag == "a", "the card is the link"
        href = el.get("href")
        assert urlsplit(href).path == f"/{lang}/"
        q = query_of(href)
        assert set(CONTRACT_INPUTS) <= set(q), f"{el.get('data-preset')}: {sorted(set(CONTRACT_INPUTS) - set(q))}"
        parsed, notices = normalise({k: [v] for k, v in q.items()})
        assert notices == ()
        assert evaluate(parsed).stage == el.get("data-preset")

    # decision cards
    assert [e.get("data-decision") for e in doc.having("data-decision")] == list(DECISION_IDS)

    # every input, by its contract name, inside the workload form, holding the current value
    form = doc.by_id("workload")
    assert form is not None and form.tag == "form" and form.get("method", "get").lower() == "get"
    canonical = inputs.query()
    for spec in NUMBERS:
        boxes = doc.having("name", spec.name, tag="input")
        assert len(boxes) == 1, spec.name
        assert float(boxes[0].get("value")) == float(canonical[spec.name]), spec.name
    for spec in CHOICES:
        radios = doc.having("name", spec.name, tag="input")
        assert {e.get("value") for e in radios} == set(spec.choices), spec.name
        assert [e.get("value") for e in radios if "checked" in e.attrs] == [canonical[spec.name]], spec.name


@pytest.mark.parametrize("lang", LANGS)
def test_inputs_are_inside_the_form(client, lang):
    html = client.get(f"/{lang}/").text
    start = html.index('<form id="workload"')
    form = html[start:html.index("</form>", start)]
    doc = parse(form)
    names = {e.get("name") for e in doc.elements if e.tag in ("input", "select", "textarea") and e.get("name")}
    assert set(CONTRACT_INPUTS) <= names, sorted(set(CONTRACT_INPUTS) - names)


def _meter_values(html: str) -> dict[str, int]:
    return {e.get("data-meter"): int(e.get("aria-valuenow")) for e in parse(html).having("data-meter")}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("state", ["preset-sft_only", "preset-ppo_loop", "preset-dpo", "step-6"])
def test_full_page_and_partial_carry_the_same_meters(client, api, lang, state):
    inputs = STATES[state]
    full = _meter_values(client.get(lab_path(lang, inputs)).text)
    partial = _meter_values(client.get(lab_path(lang, inputs), headers=HTMX).text)
    assert full == partial == {k: v["value"] for k, v in api(inputs)["meters"].items()}


# --- JSON shape -------------------------------------------------------------------------------------------------------


def _number(x) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


@pytest.mark.parametrize("state", STATES, ids=list(STATES))
def test_json_shape(api, state):
    data = api(STATES[state])
    assert set(data["inputs"]) >= set(CONTRACT_INPUTS)
    assert data["inputs"] == {**STATES[state].model_dump()}
    assert data["stage"] in STAGE_IDS
    assert set(data["meters"]) == set(METER_IDS)
    for mid, m in data["meters"].items():
        assert isinstance(m["value"], int) and 0 <= m["value"] <= 100, mid
        assert m["level"] in ("ok", "warn", "hot"), mid
    assert set(data["nodes"]) == set(NODE_IDS)
    for nid, n in data["nodes"].items():
        assert isinstance(n["active"], bool), nid
        assert n["state"] in NODE_STATES, nid
    assert set(data["decisions"]) == set(DECISION_IDS)
    for did, d in data["decisions"].items():
        assert d["state"] in DECISION_STATES, did
    est = data["estimates"]
    step = est["step"]
    for k in ("generation_s", "scoring_s", "training_s", "total_s", "generation_share"):
        assert _number(step[k]) and step[k] >= 0, k
    assert 0 <= step["generation_share"] <= 1
    mem = est["memory"]
    for k in ("total_gb", "per_gpu_gb", "gpu_memory_gb"):
        assert _number(mem[k]) and mem[k] >= 0, k
    assert isinstance(mem["fits"], bool)
    assert mem["min_gpus"] is None or (isinstance(mem["min_gpus"], int) and mem["min_gpus"] >= 0)
    for k in ("pair_s", "epoch_s"):
        assert _number(est["dpo"][k]) and est["dpo"][k] >= 0, k


# the model's records the JSON answer embeds: NamedTuples, which api.record_model turns into objects with their names
EMBEDDED = (
    (("step", "gpu_groups"), GpuLayoutRecord),
    (("step", "generation_engine"), GenerationRecord),
    (("memory", "models"), ModelMemoryRecord),
    (("run",), RunRecord),
    (("dpo",), DpoRecord),
)


@pytest.mark.parametrize("path,record", EMBEDDED, ids=[r.__name__ for _, r in EMBEDDED])
def test_embedded_records_are_objects_with_their_fields(client, path, record):
    """An embedded record is a JSON object whose keys are its fields, in order, with its values (not an array);
    the OpenAPI schema names the same fields."""
    obj = client.get("/api/evaluate", params={"gpus": 16, "method": "grpo"}).json()["estimates"]
    for key in path:
        obj = obj[key]
    assert list(obj) == list(record._fields)
    r = evaluate(normalise({"gpus": "16", "method": "grpo"})[0])
    value = {"gpu_groups": r.step.gpu_groups, "generation_engine": r.step.gen, "models": r.memory.models,
             "run": r.run, "dpo": r.dpo}[path[-1]]
    assert obj == value._asdict()
    schema = client.get("/openapi.json").json()["components"]["schemas"][record.__name__]
    assert list(schema["properties"]) == list(record._fields)


# --- the partial after one slider notch ----------------------------------------------------------------------------

BEFORE = PRESETS[2].inputs  # ppo_loop: rollouts 512
AFTER = BEFORE.model_copy(update={"rollouts": 640})  # the next notch on the rollouts ladder
# sent with every move: what moved, the notices, and the links that carry the state (the query changes)
ALWAYS_SENT = {"live-marker", "live-notices", "live-why", "alt-link", "lang-switch", "compare-link", "launch-link",
               "present-link"}


def _expected_regions(before: dict, after: dict) -> set[str]:
    out = {f"meter-{k}" for k in METER_IDS if before["meters"][k] != after["meters"][k]}
    if before["stage"] != after["stage"] or any(
            (before["meters"][k]["value"], before["meters"][k]["level"]) !=
            (after["meters"][k]["value"], after["meters"][k]["level"]) for k in METER_IDS):
        out.add("meter-strip")  # the phone's strip of the five values
    out |= {f"decision-{k}" for k in DECISION_IDS if before["decisions"][k] != after["decisions"][k]}
    if (before["stage"], before["bottleneck"]) != (after["stage"], after["bottleneck"]):
        out.add("live-stage")
    out |= {f"dg-n-{k}" for k in before["nodes"] if before["nodes"][k] != after["nodes"][k]}
    out |= {f"dg-e-{k}" for k in before["edges"] if before["edges"][k] != after["edges"][k]}
    if before["estimates"] != after["estimates"] or before["inputs"] != after["inputs"]:
        out |= {"live-estimates", "chart-step_vs_gpus", "chart-step_phases", "chart-timeline"}
    return out


def test_one_notch_is_one_notch():
    ladder = next(s.ladder for s in NUMBERS if s.name == "rollouts")
    assert ladder[ladder.index(512) + 1] == 640


@pytest.mark.parametrize("lang", LANGS)
def test_partial_after_one_notch_sends_only_changed_regions_within_budget(client, api, lang):
    r = client.get(lab_path(lang, AFTER), headers={
        **HTMX, "HX-Current-URL": "http://testserver" + lab_path(lang, BEFORE)})
    assert r.status_code == 200
    size = len(gzip.compress(r.content))  # httpx has already undone gzip: compress again, as sent
    assert size <= PARTIAL_MAX_BYTES, f"{lang} partial is {size:,} bytes gzipped"
    doc = parse(r.text)
    # the estimates section travels as blocks (est-head, est-step, est-mem, est-vs): count them as one region
    sent = {"live-estimates" if (e.get("id") or "").startswith("est-") else
            e.get("id") for e in doc.having("hx-swap-oob")}
    expected = _expected_regions(api(BEFORE), api(AFTER))
    assert expected, "moving rollouts 512 → 640 changes something"
    assert sent == ALWAYS_SENT | expected, f"extra {sorted(sent - ALWAYS_SENT - expected)}, " \
                                           f"missing {sorted((ALWAYS_SENT | expected) - sent)}"
    # the meters it does send carry the new state's values
    for mid, v in _meter_values(r.text).items():
        assert v == api(AFTER)["meters"][mid]["value"]
    # the links that keep the state are sent with it (regions), with the new state's query
    switch = [e for e in doc.having("hreflang") if e.tag == "a"]
    assert len(switch) == 1 and query_of(switch[0].get("href")) == AFTER.query()
    marker = [e for e in doc.having("data-query") if e.get("id") == "live-marker"]
    assert len(marker) == 1 and query_of("?" + marker[0].get("data-query")) == AFTER.query()


@pytest.mark.parametrize("lang", LANGS)
def test_partial_without_a_change_reuses_nothing_stale(client, api, lang):
    """Same URL as HX-Current-URL (nothing moved): the partial still carries every region, consistent with the page."""
    r = client.get(lab_path(lang, BEFORE), headers={
        **HTMX, "HX-Current-URL": "http://testserver" + lab_path(lang, BEFORE)})
    assert r.status_code == 200
    assert _meter_values(r.text) == {k: v["value"] for k, v in api(BEFORE)["meters"].items()}

