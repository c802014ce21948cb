"""Schemathesis against the app's own OpenAPI schema, in-process (no server, no network).

Every documented operation (today: GET /api/evaluate) gets schema examples, the coverage phase's boundary and
negative values, and random fuzzing — bounded to 60 examples — and every response is checked by schemathesis's
default checks: no 5xx, status codes and content types as documented, response bodies against their schemas,
malformed input rejected and valid input accepted.

``unsupported_method`` (a 405 must carry ``Allow``) found the app's first bug here; it is fixed and the check is
on like every other."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings

from app.main import app

from .checks import examples

schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case):
    case.call_and_validate()


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
