"""What the templates compile to (app/view.py's code generator): checks on the generated Python itself."""

from __future__ import annotations

import pytest

from app.view import env

TEMPLATES = env.list_templates(extensions=["html"])


def _code(name: str) -> str:
    source = env.preprocess(env.loader.get_source(env, name)[0], name)
    return env.compile(source, name, raw=True)


@pytest.mark.parametrize("name", TEMPLATES)
def test_every_inline_if_has_an_else(name):
    """``{{ x if c }}`` without ``else`` makes a new Undefined, with its message formatted, every time c is false
    (rendered as ""): each inline if says ``else ''`` instead."""
    assert "cond_expr_undefined(" not in _code(name)


@pytest.mark.parametrize("name", TEMPLATES)
def test_translator_calls_are_direct(name):
    """``t(…)`` and ``t.markup(…)`` are plain calls, not ``context.call(…)`` (view._CodeGenerator)."""
    code = _code(name)
    assert "context.call((undefined(name='t')" not in code
    assert "environment.getattr((undefined(name='t') if l_0_t is missing else l_0_t), 'markup')" not in code
