"""gzip for every answer: small ones by Intel's ISA-L (``isal``) where its wheel is installed, large ones by zlib.

Starlette's ``GZipMiddleware`` decides what to compress (``Accept-Encoding``, the minimum size, content types
that are compressed already, streaming bodies) and sets the headers; only the compressor is chosen here.  Both
write the same gzip format (RFC 1952) that every browser reads.

* A body under ``SMALL_BYTES`` sent in one piece — an htmx partial, the answer to a slider move — goes to ISA-L
  at level 1: on the lab's partials (≈ 5 KB on never-seen moves) ≈ 13 µs against ISA-L level 3's ≈ 21 µs and zlib
  level 6's ≈ 34 µs, for 1.4 % more bytes than level 3 (1,512 against 1,491 B on a 5.2 KB partial; zlib: 1,438).
* Anything larger or streamed (a whole page), and every static file whatever its size (versioned, fetched once and
  kept: app.js is under ``SMALL_BYTES``), goes to zlib at level 6, where bytes matter more than a millisecond.
  ISA-L there cost the first load 4.7 kB (47.3 → 52.0 kB).

Measured in docs/performance.md.
"""

from __future__ import annotations

import zlib

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware, GZipResponder, IdentityResponder
from starlette.types import Receive, Scope, Send

try:  # a compiled wheel on x86-64 and arm64 (pyproject.toml); elsewhere zlib does the same job
    from isal import isal_zlib as _fast

    FAST_ENGINE, FAST_LEVEL = "isal", 1
except ImportError:  # pragma: no cover - the project's own install always has it
    _fast, FAST_ENGINE, FAST_LEVEL = zlib, "zlib", 6

SMALL_BYTES = 16 * 1024
LEVEL = 6  # zlib's, for large and streamed bodies


class _Responder(GZipResponder):
    static = False  # a static file's answer: always zlib (set per request by GZip)

    def _compress_body(self, body: bytes, more_body: bool) -> bytes:
        if self._compressor is None:  # the first piece decides: a small body sent whole, or anything else
            small = not more_body and len(body) < SMALL_BYTES and not self.static
            engine, level = (_fast, FAST_LEVEL) if small else (zlib, LEVEL)
            self._compressor = engine.compressobj(level, engine.DEFLATED, 16 + engine.MAX_WBITS)
        return super()._compress_body(body, more_body)


class GZip(GZipMiddleware):
    """``GZipMiddleware`` with the compressor chosen by the body (above)."""

    def __init__(self, app, minimum_size: int) -> None:  # noqa: ANN001 - any ASGI app
        super().__init__(app, minimum_size=minimum_size, compresslevel=LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and "gzip" in Headers(scope=scope).get("accept-encoding", ""):
            responder = _Responder(self.app, self.minimum_size, compresslevel=self.compresslevel,
                                   thread_minimum_size=self.thread_minimum_size,
                                   exclude_content_types=self.exclude_content_types)
            responder.static = scope["path"].startswith("/static/")
        elif scope["type"] == "http":
            responder = IdentityResponder(self.app, self.minimum_size, exclude_content_types=self.exclude_content_types)
        else:  # pragma: no cover - lifespan and websockets pass through
            responder = self.app
        await responder(scope, receive, send)
