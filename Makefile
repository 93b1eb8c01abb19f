# Two commands do all setup on a fresh machine:
#   make run   - venv, Neo4j 5.26 installed and started, schema, default map loaded, report
#   make test  - venv, lint, types, and the whole test suite against a real Neo4j
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
KG := $(BIN)/kg

.PHONY: install run test lint unit bench bench-smoke clean stop browser

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

install: $(BIN)/.installed

# The default map: a small example map of transformer papers, written by the project's
# authors, and cit-HepTh (SNAP's arXiv hep-th citation network: 27,770 papers, 352,807
# citations and 29,555 abstracts) when `kg data get` can have it: from KG_DATA_DIR (by
# default ../shared beside the checkout, when it is there), its cache in KG_HOME, or SNAP's
# page. Without it the example map loads alone, and kg data get's line says how to add it.
export KG_DATA_DIR ?= $(if $(wildcard ../shared/data),$(abspath ../shared))

run: install
	$(KG) db start
	$(KG) init
	$(KG) load examples/map
	@if $(KG) data get cit-hepth > /dev/null; then \
	  set -x; \
	  $(KG) load --id-scheme snap-hepth $$($(KG) data get cit-hepth) && \
	  $(KG) stats && $(KG) paper hep-th/9711200 --limit 5; \
	else \
	  echo "make run: the example map alone (cit-HepTh is not here; see the line above)"; \
	  $(KG) stats && $(KG) paper 1810.04805 --limit 5; \
	fi
	@$(KG) db status --json | $(BIN)/python -c 'import json, sys; s = json.load(sys.stdin); print("\nNeo4j Browser:", s["browser_url"], "(user neo4j, password in " + s["kg_home"] + "/neo4j-password)")'
	@echo "Web view:      http://127.0.0.1:8765/ once you run $(KG) serve"

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

unit: install
	$(BIN)/pytest -m "not integration" -q

# Headless Chromium for the browser tests: Debian's chromium and chromium-driver, installed
# when missing (as root, as CI runs); without them those tests skip, except under CI=true.
browser:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing chromium and chromium-driver for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	  else \
	    echo "chromium and chromium-driver are missing: apt-get install chromium chromium-driver"; \
	  fi; \
	fi

# Two pytest workers (pytest-xdist), a test file at a time, each with its own Neo4j (2 GiB
# heap, 1 GiB page cache): on this project's 2-core machine the suite took 14 to 17 minutes
# where one worker took 19 to 24. NEO4J_URI names one database, which two workers would empty
# under each other, so with it set the suite runs in one worker.
TEST_WORKERS ?= $(if $(NEO4J_URI),0,2)

# Files go to the workers in the order tests/conftest.py collects them, the slow integration
# files first and the many short unit files last to fill the tail (xdist's default reorder
# by test count sent the few-test, minutes-long files last, one worker idle at the end).
test: lint browser
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# Benchmarks at full size, never part of make test: each writes its docs/BENCHMARKS-*.md.
# Ingest measures 1x, 10x and 100x (about 2.8M papers, bulk and import only above 10x): hours
# in all. make test runs every script in tests/bench at a tiny scale instead, reports in a
# temporary folder and no timing asserted (tests/unit/test_bench_smoke.py and
# tests/integration/test_bench_smoke_*.py), so that none stops running unseen: sources parses
# there, and import_formats imports Parquet besides CSV (CSV once). make bench-smoke runs the
# smoke runs alone, with sources --load on all six inputs (two servers each) and
# import_formats on gzipped CSV too, CSV again last (past what make test's 20 minutes give).
bench: install
	$(BIN)/python -m tests.bench.ingest --scales 1,10,100 --online-max-scale 10
	$(BIN)/python -m tests.bench.import_formats --scales 1,10
	$(BIN)/python -m tests.bench.incremental
	$(BIN)/pip install -q pylatexenc==2.11  # measured against, not a dependency (docs/BENCHMARKS.md)
	$(BIN)/python -m tests.bench.latex
	$(BIN)/python -m tests.bench.analytics
	$(KG) db start
	$(BIN)/python -m tests.bench.latency
	$(BIN)/python -m tests.bench.web
	$(BIN)/python -m tests.bench.sources --scales 1,10
	$(BIN)/python -m tests.bench.sources --scales 1,10 --load --load-max-scale 10

bench-smoke: install
	KG_BENCH_SMOKE_ALL=1 $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile \
	  tests/unit/test_bench_smoke.py tests/integration/test_bench_smoke_graph.py \
	  tests/integration/test_bench_smoke_servers.py

stop: install
	$(KG) db stop

clean:
	rm -rf $(VENV) dist build .pytest_cache .mypy_cache .ruff_cache
