# Two commands: `make run` (site on http://127.0.0.1:8000/) and `make test` (the whole suite).
# Embedded default: SQLite, in-process channel layer, Celery worker thread in the daphne process.
# With DATABASE_URL and REDIS_URL set: PostgreSQL, Redis, and a separate Celery worker process.

# Both commands run on this machine with the development settings (a known SECRET_KEY is then allowed); a
# start without DJANGO_ENV=development is a production start (rummy_site/settings.py).
export DJANGO_ENV ?= development

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup db run cluster haproxy test lint fmt clean static-vendor static-icons

setup: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 ou plus est requis")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.lock
	@touch $(STAMP)

db: setup
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

clean:
	rm -rf $(VENV) var staticfiles

# SortableJS is committed under static/vendor/; this refreshes it from the npm registry.
static-vendor:
	npm ci --no-audit --no-fund
	npm run -s vendor

# The app's PNG icons (static/icons/app-*.png, committed), drawn from static/icons/app.svg in Chromium.
static-icons: setup
	$(BIN)/python -m rummy_site.icons
