"""`cairn serve` (the REST API, docs/server.md), `cairn keys create|list|revoke` (API keys)
and `cairn audit` (the audit log of writes). Heavy imports (fastapi, uvicorn) stay inside
the commands so `cairn --help` stays fast."""

from __future__ import annotations

import json
import sys
from typing import Optional

import typer

from cairn.hookspecs import hookimpl

keys_app = typer.Typer(help="API keys for callers outside this machine (shown once, stored hashed).",
                       no_args_is_help=True)


def _home():
    from cairn.cli import STATE
    return STATE["home"]


def _settings():
    from cairn.cli import _fail
    from cairn.config import ConfigError, load_settings
    try:
        settings = load_settings(_home())
        settings.ensure_dirs()
        return settings
    except (ConfigError, OSError, RuntimeError) as exc:
        _fail(str(exc))


def _listening_socket(host: str, port: int):
    """A TCP socket bound to (host, port) for uvicorn to serve on. Exits with code 1 and
    `error: cannot listen on HOST:PORT: <reason>` when the address cannot be bound (a port in
    use by another `cairn serve`, an address not on this machine, a privileged port): uvicorn
    itself announced nothing useful then, logged the OS error among INFO lines and exited 3."""
    import socket
    from cairn.cli import _fail
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn's own bind
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        _fail(f"cannot listen on {where}: {(exc.strerror or str(exc)).lower()} (another `cairn serve` or "
              "program may hold it: stop it, or choose another port with --port or [server] port)")
    return sock


def serve(host: Optional[str] = typer.Option(None, "--host", help="Address to listen on (default: "
                                             "\\[server] host, 127.0.0.1)."),
          port: Optional[int] = typer.Option(None, "--port", min=1, max=65535,
                                             help="Port (default: \\[server] port, 8765).")) -> None:
    """Serve the REST API, live events, the MCP server (/mcp) and the web page.
    Loopback callers are trusted; any other needs an API key (`cairn keys create`)."""
    from cairn.cli import _fail, err
    from cairn.interfaces.rest.security import is_loopback
    settings = _settings()
    host = host or settings.server.host
    port = port or settings.server.port
    local = host in ("localhost",) or is_loopback(host)
    from cairn.apikeys import KeyStore
    if not local and KeyStore(settings.home).active() == 0:
        _fail(f"refusing to listen on {host}: callers from other machines need an API key and none "
              f"exists. Create one first: `cairn keys create NAME --scope read` (then send it as "
              f"`Authorization: Bearer KEY`), or listen on 127.0.0.1 only")
    sock = _listening_socket(host, port)  # before anything is opened or announced
    import uvicorn

    from cairn.interfaces.rest.app import create_app
    try:
        app = create_app(settings, bind_host=host)
    except (ValueError, OSError) as exc:
        _fail(str(exc))
    rt = app.state.runtime

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):  # SIGINT/SIGTERM: running ingest stops at its next step
            rt.stopping.set()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, host=host, port=port, log_level="info", timeout_graceful_shutdown=10,
                            proxy_headers=False, server_header=False)
    server = Server(config)
    err.print(f"Cairn serving {settings.home} on http://{'[' + host + ']' if ':' in host else host}:{port} "
              f"(docs at /docs; Ctrl-C stops)")
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    if not server.started and not rt.stopping.is_set():
        raise typer.Exit(1)
    err.print("stopped: what was stored is kept; unfinished ingest jobs stay queued (`cairn jobs run`)")


@keys_app.command("create")
def keys_create(name: str = typer.Argument(..., help="A name for the key (who or what uses it)."),
                scope: str = typer.Option("read", "--scope", help="read | write | admin"),
                person: Optional[str] = typer.Option(None, "--person",
                                           help="The person the key acts for: it sees only their notes, "
                                                "memories and shared notes (default: the home's own person)."),
                json_out: bool = typer.Option(False, "--json")) -> None:
    """Create an API key. The key is printed once: store it now; only its hash is kept."""
    from cairn import audit
    from cairn.apikeys import KeyStore
    from cairn.cli import _fail, err, out
    from cairn.errors import CairnError
    settings = _settings()
    try:
        key, token = KeyStore(settings.home).create(name, scope, person)
    except CairnError as exc:
        _fail(exc.message)
    audit.record(settings.home, "cli", "key.create", key.name, "ok", {"scope": key.scope, "id": key.id, "person": key.person})
    if json_out:
        sys.stdout.write(json.dumps({**key.to_json(), "key": token}) + "\n")
        return
    out.print(token, markup=False)
    err.print(f"key {key.name} ({key.id}, scope {key.scope}) created — copy it now, it is not shown again")


@keys_app.command("list")
def keys_list(json_out: bool = typer.Option(False, "--json")) -> None:
    """List API keys (never their secrets)."""
    from cairn.apikeys import KeyStore
    from cairn.cli import out
    keys = KeyStore(_settings().home).list()
    if json_out:
        sys.stdout.write(json.dumps([k.to_json() for k in keys], indent=2) + "\n")
        return
    if not keys:
        out.print("no API keys (`cairn keys create NAME`)")
    for k in keys:
        state = f"revoked {k.revoked}" if k.revoked else "active"
        out.print(f"{k.id}  {k.name:20} {k.scope:6} created {k.created}  {state}", markup=False)


@keys_app.command("revoke")
def keys_revoke(ref: str = typer.Argument(..., help="The key's name or id.")) -> None:
    """Revoke an API key: refused from the next request on (also by a running server)."""
    from cairn import audit
    from cairn.apikeys import KeyStore
    from cairn.cli import _fail, out
    from cairn.errors import CairnError
    settings = _settings()
    try:
        key = KeyStore(settings.home).revoke(ref)
    except CairnError as exc:
        _fail(exc.message)
    audit.record(settings.home, "cli", "key.revoke", key.name, "ok", {"id": key.id})
    out.print(f"revoked {key.name} ({key.id})", markup=False)


def audit_cmd(limit: int = typer.Option(50, "--limit", min=1, max=100000, help="Newest N entries."),
              action: Optional[str] = typer.Option(None, "--action", help="Only actions starting with this."),
              json_out: bool = typer.Option(False, "--json")) -> None:
    """Show the audit log: every write (who, what, when, outcome), oldest first."""
    from cairn import audit
    from cairn.cli import out
    import os
    from cairn.people import check_person
    # a named person (env CAIRN_PERSON, cairn.people) sees only the entries made for them
    items = audit.entries(_settings().home, limit, action, check_person(os.environ.get("CAIRN_PERSON")))
    if json_out:
        sys.stdout.write(json.dumps(items, ensure_ascii=False, indent=2) + "\n")
        return
    if not items:
        out.print("the audit log is empty")
    for e in items:
        out.print(f"{e.get('at')}  {e.get('actor'):14} {e.get('action'):18} {e.get('outcome'):7} "
                  f"{e.get('target') or ''}", markup=False)


@hookimpl
def register_commands(cli):
    cli.command("serve")(serve)
    cli.add_typer(keys_app, name="keys")
    cli.command("audit")(audit_cmd)
