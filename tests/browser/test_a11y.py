"""Scenario 10: axe-core finds no serious or critical violation on the lab and tutorial pages,
in both languages, in light and dark colour schemes."""

from __future__ import annotations

import json

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from .conftest import ROOT
from .helpers import LANGS, goto, shoot

pytestmark = pytest.mark.browser

BLOCKING = ("serious", "critical")
MAX_NODES = 40
REPORTS = ROOT / "artifacts" / "axe"


def _report(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} nodes) — {v['helpUrl']}")
        for node in v["nodes"][:MAX_NODES]:
            target = " ".join(str(t) for t in node.get("target", []))
            summary = (node.get("failureSummary") or "").replace("\n", " ").strip()
            lines.append(f"    target {target}: {summary[:300]}")
        if len(v["nodes"]) > MAX_NODES:
            lines.append(f"    … and {len(v['nodes']) - MAX_NODES} more (full list in {REPORTS.relative_to(ROOT)})")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["", "tutorial"])
@pytest.mark.parametrize("lang", LANGS)
def test_axe_no_serious_violations(open_page, base_url: str, axe: Axe, lang: str, path: str, scheme: str) -> None:
    page: Page = open_page(color_scheme=scheme)
    goto(page, f"{base_url}/{lang}/{path}")
    page.guard.settle(page)
    if path == "":
        shoot(page, f"lab-{lang}-desktop-{scheme}")
    elif scheme == "light":  # the tutorial is 35,000 px tall: one screenshot of it is enough, as JPEG
        shoot(page, f"{path}-{lang}-desktop-{scheme}", image="jpeg")
    results = axe.run(page)
    everything = results.response["violations"]
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / f"{path or 'lab'}-{lang}-{scheme}.json").write_text(json.dumps(everything, indent=1), encoding="utf-8")
    violations = [v for v in everything if v.get("impact") in BLOCKING]
    if violations:
        pytest.fail(
            f"axe-core {results.response.get('testEngine', {}).get('version')} on /{lang}/{path} ({scheme}): "
            f"{len(violations)} serious/critical rule(s) violated\n" + _report(violations),
            pytrace=False,
        )
