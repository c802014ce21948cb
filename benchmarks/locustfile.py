"""A class of learners dragging sliders, for locust (issue 23: "a class of 64 learners on the two-core host, p95 ≤
100 ms and no error").  Replaces the hand-written HTTP client (loadgen.py) with a well-kept tool.

    pip install '.[bench]'
    rlhf-lab --port 8000 &
    locust -f benchmarks/locustfile.py --host http://127.0.0.1:8000 --headless -u 64 -r 16 -t 60s \\
        --csv results/class --only-summary

Each user is one browser tab: it opens the lab (the page), then mostly drags a slider one notch at a time (the htmx
partial, with the headers htmx sends: HX-Request and HX-Current-URL, the state on screen, which the server diffs
against), sometimes picks a choice, sometimes clicks a scenario card (a whole page) or asks the JSON API.  A
response counts as a failure unless it is 200 and, for a move, an out-of-band partial.
"""

from __future__ import annotations

import random
from urllib.parse import urlencode

from locust import HttpUser, between, task

from app.model import DEFAULTS
from app.model.inputs import CHOICES, NUMBERS
from app.model.scenarios import PRESETS

SLIDERS = {s.name: tuple(s.ladder) for s in NUMBERS if s.group == "workload"}  # the learner's sliders first
CHOICE_VALUES = {c.name: c.choices for c in CHOICES if c.name in ("method", "placement")}


def _value(v: float) -> str:
    return f"{v:g}"


class Learner(HttpUser):
    wait_time = between(0.15, 0.6)  # a hand on a slider: a few notches a second

    def on_start(self) -> None:
        self.lang = random.choice(("en", "zh"))
        self.state = {k: str(v) for k, v in DEFAULTS.query().items()}
        self.client.get(f"/{self.lang}/", name="/{lang}/ page")

    def _url(self, state: dict) -> str:
        return f"/{self.lang}/?{urlencode(state)}"

    def _move(self, name: str, value: str) -> None:
        before = self._url(self.state)
        after = {**self.state, name: value}
        headers = {"HX-Request": "true", "HX-Current-URL": f"{self.host}{before}"}
        with self.client.get(self._url(after), headers=headers, name="/{lang}/ partial", catch_response=True) as r:
            if r.status_code != 200 or 'hx-swap-oob="true"' not in r.text:
                r.failure(f"not a partial: {r.status_code}")
                return
            r.success()
        self.state = after

    @task(20)
    def drag_a_slider(self) -> None:
        name = random.choice(tuple(SLIDERS))
        ladder = SLIDERS[name]
        now = float(self.state.get(name, ladder[0]))
        k = min(range(len(ladder)), key=lambda j: abs(ladder[j] - now))
        k = max(0, min(len(ladder) - 1, k + random.choice((-1, 1))))
        self._move(name, _value(ladder[k]))

    @task(3)
    def pick_a_choice(self) -> None:
        name = random.choice(tuple(CHOICE_VALUES))
        self._move(name, random.choice(CHOICE_VALUES[name]))

    @task(2)
    def click_a_scenario(self) -> None:
        preset = random.choice(PRESETS)
        self.state = {k: str(v) for k, v in preset.inputs.query().items()}
        self.client.get(self._url(self.state), headers={"HX-Request": "true", "HX-Boosted": "true"},
                        name="/{lang}/ scenario")

    @task(1)
    def ask_the_api(self) -> None:
        self.client.get(f"/api/evaluate?{urlencode(self.state)}", name="/api/evaluate")
