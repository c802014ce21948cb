"""Texts that agree with each other and with the state (the new-user review's table A1–A5 and the native zh read's
meaning errors), in both languages: the page never advises what cannot help, never calls a state that does not fit
"tight", never names a node as the bottleneck of a state that does not fit, and says what the KL meter's level means."""

from __future__ import annotations

import re

import pytest
from support.page_text import meter, text, why
from support.urls import LANGS, lab_path

from app.i18n import catalogue, translator
from app.model import DEFAULTS, evaluate
from app.model.meters import kl_reference

NOFIT = DEFAULTS.model_copy(update={"policy_b": 175})              # does not fit on 8 GPUs; fits on more
NEVER = DEFAULTS.model_copy(update={"policy_b": 1100})             # fits on no count up to 4,096
NEVER_OFFLOADED = NEVER.model_copy(update={"offload": "optimizer"})



def _tight():
    """The smallest policy (and reward model) that fits in the hot band (90–100 % of usable memory)."""
    for half in range(14, 60):
        s = DEFAULTS.model_copy(update={"policy_b": half / 2, "rm_b": half / 2})
        r = evaluate(s)
        if r.memory.fits and r.meters["train_memory"].level == "hot":
            return s
    raise AssertionError("no state fits in the hot band")


TIGHT = _tight()


def _stage(body: str) -> str:
    m = re.search(r'<span class="bottleneck-line">(.*?)</span>', body, re.S)
    assert m
    return text(m.group(1))


def _strings(lang: str, key: str, **args) -> str:
    return text(str(translator(lang).markup(key, **args)))


@pytest.mark.parametrize("lang", LANGS)
def test_the_header_names_memory_when_the_state_does_not_fit(client, lang):
    """A3: the stage header and the why-panel name the same bottleneck."""
    assert not evaluate(NOFIT).memory.fits
    body = client.get(lab_path(lang, NOFIT)).text
    assert _stage(body) == _strings(lang, "shape.bottleneck_memory")
    word = re.search(r"<b>(.*?)</b>", str(translator(lang).markup("shape.bottleneck_memory"))).group(1)
    reasons = re.search(r'<ol class="reasons">(.*?)</ol>', body, re.S).group(1)
    assert f"<b>{word}</b>" in reasons  # the why-panel names the same bottleneck
    fits = client.get(lab_path(lang, DEFAULTS)).text  # a state that fits: the header names the node
    r = evaluate(DEFAULTS)
    assert _stage(fits) == _strings(lang, "shape.bottleneck_line", name=translator(lang)(f"node.{r.bottleneck}.name"))


@pytest.mark.parametrize(("lang", "add_gpus", "offload_first"), [
    ("en", ("add GPUs", "at least", "First add"), "First offload"), ("zh", ("加卡（", "至少要"), "先 offload")])
def test_no_advice_to_add_gpus_where_no_count_fits(client, lang, add_gpus, offload_first):
    """A4: no number of GPUs fits → the page says so and does not advise adding GPUs; with offload already on it does
    not advise offload first."""
    r = evaluate(NEVER)
    assert not r.memory.fits and r.meters["train_memory"].figure_args["min_gpus"] == 0
    for state in (NEVER, NEVER_OFFLOADED):
        panel = why(client.get(lab_path(lang, state)).text) + meter(client.get(lab_path(lang, state)).text,
                                                                   "train_memory")
        assert not [w for w in add_gpus if w in panel], panel
    offloaded = why(client.get(lab_path(lang, NEVER_OFFLOADED)).text)
    assert offload_first not in offloaded
    assert [x.key for x in evaluate(NEVER_OFFLOADED).reasons][1] == "why.bottleneck.nofit_never_offloaded"


@pytest.mark.parametrize("lang", LANGS)
def test_memory_is_called_tight_only_when_it_fits(client, lang):
    """zh read #4: 「太紧了」 means "tight but it fits"; a state that does not fit says it does not fit."""
    assert "太紧了" not in "".join(catalogue("zh").values())
    keys = {name: [x.key for x in evaluate(s).reasons][-1] for name, s in (("tight", TIGHT), ("nofit", NOFIT))}
    assert keys == {"tight": "why.memory.tight", "nofit": "why.memory.nofit"}
    tight, nofit = why(client.get(lab_path(lang, TIGHT)).text), why(client.get(lab_path(lang, NOFIT)).text)
    fits_word, nofit_word = {"en": ("It fits", "does not fit"), "zh": ("能放下", "放不下")}[lang]
    assert fits_word in tight and nofit_word not in tight
    assert nofit_word in nofit and fits_word not in nofit


@pytest.mark.parametrize("lang", LANGS)
def test_a_state_that_fits_says_nothing_about_not_fitting(client, lang):
    """zh read #8: the why-panel's bottleneck line of a state that fits had a clause about states that do not."""
    body = why(client.get(lab_path(lang, DEFAULTS)).text)
    assert evaluate(DEFAULTS).memory.fits
    assert {"en": "do not fit", "zh": "放不下"}[lang] not in body


def test_the_meter_panel_is_not_titled_bottleneck():
    """zh read #2: two of the five meters (KL, eval) are risks, not bottlenecks; 瓶颈 means the node flag."""
    assert "瓶颈" not in catalogue("zh")["meters.heading"]
    assert "Bottleneck" not in catalogue("en")["meters.heading"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_kl_meter_says_what_its_level_means(client, lang):
    """Level 50 is x = 1: the reference recipe's β with one epoch; the figure quotes that β from the model."""
    body = client.get(lab_path(lang, DEFAULTS)).text
    assert "50" in meter(body, "kl_risk")  # beside the level
    full = re.search(r'id="meter-kl_risk".*?<details class="math">(.*?)</details>', body, re.S).group(1)
    assert "50" in text(full) and f"β = {kl_reference('ppo'):g}" in text(full)


@pytest.mark.parametrize("lang", LANGS)
def test_a_memory_lane_over_the_card_says_it_does_not_fit(client, lang):
    """A5: a lane beyond usable memory (353 GB on an 80 GB card) says that the layout does not fit."""
    body = client.get(lab_path(lang, NOFIT)).text
    lanes = re.findall(r'<tr class="over"><th scope="row">(.*?)</th>', body, re.S)  # the legend is a table
    assert lanes and all(translator(lang)("est.mem_over") in text(x) for x in lanes)
    assert translator(lang)("est.mem_over") not in text(client.get(lab_path(lang, DEFAULTS)).text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_compare_page_does_not_say_none_disappear_then_the_critic_is_gone(client, lang):
    """A1: the critic is not a box of the diagram; the "disappear" list says it lists the diagram's boxes.
    A2: a component whose flag changes says which meter moved it (the reference: KL drift risk)."""
    body = client.get(f"/{lang}/compare").text
    t = translator(lang)
    assert 'data-critic="removed"' in body
    none = t("compare.none")
    assert none in text(body) and none not in ("none", "无") and t("compare.removed") in text(body)
    ref = re.search(r'<li data-node-change="reference_model"[^>]*>(.*?)</li>', body, re.S)
    assert ref, "PPO ⇄ GRPO changes the reference model's flag"
    assert t("meter.kl_risk.label") in text(ref.group(1))


@pytest.mark.parametrize("lang", LANGS)
def test_a_state_no_count_fits_advises_only_the_remedies_the_model_lists(client, lang):
    """zh read 7 (after honest): with no count fitting, the bottleneck and memory lines point to the remedies the model
    lists below them, never to offload or LoRA the model did not find to help (Llama-3-8B on A100-40GB with a
    131,072-token micro-batch: a smaller micro-batch, CP or a larger GPU, not offload)."""
    state = NEVER.model_copy(update={"arch": "llama3_8b", "gpu": "a100_40g", "gpus": 64, "max_tokens_per_gpu": 131_072})
    r = evaluate(state)
    assert r.memory.min_gpus is None and "offload_params" not in r.fit_remedies and "lora" not in r.fit_remedies
    t = translator(lang)
    advice = [str(t(x.key, **x.args)) for x in r.reasons if not x.key.startswith("why.fit.remedy.")]
    assert not [a for a in advice if "LoRA" in a or "[[offload" in a or "offload 更多" in a], advice
