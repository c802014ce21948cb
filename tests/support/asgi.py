"""A minimal in-process HTTP client for the ASGI app that sends *exactly* the bytes it is given.

httpx (and so Starlette's TestClient) normalises URLs: it removes ``..`` segments and re-quotes the query,
which hides precisely what these tests want to send.  This driver builds the ASGI scope the way uvicorn does
(``raw_path`` as received, ``path`` percent-decoded, ``query_string`` untouched) and collects the answer.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from app.main import app

_RUNNER = asyncio.Runner()


@dataclass
class Reply:
    status: int
    headers: list[tuple[str, str]]  # names lower-cased, in order
    body: bytes

    def header(self, name: str) -> str | None:
        name = name.lower()
        for k, v in self.headers:
            if k == name:
                return v
        return None

    def all(self, name: str) -> list[str]:
        name = name.lower()
        return [v for k, v in self.headers if k == name]

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def content_type(self) -> str:
        return (self.header("content-type") or "").split(";")[0].strip()

    def vary(self) -> set[str]:
        return {v.strip().lower() for h in self.all("vary") for v in h.split(",") if v.strip()}


HeaderArg = Mapping[str, str] | Iterable[tuple[str, str]]


async def call(method: str, target: bytes, headers: list[tuple[bytes, bytes]]) -> Reply:
    """One request on the running event loop (for tests that drive the app from their own loop)."""
    raw_path, _, query = target.partition(b"?")
    scope = {
        "type": "http", "asgi": {"version": "3.0", "spec_version": "2.4"}, "http_version": "1.1",
        "method": method, "scheme": "http", "root_path": "",
        "path": unquote(raw_path.decode("ascii")), "raw_path": raw_path, "query_string": query,
        "headers": headers, "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 50000),
    }
    start: dict = {}
    chunks: list[bytes] = []
    sent_request = False
    done = asyncio.Event()

    async def receive() -> dict:
        nonlocal sent_request
        if not sent_request:
            sent_request = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            assert not start, "response started twice"
            start.update(message)
        elif message["type"] == "http.response.body":
            assert start, "body before start"
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                done.set()

    await asyncio.wait_for(app(scope, receive, send), timeout=30)
    assert start, "the app sent no response"
    hdrs = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in start.get("headers", [])]
    return Reply(start["status"], hdrs, b"".join(chunks))


def request(method: str, target: str | bytes, headers: HeaderArg = ()) -> Reply:
    """``target``: path plus optional ``?query``, sent as-is (ASCII).  A ``Host`` header is added unless given."""
    if isinstance(target, str):
        target = target.encode("ascii")
    items = list(headers.items()) if isinstance(headers, Mapping) else list(headers)
    raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in items]
    if not any(k == b"host" for k, _ in raw):
        raw.insert(0, (b"host", b"testserver"))
    return _RUNNER.run(call(method, target, raw))


def get(target: str | bytes, headers: HeaderArg = ()) -> Reply:
    return request("GET", target, headers)
