"""A class of learners on the lab, for locust: each loads the lab page, then drags sliders, steps through the
walkthrough, switches language now and then and asks the JSON API, with a learner's think time in between.

    .venv/bin/locust -f benchmarks/locustfile.py --headless -u 64 -r 16 -t 60s \
        --host http://127.0.0.1:8001 --lab-hosts http://127.0.0.1:8001,http://127.0.0.1:8002 \
        --csv benchmarks/results/class_load --only-summary
    .venv/bin/python benchmarks/class_load.py benchmarks/results/class_load --json benchmarks/results/class_load.json

``--lab-hosts`` (optional; default ``--host``) splits the learners evenly over several servers: run_all.sh's
two-core host is two ``rlhf-lab`` processes on two ports (docs/performance.md).  Only loopback hosts.

What a learner's browser sends, as the lab's own code sends it (app/static/app.js, htmx):

* **the first load**: ``GET /{lang}/`` and the page's scripts, stylesheet and icon (``static``; once per learner);
* **a drag** (most of the time): focusing a slider fetches the partials of its two neighbouring notches (app.js's
  fetch-ahead: ``GET /{lang}/?<state>`` with ``HX-Request: true`` and ``HX-Current-URL: <the state on screen>``);
  each notch the hand moves is then answered from those, and fetches the new state's two neighbours.  A drag is 1–6
  notches of one ladder parameter, 0.1–0.4 s apart.  The ladders are read from ``app.model.inputs``;
* **a walkthrough step** (the next one, or the first): a boosted link, the whole page (``HX-Boosted: true``);
* **a language switch**: the same state in the other language, also a boosted link;
* **the JSON API**: ``GET /api/evaluate?<the state>``;
* **the run planner** (only the ``--planner-share`` of learners, in place of half their API calls):
  ``GET /{lang}/plan?<the state>``, the lab's link; the other learners' actions are unchanged.

Every answer is checked (status 200, a partial is a partial, a page ends with ``</html>``, the API answers JSON with
the stage); anything else is a failure.  Think time between actions: 2–8 s (reading what moved).
"""

from __future__ import annotations

import itertools
import random
import re
import sys
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import gevent
from locust import between, events, task
from locust.contrib.fasthttp import FastHttpUser

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the app of this checkout: its parameter ladders

from app.model.inputs import DEFAULTS, NUMBERS, fmt_param, normalise  # noqa: E402
from app.model.scenarios import WALKTHROUGH  # noqa: E402

LOOPBACK = ("127.0.0.1", "localhost", "::1")
# A learner drags the workload's sliders most (the first the page shows), the others now and then.
SLIDERS = [s for s in NUMBERS if s.group == "workload"] * 4 + [s for s in NUMBERS if s.group != "workload"]
STATIC = re.compile(r'<(?:link[^>]+rel="(?:stylesheet|icon)"[^>]*href|script[^>]+src)="(/static/[^"]+)"')
NOSCRIPT = re.compile(r"<noscript>.*?</noscript>", re.S)


@events.init_command_line_parser.add_listener
def _options(parser) -> None:  # noqa: ANN001
    parser.add_argument("--lab-hosts", default="", help="comma-separated loopback base URLs: the learners are split "
                        "evenly over them (default: --host)")
    parser.add_argument("--planner-share", type=float, default=0.0, help="the share of learners who also open the "
                        "run planner for the state on screen now and then (0–1; default 0: the lab alone)")


_seats = itertools.count()  # the n-th learner to arrive sits at host n mod len(hosts)


def canonical(query: dict[str, str]) -> dict[str, str]:
    """The state as the page's own links write it (normalise's rules applied, as the server does)."""
    return normalise(query)[0].query()


def notches(spec) -> list[str]:  # noqa: ANN001
    return [fmt_param(int(v) if spec.integer else v) for v in spec.ladder]


def nearest(ladder: list[str], value: str) -> int:
    x = float(value)
    return min(range(len(ladder)), key=lambda i: abs(float(ladder[i]) - x))


class Learner(FastHttpUser):
    wait_time = between(2, 8)  # reading what moved
    network_timeout = 10.0
    connection_timeout = 10.0

    def __init__(self, environment) -> None:  # noqa: ANN001
        opts = environment.parsed_options
        hosts = [h.strip().rstrip("/") for h in (getattr(opts, "lab_hosts", "") or "").split(",") if h.strip()]
        hosts = hosts or [environment.host.rstrip("/")]
        for h in hosts:
            if urlsplit(h).hostname not in LOOPBACK:
                raise SystemExit(f"only loopback hosts: {h}")
        seat = next(_seats)
        self.host = hosts[seat % len(hosts)]
        share = min(max(float(getattr(opts, "planner_share", 0.0) or 0.0), 0.0), 1.0)
        self.planner = (seat * 0.6180339887) % 1 < share  # spread over the seats, the same learners every run
        super().__init__(environment)

    def on_start(self) -> None:
        self.rng = random.Random()
        self.lang = "zh" if self.rng.random() < 0.4 else "en"
        self.state = DEFAULTS.query()
        self.step = 0
        r = self.get(f"/{self.lang}/", "page (first load)")
        if r is not None:
            for src in dict.fromkeys(STATIC.findall(NOSCRIPT.sub("", r.text or ""))):
                self.get(src, "static", kind="static")

    # --- what a browser sends -----------------------------------------------------------------------------------

    def url(self, state: dict[str, str], lang: str | None = None) -> str:
        return f"/{lang or self.lang}/?{urlencode(state)}"

    def get(self, path: str, name: str, headers: dict[str, str] | None = None, kind: str = "page"):  # noqa: ANN201
        with self.client.get(path, name=name, headers=headers or {}, catch_response=True) as r:
            text = r.text or ""
            if r.status_code != 200:
                r.failure(f"status {r.status_code}")
            elif kind == "page" and not text.rstrip().endswith("</html>"):
                r.failure("not a whole page")
            elif kind == "partial" and ("hx-swap-oob" not in text or "<html" in text):
                r.failure("not a partial")
            elif kind == "api" and '"stage"' not in text:
                r.failure("no stage in the answer")
            elif kind == "plan" and 'data-chart="plan"' not in text and 'data-answer=' not in text:
                r.failure("not the planner's page")
            else:
                r.success()
                return r
        return None

    def ahead(self, state: dict[str, str], name: str, value: str) -> None:
        """app.js's fetch-ahead: the partial for `name` = `value`, computed against the state on screen."""
        new = canonical({**state, name: value})
        if new != state:
            self.get(self.url(new), "partial (a neighbouring notch)", kind="partial",
                     headers={"HX-Request": "true", "HX-Current-URL": self.host + self.url(state)})

    def neighbours(self, spec, ladder: list[str]) -> None:  # noqa: ANN001
        i = nearest(ladder, self.state[spec.name])
        for j in (i + 1, i - 1):
            if 0 <= j < len(ladder):
                self.ahead(self.state, spec.name, ladder[j])

    # --- what a learner does ------------------------------------------------------------------------------------

    @task(10)
    def drag(self) -> None:
        spec = self.rng.choice(SLIDERS)
        if spec.name == "policy_b" and self.state.get("arch", "custom") != "custom":
            return  # a named architecture sets the policy size: its slider is disabled
        ladder = notches(spec)
        self.neighbours(spec, ladder)  # the hand rests on the slider
        direction = self.rng.choice((-1, 1))
        for _ in range(self.rng.randint(1, 6)):
            i = nearest(ladder, self.state[spec.name]) + direction
            if not 0 <= i < len(ladder):
                break
            self.state = canonical({**self.state, spec.name: ladder[i]})  # answered from what was fetched ahead
            self.neighbours(spec, ladder)
            gevent.sleep(self.rng.uniform(0.1, 0.4))  # the hand moves on

    @task(3)
    def walkthrough_step(self) -> None:
        before = self.host + self.url(self.state)
        self.step = self.step % len(WALKTHROUGH) + 1
        self.state = WALKTHROUGH[self.step - 1].inputs.query()
        self.get(self.url(self.state), "page (a walkthrough step)",
                 headers={"HX-Request": "true", "HX-Boosted": "true", "HX-Current-URL": before})

    @task(1)
    def switch_language(self) -> None:
        before = self.host + self.url(self.state)
        self.lang = "en" if self.lang == "zh" else "zh"
        self.get(self.url(self.state), "page (language switch)",
                 headers={"HX-Request": "true", "HX-Boosted": "true", "HX-Current-URL": before})

    @task(2)
    def api(self) -> None:
        if self.planner and self.rng.random() < 0.5:  # a learner of the planner's share: the planner, half the time
            self.get(f"/{self.lang}/plan?{urlencode(self.state)}", "page (the run planner)", kind="plan")
            return
        self.get(f"/api/evaluate?{urlencode(self.state)}", "/api/evaluate", kind="api")
