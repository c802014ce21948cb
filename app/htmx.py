"""What the app needs to know about an htmx request (django-htmx style): is it one, does it want the lab's
partial, and which lab state was on screen before it."""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import Request

from app.i18n import LANGS

LAB_PATHS = frozenset(f"/{lang}/" for lang in LANGS)
# A lab answer depends on the URL and on these request headers: say so to every cache between.
VARY_PARTIAL = "HX-Request, HX-Boosted, HX-History-Restore-Request, HX-Current-URL"
VARY_PAGE = VARY_PARTIAL + ", Referer"


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def wants_partial(request: Request) -> bool:
    """The live regions only: an htmx request from the workload form.  Boosted links (presets, walkthrough) and
    history restores get the whole page."""
    h = request.headers
    return is_htmx(request) and h.get("hx-boosted") != "true" and h.get("hx-history-restore-request") != "true"


def previous_state_query(request: Request) -> str | None:
    """The query string of the state before this change: htmx sends the page's URL as HX-Current-URL; a plain form
    submit sends Referer.  Only a lab URL on this host counts."""
    for header in ("hx-current-url", "referer"):
        url = request.headers.get(header)
        if not url:
            continue
        parts = urlsplit(url)
        if (parts.netloc and parts.netloc != request.headers.get("host")) or parts.path not in LAB_PATHS:
            return None
        return parts.query
    return None
