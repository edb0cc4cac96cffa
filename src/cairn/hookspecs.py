"""Cairn's extension points: every hook, as an empty function with its contract.

One mechanism (pluggy), as datasette and simonw/llm do it: built-in features register
through these same hooks (`cairn.plugins.BUILTINS`), third-party packages through the
`cairn.plugins` entry point group. Each hook receives a `register` callable (or the object to
extend) and returns nothing.
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("cairn")
hookimpl = pluggy.HookimplMarker("cairn")


@hookspec
def register_commands(cli):
    """Add typer commands or sub-apps to the `cairn` command line (`cli` is the typer.Typer)."""


@hookspec
def register_tools(register):
    """Add assistant/MCP/REST tools: call `register(tool)` with a `cairn.tools.Tool`."""


@hookspec
def register_parsers(register):
    """Add file parsers: `register(type_name, parse_function)`; see cairn.parse."""


@hookspec
def register_importers(register):
    """Add JSONL/export importers: `register(name, import_function)`."""


@hookspec
def register_embedders(register):
    """Add embedding models: `register(name, factory)`; factory() returns an object with
    `embed(list[str]) -> (n, dim) float32 array` and `model_name`."""


@hookspec
def register_llm_backends(register):
    """Add language-model backends: `register(scheme, factory)`; factory(spec: str) returns a
    chat client (see cairn.llm)."""


@hookspec
def register_notifiers(register, settings, interactive):
    """Add delivery channels for reminders and proactive messages: `register(notifier)` with
    an object having `name` and `send(cairn.schedule.notify.Message)` (raises
    DeliveryFailed). `settings`: the home's Settings; `interactive`: a terminal is watching."""
