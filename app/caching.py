"""HTTP caching of answers that depend only on the URL and the headers named in Vary: ETag, Cache-Control, 304."""

from __future__ import annotations

import hashlib

from fastapi import Request, Response


def cacheable(request: Request, response: Response, max_age: int) -> Response:
    """Add an ETag (a hash of the body) and ``Cache-Control: public, max-age``; answer 304 when the client has it.
    The 304 carries the same Vary (with Accept-Encoding: the gzip middleware varies the 200 on it)."""
    etag = '"' + hashlib.blake2b(response.body, digest_size=12).hexdigest() + '"'
    response.headers["etag"] = etag
    response.headers["cache-control"] = f"public, max-age={max_age}"
    if request.headers.get("if-none-match") != etag:
        return response
    vary = ", ".join(filter(None, (response.headers.get("vary"), "Accept-Encoding")))
    return Response(status_code=304, headers={"etag": etag, "cache-control": response.headers["cache-control"],
                                              "vary": vary})
