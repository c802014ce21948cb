"""Size of the htmx partial (uncompressed and gzip-6) for every one-notch move from the defaults and from random
states, both languages.

    .venv/bin/python benchmarks/partial_sizes.py [--random 40] [--seed 1] [--json benchmarks/results/partial_sizes.json]

Moves, each requested over the app's public HTTP interface in-process (Starlette's TestClient: ``HX-Request: true``,
``HX-Current-URL`` = the state before the move, ``Accept-Encoding: identity``):

* from the defaults: every pair of neighbouring notches of every slider, both ways (other inputs at their
  defaults), and every switch of every choice;
* from ``--random`` seeded random states (every input on a random notch or choice): every one-notch move of every
  slider from that state, both ways where there is room, and every switch of every choice.

Prints p50 / p95 / max per origin and language and the largest moves; the budget (benchmarks/budgets.py) is
≤ 15,000 B uncompressed per partial.  Deterministic: no timing involved.
"""

from __future__ import annotations

import argparse
import gzip
import random
import warnings
from pathlib import Path
from urllib.parse import urlencode

from _common import pct, run_meta, write_json
from budgets import BUDGETS


def notches() -> dict[str, list[object]]:
    """Every parameter's values as the form sends them: a slider's notches, a choice's options."""
    from app.model.inputs import CHOICES, NUMBERS

    out: dict[str, list[object]] = {s.name: [int(v) if s.integer else v for v in s.ladder] for s in NUMBERS}
    out.update({c.name: list(c.choices) for c in CHOICES})
    return out


def moves_from(state: dict[str, object], values: dict[str, list[object]], sliders: set[str]):  # noqa: ANN201
    """(name, before, after) for every one-notch move of every slider and every switch of every choice."""
    for name, vals in values.items():
        i = vals.index(state[name])
        targets = [j for j in (i - 1, i + 1) if 0 <= j < len(vals)] if name in sliders \
            else [j for j in range(len(vals)) if j != i]
        for j in targets:
            yield name, state, {**state, name: vals[j]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=40, help="random start states (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--all-rows", action="store_true", help="also write every move (URL, sizes) to the JSON")
    args = ap.parse_args()
    budget = int(BUDGETS["partial_gzip_bytes"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

        from app.main import app
    from app.i18n import LANGS
    from app.model import DEFAULTS
    from app.model.inputs import NUMBERS

    values = notches()
    sliders = {s.name for s in NUMBERS}
    rng = random.Random(args.seed)
    default_state = {name: getattr(DEFAULTS, name) for name in values}
    # from the defaults: every neighbouring pair of a slider's notches both ways, other inputs at their defaults
    origins: list[tuple[str, str, dict, dict]] = []
    for name, vals in values.items():
        if name in sliders:
            for a, b in zip(vals, vals[1:], strict=False):
                origins += [("defaults", name, {**default_state, name: a}, {**default_state, name: b}),
                            ("defaults", name, {**default_state, name: b}, {**default_state, name: a})]
    origins += [("defaults", n, b, a) for n, b, a in moves_from(default_state, values, sliders) if n not in sliders]
    for _ in range(max(0, args.random)):
        state = {name: rng.choice(vals) for name, vals in values.items()}
        origins += [("random", n, b, a) for n, b, a in moves_from(state, values, sliders)]

    rows = []
    with TestClient(app) as client:
        for lang in LANGS:
            for origin, name, before, after in origins:
                prev = f"/{lang}/?{urlencode(DEFAULTS.query(**before))}"
                url = f"/{lang}/?{urlencode(DEFAULTS.query(**after))}"
                r = client.get(url, headers={"HX-Request": "true", "HX-Current-URL": "http://testserver" + prev,
                                             "Accept-Encoding": "identity"})
                if r.status_code != 200:
                    raise SystemExit(f"{url}: status {r.status_code}")
                rows.append({"origin": origin, "lang": lang, "param": name, "from": before[name], "to": after[name],
                             "url": url, "bytes": len(r.content), "gzip6": len(gzip.compress(r.content, 6)),
                             "regions": r.text.count('hx-swap-oob="true"')})

    out: dict = {"meta": run_meta(), "budget_bytes": budget, "moves": len(rows), "random_states": args.random,
                 "seed": args.seed, "groups": {}}
    for origin in ("defaults", "random"):
        for lang in LANGS:
            sel = [r for r in rows if r["origin"] == origin and r["lang"] == lang]
            sizes = [r["bytes"] for r in sel]
            g = {"moves": len(sel), "p50": pct(sizes, 50), "p95": pct(sizes, 95), "max": max(sizes),
                 "over_budget": sum(r["gzip6"] > budget for r in sel), "gzip6_p50": pct([r["gzip6"] for r in sel], 50),
                 "gzip6_max": max(r["gzip6"] for r in sel)}
            out["groups"][f"{origin} {lang}"] = g
            print(f"{origin:8s} {lang}: {g['moves']:4d} moves; partial p50 {g['p50']} B, p95 {g['p95']} B, max "
                  f"{g['max']} B ({g['over_budget']} over {budget} B gzipped); gzip-6 p50 {g['gzip6_p50']} B, max "
                  f"{g['gzip6_max']} B")
    out["max_bytes"] = max(r["bytes"] for r in rows)
    out["over_budget"] = sum(r["gzip6"] > budget for r in rows)
    worst = sorted(rows, key=lambda r: -r["bytes"])[:8]
    print(f"all {len(rows)} moves: max {out['max_bytes']} B, {out['over_budget']} over budget; largest: "
          + "; ".join(f"{r['origin']} {r['lang']} {r['param']} {r['from']}→{r['to']} {r['bytes']} B" for r in worst[:4]))
    out["largest"] = worst
    out["by_param"] = {}  # (origin, lang, parameter) → moves, p50 and max bytes
    for r in rows:
        out["by_param"].setdefault(f"{r['origin']} {r['lang']} {r['param']}", []).append(r["bytes"])
    out["by_param"] = {k: {"moves": len(v), "p50": pct(v, 50), "max": max(v)} for k, v in out["by_param"].items()}
    if args.all_rows:
        out["rows"] = rows
    write_json(args.json, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
