"""Security and caching headers on every response (a pure ASGI middleware: no per-request object churn)."""

from __future__ import annotations

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]
# Versioned static files (the file name carries the version or a content hash) never change.
_IMMUTABLE = (b"cache-control", b"public, max-age=31536000, immutable")


class SecurityHeadersMiddleware:
    def __init__(self, app) -> None:  # noqa: ANN001 - any ASGI app
        self.app = app

    async def __call__(self, scope, receive, send) -> None:  # noqa: ANN001
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope["path"].startswith("/static/")

        async def send_with_headers(message) -> None:  # noqa: ANN001
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if not (static and h[0] == b"cache-control")]
                own_csp = any(h[0] == b"content-security-policy" for h in headers)
                headers.extend(h for h in _HEADERS if not (own_csp and h[0] == b"content-security-policy"))
                if static and message["status"] in (200, 304):
                    headers.append(_IMMUTABLE)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
