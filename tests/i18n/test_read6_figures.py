"""What zh read 6 left below 9 / 10, kept fixed: a sentence quotes the model's figure, not one the reader has to
correct from the line beside it (the engine's GPUs, an eval that never comes), numbers carry the locale's
separators (「4,218%」), and Chinese text is punctuated full-width, in the catalogues and where templates join
catalogue texts (chart descriptions, the keyboard help)."""

from __future__ import annotations

import html
import re

import pytest
from support.page_text import card as _card
from support.page_text import query as _q
from support.page_text import text as _text
from support.page_text import why as _why

from app.i18n import translator
from app.model import DEFAULTS, evaluate

from .terms import HAN, catalogue_prose, zh_catalogue

MOE = DEFAULTS.model_copy(update={"arch": "qwen3_235b_a22b", "gpus": 128})
MOE_GRPO = MOE.model_copy(update={"method": "grpo", "reward": "verifier", "kl": 0.001})
NOFIT = DEFAULTS.model_copy(update={"arch": "deepseek_v3", "gpus": 8})


# --- the engine's GPUs ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("inputs", [MOE, MOE_GRPO], ids=["moe-ppo", "moe-grpo"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_colocated_sentence_names_the_gpus_the_engine_occupies(client, lang: str, inputs) -> None:  # noqa: ANN001
    """235B MoE on 128 GPUs: the engine's replicas span nodes (TP × PP) and may leave GPUs over; the why-panel says how
    many GPUs generate (the model's engine_gpus), the rollout card and the math line say the same count, and no
    sentence has all 128 generate at "TP 8" beside an engine line of fewer GPUs."""
    r = evaluate(inputs)
    g = r.step.gen
    assert g.pipeline > 1 or g.engine_gpus < inputs.gpus  # the state this test is about
    assert g.engine_gpus == g.tensor_parallel * g.pipeline * g.replicas <= inputs.gpus
    every = g.engine_gpus == inputs.gpus
    assert ("why.placement.colocated_engine_all" if every else "why.placement.colocated_engine") in [
        x.key for x in r.reasons]
    body = client.get(f"/{lang}/?{_q(inputs)}").text
    why = _why(body)
    shape = f"TP {g.tensor_parallel} × PP {g.pipeline}"
    if lang == "zh":
        assert (f"生成时全部卡组成 {g.replicas} 个推理引擎副本，每个 {shape}" if every else
                f"生成时推理引擎占其中 {g.engine_gpus:,} 张：{g.replicas} 个副本，每个 {shape}") in why
        assert "生成用 TP" not in why
    else:
        assert ("all of them form" if every else f"the engine occupies {g.engine_gpus:,} of them") in why
        assert shape in why
    gpus = translator(lang).fmt("gpus", g.engine_gpus)
    assert gpus in _card(body, "rollout_throughput")
    math = _text(re.search(r'<ul class="math-list">(.*?)</ul>', body, re.S).group(1))
    if g.pipeline > 1:  # est.math.engine_pp: replicas of TP × PP, and the GPUs they occupy
        assert (f"PP {g.pipeline}" in math or f"pipeline {g.pipeline}" in math) and gpus in math
    else:               # est.math.engine: TP × replicas
        assert f"TP {g.tensor_parallel} × {g.replicas}" in math or f"tensor-parallel {g.tensor_parallel} ×" in math


def test_the_default_colocated_engine_keeps_its_short_sentence() -> None:
    """8 × A100, 7B: one replica of TP 8 on all 8 GPUs; the short sentence is true there."""
    r = evaluate(DEFAULTS)
    assert r.step.gen.engine_gpus == DEFAULTS.gpus and r.step.gen.pipeline == 1
    assert "why.placement.colocated" in [x.key for x in r.reasons]


# --- an eval the run never reaches -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_default_run_ends_before_its_first_eval_and_the_card_says_so(client, lang: str) -> None:
    """Default PPO: eval every 100 steps, a run of 61 steps (one pass over the prompts): the model counts 0 evals
    and the card says none comes, with the run's steps, instead of promising one every 100 steps."""
    r = evaluate(DEFAULTS)
    assert r.run.steps < DEFAULTS.eval_every and r.run.evals == 0
    d = r.decisions["eval_gating"]
    assert d.reason == "decision.eval_gating.none_in_run" and d.state == "needed"
    card = _card(client.get(f"/{lang}/").text, "eval_gating")
    if lang == "zh":
        assert f"整个 run 只有 {r.run.steps} 个 step" in card and "一次 eval 也没有" in card
        assert "两次之间" not in card
    else:
        assert f"the whole run is {r.run.steps} steps" in card and "ends before the first eval" in card


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_run_with_evals_counts_them(client, lang: str) -> None:
    """GRPO default: 485 steps at eval every 100 → 4 evals, quoted from the model's run."""
    grpo = DEFAULTS.model_copy(update={"method": "grpo", "kl": 0.001})
    r = evaluate(grpo)
    assert r.run.evals == r.run.steps // grpo.eval_every > 0
    card = _card(client.get(f"/{lang}/?{_q(grpo)}").text, "eval_gating")
    assert (f"eval {r.run.evals} 次" if lang == "zh" else f"that is {r.run.evals} evals") in card


# --- numbers with the locale's separators -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_percentages_carry_thousands_separators(client, lang: str) -> None:
    """DeepSeek-V3 on 8 GPUs needs ≈ 42 times the usable memory: 「4,218%」, not 「4218%」; no figure of four or more
    digits is printed without its separator, on that page or on the large-MoE page."""
    t = translator(lang)
    assert t.fmt("pct", 4218.06) == "4,218%" and t.fmt("pct", 54.4) == "54%"
    pct = next(x.args["pct"] for x in evaluate(NOFIT).reasons if "pct" in x.args)
    assert pct >= 1000
    for inputs in (NOFIT, MOE):
        page = _text(client.get(f"/{lang}/?{_q(inputs)}").text)
        assert not re.findall(r"(?<![\d,.])\d{4,}%", page)
    assert t.fmt("pct", pct) in _text(client.get(f"/{lang}/?{_q(NOFIT)}").text)


# --- full-width punctuation in Chinese text -----------------------------------------------------------------------

# half-width ; , : ( next to a Chinese character (before or after, a space between allowed): in a zh text these are
# ；，：（ — formulas (the meters' 「看算式」 lines) and cited titles keep theirs
_HALF = (re.compile(rf"[{HAN}」）] ?[;,:(]"), re.compile(rf"[;,:)] ?[{HAN}「（]"))
_FORMULA = re.compile(r"\.formula(_[a-z_]+)?$|^source\.[a-z0-9_]+\.title$")


def _half_width(text: str) -> list[str]:
    return [text[max(0, m.start() - 10):m.end() + 10] for rx in _HALF for m in rx.finditer(text)]


def test_zh_catalogues_punctuate_chinese_full_width() -> None:
    """Every zh catalogue value, read as prose (code, placeholders, tags and addresses blanked): no half-width
    ; , : ( beside Chinese text."""
    found = {k: hits for k, v in zh_catalogue().items() if not _FORMULA.search(k)
             if (hits := _half_width(catalogue_prose(v)))}
    assert found == {}


@pytest.mark.parametrize("state", [DEFAULTS, MOE, NOFIT.model_copy(update={"placement": "separate", "gpus": 16})],
                         ids=["default", "moe", "nofit-separate"])
def test_chart_descriptions_and_keyboard_help_are_punctuated_as_chinese(client, state) -> None:  # noqa: ANN001
    """The charts' <desc> (read by a screen reader) and the keyboard help join catalogue texts: in Chinese with
    ；：，。, never 「; 」 or a final 「.」."""
    body = client.get(f"/zh/?{_q(state)}").text
    descs = [html.unescape(d) for d in re.findall(r'<desc id="c[spm]-d">(.*?)</desc>', body, re.S)]
    assert len(descs) == 3
    help_ = html.unescape(re.search(r'<dialog id="help".*?</dialog>', body, re.S).group(0))
    for text in [*descs, _text(help_)]:
        assert _half_width(text) == [], text
        assert not re.search(rf"[{HAN}0-9A-Za-z]\.(\s|$)", text), text
    assert all(d.endswith("。") for d in descs)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_eval_meter_does_not_promise_an_eval_the_run_never_reaches(client, lang: str) -> None:
    """Default PPO: the meter's figure and its short line say the run ends before its first eval (with the run's
    steps), not "two evals 3.8 h apart" under a 2.3 h run; a run that reaches its evals keeps the interval."""
    from support.page_text import meter as _meter
    r = evaluate(DEFAULTS)
    assert r.meters["eval_need"].figure == "meter.eval_need.figure_beyond_run"
    body = client.get(f"/{lang}/").text
    m = _meter(body, "eval_need")
    assert (f"比整个 run（{r.run.steps} 个 step" if lang == "zh" else f"longer than the whole run ({r.run.steps} steps") in m
    assert ("两次 eval 相隔" if lang == "zh" else "between evals") not in _text(body)
    grpo = evaluate(DEFAULTS.model_copy(update={"method": "grpo", "kl": 0.001}))
    assert grpo.run.evals > 0 and grpo.meters["eval_need"].figure == "meter.eval_need.figure"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_async_step_with_a_tail_is_not_called_synchronous(client, lang: str) -> None:
    """Generation one step ahead (separate, 32 × H100, longest 4,096): the tail still holds each step's generation,
    and the why-panel says so without calling the step synchronous."""
    ahead = DEFAULTS.model_copy(update={"method": "grpo", "kl": 0.001, "reward": "verifier", "placement": "separate",
                                        "staleness": 1, "gpus": 32, "gpu": "h100_80g", "response_max_tokens": 4096,
                                        "rollouts": 2048})
    assert "why.tail_ahead" in [x.key for x in evaluate(ahead).reasons]
    why = _why(client.get(f"/{lang}/?{_q(ahead)}").text)
    assert ("生成虽然提前跑了" if lang == "zh" else "generation runs ahead") in why
    assert ("同步的 step" if lang == "zh" else "a synchronous step") not in why


def test_walkthrough_step_5_says_its_eval_interval_outlasts_the_run() -> None:
    """Step 5's numbers say the eval interval is longer than the whole run (16 steps at eval every 100): true only
    while the model's run has no eval in it."""
    from app.model.scenarios import WALKTHROUGH
    r = evaluate(next(w for w in WALKTHROUGH if w.number == 5).inputs)
    assert r.run.steps > 0 and r.run.evals == 0


def test_tutorial_16_says_its_run_never_reaches_an_eval() -> None:
    """Tutorial 16 quotes an eval every 100 steps at 2,048 rollouts on 16 GPUs and says that state's run (one pass
    over 31,000 prompts) never reaches an eval: true only while the model's run has none."""
    r = evaluate(DEFAULTS.model_copy(update={"rollouts": 2048, "gpus": 16, "placement": "separate"}))
    assert r.inputs.prompts == 31_000 and r.run.steps > 0 and r.run.evals == 0
