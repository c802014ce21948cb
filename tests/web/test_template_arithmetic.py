"""Templates format what the view gives them and do no arithmetic (issue 14: the data flows one way — the model
computes, app/view builds the view-models, a template only picks texts and formats values)."""

import re

from app import templating

TEMPLATES = sorted((templating.ROOT / "templates").glob("*.html"))
EXPRESSION = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
STRING = re.compile(r"'[^']*'|\"[^\"]*\"")
# an operand, an arithmetic operator, an operand (``~`` joins strings; ``**args`` unpacks keyword arguments)
ARITHMETIC = re.compile(r"[\w)\]]\s*(?<!\*)[-+*/%](?![*=])\s*[\w(]")


def arithmetic(source: str) -> list[str]:
    return [e for e in EXPRESSION.findall(source) if ARITHMETIC.search(STRING.sub("''", e))]


def test_the_scanner_sees_arithmetic():
    assert arithmetic("{{ a * 100 }} {{ x + 14 }} {{ 'est'|t(share=s.share * 100) }}") == [
        "{{ a * 100 }}", "{{ x + 14 }}", "{{ 'est'|t(share=s.share * 100) }}"]
    assert arithmetic("{{ 'a-b' ~ x }} {{ m|tm(**args) }} {% if d > 0 %} {{ '+' if d > 0 else '−' }}") == []


def test_no_template_does_arithmetic():
    found = {path.name: arithmetic(path.read_text(encoding="utf-8")) for path in TEMPLATES}
    assert {name: exprs for name, exprs in found.items() if exprs} == {}
