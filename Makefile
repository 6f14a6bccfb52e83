# Cardroom: `make run` serves the API + worker, `make test` runs the suite.
# Both create .venv and install the project first; see README.md.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --disable-pip-version-check
STAMP := $(VENV)/.installed
DATA_DIR ?= .data
export DATA_DIR

# The lock files (`make lock` writes them; edit pyproject.toml, never these): exact versions and
# hashes for every Python >= 3.11 and platform. requirements.txt is what the Docker image gets
# (runtime only); requirements-dev.txt is what .venv gets (runtime and every extra: dev, embedded).
LOCK := requirements.txt
DEV_LOCK := requirements-dev.txt

.PHONY: run test lint bench clean-data lock spec docs

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	  || { echo "Cardroom needs Python 3.11+ (PYTHON=$(PYTHON) is older)" >&2; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info >= (3, 13))' \
	  || echo "note: embedded Postgres/Redis need Python 3.11 or 3.12 (try PYTHON=python3.12);" \
	          "with this Python set DATABASE_URL and REDIS_URL" >&2
	@echo "Creating $(VENV) with $(PYTHON)"
	@$(PYTHON) -m venv $(VENV)

# Reinstall when the project metadata or the lock changes or a package appears. Plain pip, no
# resolver at work: --require-hashes installs exactly the locked files; then the project itself,
# built by the lock's setuptools (--no-build-isolation) rather than whatever is newest today.
# The official Python client (clients/python, its own package) goes in too, its one dependency
# (httpx) being in the dev lock.
$(STAMP): pyproject.toml clients/python/pyproject.toml $(DEV_LOCK) $(wildcard */__init__.py) | $(BIN)/python
	@echo "Installing cardroom and its locked dependencies ($(DEV_LOCK)) into $(VENV)"
	@$(PIP) install --quiet --require-hashes -r $(DEV_LOCK)
	@$(PIP) install --quiet --no-deps --no-build-isolation -e .
	@$(PIP) install --quiet --no-deps --no-build-isolation -e clients/python
	@$(PIP) check >/dev/null || { $(PIP) check >&2; \
	  echo "Broken requirements above: after editing pyproject.toml, run make lock" >&2; exit 1; }
	@touch $@

# Refresh both lock files from pyproject.toml, keeping each locked version that still fits
# (UPGRADE=1: the newest that fit). uv resolves once for every Python and platform (plain pip
# installs the result); the runtime lock takes its versions from the dev lock, so the image
# runs what the tests ran. pyproject's build requirements (setuptools) are locked too.
UV_VERSION := 0.13.9
BUILD_REQUIRES := $(BIN)/python -c 'import tomllib; \
  print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], sep="\n")'
UV_COMPILE := $(BIN)/uv pip compile pyproject.toml - --universal --generate-hashes --quiet \
  --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade)
lock: | $(BIN)/python
	@$(PIP) install --quiet uv==$(UV_VERSION)
	$(BUILD_REQUIRES) | $(UV_COMPILE) --all-extras -o $(DEV_LOCK)
	$(BUILD_REQUIRES) | $(UV_COMPILE) -c $(DEV_LOCK) -o $(LOCK)

run: $(STAMP)
	$(BIN)/python -m embedded.run

test: $(STAMP)
	$(BIN)/python -m embedded.with_services --temp -- $(BIN)/python -m pytest $(ARGS)

# Style, formatting, types (mypy, strict as pyproject.toml says) and the layers: the import
# contracts of pyproject.toml's [tool.importlinter] (docs/architecture.md).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# The per-game parts of openapi.yaml, from the game registry (api/spec_parts.py); the rest of
# the file is hand-written. tests/api/test_spec_parts.py fails when the file drifts.
spec: $(STAMP)
	$(BIN)/python -m api.spec_parts

# The parts of docs/ written from the game registry (api/docs_parts.py): each game's guides,
# copied from its folder into docs/rules/guides/ with the glossary, and the table of the games
# in docs/rules.md. tests/api/test_docs_parts.py fails when they drift.
docs: $(STAMP)
	$(BIN)/python -m api.docs_parts --write

# The runner starts a service in a throwaway dir; BENCH_ARGS="--url URL ..." targets a running one.
BENCH_ARGS ?=
bench: $(STAMP)
	$(BIN)/python -m bench actions $(BENCH_ARGS)

# Stops embedded servers left running in $(DATA_DIR), then deletes it.
clean-data:
	@if [ -x $(BIN)/python ] && [ -d $(DATA_DIR) ]; then \
	  $(BIN)/python -c 'import sys; from embedded.services import stop_embedded; \
	    sys.exit(0 if stop_embedded("$(DATA_DIR)") else "a launcher still uses $(DATA_DIR)")'; \
	fi
	rm -rf $(DATA_DIR)
