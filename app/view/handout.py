"""A handout (the lab page printed): the state's whole address, host included, and a QR code of it.

The address is built here from the request's base URL (``home``: ``http://host:port/en/``), never in a template and
never by JavaScript, so the printed text and the QR code always say the same thing.  It is the student's link: the
state without ``present=1``.  The QR code is drawn by segno (https://segno.readthedocs.io) as inline SVG.
"""

from __future__ import annotations

from functools import lru_cache

import segno
from markupsafe import Markup

# segno scores all eight QR masks by default (ISO/IEC 18004 §7.8) and keeps the best: ≈ 19 ms for a lab state's
# ≈ 500-character address here, against ≈ 6 ms with one mask fixed.  Any mask decodes (the reader reads the mask from
# the format bits); the scoring only avoids patterns that confuse a camera, which a printed code at 3.5 cm with
# a quiet zone does not need.  Fixed, a page with a handout stays cheap to serve.
QR_MASK = 0
QR_BORDER = 4  # modules of quiet zone, the standard's minimum for a QR code


def state_url(home: str, query: str) -> str:
    """The state's whole address: ``home`` (``http://host:port/en/``) and the canonical query."""
    return f"{home}?{query}"


@lru_cache(maxsize=256)  # a page is printed in the states a class visits: the walkthrough's, the presets'
def qr_svg(url: str) -> Markup:
    """``url`` as a QR code, inline SVG (black on white, the quiet zone included, sized by CSS)."""
    code = segno.make_qr(url, mask=QR_MASK)
    return Markup(code.svg_inline(border=QR_BORDER, omitsize=True, dark="#000", light="#fff", svgclass="qr"))


def handout_context(home: str, query: str) -> dict:
    """What _handout.html shows: the state's whole address, its QR code, and the canonical query they are of."""
    url = state_url(home, query)
    return {"handout_url": url, "handout_qr": qr_svg(url), "handout_query": query}
