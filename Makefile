# `make run` and `make test` work on a fresh clone: each creates .venv and installs what
# it needs (Debian packages too, with apt-get, when missing).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import venv, ensurepip' 2>/dev/null || \
		(apt-get update -qq && apt-get install -y -qq python3-venv python3-pip)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/parlour

test: $(STAMP)
	$(VENV)/bin/ruff check parlour tests bench
	$(PY) -m pytest -n 2

lint: $(STAMP)
	$(VENV)/bin/ruff check parlour tests bench

bench: $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
