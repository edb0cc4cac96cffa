"""The named extensions plugins register through the hooks (cairn.hookspecs): LLM backends,
parsers, importers and embedders, each a name -> callable table built once per process.

    from cairn.registries import llm_backends
    factory = llm_backends()["openai"]        # factory(spec) -> chat client

Built-ins register through the same hooks as third-party plugins (cairn.builtin_plugins:
llm_backends, parsers, embedders, importers). Registration is lazy: a built-in
registers a small function whose body imports the heavy module, so building a table imports
no model, HTTP client or parser library (`cairn search --mode keyword` loads none of them).

When two plugins register the same name the first registration wins. pluggy calls the plugins
registered last first, so a third-party plugin (loaded after the built-ins) can replace a
built-in of the same name. `reset()` forgets the tables (tests that register a plugin call it).

This module sits at the bottom of the layers (with errors, model and config): the layers
that consult a table (llm, parse, embed, ingest) import it; it reaches the plugins only
through the plugin manager, which imports them by name at run time.
"""

from __future__ import annotations

import importlib
import sys
import threading
from typing import Callable

_tables: dict[str, dict[str, Callable]] = {}
_lock = threading.RLock()  # one thread builds a table; the others wait for it

HOOKS = {"llm_backends": "register_llm_backends", "parsers": "register_parsers",
         "importers": "register_importers", "embedders": "register_embedders"}


def _table(kind: str) -> dict[str, Callable]:
    table = _tables.get(kind)
    if table is None:
        with _lock:
            table = _tables.get(kind)
            if table is None:
                table = _tables[kind] = _build(kind)
    return table


def _build(kind: str) -> dict[str, Callable]:
    """The table of `kind`, from its hook (HOOKS). When the plugin manager has not been
    imported in this process (so no plugin was registered by hand) and no third-party plugin
    can be loaded (cairn.plugin_scan.builtins_only), the one built-in module that implements
    the hook (cairn.builtin_plugins.<kind>, tests/unit/test_registries.py) is called
    directly: the same function pluggy would call, without building pluggy's plugin manager
    (~8 ms of a cold search, which looks up its embedder here). Otherwise through the plugin manager (cairn.plugins.load_for)."""
    from cairn.plugin_scan import builtins_only
    table: dict[str, Callable] = {}

    def register(name: str, value: Callable) -> None:
        if not isinstance(name, str) or not name:
            raise TypeError(f"{HOOKS[kind]}: the name must be a non-empty string, got {name!r}")
        if not callable(value):
            raise TypeError(f"{HOOKS[kind]}: {name!r} must be callable, got {value!r}")
        table.setdefault(name.lower() if kind == "llm_backends" else name, value)

    module = f"cairn.builtin_plugins.{kind}"
    if "cairn.plugins" not in sys.modules and builtins_only():
        getattr(importlib.import_module(module), HOOKS[kind])(register=register)  # by name: a layer above
    else:
        from cairn.plugins import load_for
        getattr(load_for((module,)).hook, HOOKS[kind])(register=register)
    return table


def llm_backends() -> dict[str, Callable]:
    """scheme -> factory(spec: str) returning a chat client (cairn.llm.LLM) or None ("none").
    The scheme is the spec up to its first ':' ("openai" for "openai:BASE_URL:MODEL")."""
    return _table("llm_backends")


def parsers() -> dict[str, Callable]:
    """type -> parse(data: bytes, name: str, **options) -> ParsedDocument. The type is a kind
    detect_kind returns ("pdf", "html", "markdown"...) or a file suffix (".org"), which takes
    precedence. options: ocr, asr, max_ocr_pages, dendron (a parser may ignore them)."""
    return _table("parsers")


def importers() -> dict[str, Callable]:
    """name -> import(app: cairn.service.Cairn, path: Path, progress) -> IngestReport."""
    return _table("importers")


def embedders() -> dict[str, Callable]:
    """name -> factory() returning an embedder: embed(list[str]) -> (n, dim) float32 array of
    unit vectors, and attributes model_name and dim."""
    return _table("embedders")


def reset() -> None:
    """Forget the tables: the next call asks the plugins again."""
    _tables.clear()
