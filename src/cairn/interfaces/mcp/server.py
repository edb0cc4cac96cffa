"""Cairn's MCP server (official `mcp` SDK, low-level `Server`): every tool of
`cairn.tools.registry()` (plugins' tools too) and the notes as resources `cairn://note/{id}`.

Two ways to serve it:

    run_stdio(home)            # `cairn mcp`: JSON-RPC on stdin/stdout, everything else on stderr
    mcp = http_app(home)       # streamable HTTP, an ASGI app (see McpHttpApp for mounting)

Tool calls go through `cairn.tools.invoke.invoke` (scope check, schema check, audit with actor
"mcp", the CLI's error messages): a failing call is an MCP tool error (`isError: true`) whose
text is the message the CLI prints after "error: "; `structuredContent` carries
{"error": category, "message": text, ...the error's own fields as REST sends them (an edit
conflict's path, expected_hash, current_hash, current_body)}. An unknown tool name or resource URI is a JSON-RPC
error (-32602, "invalid params") with the same message.

The caller's scope: over stdio the local person ("admin"); over HTTP the value of
`cairn.tools.current_scope` in the request's context when the request reached the MCP app
(the REST layer's auth middleware sets it), read again for every request.
"""

from __future__ import annotations

import json
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable
from urllib.parse import quote, unquote

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from cairn.errors import user_message
from cairn.interfaces.mcp.runner import ServiceRunner
from cairn.tools import SCOPES, ToolRegistry, current_scope, registry

log = logging.getLogger(__name__)

NOTE_URI = "cairn://note/"
NOTE_TEMPLATE = "cairn://note/{id}"
RESOURCE_PAGE = 100  # notes per resources/list page
SCOPE_KEY = "cairn.scope"  # ASGI scope key where McpHttpApp keeps the request's key scope
ACTOR = "mcp"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("cairn")
    except PackageNotFoundError:
        return "0"


def mcp_tool(tool) -> types.Tool:
    """A `cairn.tools.Tool` as an MCP tool: name, description, JSON schema and the
    read-only / destructive hints (destructiveHint is false for additive writes)."""
    return types.Tool(
        name=tool.name, description=tool.description, input_schema=tool.parameters,
        annotations=types.ToolAnnotations(
            title=tool.name.replace("_", " "), read_only_hint=tool.read_only,
            destructive_hint=None if tool.read_only else tool.destructive,
            idempotent_hint=True if tool.read_only else None, open_world_hint=tool.name == "ingest_url"))


def _request_scope(ctx) -> str:
    """The key scope of the request behind `ctx`: the one McpHttpApp stored in the HTTP
    request's ASGI scope, else the context's `current_scope` (stdio: "admin")."""
    request = getattr(ctx, "request", None)
    scope = getattr(request, "scope", None)
    if isinstance(scope, dict) and scope.get(SCOPE_KEY) in SCOPES:
        return scope[SCOPE_KEY]
    return current_scope.get()


def _caller(ctx) -> str | None:
    """Who is calling over HTTP, when the host's auth middleware says so
    (`scope["state"]["principal"]["actor"]`, e.g. "key:laptop"); None over stdio."""
    scope = getattr(getattr(ctx, "request", None), "scope", None)
    state = scope.get("state") if isinstance(scope, dict) else None
    principal = state.get("principal") if isinstance(state, dict) else None
    actor = principal.get("actor") if isinstance(principal, dict) else None
    return actor if isinstance(actor, str) else None


def _result(outcome) -> types.CallToolResult:
    if not outcome.ok:
        from cairn.interfaces.door_words import MCP, for_door
        said = for_door(outcome.message, MCP)  # "`cairn note update`" -> "the `update_note` tool"
        return types.CallToolResult(
            content=[types.TextContent(text=said or "error")], is_error=True,
            structured_content=json.loads(json.dumps(
                {**(outcome.details or {}), "error": outcome.category, "message": said}, default=str)))
    data = outcome.result
    text = json.dumps(data, ensure_ascii=False, indent=2, default=str)
    structured = data if isinstance(data, dict) else {"result": data}
    return types.CallToolResult(content=[types.TextContent(text=text)],
                                structured_content=json.loads(json.dumps(structured, default=str)))


def build_server(runner: ServiceRunner, reg: ToolRegistry | None = None, *,
                 transport: str = "stdio") -> Server:
    """The MCP `Server` for the tools of `reg` (default: `registry()`) over the Cairn of
    `runner`. `transport` ("stdio" or "http") goes into each audit entry's detail."""
    if reg is None:  # built-in and plugin tools, the home's subprocess plugins among them
        from cairn.config import load_settings
        try:
            reg = registry(load_settings(runner.home))
        except Exception as exc:  # noqa: BLE001 - a bad config.toml: serve the built-ins, say why
            log.warning("subprocess plugins not loaded: %s", exc)
            reg = registry()

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[mcp_tool(t) for t in reg.all()])

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        from cairn.tools.invoke import invoke
        if params.name not in reg:
            raise MCPError(types.INVALID_PARAMS, f"no tool named {params.name!r} (tools/list lists them)")
        scope = _request_scope(ctx)
        arguments = params.arguments if params.arguments is not None else {}
        detail = {"transport": transport}
        if (caller := _caller(ctx)) is not None:
            detail["caller"] = caller
        try:
            outcome = await runner.run(lambda app: invoke(app, reg, params.name, arguments, actor=ACTOR,
                                                          scope=scope, detail=detail))
        except Exception as exc:  # noqa: BLE001 - the service could not even be opened
            from cairn.tools.invoke import ToolOutcome
            outcome = ToolOutcome(False, message=user_message(exc), category="unavailable")
        return _result(outcome)

    async def list_resources(ctx, params) -> types.ListResourcesResult:
        try:
            offset = int(params.cursor) if params is not None and params.cursor else 0
        except ValueError:
            raise MCPError(types.INVALID_PARAMS, f"bad cursor {params.cursor!r}") from None
        page = await _service(runner, lambda app: app.notes_list(limit=RESOURCE_PAGE, offset=max(0, offset)))
        resources = [types.Resource(uri=NOTE_URI + quote(n["id"], safe=""), name=n["title"] or n["path"],
                                    title=n["title"], description=f"{n['type']} note {n['path']}",
                                    mime_type="text/markdown") for n in page["notes"]]
        end = page["offset"] + len(page["notes"])
        return types.ListResourcesResult(resources=resources,
                                         next_cursor=str(end) if end < page["total"] else None)

    async def list_templates(ctx, params) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[types.ResourceTemplate(
            uri_template=NOTE_TEMPLATE, name="note", title="A note of the vault",
            description="One note by id (also accepts a title, alias or vault path): its markdown body.",
            mime_type="text/markdown")])

    async def read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if not uri.startswith(NOTE_URI) or not uri[len(NOTE_URI):]:
            raise MCPError(types.INVALID_PARAMS, f"unknown resource {uri!r}: Cairn serves {NOTE_TEMPLATE}")
        ref = unquote(uri[len(NOTE_URI):])
        note = await _service(runner, lambda app: app.note_show(ref))
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, mime_type="text/markdown", text=note["body"],
            meta={"id": note["id"], "title": note["title"], "path": note["path"], "type": note["type"],
                  "tags": note["tags"]})])

    return Server("cairn", version=_version(), title="Cairn",
                  instructions="Cairn is the person's local memory: search and ask their notes, read "
                               "notes (resources cairn://note/{id}), remember and recall facts about them.",
                  on_list_tools=list_tools, on_call_tool=call_tool, on_list_resources=list_resources,
                  on_list_resource_templates=list_templates, on_read_resource=read_resource)


async def _service(runner: ServiceRunner, fn: Callable[[Any], Any]) -> Any:
    """`fn(app)` on the runner; an error becomes a JSON-RPC error carrying the CLI's message
    (-32602 for a bad or unknown reference, -32603 otherwise): resources have no isError."""
    from cairn.tools.invoke import failure

    def call(app):
        try:
            return True, fn(app)
        except Exception as exc:  # noqa: BLE001 - mapped below
            return False, failure(app, exc)
    try:
        ok, value = await runner.run(call)
    except Exception as exc:  # noqa: BLE001 - the service could not even be opened
        raise MCPError(types.INTERNAL_ERROR, user_message(exc)) from None
    if not ok:
        code = types.INVALID_PARAMS if value.category in ("not_found", "invalid_input") else types.INTERNAL_ERROR
        raise MCPError(code, value.message)
    return value


# ---------------------------------------------------------------- stdio
def run_stdio(home: str | Path | None = None, *, scope: str = "admin",
              factory: Callable[[], Any] | None = None) -> None:
    """Serve MCP over this process's stdin/stdout until stdin closes (`cairn mcp`).

    Only JSON-RPC reaches the real stdout (case B32): the SDK's stdio transport moves the
    wire to a private descriptor and points fd 1 at stderr while serving, and we enter it
    before anything else is set up (the index, the embedder), so prints, banners, progress
    bars and C libraries writing to fd 1 land on stderr. When stdin closes, requests already
    received are answered before the server stops (drain.py). `scope` limits the tools
    the client may call ("read": read-only tools only; default "admin": all)."""
    import anyio
    from mcp.server.stdio import stdio_server

    async def main() -> None:
        from cairn.interfaces.mcp.drain import drain_on_eof
        async with stdio_server() as (wire_in, wire_out), drain_on_eof(wire_in, wire_out) as (read, write):
            runner = ServiceRunner(home, factory=factory)
            try:
                server = build_server(runner, transport="stdio")
                await server.run(read, write, server.create_initialization_options())
            finally:
                runner.close()

    if scope not in SCOPES:
        raise ValueError(f"scope {scope!r} is not one of {', '.join(SCOPES)}")
    token = current_scope.set(scope)
    try:
        anyio.run(main)
    finally:
        current_scope.reset(token)


# ---------------------------------------------------------------- streamable HTTP
class McpHttpApp:
    """The MCP server over streamable HTTP, as an ASGI app.

    Standalone (`uvicorn.run(http_app(home))`): it answers the ASGI lifespan itself.
    Mounted in another app (`cairn serve`): route the MCP path to it and run `lifespan()`
    inside the host app's lifespan (`mount(fastapi_app, home)` does both). It accepts any
    path, so `Route("/mcp", endpoint=mcp)` and `Mount("/mcp", app=mcp)` both work.

    Each HTTP request's key scope is `cairn.tools.current_scope` as set in the request's
    context by the host's auth middleware (default "admin": standalone it is for trusted
    loopback callers only). Host/Origin checks are the host's job unless `transport_security`
    (mcp.server.transport_security.TransportSecuritySettings) is given.

    Service calls run on `workers` threads (default 2, each with its own Cairn; 4 when a
    `factory` is given; the factory is called once per thread and returns a new Cairn or a
    thread-safe service such as `cairn serve`'s proxy).
    """

    def __init__(self, home: str | Path | None = None, *, factory: Callable[[], Any] | None = None,
                 reg: ToolRegistry | None = None, transport_security=None, json_response: bool = False,
                 workers: int | None = None):
        from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
        self.runner = ServiceRunner(home, factory=factory, workers=workers or (4 if factory else 2))
        self.server = build_server(self.runner, reg, transport="http")
        self.session_manager = StreamableHTTPSessionManager(
            app=self.server, json_response=json_response, security_settings=transport_security)

    @asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        """Run the session manager (once per McpHttpApp); on exit close the sessions and
        the Cairn."""
        try:
            async with self.session_manager.run():
                yield
        finally:
            self.runner.close()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan_protocol(receive, send)
            return
        if scope["type"] != "http":
            return
        scope = {**scope, SCOPE_KEY: current_scope.get()}
        await self.session_manager.handle_request(scope, receive, send)

    async def _lifespan_protocol(self, receive, send) -> None:
        message = await receive()
        if message["type"] != "lifespan.startup":
            return
        cm = self.lifespan()
        try:
            await cm.__aenter__()
        except Exception as exc:  # noqa: BLE001 - reported to the ASGI server
            await send({"type": "lifespan.startup.failed", "message": str(exc)})
            return
        await send({"type": "lifespan.startup.complete"})
        await receive()  # lifespan.shutdown
        await cm.__aexit__(None, None, None)
        await send({"type": "lifespan.shutdown.complete"})


def http_app(home: str | Path | None = None, **kwargs) -> McpHttpApp:
    """The streamable-HTTP MCP server for `home` as an ASGI app (see McpHttpApp; kwargs:
    factory, reg, transport_security, json_response, workers)."""
    return McpHttpApp(home, **kwargs)


def mount(app, home: str | Path | None = None, path: str = "/mcp", **kwargs) -> McpHttpApp:
    """Serve MCP at `path` of a Starlette/FastAPI `app`: adds the route (`path` and
    `path/`) and wraps the app's lifespan so the MCP session manager runs inside it.
    Returns the McpHttpApp. Call before the app starts."""
    from starlette.routing import Route
    mcp_app = http_app(home, **kwargs)
    router = app.router
    router.routes.append(Route(path, endpoint=mcp_app))
    router.routes.append(Route(path.rstrip("/") + "/", endpoint=mcp_app))
    inner = router.lifespan_context

    @asynccontextmanager
    async def lifespan(host):
        async with mcp_app.lifespan():
            async with inner(host) as state:
                yield state

    router.lifespan_context = lifespan
    return mcp_app
