"""gzip (Starlette's GZipMiddleware): every answer large enough is sent gzipped when the client accepts it, decodes to
the identity body, and says so in Content-Encoding and Vary."""

from __future__ import annotations

import gzip

import pytest

HTMX = {"HX-Request": "true", "HX-Current-URL": "http://testserver/en/?rollouts=512"}


def raw(client, url: str, headers: dict, encoding: str):  # noqa: ANN001, ANN201
    with client.stream("GET", url, headers={**headers, "Accept-Encoding": encoding}) as r:
        assert r.status_code == 200
        return r.headers, b"".join(r.iter_raw())


@pytest.mark.parametrize(("url", "headers"), [
    ("/en/?rollouts=640", HTMX),  # a partial
    ("/zh/?rollouts=640&gpus=16", HTMX),
    ("/en/?rollouts=640", {}),  # the whole page
    ("/en/tutorial", {}),
    ("/api/evaluate", {}),
    ("/static/htmx-2.0.11.min.js", {}),
    ("/static/app.js", {}),
    ("/static/app.css", {}),
])
def test_gzip_decodes_to_the_identity_body(client, url, headers) -> None:
    h_plain, plain = raw(client, url, headers, "identity")
    h_wire, wire = raw(client, url, headers, "gzip")
    assert "content-encoding" not in h_plain
    assert h_wire["content-encoding"] == "gzip"
    assert "Accept-Encoding" in h_wire["vary"]
    assert gzip.decompress(wire) == plain
    assert len(wire) < len(plain)


def test_a_tiny_answer_is_sent_as_it_is(client) -> None:
    h, body = raw(client, "/healthz", {}, "gzip")
    assert "content-encoding" not in h
    assert body == b'{"status":"ok"}'
