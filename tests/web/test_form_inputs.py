"""The engineer form has an input for every public parameter of the JSON API (issue 36, item 5): the contract's, the
custom shape's and the 2026 practice inputs (refit, speculative decoding, agentic turns, the LLM judge) in the
groups inputs.py gives them.  The exceptions: ``step`` (a hidden field, only in a walkthrough state) and the factors
fitted to a run (their fields appear when a state sets one)."""

from __future__ import annotations

import re

import pytest

from app.model.inputs import FACTOR_NAMES, PRACTICE_SPECS, WorkloadInputs

LANGS = ("en", "zh")
EXCEPTIONS = {"step", *FACTOR_NAMES}  # shown only when the state sets them (tested below)


def _form(html: str) -> str:
    start = html.index('<form id="workload"')
    return html[start:html.index("</form>", start)]


def _names(form: str) -> set[str]:
    return set(re.findall(r'name="([a-z_0-9]+)"', form))


@pytest.mark.parametrize("lang", LANGS)
def test_every_public_parameter_has_an_input(client, lang) -> None:
    names = _names(_form(client.get(f"/{lang}/").text))
    assert set(WorkloadInputs.model_fields) - EXCEPTIONS <= names, sorted(set(WorkloadInputs.model_fields) - names)


@pytest.mark.parametrize("lang", LANGS)
def test_the_exceptions_appear_when_set(client, lang) -> None:
    names = _names(_form(client.get(f"/{lang}/?step=3&train_mfu=0.3").text))
    assert names >= EXCEPTIONS


@pytest.mark.parametrize("lang", LANGS)
def test_practice_inputs_sit_in_their_group_with_their_texts(client, lang) -> None:
    form = _form(client.get(f"/{lang}/").text)
    groups = {m.group(1): m.start() for m in re.finditer(r'data-group="([a-z]+)"', form)}
    order = sorted(groups, key=groups.get)
    for name, spec in PRACTICE_SPECS.items():
        at = form.index(f'data-ctl="{name}"')
        inside = max((g for g in order if groups[g] < at), key=groups.get)
        assert inside == spec.group, name
        block = form[at:form.index("</p>", at)]
        assert "input." not in block and "unit." not in block and "choice." not in block, name  # no raw keys


def test_a_practice_input_holds_its_value_and_opens_the_group(client) -> None:
    form = _form(client.get("/en/?turns=4&env_latency_s=2&reward=judge&judge_b=70&speculative=draft").text)
    assert re.search(r'name="turns" value="4"', form) and re.search(r'name="judge_b" value="70"', form)
    assert re.search(r'name="speculative" value="draft" checked', form)
    assert '<details class="ctl-group more engineer" data-group="engineer" open>' in form


def _opened(form: str) -> dict[str, bool]:
    """Each group of "size a real run": open or shut, as the page serves it."""
    return {g: bool(o) for g, o in re.findall(r'<details class="ctl-group more sub" data-group="([a-z]+)"( open)?>', form)}


def test_a_link_opens_only_the_groups_holding_the_values_it_sets(client) -> None:
    """read33, left item 3: ``policy_b=70&gpus=1`` (the policy size is a workload slider, always shown; the GPU
    count a hardware control) opened all 35 of the section's controls, a 7,952 px page.  Now only the hardware
    group opens; with nothing of the section set, opening it by hand shows every group."""
    moved = _opened(_form(client.get("/en/?policy_b=70&gpus=1").text))
    assert moved == {"algorithm": False, "model": False, "hardware": True}
    assert _opened(_form(client.get("/en/?turns=4&speculative=draft").text)) == {
        "algorithm": True, "model": False, "hardware": True}
    default = _form(client.get("/en/").text)
    assert _opened(default) == {"algorithm": True, "model": True, "hardware": True}
    assert '<details class="ctl-group more engineer" data-group="engineer">' in default  # the section itself shut
