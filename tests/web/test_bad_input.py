"""Bad parameters never give a 500: the page clamps and says so (in the page's language); the API answers 422.

Second edition: the rules between parameters (a named arch sets policy_b, the longest response is at least the
mean, staleness needs separate placement on ≥ 4 GPUs, DPO's β ≥ 0.001) are notices on the page and, on the API,
applied to valid values (200, the same state as the page), never a 422 or a 500."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import pytest
from support.html import parse
from support.urls import HTMX, LANGS

from app.model import DEFAULTS
from app.model.assumptions import ARCHS
from app.model.inputs import CHOICE_SPECS, DPO_MIN_BETA, NUMBER_SPECS, PARAM_NAMES, fmt_param

XSS_TAG = "<script>alert(1)</script>"
XSS_ATTR = '"onmouseover=alert(1)'
HUGE = "9" * 10_240
UNSAFE = ("<script>alert", '"onmouseover=')

# (parameter, raw value, the value the form must then hold)
BAD = [
    ("rollouts", "-5", "0"),
    ("rollouts", HUGE, "65536"),
    ("policy_b", "abc", "7"),
    ("policy_b", "七", "7"),
    ("rm_b", "0.0000001", "0.1"),
    ("gpu", "tpu", "a100_80g"),
    ("gpu", XSS_ATTR, "a100_80g"),
    ("method", XSS_TAG, "ppo"),
    ("placement", "everywhere", "colocated"),
    ("kl", "nan", "0.02"),
    ("kl", "-inf", "0"),  # β = 0 is allowed under ppo (the default method): no KL term, no reference
    ("kl", "-1", "0"),
    ("kl", "5", "1"),
    ("gpus", "inf", "4096"),
    ("engine_tp", "100", "64"),
    ("gpus", "0", "1"),
    ("pairs", "1e309", "10000000"),
    ("demos", XSS_ATTR, "13000"),
    ("epochs", XSS_TAG, "1"),
    ("eval_every", "٣٠٠٠", "1000"),  # Arabic-Indic digits: a number, out of range
    ("prompt_tokens", "1" * 5_000, "131072"),
    ("response_tokens", "🙂", "1024"),
    # the second edition's parameters (issue 15's list first); the value used from the parameter table
    ("method", "ppo2", CHOICE_SPECS["method"].default),
    ("group", "0", fmt_param(NUMBER_SPECS["group"].minimum)),  # 1 response per prompt
    ("arch", "gpt5", CHOICE_SPECS["arch"].default),  # custom
    # 8 < the minimum 16, then 16 < the mean 1024: two notices, both about response_max_tokens
    ("response_max_tokens", "8", fmt_param(DEFAULTS.response_tokens)),
    ("staleness", "9", fmt_param(NUMBER_SPECS["staleness"].maximum)),  # 4 steps
    ("reward", "human", CHOICE_SPECS["reward"].default),
    ("engine", "trtllm", CHOICE_SPECS["engine"].default),
    ("offload", "everything", CHOICE_SPECS["offload"].default),
    ("tuning", "qlora", CHOICE_SPECS["tuning"].default),
    ("prompts", "-1", fmt_param(NUMBER_SPECS["prompts"].minimum)),
    ("gpu", "h30", CHOICE_SPECS["gpu"].default),
]
BAD_IDS = [f"{p}={v[:12]!r}" for p, v, _ in BAD]


def _form_value(doc, name: str) -> str | None:
    for e in doc.having("name", name, tag="input"):
        if e.get("type") == "radio":
            if "checked" in e.attrs:
                return e.get("value")
        else:
            return e.get("value")
    return None


def _notices(doc) -> list[str]:
    return [e.text for e in doc.elements if "notices" in (e.get("class") or "").split()]


_NOTICE_LIST = re.compile(r'class="notices"[^>]*>(.*?)</ul>', re.S)


def _notice_lines(body: str) -> list[str]:
    """Each notice of the page's (or partial's) notice list, as its HTML."""
    m = _NOTICE_LIST.search(body)
    return re.findall(r"<li[^>]*>.*?</li>", m.group(1), re.S) if m else []


def _field_of(line: str) -> str | None:
    """The parameter a notice names: its item's data-field (the sentence names it by its form label)."""
    m = re.match(r'\s*<li data-field="([^"]*)"', line)
    return m.group(1) if m else None


# the other fields a bad value may move by a rule, from the default (colocated) state: a stale step needs separate
FOLLOW_ONS = {"gpus": {"placement"}, "staleness": {"placement"}}


def _assert_notices_name(body: str, name: str) -> None:
    """The first notice names the field given; any other names it too, or a field a rule moved from it."""
    fields = [_field_of(line) for line in _notice_lines(body)]
    assert fields and fields[0] == name, fields
    assert set(fields) - {name} <= FOLLOW_ONS.get(name, set()), fields


def _assert_safe(body: str) -> None:
    for bad in UNSAFE:
        assert bad not in body, f"unescaped {bad!r} in the answer"
    assert HUGE[:200] not in body, "a 10 kB value is echoed back whole"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "raw", "used"), BAD, ids=BAD_IDS)
def test_page_clamps_and_names_the_field(client, lang, name, raw, used):
    r = client.get(f"/{lang}/?{urlencode({name: raw})}")
    assert r.status_code == 200
    _assert_safe(r.text)
    doc = parse(r.text)
    notices = _notices(doc)
    assert len(notices) == 1 and name in notices[0], notices
    _assert_notices_name(r.text, name)
    value = _form_value(doc, name)
    if name in CHOICE_SPECS:
        assert value == used
    else:
        assert value is not None and float(value) == float(used)


@pytest.mark.parametrize(("name", "raw", "used"), BAD, ids=BAD_IDS)
def test_partial_clamps_and_names_the_field(client, name, raw, used):
    r = client.get(f"/en/?{urlencode({name: raw})}", headers={
        **HTMX, "HX-Current-URL": "http://testserver/en/"})
    assert r.status_code == 200
    _assert_safe(r.text)
    notices = _notices(parse(r.text))
    assert len(notices) == 1 and name in notices[0]
    _assert_notices_name(r.text, name)


@pytest.mark.parametrize(("name", "raw", "used"), BAD, ids=BAD_IDS)
def test_api_answers_422_naming_the_field(client, name, raw, used):
    r = client.get(f"/api/evaluate?{urlencode({name: raw})}")
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/json")
    detail = r.json()["detail"]
    assert any(name in err["loc"] for err in detail), detail


COMPARE_BAD = [*BAD[:8], *BAD[-11:]]  # the first edition's first eight and the second edition's


@pytest.mark.parametrize(("name", "raw", "used"), COMPARE_BAD, ids=[f"{p}={v[:12]!r}" for p, v, _ in COMPARE_BAD])
def test_compare_page_clamps_both_sides(client, name, raw, used):
    r = client.get(f"/en/compare?{urlencode({name: raw, 'b_' + name: raw})}")
    assert r.status_code == 200
    _assert_safe(r.text)
    notices = _notices(parse(r.text))
    assert notices and name in notices[0]


@pytest.mark.parametrize("name", ["rollouts", "gpu", "kl"])
def test_page_notice_is_translated(client, name):
    bad = {"rollouts": "-5", "gpu": "tpu", "kl": "nan"}[name]
    zh, en = (_notices(parse(client.get(f"/{lang}/?{name}={bad}").text)) for lang in ("zh", "en"))
    assert zh and en and zh[0] != en[0]
    assert re.search(r"[\u4e00-\u9fff]", zh[0]), zh[0]
    assert not re.search(r"[\u4e00-\u9fff]", en[0]), en[0]


@pytest.mark.parametrize("lang", LANGS)
def test_repeated_parameter_last_wins(client, lang):
    doc = parse(client.get(f"/{lang}/?rollouts=1&rollouts=2").text)
    assert _form_value(doc, "rollouts") == "2"
    assert not _notices(doc)
    assert client.get("/api/evaluate?rollouts=1&rollouts=2").json()["inputs"]["rollouts"] == 2


@pytest.mark.parametrize("name", PARAM_NAMES)
def test_empty_value_takes_the_default_on_the_page(client, name):
    """An empty field (a cleared form box) is a missing parameter on the page: the default, no 500."""
    r = client.get(f"/en/?{name}=")
    assert r.status_code == 200
    value = _form_value(parse(r.text), name)
    assert value == DEFAULTS.query()[name]


@pytest.mark.parametrize("name", PARAM_NAMES)
def test_empty_value_is_422_on_the_api(client, name):
    r = client.get(f"/api/evaluate?{name}=")
    assert r.status_code == 422
    assert any(name in err["loc"] for err in r.json()["detail"])


@pytest.mark.parametrize("path", ["/en/?zzz=1&rollouts=64", "/api/evaluate?zzz=1&rollouts=64",
                                  "/zh/compare?zzz=%3Cscript%3E&rollouts=64"])
def test_unknown_parameters_are_ignored(client, path):
    r = client.get(path)
    assert r.status_code == 200
    _assert_safe(r.text)
    if path.startswith("/api/"):
        assert r.json()["inputs"]["rollouts"] == 64
    else:
        assert not _notices(parse(r.text))


@pytest.mark.parametrize(("name", "raw"), [("epochs", "1.5"), ("gpus", "7.5")])
def test_rounding_notice(client, name, raw):
    notices = _notices(parse(client.get(f"/en/?{name}={raw}").text))
    assert notices and name in notices[0]


# --- hostile headers ---------------------------------------------------------------------------------------------

HOSTILE_HEADERS = [
    {"HX-Current-URL": "http://testserver/en/?rollouts=" + quote(XSS_TAG)},
    {"HX-Current-URL": "http://testserver/en/?gpu=" + quote(XSS_ATTR) + "&demos=" + HUGE},
    {"HX-Current-URL": "http://evil.example/en/?rollouts=1"},
    {"HX-Current-URL": "not a url at all \u202e".encode()},
    {"Referer": "http://testserver/en/?method=" + quote(XSS_TAG)},
    {"Accept-Language": XSS_TAG},
    {"Cookie": "lang=" + quote(XSS_ATTR)},
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "partial"])
@pytest.mark.parametrize("headers", HOSTILE_HEADERS, ids=range(len(HOSTILE_HEADERS)))
def test_hostile_headers_are_harmless(client, headers, htmx):
    r = client.get("/en/?rollouts=640", headers={**headers, **(HTMX if htmx else {})})
    assert r.status_code == 200
    _assert_safe(r.text)


# --- the rules between parameters (second edition) -------------------------------------------------------------

def _state(body: str) -> dict[str, str]:
    """The state a page shows: the query of its language switch link (the contract: it keeps the parameters)."""
    (link, *_) = parse(body).having("hreflang", tag="a")
    return {k: v[-1] for k, v in parse_qs(urlsplit(link.get("href") or "").query).items()}


ARCH = "llama3_8b"
RULES = [
    # (query, the notices in order as (field, kind), the state's values that the rules set, API valid)
    ({"arch": ARCH, "policy_b": "7"}, [("policy_b", "arch_sets_size")],
     {"policy_b": fmt_param(ARCHS[ARCH].total_b)}, True),
    ({"arch": ARCH, "policy_b": fmt_param(ARCHS[ARCH].total_b)}, [], {"policy_b": fmt_param(ARCHS[ARCH].total_b)},
     True),
    # 512 tokens is in range (16–131,072) but below the mean 1024: the page raises it with a notice, the API refuses
    # it (422 naming response_max_tokens) instead of silently answering for another state
    ({"response_max_tokens": "512"}, [("response_max_tokens", "below_mean")], {"response_max_tokens": "1024"},
     False),
    ({"response_tokens": "2048", "response_max_tokens": "1024"}, [("response_max_tokens", "below_mean")],
     {"response_max_tokens": "2048"}, False),
    ({"response_tokens": "2048"}, [], {"response_max_tokens": "2048"}, True),  # absent: the mean, dragged along
    # a bad mean takes its default 1024, and the longest response 512 is then below it: two notices
    ({"response_tokens": "abc", "response_max_tokens": "512"},
     [("response_tokens", "invalid"), ("response_max_tokens", "below_mean")], {"response_max_tokens": "1024"}, False),
    ({"staleness": "2", "placement": "colocated"}, [("placement", "async_needs_separate")],
     {"staleness": "2", "placement": "separate"}, True),
    # 2 GPUs: no asynchronous run (it needs separate placement, which needs 4), and separate falls back too
    ({"staleness": "2", "gpus": "2", "placement": "separate"},
     [("staleness", "async_needs_gpus"), ("placement", "separate_needs_gpus")],
     {"staleness": "0", "placement": "colocated"}, True),
    ({"method": "dpo", "kl": "0"}, [("kl", "dpo_needs_beta")], {"kl": fmt_param(DPO_MIN_BETA)}, True),
    ({"method": "dpo", "kl": "-1"}, [("kl", "below_min"), ("kl", "dpo_needs_beta")], {"kl": fmt_param(DPO_MIN_BETA)},
     False),
    ({"method": "ppo", "kl": "0"}, [], {"kl": "0"}, True),  # β = 0 allowed under ppo and grpo
    ({"method": "grpo", "kl": "0"}, [], {"kl": "0"}, True),
]
RULE_IDS = ["&".join(f"{k}={v}" for k, v in q.items()) for q, *_ in RULES]


@pytest.mark.parametrize(("query", "expected", "state", "api_ok"), RULES, ids=RULE_IDS)
def test_rules_between_parameters_page_partial_and_api_agree(client, query, expected, state, api_ok):
    url = urlencode(query)
    pages = {lang: client.get(f"/{lang}/?{url}") for lang in LANGS}
    partial = client.get(f"/en/?{url}", headers={**HTMX, "HX-Current-URL": "http://testserver/en/"})
    for r in (*pages.values(), partial):
        assert r.status_code == 200
        lines = _notice_lines(r.text)
        assert [_field_of(line) for line in lines] == [f for f, _ in expected], lines
    shown = _state(pages["en"].text)
    assert _state(pages["zh"].text) == shown
    assert {k: shown[k] for k in state} == state, shown
    r = client.get(f"/api/evaluate?{url}")
    if api_ok:  # a rule between valid values is not a validation error: 200, the state the page shows
        assert r.status_code == 200, r.text[:300]
        got = {k: fmt_param(v) for k, v in r.json()["inputs"].items() if k in PARAM_NAMES}
        assert got == shown
    else:
        assert r.status_code == 422
        assert {e["loc"][1] for e in r.json()["detail"]} <= set(query)


@pytest.mark.parametrize(("query", "expected", "state", "api_ok"), RULES, ids=RULE_IDS)
def test_rule_notices_say_what_was_given_and_used(query, expected, state, api_ok):  # noqa: ARG001
    """The model's notices for the rules: the kinds in order, and the value used is the value the state shows."""
    from app.model import normalise

    inputs, notices = normalise({k: [v] for k, v in query.items()})
    assert [(n.field, n.kind) for n in notices] == expected
    assert {k: inputs.query()[k] for k in state} == state


def test_the_api_refuses_a_longest_response_below_the_mean_naming_the_field(client):
    """422 with the field, the mean it must reach and the value given; equal or above, or absent, is fine."""
    r = client.get("/api/evaluate?response_tokens=2048&response_max_tokens=1024")
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/json")
    (err,) = r.json()["detail"]
    assert err["loc"] == ["query", "response_max_tokens"] and err["ctx"]["ge"] == 2048 and err["input"] == "1024"
    assert "response_tokens" in err["msg"]
    for ok in ("response_tokens=2048&response_max_tokens=2048", "response_tokens=2048", "response_max_tokens=4096"):
        assert client.get(f"/api/evaluate?{ok}").status_code == 200, ok


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_raises_a_longest_response_below_the_mean_and_says_so(client, lang):
    body = client.get(f"/{lang}/?response_tokens=2048&response_max_tokens=1024").text
    notice = re.search(r'<li data-field="response_max_tokens">(.*?)</li>', body, re.S)
    assert notice and "1024" in notice.group(1) and "2048" in notice.group(1).replace(",", "")
    assert re.search(r'id="in-response_max_tokens"[^>]*value="2048"', body)
