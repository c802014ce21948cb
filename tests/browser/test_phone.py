"""Scenario 8: at phone width (390×844) nothing scrolls sideways and every control can be reached."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .conftest import PHONE
from .helpers import LANGS, PRESETS, goto, open_groups, shoot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("path", ["", "tutorial", "compare"])
@pytest.mark.parametrize("lang", LANGS)
def test_phone_no_sideways_scroll(open_page, base_url: str, lang: str, path: str) -> None:
    page: Page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    goto(page, f"{base_url}/{lang}/{path}")
    if path == "":
        shoot(page, f"lab-{lang}-phone-light")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"] + 1:
        culprits = page.evaluate(
            """(w) => {
                 const clipped = (e) => {  // inside a box that scrolls or clips sideways: not page overflow
                   for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
                     if (getComputedStyle(a).overflowX !== 'visible') return true;
                   return false;
                 };
                 return [...document.querySelectorAll('body *')]
                   .filter(e => e.getBoundingClientRect().right > w + 1 && !clipped(e))
                   .filter(e => !e.parentElement || e.parentElement.getBoundingClientRect().right <= w + 1)
                   .slice(0, 8).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
                     (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : '') +
                     ' right=' + Math.round(e.getBoundingClientRect().right));
               }""",
            PHONE["width"],
        )
        raise AssertionError(f"/{lang}/{path} scrolls sideways at 390 px: scrollWidth {width}; widest: {culprits}")


REACH = """(selectors) => {
  // For each element: scroll it into view, then is it rendered, enabled, inside the 390 px width, on screen,
  // and the topmost thing at its centre (not covered by, e.g., the fixed meter strip)?
  const out = [];
  for (const [what, sel] of selectors) {
    const els = document.querySelectorAll(sel);
    if (!els.length) { out.push(`${what}: ${sel} not found`); continue; }
    els.forEach((el, i) => {
      const name = `${what} ${el.name || el.dataset.for || el.dataset.preset || el.getAttribute('hreflang') || i}` +
                   (el.type === 'radio' ? '=' + el.value : '');
      const box = el.type === 'radio' ? el.parentElement : el;  // the radio is an invisible overlay on its pill
      box.scrollIntoView({block: 'center', inline: 'nearest'});
      const r = box.getBoundingClientRect();
      const problems = [];
      if (!box.checkVisibility({visibilityProperty: true, opacityProperty: false}) || r.width < 1 || r.height < 1)
        problems.push('not rendered');
      if (el.disabled || el.closest('fieldset:disabled')) problems.push('disabled');
      if (r.left < -1 || r.right > innerWidth + 1) problems.push(`sticks out sideways (${Math.round(r.left)}..${Math.round(r.right)})`);
      if (r.bottom <= 0 || r.top >= innerHeight) problems.push('off screen after scrolling');
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!problems.length && !(hit && (box.contains(hit) || hit.contains(box) || hit === el)))
        problems.push('covered by ' + (hit ? hit.tagName.toLowerCase() + '.' + hit.className : 'nothing'));
      if (problems.length) out.push(`${name}: ${problems.join(', ')}`);
    });
  }
  window.scrollTo(0, 0);
  return out;
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_phone_controls_reachable(open_page, base_url: str, lang: str) -> None:
    page: Page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    goto(page, f"{base_url}/{lang}/")
    other = "en" if lang == "zh" else "zh"
    open_groups(page)
    assert page.locator("#workload input:not([type=hidden])").count() >= 20
    # The Apply button is hidden on purpose when JavaScript runs (nojs.css shows it); test_nojs covers it.
    problems = page.evaluate(REACH, [
        ["control", "#workload input:not([type=hidden]), #workload select, #workload textarea"],
        ["preset", "a.preset[data-preset]"],
        ["language switch", f"#lang-switch a[hreflang={other}]"],
    ])
    assert page.locator("a.preset[data-preset]").count() == len(PRESETS)
    assert not problems, f"/{lang}/ at 390×844, not reachable:\n  " + "\n  ".join(problems)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
