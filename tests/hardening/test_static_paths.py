"""The static mount serves what is in app/static and nothing else, however the path is spelled.

Paths are sent byte-exact (httpx would collapse the dot segments before they left the client): dot segments,
percent-encoded dots and slashes (upper and lower case, double-encoded, overlong UTF-8), backslashes, NUL,
doubled slashes, absolute paths, over-long names.  The answer is a 404 page (or a 405 for other methods) —
never a file from outside, never a 5xx — and carries the security headers but not the year-long cache header.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.asgi import request

from app.templating import STATIC

from .checks import assert_security_headers

ROOT = Path(STATIC).parent.parent
# Text that must never come back: the app's own source, project files, system files.
SECRETS = [b"root:x:0:0", b"[project]", b"from app import templating", b"SecurityHeadersMiddleware", b"BEGIN ",
           b"def normalise"]

ESCAPES = [
    "../main.py", "../../pyproject.toml", "../../../../../../etc/passwd", "../__init__.py",
    "%2e%2e/main.py", "%2E%2E/main.py", ".%2e/main.py", "%2e./main.py", "..%2fmain.py", "..%2Fmain.py",
    "%2e%2e%2fmain.py", "%2e%2e%2f%2e%2e%2fpyproject.toml", "%252e%252e/main.py", "%252e%252e%252fmain.py",
    "..%c0%afmain.py", "..%c1%9cmain.py", "%c0%ae%c0%ae/main.py", "..%5cmain.py", "..%5Cmain.py",
    "%5c..%5cmain.py", "..\\main.py", "..\\..\\pyproject.toml", "/etc/passwd", "//etc/passwd",
    "%2fetc%2fpasswd", "%2F%2Fetc%2Fpasswd", "///etc/passwd", "./../main.py", "app.css/../../main.py",
    "..;/main.py", "....//....//main.py", "%u002e%u002e/main.py", "..%00/main.py", "%00", "app.css%00.js",
    "..%252f..%252fpyproject.toml", "..%2f..%2f..%2f..%2fetc%2fpasswd", "static/../../main.py",
    "%2e%2e%5cmain.py", ".../main.py", "~/.bashrc", "%7e/.bashrc", "../static/../main.py",
    "a" * 300, "a/" * 2_500 + "x", "", ".", "..", "%2e", "%2e%2e", "%2e%2e/", "../", "..%2f",
]


@pytest.mark.parametrize("tail", ESCAPES, ids=lambda s: s[:40])
@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_static_path_cannot_escape(tail, method):
    r = request(method, f"/static/{tail}")
    assert r.status in (400, 404), (r.status, r.body[:200])
    for secret in SECRETS:
        assert secret not in r.body
    assert_security_headers(r)
    assert "immutable" not in (r.header("cache-control") or ""), "an error must not be cached for a year"


@pytest.mark.parametrize("path", ["/static", "/static/", "/static//", "/STATIC/", "/static%2f", "/%73tatic/",
                                  "/static/.", "/static/./", "/static/%2e/"])
def test_static_folder_itself_lists_nothing(path):
    """No directory listing: the folder answers exactly like any missing file."""
    r = request("GET", path)
    missing = request("GET", "/static/no-such-file")
    assert r.status == 404 and missing.status == 404
    assert r.body == missing.body


def _static_files() -> list[str]:
    return sorted(p.name for p in Path(STATIC).iterdir() if p.is_file())


@pytest.mark.parametrize("name", _static_files())
def test_every_static_file_is_served_immutable_with_its_type(name):
    r = request("GET", f"/static/{name}")
    assert r.status == 200
    assert r.body == (Path(STATIC) / name).read_bytes()
    assert_security_headers(r)
    assert r.all("cache-control") == ["public, max-age=31536000, immutable"]
    expected = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}[Path(name).suffix]
    assert r.content_type in (expected, "application/javascript")
    # a dotted detour that resolves inside the folder is no way around the rules: the same file with the same
    # headers, or not found (ServeStatic looks a path up as sent; a browser resolves the dots before it asks)
    again = request("GET", f"/static/../static/{name}")
    assert (again.status, again.body) in ((200, r.body), (404, request("GET", "/static/no-such-file").body))
    assert_security_headers(again)


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_static_refuses_other_methods(method):
    r = request(method, "/static/app.css")
    assert r.status == 405
    assert_security_headers(r)
    assert b"body{" not in r.body and len(r.body) < 200
