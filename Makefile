# The two commands a newcomer needs: `make run` and `make test`.
# Each creates .venv if missing and installs the project into it first.

VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
PIP    := $(PY) -m pip --disable-pip-version-check -q
PORT   ?= 5000

.PHONY: run test test-fast bench bench-load bench-trust system-deps clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -e '.[test]'
	touch $(STAMP)

# Debian packages the tests need: a real browser, poppler (PDF to PNG) and
# HarfBuzz's subsetter for WeasyPrint. Installed only where missing.
system-deps:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v pdftoppm >/dev/null || missing="$$missing poppler-utils"; \
	ls /usr/lib/*/libharfbuzz-subset.so.0 >/dev/null 2>&1 || missing="$$missing libharfbuzz-subset0"; \
	fc-list 2>/dev/null | grep -qi dejavu || missing="$$missing fonts-dejavu-core"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

run: $(STAMP)
	$(VENV)/bin/flask --app scorekeeper init-db
	$(PY) -m scorekeeper.serve --port $(PORT)

test: $(STAMP) system-deps
	$(PY) -m pytest

test-fast: $(STAMP)
	$(PY) -m pytest -m "not browser"

# Benchmarks (not part of `make test`); results go into BENCHMARKS.md by hand.
bench: $(STAMP)
	$(PY) bench/settle_bench.py
	$(PY) bench/app_bench.py
	$(PY) bench/pdf_bench.py

bench-load: $(STAMP)
	$(PY) bench/load_bench.py
	$(PY) bench/load_bench.py --hands 500

# Slow clients and PDF sheets beside other requests, against the real server.
bench-trust: $(STAMP)
	$(PY) bench/slow_client_bench.py
	$(PY) bench/pdf_starvation_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
