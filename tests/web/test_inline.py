"""``{% inline %}`` (app/inline.py): the tag itself, and every page and partial byte for byte what the same templates
give with an ordinary ``{% include %}`` in its place."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from jinja2 import DictLoader, Environment, TemplateNotFound
from jinja2.ext import Extension

from app import view
from app.htmlspace import CollapseWhitespace
from app.inline import InlineTemplates
from app.model.scenarios import PRESETS, WALKTHROUGH

from .helpers import response_cache
from .test_fragments import BASE, IDENTITY, moves


def _env(templates: dict[str, str], **options) -> Environment:
    return Environment(loader=DictLoader(templates), extensions=[InlineTemplates], **options)


def test_the_pasted_template_renders_in_place():
    env = _env({"page": "<ul>{% for x in xs %}{% inline 'item' %}{% endfor %}</ul>".replace("'", '"'),
                "item": "<li>{{ x }}</li>\n"})
    assert env.get_template("page").render(xs=[1, 2]) == "<ul><li>1</li><li>2</li></ul>"


def test_whitespace_is_what_an_include_leaves():
    templates = {"page": "<div>\n  {% inline \"part\" %}\n</div>\n", "part": "<p>{{ a }}</p>\n"}
    included = {**templates, "page": templates["page"].replace("inline", "include")}
    for options in ({}, {"trim_blocks": True, "lstrip_blocks": True}):
        got = _env(templates, **options).get_template("page").render(a=1)
        assert got == Environment(loader=DictLoader(included), **options).get_template("page").render(a=1), options


def test_inlined_templates_may_inline_others():
    env = _env({"a": "[{% inline \"b\" %}]", "b": "({% inline \"c\" %})", "c": "{{ v }}"})
    assert env.get_template("a").render(v="x") == "[(x)]"


def test_a_loop_and_a_missing_template_fail_the_compile():
    with pytest.raises(RuntimeError, match="loop: a → b → a"):
        _env({"a": "{% inline \"b\" %}", "b": "{% inline \"a\" %}"}).get_template("a")
    with pytest.raises(TemplateNotFound):
        _env({"a": "{% inline \"nope\" %}"}).get_template("a")


def test_the_live_regions_are_inlined_and_set_no_top_level_name():
    """A template pasted in must not set a name at its top level: it would leak into the template around it."""
    live = view.env.loader.get_source(view.env, "_live.html")[0]
    pasted = set(re.findall(r'\{% inline "([^"]+)" %\}', live))
    assert {"_meters.html", "_estimates.html", "_why.html", "_decisions.html", "_node.html", "_edge.html"} <= pasted
    for name in pasted:
        source = view.env.loader.get_source(view.env, name)[0]
        depth = 0
        for tag in re.findall(r"\{%-?\s*(\w+)", source):
            depth += tag in ("call", "with", "for", "macro") or -(tag in ("endcall", "endwith", "endfor", "endmacro"))
            assert not (tag == "set" and depth == 0), f"{name} sets a name at its top level"


class _IncludeInstead(Extension):
    """The reference: each ``{% inline "x" %}`` compiled as ``{% include "x" %}``."""

    def preprocess(self, source, name, filename=None):  # noqa: ANN001, ANN201
        return re.sub(r'\{%\s*inline\s+("[^"]+")\s*%\}', r"{% include \1 %}", source)


@pytest.fixture
def by_include(monkeypatch):
    """A switch: render through an environment that includes what the app's inlines."""
    ref = view._Environment(loader=view.env.loader, autoescape=True, extensions=[CollapseWhitespace, _IncludeInstead])
    ref.context_class, ref.trim_blocks, ref.lstrip_blocks = view.env.context_class, True, True
    ref.globals.update(view.env.globals)
    ref.filters.update(view.env.filters)

    app_env = view.env

    def use(reference: bool) -> None:
        monkeypatch.setattr(view, "env", ref if reference else app_env)

    yield use
    use(False)


@pytest.fixture(autouse=True)
def no_reuse(client):
    """Neither the response cache nor the fragment cache may answer: both renders must run in full."""
    c = response_cache(client)
    budget, c.max_bytes = c.max_bytes, 0
    view.fragment_stats["enabled"] = False
    yield
    view.fragment_stats["enabled"] = True
    c.max_bytes = budget


def _both(client, by_include, url: str, headers: dict) -> tuple[str, str]:  # noqa: ANN001
    out = []
    for reference in (False, True):
        by_include(reference)
        r = client.get(url, headers={**IDENTITY, **headers})
        assert r.status_code == 200, url
        out.append(r.text)
    return out[0], out[1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pages_are_the_same_as_with_include(client, by_include, lang):
    urls = [view.lab_url(lang, p.inputs) for p in PRESETS] + [view.lab_url(lang, w.inputs) for w in WALKTHROUGH]
    for url in urls + [f"/{lang}/compare", f"/{lang}/compare?method=dpo"]:
        inlined, included = _both(client, by_include, url, {})
        assert inlined == included, url


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves())
def test_partials_are_the_same_as_with_include(client, by_include, move):
    before, after = move
    inlined, included = _both(client, by_include, after, {"HX-Request": "true", "HX-Current-URL": BASE + before})
    assert inlined == included, (before, after)


def test_a_partial_without_a_previous_state_is_the_same_as_with_include(client, by_include):
    url = f"/en/?{urlencode(PRESETS[2].inputs.query())}"
    inlined, included = _both(client, by_include, url, {"HX-Request": "true"})
    assert inlined == included
