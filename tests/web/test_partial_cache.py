"""The in-process cache of htmx partials (app/partial_cache.py): a cached answer is byte for byte the answer the
app gives without it, for every header that can change the answer; nothing else is stored; it stays in budget."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.model import DEFAULTS
from app.model.inputs import NUMBERS
from app.partial_cache import PartialCacheMiddleware, cache_key

from .helpers import response_cache

BASE = "http://testserver"


@pytest.fixture
def cache(client: TestClient) -> PartialCacheMiddleware:
    c = response_cache(client)
    budget = c.max_bytes
    c.entries.clear()
    c.size = c.hits = c.misses = 0
    yield c
    c.max_bytes = budget
    c.entries.clear()
    c.size = 0


def lab(lang: str = "en", **changes: object) -> str:
    return f"/{lang}/?{urlencode(DEFAULTS.query(**changes))}"


def partial_headers(prev: str, **extra: str) -> dict[str, str]:
    return {"HX-Request": "true", "HX-Current-URL": BASE + prev, **extra}


def uncached(client: TestClient, cache: PartialCacheMiddleware, method: str, url: str, headers) -> tuple:
    budget, cache.max_bytes = cache.max_bytes, 0
    try:
        r = client.request(method, url, headers=headers)
    finally:
        cache.max_bytes = budget
    return r.status_code, r.content, sorted(r.headers.multi_items())


def answer(client: TestClient, method: str, url: str, headers) -> tuple:
    r = client.request(method, url, headers=headers)
    return r.status_code, r.content, sorted(r.headers.multi_items())


def test_a_repeated_move_is_answered_from_the_cache_with_the_same_bytes(client, cache) -> None:
    url, headers = lab(rollouts=640), partial_headers(lab(rollouts=512))
    first = answer(client, "GET", url, headers)
    assert (cache.hits, cache.misses, len(cache.entries)) == (0, 1, 1)
    again = answer(client, "GET", url, headers)
    assert (cache.hits, cache.misses) == (1, 1)
    assert again == first == uncached(client, cache, "GET", url, headers)
    assert first[0] == 200 and dict(first[2])["content-encoding"] == "gzip"
    assert "content-security-policy" in dict(first[2]), "a cached answer still gets the security headers"


def test_every_header_that_changes_the_answer_is_part_of_the_key(client, cache) -> None:
    url = lab(rollouts=640)
    variants = [
        partial_headers(lab(rollouts=512)),
        partial_headers(lab(rollouts=1024)),  # another previous state: another diff
        partial_headers(lab("zh", rollouts=512)),  # previous URL in the other language: still a lab URL
        partial_headers(lab(rollouts=512), **{"Accept-Encoding": "identity"}),
        {"HX-Request": "true", "Referer": BASE + lab(rollouts=256)},  # a form submit's previous state
        {"HX-Request": "true", "HX-Current-URL": "http://elsewhere.example" + lab(rollouts=512)},  # ignored host
    ]
    seen = set()
    for headers in variants:
        got = answer(client, "GET", url, headers)
        assert got == uncached(client, cache, "GET", url, headers), headers
        assert answer(client, "GET", url, headers) == got, f"cached answer differs: {headers}"
        seen.add(got[1])
    assert len(seen) >= 4, "the variants should not all give the same body"
    assert len(cache.entries) == len(variants)


def test_repeated_headers_key_on_the_first_as_the_route_reads_them(client, cache) -> None:
    url = lab(rollouts=640)
    a, b = BASE + lab(rollouts=512), BASE + lab(pairs=0)
    both = [("HX-Request", "true"), ("HX-Current-URL", a), ("HX-Current-URL", b)]
    got = answer(client, "GET", url, both)
    only_b = [("HX-Request", "true"), ("HX-Current-URL", b)]
    assert answer(client, "GET", url, only_b) == uncached(client, cache, "GET", url, only_b)
    assert got == uncached(client, cache, "GET", url, [("HX-Request", "true"), ("HX-Current-URL", a)])


@pytest.mark.parametrize("headers", [
    {},  # the full page (sets the language cookie)
    {"HX-Request": "true", "HX-Boosted": "true"},  # a boosted link: the full page
    {"HX-Request": "true", "HX-History-Restore-Request": "true"},
])
def test_only_partials_are_stored(client, cache, headers) -> None:
    r = client.get(lab(rollouts=640), headers=headers)
    assert r.status_code == 200 and "<html" in r.text
    assert cache.entries == {}


def test_bad_input_and_other_routes_are_not_stored(client, cache) -> None:
    h = partial_headers(lab())
    assert client.get("/en/?rollouts=banana", headers=h).status_code == 200  # clamped, with a notice: stored
    assert client.get("/xx/?rollouts=5", headers=h).status_code == 404
    assert client.get("/api/evaluate?rollouts=5", headers=h).status_code == 200
    assert client.post("/en/", headers=h).status_code == 405
    assert [k[3] for k in cache.entries] == [b"rollouts=banana"]


def test_head_and_if_none_match_answer_like_the_route(client, cache) -> None:
    url, headers = lab(kl=0.05), partial_headers(lab())
    get = answer(client, "GET", url, headers)
    head = answer(client, "HEAD", url, headers)
    assert head == uncached(client, cache, "HEAD", url, headers)
    assert head[1] == b"" and dict(head[2])["content-length"] == dict(get[2])["content-length"]
    etag = dict(get[2])["etag"]
    cond = {**headers, "If-None-Match": etag}
    hit = answer(client, "GET", url, cond)
    assert hit[0] == 304 and hit[1] == b""
    assert hit == uncached(client, cache, "GET", url, cond)
    stale = {**headers, "If-None-Match": '"nope"'}
    assert answer(client, "GET", url, stale) == get


def test_the_cache_stays_within_its_byte_budget_least_recently_used_out(client, cache) -> None:
    cache.max_bytes = 12_000  # room for about three gzip partials
    urls = [lab(rollouts=r) for r in (256, 640, 1024, 2048, 4096)]
    h = partial_headers(lab(rollouts=512))
    for u in urls:
        answer(client, "GET", u, h)
        assert cache.size <= cache.max_bytes
    stored = [k[3].decode() for k in cache.entries]
    assert 2 <= len(stored) < len(urls)
    assert stored == [u.split("?", 1)[1] for u in urls[-len(stored):]], "the oldest go first"
    cache.max_bytes = 100  # an answer larger than the whole budget is not stored
    cache.entries.clear()
    cache.size = 0
    answer(client, "GET", urls[0], h)
    assert cache.entries == {}


def test_cache_key_is_none_for_anything_but_a_partial() -> None:
    scope = {"type": "http", "method": "GET", "path": "/en/", "query_string": b"", "headers": [(b"hx-request", b"true")]}
    assert cache_key(scope) is not None
    assert cache_key({**scope, "method": "POST"}) is None
    assert cache_key({**scope, "path": "/en/tutorial"}) is None
    assert cache_key({**scope, "headers": []}) is None
    assert cache_key({**scope, "headers": [(b"hx-request", b"false")]}) is None


NUMERIC = {s.name: [int(v) if s.integer else v for v in s.ladder] for s in NUMBERS}


@st.composite
def moves(draw):  # noqa: ANN201
    name = draw(st.sampled_from(sorted(NUMERIC)))
    ladder = NUMERIC[name]
    k = draw(st.integers(0, len(ladder) - 2))
    before, after = (ladder[k], ladder[k + 1]) if draw(st.booleans()) else (ladder[k + 1], ladder[k])
    lang = draw(st.sampled_from(("en", "zh")))
    method = draw(st.sampled_from(("GET", "GET", "HEAD")))
    enc = draw(st.sampled_from(("gzip", "identity")))
    return method, lab(lang, **{name: after}), partial_headers(lab(lang, **{name: before}), **{"Accept-Encoding": enc})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(moves(), min_size=1, max_size=6))
def test_with_or_without_the_cache_every_answer_is_the_same(client, cache, requests) -> None:
    for method, url, headers in requests + requests:  # every request twice: a miss, then (for GET) a hit
        assert answer(client, method, url, headers) == uncached(client, cache, method, url, headers)
