"""Subprocess plugins: tools written in any language, run as separate programs (docs/plugins.md).

- rpc.py: JSON-RPC 2.0 messages, one JSON object per line.
- process.py: one plugin program: start, initialize, calls with timeouts, crash isolation,
  restart with exponential back-off, shutdown.
- host.py: discovery of `cairn-plugin-*` executables and their tools in the tool registry.
"""

from __future__ import annotations

from pathlib import Path


def plugin_folders(settings) -> list[Path]:
    """The folders plugins are looked for in: `<home>/plugins`, then `[plugins] paths`
    (relative ones under the home), those that exist. Cheap (no process machinery is
    imported): a home without any has no plugin to start (cairn.tools.registry)."""
    folders = [Path(settings.home) / "plugins"]
    folders += [(Path(settings.home) / Path(p).expanduser()).resolve() for p in settings.plugins.paths]
    return [f for f in folders if f.is_dir()]

