# `make run` and `make test` work on a fresh clone: each creates .venv and installs what
# it needs (Debian packages too, with apt-get, when missing).
PYTHON ?= python3
# Python keeps the bytecode it compiles (in __pycache__, ignored by git) even where the
# environment says not to: uv installs packages without compiling them ahead, and every
# test process and server would otherwise compile each module it imports anew (importing
# the server, torch and PettingZoo took 21 s so, 8 s from bytecode).
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev
WEB_STAMP := $(VENV)/.installed-web
CHROMIUM := /usr/bin/chromium
HOST ?= 127.0.0.1
PORT ?= 8000
# mypy's incremental cache lives with the user's caches (as uv's and the compiled build's,
# parlour/build.py), not in the checkout: it validates each module by its content's hash, so
# a fresh clone, a worktree or CI's checkout checks only what differs from the last run here
# (28 s of CPU cold, 2 s warm). flock keeps two checkouts from writing it at once (two mypy
# runs on one cache can crash one).
MYPY_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/parlour/mypy
MYPY = mkdir -p $(MYPY_CACHE) && flock $(MYPY_CACHE).lock $(VENV)/bin/mypy --cache-dir $(MYPY_CACHE)

.PHONY: run test check test-long lint compiled bench bench-rl bench-server screenshots clean messages messages-compile

# Packages are installed with uv (itself from PyPI, into .venv): on a fresh clone it takes
# about half of pip's time (parallel downloads, no bytecode compiled ahead of use: Python
# keeps what it compiles, above; a warm cache linked rather than unpacked). Where uv cannot
# be had, pip installs the same.
# .venv is made without pip, and the system's pip puts uv in it, which then adds pip from its
# cache (for the docs' `.venv/bin/python -m pip install ...`): venv's own pip set-up took
# 10 s of a fresh clone's first `make run` (2 s so). Without a pip of 22.3 or newer
# (`--python`) outside, venv's pip is set up and installs uv as before.
$(VENV)/bin/python:
	@echo "Setting up .venv, Parlour's own Python environment (once: about a minute)"
	@$(PYTHON) -c 'import venv, ensurepip' 2>/dev/null || \
		(apt-get update -qq && apt-get install -y -qq python3-venv python3-pip)
	$(PYTHON) -m venv --without-pip $(VENV)
	($(PYTHON) -m pip --python $(PY) install -q uv && \
		$(VENV)/bin/uv pip install -q --python $(PY) pip) || \
	($(PY) -m ensurepip >/dev/null && ($(PY) -m pip install -q uv || \
		echo "uv could not be installed: pip installs instead"))
INSTALL = $(if $(wildcard $(VENV)/bin/uv),$(VENV)/bin/uv pip install -q --python $(PY),\
	$(PY) -m pip install -q)

# The web server's packages (make run).
$(WEB_STAMP): pyproject.toml | $(VENV)/bin/python
	@echo "Installing the web server's Python packages into .venv"
	$(INSTALL) -e '.[web,fast]'
	@touch $(WEB_STAMP)

# Everything the tests need: the server's packages, the learning environments and their
# training examples (torch==2.13.0 is the CPU wheel these machines keep in /opt/wheels; the
# installer is pointed there whether or not PIP_FIND_LINKS says so, which uv does not read).
LOCAL_WHEELS := $(if $(wildcard /opt/wheels),--find-links /opt/wheels)
$(STAMP): pyproject.toml | $(VENV)/bin/python
	@echo "Installing every package the tests need into .venv (torch's CPU build among them)"
	$(INSTALL) $(LOCAL_WHEELS) -e '.[dev,web,rl,train,fast]'
	@touch $(STAMP) $(WEB_STAMP)

# The browser tests drive Debian's Chromium (never a downloaded browser). An install cut
# short (Ctrl-C while make test first installs it) can leave the package set up in part and
# its program missing, which apt-get only fails to set up again: then the package is
# fetched and installed once more (and what it needs, with apt-get's -f).
$(CHROMIUM):
	@echo "Installing Debian's chromium for the browser tests (apt-get)"
	apt-get update -qq
	apt-get install -y -qq chromium || test -e /var/lib/dpkg/info/chromium.list
	@test -x $(CHROMIUM) || { \
		echo "Chromium's last install was cut short: installing its package again"; \
		dir=$$(mktemp -d) && { chown _apt $$dir 2>/dev/null || true; } && \
		(cd $$dir && apt-get download -qq chromium && \
			{ dpkg -i chromium_*.deb || apt-get install -f -y -qq; }); \
		status=$$?; rm -rf $$dir; exit $$status; }
	@test -x $(CHROMIUM) || { echo "$(CHROMIUM) is still missing: see apt-get's errors above"; exit 1; }

# The compiled build of the hot modules (parlour/build.py: mypyc, into build/compiled/), made
# again whenever one of them changes. A build that fails is reported in one line and
# Parlour runs the same modules as pure Python (so does PARLOUR_PURE=1).
compiled: $(WEB_STAMP)
	$(PY) -m parlour.build

# Serves at once: when the compiled build is missing or older than the sources, it is made
# in the background (saying so) and this server runs the pure build; the next start runs
# the compiled one. A server never changes build while it runs, nor do its workers.
run: $(WEB_STAMP)
	@$(PY) -m parlour.build --background
	$(VENV)/bin/parlour serve --host $(HOST) --port $(PORT)

# Every kind of check, with light counts (the `long` soaks are left out: pyproject's addopts).
# The tests run on the compiled build when there is one; the engine contract runs on the pure
# build too (the pure build's same-results digests are checked in the main run, by
# tests/test_same_results.py's test of the other build).
# The compiled build (gcc on both cores, a C file per module) runs while ruff, mypy and the
# pure build's contract tests take the other core. The main run has three test processes on
# two cores: with two, a process waiting on a browser, a timer or a subprocess left its core
# idle (the same suite: 10 min 25 s with two, 9 min 13 s with three, under 1% idle).
# --dist loadfile gives each worker whole modules: handed out test by test, a module's
# tests ran on all three workers, each starting the module's Chromium and server (13% of
# the browser modules' CPU, and 18% of their time).
test: $(STAMP) $(CHROMIUM)
	$(PY) -m parlour.build & build=$$!; \
		$(VENV)/bin/ruff check parlour tests bench examples && $(MYPY) && \
		PARLOUR_PURE=1 $(PY) -m pytest -p no:xdist -rf --timeout 300 tests/test_registry.py \
			tests/test_engine.py; checks=$$?; \
		wait $$build; exit $$checks
	$(PY) tests/with_services.py $(PY) -m pytest -n 3 --dist loadfile -rf --timeout 300 --durations=25

# The edit loop's quick subset (about a minute): lint, types, the engine contract (pure build)
# and the websocket protocol (SQLite). make test runs all of it and everything else.
check: $(STAMP)
	$(VENV)/bin/ruff check parlour tests bench examples
	$(MYPY)
	PARLOUR_PURE=1 $(PY) -m pytest -p no:xdist -q tests/test_registry.py tests/test_engine.py \
		tests/test_server_ws.py -k "not postgresql"

# The long soaks alone: the same tests with their long counts (marker `long`).
test-long: $(STAMP)
	$(PY) tests/with_services.py $(PY) -m pytest -n 2 -rf -m long --timeout 3600

# mypy's settings (strict for the engine, cards, sampling, registry, games and bots) and the
# files it checks are in pyproject.toml.
# The pictures of every table at 1280x800 and 390x844 in docs/img/tables/, taken by the
# browser test that checks each table fits the screen.
screenshots: $(STAMP) $(CHROMIUM)
	mkdir -p docs/img/tables
	PARLOUR_TABLE_SHOTS=docs/img/tables $(PY) -m pytest tests/test_browser_fit.py -q -p no:randomly -k during_play

lint: $(STAMP)
	$(VENV)/bin/ruff check parlour tests bench examples
	$(MYPY)

# Translations (docs/i18n.md): `make messages` extracts every msgid of parlour/ into
# build/messages.pot and merges it into each parlour/locale/<lang>/LC_MESSAGES/messages.po
# (new msgids arrive untranslated, gone ones are dropped); translate, then `make test`.
# `make messages-compile` checks that every catalog compiles (Parlour itself reads the .po
# files at run time, so nothing compiled is needed or committed).
BABEL_KEYWORDS := -k Message -k IllegalAction -k NotationError -k OptionError -k Term:1c,2 -k plural_message:1,2 -k N_ -k Option:4 -k t -k n:1,2 -k p:1c,2 -k ProtocolError:2 -k TooMany:2

messages: $(STAMP)
	@mkdir -p build
	$(VENV)/bin/pybabel extract -F babel.cfg --no-wrap --add-location=file $(BABEL_KEYWORDS) --project Parlour \
		-o build/messages.pot .
	$(VENV)/bin/pybabel update -i build/messages.pot -d parlour/locale -D messages \
		--no-wrap --ignore-obsolete --no-fuzzy-matching

messages-compile: $(STAMP)
	$(VENV)/bin/pybabel compile -d parlour/locale -D messages --statistics

# The benchmarks against the peer engines (OpenSpiel, RLCard: the `bench` extra), each
# rewriting its section of docs/benchmarks.md (bench/report.py); the instruction counts run
# under Debian's valgrind. On the compiled build when there is one (make compiled).
BENCH_STAMP := $(VENV)/.installed-bench
VALGRIND := /usr/bin/valgrind

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(INSTALL) $(LOCAL_WHEELS) -e '.[dev,web,rl,train,fast,bench]'
	@touch $(BENCH_STAMP)

$(VALGRIND):
	apt-get update -qq && apt-get install -y -qq valgrind

bench: $(BENCH_STAMP) $(VALGRIND)
	$(PY) bench/engine.py --write
	$(PY) bench/search.py --write
	$(PY) bench/rl.py --write
	$(PY) bench/instructions.py --pure-too --write --all

bench-rl: $(BENCH_STAMP)
	$(PY) bench/rl.py --write

bench-server: $(STAMP)
	$(PY) bench/server.py --runs 1000/250 --seconds 15 --repeat 5 --write

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis artifacts build/compiled
