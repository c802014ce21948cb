"""The launch page (/{lang}/launch?<the lab's query>): per framework a command or a reason; the flags shown are the
ones app/launch/ emitted, each with where it is defined; the state it was made for, linked both ways; clamped bad values;
escaped; cacheable."""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest
from support.html import parse
from support.urls import LANGS, lab_path

from app.i18n import catalogue, translator
from app.launch import for_state
from app.launch.layout import from_result
from app.launch.sources import OPENRLHF_FLAGS, SOURCES, TRL_FLAGS, VERL_FLAGS
from app.model import evaluate, normalise
from app.model.scenarios import PRESET_BY_ID, PRESETS
from app.view.links import canonical_query

FRAMEWORKS = ("verl", "openrlhf", "trl")
TABLES = {"verl": VERL_FLAGS, "openrlhf": OPENRLHF_FLAGS, "trl": TRL_FLAGS}


class _Launch:
    """The state's commands by framework name (None where the state has none)."""

    def __init__(self, inputs) -> None:
        self.state = for_state(evaluate(inputs))

    def __getattr__(self, name: str):
        if name.endswith("_reason"):
            return self.state.reason(name.removesuffix("_reason"))
        return self.state.command(name)


def layout_from(result):
    return from_result(result).layout


def layout_refusal(result):
    return from_result(result).refusal


def page(client, lang: str, query: str):
    r = client.get(f"/{lang}/launch?{query}")
    assert r.status_code == 200, (query, r.status_code)
    assert r.headers["content-type"].startswith("text/html")
    return r


def section(text: str, framework: str) -> str:
    """The HTML of one framework's panel."""
    m = re.search(rf'<section class="launch-panel[^"]*" id="launch-{framework}".*?</section>', text, re.S)
    assert m, f"no panel for {framework}"
    return m.group(0)


def command_text(panel: str) -> str | None:
    m = re.search(r'<code id="cmd-[a-z]+">(.*?)</code>', panel, re.S)
    return html.unescape(m.group(1)) if m else None


def launch_of(inputs):
    return _Launch(inputs)


def query(inputs) -> str:
    return urlencode(inputs.query())


# --- every preset, both languages: a command or a reason per framework ----------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", [p.id for p in PRESETS])
def test_every_preset_renders_a_command_or_a_reason_per_framework(client, lang, preset):
    inputs = PRESET_BY_ID[preset].inputs
    r = page(client, lang, query(inputs))
    t = translator(lang)
    assert t("launch.caption") in r.text  # "a starting point, not a tuned config", prominently: in the intro
    assert re.search(r'id="launch-caption"[^>]*>.*?' + re.escape(html.escape(t("launch.caption"))), r.text, re.S)
    launch = launch_of(inputs)
    refusal = layout_refusal(evaluate(inputs))
    for fw in FRAMEWORKS:
        panel = section(r.text, fw)
        cmd = None if refusal else getattr(launch, fw)
        text = command_text(panel)
        if cmd is not None:
            assert text == cmd.text
            release = cmd.text.split("\n")[0].removeprefix("# ")
            assert str(t.markup("launch.version", version=cmd.version, pin=release)) in panel
            assert 'class="js-only copy-cmd"' in panel and f'data-copy="cmd-{fw}"' in panel
        else:
            assert text is None
            why = refusal or getattr(launch, f"{fw}_reason")
            assert f'data-reason="{why.key}"' in panel
            assert "copy-cmd" not in panel


@pytest.mark.parametrize("lang", LANGS)
def test_the_presets_give_the_expected_commands(client, lang):
    """Which framework answers what, preset by preset (app/launch/'s rules on the model's layouts)."""
    seen = {}
    for p in PRESETS:
        text = page(client, lang, query(p.inputs)).text
        seen[p.id] = tuple(command_text(section(text, fw)) is not None for fw in FRAMEWORKS)
    assert seen == {
        "sft_only": (False, False, False), "reward_model": (False, False, False),  # before the loop: nothing
        "ppo_loop": (True, True, False),  # colocated (the page's default): verl and OpenRLHF; TRL has no PPO
        "scaled_rollouts": (False, True, False),  # separate + sync: verl only async, OpenRLHF yes
        "eval_gated": (False, True, False),
        "dpo": (False, True, True),                                               # verl has no DPO trainer
        "grpo": (True, True, True),                                               # colocated hybrid engine: all
        "agentic": (True, True, True),  # every command runs, single-turn: each lists the turns as unmapped
    }


# --- the flags shown are exactly the emitted ones, each documented ----------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", ["ppo_loop", "scaled_rollouts", "dpo", "grpo"])
def test_the_flag_table_is_exactly_the_emitted_flags_and_each_is_documented(client, lang, preset):
    inputs = PRESET_BY_ID[preset].inputs
    text = page(client, lang, query(inputs)).text
    launch = launch_of(inputs)
    for fw in FRAMEWORKS:
        cmd = getattr(launch, fw)
        if cmd is None:
            continue
        doc = parse(section(text, fw))
        rows = [e.get("data-flag") for e in doc.having("data-flag", tag="tr")]
        assert rows == [f.name for f in cmd.flags]
        assert all(name in TABLES[fw] for name in rows)
        links = [e for e in doc.having("data-source", tag="a")]
        assert [(a.get("data-source"), a.get("href")) for a in links] == [
            (f.source, SOURCES[f.source][1]) for f in cmd.flags]
        assert all(f.source in SOURCES for f in cmd.flags)
        # every flag's value in the table is the one in the command (switches have none)
        for f, tr in zip(cmd.flags, doc.having("data-flag", tag="tr"), strict=True):
            shown = tr.text.strip()
            assert shown.startswith(f.name)
            if f.value is None:
                assert translator(lang)("launch.switch") in shown
            else:
                assert f.value in shown


@pytest.mark.parametrize("lang", LANGS)
def test_grpo_shows_the_group_estimator_and_the_group_size(client, lang):
    inputs = PRESET_BY_ID["grpo"].inputs  # group 8, β = 0.001, 16 × H100, colocated, longest response 8,192
    text = page(client, lang, query(inputs)).text
    verl, orlhf = command_text(section(text, "verl")), command_text(section(text, "openrlhf"))
    assert "algorithm.adv_estimator=grpo" in verl
    assert "actor_rollout_ref.rollout.n=8" in verl
    assert "actor_rollout_ref.actor.kl_loss_coef=0.001" in verl
    assert "data.max_response_length=8192" in verl
    # 16 GPUs = 2 nodes of 8; TP 8 × 2 engines = 16 (the model's colocated layout); the engine's 48 GB of 80 GB = 0.6
    assert "trainer.nnodes=2" in verl and "trainer.n_gpus_per_node=8" in verl
    assert "actor_rollout_ref.rollout.tensor_model_parallel_size=8" in verl
    assert "actor_rollout_ref.rollout.gpu_memory_utilization=0.6" in verl
    assert "--algo.advantage.estimator group_norm" in orlhf
    assert "--rollout.n_samples_per_prompt 8" in orlhf
    assert "--vllm.num_engines 2" in orlhf and "--vllm.tensor_parallel_size 8" in orlhf
    assert "--train.colocate_all" in orlhf
    # 1,024 rollouts / group 8 = 128 prompts per step
    assert "--rollout.batch_size 128" in orlhf and "data.train_batch_size=128" in verl


def test_separate_ppo_places_each_role_as_the_model_chose(client):
    """ppo_loop in the separate layout: 8 × A100 80 GB, the model's split (``step.gpu_groups``) generation 2 /
    scoring 2 / training 4, one engine of TP 2.  OpenRLHF: actor ⌈4/2⌉ = 2, critic ⌊4/2⌋ = 2, reference ⌈2/2⌉ = 1
    and reward model ⌊2/2⌋ = 1 on the scoring pair, 1 engine of TP 2; the engine has the whole usable card,
    72 GB of 80 GB = 0.9."""
    separate = PRESET_BY_ID["ppo_loop"].inputs.model_copy(update={"placement": "separate"})
    g = evaluate(separate).step.gpu_groups  # the split the arithmetic above starts from
    assert (g.generation, g.scoring, g.training, g.engine_tp, g.replicas) == (2, 2, 4, 2, 1), g
    orlhf = command_text(section(page(client, "en", query(separate)).text, "openrlhf"))
    for flag in ("--actor.num_gpus_per_node 2", "--critic.num_gpus_per_node 2", "--ref.num_gpus_per_node 1",
                 "--reward.num_gpus_per_node 1", "--vllm.num_engines 1", "--vllm.tensor_parallel_size 2",
                 "--vllm.gpu_memory_utilization 0.9", "--algo.advantage.estimator gae"):
        assert flag in orlhf


# --- notes and reasons are translated ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", [p.id for p in PRESETS])
def test_notes_and_reasons_are_translated_text(client, lang, preset):
    text = page(client, lang, query(PRESET_BY_ID[preset].inputs)).text
    body = parse(text).text
    assert "launch.note." not in body and "launch.reason." not in body and "launch.map." not in body
    assert not re.search(r"\{[a-z_]+(:[a-z0-9]+)?\}", body)  # no unformatted placeholder
    cat = catalogue(lang)
    for key in re.findall(r'data-(?:note|reason)="([a-z_.]+)"', text):
        assert key in cat


def test_a_role_in_a_reason_is_translated(client):
    """scaled_rollouts, made async: verl's trainer pool is scoring 4 + training 9 = 13 GPUs, not whole nodes of 8."""
    inputs, _ = normalise({**{k: [v] for k, v in PRESET_BY_ID["scaled_rollouts"].inputs.query().items()},
                           "staleness": ["1"]})
    launch = launch_of(inputs)
    assert launch.verl_reason is not None and launch.verl_reason.key == "launch.reason.not_whole_nodes"
    role = launch.verl_reason.params["role"]
    for lang in LANGS:
        panel = section(page(client, lang, query(inputs)).text, "verl")
        assert html.escape(translator(lang)(f"launch.role.{role}")) in panel


# --- the state it was made for, linked both ways ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", ["ppo_loop", "grpo"])
def test_the_page_links_back_to_the_lab_and_the_switch_keeps_the_query(client, lang, preset):
    inputs = PRESET_BY_ID[preset].inputs
    q = canonical_query(inputs)
    doc = parse(page(client, lang, query(inputs)).text)
    assert doc.by_id("launch-lab-link").get("href") == f"/{lang}/?{q}"
    assert doc.by_id("launch-back").get("href") == f"/{lang}/?{q}"
    other = "en" if lang == "zh" else "zh"
    switch = [a for a in doc.tags("a") if a.get("hreflang") == other]
    assert switch and all(a.get("href") == f"/{other}/launch?{q}" for a in switch)
    assert doc.by_id("launch-state").get("data-stage") == evaluate(inputs).stage


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", ["ppo_loop", "grpo"])
def test_the_lab_links_to_the_launch_page_with_the_same_query(client, lang, preset):
    inputs = PRESET_BY_ID[preset].inputs
    r = client.get(lab_path(lang, inputs))
    assert r.status_code == 200
    link = parse(r.text).by_id("launch-link")
    assert link is not None
    assert link.get("href") == f"/{lang}/launch?{canonical_query(inputs)}"
    assert client.get(link.get("href")).status_code == 200


# --- bad values: the lab's notices, never a 500 --------------------------------------------------------------------

BAD = [("method", "ppo2"), ("group", "0"), ("arch", "gpt5"), ("response_max_tokens", "16"), ("staleness", "9"),
       ("kl", "-1"), ("gpus", "12.5"), ("gpus", "0"), ("rollouts", "nan"), ("placement", "everywhere")]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("field", "value"), BAD)
def test_bad_values_give_the_notice_and_never_a_500(client, lang, field, value):
    r = page(client, lang, urlencode({field: value}))
    doc = parse(r.text)
    notices = doc.by_id("launch-notices")
    assert notices is not None and notices.get("role") == "alert"
    assert field in notices.text
    for fw in FRAMEWORKS:
        panel = section(r.text, fw)
        assert command_text(panel) is not None or "data-reason=" in panel


XSS = "<script>alert(1)</script>"
XSS_ATTR = '"onmouseover=alert(1)'


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_escapes_everything(client, lang):
    q = urlencode({"method": XSS, "arch": XSS_ATTR, "gpu": XSS, "kl": XSS_ATTR, "x": XSS, "engine": "<b>"})
    text = page(client, lang, q).text
    assert "<script>alert" not in text and '"onmouseover=' not in text and "<b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text  # the notice quotes what was given, escaped


def test_odd_gpu_counts_say_why_instead_of_guessing(client):
    """12 GPUs colocated (vLLM, 7B): not whole nodes of 8; 5 GPUs: the model's TP 4 does not divide 5, TP 1 × 5."""
    r = page(client, "en", urlencode({"placement": "colocated", "gpus": "12", "method": "grpo", "reward": "verifier"}))
    for fw in FRAMEWORKS:
        assert 'data-reason="launch.map.partial_node"' in section(r.text, fw)
    inputs, _ = normalise({"placement": ["colocated"], "gpus": ["5"], "method": ["grpo"], "reward": ["verifier"]})
    result = evaluate(inputs)
    r = page(client, "en", query(inputs))
    if result.step.gpu_groups.engine_tp > 1:
        assert 'data-note="launch.map.tp_fit"' in r.text
    verl = command_text(section(r.text, "verl"))
    lay = layout_from(result)
    assert lay.rollout_tp * lay.rollout_replicas == 5
    assert verl is None or f"actor_rollout_ref.rollout.tensor_model_parallel_size={lay.rollout_tp}" in verl


# --- HTTP: HEAD, ETag, 404 ------------------------------------------------------------------------------------------


def test_cacheable_like_the_tutorial(client):
    url = f"/en/launch?{query(PRESET_BY_ID['grpo'].inputs)}"
    r = client.get(url)
    assert r.headers["cache-control"] == "public, max-age=3600"
    etag = r.headers["etag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert client.head(url).status_code == 200
    assert client.get("/fr/launch").status_code == 404


def test_with_no_query_it_is_the_default_state(client):
    for lang in LANGS:
        r = page(client, lang, "")
        assert parse(r.text).by_id("launch-notices") is None
