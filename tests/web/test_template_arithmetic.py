"""Templates format what the view gives them and do no arithmetic (issue 14: the data flows one way — the model
computes, app/view builds the view-models, a template only picks texts and formats values)."""

import re

from app import templating

TEMPLATES = sorted((templating.ROOT / "templates").glob("*.html"))
EXPRESSION = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
STRING = re.compile(r"'[^']*'|\"[^\"]*\"")
# an operand, an arithmetic operator, an operand (``~`` joins strings; ``**args`` unpacks keyword arguments)
ARITHMETIC = re.compile(r"[\w)\]]\s*(?<!\*)[-+*/%](?![*=])\s*[\w(]")
# a sign flipped: ``-d`` after an opening bracket, a comma, ``=``, ``if`` / ``else`` or the start of the expression
NEGATION = re.compile(r"(?:^\{[{%]|[(\[,=]|\bif|\belse)\s*-\s*[A-Za-z_(]")
TRIM = re.compile(r"(?<=^\{[{%])-|-(?=[}%]\}$)")  # Jinja's whitespace control ({%- … -%}) is no minus


def arithmetic(source: str) -> list[str]:
    return [e for e in EXPRESSION.findall(source)
            if ARITHMETIC.search(STRING.sub("''", e)) or NEGATION.search(TRIM.sub("", STRING.sub("''", e)))]


def test_the_scanner_sees_arithmetic():
    assert arithmetic("{{ a * 100 }} {{ x + 14 }} {{ 'est'|t(share=s.share * 100) }}") == [
        "{{ a * 100 }}", "{{ x + 14 }}", "{{ 'est'|t(share=s.share * 100) }}"]
    assert arithmetic("{{ (-d if d < 0 else d)|fmt('n') }} {{- x -}} {%- set y = z -%} {{ 'a'|t(n=-k) }}") == [
        "{{ (-d if d < 0 else d)|fmt('n') }}", "{{ 'a'|t(n=-k) }}"]
    assert arithmetic("{{ 'a-b' ~ x }} {{ m|tm(**args) }} {% if d > 0 %} {{ '+' if d > 0 else '−' }}") == []


def test_no_template_does_arithmetic():
    found = {path.name: arithmetic(path.read_text(encoding="utf-8")) for path in TEMPLATES}
    assert {name: exprs for name, exprs in found.items() if exprs} == {}


# No template picks a catalogue key of its own: the view names each key whole (issue 23, item 7).
# a parenthesised expression joining strings with ``~`` (one level of nested parentheses), piped into |t or |tm
KEY_BUILT = re.compile(r"\((?:[^()]|\([^()]*\))*~(?:[^()]|\([^()]*\))*\)\s*\|\s*tm?\b")
# a key's dotted head or tail joined on with ``~`` ('stage.' ~ s, s ~ '.name'), wherever the key then goes (a
# {% set %}, a macro's argument); region ids ('meter-' ~ id) and plain text (' ' ~ unit) have no dot
KEY_PART_JOINED = re.compile(r"['\"][a-z_]+(?:\.[a-z_]+)*\.['\"]\s*~|~\s*['\"]\.[a-z_]+['\"]")


def key_building(source: str) -> list[str]:
    return [m.group(0) for e in EXPRESSION.findall(source) for m in KEY_BUILT.finditer(e)] + [
        m.group(0) for e in EXPRESSION.findall(source) if not KEY_BUILT.search(e) for m in KEY_PART_JOINED.finditer(e)]


def test_the_scanner_sees_key_building():
    assert key_building("{{ ('stage.' ~ vm.stage ~ '.name')|t }} {{ ('est.memlane.' ~ l ~ ('_kv' if k else ''))|t(g=1) }}"
                        " {{ vm.name_key|t }} {{ (' ' ~ c.unit_key|t) if c.shows_unit else '' }}") == [
        "('stage.' ~ vm.stage ~ '.name')|t", "('est.memlane.' ~ l ~ ('_kv' if k else ''))|t"]
    assert key_building("{% set k = 'choice.gpu.' ~ i.gpu %}{{ k|t }} {{ m(x ~ '.label') }} {% set v = regions['meter-' ~ id] %}"
                        " {% set u = '/' ~ lang ~ '/' %}") == ["'choice.gpu.' ~", "~ '.label'"]


def test_no_template_builds_a_catalogue_key():
    found = {path.name: key_building(path.read_text(encoding="utf-8")) for path in TEMPLATES}
    assert {name: keys for name, keys in found.items() if keys} == {}
