"""The speed budgets that are sizes and counts, not times, as the tests assert them.  Their one home is
benchmarks/budgets.py (issue 14; docs/performance.md), read here as a file: benchmarks/ is not a package.  Timing
budgets are measured by benchmarks/ and reported, never asserted."""

import runpy
from pathlib import Path

_BUDGETS = runpy.run_path(str(Path(__file__).resolve().parents[2] / "benchmarks" / "budgets.py"))["BUDGETS"]

PARTIAL_MAX_BYTES = int(_BUDGETS["partial_gzip_bytes"])   # an htmx partial after one move, gzipped
FIRST_LOAD_MAX_BYTES = int(_BUDGETS["first_load_bytes"])  # every resource of a cold first load, gzipped
MAX_RESOURCES = int(_BUDGETS["first_load_requests"])      # same-origin requests a first load makes, the page included
