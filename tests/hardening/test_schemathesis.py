"""Schemathesis against the app's own OpenAPI schema, in-process (no server, no network).

Every documented operation (GET /api/evaluate, /api/launch, /api/plan, /api/compare) gets schema examples, the coverage phase's boundary and
negative values, and random fuzzing — bounded to 60 examples — and every response is checked by schemathesis's
default checks: no 5xx, status codes and content types as documented, response bodies against their schemas,
malformed input rejected and valid input accepted.

``unsupported_method`` (a 405 must carry ``Allow``) found the app's first bug here; it is fixed and the check is
on like every other."""

from __future__ import annotations

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from app.main import app
from app.model import DEFAULTS

from .checks import examples

schema = schemathesis.openapi.from_asgi("/openapi.json", app)


def _longest_below_mean(query: dict | None) -> bool:
    """The one rule between parameters the schema cannot state: ``response_max_tokens`` ≥ ``response_tokens`` (the
    mean; 1,024 when absent).  Each may be schema-valid and the pair still a 422 naming response_max_tokens."""
    query = query or {}
    try:
        return int(query["response_max_tokens"]) < int(query.get("response_tokens", DEFAULTS.response_tokens))
    except (KeyError, TypeError, ValueError):
        return False


def _call_and_validate(case) -> None:  # noqa: ANN001
    if case.path == "/api/calibrate":
        # the paste's content is checked by reading it, which no schema states: a schema-valid string that holds no
        # readable logged step is a 422 saying what was expected (tests/calibrate/test_routes.py); every other check
        response = case.call()
        case.validate_response(response, excluded_checks=[positive_data_acceptance])
        assert response.status_code in (200, 405, 413, 422), (case.method, case.query, response.text[:300])
        return
    if case.path == "/api/compare":
        # a side is a lab query inside a string: its parameters are validated by reading it (a 422 whose loc names
        # the side and the field, tests/web/test_compare_states.py), which no schema states; every other check
        response = case.call()
        case.validate_response(response, excluded_checks=[positive_data_acceptance])
        assert response.status_code in (200, 405, 422), (case.method, case.query, response.text[:300])
        return
    if not _longest_below_mean(case.query):
        case.call_and_validate()
        return
    # a longest response below the mean: refused (422), every other check as usual
    response = case.call()
    case.validate_response(response, excluded_checks=[positive_data_acceptance])
    assert response.status_code == 422, (case.query, response.text[:300])


@schema.exclude(path="/api/plan").parametrize()
@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case):
    _call_and_validate(case)


PLAN_FUZZ_MAX_GPUS = 64  # the planner searches up to max_gpus: the fuzzer's cases stay at 8 nodes
# The planner's own schema object: its examples and random fuzzing, not the coverage phase (a boundary case per
# parameter, each a search of hundreds of evaluations: minutes; tests/web/test_plan.py asks the planner's bad values
# for their 422 one by one).
plan_schema = schemathesis.openapi.from_asgi("/openapi.json", app)
plan_schema.config.phases.update(phases=["examples", "fuzzing"])


@plan_schema.include(path="/api/plan").parametrize()
@settings(max_examples=examples(12), deadline=None, suppress_health_check=list(HealthCheck))
def test_the_planner_conforms_to_its_schema(case):
    """As above for ``GET /api/plan``, its search bound held at 8 nodes (a search is hundreds of evaluations; a valid
    ``max_gpus`` above it is lowered, a bad one kept for its 422); tests/model/test_planner.py searches wider."""
    query = case.query if case.query is not None else {}
    bound = query.get("max_gpus", PLAN_FUZZ_MAX_GPUS + 1)  # absent: the default, 1,024
    if isinstance(bound, int) and not isinstance(bound, bool) and bound > PLAN_FUZZ_MAX_GPUS:
        query["max_gpus"] = PLAN_FUZZ_MAX_GPUS
    case.query = query
    _call_and_validate(case)


@pytest.mark.parametrize("path", ["/api/evaluate", "/api/launch", "/api/launch/verl.sh"])
def test_a_longest_response_below_the_mean_is_refused_naming_it(path):
    """The exception above is the APIs' documented answer, not any 422: it names response_max_tokens."""
    r = TestClient(app).get(path, params={"response_tokens": 2048, "response_max_tokens": 1024})
    assert r.status_code == 422 and [e["loc"] for e in r.json()["detail"]] == [["query", "response_max_tokens"]]
    assert _longest_below_mean({"response_tokens": 2048, "response_max_tokens": 1024})
    assert _longest_below_mean({"response_max_tokens": 17})
    assert not _longest_below_mean({"response_max_tokens": 1024})


def test_schema_documents_every_parameter_with_its_bounds():
    """The schema the fuzzer works from must carry the bounds, or it would fuzz blind."""
    from app.model.inputs import CHOICES, NUMBERS

    op = app.openapi()["paths"]["/api/evaluate"]["get"]
    params = {p["name"]: p for p in op["parameters"]}
    for spec in NUMBERS:
        s = params[spec.name]["schema"]
        assert (s.get("minimum"), s.get("maximum")) == (spec.minimum, spec.maximum), spec.name
        assert params[spec.name]["in"] == "query" and not params[spec.name].get("required", False)
    for spec in CHOICES:
        assert set(params[spec.name]["schema"]["enum"]) == set(spec.choices), spec.name
    assert "422" in op["responses"]
