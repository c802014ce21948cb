"""Shared helpers for the benchmark scripts: percentiles, loopback checks, run metadata.

Nothing here times anything by itself.  Percentiles are nearest-rank (the same definition as the peers' harness,
shared/peers/measure_ui.py), so p95 of 60 samples is the 58th smallest value
(int(round(57 + 0.5)) = 58).  The budgets are in budgets.py.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path[:1]:  # the app of this checkout, whatever the current directory
    sys.path.insert(0, str(ROOT))

RESULTS = ROOT / "benchmarks" / "results"


def pct(values, q: float):
    """Nearest-rank percentile, q in 0..100, of a non-empty sequence (None if empty)."""
    s = sorted(values)
    if not s:
        return None
    k = max(0, min(len(s) - 1, int(round(q / 100.0 * len(s) + 0.5)) - 1))
    return s[k]


def summary(values, digits: int = 3) -> dict | None:
    """n, p50 (median), p90, p95, p99, max, min, mean of a list of numbers."""
    values = list(values)
    if not values:
        return None
    r = lambda x: round(x, digits)  # noqa: E731
    return {"n": len(values), "p50": r(statistics.median(values)), "p90": r(pct(values, 90)),
            "p95": r(pct(values, 95)), "p99": r(pct(values, 99)), "max": r(max(values)), "min": r(min(values)),
            "mean": r(statistics.fmean(values))}


def check_loopback(url: str) -> str:
    """Exit unless the URL points at 127.0.0.1 / localhost; return it without a trailing slash."""
    host = urlsplit(url).hostname or ""
    if host not in ("127.0.0.1", "localhost", "::1") and not host.startswith("127."):
        sys.exit(f"refusing non-loopback URL: {url}")
    return url.rstrip("/")


def run_meta() -> dict:
    """Machine, versions and the app's git state, for every result file."""
    def git(*args: str) -> str:
        try:
            # rstrip only: porcelain status lines start with a space (" M app/…")
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                                  timeout=10).stdout.rstrip()
        except (OSError, subprocess.SubprocessError):
            return ""

    versions = {}
    for mod in ("fastapi", "starlette", "uvicorn", "jinja2", "pydantic", "playwright", "httptools", "uvloop", "locust"):
        try:
            from importlib.metadata import version

            versions[mod] = version(mod)
        except Exception:  # noqa: BLE001 - not installed
            versions[mod] = None
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(), "cpu": cpu,
        "loadavg_at_start": [round(x, 2) for x in os.getloadavg()], "versions": versions,
        "git_commit": git("rev-parse", "--short", "HEAD"),
        "app_dirty_files": [ln[3:] for ln in git("status", "--porcelain", "--", "app").splitlines() if ln],
    }


def write_json(path: Path | str | None, data: dict) -> None:
    if not path:
        return
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # Nothing but loopback resolves: the page cannot reach any other host.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]
