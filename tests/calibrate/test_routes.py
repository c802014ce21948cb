"""The routes: POST /api/calibrate and /{lang}/calibrate (GET the paste box, POST the fit), good and hostile pastes
(empty, prose, binary, 2 MB, negative, NaN, HTML): a 4xx with a message, never a 5xx, nothing of the paste
reflected."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from support.html import parse

from app.calibrate.logs import MAX_LOG_BYTES, MAX_LOG_LINES
from app.model.inputs import FACTOR_NAMES, WorkloadInputs
from calibrate.logformats import verl_lines

STATE = WorkloadInputs(method="grpo", arch="qwen25_7b", policy_b=7.6, gpus=16, gpu="h100_80g", reward="verifier",
                       kl=0.001)
Q = urlencode(STATE.query())
GOOD = verl_lines([(n, {"timing_s/gen": g, "timing_s/old_log_prob": 9.0, "timing_s/update_actor": 20.0,
                        "timing_s/update_weights": 3.0, "timing_s/step": g + 33.0, "response_length/mean": 1000.0})
                   for n, g in ((1, 29.0), (2, 30.0), (3, 31.0))])
INJECTION = "<script>alert('x')</script><img src=x onerror=alert(1)>"
HOSTILE = {
    "empty": ("", 422, "calibrate_empty"),
    "prose": ("We trained for a while and it seemed slow, about three minutes a step.", 422, "calibrate_no_steps"),
    "binary": ("\x00\x01\x02\x03\xff" * 400, 422, "calibrate_binary"),
    "oversized": ("step:1 - timing_s/gen:1.0\n" * (2_000_000 // 26), 413, "calibrate_too_large"),
    "too_many_lines": ("x\n" * (MAX_LOG_LINES + 5), 413, "calibrate_too_many_lines"),
    "negative": ("step:1 - timing_s/gen:-30.0 - timing_s/update_actor:-2", 422, "calibrate_bad_values"),
    "nan": ("step:1 - timing_s/gen:nan - timing_s/update_actor:NaN", 422, "calibrate_bad_values"),
    "html": (INJECTION, 422, "calibrate_no_steps"),
    "no_timings": ("step:1 - actor/pg_loss:0.1 - critic/score/mean:0.5", 422, "calibrate_no_timings"),
}


def _post(client, path: str, text: str):
    return client.post(path, content=urlencode({"log": text}),
                       headers={"content-type": "application/x-www-form-urlencoded"})


def test_a_good_paste_answers_the_fit(client):
    r = _post(client, f"/api/calibrate?{Q}", GOOD)
    assert r.status_code == 200
    body = r.json()
    assert (body["framework"], body["steps_read"], body["steps"]) == ("verl", 3, [1, 2, 3])
    assert body["phases"]["generation"]["measured_s"] == 30.0  # the median of 29, 30, 31
    assert body["phases"]["generation"]["calibrated_s"] == pytest.approx(30.0, rel=0.01)
    assert set(body["factors"]) == set(FACTOR_NAMES)
    f = body["factors"]["train_mfu"]
    assert f["status"] == "fitted" and f["bounds"] == [0.01, 0.9]
    assert f["pinned_by"] == {"phase": "training", "names": ["timing_s/update_actor"], "steps": 3}
    assert body["query"]["train_mfu"] == str(f["value"]) and body["query"]["method"] == "grpo"
    assert body["lengths"]["response_mean"] == {"log": 1000.0, "state": 1024.0}
    assert body["links"]["lab"].startswith("/en/?") and "train_mfu=" in body["links"]["lab"]
    assert body["links"]["plan"].startswith("/en/plan?") and "train_mfu=" in body["links"]["plan"]


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_paste_is_a_4xx_that_says_what_was_expected(client, case):
    text, status, kind = HOSTILE[case]
    r = _post(client, f"/api/calibrate?{Q}", text)
    assert r.status_code == status
    detail = r.json()["detail"][0]
    assert detail["type"] == kind and detail["loc"] == ["body", "log"] and len(detail["msg"]) > 30
    assert "Expected" in detail["msg"] or "limit" in detail["msg"] or "paste" in detail["msg"]
    for lang in ("en", "zh"):
        page = _post(client, f"/{lang}/calibrate?{Q}", text)
        assert page.status_code == status
        doc = parse(page.text)
        assert doc.by_id("calibrate-error") is not None and doc.by_id("calibrate-result") is None
        assert doc.by_id("calibrate-log").text == ""  # the box comes back empty: nothing of the paste is shown


def test_the_size_limit_is_named(client):
    r = _post(client, f"/api/calibrate?{Q}", "a" * (MAX_LOG_BYTES + 10))
    assert r.status_code == 413 and r.json()["detail"][0]["ctx"] == {"limit": MAX_LOG_BYTES}
    assert "1,000 kB" in r.json()["detail"][0]["msg"]


def test_a_body_past_the_limit_is_not_read(client):
    r = client.post(f"/api/calibrate?{Q}", content=b"log=" + b"x" * (3 * MAX_LOG_BYTES + 10_000),
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413


def test_non_utf8_bytes_are_read_as_text_and_refused(client):
    r = client.post(f"/api/calibrate?{Q}", content=b"log=" + bytes(range(128, 256)) * 40,
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 422 and r.json()["detail"][0]["type"] == "calibrate_binary"


def test_injected_html_in_a_readable_log_is_never_reflected(client):
    """A readable line that also carries markup in a metric name and after it: the answer holds numbers only."""
    text = f"step:1 - {INJECTION}:5 - timing_s/gen:30.0 - timing_s/update_actor:20.0 {INJECTION}\n{INJECTION}"
    api = _post(client, f"/api/calibrate?{Q}", text)
    assert api.status_code == 200 and "script" not in api.text and "onerror" not in api.text
    for lang in ("en", "zh"):
        page = _post(client, f"/{lang}/calibrate?{Q}", text)
        assert page.status_code == 200
        assert "alert(" not in page.text and "onerror" not in page.text and "<script>" not in page.text
        assert parse(page.text).by_id("calibrate-result") is not None


def test_a_bad_state_is_a_422_naming_the_field(client):
    r = _post(client, "/api/calibrate?gpus=0", GOOD)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "gpus"]
    r = _post(client, "/api/calibrate?train_mfu=2", GOOD)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", "train_mfu"]


@pytest.mark.parametrize(("query", "kind"), [("method=dpo", "not_rl"), ("arch=kimi_k2&gpus=8", "no_fit")])
def test_a_state_without_an_rl_step_that_fits_is_refused(client, query, kind):
    r = _post(client, f"/api/calibrate?{query}", GOOD)
    assert r.status_code == 422
    assert r.json()["detail"][0]["type"] == f"calibrate_{kind}" and r.json()["detail"][0]["loc"] == ["query"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_draws_the_fit_the_api_answers(client, lang):
    api = _post(client, f"/api/calibrate?{Q}", GOOD).json()
    r = _post(client, f"/{lang}/calibrate?{Q}", GOOD)
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    doc = parse(r.text)
    assert [g.get("data-phase") for g in doc.having("data-phase", tag="g")] == [
        "generation", "scoring", "training", "refit", "step"]
    assert {e.get("data-series") for e in doc.having("data-series", tag="rect")} == {
        "measured", "predicted", "calibrated"}
    rows = {e.get("data-factor"): e.get("data-status") for e in doc.having("data-factor", tag="tr")}
    assert rows == {k: v["status"] for k, v in api["factors"].items()}
    link = doc.by_id("calibrated-link").get("href")
    assert link == f"/{lang}/?{urlencode(api['query'])}"
    assert ("fitted to your run" if lang == "en" else "按你的 run 拟合") in doc.by_id("calibrate-factors").text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_paste_box_is_a_plain_form_with_the_state(client, lang):
    r = client.get(f"/{lang}/calibrate?{Q}")
    assert r.status_code == 200
    doc = parse(r.text)
    form = doc.by_id("calibrate-form")
    assert (form.get("method"), form.get("action")) == ("post", f"/{lang}/calibrate?{Q}")
    assert doc.by_id("calibrate-log").get("name") == "log"
    assert doc.by_id("calibrate-result") is None and doc.by_id("calibrate-error") is None
    assert doc.by_id("calibrate-back").get("href") == f"/{lang}/?{Q}"


def test_the_lab_links_to_its_calibration_and_labels_fitted_figures(client):
    doc = parse(client.get(f"/en/?{Q}").text)
    assert doc.by_id("calibrate-link").get("href") == f"/en/calibrate?{Q}"
    assert doc.by_id("fitted-banner") is None and doc.by_id("fitted-factors") is None
    calibrated = _post(client, f"/api/calibrate?{Q}", GOOD).json()["query"]
    doc = parse(client.get(f"/en/?{urlencode(calibrated)}").text)
    assert "fitted to your run" in doc.by_id("fitted-banner").text
    fields = {e.get("name"): e.get("value") for e in doc.having("data-factor", tag="input")}
    assert fields == {n: calibrated.get(n, "") for n in FACTOR_NAMES}


def test_the_reference_lists_the_factors(client):
    doc = parse(client.get("/en/reference").text)
    assert [e.get("data-factor") for e in doc.having("data-factor", tag="tr")] == list(FACTOR_NAMES)


def test_openapi_documents_the_calibration(client):
    spec = client.get("/openapi.json").json()
    op = spec["paths"]["/api/calibrate"]["post"]
    assert {"413", "422", "200"} <= set(op["responses"])
    assert {p["name"] for p in op["parameters"]} >= {"method", "gpus", "train_mfu"}
    assert set(FACTOR_NAMES) <= {p["name"] for p in spec["paths"]["/api/evaluate"]["get"]["parameters"]}


def _han(html: str) -> str:
    import html as _html
    import re

    text = _html.unescape(re.sub(r"<[^>]+>", " ", html))
    return "".join(re.findall(r"[\u4e00-\u9fff]+", text))


def test_each_calibrate_page_is_in_its_language(client):
    """The zh page's text is Chinese; the en page's has none beyond the language switch (中文)."""
    zh = _post(client, f"/zh/calibrate?{Q}", GOOD).text
    en = _post(client, f"/en/calibrate?{Q}", GOOD).text
    assert len(_han(zh)) > 300
    assert _han(en) == "中文"


@pytest.mark.parametrize("page", ["", "compare", "launch"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_page_that_uses_a_fitted_factor_says_so(client, lang, page):
    """The lab, the compare page and the launch page of a state with a fitted factor label it, naming its value;
    without one they say nothing."""
    words = {"en": "fitted to your run", "zh": "按你的 run 拟合"}[lang]
    doc = parse(client.get(f"/{lang}/{page}?{Q}&train_mfu=0.2").text)
    banner = doc.by_id("fitted-banner")
    assert banner is not None and words in banner.text and "0.2" in banner.text
    assert parse(client.get(f"/{lang}/{page}?{Q}").text).by_id("fitted-banner") is None


def test_the_planner_sizes_a_calibrated_cluster_with_its_fitted_factors(client):
    """Factors are inputs like any other: the calibrate answer links its planner, and the planner's options carry
    the factors in their queries, so a slower cluster (training at 20 % MFU, decode at 30 % of HBM bandwidth) needs
    more hours than the lab's own constants give."""
    base = "method=grpo&reward=verifier&arch=qwen3_8b&gpu=h100_80g&gpus=16&rollouts=1024&kl=0.001"
    slow = base + "&train_mfu=0.2&decode_bandwidth_efficiency=0.3"
    own, fitted = (client.get(f"/api/plan?{q}").json() for q in (base, slow))
    pick = lambda a: a["cheapest"] or a["options"][0]  # noqa: E731
    assert pick(fitted)["query"]["train_mfu"] == "0.2" and "train_mfu" not in pick(own)["query"]
    assert pick(fitted)["hours"] > pick(own)["hours"]


def test_the_factors_bounds_read_as_the_page_writes_numbers(client) -> None:  # noqa: ANN001
    # the decode overhead in milliseconds, its bounds in the unit of the upper one; the refit's upper bound with a
    # thousands separator; a Chinese range without spaces (zh-read-10 §4.7)
    zh = client.get("/zh/reference").text
    assert "4 毫秒" in zh and "0 毫秒–500 毫秒" in zh and "0 秒–3,600 秒" in zh and "0 – 3600" not in zh
    en = client.get("/en/reference").text
    assert "0 ms – 500 ms" in en and "0 s – 3,600 s" in en
