"""The run planner's routes: ``GET /api/plan`` (strict, 422 naming the field, cached) and ``/{lang}/plan`` (clamped
with notices, the chart, the frontier table), the lab's link to it and the prices on /reference.

httpx through the in-process ``client``; expected values come from the model (``evaluate``, ``plan``)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from support.html import parse
from support.urls import LANGS, query_of

from app.model import WorkloadInputs
from app.model.assumptions import GPUS
from app.model.inputs import effective
from app.model.planner import PRICES, PlanQuery, plan

RUN1 = dict(method="grpo", reward="verifier", arch="qwen3_8b", gpu="h100_80g", gpus=16, rollouts=2048, group=8,
            prompt_tokens=512, response_tokens=3000, response_max_tokens=8192, kl=0.001, prompts=17000, passes=1)
SMALL = dict(RUN1, max_gpus=64)


def _api(client, **q):  # noqa: ANN001, ANN202
    return client.get(f"/api/plan?{urlencode(q)}")


@pytest.fixture(scope="module")
def answer(client):  # noqa: ANN001, ANN201
    r = _api(client, **SMALL, deadline_h=3, budget_usd=2000)
    assert r.status_code == 200, r.text[:300]
    return r.json()


def test_the_answer_names_every_field_the_issue_asks_for(answer) -> None:
    assert {"options", "cheapest", "fastest", "frontier", "searched", "prices", "status", "message"} <= set(answer)
    o = answer["options"][0]
    assert {"gpu", "gpus", "nodes", "placement", "hours", "gpu_hours", "cost_usd", "fits", "query"} <= set(o)
    assert set(answer["prices"]) == set(GPUS)
    assert answer["prices"]["h100_80g"] == {**answer["prices"]["h100_80g"], "usd_per_gpu_hour": 3.99, "given": False,
                                            "teaching": False}
    assert answer["prices"]["h20_96g"]["teaching"] is True  # no public list price: labelled an assumption
    assert answer["searched"]["max_gpus"] == 64 and answer["searched"]["cut"] is False


def test_the_answer_is_the_models_plan(answer) -> None:
    p = plan(WorkloadInputs(**RUN1), PlanQuery(deadline_h=3, budget_usd=2000, max_gpus=64))
    assert len(answer["options"]) == len(p.options)
    assert answer["cheapest"]["cost_usd"] == pytest.approx(p.cheapest.cost_usd)
    assert [(f["gpu"], f["gpus"], f["placement"]) for f in answer["frontier"]] == [
        (f.gpu, f.gpus, f.placement) for f in p.frontier]
    c = answer["cheapest"]
    assert c["hours"] <= 3 and c["cost_usd"] == pytest.approx(c["hours"] * c["gpus"] * c["usd_per_gpu_hour"])
    assert answer["message"].startswith("cheapest within 3 h:")


def test_each_options_hours_equal_api_evaluate_for_its_query(client, answer) -> None:
    chosen = [answer["cheapest"], answer["fastest"], *answer["frontier"], *answer["options"][::17]]
    for o in chosen:
        r = client.get(f"/api/evaluate?{urlencode(o['query'])}")
        assert r.status_code == 200
        est = r.json()["estimates"]
        if o["fits"]:
            assert est["run"]["hours"] == pytest.approx(o["hours"], rel=1e-12)
            assert est["run"]["gpu_hours"] == pytest.approx(o["gpu_hours"], rel=1e-12)
            assert est["timed_gpus"] == o["gpus"] == int(o["query"]["gpus"])
        assert o["query"]["gpu"] == o["gpu"] and o["query"]["placement"] == o["placement"]


def test_a_price_given_is_used_and_said(client) -> None:
    r = _api(client, **SMALL, price_h100_80g=1.5).json()
    assert r["prices"]["h100_80g"] == {**r["prices"]["h100_80g"], "usd_per_gpu_hour": 1.5, "given": True}
    for o in r["options"]:
        if o["gpu"] == "h100_80g" and o["fits"]:
            assert o["cost_usd"] == pytest.approx(o["hours"] * o["gpus"] * 1.5)


def test_nothing_meets_the_deadline_says_the_closest_and_by_how_much(client) -> None:
    r = _api(client, **SMALL, deadline_h=0.01).json()
    assert r["status"] == "late" and r["cheapest"] is None
    c = r["closest_to_deadline"]
    assert r["late_by_h"] == pytest.approx(c["hours"] - 0.01)
    assert r["message"].startswith("nothing meets the deadline of 0.01 h: closest is ") and ", by " in r["message"]


def test_nothing_fits_is_said(client) -> None:
    r = _api(client, arch="kimi_k2", method="grpo", reward="verifier", max_gpus=8).json()
    assert r["status"] == "nothing_fits" and r["frontier"] == [] and r["cheapest"] is None
    assert r["message"] == "nothing fits: no GPU type holds this workload on up to 8 GPUs"
    assert all(o["hours"] is None for o in r["options"])


def test_the_answer_is_cached(client) -> None:
    r = _api(client, **SMALL)
    assert r.headers["cache-control"] == "public, max-age=3600" and r.headers["etag"]
    again = client.get(f"/api/plan?{urlencode(SMALL)}", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304


@pytest.mark.parametrize(("field", "value"), [
    ("deadline_h", "-1"), ("deadline_h", "0"), ("deadline_h", "abc"), ("deadline_h", "1e999"), ("deadline_h", "nan"),
    ("budget_usd", "-5"), ("budget_usd", "<script>alert(1)</script>"), ("price_h100_80g", "0"),
    ("price_b200_180g", "1e9"), ("max_gpus", "99999"), ("max_gpus", "2.5"), ("allow_lora", "maybe"),
    ("gpus", "-3"), ("response_max_tokens", "16"),
])
def test_a_bad_value_is_a_422_naming_the_field(client, field: str, value: str) -> None:
    r = client.get(f"/api/plan?{urlencode({**SMALL, field: value})}")
    assert r.status_code == 422, r.text[:200]
    assert [e["loc"][-1] for e in r.json()["detail"]] == [field]


def test_the_schema_documents_the_planner(client) -> None:
    schema = client.get("/openapi.json").json()
    op = schema["paths"]["/api/plan"]["get"]
    names = {p["name"] for p in op["parameters"]}
    assert {"deadline_h", "budget_usd", "max_gpus", "allow_staleness", "allow_offload", "allow_lora",
            *(f"price_{g}" for g in GPUS), "arch", "gpus", "method"} <= names
    assert op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/PlanOut")
    assert {"cheapest", "fastest", "frontier", "searched", "prices"} <= set(schema["components"]["schemas"]["PlanOut"]["properties"])


# --- the page ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_draws_every_option_and_links_each_to_its_lab_state(client, lang: str) -> None:
    r = client.get(f"/{lang}/plan?{urlencode({**SMALL, 'deadline_h': 3})}")
    assert r.status_code == 200 and r.headers["etag"]
    doc = parse(r.text)
    chart = doc.having("data-chart", "plan")
    assert len(chart) == 1
    p = plan(WorkloadInputs(**RUN1), PlanQuery(deadline_h=3, max_gpus=64))
    points = doc.having("data-point")
    assert len(points) == len(p.fitting)
    for a in points[::11]:
        q = query_of(a.get("href"))
        assert a.get("href").startswith(f"/{lang}/?")
        o = next(o for o in p.fitting if o.key == a.get("data-point"))
        assert q == o.query
    assert len(doc.having("data-on-frontier")) == len(p.frontier)
    assert doc.having("data-line", "deadline") and doc.having("data-line", "budget") and doc.having("data-frontier")
    assert doc.having("data-mark", "cheapest") and doc.having("data-cheapest", tag="tr")
    rows = doc.having("data-row", tag="tr")
    assert len(rows) == len(p.frontier)
    launch = [e.get("href") for e in doc.having("data-link", "launch")]
    assert len(launch) == len(p.frontier) and all(h.startswith(f"/{lang}/launch?") for h in launch)
    assert doc.by_id("plan-answer").get("data-status") == "ok"


def test_the_table_sorts_without_javascript(client) -> None:
    base = {**SMALL, "deadline_h": 3}
    by_cost = parse(client.get(f"/en/plan?{urlencode(base)}").text)
    by_hours = parse(client.get(f"/en/plan?{urlencode({**base, 'sort': 'hours'})}").text)
    keys_cost = [e.get("data-row") for e in by_cost.having("data-row", tag="tr")]
    keys_hours = [e.get("data-row") for e in by_hours.having("data-row", tag="tr")]
    assert sorted(keys_cost) == sorted(keys_hours) and keys_hours == keys_cost[::-1]  # the frontier: dearer is faster
    assert by_hours.having("data-sort", "hours")[0].get("aria-current") == "true"


@pytest.mark.parametrize("lang", LANGS)
def test_hostile_values_are_clamped_with_a_notice_never_a_5xx(client, lang: str) -> None:
    q = {**SMALL, "deadline_h": "-4", "budget_usd": "<script>alert(1)</script>", "price_h100_80g": "1e99",
         "max_gpus": "abc", "allow_lora": "<b>x</b>", "sort": "<i>"}
    r = client.get(f"/{lang}/plan?{urlencode(q)}")
    assert r.status_code == 200
    assert "<script>alert(1)" not in r.text and "<b>x</b>" not in r.text
    doc = parse(r.text)
    fields = {e.get("data-field") for e in doc.having("data-field")}
    assert {"deadline_h", "budget_usd", "price_h100_80g", "max_gpus", "allow_lora"} <= fields
    form = {e.get("name"): e.get("value") for e in doc.tags("input") if e.get("name")}
    assert form["deadline_h"] == "0.1" and form["price_h100_80g"] == "1000" and form["max_gpus"] == "1024"


def test_nothing_fits_on_the_page_says_so_without_a_chart(client) -> None:
    doc = parse(client.get("/en/plan?arch=kimi_k2&method=grpo&reward=verifier&max_gpus=8").text)
    assert doc.by_id("plan-answer").get("data-status") == "nothing_fits"
    assert not doc.having("data-chart", "plan") and doc.having("data-answer", "nothing_fits")


def test_the_form_carries_the_workload(client) -> None:
    doc = parse(client.get(f"/zh/plan?{urlencode(SMALL)}").text)
    form = doc.by_id("plan-form")
    assert form.get("method") == "get" and form.get("action") == "/zh/plan"
    hidden = {e.get("name"): e.get("value") for e in doc.tags("input") if e.get("type") == "hidden"}
    assert hidden == effective(WorkloadInputs(**RUN1)).query()


@pytest.mark.parametrize("lang", LANGS)
def test_the_lab_links_to_the_planner_with_its_workload(client, lang: str) -> None:
    doc = parse(client.get(f"/{lang}/?{urlencode(RUN1)}").text)
    link = doc.by_id("plan-link")
    assert link.get("href").startswith(f"/{lang}/plan?") and query_of(link.get("href")) == effective(WorkloadInputs(**RUN1)).query()


@pytest.mark.parametrize("lang", LANGS)
def test_the_reference_lists_every_price_with_its_source_or_as_an_assumption(client, lang: str) -> None:
    doc = parse(client.get(f"/{lang}/reference").text)
    rows = doc.having("data-price", tag="tr")
    assert [e.get("data-price") for e in rows] == list(GPUS)
    for e in rows:
        assert ("teach" in (e.get("class") or "")) == PRICES[e.get("data-price")].teaching
    assert {a.get("href") for a in doc.tags("a")} >= {p.source for p in PRICES.values() if p.source}


# --- the command line -----------------------------------------------------------------------------------------------

CLI_ARGS = ["--arch", "qwen3_8b", "--method", "grpo", "--reward", "verifier", "--rollouts", "2048",
            "--response-tokens", "3000", "--response-max-tokens", "8192", "--prompts", "17000", "--kl", "0.001",
            "--gpu", "h100_80g", "--gpus", "16", "--group", "8", "--prompt-tokens", "512", "--passes", "1"]


def test_rlhf_lab_plan_json_prints_exactly_the_apis_answer(client) -> None:
    from app import cli

    args = [*CLI_ARGS, "--deadline-h", "3", "--budget-usd", "2000", "--max-gpus", "64", "--allow-lora"]
    api = client.get(f"/api/plan?{urlencode({**SMALL, 'deadline_h': 3, 'budget_usd': 2000, 'allow_lora': 'true'})}")
    assert cli.plan([*args, "--json"]) == api.text
    table = cli.plan(args).splitlines()
    assert table[0].split() == ["option", "hours", "cost", "$", "GPU-hours"]
    assert table[-1] == api.json()["message"] and any(line.endswith("cheapest") or "cheapest" in line.split()
                                                      for line in table[1:-2])


def test_rlhf_lab_estimate_json_is_api_evaluates_answer(client) -> None:
    from app import cli

    assert json.loads(cli.estimate([*CLI_ARGS, "--json"])) == client.get(f"/api/evaluate?{urlencode(RUN1)}").json()
    assert "67 steps, 4.61 h" in cli.estimate(CLI_ARGS)  # the engineer's run 1: 67 steps, 4.6 h on 16 H100s


@pytest.mark.parametrize(("argv", "field"), [(["--deadline-h", "-1"], "--deadline-h"),
                                             (["--price-h100-80g", "abc"], "--price-h100-80g"),
                                             (["--gpus", "0"], "--gpus")])
def test_rlhf_lab_plan_refuses_a_bad_value_naming_it(capsys, argv: list[str], field: str) -> None:
    from app import cli

    with pytest.raises(SystemExit) as e:
        cli.main(["plan", *argv])
    assert e.value.code == 2 and capsys.readouterr().err.startswith(f"rlhf-lab: {field}: ")


def test_a_prices_reading_line_reads_in_each_language(client) -> None:  # noqa: ANN001
    # prices.toml keeps the date and the transcription apart, so the zh line has no English prose in it
    zh = client.get("/zh/reference").text
    assert "（读取于 2026-09-20，转录自 <span lang=\"en\">api-evangelist/lambda-labs" in zh and "as transcribed" not in zh
    en = client.get("/en/reference").text
    assert "(read 2026-09-20, as transcribed in <span lang=\"en\">api-evangelist/lambda-labs" in en
