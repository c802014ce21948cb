"""The custom shape by its config.json fields (MODEL-FRONTIER §C): ranges, normalise's notices, policy_b from the
shape, the API's strict validation, and the check — the size rule gives a 1.5 B model 2.8× Qwen2.5-1.5B's KV bytes
per token; its shape gives the same bytes."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pydantic import ValidationError
from pytest import approx

from app.model import WorkloadInputs, evaluate, normalise
from app.model.architectures import (
    CONFIG_KEYS,
    HEAD_DIM_PARTS,
    SHAPE_NAMES,
    ConfigError,
    params_from_config,
    parse_config,
    shape_arch,
)
from app.model.assumptions import ARCHS
from app.model.inputs import SHAPE_SPECS, effective
from app.model.physics.architecture import custom_arch, kv_bytes_per_token, kv_sequence_bytes, policy_arch

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
QWEN = "arch=custom&layers=28&hidden=1536&heads=12&kv_heads=2&head_dim=128&vocab=151936&tied=1&intermediate=8960"


def test_the_size_rule_gives_a_1_5b_model_2_8x_the_kv_bytes_of_qwen25_1_5b() -> None:
    # size rule at 1.54 B: L = (1.54e9 / (12 · 128²))^(1/3) = 19.79 layers, 8 KV heads of 128:
    #   2 · 19.79 · 8 · 128 · 2 B = 81,048 B per token; Qwen2.5-1.5B: 2 · 28 · 2 · 128 · 2 B = 28,672 B → 2.83×
    rule = kv_bytes_per_token(custom_arch(1.54))
    qwen = kv_bytes_per_token(ARCHS["qwen25_1_5b"])
    assert qwen == 28_672
    assert rule / qwen == approx(2.83, abs=0.01)


def test_with_its_shape_the_custom_model_and_qwen25_1_5b_agree() -> None:
    inputs, notices = normalise(dict(p.split("=") for p in QWEN.split("&")))
    shaped = policy_arch(inputs)
    assert kv_bytes_per_token(shaped) == kv_bytes_per_token(ARCHS["qwen25_1_5b"]) == 28_672
    # parameters from the shape: 28 · (1,536 · 128 · (2·12 + 2·2) + 3 · 1,536 · 8,960) + 151,936 · 1,536 = 1.5436 B
    assert inputs.policy_b == approx(1.5436, abs=5e-4)
    assert shaped.total_b == approx(ARCHS["qwen25_1_5b"].total_b, rel=0.005)
    assert notices == ()
    # and the whole model agrees: the same step, to 1 %, as the named shape at the same size
    named = evaluate(normalise({"arch": "qwen25_1_5b"})[0])
    custom = evaluate(inputs)
    assert custom.step.total_s == approx(named.step.total_s, rel=0.01)


def test_a_shape_sets_policy_b_and_says_so() -> None:
    inputs, notices = normalise({"arch": "custom", "layers": "28", "hidden": "1536", "heads": "12", "kv_heads": "2",
                                 "policy_b": "7"})
    assert [(n.field, n.kind, n.given) for n in notices] == [("policy_b", "shape_sets_size", "7")]
    assert inputs.policy_b == float(notices[0].used)


@pytest.mark.parametrize(("name", "given", "used", "kind"), [
    ("layers", "0", "1", "below_min"), ("layers", "999", "256", "above_max"), ("hidden", "1e9", "32768", "above_max"),
    ("experts", "-4", "0", "below_min"), ("head_dim", "127.6", "128", "rounded"), ("vocab", "x", "", "invalid"),
])
def test_normalise_clamps_each_shape_field_with_a_notice(name, given, used, kind) -> None:
    query = {"arch": "custom", "layers": "28", name: given}
    inputs, notices = normalise(query)
    assert (name, kind, given, used) in [(n.field, n.kind, n.given, n.used) for n in notices]
    assert getattr(inputs, name) == (int(used) if used else None)


def test_kv_heads_and_active_experts_at_most_heads_and_experts() -> None:
    inputs, notices = normalise({"arch": "custom", "layers": "4", "heads": "8", "kv_heads": "16", "experts": "4",
                                 "experts_active": "8"})
    assert (inputs.kv_heads, inputs.experts_active) == (8, 4)
    assert {(n.field, n.kind) for n in notices} >= {("kv_heads", "above_heads"), ("experts_active", "above_heads")}


def test_a_shape_is_used_only_with_arch_custom_and_layers() -> None:
    named, _ = normalise({"arch": "qwen3_8b", "layers": "28", "hidden": "1536"})
    assert named.layers is None and named.hidden is None and "layers" not in named.query()
    no_layers, _ = normalise({"arch": "custom", "hidden": "1536", "policy_b": "3"})
    assert no_layers.hidden is None and no_layers.policy_b == 3 and policy_arch(no_layers) == custom_arch(3)
    empty, notices = normalise({"arch": "custom", "layers": "", "hidden": ""})  # the form's unset fields
    assert notices == () and empty.layers is None


@pytest.mark.parametrize("query", [
    {"arch": "custom", "hidden": "99999999"}, {"hidden": "abc"}, {"arch": "qwen3_8b", "kv_heads": "-3"},
    {"arch": "custom", "layers": "abc", "heads": "1e9"},
])
def test_a_bad_shape_field_where_no_shape_is_used_says_it_was_not_used(query) -> None:
    """No layers (or a named arch): the shape is dropped, so a bad field's notice names no value "used"."""
    inputs, notices = normalise(query)
    assert inputs.layers is None
    unused = [n for n in notices if n.field != "layers"]
    assert unused and all((n.kind, n.used) == ("shape_unused", "") for n in unused), notices
    assert all(getattr(inputs, n.field) is None for n in unused)


def test_the_canonical_query_carries_the_shape() -> None:
    inputs, _ = normalise(dict(p.split("=") for p in QWEN.split("&")))
    q = inputs.query()
    assert [k for k in q if k in SHAPE_NAMES] == ["layers", "hidden", "heads", "kv_heads", "head_dim", "vocab", "tied",
                                                  "intermediate"]
    assert normalise(q)[0] == inputs


def test_the_api_validates_each_shape_field_strictly() -> None:
    with pytest.raises(ValidationError) as err:
        WorkloadInputs(arch="custom", layers=300)
    assert err.value.errors()[0]["loc"] == ("layers",)
    for name, spec in SHAPE_SPECS.items():
        with pytest.raises(ValidationError):
            WorkloadInputs(**{"arch": "custom", "layers": 4, name: int(spec.maximum) + 1})
    # effective() applies the rules as normalise does
    api = effective(WorkloadInputs(arch="custom", layers=28, hidden=1536, heads=12, kv_heads=2, head_dim=128,
                                   vocab=151_936, tied=1, intermediate=8960))
    assert api == normalise(dict(p.split("=") for p in QWEN.split("&")))[0]
    assert effective(WorkloadInputs(arch="qwen3_8b", policy_b=8.2, layers=4)).layers is None


def test_deepseek_v3_by_its_fields() -> None:
    # MLA: 61 · (512 + 64) · 2 B = 70,272 B per token, as the named shape; the custom count (every layer MoE, no
    # shared expert, no query LoRA) is 709 B against 671 B published: within 6 %
    params = parse_config((FIXTURES / "deepseek_v3_config.json").read_text())
    a = shape_arch(*(params.get(n) for n in SHAPE_NAMES))
    assert kv_bytes_per_token(a) == kv_bytes_per_token(ARCHS["deepseek_v3"]) == 70_272
    assert a.attention == "mla" and a.experts == 256 and a.experts_per_token == 8
    assert a.total_b == approx(671, rel=0.06)


# --- the config.json mapping ---------------------------------------------------------------------------------------

def test_the_qwen_fixture_maps_to_its_fields() -> None:
    assert parse_config((FIXTURES / "qwen25_1_5b_config.json").read_text()) == dict(
        layers=28, hidden=1536, heads=12, kv_heads=2, vocab=151_936, tied=1, intermediate=8960)


def test_the_deepseek_fixture_maps_to_its_fields() -> None:
    assert parse_config((FIXTURES / "deepseek_v3_config.json").read_text()) == dict(
        layers=61, hidden=7168, heads=128, kv_heads=128, head_dim=192, vocab=129_280, tied=0, intermediate=18_432,
        experts=256, experts_active=8, expert_hidden=2048, kv_lora_rank=512)


@pytest.mark.parametrize(("text", "kind"), [
    ("{", "malformed"), ("[1, 2]", "not_object"), ('{"hidden_size": 1536}', "no_layers"), ("", "empty"), (" \n", "empty"),
    ("[" * 100_000, "too_large"), ("[" * 60_000 + "]" * 60_000, "too_large"), ("[" * 5_000 + "]" * 5_000, "malformed"),
    ('{"num_hidden_layers": "28"}', "no_layers"), ('{"num_hidden_layers": 28.5}', "no_layers"),
    ('{"num_hidden_layers": NaN}', "no_layers"),
])
def test_bad_pastes_raise_a_config_error(text, kind) -> None:
    with pytest.raises(ConfigError) as err:
        parse_config(text)
    assert err.value.kind == kind


def test_the_page_script_maps_as_python_does() -> None:
    # app/static/config-paste.js carries the mapping as a JSON literal between markers: it must be CONFIG_KEYS
    js = (Path(__file__).resolve().parents[2] / "app" / "static" / "config-paste.js").read_text()
    block = re.search(r"/\* CONFIG_KEYS \*/(.*?)/\* end \*/", js, re.S)
    assert block is not None
    assert json.loads(block.group(1)) == {k: list(v) for k, v in CONFIG_KEYS.items()}
    assert json.dumps(list(HEAD_DIM_PARTS)) in js


ODD = [{"num_hidden_layers": 4.0, "hidden_size": True, "num_key_value_heads": "8", "tie_word_embeddings": False},
       {"text_config": {"num_hidden_layers": 27, "num_local_experts": 8, "experts_per_token": 2}, "hidden_size": 9},
       {"num_hidden_layers": 3, "qk_nope_head_dim": 128, "num_experts": 4, "n_routed_experts": 16, "head_dim": 96},
       {"num_hidden_layers": 1.5, "qk_rope_head_dim": 64, "vocab_size": -1},
       # the attention its layers have: gpt-oss's windows, Qwen3-Next's linear layers (by interval and by list)
       {"num_hidden_layers": 4, "sliding_window": 128, "layer_types": ["sliding_attention", "full_attention"] * 2},
       {"num_hidden_layers": 8, "full_attention_interval": 4, "linear_num_value_heads": 32, "linear_num_key_heads": 16,
        "linear_key_head_dim": 128, "linear_value_head_dim": 128, "linear_conv_kernel_dim": 4},
       {"num_hidden_layers": 3, "layer_types": ["linear_attention", "full_attention", "x"], "sliding_window": 64}]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_page_script_reads_every_config_as_python_does() -> None:
    configs = [json.loads((FIXTURES / f).read_text()) for f in ("qwen25_1_5b_config.json", "deepseek_v3_config.json")]
    configs += ODD
    script = (Path(__file__).resolve().parents[2] / "app" / "static" / "config-paste.js").as_posix()
    run = subprocess.run(
        ["node", "-e", "globalThis.document = {addEventListener() {}};"
         f"const shapeOf = require({json.dumps(script)});"
         "const configs = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
         "process.stdout.write(JSON.stringify(configs.map(shapeOf)));"],
        input=json.dumps(configs), capture_output=True, text=True, timeout=30, check=True)
    assert json.loads(run.stdout) == [params_from_config(c) for c in configs]


def test_a_pasted_configs_windows_and_linear_layers_shape_its_kv() -> None:
    # gpt-oss-20b's attention (24 layers, 12 of them a 128-token window; 8 KV heads of 64 → 2 · 8 · 64 · 2 B =
    # 2,048 B a layer a token): at a 32,768-token context the cache is 12 · 32,768 · 2,048 + 12 · 128 · 2,048 B
    # = 808.5 MB against 1,610.6 MB with every layer full; Qwen3-Next's 48 layers, every 4th full: 36 linear
    # layers of 32 · 128 · 128 + 3 · (2 · 16 · 128 + 32 · 128) = 548,864 values each
    base = {"num_hidden_layers": 24, "hidden_size": 2880, "num_attention_heads": 64, "num_key_value_heads": 8,
            "head_dim": 64, "vocab_size": 201_088}
    windowed = parse_config(json.dumps({**base, "sliding_window": 128,
                                        "layer_types": ["sliding_attention", "full_attention"] * 12}))
    assert windowed["window_layers"] == 12 and windowed["window"] == 128
    full = shape_arch(*(parse_config(json.dumps(base)).get(n) for n in SHAPE_NAMES))
    slid = shape_arch(*(windowed.get(n) for n in SHAPE_NAMES))
    assert kv_sequence_bytes(full, 32_768) == pytest.approx(24 * 32_768 * 2_048)
    assert kv_sequence_bytes(slid, 32_768) == pytest.approx(12 * 32_768 * 2_048 + 12 * 128 * 2_048)
    linear = parse_config(json.dumps({"num_hidden_layers": 48, "full_attention_interval": 4,
                                      "linear_num_value_heads": 32, "linear_num_key_heads": 16,
                                      "linear_key_head_dim": 128, "linear_value_head_dim": 128,
                                      "linear_conv_kernel_dim": 4}))
    assert (linear["linear_layers"], linear["linear_state_values"]) == (36, 548_864)
    assert shape_arch(*(linear.get(n) for n in SHAPE_NAMES)).linear_layers == 36
