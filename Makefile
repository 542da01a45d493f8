# The two commands of the README's quick start, and the longer jobs.
#   make boot    install, then boot PC-SIG disk #1612 (a window, or this terminal without a display)
#   make test    install, then run the whole test suite (what CI runs)
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: boot test bench sweep clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e ".[test]"
	rm -f $(VENV)/.installed-*
	touch $@

boot: $(STAMP)
	$(VENV)/bin/pcemu boot 1612

test: $(STAMP)
	$(VENV)/bin/pytest -q

bench: $(STAMP)
	$(VENV)/bin/python benchmarks/machine_speed.py

slow: $(STAMP)
	$(VENV)/bin/pytest -q -m slow

clean:
	rm -rf $(VENV) build *.egg-info
