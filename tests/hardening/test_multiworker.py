"""The documented production command with more than one worker (`rlhf-lab --workers 2`).

uvicorn's multi-worker supervisor binds the listening socket itself with ``proto`` left at 0; accepted sockets
inherit it and asyncio then skips TCP_NODELAY (it checks ``proto == IPPROTO_TCP``), so every keep-alive
response waits for the client's delayed ACK (~40 ms on Linux; measured in docs/deploy.md: p50 52 ms with
--workers 2 before the fix, 2.7 ms after).  app.cli re-creates the listener with proto=IPPROTO_TCP.  These tests
check that mechanism, not a wall-clock figure (latency is measured by benchmarks/load_test.py)."""

from __future__ import annotations

import socket

import pytest
from uvicorn.config import Config

from app import cli


@pytest.fixture
def restore_bind_socket():
    original = Config.bind_socket
    yield
    Config.bind_socket = original


def _bound(config: Config) -> socket.socket:
    sock = config.bind_socket()
    return sock


def test_upstream_listener_lacks_the_tcp_protocol(restore_bind_socket):
    """Documents the upstream behaviour the CLI works around (if uvicorn fixes it, this test says so)."""
    sock = _bound(Config("app.main:app", host="127.0.0.1", port=0))
    try:
        assert sock.proto == 0
    finally:
        sock.close()


def test_cli_listener_is_tcp_so_workers_set_nodelay(restore_bind_socket):
    cli._tcp_listener_for_workers()
    sock = _bound(Config("app.main:app", host="127.0.0.1", port=0))
    try:
        assert sock.proto == socket.IPPROTO_TCP
        assert sock.get_inheritable()
        assert sock.getsockname()[0] == "127.0.0.1"
    finally:
        sock.close()


def test_cli_patches_only_for_several_workers(monkeypatch, restore_bind_socket):
    calls = []
    monkeypatch.setattr("uvicorn.run", lambda *a, **k: calls.append(k))
    original = Config.bind_socket
    cli.main(["--workers", "1"])
    assert Config.bind_socket is original
    cli.main(["--workers", "2", "--proxy-headers"])
    assert Config.bind_socket is not original
    assert calls[-1]["workers"] == 2 and calls[-1]["proxy_headers"] is True
