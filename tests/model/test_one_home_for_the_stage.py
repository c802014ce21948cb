"""One home for the stage decision (review F1): only ``stages.py`` (the rules), ``stage_cost.py`` (the per-stage
switch) and ``plan.py`` (the resolved run) ask which stage a state is in; every other reader asks the plan or the
stage cost (``plan.rl``, ``plan.kind``, ``plan.trained``, ``cost.trains_rm``).  A reader that switches on a stage id
again fails here."""

from __future__ import annotations

import re
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"
HOMES = {"model/stages.py", "model/stage_cost.py", "model/plan.py"}
SWITCH = re.compile(r"""\bstage\s*(==|!=)\s*["']|\bstage\s+(not\s+)?in\s+RL_LOOP_STAGES|\bRL_LOOP_STAGES\b""")


def test_no_reader_switches_on_the_stage_id() -> None:
    found = []
    for path in sorted(APP.rglob("*")):
        rel = path.relative_to(APP).as_posix()
        if path.suffix not in (".py", ".html") or rel in HOMES:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if SWITCH.search(line):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert found == []


def test_the_check_sees_a_switch() -> None:
    assert SWITCH.search('if r.stage == "dpo":') and SWITCH.search("loop = stage in RL_LOOP_STAGES")
    assert not SWITCH.search("stage_before=previous.stage if previous.stage != result.stage else None")
