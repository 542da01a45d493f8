# The two commands of the README's quick start, and the longer jobs.
#   make boot    install, then boot PC-SIG disk #1612 (a window, or this terminal without a display)
#   make test    install, then run the whole test suite (what CI runs)
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: boot test bench slow clean system-packages

# Debian packages the machine needs: the IBM PC fonts (screen and the ROM font) and Xvfb
# (window tests).  Installed when missing and when we may (root with apt-get); otherwise a note.
DEBIAN_PACKAGES := fonts-pc fonts-pc-extra xvfb
system-packages:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing $$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else echo "note: please install the Debian packages: $$missing"; fi; \
	fi

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e ".[test]"
	rm -f $(VENV)/.installed-*
	touch $@

boot: system-packages $(STAMP)
	$(VENV)/bin/pcemu boot 1612

test: system-packages $(STAMP)
	$(VENV)/bin/pytest -q

bench: $(STAMP)
	$(VENV)/bin/python benchmarks/machine_speed.py

slow: $(STAMP)
	$(VENV)/bin/pytest -q -m slow

clean:
	rm -rf $(VENV) build *.egg-info
