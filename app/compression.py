"""gzip for every answer, by Intel's ISA-L (``isal``) where its wheel is installed, else by the standard zlib.

Starlette's ``GZipMiddleware`` decides what to compress (``Accept-Encoding``, the minimum size, content types
that are compressed already, streaming bodies) and sets the headers; only the compressor is swapped.  Both write
the same gzip format (RFC 1952) that every browser reads.  ISA-L level 3 is its densest; on the lab's partials
(4.7 KB on average, benchmarks/cold_cpu.py's never-seen moves) it compresses in ≈ 25 µs against zlib level 6's
≈ 85 µs, for ≈ 3 % more bytes (1,864 against 1,803 B); measured in docs/performance.md.
"""

from __future__ import annotations

import zlib

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware, GZipResponder, IdentityResponder
from starlette.types import Receive, Scope, Send

try:  # a compiled wheel on x86-64 and arm64 (pyproject.toml); elsewhere the standard library does the same job
    from isal import isal_zlib as _deflate

    ENGINE, LEVEL = "isal", 3
except ImportError:  # pragma: no cover - the project's own install always has it
    _deflate, ENGINE, LEVEL = zlib, "zlib", 6


class _Responder(GZipResponder):
    @property
    def compressor(self):  # noqa: ANN201 - zlib's or isal's compress object
        if self._compressor is None:
            self._compressor = _deflate.compressobj(self.compresslevel, _deflate.DEFLATED, 16 + _deflate.MAX_WBITS)
        return self._compressor


class GZip(GZipMiddleware):
    """``GZipMiddleware`` with ISA-L's compressor (level ``LEVEL``)."""

    def __init__(self, app, minimum_size: int) -> None:  # noqa: ANN001 - any ASGI app
        super().__init__(app, minimum_size=minimum_size, compresslevel=LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and "gzip" in Headers(scope=scope).get("accept-encoding", ""):
            responder = _Responder(self.app, self.minimum_size, compresslevel=self.compresslevel,
                                   thread_minimum_size=self.thread_minimum_size,
                                   exclude_content_types=self.exclude_content_types)
        elif scope["type"] == "http":
            responder = IdentityResponder(self.app, self.minimum_size, exclude_content_types=self.exclude_content_types)
        else:  # pragma: no cover - lifespan and websockets pass through
            responder = self.app
        await responder(scope, receive, send)
