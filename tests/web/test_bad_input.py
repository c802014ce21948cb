"""Bad parameters never give a 500: the page clamps and says so (in the page's language); the API answers 422."""

from __future__ import annotations

import re
from urllib.parse import quote, urlencode

import pytest
from support.html import parse
from support.urls import HTMX, LANGS

from app.model import DEFAULTS
from app.model.inputs import PARAM_NAMES

XSS_TAG = "<script>alert(1)</script>"
XSS_ATTR = '"onmouseover=alert(1)'
HUGE = "9" * 10_240
UNSAFE = ("<script>alert", '"onmouseover=')

# (parameter, raw value, the value the form must then hold)
BAD = [
    ("rollouts", "-5", "0"),
    ("rollouts", HUGE, "8192"),
    ("policy_b", "abc", "7"),
    ("policy_b", "七", "7"),
    ("rm_b", "0.0000001", "0.1"),
    ("gpu", "tpu", "a100_80g"),
    ("gpu", XSS_ATTR, "a100_80g"),
    ("method", XSS_TAG, "ppo"),
    ("placement", "everywhere", "separate"),
    ("kl", "nan", "0.02"),
    ("kl", "-inf", "0.001"),
    ("kl", "5", "1"),
    ("gpus", "inf", "4096"),
    ("gpus", "0", "1"),
    ("pairs", "1e309", "10000000"),
    ("demos", XSS_ATTR, "13000"),
    ("epochs", XSS_TAG, "1"),
    ("eval_every", "٣٠٠٠", "1000"),  # Arabic-Indic digits: a number, out of range
    ("prompt_tokens", "1" * 5_000, "32768"),
    ("response_tokens", "🙂", "1024"),
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
    value = _form_value(doc, name)
    if name in ("gpu", "method", "placement"):
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


@pytest.mark.parametrize(("name", "raw", "used"), BAD, ids=BAD_IDS)
def test_api_answers_422_naming_the_field(client, name, raw, used):
    r = client.get(f"/api/evaluate?{urlencode({name: raw})}")
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/json")
    detail = r.json()["detail"]
    assert any(name in err["loc"] for err in detail), detail


@pytest.mark.parametrize(("name", "raw", "used"), BAD[:8], ids=BAD_IDS[:8])
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
