# The two commands of the README. Each sets up .venv on demand (Python 3.11+).
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: run test test-full packages lint bench clean twin

# setup.py and _dds.c too: an edited C core is rebuilt (pip builds it in place)
$(STAMP): pyproject.toml setup.py engine/players/_dds.c
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "skat-table needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/skat-table simulate

# The Debian packages the tests need (Mosquitto, Chromium, pdftotext, ...): installed where
# root and apt-get can, else one line says what is missing and the target fails. First, so that
# a .venv built afterwards finds the C compiler.
packages:
	@bash tests/system-packages.sh

TEST_ENV := SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy GPIOZERO_PIN_FACTORY=mock

# The suite without the long runs (marker "full", see tests/conftest.py).
test: packages $(STAMP)
	$(VENV)/bin/ruff check .
	$(TEST_ENV) $(VENV)/bin/python -m pytest -q -n 2

# Everything: the long runs at their full size, then the club and link tests once more against
# amqtt, the embedded broker (tests/brokers.py).
test-full: packages $(STAMP)
	$(VENV)/bin/ruff check .
	$(TEST_ENV) SKAT_TEST_FULL=1 $(VENV)/bin/python -m pytest -q -n 2
	$(TEST_ENV) SKAT_TEST_FULL=1 SKAT_TEST_BROKER=amqtt $(VENV)/bin/python -m pytest -q -n 2 \
		tests/club tests/tablelink

# The twin (docs/twin.md): a QEMU VM booting Debian bookworm (arm64; TWIN_ARCH=amd64 for the
# PC's), the table installed in it by systemd/install.sh, booted, played over a USB serial
# reader board, its power cut; ends with a table of figures. The image is built once (as root)
# and cached; SKAT_TEST_FULL=1 cuts the power 30 times.
twin: $(STAMP)
	@bash twin/packages.sh
	$(TEST_ENV) SKAT_TEST_TWIN=1 $(VENV)/bin/python -m pytest -q -s tests/twin

lint: $(STAMP)
	$(VENV)/bin/ruff check .

bench: $(STAMP)
	$(VENV)/bin/skat-table bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
