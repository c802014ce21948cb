"""Fixtures for the web tests: one in-process client for the whole session (no server, no network).

Starlette 1.x warns, on import of its TestClient, that using it with ``httpx`` (rather than ``httpx2``) is
deprecated.  httpx's ASGITransport is async-only, so the sync TestClient stays; the warning is silenced here, in
the web tests' own conftest (pyproject's filterwarnings belongs to the lead).
"""

from __future__ import annotations

import http.cookiejar
import warnings

import pytest

_TESTCLIENT_WARNING = r"Using `httpx` with `starlette.testclient` is deprecated"
warnings.filterwarnings("ignore", message=_TESTCLIENT_WARNING)

from fastapi.testclient import TestClient  # noqa: E402  (after the filter, on purpose)

from app.main import app  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("filterwarnings", f"ignore:{_TESTCLIENT_WARNING}")


class _NoCookieJar(http.cookiejar.DefaultCookiePolicy):
    """Never store a cookie: every request is a first visit unless the test sends ``Cookie`` itself."""

    def set_ok(self, cookie, request) -> bool:  # noqa: ANN001 - cookiejar's signature
        return False


@pytest.fixture(scope="session")
def client() -> TestClient:
    """A client that does not follow redirects and keeps no cookies between requests."""
    with TestClient(app, follow_redirects=False) as c:
        c.cookies.jar.set_policy(_NoCookieJar())
        yield c
