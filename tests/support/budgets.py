"""The speed budgets that are sizes and counts, not times (issue 14; docs/performance.md): the tests assert these,
the benchmarks report against them.  Timing budgets are measured by benchmarks/ and reported, never asserted."""

PARTIAL_MAX_BYTES = 15_000      # an htmx partial after one move, uncompressed
FIRST_LOAD_MAX_BYTES = 100_000  # every resource of a cold first load, gzipped
MAX_RESOURCES = 6               # same-origin requests a first load makes, the page included
