"""Browser tests: a live uvicorn server, one headless Debian Chromium per session, and a guarded page.

Every page the tests open goes through ``open_page``; its guard records console errors, uncaught page errors,
failed requests and any request that leaves 127.0.0.1, and fails the test at teardown if any happened.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Request, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 10_000  # the bound on every wait in this suite


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="package")
def base_url() -> Iterator[str]:
    """`uvicorn app.main:app` on a free 127.0.0.1 port, started from the repository root."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port),
         "--log-level", "warning", "--no-access-log"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            if proc.poll() is not None:
                out = proc.stdout.read() if proc.stdout else ""
                pytest.fail(f"uvicorn exited with {proc.returncode} before answering /healthz:\n{out}")
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("uvicorn did not answer /healthz within 20 s")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
        if proc.stdout:
            proc.stdout.close()


@pytest.fixture(scope="package")
def api(base_url: str) -> Iterator[Callable[[str], dict]]:
    """GET /api/evaluate?<query> → JSON (the query as it appears in a page URL, without '?')."""
    with httpx.Client(base_url=base_url, timeout=10) as client:

        def evaluate(query: str) -> dict:
            response = client.get(f"/api/evaluate?{query}")
            assert response.status_code == 200, f"/api/evaluate?{query} → {response.status_code}: {response.text}"
            return response.json()

        yield evaluate


# Package scope, not session: Playwright's sync API keeps an event loop running in this thread while it is open,
# and the TestClient tests collected after this package (tests/hardening, tests/web) need the thread's loop free.
@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} is missing (apt-get install chromium; `make chromium`)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=30_000)
        try:
            yield browser
        finally:
            browser.close()


class Guard:
    """What went wrong on a page: console errors, page errors, failed requests, requests off 127.0.0.1."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.in_flight: set[Request] = set()
        self.last_activity = time.monotonic()

    def attach(self, page: Page) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))
        page.on("request", self._request)
        page.on("requestfinished", self._done)
        page.on("requestfailed", self._failed)

    def _console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            loc = msg.location
            self.problems.append(f"console error: {msg.text} ({loc.get('url')}:{loc.get('lineNumber')})")

    def _request(self, request: Request) -> None:
        self.in_flight.add(request)
        self.last_activity = time.monotonic()
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname != "127.0.0.1":
            self.problems.append(f"request left 127.0.0.1: {request.method} {request.url}")

    def _done(self, request: Request) -> None:
        self.in_flight.discard(request)
        self.last_activity = time.monotonic()

    def _failed(self, request: Request) -> None:
        self._done(request)
        if request.failure == "net::ERR_ABORTED" and urlsplit(request.url).path.endswith("/favicon.svg"):
            return  # Chromium cancels a tab's icon when the page navigates on before it loads: not the page's fault
        self.problems.append(f"request failed: {request.method} {request.url} ({request.failure})")

    def settle(self, page: Page, quiet_ms: int = 120, timeout_ms: int = TIMEOUT_MS) -> None:
        """Wait (bounded) until no request is in flight, none started for `quiet_ms`, and htmx is idle."""
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            idle = not self.in_flight and time.monotonic() - self.last_activity >= quiet_ms / 1000
            if idle and page.evaluate("!document.querySelector('.htmx-request')"):
                return
            if time.monotonic() > deadline:
                pending = ", ".join(r.url for r in self.in_flight) or "none"
                raise AssertionError(f"network did not settle within {timeout_ms} ms (in flight: {pending})")
            page.wait_for_timeout(25)


PageFactory = Callable[..., Page]


@pytest.fixture
def open_page(browser: Browser) -> Iterator[PageFactory]:
    """Open a guarded page in a fresh context: ``open_page(viewport=..., color_scheme=..., ...)``.

    The page gets a ``guard`` attribute.  At teardown the guard's findings fail the test (scenario 9)."""
    opened: list[tuple[BrowserContext, Guard]] = []

    def factory(**context_args) -> Page:
        context_args.setdefault("viewport", DESKTOP)
        context = browser.new_context(**context_args)
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(TIMEOUT_MS)
        page = context.new_page()
        guard = Guard()
        guard.attach(page)
        page.guard = guard  # type: ignore[attr-defined]
        opened.append((context, guard))
        return page

    yield factory
    problems = [p for _, guard in opened for p in guard.problems]
    for context, _ in opened:
        context.close()
    if problems:
        pytest.fail("the page misbehaved (scenario 9):\n  " + "\n  ".join(problems), pytrace=False)


@pytest.fixture
def page(open_page: PageFactory) -> Page:
    return open_page()
