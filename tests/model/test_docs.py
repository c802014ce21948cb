"""docs/model.md cannot drift from the code: its tables of constants, GPUs, inputs, sources, stage rules and the
model column of its calibration table are checked against app/model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.model import WorkloadInputs, evaluate, stages
from app.model.assumptions import CONSTANTS, GPUS, SOURCES
from app.model.inputs import CHOICES, NUMBERS

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "model.md"
DOC = DOC_PATH.read_text(encoding="utf-8")


def fmt(value: float) -> str:
    """How the doc writes a number: integers with thousands separators, other values by repr."""
    value = float(value)
    return f"{int(value):,}" if value.is_integer() else repr(value)


def row(first_cell: str) -> list[str]:
    """The cells of the one table row whose first cell is ``first_cell``."""
    rows = [line for line in DOC.splitlines() if line.startswith(f"| {first_cell} |")]
    assert len(rows) == 1, f"docs/model.md: expected one row starting '| {first_cell} |', found {len(rows)}"
    return [cell.strip() for cell in rows[0].strip().strip("|").split("|")]


@pytest.mark.parametrize("key", list(CONSTANTS))
def test_every_constant_is_documented_with_its_value(key: str) -> None:
    c = CONSTANTS[key]
    cells = row(f"`{key}`")
    source = f"[{c.source}](#src-{c.source})" if c.source else "teaching assumption"
    expected = [f"`{key}`", fmt(c.value), c.unit, source]
    assert cells[:4] == expected, f"docs/model.md row should start: | {' | '.join(expected)} |"


@pytest.mark.parametrize("key", list(GPUS))
def test_every_gpu_is_documented_with_its_figures(key: str) -> None:
    g = GPUS[key]
    expected = [f"`{key}`", fmt(g.memory_gb), fmt(g.hbm_bandwidth_tb_per_s), fmt(g.peak_bf16_tflops),
                fmt(g.host_link_gb_per_s), f"[{g.source}](#src-{g.source})"]
    assert row(f"`{key}`") == expected, f"docs/model.md row should be: | {' | '.join(expected)} |"


@pytest.mark.parametrize("spec", NUMBERS, ids=lambda s: s.name)
def test_every_numeric_input_is_documented(spec) -> None:
    expected = [f"`{spec.name}`", fmt(spec.default), f"{fmt(spec.minimum)} – {fmt(spec.maximum)}", spec.unit]
    assert row(f"`{spec.name}`") == expected


@pytest.mark.parametrize("spec", CHOICES, ids=lambda s: s.name)
def test_every_choice_input_is_documented(spec) -> None:
    assert row(f"`{spec.name}`") == [f"`{spec.name}`", spec.default, " / ".join(spec.choices), "choice"]


@pytest.mark.parametrize("key", list(SOURCES))
def test_every_source_has_an_anchor_and_link(key: str) -> None:
    s = SOURCES[key]
    assert f'<a id="src-{key}"></a>`{key}`: [{s.title}]({s.url})' in DOC


def _stage_rules(text: str) -> list[tuple[str, str, str]]:
    return [(m[0], re.sub(r"[`\s]+", " ", m[1]).strip(), m[2])
            for m in re.findall(r"^\|\s*(\d)\s*\|\s*(.+?)\s*\|\s*`?(\w+)`?\s*\|\s*$", text, re.M)]


def test_stage_rules_table_matches_stages_docstring() -> None:
    in_code = _stage_rules(stages.__doc__ or "")
    assert [r[2] for r in in_code] == ["sft_only", "dpo", "reward_model", "eval_gated", "scaled_rollouts", "ppo_loop"]
    assert _stage_rules(DOC) == in_code


OPENRLHF = dict(gpu="a100_80g", gpus=8, rollouts=1024, prompt_tokens=1024, response_tokens=1024, policy_b=7, rm_b=7)


def _step(**kw):
    return evaluate(WorkloadInputs(**kw)).step


@pytest.mark.parametrize(
    ("label", "seconds"),
    [
        ("OpenRLHF 7B, Ray + vLLM (separate): generation", lambda: _step(**OPENRLHF).generation_s),
        ("OpenRLHF 7B, Ray + vLLM (separate): training", lambda: _step(**OPENRLHF).training_s),
        ("OpenRLHF 7B, Ray + vLLM (separate): step", lambda: _step(**OPENRLHF).total_s),
        ("OpenRLHF 7B, hybrid engine (colocated): generation",
         lambda: _step(**OPENRLHF, placement="colocated").generation_s),
        ("OpenRLHF 7B, hybrid engine (colocated): training",
         lambda: _step(**OPENRLHF, placement="colocated").training_s),
        ("OpenRLHF 7B, hybrid engine (colocated): step", lambda: _step(**OPENRLHF, placement="colocated").total_s),
        ("DeepSpeed-Chat OPT-13B + 350M RM, 8 × A100-80GB: step",
         lambda: _step(policy_b=13, rm_b=0.35, gpus=8, rollouts=1024, prompt_tokens=256, response_tokens=256,
                       placement="colocated").total_s),
    ],
)
def test_calibration_table_shows_the_models_figures(label: str, seconds) -> None:
    # the doc's "model" column is the model's own output, rounded to the second
    assert row(label)[2] == f"{round(seconds()):,} s"


@pytest.mark.parametrize(
    ("label", "share"),
    [
        ("generation share, OpenRLHF config, separate", lambda: _step(**OPENRLHF).generation_share),
        ("generation share, OpenRLHF config, colocated",
         lambda: _step(**OPENRLHF, placement="colocated").generation_share),
        ("generation share, the lab's default inputs", lambda: _step().generation_share),
    ],
)
def test_calibration_table_shows_the_models_shares(label: str, share) -> None:
    assert row(label)[2] == f"{round(100 * share())} %"
