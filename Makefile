# Cardroom: `make run` serves the API + worker, `make test` runs the suite.
# Both create .venv and install the project first; see README.md.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DATA_DIR ?= .data
export DATA_DIR

.PHONY: run test lint bench clean-data

# Reinstall when the project metadata changes or a package appears.
$(STAMP): pyproject.toml $(wildcard */__init__.py)
	@test -x $(BIN)/python || { \
	  $(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	    || { echo "Cardroom needs Python 3.11+ (PYTHON=$(PYTHON) is older)" >&2; exit 1; }; \
	  $(PYTHON) -c 'import sys; sys.exit(sys.version_info >= (3, 13))' \
	    || echo "note: embedded Postgres/Redis need Python 3.11 or 3.12 (try PYTHON=python3.12);" \
	            "with this Python set DATABASE_URL and REDIS_URL" >&2; \
	  echo "Creating $(VENV) with $(PYTHON)"; \
	  $(PYTHON) -m venv $(VENV); }
	@echo "Installing cardroom and its dependencies into $(VENV)"
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@

run: $(STAMP)
	$(BIN)/python -m embedded.run

test: $(STAMP)
	$(BIN)/python -m embedded.with_services --temp -- $(BIN)/python -m pytest $(ARGS)

# Style, formatting and types (mypy: strict on domain/, as pyproject.toml says).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Starts its own service in a throwaway dir; BENCH_ARGS="--url URL ..." targets a running one.
BENCH_ARGS ?= --start
bench: $(STAMP)
	$(BIN)/python bench/actions.py $(BENCH_ARGS)

# Stops embedded servers left running in $(DATA_DIR), then deletes it.
clean-data:
	@if [ -x $(BIN)/python ] && [ -d $(DATA_DIR) ]; then \
	  $(BIN)/python -c 'import sys; from embedded.services import stop_embedded; \
	    sys.exit(0 if stop_embedded("$(DATA_DIR)") else "a launcher still uses $(DATA_DIR)")'; \
	fi
	rm -rf $(DATA_DIR)
