"""The tutorial quotes the model: ``{{fig <query> <field> <format>}}`` becomes the lab's own figure for that state,
formatted as the page formats it, and a quote the model cannot answer exactly as written fails loudly."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from support.html import parse
from support.urls import LANGS

from app import tutorial
from app.i18n.formats import fmt_duration, fmt_gb
from app.model import evaluate, normalise
from app.tutorial import FigureError, check_figures, figure, figures, quote_figures, render_tutorial, tutorial_path


def _source(lang: str) -> str:
    return tutorial_path(lang).read_text(encoding="utf-8")


QUOTES = [(lang, k, q) for lang in LANGS for k, q in enumerate(figures(_source(lang)))]


def test_both_tutorials_quote_the_model():
    # the existing chapters state ≈ 90 model figures; at least 30 per language are quotes
    assert sum(1 for lang, _, _ in QUOTES if lang == "en") >= 30
    assert sum(1 for lang, _, _ in QUOTES if lang == "zh") >= 30


@pytest.mark.parametrize(("lang", "k", "quote"), QUOTES, ids=[f"{lang}-{k}" for lang, k, _ in QUOTES])
def test_every_quote_resolves(lang, k, quote):
    query, field, fmt = quote
    text = figure(query, field, fmt, lang)
    assert text and "{" not in text, (k, quote)


def test_check_figures_renders_every_quote_of_both_languages():
    assert check_figures() == len(QUOTES)


def _quantities(markdown_text: str) -> Counter:
    """(state, the model fields a quote reads) for every quote: the scale and the format may differ by language
    (English "4 GPUs" and "49 thousand", Chinese "4 张卡" and "4.94 万")."""
    return Counter((q, tuple(sorted(re.findall(r"[A-Za-z_][\w.]*", f)))) for q, f, _ in figures(markdown_text))


def test_both_languages_quote_the_same_figures():
    # the same states and model fields, whatever order each language's sentences put them in
    assert _quantities(_source("en")) == _quantities(_source("zh"))


@pytest.mark.parametrize("lang", LANGS)
def test_rendered_tutorial_has_no_quote_left(lang):
    body, _ = render_tutorial(lang)
    assert "{{fig" not in body and "{{" not in body


def test_a_quote_is_the_model_figure_as_the_page_formats_it():
    # SFT epoch, 7B on 8 × A100-80GB, 13,000 demos × (512 + 1,024) tokens, 6 FLOPs per parameter per token at
    # 35 % of 312 TFLOP/s: 13,000 · 1,536 · 6 · 7e9 / (8 · 312e12 · 0.35) = 8.387e17 / 8.736e14 = 960 s = 16 min
    assert figure("pairs=0&rollouts=0", "offline.sft_epoch_s", "dur", "en") == "16 min"
    assert figure("pairs=0&rollouts=0", "offline.sft_epoch_s", "dur", "zh") == "16 分钟"
    # 7B Adam states, 16 B/param = 112 GB, ZeRO-3 over 8 GPUs = 14 GB each
    assert figure("pairs=0&rollouts=0", "offline.sft_per_gpu_gb", "gb", "en") == "14 GB"
    # 80 GB × 0.9 usable = 72 GB
    assert figure("pairs=0&rollouts=0&placement=colocated&gpus=1", "memory.usable_gb", "gb", "zh") == "72 GB"
    # the default PPO step, figure by figure, against the model itself
    r = evaluate(normalise({"rollouts": ["512"], "placement": ["separate"]})[0])
    assert figure("rollouts=512&placement=separate", "step.total_s", "dur", "en") == fmt_duration(r.step.total_s, "en")
    assert figure("rollouts=512&placement=separate", "step.generation_share", "pct", "en") == f"{r.step.generation_share * 100:.0f}%"
    # the model's split of 8 GPUs (generation 2, scoring 2, training 4): 54.6 s of generation / 233.2 s = 0.234
    assert figure("rollouts=512&placement=separate", "step.generation_share", "pct", "zh") == "23%"
    assert figure("rollouts=512&placement=separate", "memory.total_gb", "gb", "en") == fmt_gb(r.memory.total_gb) == "252 GB"
    # 70B policy + 70B critic/RM: 2 · 16 · 70 + 2 · 2 · 70 = 2,520 GB.  The actor and critic's 2,240 GB alone need
    # 2,240 / 72 = 31.1 → 32 training GPUs at 72 GB usable each, so the fewest GPUs in all are more than 32 (with
    # generation and scoring GPUs, activations and logits); the quote is the model's own count, in each format
    assert figure("policy_b=70&rm_b=70", "memory.total_gb", "gb", "en") == "2,520 GB"
    big = evaluate(normalise({"policy_b": ["70"], "rm_b": ["70"]})[0]).memory.min_gpus
    assert big > 32
    assert figure("policy_b=70&rm_b=70", "memory.min_gpus", "n", "en") == f"{big}"
    assert figure("policy_b=70&rm_b=70", "memory.min_gpus", "gpus", "en") == f"{big} GPUs"
    assert figure("policy_b=70&rm_b=70", "memory.min_gpus", "gpus", "zh") == f"{big} 张 GPU"


def test_a_quote_may_combine_fields():
    # actor and critic states, 2 · 16 B · 7e9 = 224 GB, ZeRO-3 over the model's 4 training GPUs = 56 GB on each;
    # ÷ 72 GB usable = 0.778 → 78%
    assert figure("rollouts=512&placement=separate", "memory.per_gpu_gb/memory.usable_gb", "pct", "en") == "78%"
    r = evaluate(normalise({"rollouts": ["512"], "placement": ["separate"]})[0])
    # the training-memory meter's figure is the plan's one figure: the fullest GPU at its fullest phase as
    # nvidia-smi shows it (here the generation GPUs' engine, which reserves the usable card)
    assert r.meters["train_memory"].figure_args["pct"] == pytest.approx(100 * r.plan.memory_per_gpu_gb / 72)
    # dict keys and attributes alike; arithmetic with plain numbers
    assert figure("rollouts=512&placement=separate", "meters.kl_risk.value", "n", "en") == "33"  # x = 1 · 0.01 / 0.02; 100 · x / (1 + x)
    assert figure("rollouts=512&placement=separate", "step.total_s*inputs.gpus", "n", "en") == f"{round(r.step.total_s * 8):,}"
    assert figure("rollouts=512&placement=separate", "step.gen.decode_step_s*1000", "n", "en") == f"{round(r.step.gen.decode_step_s * 1000)}"


@pytest.mark.parametrize(("query", "field", "fmt", "why"), [
    ("rollouts=512", "step.total_seconds", "dur", "has no field"),          # a field that does not exist
    ("rollouts=512", "meters.kl_drift.value", "n", "no key"),               # a meter that does not exist
    ("rollouts=512", "stage", "n", "not a number"),                          # a string
    ("rollouts=512", "memory.fits", "n", "not a number"),                    # a bool is not a figure
    ("rollouts=512", "step", "dur", "not a number"),                         # an object
    ("rollouts=512", "step.__class__", "n", "private"),
    ("rollouts=512", "__import__('os')", "n", "only dotted paths"),
    ("rollouts=512", "step.total_s**2", "n", "only dotted paths"),
    ("rollouts=512", "step.total_s/", "n", "not a dotted path"),
    ("rollouts=512", "step.total_s/0", "n", "divides by zero"),
    ("rollouts=512", "step.total_s", "minutes", "format"),                   # an unknown format
    ("gpus=0", "step.total_s", "dur", "notices"),                            # clamped to 1: a notice
    ("rollouts=512&placement=separate&gpus=2", "step.total_s", "dur", "notices"),  # separate needs 4 GPUs
    ("method=ppo2", "step.total_s", "dur", "notices"),                       # an unknown choice
    ("rollout=512", "step.total_s", "dur", "unknown parameter"),             # a misspelt parameter
    ("rollouts", "step.total_s", "dur", "not a query string"),
])
def test_a_bad_quote_fails_loudly(query, field, fmt, why):
    with pytest.raises(FigureError, match=why):
        figure(query, field, fmt, "en")


def test_a_malformed_or_bad_quote_in_the_source_names_its_line():
    with pytest.raises(FigureError, match=r"en\.md line 3: .*has no field"):
        quote_figures("# t\n\nabout {{fig rollouts=512 step.nope dur}} per step\n", "en")
    with pytest.raises(FigureError, match=r"zh\.md line 2: .*not <query> <field> <format>"):
        quote_figures("# t\n约 {{fig rollouts=512 step.total_s}}\n", "zh")
    assert quote_figures("one step ≈ {{fig rollouts=512&placement=separate step.total_s dur}}.", "en").startswith(
        "one step ≈ 3.9 min")  # 233 s


def test_rendering_a_tutorial_with_a_bad_quote_raises(monkeypatch, tmp_path):
    (tmp_path / "en.md").write_text("# T\n\n## 1. A\n\n{{fig gpus=0 step.total_s dur}}\n", encoding="utf-8")
    monkeypatch.setattr(tutorial, "DOCS", tmp_path)
    with pytest.raises(FigureError, match="notices"):
        render_tutorial("en")


@pytest.mark.parametrize("lang", LANGS)
def test_the_tutorial_page_shows_the_quoted_figures(client, lang):
    body = client.get(f"/{lang}/tutorial").text
    assert parse(body).by_id("sec-3-3") is not None
    for query, field, fmt in figures(_source(lang)):
        assert figure(query, field, fmt, lang) in body
    # the sentence of §2.3 reads the model's own step; the lab page for that state shows the same text
    step = figure("rollouts=512&placement=separate", "step.total_s", "dur", lang)
    lab = client.get(f"/{lang}/?rollouts=512&placement=separate").text  # the default placement is colocated
    assert step in lab and step in body


@pytest.mark.parametrize("lang", LANGS)
def test_published_measurements_stay_as_typed_with_their_source(lang):
    src = _source(lang)
    unit = {"en": "s", "zh": "秒"}[lang]  # the zh term sheet writes seconds as 秒
    for measured in ("482", "885", "697", "1,189"):
        assert f"{measured} {unit}" in src
    assert "github.com/OpenRLHF/OpenRLHF" in src
