"""Rendered fragments reused (view.cached): every page and partial is byte for byte what it is without the reuse.
A key that forgot something a region depends on shows up here as a difference."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import view
from app.model import DEFAULTS
from app.model.inputs import CHOICE_SPECS, NUMBERS
from app.model.scenarios import PRESETS, WALKTHROUGH

from .helpers import response_cache

BASE = "http://testserver"
NUMERIC = {s.name: [int(v) if s.integer else v for v in s.ladder] for s in NUMBERS}
IDENTITY = {"Accept-Encoding": "identity"}


@pytest.fixture
def reuse():
    """Fragments on (and empty at the start), with a switch to render without them."""
    view._fragments.clear()
    yield view.fragment_stats
    view.fragment_stats["enabled"] = True


def both(client: TestClient, reuse: dict, url: str, headers: dict) -> tuple[str, str]:
    reuse["enabled"] = True
    with_reuse = client.get(url, headers={**IDENTITY, **headers})
    reuse["enabled"] = False
    without = client.get(url, headers={**IDENTITY, **headers})
    reuse["enabled"] = True
    assert with_reuse.status_code == without.status_code == 200, url
    return with_reuse.text, without.text


def partial(prev: str) -> dict[str, str]:
    return {"HX-Request": "true", "HX-Current-URL": BASE + prev}


@pytest.fixture(autouse=True)
def no_response_cache(client):
    """The response cache (app/partial_cache.py) would answer the second request without rendering at all."""
    c = response_cache(client)
    budget, c.max_bytes = c.max_bytes, 0
    yield
    c.max_bytes = budget


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_preset_and_walkthrough_page_is_the_same_with_reused_fragments(client, reuse, lang) -> None:
    urls = [view.lab_url(lang, p.inputs) for p in PRESETS] + [view.lab_url(lang, w.inputs) for w in WALKTHROUGH]
    urls += [f"/{lang}/compare", f"/{lang}/compare?method=dpo"]
    for url in urls + urls:  # the second round renders from reused fragments
        a, b = both(client, reuse, url, {})
        assert a == b, url
    assert reuse["hits"] > 0


@st.composite
def moves(draw):  # noqa: ANN201
    lang = draw(st.sampled_from(("en", "zh")))
    start = draw(st.sampled_from([p.inputs for p in PRESETS] + [DEFAULTS]))
    changes = {}
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(sorted(NUMERIC) + sorted(CHOICE_SPECS)))
        values = NUMERIC.get(name) or list(CHOICE_SPECS[name].choices)
        changes[name] = draw(st.sampled_from(values))
    before = f"/{lang}/?{urlencode(start.query())}"
    after = f"/{lang}/?{urlencode(start.model_copy(update=changes).query())}"
    return before, after


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(moves(), min_size=2, max_size=5))
def test_partials_and_pages_are_the_same_with_reused_fragments(client, reuse, walk) -> None:
    for before, after in walk + walk:
        a, b = both(client, reuse, after, partial(before))
        assert a == b, f"{before} → {after}"
        a, b = both(client, reuse, after, {})
        assert a == b, after


def test_reuse_is_bounded(client, reuse, monkeypatch) -> None:
    monkeypatch.setattr(view, "FRAGMENTS_MAX", 10)
    client.get("/en/?rollouts=640", headers=IDENTITY)
    client.get("/zh/?rollouts=1024", headers=IDENTITY)
    assert len(view._fragments) <= 10
