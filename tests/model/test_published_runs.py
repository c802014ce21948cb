"""The published-runs data is well formed: every row cites an exact source, its figures are positive and in known
units, its keys are the lab's keys, and every field it fills says where the value came from."""

from __future__ import annotations

import dataclasses
import re
import tomllib

import pytest

from app.model import published_runs as pr
from app.model.assumptions import ENGINE_RELEASE_IDS, GPUS

# Fields every row has by construction (identity, provenance); the rest are inputs whose origin must be declared.
_BOOKKEEPING = {"id", "system", "source", "recipe_source", "figures", "notes", "published", "recipe", "derived",
                "assumed", "arch"}
_INPUTS = [f.name for f in dataclasses.fields(pr.PublishedRun) if f.name not in _BOOKKEEPING]
_NAMES = {f.name for f in dataclasses.fields(pr.PublishedRun)}
_ROWS = pr.RUNS


def test_rows_exist_and_ids_are_unique():
    assert len(_ROWS) >= 40
    assert len({r.id for r in _ROWS}) == len(_ROWS) == len(pr.RUN_BY_ID)


@pytest.mark.parametrize("row", _ROWS, ids=lambda r: r.id)
def test_source_is_exact(row):
    for src in filter(None, (row.source, row.recipe_source)):
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", src.repo)
        assert src.path and not src.path.startswith("/")
        assert re.fullmatch(r"[0-9a-f]{40}", src.commit), src
        assert src.ref
        assert src.url == f"https://github.com/{src.repo}/blob/{src.commit}/{src.path}"
    assert row.source.table and row.source.row
    assert row.notes.strip()


@pytest.mark.parametrize("row", _ROWS, ids=lambda r: r.id)
def test_figures_positive_with_known_units(row):
    assert row.figures
    for f in row.figures:
        assert f.name in pr.FIGURES and f.unit == pr.FIGURES[f.name]
        assert f.value > 0
    assert len({f.name for f in row.figures}) == len(row.figures)


@pytest.mark.parametrize("row", _ROWS, ids=lambda r: r.id)
def test_known_keys_and_sane_values(row):
    assert row.method in pr.METHODS
    assert row.arch is None or row.arch in pr.ARCH_KEYS
    assert row.gpu is None or row.gpu in pr.GPU_KEYS
    assert row.train_dtype in (None, *pr.DTYPES) and row.rollout_dtype in (None, *pr.DTYPES)
    assert row.train_backend in (None, "megatron", "fsdp")
    assert row.offload in (None, "none", "optimizer", "params")
    assert row.weight_sync in (None, "nccl", "checkpoint_engine")
    assert row.gen_release in (None, *ENGINE_RELEASE_IDS)
    assert row.system in ("nemo_rl", "verl", "openrlhf")
    assert row.gpus > 0
    for name in ("prompts_per_step", "group", "responses_per_step", "train_batch", "gen_gpus", "train_gpus",
                 "gen_tp", "gen_pp", "gen_ep", "train_tp", "train_pp", "train_ep", "train_cp",
                 "prompt_max_tokens", "response_max_tokens", "total_max_tokens"):
        value = getattr(row, name)
        assert value is None or value > 0, name
    if row.gen_gpus is not None and row.train_gpus is not None:
        assert row.colocated is False and row.gen_gpus + row.train_gpus == row.gpus
    if row.staleness is not None:
        assert 0 <= row.staleness <= 8


@pytest.mark.parametrize("row", _ROWS, ids=lambda r: r.id)
def test_every_filled_field_declares_its_origin(row):
    origins = (row.published, row.recipe, row.derived, row.assumed)
    declared = [name for group in origins for name in group]
    assert set(declared) <= _NAMES, set(declared) - _NAMES
    assert len(declared) == len(set(declared)), "a field has two origins"
    filled = {n for n in _INPUTS if getattr(row, n) not in (None, "")}
    assert filled <= set(declared), filled - set(declared)
    # an assumption is always explained in the notes
    if row.assumed:
        assert "assum" in row.notes


def test_lab_gpu_keys_exist_in_the_model():
    assert set(pr.GPU_KEYS) <= set(GPUS)
    assert {r.gpu for r in _ROWS if r.gpu} <= set(GPUS)


def test_the_check_fails_on_a_bad_row():
    bad = dataclasses.replace(_ROWS[0], figures=(pr.Figure(name="step_s", value=-1.0, unit="s"),))
    with pytest.raises(AssertionError):
        test_figures_positive_with_known_units(bad)
    unsourced = dataclasses.replace(_ROWS[0], published=())
    with pytest.raises(AssertionError):
        test_every_filled_field_declares_its_origin(unsourced)


def test_notes_are_written_once_and_each_is_used():
    # the rows name their notes by id (app/model/data/published_runs.toml [notes]): one text per note
    data = tomllib.loads(pr.DATA.read_text(encoding="utf-8"))
    used = {n for group in ("nemo_rl", "verl", "verl_tuning") for row in data[group] for n in row["notes"]}
    assert used == set(data["notes"])
    assert len(set(data["notes"].values())) == len(data["notes"])
