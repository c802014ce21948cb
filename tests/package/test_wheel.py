"""The package is the product: a wheel built from this tree, installed into a fresh virtual environment, serves
the lab, the tutorial and the API (templates, catalogues, glossary, tutorial and static files are package data).

Slow (a wheel build and an install, from pip's cache when it is warm): one test, run once per suite."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import venv
from pathlib import Path

import httpx2 as httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel (and its dependencies) installed; returns its python."""
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work / "dist"), str(ROOT)],
                   check=True, cwd=work)
    wheels = list((work / "dist").glob("rlhf_lab-*.whl"))
    assert len(wheels) == 1, wheels
    venv.create(work / "env", with_pip=True)
    python = work / "env" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheels[0])], check=True, cwd=work)
    return python


def test_the_installed_wheel_serves_every_kind_of_page(installed: Path, tmp_path: Path) -> None:
    where = subprocess.run([str(installed), "-c", "import app, sys; sys.stdout.write(app.__file__)"],
                           check=True, capture_output=True, text=True, cwd=tmp_path).stdout
    assert "site-packages" in where and str(ROOT) not in where, "the app must come from the wheel, not this tree"
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen([str(installed), "-m", "uvicorn", "app.main:app", "--port", str(port), "--log-level",
                             "warning"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else "uvicorn exited"
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the installed app did not start"
            time.sleep(0.2)
        for path, marker in (("/en/", 'data-stage="'), ("/zh/", "data-stage="), ("/zh/tutorial", "<h2"),
                             ("/en/tutorial", "<h2"), ("/en/compare", "data-compare-meter"),
                             ("/api/evaluate?rollouts=64", '"stage"'), ("/docs", "swagger"),
                             ("/en/plan?max_gpus=16", 'data-chart="plan"'), ("/api/plan?max_gpus=16", '"frontier"'),
                             ("/en/reference", 'data-price="h100_80g"'),
                             ("/static/app.css", "{"), ("/favicon.ico", "<svg")):
            r = httpx.get(base + path, timeout=10)
            assert r.status_code == 200, (path, r.status_code, r.text[:300])
            assert marker in r.text, (path, r.text[:300])
    finally:
        proc.terminate()
        proc.wait(timeout=10)
