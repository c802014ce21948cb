"""Every route, in both languages, with and without htmx headers (fasthx-style tables: route × headers → answer)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from support.html import parse
from support.urls import HTML_LANG, HTMX, LANGS, lab_path, query_of

from app.i18n import catalogue
from app.model import evaluate
from app.model.inputs import PARAM_NAMES, PRACTICE_NAMES, fmt_param
from app.model.meters import METER_IDS
from app.model.scenarios import PRESETS, WALKTHROUGH

# --- / → /zh/ or /en/ -----------------------------------------------------------------------------------------

# (cookie lang, Accept-Language, query string, expected Location)
ROOT_REDIRECTS = [
    (None, None, "", "/zh/"),
    (None, "en-US,en;q=0.9", "", "/en/"),
    (None, "fr-FR,fr;q=0.9,en;q=0.5", "", "/en/"),
    (None, "zh-CN,zh;q=0.9,en;q=0.8", "", "/zh/"),
    (None, "fr, de", "", "/zh/"),
    ("en", None, "", "/en/"),
    ("en", "zh-CN", "", "/en/"),
    ("zh", "en-GB", "", "/zh/"),
    ("fr", "en", "", "/en/"),  # an unknown cookie value is ignored
    (None, None, "rollouts=64&gpu=h100_80g", "/zh/?rollouts=64&gpu=h100_80g"),
    ("en", None, "step=3&x=%3Cb%3E", "/en/?step=3&x=%3Cb%3E"),
]


@pytest.mark.parametrize("hx", [{}, HTMX], ids=["plain", "htmx"])
@pytest.mark.parametrize(("cookie", "accept", "query", "location"), ROOT_REDIRECTS)
def test_root_redirects_by_cookie_then_accept_language(client, hx, cookie, accept, query, location):
    headers = dict(hx)
    if cookie:
        headers["Cookie"] = f"lang={cookie}"
    if accept:
        headers["Accept-Language"] = accept
    r = client.get("/" + (f"?{query}" if query else ""), headers=headers)
    assert r.status_code == 307
    assert r.headers["location"] == location
    assert {"cookie", "accept-language"} <= {v.strip().lower() for v in r.headers["vary"].split(",")}


@pytest.mark.parametrize(("path", "location"), [
    ("/zh", "/zh/"), ("/en", "/en/"), ("/en?rollouts=64&step=2", "/en/?rollouts=64&step=2"),
])
def test_language_without_slash_redirects_permanently(client, path, location):
    r = client.get(path)
    assert r.status_code == 308
    assert r.headers["location"] == location


# --- the lab page: full page or live partial -------------------------------------------------------------------

STEP5 = WALKTHROUGH[4].inputs  # a non-default state with a walkthrough step, so "keeps the parameters" means something

# (headers, expected: full page or partial)
LAB_VARIANTS = [
    ({}, "full"),
    (HTMX, "partial"),
    ({**HTMX, "HX-History-Restore-Request": "true"}, "full"),
    ({**HTMX, "HX-Boosted": "true"}, "full"),
    ({"HX-Boosted": "true"}, "full"),  # HX-Boosted without HX-Request is not htmx
]


def _vary(r) -> set[str]:
    return {v.strip().lower() for v in r.headers.get("vary", "").split(",") if v.strip()}


@pytest.mark.parametrize(("headers", "expected"), LAB_VARIANTS,
                         ids=["plain", "htmx", "history-restore", "boosted", "boosted-only"])
@pytest.mark.parametrize("lang", LANGS)
def test_lab_page_full_or_partial(client, lang, headers, expected):
    r = client.get(lab_path(lang, STEP5), headers=headers)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert "hx-request" in _vary(r)
    doc = parse(r.text)
    if expected == "full":
        html = doc.tags("html")
        assert len(html) == 1 and html[0].get("lang") == HTML_LANG[lang]
        assert "hx-swap-oob" not in r.text
        assert len(doc.having("data-stage")) == 1
    else:
        assert not doc.tags("html") and not doc.tags("head") and not doc.tags("body")
        assert doc.having("hx-swap-oob"), "the partial swaps its regions out of band"
        # every region of a partial is out-of-band and lands on its own id
        assert all(e.get("id") for e in doc.having("hx-swap-oob"))
    # the language switch keeps the state: on the page, and sent again by a partial (a region like the others)
    other = "en" if lang == "zh" else "zh"
    switch = doc.having("hreflang", other, tag="a")
    assert len(switch) == 1
    assert switch[0].get("href", "").startswith(f"/{other}/?")
    assert query_of(switch[0].get("href")) == STEP5.query()


@pytest.mark.parametrize("lang", LANGS)
def test_first_full_page_sets_language_cookie(client, lang):
    r = client.get(f"/{lang}/")
    assert re.search(rf"(^|;|,)\s*lang={lang}\b", r.headers.get("set-cookie", ""))
    assert "etag" not in r.headers  # the cookie-setting answer is personal: not cached
    again = client.get(f"/{lang}/", headers={"Cookie": f"lang={lang}"})
    assert "set-cookie" not in again.headers


# --- other pages, API and files ---------------------------------------------------------------------------------

PRESET_IDS = [p.id for p in PRESETS]

# (path, status, content-type prefix, a string the body must contain)
PAGES = [
    ("/zh/tutorial", 200, "text/html", '<html lang="zh-CN"'),
    ("/en/tutorial", 200, "text/html", '<html lang="en"'),
    ("/zh/compare", 200, "text/html", '<html lang="zh-CN"'),
    ("/en/compare", 200, "text/html", '<html lang="en"'),
    ("/en/compare?method=dpo&pairs=5000", 200, "text/html", "data-side="),
    ("/api/evaluate", 200, "application/json", '"stage"'),
    ("/api/evaluate?method=dpo&gpus=16", 200, "application/json", '"dpo"'),
    ("/healthz", 200, "application/json", '"ok"'),
    ("/favicon.ico", 200, "image/", "<svg"),
    ("/static/htmx-2.0.11.min.js", 200, "text/javascript", "htmx"),
    ("/docs", 200, "text/html", "/openapi.json"),
    ("/openapi.json", 200, "application/json", "/api/evaluate"),
]


@pytest.mark.parametrize("hx", [{}, HTMX], ids=["plain", "htmx"])
@pytest.mark.parametrize(("path", "status", "ctype", "needle"), PAGES)
def test_page(client, path, status, ctype, needle, hx):
    r = client.get(path, headers=hx)
    assert r.status_code == status
    assert r.headers["content-type"].startswith(ctype)
    assert needle in r.text


def test_htmx_is_served_immutable(client):
    r = client.get("/static/htmx-2.0.11.min.js")
    assert r.status_code == 200
    assert "immutable" in r.headers["cache-control"]


def test_openapi_documents_every_parameter(client):
    spec = client.get("/openapi.json").json()
    params = {p["name"] for p in spec["paths"]["/api/evaluate"]["get"]["parameters"]}
    assert set(PARAM_NAMES) <= params


# --- compare: every ordered pair of presets --------------------------------------------------------------------


def _compare_query(a, b) -> str:
    """The pair's query: the right side's every parameter as a ``b_`` override, the 2026 practice inputs too (their
    canonical query leaves a default out, and a ``b_`` side keeps the left's value of whatever it does not name)."""
    q = dict(a.inputs.query())
    q.update({f"b_{k}": v for k, v in b.inputs.query().items()})
    q.update({f"b_{k}": fmt_param(getattr(b.inputs, k)) for k in PRACTICE_NAMES})
    return urlencode(q)


_OPEN_LINK = re.compile(r'data-side="(left|right)".*?<a class="button" href="([^"]+)"', re.S)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("b", PRESETS, ids=PRESET_IDS)
@pytest.mark.parametrize("a", PRESETS, ids=PRESET_IDS)
def test_compare_every_pair_of_presets(client, lang, a, b):
    r = client.get(f"/{lang}/compare?{_compare_query(a, b)}")
    assert r.status_code == 200
    doc = parse(r.text)
    assert not doc.having("class", "notices")
    links = dict(_OPEN_LINK.findall(r.text))
    assert query_of(links["left"].replace("&amp;", "&")) == a.inputs.query()
    assert query_of(links["right"].replace("&amp;", "&")) == b.inputs.query()
    ra, rb = evaluate(a.inputs), evaluate(b.inputs)
    removed = {e.get("data-removed") for e in doc.having("data-removed")}
    added = {e.get("data-added") for e in doc.having("data-added")}
    assert removed == {n for n, s in ra.nodes.items() if s.active and not rb.nodes[n].active}
    assert added == {n for n, s in rb.nodes.items() if s.active and not ra.nodes[n].active}
    t = catalogue(lang)
    heads = [e.text for e in doc.tags("h2") if ":" in e.text or "：" in e.text]
    assert any(t[f"stage.{ra.stage}.name"] in h for h in heads)
    assert any(t[f"stage.{rb.stage}.name"] in h for h in heads)
    assert len(doc.having("data-compare-meter")) == len(METER_IDS)


# --- not found ----------------------------------------------------------------------------------------------------

# (path, request headers, language the 404 page must be in)
NOT_FOUND = [
    ("/fr/", {}, "zh"),
    ("/fr/", {"Accept-Language": "en"}, "en"),
    ("/fr/", {"Cookie": "lang=en"}, "en"),
    ("/en/nope", {}, "en"),
    ("/zh/nope", {"Accept-Language": "en"}, "zh"),
    ("/en/nope/deeper", {}, "en"),
    ("/fr/tutorial", {"Accept-Language": "en"}, "en"),
    ("/fr", {}, "zh"),
    ("/static/nope.js", {"Cookie": "lang=en"}, "en"),
]


@pytest.mark.parametrize("hx", [{}, HTMX], ids=["plain", "htmx"])
@pytest.mark.parametrize(("path", "headers", "lang"), NOT_FOUND)
def test_not_found_is_an_html_page_in_the_right_language(client, path, headers, lang, hx):
    r = client.get(path, headers={**headers, **hx})
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert f'<html lang="{HTML_LANG[lang]}"' in r.text
    assert catalogue(lang)["error.404.title"] in r.text
    assert f'href="/{lang}/"' in r.text


def test_unknown_api_path_is_json_404(client):
    r = client.get("/api/nope")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("application/json")


# --- caching: ETag / 304 and Vary ------------------------------------------------------------------------------------

ETAGGED = [
    pytest.param("/en/", {"Cookie": "lang=en"}, id="lab-en"),
    pytest.param("/zh/?" + urlencode(PRESETS[3].inputs.query()), {"Cookie": "lang=zh"}, id="lab-zh-preset"),
    pytest.param("/en/?rollouts=64", HTMX, id="partial"),
    pytest.param("/en/tutorial", {}, id="tutorial-en"),
    pytest.param("/zh/tutorial", {}, id="tutorial-zh"),
    pytest.param("/static/htmx-2.0.11.min.js", {}, id="static"),
    pytest.param("/favicon.ico", {}, id="favicon"),
]


@pytest.mark.parametrize(("path", "headers"), ETAGGED)
def test_etag_revalidates_to_304(client, path, headers):
    first = client.get(path, headers=headers)
    assert first.status_code == 200
    etag = first.headers.get("etag")
    assert etag
    second = client.get(path, headers={**headers, "If-None-Match": etag})
    assert second.status_code == 304
    assert second.content == b""
    assert second.headers.get("etag") == etag
    stale = client.get(path, headers={**headers, "If-None-Match": '"not-this-one"'})
    assert stale.status_code == 200


_LAB = lab_path("en", PRESETS[2].inputs)
_PREV = "http://testserver" + lab_path("en", PRESETS[1].inputs)

# A header whose value changes the body of a cacheable answer must be named in Vary (of every answer for the
# URL: a cache keys on the Vary of the response it stored).  (base headers, header toggled, its value)
VARY = [
    pytest.param({}, "HX-Request", "true", id="hx-request"),
    pytest.param(HTMX, "HX-Boosted", "true", id="hx-boosted"),
    pytest.param(HTMX, "HX-Current-URL", _PREV, id="hx-current-url"),
    pytest.param({**HTMX, "HX-Current-URL": "http://testserver" + _LAB}, "HX-History-Restore-Request", "true",
                 id="hx-history-restore"),
    pytest.param({"Cookie": "lang=en"}, "Referer", _PREV, id="referer"),
]


@pytest.mark.parametrize(("base", "header", "value"), VARY)
def test_vary_names_every_header_the_answer_depends_on(client, base, header, value):
    without = client.get(_LAB, headers=base)
    with_it = client.get(_LAB, headers={**base, header: value})
    assert without.text != with_it.text, "the header is supposed to change the answer"
    for r in (without, with_it):
        assert header.lower() in _vary(r), f"Vary: {r.headers.get('vary')}"
