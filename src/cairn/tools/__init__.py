"""The tool registry: one list of typed operations that the assistant, the MCP server, the
REST API and subprocess plugins all see.

A `Tool` is a name, a description, a JSON-schema for its arguments, a risk hint (none, low,
medium, high: the assistant's judge may raise it, never lower it), MCP annotations
(read_only, destructive) and a function `run(app, arguments) -> JSON-able`. Built-in tools
live in `cairn.tools.builtin`; every tool is registered through the `register_tools` hook.

    from cairn.tools import registry
    reg = registry()
    result = reg.call(app, "search", {"query": "boiler"})

Errors: `ToolNotFound` (NotFound) for an unknown name, `InvalidArguments` (InvalidInput)
when the arguments break the schema — raised before the tool runs.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass, field
from typing import Any, Callable

from cairn.errors import InvalidInput, NotFound

RISKS: tuple[str, ...] = ("none", "low", "medium", "high")
SCOPES: tuple[str, ...] = ("read", "write", "admin")  # each includes the ones before it

# The caller's API-key scope for the current request (REST, MCP over HTTP). Local callers
# (CLI, stdio MCP, loopback) are trusted: "admin". Adapters set it per request.
current_scope: contextvars.ContextVar[str] = contextvars.ContextVar("cairn_scope", default="admin")
# The person the current request acts for (the API key's person, cairn.people); None: the
# home's own person (local callers, keys without a person).
current_person: contextvars.ContextVar[str | None] = contextvars.ContextVar("cairn_person", default=None)
# The assistant session a tool call runs in (set by the assistant around each call); None
# outside a conversation (MCP, REST, plugins).
current_session: contextvars.ContextVar[str | None] = contextvars.ContextVar("cairn_session", default=None)
# True while the assistant runs a call its judge let through (low risk, or approved by the
# person): tools that must never run without that (tools/filewrite.py, tools/shell.py) check it,
# so MCP and REST, which have no judge, cannot call them.
via_assistant: contextvars.ContextVar[bool] = contextvars.ContextVar("cairn_via_assistant", default=False)

# How what the person is saying reached Cairn (cairn.model.INPUT_SOURCES): a door sets it
# around a turn that did not come in as typed text (the Telegram bot: "voice" for a voice
# note), so a note the assistant writes from it records that (`input_source`).
current_input_source: contextvars.ContextVar[str] = contextvars.ContextVar("cairn_input_source", default="text")


def required_scope(tool: "Tool") -> str:
    """The key scope a tool needs: its own `scope` when set, else "read" for read-only tools,
    "admin" for destructive ones, "write" otherwise."""
    if tool.scope:
        return tool.scope
    if tool.read_only:
        return "read"
    return "admin" if tool.destructive else "write"


def scope_allows(have: str, need: str) -> bool:
    """True when scope `have` includes `need` (read < write < admin)."""
    return SCOPES.index(have) >= SCOPES.index(need)


class ToolNotFound(NotFound):
    """No tool of that name is registered."""


class InvalidArguments(InvalidInput):
    """The arguments do not match the tool's JSON schema."""


@dataclass
class Tool:
    """One operation an assistant or client may call.

    parameters: a JSON schema of type "object". risk: the hint from RISKS. run(app, args)
    gets the `cairn.service.Cairn` and the validated arguments and returns JSON-able data.
    """

    name: str
    description: str
    parameters: dict
    run: Callable[[Any, dict], Any]
    risk: str = "low"
    read_only: bool = True
    destructive: bool = False
    source: str = "builtin"
    meta: dict = field(default_factory=dict)
    scope: str | None = None  # the key scope it needs, when not the one read_only/destructive imply

    def __post_init__(self) -> None:
        if self.risk not in RISKS:
            raise ValueError(f"tool {self.name}: risk {self.risk!r} is not one of {', '.join(RISKS)}")
        if self.scope is not None and self.scope not in SCOPES:
            raise ValueError(f"tool {self.name}: scope {self.scope!r} is not one of {', '.join(SCOPES)}")
        if self.parameters.get("type") != "object":
            raise ValueError(f"tool {self.name}: parameters must be a JSON schema of type object")

    def to_json(self) -> dict:
        """{"name", "description", "parameters", "risk", "read_only", "destructive", "source"}."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters,
                "risk": self.risk, "read_only": self.read_only, "destructive": self.destructive,
                "source": self.source}

    def openai_schema(self) -> dict:
        """The OpenAI-compatible `tools` entry: {"type": "function", "function": {...}}."""
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": self.parameters}}


def validate_arguments(tool: Tool, arguments: Any) -> dict:
    """`arguments` checked against `tool.parameters`; returns them (a dict).
    Raises InvalidArguments naming the first problem. Arguments that are certainly valid
    (fastcheck.py: the keywords Cairn's tools use) are not given to `jsonschema`, whose
    import a one-shot turn would otherwise pay; everything else is."""
    from cairn.tools.fastcheck import certainly_valid
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise InvalidArguments(f"{tool.name}: arguments must be a JSON object, got {type(arguments).__name__}")
    if certainly_valid(arguments, tool.parameters):
        return arguments
    import jsonschema
    try:
        jsonschema.validate(arguments, tool.parameters)
    except jsonschema.ValidationError as exc:
        where = ".".join(str(p) for p in exc.absolute_path)
        raise InvalidArguments(f"{tool.name}: {('argument ' + where + ': ') if where else ''}{_problem(exc)}") from None
    return arguments


_SHOWN = 120  # characters of a bad value an error message repeats


def _problem(exc) -> str:
    """jsonschema's message without the whole value it repeats: a 4,001-character question is
    "4,001 characters long; the limit is 4,000", not the question again; any other value
    longer than _SHOWN characters is cut ("'xxxx…' (5,000 characters) is not of type ...")."""
    if exc.validator == "maxLength" and isinstance(exc.instance, str):
        return f"is {len(exc.instance):,} characters long; the limit is {exc.validator_value:,}"
    shown = repr(exc.instance)
    if len(shown) > _SHOWN and shown in exc.message:
        return exc.message.replace(shown, f"{shown[:_SHOWN]}… ({len(shown):,} characters)")
    return exc.message


class ToolRegistry:
    """Tools by name. `add` replaces a tool of the same name only when `replace=True`."""

    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}

    def add(self, tool: Tool, replace: bool = False) -> None:
        if tool.name in self._tools and not replace:
            raise ValueError(f"tool {tool.name!r} is registered twice "
                             f"({self._tools[tool.name].source} and {tool.source})")
        self._tools[tool.name] = tool

    def remove(self, name: str) -> None:
        self._tools.pop(name, None)

    def get(self, name: str) -> Tool:
        try:
            return self._tools[name]
        except KeyError:
            raise ToolNotFound(f"no tool named {name!r} (`cairn tools` lists them)") from None

    def all(self) -> list[Tool]:
        return sorted(self._tools.values(), key=lambda t: t.name)

    def __contains__(self, name: str) -> bool:
        return name in self._tools

    def call(self, app, name: str, arguments: Any) -> Any:
        """Validate `arguments` against the tool's schema, then run it. No judge here: the
        assistant and the adapters decide whether a call may run (cairn.assistant)."""
        tool = self.get(name)
        return tool.run(app, validate_arguments(tool, arguments))


def registry(settings=None) -> ToolRegistry:
    """A fresh registry filled by every plugin's `register_tools` hook and, given the home's
    `settings`, by its subprocess plugins (cairn.plugin_host: started on first use)."""
    from cairn.plugins import load
    reg = ToolRegistry()
    load().hook.register_tools(register=reg.add)
    from cairn.plugin_host import plugin_folders
    if settings is not None and plugin_folders(settings):  # no folder: no plugin (and no host to import)
        from cairn.plugin_host.host import PluginHost
        add_plugin_tools(reg, PluginHost.for_settings(settings))
    return reg


def add_plugin_tools(reg: ToolRegistry, host) -> None:
    """Add the tools of subprocess plugin `host` (cairn.plugin_host.host.PluginHost) to
    `reg`: a name a built-in has already becomes "PLUGIN.NAME"; never read-only."""
    for spec in host.tool_specs():
        name = spec["name"] if spec["name"] not in reg else f"{spec['plugin']}.{spec['name']}"
        if name in reg:
            continue
        reg.add(Tool(name=name, description=spec["description"], parameters=spec["parameters"],
                     run=spec["run"], risk=spec["risk"], read_only=False, destructive=spec["destructive"],
                     source=f"plugin:{spec['plugin']}", meta={"risk_hint": spec["risk_hint"]}))
