# Two commands on a fresh machine:  make run   (install and serve the lab)   make test   (install and run every test)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test install install-test wheels chromium lint bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install -q -e .

install-test: $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'

# The pinned framework releases' wheels (verl, OpenRLHF, TRL, and Transformers / Accelerate for TRL's recipe), downloaded
# once into .cache/wheels/ (pip download --no-deps): tests/launch checks every launch command against them, offline.
wheels: install-test
	$(BIN)/python tests/launch/wheels.py

# Debian's Chromium for the browser tests (Playwright's own browser download is not used); CJK fonts for zh screenshots.
chromium:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi 'Noto Sans CJK'; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	fi

run: install
	$(BIN)/rlhf-lab

test: install-test wheels chromium
	$(BIN)/ruff check app tests benchmarks
	$(BIN)/python -m pytest

lint: install-test
	$(BIN)/ruff check app tests benchmarks

bench: install-test
	$(BIN)/python benchmarks/bench_model.py

clean:
	rm -rf $(VENV) artifacts .pytest_cache .hypothesis
