"""The htmx partial is an *optimisation* of the full page, so it must never show a different state.

From any state X, a form change to state Y (good or bad values; the walkthrough step is a hidden input the
partial never re-renders, so it stays) sends the live regions whose state changed, each swapped out-of-band by
id.  Property, checked on random pairs:

* every out-of-band region in the partial exists on the full page and equals the full page's region for Y
  reached the no-JS way (a plain GET with ``Referer: X``, which computes the same "what moved");
* every live region the partial leaves out is identical on the full pages of X and Y (so leaving it is right).
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.asgi import get

from app.model.scenarios import PRESETS, WALKTHROUGH

from .checks import examples
from .regions import by_id, canonical

STATES = [p.inputs.query() for p in PRESETS] + [w.inputs.query() for w in WALKTHROUGH] + [{}]
CHANGES = {
    "rollouts": ["0", "16", "4096", "-5", "1e309", "abc"], "gpus": ["1", "3", "64", "0", "99999"],
    "kl": ["0.001", "0.5", "nan", "7"], "policy_b": ["0.35", "70", "671", "0"], "rm_b": ["0.1", "70"],
    "method": ["ppo", "dpo", "xx"], "placement": ["colocated", "separate", "<b>"], "epochs": ["1", "4", "99"],
    "gpu": ["a100_40g", "h200_141g", "tpu"], "pairs": ["0", "1000", "-1"], "demos": ["0", "10000000"],
    "eval_every": ["1", "1000", "0"], "prompt_tokens": ["16", "32768", "8"], "response_tokens": ["64", "40000"],
    # the second edition's parameters, good and bad (the rules between them: a named arch sets policy_b, the
    # longest response is at least the mean, staleness needs separate on ≥ 4 GPUs, DPO's β ≥ 0.001)
    "method_2": ["grpo", "ppo2"], "kl_2": ["0", "-1"], "group": ["1", "64", "0"],
    "arch": ["custom", "llama3_8b", "deepseek_v3", "gpt5"], "reward": ["model", "verifier", "rm"],
    "response_max_tokens": ["16", "4096", "32768", "-3"], "staleness": ["0", "2", "9"],
    "engine": ["vllm", "hf", "trt"], "offload": ["none", "optimizer", "all"], "tuning": ["full", "lora", "qlora"],
    "prompts": ["0", "1000000", "-1"], "gpu_2": ["h20_96g", "b200_180g"],
}
LIVE_PREFIXES = ("meter-", "decision-", "est-", "dg-n-", "dg-e-", "chart-")
LIVE_IDS = {"live-marker", "live-notices", "live-stage", "live-why", "meter-strip", "lang-switch", "compare-link",
            "launch-link", "present-link", "alt-link", "arch-info"}
OOB = 'hx-swap-oob="true"'


@st.composite
def transitions(draw):
    x = dict(draw(st.sampled_from(STATES)))
    y = dict(draw(st.sampled_from(STATES)))
    for key in draw(st.lists(st.sampled_from(sorted(CHANGES)), max_size=3, unique=True)):
        y[key.removesuffix("_2")] = draw(st.sampled_from(CHANGES[key]))
    y.pop("step", None)
    if "step" in x:
        y["step"] = x["step"]
    return draw(st.sampled_from(["zh", "en"])), x, y


def _live(regions: dict[str, str]) -> set[str]:
    return {k for k in regions if k.startswith(LIVE_PREFIXES) or k in LIVE_IDS}


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transitions())
def test_partial_shows_exactly_what_the_full_page_shows(move):
    lang, x, y = move
    url_x, url_y = f"/{lang}/?{urlencode(x)}", f"/{lang}/?{urlencode(y)}"
    cookie = {"Cookie": f"lang={lang}"}
    partial = get(url_y, {**cookie, "HX-Request": "true", "HX-Current-URL": "http://testserver" + url_x})
    full_y = get(url_y, {**cookie, "Referer": "http://testserver" + url_x})
    full_x = get(url_x, cookie)
    assert partial.status == full_y.status == full_x.status == 200
    p, fy, fx = by_id(partial.text), by_id(full_y.text), by_id(full_x.text)
    sent = {k for k, v in p.items() if OOB in v.split(">", 1)[0]}
    assert sent <= _live(fy), f"out-of-band ids missing from the page: {sent - _live(fy)}"
    assert {"live-notices", "live-why", "live-marker"} <= sent
    for k in sent:
        assert canonical(p[k]) == canonical(fy[k]), f"partial region {k} differs from the full page"
    for k in _live(fx) - sent:
        assert canonical(fx[k]) == canonical(fy[k]), f"region {k} changed but the partial did not send it"


def test_every_region_the_app_swaps_is_checked_here():
    """A region added to the page's live list (app.view.regions) must be one this test compares: otherwise the
    property above would pass without looking at it."""
    from app.model import DEFAULTS, evaluate
    from app.view.regions import state_regions

    ids = set(state_regions(evaluate(DEFAULTS)))
    assert ids == _live(dict.fromkeys(ids)), ids - _live(dict.fromkeys(ids))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_partial_from_a_foreign_or_broken_current_url_is_a_whole_update(lang):
    """An HX-Current-URL that is not this site's lab page (another host, another path, garbage) means no known
    previous state: the partial then sends every region, and says nothing moved."""
    url = f"/{lang}/?rollouts=64"
    reference = get(url, {"HX-Request": "true"}).text
    for current in ("http://evil.example/en/?rollouts=1", f"http://testserver/{lang}/compare?rollouts=1",
                    "javascript:alert(1)", "%%%", "http://testserver:99999/en/", "/" * 300):
        r = get(url, {"HX-Request": "true", "HX-Current-URL": current})
        assert r.status == 200
        assert r.text == reference, current
