"""The escaping the templates and catalogue texts use is markupsafe's, only without its Markup wrappers: the same
text for anything a user could type, and the same page as a stock Jinja environment would render."""

from __future__ import annotations

import jinja2
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup, escape

from app.i18n import Translator, escape_str
from app.view import env

HOSTILE = ['<script>alert(1)</script>', '" onmouseover="x', "' autofocus '", "a & b", "&amp;", "", "中文 <b>粗</b>"]
_text = st.one_of(st.sampled_from(HOSTILE), st.text())


@given(_text)
def test_escape_str_is_markupsafes_escape_as_plain_text(text):
    out = escape_str(text)
    assert type(out) is str
    assert out == str(escape(text))


def test_escape_str_escapes_each_special_character():
    assert escape_str("<>&\"'x") == "&lt;&gt;&amp;&#34;&#39;x"


@given(st.one_of(_text, st.integers(), st.floats(allow_nan=False), st.none(), st.booleans(),
                 _text.map(Markup)))
def test_output_writes_what_escape_writes(value):
    assert str(env.output(value)) == str(escape(value))


@given(st.one_of(_text, st.integers(), _text.map(Markup)))
def test_a_template_renders_as_with_stock_jinja(value):
    source = '<p title="{{ v }}">{{ v }}{{ "<i>" }}{{ x.missing }}</p>'
    stock = jinja2.Environment(autoescape=True).from_string(source)
    assert env.from_string(source).render(v=value, x={}) == stock.render(v=value, x={})


@given(_text)
def test_catalogue_arguments_are_escaped(text):
    t = Translator("en")
    out = t.markup("notice.invalid", field=text, given=text, used="0.02")
    assert isinstance(out, Markup)
    assert out == t.messages["notice.invalid"].format(field=escape(text), given=escape(text), used="0.02")


def test_catalogue_markup_argument_is_kept():
    t = Translator("en")
    out = t.markup("notice.invalid", field=Markup("<b>kl</b>"), given="<b>", used="0.02")
    assert "<b>kl</b>" in out and "&lt;b&gt;" in out
