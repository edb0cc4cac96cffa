"""The settings and where each came from, the operation `Cairn.config_show` (`cairn config
show [--origin]`; PRAANA P27), and the model catalogue of `/model` (`model_catalogue`,
`model_resolve`: assistant/catalogue.py, PRAANA P29). A mixin: `self` is the Cairn. The layering itself is
config.layers / config_peek (global config, then the home's config.toml, then the
environment)."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from cairn import results as R

# Settings fields that are not config keys, and config keys stored under another name.
_NOT_KEYS = {"home", "store_url", "owner", "plugin_config"}
_KEY_NAMES = {"vault_dir": "vault"}
_SECRET = {"token", "password", "url", "api_key", "key", "secret"}


def _plain(value):
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class ConfigOps:
    """The effective settings with their origins; the model catalogue."""

    def model_catalogue(self, refresh: bool = False) -> R.ModelCatalogue:
        """The models `/model` may switch to, cached 6 h (assistant.catalogue.catalogue)."""
        from cairn.assistant.catalogue import catalogue
        return R.ModelCatalogue(catalogue(self.settings, refresh=refresh))

    def model_resolve(self, name: str) -> str:
        """The spec of catalogue model `name`; ValueError naming the models when unknown."""
        from cairn.assistant.catalogue import resolve
        return resolve(self.settings, name)

    def config_show(self) -> R.ConfigShown:
        """{"files": [{"layer": "global" | "home", "path", "exists"}], "values": [{"key",
        "value", "origin"}]}: every setting, its effective value and where it came from — the
        file that set it, "env CAIRN_LLM", or "default". A secret (a token, password, URL
        or key) shows only "[set, hidden]". Raises
        ConfigError for an unreadable config file."""
        from cairn.config import _SECTIONS, layers
        s = self.settings
        _data, origins, files = layers(s.home)
        rows = []
        for f in dataclasses.fields(s):
            if f.name in _NOT_KEYS:
                continue
            if f.name in _SECTIONS:
                for g in dataclasses.fields(getattr(s, f.name)):
                    key = f"{f.name}.{g.name}"
                    rows.append({"key": key, "value": _plain(getattr(getattr(s, f.name), g.name)),
                                 "origin": origins.get(key, "default")})
                continue
            key = _KEY_NAMES.get(f.name, f.name)
            origin = origins.get(key) or origins.get("store.url" if key == "store" else key, "default")
            rows.append({"key": key, "value": _plain(getattr(s, f.name)), "origin": origin})
        for key in sorted(k for k in origins if k.startswith("plugin.")):
            node = s.plugin_config
            for part in key.split(".")[1:]:
                node = node.get(part) if isinstance(node, dict) else None
            rows.append({"key": key, "value": _plain(node), "origin": origins[key]})
        for row in rows:  # secrets are never printed, only whether they are set
            if row["key"].rsplit(".", 1)[-1] in _SECRET and row["value"]:
                row["value"] = "[set, hidden]"
        env = {"llm": "CAIRN_LLM"}
        for row in rows:
            if row["key"] in env and os.environ.get(env[row["key"]]):
                row["origin"] = f"env {env[row['key']]}"
        return R.ConfigShown(files=[{"layer": layer, "path": str(p), "exists": there} for layer, p, there in files],
                             values=rows)
