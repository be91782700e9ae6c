# tinygrad_edu: two commands do all the set-up on a fresh machine with Python 3.10 or newer.
#
#   make lab     create .venv, install everything, open JupyterLab on the notebooks
#   make test    create .venv if needed, run every test (unit, parity, notebooks through nbval)
#
# Other targets: `make venv` (just the environment), `make lint` (ruff), `make bench` (benchmarks; `make peers`
# installs the two Python libraries they compare with),
# `make release` (write exercises/ from solutions/), `make test-browser` (the lessons in JupyterLab, in headless
# Chromium), `make test-kernels` (the notebooks under each of OpenBLAS's kernels), `make clean` (remove .venv).
# Use another interpreter with `make test PYTHON=python3.12`.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings/overrides.json

# Notebook folders nbval checks; each is collected once it exists.
NOTEBOOK_DIRS := $(wildcard notebooks solutions)

.PHONY: lab test test-kernels test-browser venv dot chromium lint peers bench release clean

# The server's root is the project, so exercises/ sit next to the lessons; the browser opens on notebooks/.
# Jupyter refuses to run as root unless told (containers often are root).
# The notebooks are trusted first (a cloned notebook is not, and JupyterLab then shows no SVG and no widget of its
# stored outputs, only their PNG and text): they are the course's own.
lab: venv dot
	@mkdir -p notebooks
	@$(BIN)/jupyter trust $(wildcard notebooks/*.ipynb exercises/*.ipynb solutions/*.ipynb) >/dev/null || \
		echo "Could not trust the notebooks: JupyterLab will show their stored pictures as PNG, without widgets."
	$(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=/lab/tree/notebooks \
		$$([ "$$(id -u)" = 0 ] && echo --allow-root)

NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

# numpy's OpenBLAS picks a kernel for the CPU, and each kernel sums float32 products in its own order, which
# changes their last bits. A stored output that shows those bits would fail on a learner's machine, so the
# notebooks run twice: with the kernel picked here, then with OTHER_KERNEL (Prescott: SSE3, the oldest). One
# after the other: kernels started at the same moments by two runs made one die before it answered. Where
# numpy's BLAS is not OpenBLAS on x86-64 (Apple's Accelerate, ARM), there is one kernel: they run once.
OTHER_KERNEL ?= Prescott
OPENBLAS_X86 := import numpy, platform, sys; blas = numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]; \
	sys.exit(not ("openblas" in blas.get("name", "") and platform.machine().lower() in ("x86_64", "amd64")))

test: venv dot
	@$(BIN)/python -m pytest tests $(NOTEBOOK_DIRS) $(NBVAL); status=$$?; \
	if [ -n "$(NOTEBOOK_DIRS)" ] && $(BIN)/python -c '$(OPENBLAS_X86)'; then \
		echo "The notebooks again, with OpenBLAS's $(OTHER_KERNEL) kernel (OPENBLAS_CORETYPE=$(OTHER_KERNEL)):"; \
		OPENBLAS_CORETYPE=$(OTHER_KERNEL) $(BIN)/python -m pytest -q -p no:cacheprovider $(NOTEBOOK_DIRS) \
			$(NBVAL) || status=1; fi; \
	exit $$status

# Every kernel this numpy's OpenBLAS offers on x86-64, one after the other (about 35 s each): the check for a new
# notebook cell that prints numbers (README, "Checking a new cell").
KERNELS ?= auto Prescott Haswell SkylakeX Zen
test-kernels: venv dot
	@status=0; for kernel in $(KERNELS); do \
		echo "== OPENBLAS_CORETYPE=$$kernel"; \
		if [ $$kernel = auto ]; then env -u OPENBLAS_CORETYPE $(BIN)/python -m pytest -q -p no:cacheprovider \
			$(NOTEBOOK_DIRS) $(NBVAL) || status=1; \
		else OPENBLAS_CORETYPE=$$kernel $(BIN)/python -m pytest -q -p no:cacheprovider \
			$(NOTEBOOK_DIRS) $(NBVAL) || status=1; fi; \
	done; exit $$status

venv: $(STAMP) $(LAB_SETTINGS)

# JupyterLab saves widget state into a notebook only when told to (saveState). Without it, a lesson run, saved
# and reopened shows "Error displaying widget: model not found" where each explorer or stepper was; with it,
# each shows its last view. Set for this environment's JupyterLab, as a settings override, with JupyterLab's
# question about fetching news from the internet answered no (a course needs no news feed).
$(LAB_SETTINGS): Makefile | $(STAMP)
	@mkdir -p $(@D)
	@echo '{"@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": true},' \
		'"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}}' > $@

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

# The lessons in JupyterLab, in a real (headless) browser: stored pictures shown before running, Run All without
# errors, a stepper, an explorer, an exercise's checks (tests/browser). About two minutes.
test-browser: venv chromium
	$(BIN)/python -m pytest tests/browser -p no:cacheprovider

# Debian's Chromium, for test-browser (Playwright drives it; no browser is downloaded). Installed where we can
# (Debian, as root); otherwise we say exactly what to install.
chromium:
	@if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || [ -n "$$CHROMIUM" ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Chromium (Debian package chromium) for the browser tests..."; \
		{ apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 || \
		  { apt-get update -qq >/dev/null 2>&1 && \
		    apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1; }; } || \
		{ echo "Could not install chromium with apt-get: run 'apt-get install chromium' and try again."; exit 1; }; \
	else \
		echo "The browser tests need Chromium, which is not installed. Install it with one of:"; \
		echo "  sudo apt-get install chromium (Debian) | sudo apt-get install chromium-browser (Ubuntu)"; \
		echo "  | sudo dnf install chromium (Fedora) | brew install --cask chromium (macOS),"; \
		echo "or set CHROMIUM=/path/to/chrome-or-chromium."; exit 1; \
	fi

lint: venv
	$(BIN)/ruff check .

# HIPS autograd and MyGrad are the benchmarks' peers (Python autodiff on numpy), never the library's dependencies.
# `make peers` installs them (CI does too, so tests/test_benchmarks.py checks their timed steps compute the same step).
peers: venv
	$(BIN)/python -m pip install --quiet autograd==1.9.1 mygrad==2.5.0

bench: peers
	$(BIN)/python -m benchmarks

# The learners' notebooks, generated from the single source in solutions/ (answers and hidden tests removed).
# `make test` fails while exercises/ differs from what this writes (tests/test_grading.py).
release: venv
	$(BIN)/python -m tinygrad_edu.grading release

clean:
	rm -rf $(VENV)
