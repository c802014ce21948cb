"""Fixtures every suite may use: one in-process client for the session (no server, no network)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from support.client import make_client


@pytest.fixture(scope="session")
def client() -> TestClient:
    """A client that does not follow redirects and keeps no cookies between requests."""
    with make_client() as c:
        yield c
