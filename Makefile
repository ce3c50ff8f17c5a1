# Two commands on a fresh machine: `make run` and `make test`. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed
NPM_STAMP := node_modules/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
EVENTS_PORT ?= 8001

# The same process commands docker-compose.yml runs (tests/test_compose.py checks this).
WEB_CMD := gunicorn config.wsgi:application -k gthread --workers 3 --threads 2 --timeout 60
EVENTS_CMD := gunicorn config.asgi:application -k uvicorn.workers.UvicornWorker --workers 1 --timeout 90
WORKER_CMD := celery -A config worker --loglevel=INFO --concurrency=2
BEAT_CMD := celery -A config beat --loglevel=INFO --schedule=/tmp/celerybeat-schedule

# Long enough for HS256 JWT signing (>= 32 bytes); for tests and lint only.
TEST_SECRET_KEY := test-secret-key-for-pytest-only-0123456789abcdef
LINT_PATHS := config clubs tournaments games engine tests
MYPY_PATHS := config clubs tournaments games $(wildcard engine)

.PHONY: help install run test lint format schema schema-compat schema-release clients clients-mobile migrate demo serve-pg serve-events worker beat soak faults clean

help: ## List targets.
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) ## Create .venv and install dependencies (only when pyproject.toml changed).

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $(NPM_STAMP)

migrate: $(STAMP) ## Apply database migrations.
	$(PY) manage.py migrate --noinput

demo: migrate ## Load the demo accounts (idempotent).
	$(PY) manage.py demo_data
	$(PY) manage.py demo_tournament

run: export DEBUG ?= 1
run: demo ## Serve the API and its websockets on http://127.0.0.1:8000 with the embedded defaults.
	@echo ""
	@echo "  API root:  http://$(HOST):$(PORT)/api/v1/"
	@echo "  API docs:  http://$(HOST):$(PORT)/api/v1/docs/  (ReDoc: /api/v1/redoc/, schema: /api/v1/schema/)"
	@echo "  Admin:     http://$(HOST):$(PORT)/admin/"
	@echo "  Live:      ws://$(HOST):$(PORT)/ws/v1/  (docs/live.md; try docs/examples/live_client.py)"
	@echo "  Logins:    admin / admin-demo-1 (staff);  anna (club owner), bert, carl, dave, emil, franz,"
	@echo "             gerti, hilde, ida, jakob, karl, lena / demo-pass-1"
	@echo "  Demo:      the tables and ids printed above by demo_data; log in as anna to play"
	@echo "             Online-Tisch (docs/games.md, docs/deal-verification.md)"
	@echo ""
	exec $(BIN)/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --lifespan off --no-server-header

test: export SECRET_KEY := $(TEST_SECRET_KEY)
test: $(STAMP) ## Run the whole test suite.
	$(BIN)/pytest

lint: export SECRET_KEY := $(TEST_SECRET_KEY)
lint: $(STAMP) $(NPM_STAMP) ## ruff, mypy, migrations, schema validation, Redocly lint, tsc --strict of the TS example.
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $(MYPY_PATHS)
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) manage.py spectacular --validate --fail-on-warn --file /dev/null
	node_modules/.bin/redocly lint docs/openapi.yaml --config redocly.yaml --format=summary
	mkdir -p clients/typescript
	node_modules/.bin/openapi-typescript docs/openapi.yaml --output clients/typescript/schema.d.ts
	node_modules/.bin/tsc -p docs/examples/typescript
	$(MAKE) --no-print-directory schema-compat

clients: export PATH := $(abspath $(BIN)):$(PATH)
clients: $(STAMP) $(NPM_STAMP) ## Generate the Python client and TypeScript types from docs/openapi.yaml into clients/.
	rm -rf clients/python clients/typescript
	mkdir -p clients/typescript
	$(BIN)/openapi-python-client generate --path docs/openapi.yaml --meta setup --output-path clients/python
	node_modules/.bin/openapi-typescript docs/openapi.yaml --output clients/typescript/schema.d.ts

# OpenAPI Generator from PyPI (the package carries the generator's jar; it needs Java 11 or
# newer), installed on demand: most set-ups never need it. A warning or error from the
# generator fails the target; CI runs it. The generated code is not compiled here (no Swift
# toolchain, and Kotlin's dependencies come from Maven Central).
MOBILE_GENERATOR := openapi-generator-cli==7.26.0
# The one warning let through: 7.26.0 logs it once for any response with named `examples`
# (seen with a single such response in an otherwise warning-free schema); the code it
# generates is the same.
GENERATOR_QUIRK := ModelUtils - Failed to get the schema name: null
# Kotlin: Retrofit with coroutines and kotlinx.serialization, the one combination whose
# oneOf forms are sealed interfaces that (de)serialise by their discriminator (moshi and
# jackson make interfaces no form implements); free-form JSON becomes JsonElement, which
# kotlinx.serialization reads (it cannot read Any).
KOTLIN_OPTIONS := packageName=org.preference.client,library=jvm-retrofit2,serializationLibrary=kotlinx_serialization,generateOneOfAnyOfWrappers=true,useCoroutines=true
clients-mobile: $(STAMP) ## Generate Swift (swift6) and Kotlin (Retrofit, kotlinx.serialization) clients into clients/ (needs Java).
	$(BIN)/pip install --quiet $(MOBILE_GENERATOR)
	rm -rf clients/swift clients/kotlin
	mkdir -p clients
	$(BIN)/openapi-generator-cli generate -i docs/openapi.yaml -g swift6 -o clients/swift \
	  --additional-properties=projectName=PreferenceClient > clients/swift.log 2>&1
	$(BIN)/openapi-generator-cli generate -i docs/openapi.yaml -g kotlin -o clients/kotlin \
	  --additional-properties=$(KOTLIN_OPTIONS) --type-mappings=AnyType=JsonElement \
	  --import-mappings=JsonElement=kotlinx.serialization.json.JsonElement > clients/kotlin.log 2>&1
	@if grep -E "\] (WARN|ERROR) " clients/swift.log clients/kotlin.log | grep -vF "$(GENERATOR_QUIRK)"; then \
	  echo "OpenAPI Generator warned about docs/openapi.yaml (above)"; exit 1; fi
	@echo "Swift: clients/swift (PreferenceClient), Kotlin: clients/kotlin (org.preference.client)"

# docs/openapi-released.yaml is the schema clients were last given (make schema-release). A
# change that breaks them (openapi-diff: a removed path, field or enum value, a newly required
# input) fails unless info.version changed with it; say what changed in docs/api-changelog.md.
schema-compat: $(STAMP) $(NPM_STAMP) ## Fail on changes to docs/openapi.yaml that break released clients.
	@mkdir -p clients; released=$$($(PY) -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["info"]["version"])' docs/openapi-released.yaml); \
	current=$$($(PY) -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["info"]["version"])' docs/openapi.yaml); \
	if [ "$$released" != "$$current" ]; then \
	  echo "API version $$released -> $$current: breaking changes allowed (docs/api-changelog.md)"; \
	elif node_modules/.bin/openapi-diff docs/openapi-released.yaml docs/openapi.yaml > clients/openapi-diff.txt 2>&1; then \
	  echo "docs/openapi.yaml keeps every client of API $$released working"; \
	else \
	  $(PY) -c 'import json, sys; t = open(sys.argv[1]).read(); d = json.loads(t[t.index("{"):]); [print(" ", x["code"], (x.get("sourceSpecEntityDetails") or x.get("destinationSpecEntityDetails") or [{}])[0].get("location")) for x in d.get("breakingDifferences", [])]' clients/openapi-diff.txt || cat clients/openapi-diff.txt; \
	  echo "docs/openapi.yaml breaks clients of API $$released (full report: clients/openapi-diff.txt):"; \
	  echo "keep the old form, or raise SPECTACULAR_SETTINGS VERSION and say why in docs/api-changelog.md"; \
	  exit 1; \
	fi

schema-release: ## Make docs/openapi.yaml the released schema that schema-compat guards.
	cp docs/openapi.yaml docs/openapi-released.yaml

schema: export SECRET_KEY := $(TEST_SECRET_KEY)
schema: export API_PUBLIC_URL := http://127.0.0.1:8000
schema: $(STAMP) ## Write the OpenAPI snapshot docs/openapi.yaml (commit it with the change).
	$(PY) manage.py spectacular --validate --fail-on-warn --file docs/openapi.yaml

format: $(STAMP) ## Apply ruff fixes and formatting.
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

serve-pg: migrate ## Serve the API with gunicorn gthread (as docker compose `web`); needs DATABASE_URL etc.
	GUNICORN_CMD_ARGS="--bind=$(HOST):$(PORT)" PATH="$(abspath $(BIN)):$$PATH" exec $(WEB_CMD)

serve-events: $(STAMP) ## Serve long polls (…/events/) with uvicorn workers on port 8001 (as compose `events`).
	GUNICORN_CMD_ARGS="--bind=$(HOST):$(EVENTS_PORT)" PATH="$(abspath $(BIN)):$$PATH" exec $(EVENTS_CMD)

worker: $(STAMP) ## Run a Celery worker (as docker compose `worker`); needs CELERY_BROKER_URL.
	PATH="$(abspath $(BIN)):$$PATH" exec $(WORKER_CMD)

beat: $(STAMP) ## Run Celery beat (as docker compose `beat`); needs CELERY_BROKER_URL.
	PATH="$(abspath $(BIN)):$$PATH" exec $(BEAT_CMD)

soak: $(STAMP) ## 32 clients for 10 min on the compose stack (bench/soak.py; SOAK_ARGS=--seconds 120).
	$(PY) bench/soak.py $(SOAK_ARGS)

faults: $(STAMP) ## Kill the worker, restart Redis and PostgreSQL mid-play (bench/faults.py; root).
	$(PY) bench/faults.py $(FAULTS_ARGS)

clean: ## Remove the virtualenv, caches and the SQLite database.
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis db.sqlite3
