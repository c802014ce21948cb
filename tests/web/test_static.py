"""Vendored and static files: the pinned htmx release, cache headers, and what the pages reference."""

from __future__ import annotations

import hashlib
import re

import pytest
from support.html import parse
from support.urls import LANGS

from app import templating

STATIC = templating.STATIC
HTMX_FILE = STATIC / "htmx-2.0.11.min.js"
HTMX_SHA256 = "d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717"


def test_vendored_htmx_is_the_pinned_release():
    data = HTMX_FILE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == HTMX_SHA256
    assert re.findall(rb'version:\s*"([^"]+)"', data) == [b"2.0.11"]


def test_pages_load_the_vendored_htmx():
    assert templating.GLOBALS["assets"]["htmx"] == "/static/htmx-2.0.11.min.js"


def test_served_htmx_is_the_file(client):
    r = client.get("/static/htmx-2.0.11.min.js")
    assert r.status_code == 200
    assert hashlib.sha256(r.content).hexdigest() == HTMX_SHA256


def _referenced(client) -> set[str]:
    urls: set[str] = set()
    for path in ("/en/", "/zh/tutorial", "/en/compare", "/en/nope"):
        doc = parse(client.get(path).text)
        urls |= {e.get("href") for e in doc.tags("link") if (e.get("href") or "").startswith("/static/")}
        urls |= {e.get("src") for e in doc.tags("script") if (e.get("src") or "").startswith("/static/")}
    return urls


def test_every_referenced_static_file_is_served(client):
    urls = _referenced(client)
    assert len(urls) >= 4
    for url in sorted(urls):
        r = client.get(url)
        assert r.status_code == 200, url
        assert r.content, url


def _unversioned(url: str) -> bool:
    return not re.search(r"[?&]v=[0-9a-f]{6,}|-\d+\.\d+\.\d+", url)


KNOWN_UNVERSIONED = {"/static/nojs.css"}  # the bug below
NOJS_REASON = ("BUG: /static/nojs.css is referenced without a version (?v=) but served 'immutable, max-age=31536000': "
               "an edit to it never reaches returning visitors")


def _immutable_unversioned(client) -> set[str]:
    """Static answers are `immutable` for a year, so every URL a page uses must change when the file changes."""
    return {url for url in _referenced(client) if _unversioned(url)
            and "immutable" in client.get(url).headers.get("cache-control", "")}


def test_immutable_static_urls_carry_a_version(client):
    assert sorted(_immutable_unversioned(client) - KNOWN_UNVERSIONED) == []


def test_nojs_stylesheet_is_versioned(client):
    assert sorted(_immutable_unversioned(client)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_favicon(client, lang):
    assert client.get("/favicon.ico").status_code == 200
    icons = [e for e in parse(client.get(f"/{lang}/").text).tags("link") if "icon" in (e.get("rel") or "").split()]
    assert len(icons) == 1
    assert client.get(icons[0].get("href")).status_code == 200


@pytest.mark.parametrize("name", ["app.css", "app.js", "htmx-2.0.11.min.js"])
def test_a_static_file_is_the_file_gzipped_or_not(client, name: str) -> None:
    """The lab's own static files are compressed once and served from memory: the same bytes either way, a
    gzip answer only to a request that accepts it, one Vary, and a 304 for the ETag the client has."""

    data = (STATIC / name).read_bytes()
    plain = client.get(f"/static/{name}", headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and plain.content == data and "content-encoding" not in plain.headers
    packed = client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip" and packed.headers["vary"] == "Accept-Encoding"
    assert packed.content == data  # the client decodes it
    again = client.get(f"/static/{name}", headers={"If-None-Match": packed.headers["etag"]})
    assert again.status_code == 304
    assert client.head(f"/static/{name}").content == b""
