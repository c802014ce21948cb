"""`rlhf-lab`: serve the lab with uvicorn (127.0.0.1:8000 by default)."""

from __future__ import annotations

import argparse
import socket


def _tcp_listener_for_workers() -> None:
    """uvicorn's multi-worker supervisor binds its listener with proto=0; asyncio then leaves TCP_NODELAY off on
    accepted sockets and every keep-alive response waits ~40 ms for the client's delayed ACK (Kludex/uvicorn#3149).
    Re-create the bound socket with proto=IPPROTO_TCP (same file descriptor) so the workers set TCP_NODELAY."""
    from uvicorn.config import Config

    original = Config.bind_socket

    def bind_socket(self: Config) -> socket.socket:
        sock = original(self)
        if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto == 0:
            sock = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
            sock.set_inheritable(True)
        return sock

    Config.bind_socket = bind_socket


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(prog="rlhf-lab", description="Serve the RLHF Pipeline Lab.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1, help="worker processes (the app keeps no state)")
    parser.add_argument("--proxy-headers", action="store_true", help="trust X-Forwarded-* from a reverse proxy")
    args = parser.parse_args(argv)
    if args.workers > 1:
        _tcp_listener_for_workers()
    uvicorn.run("app.main:app", host=args.host, port=args.port, workers=args.workers,
                proxy_headers=args.proxy_headers, forwarded_allow_ips="127.0.0.1" if args.proxy_headers else None,
                access_log=False)


if __name__ == "__main__":
    main()
