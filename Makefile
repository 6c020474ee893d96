# `make run` and `make test` each create .venv when it is missing and install the project into it.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/mnemex serve

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests bench training
	$(BIN)/ruff format --check src tests bench training

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache

# The console's graph library, vendored from npm (no CDN, no network at run time): `make vendor`
# fetches the pinned tarball (npm checks its registry integrity), copies the minified build and
# its licence into the package and records their sha256 (tests/console checks them).
CYTOSCAPE ?= 3.35.0
VENDOR := src/mnemex/web/vendor

.PHONY: vendor
vendor:
	rm -rf $(VENDOR)/.pack && mkdir -p $(VENDOR)/.pack
	cd $(VENDOR)/.pack && npm pack --silent cytoscape@$(CYTOSCAPE) >/dev/null && tar xzf cytoscape-$(CYTOSCAPE).tgz
	cp $(VENDOR)/.pack/package/dist/cytoscape.min.js $(VENDOR)/cytoscape.min.js
	cp $(VENDOR)/.pack/package/LICENSE $(VENDOR)/cytoscape.LICENSE
	rm -rf $(VENDOR)/.pack
	cd $(VENDOR) && printf 'cytoscape %s (npm, MIT licence)\n' $(CYTOSCAPE) > SOURCES && sha256sum cytoscape.min.js cytoscape.LICENSE >> SOURCES
