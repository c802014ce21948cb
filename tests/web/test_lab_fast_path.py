"""The lab URL's fast path (app.main.LabFastPath) answers exactly what the router would, and only for GET and HEAD
on /zh/ and /en/: every lab request is sent once through the fast path and once to the stack inside it (the
exception middleware, the router, the registered route) and the two answers compared byte for byte."""

from __future__ import annotations

import asyncio

import pytest

from app.main import LabFastPath, app

PARTIAL = ((b"hx-request", b"true"), (b"hx-current-url", b"http://testserver/en/?rollouts=512"))


def _fast_path() -> LabFastPath:
    layer = app.middleware_stack or app.build_middleware_stack()
    while not isinstance(layer, LabFastPath):
        layer = layer.app
    return layer


def _call(asgi, method: str, path: str, query: bytes, headers: tuple) -> tuple[int, list, bytes]:
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query, "root_path": "", "app": app,
             "headers": [(b"host", b"testserver"), *headers], "client": ("127.0.0.1", 1),
             "server": ("testserver", 80)}
    out: dict = {"body": b""}

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            out["status"], out["headers"] = message["status"], list(message["headers"])
        elif message["type"] == "http.response.body":
            out["body"] += message.get("body", b"")

    asyncio.run(asgi(scope, receive, send))
    return out["status"], out["headers"], out["body"]


CASES = [
    ("GET", "/en/", b"", ()),
    ("GET", "/zh/", b"rollouts=1024&method=dpo", ()),
    ("HEAD", "/en/", b"rollouts=640", ()),
    ("GET", "/en/", b"rollouts=640", PARTIAL),
    ("GET", "/zh/", b"rollouts=99999&kl=x", PARTIAL),  # clamped and invalid: notices
    ("GET", "/en/", b"rollouts=640&present=1", ()),
    ("GET", "/en/", b"rollouts=640", ((b"cookie", b"lang=en"),)),  # cacheable: ETag
    ("GET", "/en/", b"rollouts=640", ((b"cookie", b"lang=en"), (b"if-none-match", b'"nope"'))),
]


@pytest.mark.parametrize(("method", "path", "query", "headers"), CASES)
def test_fast_path_answers_as_the_router_does(method, path, query, headers) -> None:
    fast = _fast_path()
    via_fast = _call(fast, method, path, query, headers)
    via_router = _call(fast.app, method, path, query, headers)
    assert via_fast == via_router
    assert via_fast[0] == 200


def test_an_etag_revalidates_on_the_fast_path_too() -> None:
    fast = _fast_path()
    headers = ((b"cookie", b"lang=en"),)
    status, sent, _ = _call(fast, "GET", "/en/", b"gpus=16", headers)
    etag = dict(sent)[b"etag"]
    assert _call(fast, "GET", "/en/", b"gpus=16", (*headers, (b"if-none-match", etag)))[0] == 304


@pytest.mark.parametrize(("method", "path", "status"), [
    ("POST", "/en/", 405),  # not GET or HEAD: the router answers, with Allow
    ("DELETE", "/zh/", 405),
    ("GET", "/fr/", 404),  # not a lab path: the route's own 404 page
    ("GET", "/en/tutorial", 200),
])
def test_everything_else_goes_the_usual_way(client, method, path, status) -> None:
    r = client.request(method, path)
    assert r.status_code == status
    if status == 405:
        assert set(r.headers["allow"].replace(" ", "").split(",")) == {"GET", "HEAD"}
