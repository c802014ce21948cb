"""Size of the htmx partial (uncompressed and gzip-6) for every one-notch move of every slider, both languages.

    .venv/bin/python benchmarks/partial_sizes.py [--json benchmarks/results/partial_sizes.json]

For each numeric input, every pair of neighbouring notches on its ladder (all other inputs at their defaults) is
requested in both directions, in-process (TestClient, ``HX-Request: true``, ``HX-Current-URL`` = the previous
notch).  Prints p50 / p95 / max per language and the largest moves: the issue's budget is ≤ 15 KB uncompressed
per partial.  Deterministic: no timing involved.
"""

from __future__ import annotations

import argparse
import gzip
import warnings
from pathlib import Path
from urllib.parse import urlencode

from _common import pct, run_meta, write_json


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path)
    ap.add_argument("--budget", type=int, default=15_000)
    args = ap.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

        from app.main import app
    from app.model import DEFAULTS
    from app.model.inputs import NUMBERS

    client = TestClient(app)
    rows = []
    for lang in ("en", "zh"):
        for spec in NUMBERS:
            ladder = [int(v) if spec.integer else v for v in spec.ladder]
            for a, b in zip(ladder, ladder[1:], strict=False):
                for before, after in ((a, b), (b, a)):
                    prev = f"/{lang}/?{urlencode(DEFAULTS.query(**{spec.name: before}))}"
                    url = f"/{lang}/?{urlencode(DEFAULTS.query(**{spec.name: after}))}"
                    r = client.get(url, headers={"HX-Request": "true", "HX-Current-URL": "http://testserver" + prev,
                                                 "Accept-Encoding": "identity"})
                    if r.status_code != 200:
                        continue
                    rows.append({"lang": lang, "param": spec.name, "from": before, "to": after,
                                 "bytes": len(r.content), "gzip6": len(gzip.compress(r.content, 6)),
                                 "regions": r.text.count('hx-swap-oob="true"')})
    out = {"meta": run_meta(), "budget": args.budget, "moves": len(rows), "by_lang": {}}
    for lang in ("en", "zh"):
        sizes = [r["bytes"] for r in rows if r["lang"] == lang]
        over = [r for r in rows if r["lang"] == lang and r["bytes"] > args.budget]
        out["by_lang"][lang] = {"moves": len(sizes), "p50": pct(sizes, 50), "p95": pct(sizes, 95), "max": max(sizes),
                                "over_budget": len(over),
                                "gzip6_p50": pct([r["gzip6"] for r in rows if r["lang"] == lang], 50)}
        print(f"{lang}: {len(sizes)} one-notch moves; partial p50 {pct(sizes, 50)} B, p95 {pct(sizes, 95)} B, "
              f"max {max(sizes)} B; {len(over)} over {args.budget} B; gzip-6 p50 {out['by_lang'][lang]['gzip6_p50']} B")
    worst = sorted(rows, key=lambda r: -r["bytes"])[:8]
    print("largest:", "; ".join(f"{r['lang']} {r['param']} {r['from']}→{r['to']} {r['bytes']} B" for r in worst))
    out["largest"] = worst
    out["rows"] = rows
    write_json(args.json, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
