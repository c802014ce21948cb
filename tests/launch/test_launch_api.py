"""GET /api/launch: per framework the command, its version and notes, or the reason it has none; a bad field is a 422
naming it (like /api/evaluate); the command as a .sh download; the template files; a state that does not fit gets
no command but the fewest GPUs that fit, and the page links to that state."""

from __future__ import annotations

import subprocess
from urllib.parse import urlencode

import pytest

from app.launch import FILES, for_state
from app.model import evaluate, normalise
from app.model.scenarios import PRESET_BY_ID

GRPO = PRESET_BY_ID["grpo"].inputs


def test_the_answer_has_each_framework_with_its_pinned_version(client):
    r = client.get(f"/api/launch?{urlencode(GRPO.query())}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert set(body["frameworks"]) == {"verl", "openrlhf", "trl"}
    versions = {fw: a["version"] for fw, a in body["frameworks"].items()}
    assert versions == {"verl": "0.9.1", "openrlhf": "0.11.2", "trl": "1.16.0"}
    state = for_state(evaluate(GRPO))
    for fw, answer in body["frameworks"].items():
        assert answer["command"] == state.command(fw).text and answer["reason"] is None
        assert answer["command"].startswith(f"# {answer['pin']}\n")
        keys = [n["key"] for n in answer["notes"]]
        assert keys == [n.key for n in state.command(fw).notes]
        assert all(n["text"]["en"] and n["text"]["zh"] and "{" not in n["text"]["en"] for n in answer["notes"])
    assert body["frameworks"]["verl"]["config"] == "ppo_trainer"


def test_a_framework_without_a_command_gives_the_reason_in_both_languages(client):
    r = client.get(f"/api/launch?{urlencode(PRESET_BY_ID['ppo_loop'].inputs.query())}").json()
    trl = r["frameworks"]["trl"]
    assert trl["command"] is None and trl["reason"]["key"] == "launch.reason.trl_no_ppo"
    assert "PPO" in trl["reason"]["text"]["en"] and "PPO" in trl["reason"]["text"]["zh"]


@pytest.mark.parametrize(("field", "value"), [("gpus", "0"), ("method", "ppo2"), ("kl", "nan")])
def test_a_bad_field_is_a_422_naming_it(client, field, value):
    r = client.get(f"/api/launch?{field}={value}")
    assert r.status_code == 422
    assert any(field in err["loc"] for err in r.json()["detail"])


def test_the_command_downloads_as_a_shell_script_bash_can_parse(client, tmp_path):
    r = client.get(f"/api/launch/verl.sh?{urlencode(GRPO.query())}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/x-shellscript")
    assert r.headers["content-disposition"] == 'attachment; filename="verl-launch.sh"'
    assert r.text.startswith("#!/usr/bin/env bash\n") and for_state(evaluate(GRPO)).command("verl").text in r.text
    script = tmp_path / "verl.sh"
    script.write_text(r.text)
    subprocess.run(["bash", "-n", str(script)], check=True)  # syntax only: nothing runs
    assert client.get(f"/api/launch/trl.sh?{urlencode(PRESET_BY_ID['ppo_loop'].inputs.query())}").status_code == 404
    assert client.get("/api/launch/deepspeed.sh").status_code == 404


def test_the_template_files_download(client):
    for name in FILES:
        r = client.get(f"/launch/files/{name}")
        assert r.status_code == 200 and r.headers["content-disposition"] == f'attachment; filename="{name}"'
    assert client.get("/launch/files/..%2Fpyproject.toml").status_code == 404
    assert client.get("/launch/files/secrets.py").status_code == 404


def test_a_state_that_does_not_fit_has_no_command_and_links_to_the_fewest_gpus_that_fit(client):
    q = {"method": "grpo", "arch": "qwen3_235b_a22b", "gpus": "64", "gpu": "h100_80g", "placement": "colocated",
         "reward": "verifier", "rollouts": "1024", "kl": "0.001"}
    inputs, _ = normalise({k: [v] for k, v in q.items()})
    result = evaluate(inputs)
    assert not result.memory.fits and result.memory.min_gpus
    body = client.get(f"/api/launch?{urlencode(inputs.query())}").json()
    assert body["fit_gpus"] == result.memory.min_gpus
    assert all(a["command"] is None and a["reason"]["key"] == "launch.map.does_not_fit"
               for a in body["frameworks"].values())
    for lang in ("en", "zh"):
        page = client.get(f"/{lang}/launch?{urlencode(inputs.query())}").text
        fit = urlencode(inputs.query(gpus=result.memory.min_gpus)).replace("&", "&amp;")
        assert f'href="/{lang}/launch?{fit}"' in page
    fitted, _ = normalise({k: [v] for k, v in {**q, "gpus": str(result.memory.min_gpus)}.items()})
    assert evaluate(fitted).memory.fits  # the linked state fits
