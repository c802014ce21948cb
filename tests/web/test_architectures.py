"""Every named architecture (MODEL-FRONTIER §C) renders on every page that takes the lab's state, in both languages,
and answers the JSON API; the picker offers each with its label."""

from __future__ import annotations

import pytest
from support.urls import HTMX, LANGS

from app.i18n import catalogue
from app.model.assumptions import ARCH_IDS, ARCHS


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("arch", ARCH_IDS)
def test_every_page_renders_for_each_architecture(client, lang, arch):
    query = f"arch={arch}&gpus=64&gpu=h100_80g"
    for path in (f"/{lang}/?{query}", f"/{lang}/compare?{query}&b_gpus=128", f"/{lang}/launch?{query}"):
        r = client.get(path)
        assert r.status_code == 200, path
    partial = client.get(f"/{lang}/?{query}", headers=HTMX)
    assert partial.status_code == 200
    page = client.get(f"/{lang}/?{query}").text
    assert f'name="arch" value="{arch}" checked' in page
    assert catalogue(lang)[f"choice.arch.{arch}"] in page


@pytest.mark.parametrize("arch", list(ARCHS))
def test_the_api_answers_for_each_architecture(client, arch):
    r = client.get(f"/api/evaluate?arch={arch}&policy_b={ARCHS[arch].total_b:g}&gpus=64")
    assert r.status_code == 200, r.text
    assert r.json()["inputs"]["policy_b"] == ARCHS[arch].total_b
