"""Compare any two states (issue 33 item 6): ``/{lang}/compare?a=<lab query>&b=<lab query>``.

Each side is a whole lab state read on its own (a query, or a lab URL whose query part is taken); its notices name
the side (``a.gpus``); a value no lab link could be gets a notice, never a 500; the dollars of a pass are its
GPU-hours × the planner's price of that side's GPU.  The first form (``b_<param>``) is tests/web/test_compare.py's.
Also the lab's "compare with…" link and the handout's whole address and QR code (``/{lang}/handout``)."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlencode

import pytest
from support.html import parse
from support.urls import LANGS, query_of

from app.i18n import translator
from app.model import DEFAULTS, evaluate, normalise
from app.model.compare import ROW_IDS, counterpart, phase_rows
from app.model.planner import PRICES
from app.model.scenarios import WALKTHROUGH, open_step
from app.view.compare import MAX_STATE_CHARS
from app.view.handout import qr_svg
from app.view.links import canonical_query

B_QUERY = "gpu=h100_80g&gpus=16"  # the defaults (PPO, 7B + 7B, A100 80GB × 8) on 16 H100s


def _page(client, lang: str, query: dict) -> tuple[str, object]:
    r = client.get(f"/{lang}/compare?{urlencode(query)}")
    assert r.status_code == 200, r.text[:300]
    return r.text, parse(r.text)


def _sides(doc) -> tuple[dict[str, str], dict[str, str]]:
    """The queries of the two state lines' lab links (A, B)."""
    links = [e.get("href") for e in doc.having("data-state-link")]
    assert len(links) == 2, links
    return tuple(query_of(html.unescape(u)) for u in links)


def _cells(doc, row_id: str) -> list[str]:
    k = next(k for k, e in enumerate(doc.elements) if e.get("data-compare-row") == row_id)
    return [e.text.strip() for e in doc.elements[k + 1:k + 5] if e.tag in ("th", "td")]


def _notice_fields(doc) -> list[str]:
    return [e.get("data-field") for e in doc.having("data-field", tag="li")]


# --- two states, their figures and their dollars ----------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_two_states_side_by_side_with_their_dollars(client, lang):
    text, doc = _page(client, lang, {"a": "", "b": B_QUERY})
    a, b = _sides(doc)
    left, right = DEFAULTS, normalise(parse_qs(B_QUERY))[0]
    assert normalise(a)[0] == left and normalise(b)[0] == right
    assert doc.having("data-two-states") and not _notice_fields(doc)
    t = translator(lang)
    # one pass: A 18.5549 GPU-hours × $2.79 (A100 80GB, Lambda on-demand) = $51.77 → "$52";
    #           B  7.8414 GPU-hours × $3.99 (H100 80GB, Lambda on-demand) = $31.29 → "$31"; change −$20.48 → "−$20"
    ra, rb = evaluate(left), evaluate(right)
    assert ra.run.gpu_hours == pytest.approx(18.5549, abs=1e-4) and rb.run.gpu_hours == pytest.approx(7.8414, abs=1e-4)
    assert (PRICES["a100_80g"].usd_per_gpu_hour, PRICES["h100_80g"].usd_per_gpu_hour) == (2.79, 3.99)
    assert _cells(doc, "usd")[1:4] == ["$52", "$31", f"−$20 · {t('compare.ratio_part', ratio=31.287 / 51.768)}"]  # ×0.6, zh 「是左边的 60%」
    assert _cells(doc, "usd_per_gpu_hour")[1:3] == ["$2.79", "$3.99"]
    assert [e.get("data-gpu") for e in doc.having("data-price-side")] == ["a100_80g", "h100_80g"]
    # every other row is the model's for that state (the same rows as the first form's, in ROW_IDS order)
    assert [e.get("data-compare-row") for e in doc.having("data-compare-row")] == list(ROW_IDS)
    for row in phase_rows(ra, rb):
        if row.unit in ("gb", "gpus", "n", "g3"):
            cells = _cells(doc, row.id)
            assert cells[1:3] == [("—" if v is None else t.fmt(row.unit, v)) for v in (row.a, row.b)], row.id
    assert _cells(doc, "memory_gb")[1:3] == [t.fmt("gb", r.plan.memory_per_gpu_gb) for r in (ra, rb)]


def test_a_price_override_reprices_its_gpu_only(client):
    # price_a100_80g=2: A 18.5549 GPU-hours × $2.00 = $37.11 → "$37"; B's H100 keeps $3.99 → "$31"
    text, doc = _page(client, "en", {"a": "", "b": B_QUERY, "price_a100_80g": "2"})
    assert _cells(doc, "usd")[1:3] == ["$37", "$31"]
    given = doc.having("data-price-side", "0")[0]
    assert given.get("data-usd-per-gpu-hour") == "2.0"
    assert re.sub("<[^>]+>", "", translator("en")("compare.price_given")) in given.text
    # every link of the page keeps the price (the other language's, the swap)
    swap = html.unescape(doc.having("data-swap")[0].get("href"))
    assert query_of(swap)["price_a100_80g"] == "2"


def test_a_bad_price_is_a_notice_and_the_default(client):
    _, doc = _page(client, "en", {"a": "", "price_a100_80g": "abc"})
    assert _notice_fields(doc) == ["price_a100_80g"]
    assert _cells(doc, "usd_per_gpu_hour")[1] == "$2.79"


@pytest.mark.parametrize("value", [
    "gpus=16", "?gpus=16", "/en/?gpus=16", "http://testserver/zh/?gpus=16#meters", "https://lab.example:8443/en/?gpus=16",
])
def test_a_side_is_a_query_or_a_whole_lab_link(client, value):
    _, doc = _page(client, "en", {"a": value, "b": value})
    a, b = _sides(doc)
    assert a["gpus"] == b["gpus"] == "16" and not _notice_fields(doc)


def test_a_side_given_alone_faces_its_counterpart(client):
    step = WALKTHROUGH[9].inputs
    _, doc = _page(client, "en", {"a": canonical_query(step)})
    a, b = _sides(doc)
    assert normalise(a)[0] == step and normalise(b)[0] == counterpart(step).model_copy(update={"step": None})
    _, doc = _page(client, "en", {"b": "method=dpo"})
    a, b = _sides(doc)
    assert (a["method"], b["method"]) == ("ppo", "dpo")  # DPO's counterpart is PPO


def test_a_and_b_win_over_the_first_form(client):
    _, doc = _page(client, "en", {"a": "gpus=16", "gpus": "4", "b_gpus": "32", "b_method": "dpo"})
    a, b = _sides(doc)
    assert a["gpus"] == b["gpus"] == "16" and (a["method"], b["method"]) == ("ppo", "grpo")


def test_the_states_swap_and_switch_language(client):
    _, doc = _page(client, "en", {"a": "gpus=16", "b": "method=dpo", "present": "1"})
    swap = query_of(html.unescape(doc.having("data-swap")[0].get("href")))
    assert query_of("/?" + swap["a"])["method"] == "dpo" and query_of("/?" + swap["b"])["gpus"] == "16"
    assert swap["present"] == "1"
    alt = html.unescape(next(e for e in doc.tags("link") if e.get("hreflang") == "zh").get("href"))
    assert alt.startswith("/zh/compare?") and query_of(alt)["a"] == canonical_query(normalise({"gpus": "16"})[0])
    # the pair links keep each side's workload under the pair's methods
    pair = html.unescape(doc.having("data-pair", "ppo-grpo")[0].get("href"))
    q = query_of(pair)
    assert query_of("/?" + q["a"])["gpus"] == "16" and query_of("/?" + q["b"])["method"] == "grpo"


def test_presenter_view_of_two_states(client):
    text, doc = _page(client, "en", {"a": "", "b": B_QUERY, "present": "1"})
    main = doc.by_id("main")
    assert "present" in main.get("class").split()
    assert all(query_of(html.unescape(e.get("href"))).get("present") == "1" for e in doc.having("data-state-link"))
    leave = html.unescape(doc.by_id("compare-present-link").get("href"))
    assert "present" not in query_of(leave) and query_of(leave)["b"] == canonical_query(normalise(parse_qs(B_QUERY))[0])
    _, plain = _page(client, "en", {"a": "", "b": B_QUERY})
    assert "present" not in plain.by_id("main").get("class").split()


# --- bad, huge and garbage states: a notice naming the side, never a 500 ---------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_bad_value_in_a_side_names_the_side(client, lang):
    _, doc = _page(client, lang, {"a": "gpus=-3&method=ppo2", "b": "kl=abc"})
    assert _notice_fields(doc) == ["a.gpus", "a.method", "b.kl"]
    text = " ".join(e.text for e in doc.having("data-field", tag="li"))
    assert "a.gpus" in text and "b.kl" in text  # the notice says the parameter with its side


@pytest.mark.parametrize("lang", LANGS)
def test_a_huge_side_is_refused_with_a_notice(client, lang):
    huge = "gpus=16&" + "x" * (MAX_STATE_CHARS + 1000)
    text, doc = _page(client, lang, {"a": huge, "b": "gpus=32"})
    assert _notice_fields(doc) == ["a"]
    notice = doc.having("data-field", "a", tag="li")[0].text
    assert f"{len(huge):,}" in notice and f"{MAX_STATE_CHARS:,}" in notice
    a, b = _sides(doc)
    assert b["gpus"] == "32" and normalise(a)[0] == counterpart(normalise({"gpus": "32"})[0])  # A: B's counterpart
    assert "x" * 50 not in text  # the refused value is not echoed


GARBAGE = ["", "%", "%%%", "&&&", "=", "==&=", "a=b=c", "\x00\x01", "gpus=" + "9" * 400, "日本語=値", "<script>alert(1)</script>",
           "http://", "?", "#", "/en/?a=gpus%3D16", "gpus=16&gpus=abc", "present=1&step=99", "a" * MAX_STATE_CHARS]


@pytest.mark.parametrize("value", GARBAGE, ids=range(len(GARBAGE)))
def test_garbage_in_a_side_is_a_page_never_a_500(client, value):
    for lang in LANGS:
        text, doc = _page(client, lang, {"a": value, "b": value})
        assert len(doc.having("data-state-link")) == 2
        assert "<script>alert" not in text


def test_repeated_sides_take_the_last(client):
    r = client.get("/en/compare?a=gpus%3D4&a=gpus%3D16&b=gpus%3D8")
    a, b = _sides(parse(r.text))
    assert (a["gpus"], b["gpus"]) == ("16", "8")


# --- the ways in: the lab's compare link --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_labs_compare_link_opens_this_state_against_its_counterpart(client, lang):
    """The lab's "Compare with…" opens this state (left) against its counterpart (right); the page's paste form
    holds both as whole states, a= this one, for another b to be pasted over."""
    step = WALKTHROUGH[3].inputs
    doc = parse(client.get(f"/{lang}/?{urlencode(step.query())}&present=1").text)
    link = html.unescape(doc.by_id("compare-link").get("href"))
    page = parse(client.get(link).text)
    fields = {e.get("name"): e.get("value") for e in page.tags("input") if e.get("name") in ("a", "b")}
    assert html.unescape(fields["a"]) == canonical_query(step)
    assert normalise(parse_qs(html.unescape(fields["b"])))[0].method == counterpart(step).method
    assert "present" in page.by_id("main").get("class").split()


# --- the handout: the state's whole address and its QR code -------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_handout_prints_the_whole_address_and_its_code(client, lang):
    step = WALKTHROUGH[6].inputs
    text = client.get(f"/{lang}/?{urlencode(step.query())}&present=1").text
    doc = parse(text)
    url = f"http://testserver/{lang}/?{canonical_query(step)}"  # the student's link: no present=1
    link = doc.by_id("handout-link")
    assert link.text.strip().endswith(url)
    assert doc.by_id("handout-qr").get("data-query") == canonical_query(step)
    assert str(qr_svg(url)) in text


def test_the_handout_address_follows_the_host_it_is_served_at(client):
    doc = parse(client.get("/en/", headers={"host": "lab.example:8080"}).text)
    assert doc.by_id("handout-link").text.strip().endswith(f"http://lab.example:8080/en/?{canonical_query(DEFAULTS)}")


@pytest.mark.parametrize("query", ["gpus=16", "gpus=-3&method=zz", "%%%", "", "present=1&step=7"])
def test_the_handout_route_draws_the_normalised_states_address_and_code(client, query):
    r = client.get(f"/zh/handout?{query}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    asked = parse_qs(query, keep_blank_values=True)
    state = open_step(normalise(asked)[0], asked)  # a bare step link is its step's workload, as on the page
    url = f"http://testserver/zh/?{canonical_query(state)}"
    doc = parse(r.text)
    assert doc.by_id("handout-link").text.strip() == url and str(qr_svg(url)) in r.text
    assert r.headers["x-handout-query"] == canonical_query(state) == doc.by_id("handout-qr").get("data-query")


def test_the_handout_route_is_404_in_no_language(client):
    assert client.get("/fr/handout?gpus=16").status_code == 404


# --- GET /api/compare: the same figures as JSON, strict ---------------------------------------------------------


def test_the_api_answers_the_pages_figures(client):
    r = client.get("/api/compare?" + urlencode({"a": "", "b": B_QUERY, "price_a100_80g": "2"}))
    assert r.status_code == 200, r.text[:300]
    out = r.json()
    left, right = DEFAULTS, normalise(parse_qs(B_QUERY))[0]
    assert (out["a"]["query"], out["b"]["query"]) == (canonical_query(left), canonical_query(right))
    rows = {row["id"]: row for row in out["rows"]}
    assert list(rows) == list(ROW_IDS)
    # A: 18.5549 GPU-hours × $2.00 (given) = $37.11; B: 7.8414 GPU-hours × $3.99 (Lambda, H100 on-demand) = $31.29
    assert rows["usd"]["a"] == pytest.approx(18.5549 * 2.00, abs=1e-3)
    assert rows["usd"]["b"] == pytest.approx(7.8414 * 3.99, abs=1e-3)
    assert (out["a"]["usd_per_gpu_hour"], out["a"]["price_given"], out["b"]["price_given"]) == (2.0, True, False)
    # each side's figures are /api/evaluate's for its query
    for side, row_key in (("a", "a"), ("b", "b")):
        ev = client.get(f"/api/evaluate?{out[side]['query']}").json()
        assert rows["step_s"][row_key] == pytest.approx(ev["plan"]["step_s"])
        assert rows["memory_gb"][row_key] == pytest.approx(ev["plan"]["memory_per_gpu_gb"])
        assert rows["gpu_hours"][row_key] == pytest.approx(ev["plan"]["gpu_hours"])


@pytest.mark.parametrize(("query", "locs"), [
    ({"a": "gpus=0", "b": "kl=abc"}, [["query", "a", "gpus"], ["query", "b", "kl"]]),
    ({"a": "/en/?response_tokens=4096&response_max_tokens=1024", "b": ""}, [["query", "a", "response_max_tokens"]]),
    ({"a": "x" * (MAX_STATE_CHARS + 1), "b": ""}, [["query", "a"]]),
    ({"b": ""}, [["query", "a"]]),
    ({"a": "", "b": "", "price_h100_80g": "0"}, [["query", "price_h100_80g"]]),
])
def test_the_api_refuses_a_bad_side_naming_it(client, query, locs):
    r = client.get("/api/compare?" + urlencode(query))
    assert r.status_code == 422
    assert [e["loc"] for e in r.json()["detail"]] == locs


# --- the planner's table: compare the answer with another option --------------------------------------------------


def test_the_planners_compare_link_shows_the_planners_dollars(client):
    """Each option's "compare with the answer" opens the answer (a) against it (b); the dollars there are the
    planner's cost of both, at the planner's prices (one home for a price: prices.toml, or price_<gpu>)."""
    from app.model.planner import plan, plan_query

    q = plan_query(max_gpus=16, prices={"h100_80g": 3.0})
    p = plan(DEFAULTS, q)
    doc = parse(client.get("/en/plan?max_gpus=16&price_h100_80g=3").text)
    links = [html.unescape(e.get("href")) for e in doc.having("data-link", "compare")]
    fitting = [o for o in p.options if o.fits]
    assert links and p.cheapest is not None  # every option the table lists but the answer itself
    by_query = {canonical_query(o.inputs): o for o in fitting}
    t = translator("en")
    for link in links:
        q_link = query_of(link)
        assert q_link["a"] == canonical_query(p.cheapest.inputs)
        _, page = _page(client, "en", q_link)
        option = by_query[q_link["b"]]
        assert _cells(page, "usd")[1:3] == [t.fmt("usd", p.cheapest.cost_usd), t.fmt("usd", option.cost_usd)]


def test_a_small_ratio_reads_as_a_share_in_chinese() -> None:
    # b / a = 6.2 / 100: 「只有左边的 6%」, not 「是左边的 0.062 倍」; 2.5 stays 「是左边的 2.5 倍」
    from app.i18n import translator
    from app.view.compare import PhaseRow

    small = PhaseRow(id="step", a=100.0, b=6.2, unit="dur", delta=-93.8, ratio=0.062)
    large = PhaseRow(id="step", a=10.0, b=25.0, unit="dur", delta=15.0, ratio=2.5)
    zh = translator("zh")
    assert small.ratio_key == "compare.ratio_small" and large.ratio_key == "compare.ratio"
    assert zh(small.ratio_key, ratio=small.ratio, pct=small.ratio_pct).startswith("只有左边的 6")
    assert zh(large.ratio_key, ratio=large.ratio, pct=large.ratio_pct) == "是左边的 2.5 倍"
    # b / a = 85 / 100, a part of the left: 「是左边的 85%」, not 「是左边的 0.85 倍」; English keeps "×0.85"
    part = PhaseRow(id="step", a=100.0, b=85.0, unit="dur", delta=-15.0, ratio=0.85)
    assert part.ratio_key == "compare.ratio_part"
    assert zh(part.ratio_key, ratio=part.ratio, pct=part.ratio_pct) == "是左边的 85%"
    assert translator("en")(part.ratio_key, ratio=part.ratio, pct=part.ratio_pct) == "×0.85"


def test_what_moved_writes_whole_numbers_as_the_prose_does(client) -> None:  # noqa: ANN001
    # the move's line uses the language's thousands separator, as the cards and the prose do (the learner read)
    r = client.get("/en/?demos=20000", headers={"HX-Request": "true",
                                                "HX-Current-URL": "http://testserver/en/?demos=13000"})
    assert "13,000 → <b>20,000</b>" in r.text and "13000 →" not in r.text
