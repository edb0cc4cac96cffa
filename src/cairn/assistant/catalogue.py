"""The model catalogue for `/model` (PRAANA P29): the models the assistant may switch to in a
conversation, cached under the home so `/model` needs no network probe each time.

    cat = catalogue(settings)            # {"models": [{"name", "spec", "what", "source"}],
                                         #  "fetched_at", "age_s", "ttl_s", "cached"}
    spec = resolve(settings, "qwen2.5:7b")   # the spec to switch to; ValueError if unknown

The models: "none" (the intent router), "embedded" (when its package is installed), the
configured ones (`[assistant] model`, `llm`) and the models of the local servers `cairn
models` discovers on loopback (assistant/discover.py; source "discovered", named by their
model id). The discovery result is cached in `<home>/cache/models.json` for TTL_S seconds (6
hours, the seed's); `cairn models` and `/models refresh` refresh it, and a name not found in a
cached catalogue refreshes it once before it is refused. A damaged cache file counts as stale.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from cairn.assistant.discover import KNOWN

TTL_S = 6 * 3600


def _path(home: Path) -> Path:
    return Path(home) / "cache" / "models.json"


def save(home: Path, choices: dict) -> dict:
    """Write `choices` (discover.model_choices's dict) as the cached discovery; returns the entry."""
    entry = {"fetched_at": time.time(), "choices": choices}
    path = _path(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(entry, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)
    return entry


def _cached(home: Path) -> dict | None:
    try:
        entry = json.loads(_path(home).read_text(encoding="utf-8"))
        float(entry["fetched_at"])
        entry["choices"]["choices"]
        return entry
    except (OSError, ValueError, KeyError, TypeError):
        return None


def catalogue(settings, *, refresh: bool = False, ttl: float = TTL_S, ports=KNOWN) -> dict:
    """The catalogue (module docstring): from the cache when it is younger than `ttl`
    seconds and not `refresh`, else discovered now (loopback `ports`) and cached."""
    from cairn.assistant.discover import model_choices
    entry = None if refresh else _cached(settings.home)
    cached = entry is not None and time.time() - float(entry["fetched_at"]) < ttl
    if not cached:
        entry = save(settings.home, model_choices(settings, scan=True, ports=ports))
    models = []
    for c in entry["choices"]["choices"]:
        if not c.get("available"):
            continue
        spec = c["spec"]
        found = spec.startswith("openai:")
        name = spec.rsplit("/v1:", 1)[-1] if found and "/v1:" in spec else spec
        models.append({"name": name, "spec": spec, "what": c.get("what", ""),
                       "source": "discovered" if found else "builtin"})
    for spec in dict.fromkeys(x for x in (settings.assistant.model, settings.llm) if x):
        if all(m["spec"] != spec for m in models):
            models.append({"name": spec, "spec": spec, "what": "configured in config.toml", "source": "configured"})
    return {"models": models, "fetched_at": entry["fetched_at"], "age_s": round(time.time() - entry["fetched_at"], 1),
            "ttl_s": ttl, "cached": cached}


def resolve(settings, name: str, *, ports=KNOWN) -> str:
    """The spec of the catalogue model `name` (a model's name or its full spec). A name not in
    a cached catalogue refreshes it once. ValueError naming the models otherwise."""
    name = (name or "").strip()
    cat = catalogue(settings, ports=ports)
    for attempt in range(2):
        for m in cat["models"]:
            if name in (m["name"], m["spec"]):
                return m["spec"]
        if attempt == 0 and cat["cached"]:
            cat = catalogue(settings, refresh=True, ports=ports)
        else:
            break
    names = ", ".join(m["name"] for m in cat["models"]) or "none"
    raise ValueError(f"unknown model {name!r}: /model switches among configured and discovered models "
                     f"({names}); `cairn models` lists them, `cairn chat --model SPEC` takes any spec")
