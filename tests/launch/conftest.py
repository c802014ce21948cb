"""The launch checks read the pinned wheels from the cache `make wheels` fills (tests/launch/wheels.py).  Without the
cache the tests that read them (``pytestmark = pytest.mark.usefixtures("wheels")``) skip with the reason, except in
CI (``CI`` set), where a missing cache is a failure."""

from __future__ import annotations

import os

import pytest
from launch.wheels import CACHE, missing


@pytest.fixture(scope="session")
def wheels() -> None:
    absent = missing()
    if absent:
        why = f"{', '.join(r.pin for r in absent)} not in {CACHE}: run `make wheels` (pip download --no-deps)"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
