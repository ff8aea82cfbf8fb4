# The two commands of the README. Each sets up .venv on demand (Python 3.11+).
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

# setup.py and _dds.c too: an edited C core is rebuilt (pip builds it in place)
$(STAMP): pyproject.toml setup.py engine/players/_dds.c
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "skat-table needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/skat-table simulate

test: $(STAMP)
	$(VENV)/bin/ruff check .
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy GPIOZERO_PIN_FACTORY=mock $(VENV)/bin/python -m pytest -q -n 2

lint: $(STAMP)
	$(VENV)/bin/ruff check .

bench: $(STAMP)
	$(VENV)/bin/skat-table bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
