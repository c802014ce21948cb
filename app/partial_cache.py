"""A bounded in-process cache of the htmx partials: the hot path of a slider move.

A partial is a pure function of its request: the language (path), the new state (query string), the state it is
diffed against (``HX-Current-URL``, or ``Referer`` without it), the ``Host`` it is checked against, and whether
the client takes gzip.  Templates, catalogues and the model are fixed for the life of the process (no template
auto-reload), so an answer never goes stale and needs no invalidation.  States repeat a lot — a class walking
the same presets, a slider dragged back and forth, the neighbouring notches app.js fetches ahead — so a repeated
move is answered from here, gzip included, without parsing, evaluating or rendering anything.

It sits between the security-headers middleware (outside: every answer still gets its headers) and gzip
(inside: what is stored is exactly what the stack sent, compressed or not).  Only complete 200 answers to
partial requests are stored; an ``If-None-Match`` that matches a stored ETag gets the same 304 the route would
give.  The cache is bounded by bytes (least recently used out first); ``RLHF_LAB_PARTIAL_CACHE_MB=0`` turns it
off.  benchmarks/bench_server.py measures both a repeated walk and moves that are all new (``--pattern unique``).
"""

from __future__ import annotations

import os
from collections import OrderedDict

LAB_PATHS = frozenset({"/zh/", "/en/"})
DEFAULT_MB = 32.0
_KEEP = frozenset({b"etag", b"cache-control", b"vary"})  # what a 304 carries
_KEY_HEADERS = frozenset({b"hx-request", b"hx-boosted", b"hx-history-restore-request", b"hx-current-url", b"host",
                          b"referer", b"accept-encoding", b"if-none-match"})


def _budget_bytes() -> int:
    try:
        mb = float(os.environ.get("RLHF_LAB_PARTIAL_CACHE_MB", DEFAULT_MB))
    except ValueError:
        mb = DEFAULT_MB
    return max(0, int(mb * 1024 * 1024))


def cache_key(scope: dict) -> tuple | None:
    """The request's identity if it asks for a partial of the lab page, else None (not cacheable)."""
    if scope["method"] not in ("GET", "HEAD") or scope["path"] not in LAB_PATHS:
        return None
    h: dict[bytes, bytes] = {}
    for name, value in scope["headers"]:  # the first of repeated headers counts, as Starlette's Headers.get
        if name in _KEY_HEADERS and name not in h:
            h[name] = value
    if h.get(b"hx-request") != b"true" or h.get(b"hx-boosted") == b"true" \
            or h.get(b"hx-history-restore-request") == b"true":
        return None
    current = h.get(b"hx-current-url", b"")
    key = (scope["method"], h.get(b"host", b""), scope["path"], scope["query_string"], current,
           b"" if current else h.get(b"referer", b""), b"gzip" in h.get(b"accept-encoding", b""))
    return key, h.get(b"if-none-match", b"")


class PartialCacheMiddleware:
    def __init__(self, app, max_bytes: int | None = None) -> None:  # noqa: ANN001 - any ASGI app
        self.app = app
        self.max_bytes = _budget_bytes() if max_bytes is None else max_bytes
        self.entries: OrderedDict[tuple, tuple[tuple, bytes, bytes]] = OrderedDict()  # key -> headers, body, etag
        self.size = 0
        self.hits = self.misses = 0

    async def __call__(self, scope, receive, send) -> None:  # noqa: ANN001
        found = cache_key(scope) if scope["type"] == "http" and self.max_bytes else None
        if found is None:
            await self.app(scope, receive, send)
            return
        key, if_none_match = found
        entry = self.entries.get(key)
        if entry is not None:
            self.hits += 1
            self.entries.move_to_end(key)
            headers, body, etag = entry
            if if_none_match and if_none_match == etag:
                await send({"type": "http.response.start", "status": 304,
                            "headers": [h for h in headers if h[0] in _KEEP]})
                await send({"type": "http.response.body", "body": b""})
                return
            await send({"type": "http.response.start", "status": 200, "headers": list(headers)})
            await send({"type": "http.response.body", "body": b"" if key[0] == "HEAD" else body})
            return
        self.misses += 1
        start: dict = {}
        chunks: list[bytes] = []

        async def keep(message) -> None:  # noqa: ANN001
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    self._store(key, start, chunks)
            await send(message)

        await self.app(scope, receive, keep)

    def _store(self, key: tuple, start: dict, chunks: list[bytes]) -> None:
        if start.get("status") != 200 or key[0] == "HEAD" or key in self.entries:
            return
        # tuples of bytes only: the collector stops tracking the entry (a list would be walked by each collection)
        headers = tuple((name, value) for name, value in start.get("headers", ()))
        if any(name == b"set-cookie" for name, _ in headers):
            return
        body = b"".join(chunks)
        etag = next((v for n, v in headers if n == b"etag"), b"")
        cost = len(body) + sum(len(n) + len(v) for n, v in headers) + 200
        if cost > self.max_bytes:
            return
        self.entries[key] = (headers, body, etag)
        self.size += cost
        while self.size > self.max_bytes:
            _, (h, b, _e) = self.entries.popitem(last=False)
            self.size -= len(b) + sum(len(n) + len(v) for n, v in h) + 200
