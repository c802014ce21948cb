"""Shared by the hardening tests: silence Starlette's TestClient/httpx deprecation warning (schemathesis drives
the app through it) — the tests themselves use the byte-exact driver in ``asgi.py``."""

from __future__ import annotations

import warnings

import pytest

_TESTCLIENT_WARNING = r"Using `httpx` with `starlette.testclient` is deprecated"
warnings.filterwarnings("ignore", message=_TESTCLIENT_WARNING)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("filterwarnings", f"ignore:{_TESTCLIENT_WARNING}")
