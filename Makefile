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
WORKER_CMD := celery -A config worker --loglevel=INFO --concurrency=2 --queues=celery
BOTS_CMD := celery -A config worker --loglevel=INFO --concurrency=2 --queues=bots
CLOCKS_CMD := celery -A config worker --loglevel=INFO --concurrency=4 --queues=clocks
BEAT_CMD := celery -A config beat --loglevel=INFO --schedule=/tmp/celerybeat-schedule

# Long enough for HS256 JWT signing (>= 32 bytes); for tests and lint only.
TEST_SECRET_KEY := test-secret-key-for-pytest-only-0123456789abcdef
LINT_PATHS := config clubs tournaments games engine tests
MYPY_PATHS := config clubs tournaments games $(wildcard engine)

.PHONY: help install lock lock-check run test test-quick no-npm slow-list lint format schema schema-compat schema-release messages messages-app clients clients-mobile migrate demo serve-pg serve-events worker bots clocks beat soak faults clean

help: ## List targets.
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'
	@echo "Variables: HOST (127.0.0.1) and PORT (8000) of run and serve-pg, e.g. make run PORT=8080;"
	@echo "  run gives API_PUBLIC_URL http://HOST:PORT unless set (the schema's server, links; README)."

$(PY):
	$(PYTHON) -m venv $(VENV)

# The locked dependencies (README, "Dependencies"): requirements/runtime.txt for the Docker
# image, requirements/dev.txt (the same runtime pins plus the dev extra) for .venv and CI.
# Every file is pinned by its hash; the project itself installs from the tree without deps.
LOCK := requirements/runtime.txt
DEV_LOCK := requirements/dev.txt
# One resolution for any platform (markers), Python 3.11 the lowest; existing pins are kept.
UV_COMPILE := $(BIN)/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes \
  --custom-compile-command 'make lock'
# `make lock UPGRADE=1` moves every pin to the newest release pyproject.toml allows.
UV_UPGRADE := $(if $(UPGRADE),--upgrade)
# A lock's requirement lines (name==version ; markers), without comments and hashes.
lock_pins = grep -E '^[A-Za-z0-9]' $(1) | sed -E 's/[[:space:]]*\\$$//'

# engine/solver/_dd.c, config/_arenas.c: `pip install -e .` compiles the solver's C search and
# the arena keeper (where gcc is found).
$(STAMP): $(DEV_LOCK) pyproject.toml engine/solver/_dd.c config/_arenas.c | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r $(DEV_LOCK)
	$(PY) -m pip install --quiet --no-deps -e .
	@$(PY) -m pip check >/dev/null || { $(PY) -m pip check; \
	  echo "$(DEV_LOCK) does not satisfy pyproject.toml: run make lock"; exit 1; }
	touch $(STAMP)

install: $(STAMP) ## Create .venv and install the locked dependencies (when the lock or pyproject.toml changed).

# uv alone at its locked version and hashes, so `make lock` works while the lock is stale.
$(BIN)/uv: | $(PY)
	awk '/^uv==/ {p = 1; print; next} p && /^[^ ]/ {exit} p' $(DEV_LOCK) > $(VENV)/uv-lock.txt
	$(PY) -m pip install --quiet --require-hashes --no-deps -r $(VENV)/uv-lock.txt

lock: $(BIN)/uv ## Update requirements/*.txt from pyproject.toml, keeping pins (UPGRADE=1: newest allowed).
	$(UV_COMPILE) $(UV_UPGRADE) pyproject.toml -o $(LOCK)
	$(UV_COMPILE) $(UV_UPGRADE) pyproject.toml --extra dev -c $(LOCK) -o $(DEV_LOCK)

# Resolves again into a scratch copy (from PyPI) and compares the pinned versions, not the
# comments or hashes (a release may gain wheels later).
lock-check: $(BIN)/uv ## Fail when requirements/*.txt do not match pyproject.toml.
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && mkdir -p "$$tmp/requirements" \
	  && cp $(LOCK) $(DEV_LOCK) "$$tmp/requirements/" \
	  && $(UV_COMPILE) pyproject.toml -o "$$tmp/$(LOCK)" \
	  && $(UV_COMPILE) pyproject.toml --extra dev -c "$$tmp/$(LOCK)" -o "$$tmp/$(DEV_LOCK)" \
	  && for f in $(LOCK) $(DEV_LOCK); do \
	    if ! diff -u --label "$$f" --label "$$f (from pyproject.toml)" \
	      <($(call lock_pins,"$$f")) <($(call lock_pins,"$$tmp/$$f")); then \
	      echo "$$f does not match pyproject.toml: run make lock and commit the result"; exit 1; \
	    fi; \
	  done && echo "requirements/*.txt match pyproject.toml"

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $(NPM_STAMP)

# `make test` needs Node.js and npm only for the TypeScript example's test: without npm it
# says so and runs the rest; that test then skips, except where Node.js is required (CI=true,
# REQUIRE_NODE=1 or REQUIRE_SERVICES=1: it fails). lint, clients and schema-compat need npm.
NPM := $(shell command -v npm 2>/dev/null)
NODE_TOOLS_FOR_TEST := $(if $(NPM),$(NPM_STAMP),no-npm)
no-npm:
	@echo "npm not found: skipping npm ci; the TypeScript example's test will skip (install Node.js and npm to run it)"

migrate: $(STAMP) ## Apply database migrations.
	$(PY) manage.py migrate --noinput

demo: migrate ## Load the demo accounts, club, tables, evenings, tournament and cup (idempotent); prints their ids.
	$(PY) manage.py demo_data
	$(PY) manage.py demo_tournament
	$(PY) manage.py demo_cup

run: export DEBUG ?= 1
# The schema's server, its contact link and the invitation and calendar links follow the served
# address (config/settings.py) unless the environment sets API_PUBLIC_URL (or PUBLIC_BASE_URL).
run: export API_PUBLIC_URL ?= http://$(if $(findstring :,$(HOST)),[$(HOST)],$(HOST)):$(PORT)
run: demo ## Serve the API and its websockets on http://HOST:PORT (127.0.0.1:8000; make run PORT=8080).
	@echo ""
	@echo "  API root:  http://$(HOST):$(PORT)/api/v1/"
	@echo "  API docs:  http://$(HOST):$(PORT)/api/v1/docs/  (ReDoc: /api/v1/redoc/, schema: /api/v1/schema/)"
	@echo "  Admin:     http://$(HOST):$(PORT)/admin/"
	@echo "  Live:      ws://$(HOST):$(PORT)/ws/v1/  (docs/live.md; try docs/examples/live_client.py --base $(API_PUBLIC_URL))"
	@echo "  Public:    $(API_PUBLIC_URL) (API_PUBLIC_URL: the schema's server; links too unless PUBLIC_BASE_URL is set)"
	@echo "  Demo:      the logins and ids printed above; log in as anna to play Online-Tisch"
	@echo "             (docs/games.md, docs/deal-verification.md)"
	@echo ""
	exec $(BIN)/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --lifespan off --no-server-header

# The suite runs in parallel, one pytest-xdist worker process per core (PYTEST_WORKERS=0: all
# in this process), each on its own test database and Redis names (tests/settings.py);
# loadgroup keeps the tests of one xdist_group on one worker. PYTEST_ARGS adds options or
# paths, e.g. PYTEST_ARGS="tests/engine -x".
PYTEST_WORKERS ?= auto
CATALOG_LANGUAGES := de ru
PYTEST := $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadgroup
# Every worker (and every process a test starts) imports the project and pytest rewrites
# every test module: with bytecode caching off (PYTHONDONTWRITEBYTECODE, set in some shells
# and containers) each compiles them all again on every run, 5 s of the inner loop.
# `__pycache__/` is ignored by git.
test test-quick: export PYTHONDONTWRITEBYTECODE :=

test: export SECRET_KEY := $(TEST_SECRET_KEY)
test: $(STAMP) $(NODE_TOOLS_FOR_TEST) ## Run the whole test suite on every core; prints the 15 slowest tests.
	$(PYTEST) --durations=15 $(PYTEST_ARGS)

test-quick: export SECRET_KEY := $(TEST_SECRET_KEY)
# The inner loop builds its test databases from the models (--no-migrations: 3 s less per
# worker); `make test`, and so CI, applies the migrations, and `make lint` checks that they
# match the models.
test-quick: $(STAMP) ## The inner loop: all but the `services` and `slow` tests.
	$(PYTEST) -m "not services and not slow" --no-migrations $(PYTEST_ARGS)

slow-list: export SECRET_KEY := $(TEST_SECRET_KEY)
slow-list: export SLOW_LIST := ignore
# Times every phase of the inner loop's tests with none left out by tests/slow_tests.txt, and
# lists the functions over tests/slow_list.py's THRESHOLD (a call, or their cases on average):
# run it on a quiet machine and commit the list.
slow-list: $(STAMP) ## Rewrite tests/slow_tests.txt: the test functions make test-quick leaves out.
	$(PYTEST) -m "not services and not slow" --no-migrations -q \
	  --durations=0 --durations-min=0 > $(VENV)/slow-list.log || { tail -n 30 $(VENV)/slow-list.log; exit 1; }
	$(PY) -m tests.slow_list < $(VENV)/slow-list.log > tests/slow_tests.txt
	@echo "tests/slow_tests.txt: $$(grep -vc '^#' tests/slow_tests.txt) functions"

lint: export SECRET_KEY := $(TEST_SECRET_KEY)
lint: $(STAMP) $(NPM_STAMP) ## The lock check, ruff, mypy, migrations, schema validation, Redocly lint, tsc --strict of the TS example.
	$(MAKE) --no-print-directory lock-check
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
# input) fails unless info.version changed with it; either way it lists what breaks. Say what
# changed in docs/api-changelog.md.
# openapi-diff reads copies in which each union of the rule sets' components (their rules,
# hand views, score sheets, results and games: schema_compat.UNIONS) is a plain object and
# each alternative a path of its own (config/api/schema_compat.py: the rules' union alone took
# it more than twelve minutes). A schema whose copy equals the released one's is not handed to
# openapi-diff at all: comparing API 2.9.0 with itself took it over 25 minutes here.
schema-compat: $(STAMP) $(NPM_STAMP) ## Fail on changes to docs/openapi.yaml that break released clients.
	@mkdir -p clients; released=$$($(PY) -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["info"]["version"])' docs/openapi-released.yaml); \
	current=$$($(PY) -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["info"]["version"])' docs/openapi.yaml); \
	if $(PY) -m config.api.schema_compat docs/openapi-released.yaml clients/compat-released.yaml && \
	  $(PY) -m config.api.schema_compat docs/openapi.yaml clients/compat-current.yaml && \
	  { cmp -s clients/compat-released.yaml clients/compat-current.yaml || \
	    node_modules/.bin/openapi-diff clients/compat-released.yaml clients/compat-current.yaml > clients/openapi-diff.txt 2>&1; }; then \
	  echo "docs/openapi.yaml keeps every client of API $$released working"; \
	else \
	  $(PY) -c 'import json, sys; t = open(sys.argv[1]).read(); d = json.loads(t[t.index("{"):]); [print(" ", x["code"], (x.get("sourceSpecEntityDetails") or x.get("destinationSpecEntityDetails") or [{}])[0].get("location")) for x in d.get("breakingDifferences", [])]' clients/openapi-diff.txt || cat clients/openapi-diff.txt; \
	  if [ "$$released" != "$$current" ]; then \
	    echo "API version $$released -> $$current: the changes above break clients of $$released, as docs/api-changelog.md says (full report: clients/openapi-diff.txt)"; \
	  else \
	    echo "docs/openapi.yaml breaks clients of API $$released (full report: clients/openapi-diff.txt):"; \
	    echo "keep the old form, or raise SPECTACULAR_SETTINGS VERSION and say why in docs/api-changelog.md"; \
	    exit 1; \
	  fi; \
	fi

messages: export SECRET_KEY := $(TEST_SECRET_KEY)
# GNU gettext (xgettext, msgmerge, msgfmt) extracts and compiles; the compiled .mo files are
# committed, so serving and testing need no gettext (docs/languages.md).
messages: $(STAMP) ## Update every catalog (German, Russian) from the code and compile them.
	$(PY) manage.py makemessages --no-location --no-wrap $(foreach l,$(CATALOG_LANGUAGES),-l $(l)) \
	  $(foreach d,.venv node_modules tests bench clients docs requirements,--ignore '$(d)/*')
	$(PY) -m config.catalogs engine
	$(PY) manage.py compilemessages --ignore '.venv/*' --ignore 'node_modules/*'

messages-app: export SECRET_KEY := $(TEST_SECRET_KEY)
messages-app: $(STAMP) ## One app's catalogs only, e.g. `make messages-app APP=games`.
	cd $(APP) && DJANGO_SETTINGS_MODULE=config.settings PYTHONPATH=.. ../$(BIN)/django-admin \
	  makemessages --no-location --no-wrap $(foreach l,$(CATALOG_LANGUAGES),-l $(l))
	cd $(APP) && env -u DJANGO_SETTINGS_MODULE ../$(BIN)/django-admin compilemessages

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

bots: $(STAMP) ## Run the bots queue's Celery worker (as docker compose `bots`); needs CELERY_BROKER_URL.
	PATH="$(abspath $(BIN)):$$PATH" exec $(BOTS_CMD)

clocks: $(STAMP) ## Run the clocks queue's Celery worker: flags of hosted hands (as docker compose `clocks`).
	PATH="$(abspath $(BIN)):$$PATH" exec $(CLOCKS_CMD)

beat: $(STAMP) ## Run Celery beat (as docker compose `beat`); needs CELERY_BROKER_URL.
	PATH="$(abspath $(BIN)):$$PATH" exec $(BEAT_CMD)

soak: $(STAMP) ## 32 clients for 10 min on the compose stack (bench/soak.py; SOAK_ARGS=--seconds 120).
	$(PY) bench/soak.py $(SOAK_ARGS)

faults: $(STAMP) ## Kill the worker, restart Redis and PostgreSQL mid-play (bench/faults.py; root).
	$(PY) bench/faults.py $(FAULTS_ARGS)

clean: ## Remove the virtualenv, caches and the SQLite database.
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis db.sqlite3 db.sqlite3-journal db.sqlite3-wal db.sqlite3-shm
