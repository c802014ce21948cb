"""SHA-256 of the app's responses for a fixed set of requests: proves a change leaves every byte of output alone.

    .venv/bin/python benchmarks/output_digest.py --out before.json        # on the commit before the change
    .venv/bin/python benchmarks/output_digest.py --compare before.json    # after it: exit 1 on any difference

Requests (both languages, in-process via TestClient, ``Accept-Encoding: identity``): the lab page at the
defaults, at every preset and every walkthrough step; the htmx partial for a one-notch move up and down of every
numeric slider from the defaults, for a change of every choice, and for a move that changes several inputs at
once; the partial with a missing and with a foreign HX-Current-URL; the compare page (also for DPO and every
preset), the launch page (defaults, presets, a custom size), the reference page, a 404, the config-paste error
page (a form post), the tutorial and /api/evaluate.  Bodies are hashed after blanking the ``?v=<hash>`` of static asset URLs (a patch to app.js or
app.css changes those on purpose); the status code and Vary / Cache-Control headers are part of the digest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import warnings
from pathlib import Path
from urllib.parse import urlencode

from _common import ROOT  # noqa: F401 - puts the app on sys.path

ASSET_VERSION = re.compile(rb"(/static/[\w.-]+)\?v=[0-9a-f]+")


def requests() -> list[tuple[str, str, dict[str, str]]]:
    from app.model import DEFAULTS
    from app.model.inputs import CHOICES, NUMBERS
    from app.model.scenarios import PRESETS, WALKTHROUGH

    out: list[tuple[str, str, dict[str, str]]] = []

    def url(lang: str, inputs=DEFAULTS, **changes) -> str:  # noqa: ANN001
        return f"/{lang}/?{urlencode(inputs.query(**changes))}"

    for lang in ("en", "zh"):
        here = url(lang)
        htmx = {"HX-Request": "true", "HX-Current-URL": "http://testserver" + here}
        out.append((f"{lang} page default", f"/{lang}/", {}))
        out.append((f"{lang} page full query", here, {}))
        out += [(f"{lang} page preset {p.id}", url(lang, p.inputs), {}) for p in PRESETS]
        out += [(f"{lang} page walk {w.number}", url(lang, w.inputs), {}) for w in WALKTHROUGH]
        for spec in NUMBERS:
            ladder = list(spec.ladder)
            value = getattr(DEFAULTS, spec.name)
            k = min(range(len(ladder)), key=lambda j: abs(ladder[j] - value))
            for step in (-1, 1):
                if 0 <= k + step < len(ladder):
                    v = ladder[k + step]
                    v = int(v) if spec.integer else v
                    out.append((f"{lang} partial {spec.name} {step:+d}", url(lang, **{spec.name: v}), htmx))
        for spec in CHOICES:
            for choice in spec.choices:
                if choice != getattr(DEFAULTS, spec.name):
                    out.append((f"{lang} partial {spec.name}={choice}", url(lang, **{spec.name: choice}), htmx))
        out.append((f"{lang} partial multi", url(lang, rollouts=0, method="dpo", gpus=64), htmx))
        out.append((f"{lang} partial same state", here, htmx))
        out.append((f"{lang} partial no current url", url(lang, rollouts=640), {"HX-Request": "true"}))
        out.append((f"{lang} partial foreign current url", url(lang, rollouts=640),
                    {"HX-Request": "true", "HX-Current-URL": "http://elsewhere.example/en/"}))
        out.append((f"{lang} boosted page", url(lang, rollouts=640), {"HX-Request": "true", "HX-Boosted": "true"}))
        out.append((f"{lang} compare", f"/{lang}/compare?{urlencode(DEFAULTS.query())}", {}))
        out.append((f"{lang} tutorial", f"/{lang}/tutorial", {}))
        out.append((f"{lang} compare dpo", f"/{lang}/compare?{urlencode(DEFAULTS.query(method='dpo'))}", {}))
        out += [(f"{lang} compare preset {p.id}", f"/{lang}/compare?{urlencode(p.inputs.query())}", {}) for p in PRESETS]
        out.append((f"{lang} launch", f"/{lang}/launch?{urlencode(DEFAULTS.query())}", {}))
        out += [(f"{lang} launch preset {p.id}", f"/{lang}/launch?{urlencode(p.inputs.query())}", {}) for p in PRESETS]
        out.append((f"{lang} launch custom", url(lang, arch="custom", policy_b=13).replace("/?", "/launch?", 1), {}))
        out.append((f"{lang} page custom arch", url(lang, arch="custom", policy_b=13), {}))
        out.append((f"{lang} reference", f"/{lang}/reference", {}))
        out.append((f"{lang} 404", f"/{lang}/no-such-page", {}))
        out.append((f"{lang} config error", f"POST /{lang}/config", {"body": "config=%7Bnot+json"}))
        out.append((f"{lang} config error empty", f"POST /{lang}/config?gpus=64", {"body": "config="}))
    out.append(("api evaluate", f"/api/evaluate?{urlencode(DEFAULTS.query())}", {}))
    return out


def digest_all() -> dict[str, str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

        from app.main import app
    client = TestClient(app)
    out = {}
    for name, path, headers in requests():
        if path.startswith("POST "):  # a form post: the body rides in the headers' slot
            path = path[5:]
            r = client.post(path, content=headers["body"], headers={
                "Content-Type": "application/x-www-form-urlencoded", "Accept-Encoding": "identity",
                "Cookie": "lang=" + path[1:3]}, follow_redirects=False)
        else:
            r = client.get(path, headers={**headers, "Accept-Encoding": "identity", "Cookie": "lang=" + path[1:3]})
        h = hashlib.sha256()
        h.update(str(r.status_code).encode())
        for k in ("vary", "cache-control", "content-type"):
            h.update(f"{k}:{r.headers.get(k)}".encode())
        h.update(ASSET_VERSION.sub(rb"\1?v=X", r.content))
        out[name] = h.hexdigest()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--out", type=Path, help="write the digests here")
    ap.add_argument("--compare", type=Path, help="compare with digests written earlier; exit 1 on any difference")
    args = ap.parse_args()
    digests = digest_all()
    if args.out:
        args.out.write_text(json.dumps(digests, indent=1) + "\n")
        print(f"{len(digests)} responses hashed → {args.out}")
    if args.compare:
        other = json.loads(args.compare.read_text())
        diff = sorted(k for k in other.keys() | digests.keys() if other.get(k) != digests.get(k))
        print(f"{len(digests)} responses: {len(diff)} differ" + (f": {diff}" if diff else " (identical output)"))
        return 1 if diff else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
