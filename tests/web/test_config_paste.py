"""The "paste config.json" helper without JavaScript: POST /{lang}/config reads the paste (size-limited, malformed →
a page that says why, never a 500, nothing of it echoed) and redirects (303) to the lab with the shape, keeping the
other parameters; the lab page carries the form; the API validates the shape's fields strictly."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from support.urls import LANGS

from app.i18n import catalogue
from app.model.architectures import MAX_CONFIG_BYTES

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
QWEN = (FIXTURES / "qwen25_1_5b_config.json").read_text()
DEEPSEEK = (FIXTURES / "deepseek_v3_config.json").read_text()
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def post(client, lang: str, text: str, state: str = "gpus=16&gpu=h100_80g&policy_b=7&arch=llama3_8b&layers=3"):
    return client.post(f"/{lang}/config?{state}", content=urlencode({"config": text}), headers=FORM,
                       follow_redirects=False)


@pytest.mark.parametrize("lang", LANGS)
def test_qwen_config_redirects_to_the_lab_with_its_shape(client, lang):
    r = post(client, lang, QWEN)
    assert r.status_code == 303
    url = urlsplit(r.headers["location"])
    assert url.path == f"/{lang}/"
    q = {k: v[-1] for k, v in parse_qs(url.query).items()}
    assert q == {"gpus": "16", "gpu": "h100_80g", "arch": "custom", "layers": "28", "hidden": "1536", "heads": "12",
                 "kv_heads": "2", "vocab": "151936", "tied": "1", "intermediate": "8960"}
    page = client.get(r.headers["location"])
    assert page.status_code == 200
    assert 'name="layers" value="28"' in page.text and 'name="kv_heads" value="2"' in page.text
    assert "28,672" in page.text  # KV cache per token, as Qwen2.5-1.5B's


def test_deepseek_config_keeps_mla_and_experts(client):
    r = post(client, "en", DEEPSEEK, state="")
    assert r.status_code == 303
    q = {k: v[-1] for k, v in parse_qs(urlsplit(r.headers["location"]).query).items()}
    assert (q["arch"], q["layers"], q["head_dim"], q["experts"], q["experts_active"], q["expert_hidden"],
            q["kv_lora_rank"]) == ("custom", "61", "192", "256", "8", "2048", "512")
    page = client.get(r.headers["location"])
    assert page.status_code == 200 and "70,272" in page.text  # MLA: 61 · (512 + 64) · 2 B


XSS = "<script>alert(1)</script>"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("text", "kind"), [
    ("{" + XSS, "malformed"), ("[" + '"' + XSS + '"]', "not_object"), ('{"hidden_size": 1536, "x": "' + XSS + '"}',
                                                                     "no_layers"), ("", "empty"),
])
def test_a_bad_paste_gets_a_page_that_says_why(client, lang, text, kind):
    r = post(client, lang, text)
    assert r.status_code == 400
    assert f'data-config-error="{kind}"' in r.text
    assert "alert" not in r.text and "<script>alert" not in r.text  # nothing of the paste comes back
    assert catalogue(lang)["config.error.title"] in r.text
    assert 'href="/' + lang + '/?gpus=16&amp;gpu=h100_80g"' in r.text  # back to the state, without the shape


def test_a_huge_paste_is_refused_before_it_is_read(client):
    r = post(client, "en", "{" + " " * (MAX_CONFIG_BYTES + 10) + "}")
    assert r.status_code == 413 and 'data-config-error="too_large"' in r.text
    r = client.post("/en/config", content=b"config=" + b"%7B" * 100_000, headers=FORM)
    assert r.status_code == 413


def test_odd_bodies_never_fail(client):
    for body, ctype in ((b"\xff\xfe\x00", "application/x-www-form-urlencoded"), (b"--x\r\n", "multipart/form-data"),
                        (b"", "text/plain"), (b"config=%FF%FE", "application/x-www-form-urlencoded")):
        r = client.post("/zh/config", content=body, headers={"Content-Type": ctype}, follow_redirects=False)
        assert r.status_code == 400, body
    assert client.post("/fr/config", content=b"config=%7B%7D", headers=FORM).status_code == 404


@pytest.mark.parametrize("lang", LANGS)
def test_the_lab_page_carries_the_helper(client, lang):
    page = client.get(f"/{lang}/?arch=custom&layers=28&hidden=1536").text
    assert '<details class="config-paste" open>' in page
    assert '<textarea id="config-paste-text" name="config" form="config-paste"' in page
    assert '<form id="config-paste" method="post" action="/' + lang + '/config?' in page
    assert page.index('id="config-paste" method') > page.index("</form>")  # not nested in the workload form
    assert catalogue(lang)["config.summary"] in page
    closed = client.get(f"/{lang}/?arch=qwen3_8b").text
    assert '<details class="config-paste">' in closed and 'name="layers" value="" min="0" step="1"' in closed
    assert 'data-shape disabled' in closed  # the shape's fields do not apply to a named architecture


def test_the_api_names_a_shape_field_out_of_range(client):
    r = client.get("/api/evaluate?arch=custom&layers=999")
    assert r.status_code == 422
    assert any(e["loc"][-1] == "layers" for e in r.json()["detail"])
    ok = client.get("/api/evaluate?arch=custom&layers=28&hidden=1536&heads=12&kv_heads=2&vocab=151936&tied=1"
                    "&intermediate=8960")
    assert ok.status_code == 200 and ok.json()["inputs"]["policy_b"] == pytest.approx(1.544, abs=1e-3)
