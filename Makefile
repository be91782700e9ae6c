# tinygrad_edu: two commands do all the set-up on a fresh machine with Python 3.10 or newer.
#
#   make lab     create .venv, install everything, open JupyterLab on the notebooks
#   make test    create .venv if needed, run every test (unit, parity, notebooks through nbval)
#
# Other targets: `make venv` (just the environment), `make lint` (ruff), `make bench` (benchmarks),
# `make release` (write exercises/ from solutions/), `make clean` (remove .venv).
# Use another interpreter with `make test PYTHON=python3.12`.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# Notebook folders nbval checks; each is collected once it exists.
NOTEBOOK_DIRS := $(wildcard notebooks solutions)

.PHONY: lab test venv dot lint bench release clean

# The server's root is the project, so exercises/ sit next to the lessons; the browser opens on notebooks/.
# Jupyter refuses to run as root unless told (containers often are root).
lab: venv dot
	@mkdir -p notebooks
	$(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=/lab/tree/notebooks \
		$$([ "$$(id -u)" = 0 ] && echo --allow-root)

test: venv dot
	$(BIN)/python -m pytest tests $(NOTEBOOK_DIRS) --nbval --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg

venv: $(STAMP)

# Reinstall whenever the declared dependencies change.
$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null || { \
		echo "tinygrad_edu needs Python 3.10 or newer; '$(PYTHON)' is $$($(PYTHON) --version 2>&1)."; \
		echo "Install a newer Python and run again, e.g. make $(MAKECMDGOALS) PYTHON=python3.11"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || { \
		echo "Could not create a virtual environment. On Debian/Ubuntu: sudo apt-get install python3-venv"; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

# Graphviz's `dot` lays out the computation graphs. Install it where we can (Debian, as root);
# otherwise say exactly what to install. Without it, diagrams show their DOT source instead.
dot:
	@if command -v dot >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Graphviz (Debian package graphviz) to draw computation graphs..."; \
		{ apt-get install -y -qq --no-install-recommends graphviz >/dev/null 2>&1 || \
		  { apt-get update -qq >/dev/null 2>&1 && \
		    apt-get install -y -qq --no-install-recommends graphviz >/dev/null 2>&1; }; } || \
		echo "Could not install graphviz with apt-get: run 'apt-get install graphviz' and try again."; \
	else \
		echo "Graphviz's 'dot' program is not installed: graph diagrams will show their DOT text instead."; \
		echo "Install it with one of: sudo apt-get install graphviz (Debian/Ubuntu) | sudo dnf install graphviz"; \
		echo "  (Fedora) | brew install graphviz (macOS) | conda install -c conda-forge graphviz | choco install graphviz"; \
	fi

lint: venv
	$(BIN)/ruff check .

# HIPS autograd and MyGrad are the benchmarks' peers (Python autodiff on numpy), never the library's dependencies.
bench: venv
	$(BIN)/python -m pip install --quiet autograd mygrad
	$(BIN)/python -m benchmarks

# The learners' notebooks, generated from the single source in solutions/ (answers and hidden tests removed).
# `make test` fails while exercises/ differs from what this writes (tests/test_grading.py).
release: venv
	$(BIN)/python -m tinygrad_edu.grading release

clean:
	rm -rf $(VENV)
