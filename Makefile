# Two commands: `make run` (site on http://127.0.0.1:8000/) and `make test` (the whole suite).
# Embedded default: SQLite, in-process channel layer, Celery worker thread in the daphne process.
# With DATABASE_URL and REDIS_URL set: PostgreSQL, Redis, and a separate Celery worker process.

# Both commands run on this machine with the development settings (a known SECRET_KEY is then allowed); a
# start without DJANGO_ENV=development is a production start (rummy_site/settings.py).
export DJANGO_ENV ?= development

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

# Two hash-locked sets, both generated from pyproject.toml by `make lock` (docs/operations.md, « Dependencies »):
# requirements/runtime.txt, what the site runs on (`make run`, `make db`, `make cluster`), and requirements/dev.txt,
# the same pins plus the test and lint tools (`make test`, `make lint`). One stamp each: `make test` after
# `make run` adds the tools, and a lock file newer than its stamp installs again.
RUNTIME_STAMP := $(VENV)/.installed-runtime
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: setup setup-runtime db run cluster haproxy test lint fmt lock test-newest-python clean static-vendor static-icons

setup: $(DEV_STAMP)

setup-runtime: $(RUNTIME_STAMP)

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 ou plus est requis")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(RUNTIME_STAMP): requirements/runtime.txt | $(BIN)/python
	$(BIN)/python -m pip install -q --require-hashes -r requirements/runtime.txt
	@touch $@

# dev.txt holds every runtime pin too (the same versions), so its install brings the runtime set up to date as well.
$(DEV_STAMP): requirements/dev.txt requirements/runtime.txt | $(BIN)/python
	$(BIN)/python -m pip install -q --require-hashes -r requirements/dev.txt
	@touch $@ $(RUNTIME_STAMP)

db: setup-runtime
	$(BIN)/python manage.py migrate --noinput -v 0
	$(BIN)/python manage.py init_site

run: db
	$(BIN)/python manage.py serve

# The cluster shape on one machine (needs DATABASE_URL and REDIS_URL): HAProxy on $(PORT) in front of
# $(PROCESSES) daphne processes, $(WORKERS) Celery workers. Ctrl-C stops everything it started.
PROCESSES ?= 2
WORKERS ?= 1
PORT ?= 8000
cluster: db haproxy
	@test -n "$$DATABASE_URL" -a -n "$$REDIS_URL" || { echo "make cluster demande DATABASE_URL et REDIS_URL"; exit 2; }
	$(BIN)/python manage.py serve --processes $(PROCESSES) --workers $(WORKERS) --port $(PORT)

haproxy:
	@command -v haproxy >/dev/null || test -x /usr/sbin/haproxy || .ci/install-debian-packages haproxy

test: setup
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: setup
	$(BIN)/ruff check .

fmt: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Regenerates both lock files from pyproject.toml with pip-tools (in a venv of its own, .venv-lock/), keeping every
# pin it can: UPGRADE="NAME ..." moves those packages to their newest allowed versions, UPGRADE=all every package.
# dev.txt is compiled under runtime.txt's pins, so the two agree. A name goes to runtime.txt's compile only if
# runtime.txt has it (pip-compile would add it there otherwise). docs/operations.md, « Dependencies ».
PIP_TOOLS := pip-tools==7.7.0
LOCK_VENV := .venv-lock
PIP_COMPILE = CUSTOM_COMPILE_COMMAND="make lock" $(LOCK_VENV)/bin/pip-compile --quiet --generate-hashes \
	--allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links

lock: $(LOCK_VENV)/.installed-$(PIP_TOOLS)
	@runtime=; dev=; for name in $(UPGRADE); do \
	  if [ "$$name" = all ]; then runtime=--upgrade; dev=--upgrade; break; fi; \
	  dev="$$dev --upgrade-package $$name"; \
	  if grep -qi "^$$(echo "$$name" | tr '_.' '--')==" requirements/runtime.txt; then \
	    runtime="$$runtime --upgrade-package $$name"; fi; \
	done; set -ex; \
	$(PIP_COMPILE) $$runtime --output-file requirements/runtime.txt pyproject.toml; \
	$(PIP_COMPILE) $$dev --extra test --constraint requirements/runtime.txt --output-file requirements/dev.txt pyproject.toml

$(LOCK_VENV)/.installed-$(PIP_TOOLS):
	@test -x $(LOCK_VENV)/bin/python || $(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install -q "$(PIP_TOOLS)"
	@touch $@

# The suite's fast part (no browser, cluster or crash test, nothing marked `slow`) on the newest Python this machine
# has (.ci/newest-python), or on PY=/path/to/python3.X: `make test` in a venv of its own, .venv-py3X/, installed
# from requirements/dev.txt with its hashes. CI runs it after the two modes.
NEWEST_PYTEST_ARGS ?= tests --ignore=tests/e2e --ignore=tests/reliability -m "not slow" -x
test-newest-python:
	@py="$(PY)"; py="$${py:-$$(.ci/newest-python)}"; \
	if [ -z "$$py" ]; then echo "Aucun Python 3.11 ou plus trouvé (python3.X dans le PATH, versions de pyenv) : PY=/chemin/vers/python3.X"; exit 3; fi; \
	tag=$$("$$py" -c 'import sys; print("py%d%d" % sys.version_info[:2])') || exit 1; \
	echo "$$("$$py" --version) ($$py), venv .venv-$$tag"; \
	$(MAKE) --no-print-directory test PYTHON="$$py" VENV=".venv-$$tag" PYTEST_ARGS='$(NEWEST_PYTEST_ARGS)'

clean:
	rm -rf $(VENV) .venv-py3* $(LOCK_VENV) var staticfiles

# SortableJS is committed under static/vendor/; this refreshes it from the npm registry.
static-vendor:
	npm ci --no-audit --no-fund
	npm run -s vendor

# The app's PNG icons (static/icons/app-*.png, committed), drawn from static/icons/app.svg in Chromium.
static-icons: setup
	$(BIN)/python -m rummy_site.icons
