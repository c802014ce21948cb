"""Issue 33: the lesson's new parts — a step's prediction, the timeline, presenter view for a room — pass axe-core
with no serious or critical violation, in both languages and colour schemes."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from axe_playwright_python.sync_playwright import Axe

from app.model.scenarios import WALKTHROUGH

from .helpers import LANGS, goto, shoot
from .test_a11y import BLOCKING, _report

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("scheme", "present"), [("light", False), ("dark", True)], ids=["light", "dark-present"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_step_with_its_prediction_and_timeline_passes_axe(open_page, base_url: str, lang: str, scheme: str,
                                                            present: bool) -> None:
    page = open_page(color_scheme=scheme, **({"viewport": {"width": 1920, "height": 1080}} if present else {}))
    goto(page, f"{base_url}/{lang}/?{urlencode(WALKTHROUGH[11].inputs.query())}{'&present=1' if present else ''}")
    page.guard.settle(page)
    shoot(page, f"lesson-step12-{lang}-{scheme}{'-present' if present else ''}", full_page=False)
    violations = [v for v in Axe().run(page).response["violations"] if v.get("impact") in BLOCKING]
    assert not violations, _report(violations)
