# `make run` and `make test` work on a fresh clone: each creates .venv and installs what
# it needs (Debian packages too, with apt-get, when missing).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev
WEB_STAMP := $(VENV)/.installed-web
CHROMIUM := /usr/bin/chromium
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint bench bench-rl bench-server clean

$(VENV)/bin/python:
	@$(PYTHON) -c 'import venv, ensurepip' 2>/dev/null || \
		(apt-get update -qq && apt-get install -y -qq python3-venv python3-pip)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# The web server's packages (make run).
$(WEB_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[web]'
	@touch $(WEB_STAMP)

# Everything the tests need: the server's packages, the learning environments and their
# training examples (torch==2.13.0 is the CPU wheel pip finds on this disk).
$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[dev,web,rl,train]'
	@touch $(STAMP) $(WEB_STAMP)

# The browser tests drive Debian's Chromium (never a downloaded browser).
$(CHROMIUM):
	apt-get update -qq && apt-get install -y -qq chromium

run: $(WEB_STAMP)
	$(VENV)/bin/parlour serve --host $(HOST) --port $(PORT)

test: $(STAMP) $(CHROMIUM)
	$(VENV)/bin/ruff check parlour tests bench examples
	$(PY) -m pytest -n 2 -rf --timeout 300

lint: $(STAMP)
	$(VENV)/bin/ruff check parlour tests bench examples

bench: $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) bench/engine.py

bench-rl: $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) bench/rl.py

bench-server: $(STAMP)
	$(PY) bench/server.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis artifacts
