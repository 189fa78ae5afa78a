# The two commands a newcomer needs: `make run` and `make test`.
# Each creates .venv if missing and installs the project into it first.

VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
PIP    := $(PY) -m pip --disable-pip-version-check -q
PORT   ?= 5000
HTTPS_PORT ?= 8443
AXE_VERSION := 4.14.1
AXE_SHA256  := 29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c
AXE    := tests/.axe/axe-$(AXE_VERSION).min.js
# the shell lines that install the Debian packages named in $$missing (if any)
APT_INSTALL = if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

.PHONY: run run-https restore-replica lint test test-fast bench bench-load bench-front bench-trust bench-deps print-deps system-deps https-deps clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -e '.[test]'
	touch $(STAMP)

# Debian packages, installed only where missing (as root, or with sudo).
# print-deps: what the PDF sheet needs — HarfBuzz's subsetter for WeasyPrint,
# fonts for any name (DejaVu; Noto for other scripts, CJK and emoji) and
# poppler (PDF to PNG, word boxes) for the tests. Installing the fonts takes
# ~10 s here (fonts-noto-cjk is most of it: 57 MB). system-deps: those and a
# real browser for the browser tests.
print-deps:
	@missing=""; \
	command -v pdftoppm >/dev/null || missing="$$missing poppler-utils"; \
	ls /usr/lib/*/libharfbuzz-subset.so.0 >/dev/null 2>&1 || missing="$$missing libharfbuzz-subset0"; \
	fc-list -q "DejaVu Sans Mono" 2>/dev/null || missing="$$missing fonts-dejavu-core"; \
	fc-list -q "Noto Sans Devanagari" 2>/dev/null || missing="$$missing fonts-noto-core"; \
	fc-list -q "Noto Sans CJK SC" 2>/dev/null || missing="$$missing fonts-noto-cjk"; \
	fc-list -q "Noto Color Emoji" 2>/dev/null || missing="$$missing fonts-noto-color-emoji"; \
	$(APT_INSTALL)

system-deps: print-deps https-deps
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	$(APT_INSTALL)

# Caddy, the HTTPS front (and certutil, for the browser tests to trust its local
# CA). Where systemd runs, Debian's package also starts a caddy service on :80
# and :443: one installed here is stopped and disabled again (run-https and the
# tests run their own).
https-deps:
	@missing=""; \
	command -v caddy >/dev/null || missing="$$missing caddy"; \
	command -v certutil >/dev/null || missing="$$missing libnss3-tools"; \
	$(APT_INSTALL); \
	case "$$missing" in *caddy*) [ -d /run/systemd/system ] && \
	  $$( [ "$$(id -u)" = 0 ] || echo sudo ) systemctl disable --now caddy >/dev/null 2>&1 || true;; esac

run: $(STAMP) print-deps
	$(VENV)/bin/flask --app scorekeeper init-db
	$(PY) -m scorekeeper.server.serve --port $(PORT)

# The app behind Caddy over HTTPS (scorekeeper/server/front.py): https://localhost:8443 and
# the LAN address with Caddy's own CA, or PUBLIC_URL's name with a real certificate;
# with REPLICA in instance/config.py, litestream beside them (scorekeeper/server/replica.py).
run-https: $(STAMP) print-deps https-deps
	$(VENV)/bin/flask --app scorekeeper init-db
	$(PY) -m scorekeeper.server.front --port $(PORT) --https-port $(HTTPS_PORT)

# The database back from its replica (REPLICA in instance/config.py), the server
# stopped: restored beside it, checked, then moved in (scorekeeper/server/replica.py).
# A database already there is kept unless FORCE=1 (then beside, as .replaced-<time>).
restore-replica: $(STAMP)
	$(VENV)/bin/scorekeeper restore-replica $(if $(FORCE),--force)

# The linters (pyproject.toml says which rules and which layer contracts, and why).
lint: $(STAMP)
	$(VENV)/bin/ruff check --quiet .
	$(VENV)/bin/ruff format --check --quiet .
	$(VENV)/bin/lint-imports --no-cache --no-logo

# Two workers (pytest-xdist): the browser and server tests spend much of their time
# waiting on a browser or a server, so two at once keep both cores busy (the suite
# must stay under ~10 minutes on 2 cores). `make test` runs every folder of tests/
# with hypothesis's full profile; `make test-fast`, the everyday loop (under 90 s on
# 2 cores), only the folders that need no browser and no real server, with the fast
# profile (tests/support/profiles.py; docs/engineering.md, "Tests"); a worker that is
# done takes tests from the other (worksteal), so no long test is left at the end.
FAST_TESTS := tests/test_tree.py tests/rules tests/club tests/words tests/form tests/store \
	tests/printing tests/files tests/web tests/cli tests/bench

test: $(STAMP) system-deps $(AXE) lint
	HYPOTHESIS_PROFILE=full $(PY) -m pytest -n 2

# axe-core, for the accessibility tests only (never served to phones): 650 KB of
# minified JavaScript, so fetched from the npm registry where missing instead of
# kept in git, and checked against its known sha256.
$(AXE):
	@mkdir -p $(@D)
	cd $(@D) && npm pack axe-core@$(AXE_VERSION) --silent >/dev/null && \
	  tar -xzf axe-core-$(AXE_VERSION).tgz package/axe.min.js && mv package/axe.min.js $(@F).part && \
	  rm -rf package axe-core-$(AXE_VERSION).tgz
	echo "$(AXE_SHA256)  $@.part" | sha256sum -c --quiet && mv $@.part $@

test-fast: $(STAMP) print-deps lint
	HYPOTHESIS_PROFILE=fast $(PY) -m pytest -n 2 --dist worksteal $(FAST_TESTS)

# Benchmarks (not part of `make test`): each run goes into bench/history.md, a target's figure into bench/results.json (BENCHMARKS.md's table).
bench: $(STAMP) print-deps
	$(PY) bench/settle_bench.py
	$(PY) bench/app_bench.py
	$(PY) bench/pdf_bench.py

bench-load: $(STAMP)
	$(PY) bench/load_bench.py
	$(PY) bench/load_bench.py --hands 500
	$(PY) bench/load_bench.py --hands 500 --players 3 --trust

# The club night through the HTTPS front (issue 21): the phones' polls from wrk (C),
# the saves from Python (bench/load_bench.py's docstring). First with every phone
# connected before the measured 40 s (--ramp 5), then with all of them connecting
# in its first second (a restart, or the Wi-Fi back for everyone); then a restart's own CPU.
bench-front: $(STAMP) https-deps bench-deps
	$(PY) bench/load_bench.py --front --wrk --tables 200 --viewers 400 --players 3 --hands 100 --ramp 5
	$(PY) bench/load_bench.py --front --wrk --tables 200 --viewers 400 --players 3 --hands 100
	$(PY) bench/restart_bench.py

# wrk, the load bench's client for the phones (--wrk): a Python one took as much CPU as the server
bench-deps:
	@missing=""; \
	command -v wrk >/dev/null || missing="$$missing wrk"; \
	$(APT_INSTALL)

# Slow clients and PDF sheets beside other requests, against the real server.
bench-trust: $(STAMP)
	$(PY) bench/slow_client_bench.py
	$(PY) bench/pdf_starvation_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
