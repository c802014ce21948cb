"""docs/model.md cannot drift from the code: its tables of constants, GPUs, inputs, sources, stage rules and the
model column of its calibration table are checked against app/model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.model import evaluate, stages
from app.model.assumptions import ARCHS, CONSTANTS, GPUS, SOURCES
from app.model.calibration import ROWS, compare
from app.model.inputs import CHOICES, FACTOR_NUMBERS, NUMBERS
from app.model.physics.architecture import kv_bytes_per_token

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
                fmt(g.host_link_gb_per_s), fmt(g.nvlink_gb_per_s), fmt(g.ib_gb_per_s), fmt(g.nvlink_domain_gpus),
                fmt(g.node_gpus), f"[{g.source}](#src-{g.source})"]
    assert row(f"`{key}`") == expected, f"docs/model.md row should be: | {' | '.join(expected)} |"


@pytest.mark.parametrize("key", list(ARCHS))
def test_every_architecture_is_documented_with_its_shape(key: str) -> None:
    a = ARCHS[key]
    cells = row(f"`{key}`")
    expected = [f"`{key}`", str(a.layers), f"{a.hidden:,}", str(a.heads), str(a.kv_heads), str(a.head_dim),
                f"{a.vocab:,}", fmt(a.total_b), fmt(a.active_b)]
    assert cells[:9] == expected
    assert cells[10] == fmt(kv_bytes_per_token(a)) and cells[11] == f"[{a.source}](#src-{a.source})"


@pytest.mark.parametrize("spec", NUMBERS, ids=lambda s: s.name)
def test_every_numeric_input_is_documented(spec) -> None:
    expected = [f"`{spec.name}`", fmt(spec.default), f"{fmt(spec.minimum)} – {fmt(spec.maximum)}", spec.unit]
    assert row(f"`{spec.name}`") == expected


@pytest.mark.parametrize("spec", FACTOR_NUMBERS, ids=lambda s: s.name)
def test_every_fitted_factor_is_documented_with_its_bounds(spec) -> None:
    """docs/model.md states what each factor means and its bounds (issue 35); written as the URL writes it."""
    expected = [f"`{spec.name}=`", fmt(spec.default), f"{fmt(spec.minimum)} – {fmt(spec.maximum)}", spec.unit]
    assert row(f"`{spec.name}=`")[:4] == expected


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
    assert [r[2] for r in in_code] == ["agentic", "grpo", "sft_only", "dpo", "reward_model", "eval_gated", "scaled_rollouts",
                                       "ppo_loop"]
    assert _stage_rules(DOC) == in_code


@pytest.mark.parametrize(("row_id", "figure"), [(r.id, p.figure) for r in ROWS for p in r.published],
                         ids=lambda x: str(x))
def test_calibration_table_shows_the_models_figures(row_id: str, figure: str) -> None:
    # the doc's "model" column is the model's own output (app/model/calibration.py), rounded to the second
    (r,) = [r for r in ROWS if r.id == row_id]
    (c,) = [c for c in compare(r) if c.figure == figure]
    cells = row(f"{row_id} · {figure}")
    assert cells[1:] == [f"{c.published:,.0f} s", f"{round(c.model):,} s", f"{c.ratio:.2f}", f"{c.tolerance:g}×"]


def test_the_default_share_quoted_is_the_models() -> None:
    share = round(100 * evaluate(ROWS[0].inputs.model_copy(update={"placement": "separate"})).step.generation_share)
    assert f"{share} % (Ray + vLLM)" in DOC
