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


# The lab page's templates pick no catalogue key of their own: the view names each key whole (issue 23, item 7).
LAB_TEMPLATES = ("regions.html", "lab.html", "_stage.html", "_live.html", "_form.html", "_controls.html", "_walk.html",
                 "_diagram.html", "_nodelist.html", "_macros.html", "_reality.html")
# a parenthesised expression joining strings with ``~`` (one level of nested parentheses), piped into |t or |tm
KEY_BUILT = re.compile(r"\((?:[^()]|\([^()]*\))*~(?:[^()]|\([^()]*\))*\)\s*\|\s*tm?\b")


def key_building(source: str) -> list[str]:
    return [m.group(0) for e in EXPRESSION.findall(source) for m in KEY_BUILT.finditer(e)]


def test_the_scanner_sees_key_building():
    assert key_building("{{ ('stage.' ~ vm.stage ~ '.name')|t }} {{ ('est.memlane.' ~ l ~ ('_kv' if k else ''))|t(g=1) }}"
                        " {{ vm.name_key|t }} {{ (' ' ~ c.unit_key|t) if c.shows_unit else '' }}") == [
        "('stage.' ~ vm.stage ~ '.name')|t", "('est.memlane.' ~ l ~ ('_kv' if k else ''))|t"]


def test_the_lab_page_builds_no_catalogue_key():
    found = {name: key_building((templating.ROOT / "templates" / name).read_text(encoding="utf-8"))
             for name in LAB_TEMPLATES}
    assert {name: keys for name, keys in found.items() if keys} == {}
