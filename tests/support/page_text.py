"""Reading a rendered lab page in tests: a state's query, the visible text of a region, a card, a meter, a legend
line, the why-panel's reasons (the native reads' regression tests share these)."""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

from app.model import DEFAULTS


def query(inputs=DEFAULTS, **changes) -> str:  # noqa: ANN001
    return urlencode(inputs.query(**changes))


def text(body: str, joiner: str = " ") -> str:
    """The visible text, each tag replaced by ``joiner`` ('' keeps 「<code>x</code>」 as 「x」 in running text)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", joiner, body)).split())


def card(body: str, decision: str, joiner: str = " ") -> str:
    m = re.search(rf'<div class="st-[a-z_]+" id="decision-{decision}"[^>]*>(.*?)</div>', body, re.S)
    assert m, decision
    return text(m.group(1), joiner)


def meter(body: str, meter_id: str) -> str:
    # the meter's figure and, under "show the math", its sentence (the formula line after it is left out)
    m = re.search(rf'<div class="lvl-[a-z]+[^"]*" id="meter-{meter_id}"[^>]*>(.*?)(?:</p><p>|</details>)', body, re.S)
    assert m, meter_id
    return text(m.group(1))


def by_class(body: str, cls: str) -> str:
    m = re.search(rf'<li class="{cls}">(.*?)</li>', body, re.S)
    assert m, cls
    return text(m.group(1))


def why(body: str, joiner: str = " ") -> str:
    m = re.search(r'<ol class="reasons">(.*?)</ol>', body, re.S)
    assert m
    return text(m.group(1), joiner)
