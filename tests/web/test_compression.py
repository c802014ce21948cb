"""gzip by body (app/compression.py): a small answer sent whole by ISA-L, a page or any static file by zlib
level 6.  gzip output is deterministic for a given engine, level and input, so each answer's bytes on the wire are
checked against what the chosen engine makes of its identity body, and shown to differ from the other engine's."""

from __future__ import annotations

import gzip
import zlib

import pytest

from app import compression

HTMX = {"HX-Request": "true", "HX-Current-URL": "http://testserver/en/?rollouts=512"}


def raw(client, url: str, headers: dict, encoding: str) -> bytes:
    with client.stream("GET", url, headers={**headers, "Accept-Encoding": encoding}) as r:
        assert r.status_code == 200
        assert r.headers.get("content-encoding") == (None if encoding == "identity" else "gzip")
        return b"".join(r.iter_raw())


def deflated(engine, level: int, body: bytes) -> bytes:
    c = engine.compressobj(level, engine.DEFLATED, 16 + engine.MAX_WBITS)
    return c.compress(body) + c.flush()


@pytest.mark.parametrize(("url", "headers", "small"), [
    ("/en/?rollouts=640", HTMX, True),  # a partial: one piece, under SMALL_BYTES
    ("/zh/?rollouts=640&gpus=16", HTMX, True),
    ("/en/?rollouts=640", {}, False),  # the whole page
])
def test_each_answer_is_compressed_by_the_engine_its_size_calls_for(client, url, headers, small) -> None:
    plain = raw(client, url, headers, "identity")
    wire = raw(client, url, headers, "gzip")
    assert gzip.decompress(wire) == plain
    assert (len(plain) < compression.SMALL_BYTES) is small
    fast = deflated(compression._fast, compression.FAST_LEVEL, plain)
    slow = deflated(zlib, compression.LEVEL, plain)
    assert fast != slow, "the two engines must be told apart for this test to mean anything"
    assert wire == (fast if small else slow)


@pytest.mark.parametrize(("url", "small"), [
    ("/static/htmx-2.0.11.min.js", False),
    ("/static/app.js", True),  # under SMALL_BYTES, sent whole: a static file all the same (versioned, kept)
    ("/static/app.css", None),
])
def test_every_static_file_goes_to_zlib(client, url, small) -> None:
    plain = raw(client, url, {}, "identity")
    wire = raw(client, url, {}, "gzip")
    assert gzip.decompress(wire) == plain
    if small is not None:
        assert (len(plain) < compression.SMALL_BYTES) is small
    assert wire == deflated(zlib, compression.LEVEL, plain)
    assert wire != deflated(compression._fast, compression.FAST_LEVEL, plain)
