"""The plugin manager: loads built-in plugins and `cairn.plugins` entry points once.

    from cairn.plugins import pm, plugin_list
    pm.hook.register_tools(register=...)

Built-ins (BUILTINS) are ordinary plugin modules registered with the same `pm.register` a
third-party package uses. Setting CAIRN_LOAD_PLUGINS="" (empty) loads no third-party plugin;
a comma-separated list loads only those entry-point names (tests use it).
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from contextlib import contextmanager

import pluggy

from cairn import hookspecs
from cairn.plugin_scan import _scan_entry_points, builtins_only, may_have_entry_points  # noqa: F401 (tests)

# Modules that implement hooks for built-in features. Each is imported lazily here, so a
# module must keep its own heavy imports inside functions.
BUILTINS: tuple[str, ...] = (
    "cairn.tools.builtin",
    "cairn.tools.export",
    "cairn.tools.content",
    "cairn.tools.sessionlog",
    "cairn.tools.artifacts",
    "cairn.tools.skills",
    "cairn.interfaces.cli_plugins",
    "cairn.schedule.notify",
    "cairn.interfaces.cli_time",
    "cairn.interfaces.cli_telegram",
    "cairn.interfaces.cli_matrix",
    "cairn.interfaces.cli_serve",
    "cairn.interfaces.cli_mcp",
    "cairn.interfaces.cli_export",
    "cairn.interfaces.cli_capture",
    "cairn.interfaces.cli_chat",
    "cairn.interfaces.cli_person",
    "cairn.interfaces.cli_persona",
    "cairn.tools.files",
    "cairn.tools.filewrite",
    "cairn.tools.shell",
    "cairn.interfaces.cli_store",
    "cairn.interfaces.cli_entities",
    "cairn.interfaces.cli_worker",
    "cairn.interfaces.cli_artifacts",
    "cairn.interfaces.cli_skills",
    "cairn.interfaces.cli_config",
    "cairn.builtin_plugins.llm_backends",
    "cairn.builtin_plugins.parsers",
    "cairn.builtin_plugins.embedders",
    "cairn.builtin_plugins.importers",
)

pm = pluggy.PluginManager("cairn")
pm.add_hookspecs(hookspecs)
_builtins_loaded = False  # set when loading starts (a plugin module's import may re-enter)
_entry_points_loaded = False
_builtins_done = False  # set when every built-in is registered
_entry_points_done = False
_lock = threading.RLock()  # threads (server readers, the writer) wait for a load under way
_errors: dict[str, str] = {}
_versions: dict[str, str] = {}  # entry-point plugin name -> its distribution's version


def load_builtins() -> pluggy.PluginManager:
    """Register the built-in plugins (once per process); returns `pm`. Cheap: no scan of
    the installed packages."""
    global _builtins_loaded, _builtins_done
    if _builtins_done:
        return pm
    with _lock:
        if not _builtins_loaded:
            _builtins_loaded = True
            for name in BUILTINS:
                if pm.get_plugin(name) is None:
                    pm.register(importlib.import_module(name), name=name)
            _builtins_done = True
    return pm


def load_entry_points() -> list[str]:
    """Register the `cairn.plugins` entry points (once per process); returns the names of
    the plugins registered by this call. Reading the entry points imports importlib.metadata
    and scans every installed distribution (~60-90 ms on the project's venv of ~360 packages,
    measured with `python -X importtime`), so the CLI calls it only when a command it does
    not know is asked for, or for help (cli.py). A third-party plugin that fails to import
    is recorded (see `plugin_list`), never fatal."""
    global _entry_points_done
    if _entry_points_done:
        return []
    with _lock:
        if _entry_points_loaded:  # done, or a plugin's import re-entered: nothing more to load
            return []
        added = _load_entry_points_once()
        _entry_points_done = True
        return added


def _load_entry_points_once() -> list[str]:
    global _entry_points_loaded
    _entry_points_loaded = True
    wanted = os.environ.get("CAIRN_LOAD_PLUGINS")
    if wanted is not None and not wanted.strip():
        return []
    if not may_have_entry_points():
        return []
    from importlib.metadata import entry_points
    allow = {w.strip() for w in wanted.split(",")} if wanted else None
    added: list[str] = []
    with stdout_to_stderr():  # a plugin's import-time chatter must not reach stdout (JSON, MCP)
        _load_entry_points(entry_points(group="cairn.plugins"), allow, added)
    return added


def load_for(modules: tuple[str, ...]) -> pluggy.PluginManager:
    """`pm` with at least the plugins a hook needs: when no third-party plugin is installed
    (cairn.plugin_scan.builtins_only: no `cairn.plugins` entry point, or CAIRN_LOAD_PLUGINS=""),
    only the built-in `modules` that implement it are registered (the rest follow when
    anything calls `load_builtins`); otherwise everything (`load`). A cold hybrid search
    looks up its embedder this way without importing every built-in (the scheduler,
    exports, tools: ~40-80 ms of CPU). Modules registered early keep their place among
    the built-ins for the hook (no other built-in implements the registry hooks: test)."""
    if _builtins_done and _entry_points_done:
        return pm
    if builtins_only():
        with _lock:
            for name in modules:
                if pm.get_plugin(name) is None:
                    pm.register(importlib.import_module(name), name=name)
        return pm
    return load()


def load() -> pluggy.PluginManager:
    """Register the built-ins and the entry-point plugins (once per process); returns `pm`."""
    load_builtins()
    load_entry_points()
    return pm


def _load_entry_points(eps, allow: set[str] | None, added: list[str]) -> None:
    for ep in eps:
        if allow is not None and ep.name not in allow:
            continue
        if pm.get_plugin(ep.name) is not None:
            continue
        try:
            pm.register(ep.load(), name=ep.name)
            added.append(ep.name)
            if getattr(ep, "dist", None) is not None:
                _versions[ep.name] = ep.dist.version
        except Exception as exc:  # a broken plugin must not take Cairn down
            _errors[ep.name] = f"{type(exc).__name__}: {exc}"
            print(f"warning: plugin {ep.name} failed to load: {exc}", file=sys.stderr)


@contextmanager
def stdout_to_stderr():
    """While inside, file descriptor 1 (and so `print`, C libraries, child processes) writes
    to stderr; the real stdout is restored after. A no-op when fd 1 or 2 cannot be duplicated."""
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError, AttributeError):
        yield
        return
    try:
        os.dup2(2, 1)
    except OSError:
        os.close(saved)
        yield
        return
    try:
        yield
    finally:
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        os.dup2(saved, 1)
        os.close(saved)


def plugin_list() -> list[dict]:
    """Every loaded plugin: [{"name", "builtin", "hooks": [hook names], "version"?, "error"?}]."""
    load()
    out = []
    for name, plugin in pm.list_name_plugin():
        hooks = sorted(h.name for h in pm.get_hookcallers(plugin) or [])
        entry = {"name": name, "builtin": name in BUILTINS, "hooks": hooks}
        if name in _versions:
            entry["version"] = _versions[name]
        out.append(entry)
    out += [{"name": n, "builtin": False, "hooks": [], "error": e} for n, e in _errors.items()]
    return out
