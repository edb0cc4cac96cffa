"""First run (`cairn setup`, issue 32): find a local OpenAI-compatible model server on
loopback (Ollama, llama.cpp's server, LM Studio: discover.py), list its models and let the
person choose one as the assistant's model. A server found is never used unless the person
chooses: interactively (the adapter's `ask`), or for a script with `yes` (the first model
offered) or `model=NAME`. With nothing found, or nothing chosen, the configuration stays as
it is (default `none`: the offline understanding layer). The choice is written with the
`cairn models --use` code (choose.py), which keeps every other line of config.toml.

    res = run_setup(home, ask=lambda offers: 0)     # the first offer
    res.to_json()   # {"found", "previous", "chosen", "model", "default", "config"}

Errors: InvalidInput (nothing written) for a `model` that is no spec and no model a found
server lists, for an `ask` answer outside the offers, and for a config that cannot be read
or written (choose.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from cairn.assistant.discover import KNOWN, LocalServer, find_local_servers

#: Words that name a spec without a server: the offline default and the packaged model.
PLAIN_SPECS = ("none", "embedded")
#: How a full model spec begins (cairn.assistant.models.get_model reads the rest).
SPEC_PREFIXES = ("openai:", "anthropic:", "embedded:")


@dataclass
class Offer:
    """One model a found server lists: its `spec`, the model `id` and the `server` name."""

    spec: str
    id: str
    server: str
    base_url: str

    def label(self) -> str:
        """"MODEL (SERVER at BASE_URL)", as the person is shown it."""
        return f"{self.id} ({self.server} at {self.base_url})"


@dataclass
class SetupResult:
    """What `run_setup` found and did: `found` servers, `previous` model spec, `chosen` spec
    (None: nothing chosen, nothing written), `model` (the spec `cairn chat` uses now),
    `config` (the config.toml written, or None)."""

    found: list[LocalServer] = field(default_factory=list)
    previous: str = "none"
    chosen: str | None = None
    model: str = "none"
    config: Path | None = None

    def offers(self) -> list[Offer]:
        """Every model of the found servers (offers_of)."""
        return offers_of(self.found)

    def to_json(self) -> dict:
        """{"found": [{"name", "base_url", "models", "specs"}], "previous", "chosen" (null when
        nothing was chosen), "model", "default" ("none"), "config" (path or null)}."""
        from cairn.llm import default_llm_spec
        return {"found": [s.to_json() for s in self.found], "previous": self.previous, "chosen": self.chosen,
                "model": self.model, "default": default_llm_spec(),
                "config": str(self.config) if self.config else None}


def offers_of(found: list[LocalServer]) -> list[Offer]:
    """Every model of every found server, in the order found."""
    return [Offer(spec, m, s.name, s.base_url) for s in found for m, spec in zip(s.models, s.specs())]


def pick(offers: list[Offer], name: str) -> str:
    """The spec `name` stands for: a model id (or spec) a found server lists, "none",
    "embedded", or a full spec ("openai:URL:MODEL", ...: its form is checked when written).
    InvalidInput when it is none of these (the message names what was found)."""
    from cairn.errors import InvalidInput
    name = (name or "").strip()
    for o in offers:
        if name in (o.id, o.spec):
            return o.spec
    if name in PLAIN_SPECS or name.startswith(SPEC_PREFIXES):
        return name
    listed = ", ".join(o.id for o in offers) or "no server was found"
    raise InvalidInput(f"no model {name!r} on the servers found ({listed}); give one of those, "
                       f"{' or '.join(PLAIN_SPECS)}, or a full spec such as openai:BASE_URL:MODEL")


def _current(home: Path) -> str:
    from cairn.config import load_settings
    from cairn.llm import default_llm_spec
    s = load_settings(home)
    return s.assistant.model or s.llm or default_llm_spec()


def run_setup(home: Path, *, ports: tuple[tuple[str, int], ...] = KNOWN, model: str | None = None,
              yes: bool = False, ask: Callable[[list[Offer], str], int | None] | None = None) -> SetupResult:
    """Probe `ports` on loopback, then choose: `model` NAME (pick), else with `yes` the
    first offer, else `ask(offers, current)` -> index into offers or None (keep the current
    model); `ask` is called only when something was found. The choice is written to
    `home`/config.toml unless it is the current model already. Raises InvalidInput (module
    docstring); a ConfigError of a broken config.toml is raised by the settings loader."""
    from cairn.assistant.choose import choose_model
    from cairn.errors import InvalidInput
    res = SetupResult(previous=_current(home))
    res.model = res.previous
    res.found = find_local_servers(ports)
    offers = offers_of(res.found)
    if model is not None:
        res.chosen = pick(offers, model)
    elif yes and offers:
        res.chosen = offers[0].spec
    elif ask is not None and offers:
        i = ask(offers, res.previous)
        if i is not None:
            if not 0 <= i < len(offers):
                raise InvalidInput(f"not one of the models offered (1-{len(offers)}): nothing was changed")
            res.chosen = offers[i].spec
    if res.chosen is not None and res.chosen != res.previous:
        res.config = choose_model(home, res.chosen)
        res.model = _current(home)
    return res
