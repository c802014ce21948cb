"""``app.main:app`` with one addition for the benchmarks: a ``Server-Timing: app;dur=<ms>`` response header.

    .venv/bin/uvicorn benchmarks.timed_app:app --host 127.0.0.1 --port 8765 --workers 1 --no-access-log

``dur`` is the time from the moment uvicorn hands the request to the ASGI app until the app starts the response
(``http.response.start``).  The lab's responses are not streamed, and the gzip middleware compresses before it
sends the start message, so this covers routing, parsing, the model, the template render, ETag and gzip — i.e.
the server's own work for one request, without the HTTP parsing in uvicorn and without the time a request waits
in the socket/event-loop queue before uvicorn reads it.  Under concurrency it *does* include time spent waiting
for the GIL / threadpool inside the app (that is part of the app's design, e.g. sync ``def`` routes).

The wrapper adds a few microseconds (one ``perf_counter`` pair and one header); run_all.sh can serve the bare
app instead (``SERVER_TIMING=0``).  Nothing in app/ is changed.
"""

from __future__ import annotations

import time

from app.main import app as lab_app


class ServerTiming:
    def __init__(self, inner) -> None:  # noqa: ANN001 - any ASGI app
        self.inner = inner

    async def __call__(self, scope, receive, send) -> None:  # noqa: ANN001
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        t0 = time.perf_counter()

        async def timed_send(message) -> None:  # noqa: ANN001
            if message["type"] == "http.response.start":
                dur = (time.perf_counter() - t0) * 1000.0
                message["headers"] = [*message.get("headers", []), (b"server-timing", f"app;dur={dur:.3f}".encode())]
            await send(message)

        await self.inner(scope, receive, timed_send)


app = ServerTiming(lab_app)
