"""No request leaves reference cycles behind.

Everything a request allocates should be freed by reference counting the moment the answer is sent.  One cycle is
enough to keep the whole request alive until the cyclic garbage collector runs — the template context holds the
Request, which holds the scope and every middleware's `send` closure — and that collector's time was about a tenth
of a never-seen partial's CPU when a template defined a `{% macro %}` on every render (a macro defined in a
template is stored in the render's context and closes over it).  docs/performance.md, "Garbage".

Driven straight through the ASGI app on one event loop by tests/support/asgi.py (no TestClient: its thread portal
makes cycles of its own).
"""

from __future__ import annotations

import asyncio
import gc

import pytest
from support.asgi import call

PREVIOUS = b"http://testserver/en/?rollouts=512"
CASES = {
    "lab page": ("/en/", b"rollouts=64", ()),
    "lab page zh": ("/zh/", b"", ()),
    "partial, one notch": ("/en/", b"rollouts=640", ((b"hx-request", b"true"), (b"hx-current-url", PREVIOUS))),
    "partial, method switch": ("/zh/", b"method=dpo", ((b"hx-request", b"true"),
                                                      (b"hx-current-url", b"http://testserver/zh/"))),
    "partial, bad value": ("/en/", b"gpus=-3&kl=abc", ((b"hx-request", b"true"), (b"hx-current-url", PREVIOUS))),
    "tutorial": ("/en/tutorial", b"", ()),
    "compare": ("/zh/compare", b"method=dpo", ()),
    "api": ("/api/evaluate", b"rollouts=64", ()),
    "api 422": ("/api/evaluate", b"rollouts=-1", ()),
    "404": ("/nope", b"", ()),
}


async def _call(path: str, query: bytes, headers: tuple) -> int:
    target = path.encode() + (b"?" + query if query else b"")
    reply = await call("GET", target, [(b"host", b"testserver"), (b"accept-encoding", b"gzip"), *headers])
    return reply.status


async def _garbage_of(case: tuple) -> tuple[int, list[str]]:
    path, query, headers = case
    await _call(*case)  # warm: templates compiled, caches filled (what stays is not garbage)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        # a state not requested before: rendered, not answered from a cache
        status = await _call(path, query + b"&demos=1234", headers)
        gc.collect()
        kinds = sorted({type(o).__qualname__ for o in gc.garbage})
        return status, kinds
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


@pytest.mark.parametrize("name", CASES)
def test_a_request_leaves_no_reference_cycles(name: str) -> None:
    status, kinds = asyncio.run(_garbage_of(CASES[name]))
    assert status in (200, 404, 422)
    assert kinds == [], f"{name}: objects only the cyclic collector can free: {kinds}"
