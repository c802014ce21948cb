"""The lab route reads the raw query string and its own host without building ``request.url`` (app/main.py): any
bytes in the query give an answer, never a 500 (uvicorn refuses bytes ≥ 0x80 itself; another ASGI server may pass
them on), and the host an ``HX-Current-URL`` is checked against is the one Starlette's URL would give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.requests import Request

from app.main import _own_netloc, _query_string

from .asgi import _RUNNER, _call
from .support import examples as scaled

HTMX = [(b"host", b"testserver"), (b"hx-request", b"true"), (b"hx-current-url", b"http://testserver/en/?rollouts=512")]


@settings(max_examples=scaled(40), deadline=None)
@given(st.binary(max_size=60).filter(lambda b: b"#" not in b), st.sampled_from([b"/en/", b"/zh/", b"/api/evaluate"]),
       st.booleans())
def test_any_bytes_in_the_query_get_an_answer(query, path, htmx):
    reply = _RUNNER.run(_call("GET", path + b"?" + query, HTMX if htmx else [(b"host", b"testserver")]))
    assert reply.status in (200, 422), (query, reply.status)


def test_a_non_utf8_value_is_echoed_in_a_notice_not_a_500():
    reply = _RUNNER.run(_call("GET", b"/en/?rollouts=\xff", [(b"host", b"testserver")]))
    assert reply.status == 200
    assert "<code>rollouts</code> = \u00ff is not a valid value" in reply.body.decode()


def _scope(host: bytes | None, server, query: bytes = b"a=1") -> dict:
    headers = [(b"accept", b"*/*")] + ([(b"host", host)] if host is not None else [])
    return {"type": "http", "method": "GET", "scheme": "http", "path": "/en/", "root_path": "",
            "query_string": query, "headers": headers, "server": server}


HOSTS = st.one_of(st.none(), st.sampled_from([b"testserver", b"127.0.0.1:8000", b"[::1]:8000", b"Example.COM",
                                               b"h:99999", b"h:0080", b"bad host", b"[v1.x]", b"", b"a:b:c"]),
                  st.binary(max_size=20).map(lambda b: b.decode("latin-1").encode("latin-1")))


@settings(max_examples=scaled(200), deadline=None)
@given(HOSTS, st.sampled_from([("127.0.0.1", 8000), ("::1", 80), ("testserver", 80), None]))
def test_own_netloc_is_starlettes(host, server):
    request = Request(_scope(host, server))
    assert _own_netloc(request) == Request(_scope(host, server)).url.netloc


@given(st.binary(max_size=40).filter(lambda b: b.isascii() and not any(c in b for c in b"#\t\r\n")))
def test_query_string_is_starlettes_for_what_a_browser_sends(query):
    assert _query_string(Request(_scope(b"testserver", None, query))) == Request(_scope(b"testserver", None, query)).url.query
