"""The lab's own static files (stylesheet, scripts, icon), read and gzip-compressed once at start and served from
memory; anything else under ``/static`` (the vendored Swagger UI, a range request) goes to Starlette's
``StaticFiles``.

Why: every learner's first visit fetches the stylesheet and both scripts, and the gzip middleware compressed each
one again on every request (≈ 110 kB at level 6) after a file read in the thread pool.  When a class arrives at
once, that work queued in front of the slider moves (a class of 64 learners: ``docs/performance.md``).  The
answer is the same bytes as before: the file, or its gzip when the request accepts it, with an ETag and a 304.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import Headers
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

COMPRESSIBLE = ("text/", "application/javascript", "image/svg+xml")


@dataclass(frozen=True, slots=True)
class _File:
    body: bytes
    gzipped: bytes | None  # None when compressing does not pay (a tiny or an already compressed file)
    media_type: str
    etag: str


def _load(path: Path) -> _File:
    body = path.read_bytes()
    media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if media.startswith("text/"):
        media += "; charset=utf-8"  # as Starlette's FileResponse says it
    packed = gzip.compress(body, compresslevel=9, mtime=0) if media.startswith(COMPRESSIBLE) else None
    if packed is not None and (len(packed) >= len(body) or len(body) < 800):  # the gzip middleware's minimum_size
        packed = None
    return _File(body=body, gzipped=packed, media_type=media, etag='"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"')


class StaticFromMemory:
    """An ASGI app for ``/static``: the top-level files of ``directory`` from memory, the rest from disk."""

    def __init__(self, directory: Path) -> None:
        self.disk = StaticFiles(directory=directory)
        self.files = {f"/{p.name}": _load(p) for p in sorted(directory.iterdir()) if p.is_file()}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        root = scope.get("root_path", "")
        name = path[len(root):] if root and path.startswith(root) else path
        if name.startswith("/static/"):
            name = name[len("/static"):]
        f = self.files.get(name)
        headers = Headers(scope=scope)
        if f is None or scope["method"] not in ("GET", "HEAD") or "range" in headers:
            await self.disk(scope, receive, send)
            return
        out = [(b"content-type", f.media_type.encode()), (b"etag", f.etag.encode())]
        if headers.get("if-none-match") == f.etag:
            await send({"type": "http.response.start", "status": 304, "headers": out})
            await send({"type": "http.response.body", "body": b""})
            return
        body = f.body
        if f.gzipped is not None and "gzip" in headers.get("accept-encoding", ""):
            # (the identity answer gets its Vary from the gzip middleware, which passes this one through)
            body = f.gzipped
            out += [(b"content-encoding", b"gzip"), (b"vary", b"Accept-Encoding")]
        out.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": out})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
