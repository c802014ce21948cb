"""The page follows issue 36's engine mechanisms (items 2, 4, 6): the wide-EP engine sentence, the reference's new
constants with their sources, the launch page's unmapped notes; both languages; bad values clamp or 422."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from app.i18n import translator
from app.main import app
from app.model.assumptions import ENGINE_RELEASES, SOURCES

client = TestClient(app)
WIDE = dict(arch="qwen3_30b_a3b", gpus=32, gpu="h100_80g", method="grpo", reward="verifier", rollouts=1024,
            placement="separate", engine_layout="dp_attention")


def _text(url: str, **params: object) -> str:
    r = client.get(url, params=params)
    assert r.status_code == 200
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", r.text)))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wide_ep_state_says_so_in_its_engine_sentence_and_split(lang: str) -> None:
    text = _text(f"/{lang}/", **WIDE)
    if lang == "en":
        assert "Engine: wide expert parallelism , attention data-parallel over 8 GPUs per replica" in text
        assert "1 replica of data-parallel attention over 8 GPUs, EP 8" in text
    else:
        assert "推理引擎： 大规模专家并行 ，每个副本在 8 张 GPU 上以 data parallel 方式运行注意力" in text
        assert "1 个副本，每个在 8 张 GPU 上做 data parallel 注意力， EP 8" in text
    tp = _text(f"/{lang}/", **{**WIDE, "engine_layout": "tp"})
    # the TP state's engine sentence is the TP one (the form's choices may name wide EP on every page)
    assert "Engine: wide expert parallelism" not in tp and "推理引擎： 大规模专家并行" not in tp


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_reference_lists_every_release_and_the_server_constants_with_sources(lang: str) -> None:
    t = translator(lang)
    text = _text(f"/{lang}/reference")
    for r in ENGINE_RELEASES.values():
        assert re.sub(r"<[^>]+>", " ", t(f"assumption.{r.constant}.label")) in text
    for key in ("http_round_trip_s", "server_requests_per_step", "dispatch_combine_bytes_per_value"):
        assert t(f"assumption.{key}.label") in text
    for key in ("vllm_perf_v06", "trl_server", "deepep"):  # the sources the new constants cite
        assert key in SOURCES and html.unescape(t(f"source.{key}.title")).split("（")[0].split(" (")[0] in text


def test_bad_values_clamp_on_the_page_and_name_the_field_in_the_api() -> None:
    text = _text("/en/", engine_layout="bogus", engine_release="x", engine_api="y")
    assert "Engine layout (mixture of experts) has no choice bogus; using tp" in text
    for field in ("engine_layout", "engine_release", "engine_api"):
        r = client.get("/api/evaluate", params={field: "bogus"})
        assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["query", field]


def test_trl_names_its_server_mode_where_the_plan_has_none() -> None:
    q = dict(arch="qwen25_1_5b", gpus=8, gpu="h100_80g", method="grpo", reward="verifier", placement="separate",
             generation_gpus=1)
    inproc = _text("/en/launch", **q)
    assert "Separate engines in process: TRL reaches a separate vLLM only through trl vllm-serve over HTTP" in inproc
    server = _text("/en/launch", **q, engine_api="http")
    assert "Separate engines in process" not in server
    assert "Engines behind HTTP: OpenRLHF's vLLM engines are Ray actors" in server
