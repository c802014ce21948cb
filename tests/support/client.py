"""The in-process client: Starlette's TestClient (over httpx2) on the app, following no redirects, keeping no
cookies between requests (every request is a first visit unless it sends ``Cookie`` itself)."""

from __future__ import annotations

import http.cookiejar

from fastapi.testclient import TestClient

from app.main import app


class _NoCookieJar(http.cookiejar.DefaultCookiePolicy):
    def set_ok(self, cookie, request) -> bool:  # noqa: ANN001 - cookiejar's signature
        return False


def make_client() -> TestClient:
    c = TestClient(app, follow_redirects=False)
    c.cookies.jar.set_policy(_NoCookieJar())
    return c
