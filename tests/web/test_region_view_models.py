"""A region's template compares nothing and reaches into no model record: each region's macro receives a frozen
view-model whose fields are text, numbers, booleans, view-models, tuples of them, or a sentence's arguments
(``TextArgs``, which a template only passes on to a text).  Checked on the dataclass types, so a field typed
``object`` (a whole ``Step`` handed to the template, as ``EstStepVM.step`` was) or an untyped ``dict`` fails here,
whatever the template then does with it."""

from __future__ import annotations

import dataclasses
import types
import typing

import pytest

from app.model import evaluate
from app.view.regions import state_regions
from tests.support.urls import STATES

SCALARS = (str, int, float, bool, type(None))


def _record(tp: type) -> bool:
    return dataclasses.is_dataclass(tp) or (issubclass(tp, tuple) and hasattr(tp, "_fields"))


def bad_fields(tp: object, path: str, seen: set[type] | None = None) -> list[str]:
    """The paths under ``tp`` whose type is none of the allowed ones (``[]`` when every field is)."""
    seen = set() if seen is None else seen
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp in SCALARS:
        return []
    if origin in (typing.Union, types.UnionType):
        return [b for a in args for b in bad_fields(a, path, seen)]
    if origin is tuple and args:
        return [b for a in args if a is not Ellipsis for b in bad_fields(a, f"{path}[]", seen)]
    if origin is dict and args and args[0] is str:  # a sentence's arguments, or a mapping of them by name
        return bad_fields(args[1], f"{path}{{}}", seen)
    if isinstance(tp, type) and _record(tp):
        if tp in seen:
            return []
        seen.add(tp)
        return [b for name, hint in typing.get_type_hints(tp).items()
                for b in bad_fields(hint, f"{path}.{name}", seen)]
    return [f"{path}: {tp!r}"]


def _region_types() -> dict[str, set[type]]:
    kinds: dict[str, set[type]] = {}
    for inputs in STATES.values():
        for region in state_regions(evaluate(inputs)).values():
            kinds.setdefault(region.kind, set()).add(type(region.vm))
    return kinds


REGION_TYPES = _region_types()


@pytest.mark.parametrize("kind", sorted(REGION_TYPES))
def test_a_region_macro_receives_only_text_numbers_flags_and_view_models(kind: str) -> None:
    for tp in REGION_TYPES[kind]:
        assert _record(tp), f"{kind}: its view-model {tp.__name__} is not a record"
        if dataclasses.is_dataclass(tp):
            assert tp.__dataclass_params__.frozen, f"{kind}: {tp.__name__} is not frozen (partials compare by value)"
        assert bad_fields(tp, f"{kind}:{tp.__name__}") == []


def test_the_check_sees_a_raw_record_and_an_untyped_dict() -> None:
    @dataclasses.dataclass(frozen=True)
    class Leaky:
        step: object
        args: dict
        fine: tuple[int, ...]

    assert bad_fields(Leaky, "x") == ["x.step: <class 'object'>", "x.args: <class 'dict'>"]
