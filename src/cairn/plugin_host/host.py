"""Discovery of subprocess plugins and their place in the tool registry.

Executables named `cairn-plugin-*` in `<home>/plugins/` and in the folders of `[plugins]
paths` are plugins (a file must be executable and a regular file; links leaving the folder are
not followed). `PluginHost.for_settings(settings)` keeps one host per home for the process, so
a long-running server reuses the running plugins; a CLI command stops them at exit.

Registry rules: a plugin tool's name is its own unless a built-in already has it, then
"NAME.tool"; its risk is the plugin's risk hint raised to at least "medium" (Cairn cannot know
what it does, and a hint may only raise the judge's level, never lower it); it is never
marked read-only; arguments are validated against its JSON schema before they are sent.
"""

from __future__ import annotations

import atexit
import os
import threading
from pathlib import Path

from cairn.plugin_host.process import RISKS, PluginFailed, PluginProcess

PREFIX = "cairn-plugin-"
_HOSTS: dict[str, "PluginHost"] = {}
_LOCK = threading.Lock()


def discover(settings) -> list[Path]:
    """Plugin executables, sorted by name; the first of a name wins (home before paths)."""
    from cairn.plugin_host import plugin_folders
    found: dict[str, Path] = {}
    for folder in plugin_folders(settings):
        for entry in sorted(folder.iterdir()):
            if not entry.name.startswith(PREFIX) or entry.name == PREFIX:
                continue
            try:
                real = entry.resolve(strict=True)
            except (OSError, RuntimeError):  # missing, or a symlink loop (RuntimeError on 3.11)
                continue
            if entry.is_symlink() and folder.resolve() not in real.parents:
                continue  # a link leaving its folder is not a plugin
            if real.is_file() and os.access(real, os.X_OK):
                found.setdefault(entry.name, entry)
    return [found[k] for k in sorted(found)]


class PluginHost:
    """The subprocess plugins of one home."""

    def __init__(self, settings) -> None:
        self.settings = settings
        self.plugins = [PluginProcess(p, settings) for p in discover(settings)]

    @classmethod
    def for_settings(cls, settings) -> "PluginHost":
        key = str(Path(settings.home).resolve())
        with _LOCK:
            if key not in _HOSTS:
                _HOSTS[key] = cls(settings)
            return _HOSTS[key]

    def start(self) -> None:
        """Start every plugin; a plugin that fails is recorded in its health, never raised."""
        for p in self.plugins:
            try:
                p.ensure()
            except PluginFailed:
                pass

    def stop(self) -> None:
        for p in self.plugins:
            p.stop()

    def tool_specs(self) -> list[dict]:
        """Start the plugins; each tool as {"plugin", "name", "description", "parameters",
        "risk", "risk_hint", "destructive", "run"} with the module's rules applied (risk at
        least medium; run(app, arguments) calls the plugin). cairn.tools turns them into Tools."""
        self.start()
        out = []
        for p in self.plugins:
            for t in p.tools:
                out.append({"plugin": p.name, "name": t["name"],
                            "description": t["description"] or f"{t['name']} (plugin {p.name})",
                            "parameters": t["parameters"],
                            "risk": RISKS[max(RISKS.index("medium"), RISKS.index(t["risk_hint"]))],
                            "risk_hint": t["risk_hint"], "destructive": t["risk_hint"] == "high",
                            "run": _runner(p, t["name"])})
        return out

    def health(self) -> list[dict]:
        return [p.health() for p in self.plugins]


def _runner(plugin: PluginProcess, tool: str):
    def run(app, arguments: dict):
        return plugin.execute(tool, arguments)
    return run


def stop_all() -> None:
    """Stop every host's plugins (registered at exit)."""
    with _LOCK:
        hosts = list(_HOSTS.values())
        _HOSTS.clear()
    for h in hosts:
        h.stop()


atexit.register(stop_all)
