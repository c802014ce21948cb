"""Two configurations side by side (/{lang}/compare): what each method removes and adds, meter by meter."""

from __future__ import annotations

from dataclasses import replace

from app.model import evaluate, normalise
from app.model.compare import counterpart, node_diff
from app.model.scenarios import PRESETS
from app.view.lab import other
from app.view.links import lab_url


def compare_context(lang: str, query: dict[str, list[str]]) -> dict:
    """``a`` is the query as given; ``b`` the same workload with the other method, unless ``b_<param>``
    parameters say otherwise."""
    left, notices = normalise(query)
    b_query = {k[2:]: v for k, v in query.items() if k.startswith("b_")}
    if b_query:
        right, more = normalise({**{k: [v] for k, v in left.query().items()}, **b_query})
        notices += tuple(replace(n, field=f"b_{n.field}") for n in more)
    else:
        right = counterpart(left)
    ra, rb = evaluate(left), evaluate(right)
    removed, added = node_diff(ra, rb)
    return {
        "lang": lang, "other_lang": other(lang), "page": "compare", "a": ra, "b": rb, "notices": notices,
        "removed": removed, "added": added,
        "a_url": lab_url(lang, left), "b_url": lab_url(lang, right),
        "switch_url": lab_url(other(lang), left, "compare"),
        "pairs": [(p.id, lab_url(lang, p.inputs, "compare")) for p in PRESETS],
    }
