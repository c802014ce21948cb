"""The speed budgets (issues 14 and 15), once: benchmarks/summarize.py reads them, and tests/support/budgets.py.

No imports, so anything can load this file: the benchmark scripts import it as a sibling module; a test can read it
with ``runpy.run_path("benchmarks/budgets.py")["BUDGETS"]`` (or ``from benchmarks.budgets import BUDGETS`` with the
repository root on ``sys.path``).

Timing budgets are checked on a benchmark run (``bash benchmarks/run_all.sh``) as percentiles and ratios, never by a
timed unit test: the machine is shared.  Sizes and counts are deterministic and can be asserted anywhere.
"""

BUDGETS: dict[str, float] = {
    # key press → the watched meter's new number in the DOM, with fetch-ahead (as shipped), ms
    "browser_update_p50_ms": 8.0,
    "browser_update_p95_ms": 16.0,
    # Gradio's update p50 / ours, both measured by the peers' harness (measure_ui.py) in the same run: at least
    "peer_ratio_p50": 10.0,
    # a cold move (nothing fetched ahead, an htmx round trip) / a bare fetch() + one DOM write, p50, same run: at most
    "cold_vs_fetch_ratio": 1.5,
    # first load, cold cache: body bytes as transferred (compressed), and requests (the page included)
    "first_load_bytes": 100_000,
    "first_load_requests": 6,
    # one htmx partial, gzipped bytes as sent (every one-notch move from the defaults and from random states); the
    # partial carries the charts, the meter strip and the state links as regions (issue 23), so it is counted as the
    # network carries it, as the code review asked
    "partial_gzip_bytes": 10_000,
    # never-seen partials per second: from one worker (one `rlhf-lab` process), and from the two-core host
    "one_worker_per_s": 600.0,
    "host_per_s": 1_000.0,
    # app.model.evaluate(): median µs per call on the defaults, the presets and random states (issue 15)
    "model_median_us": 150.0,
}
