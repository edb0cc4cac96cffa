"""The FastAPI application of `cairn serve`.

    from cairn.interfaces.rest.app import create_app
    app = create_app("~/.cairn")           # or a cairn.config.Settings
    uvicorn.run(app, host="127.0.0.1", port=8765)

Layers: security.Guard (request id, Host, Origin, keys, rate limit, size limit) wraps
Starlette's CORSMiddleware (configured origins only), which wraps the routers (one module per
domain: routes_system, routes_notes, routes_search, routes_ingest, routes_memory,
routes_export, routes_chat), the MCP server at /mcp (cairn.interfaces.mcp, when installed) and the web
page (cairn.interfaces.web, when installed). OpenAPI at /openapi.json, docs at /docs.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
from pathlib import Path

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from cairn.config import Settings, load_settings
from cairn.interfaces.rest import errors
from cairn.interfaces.rest.runtime import Runtime
from cairn.interfaces.rest.security import Guard, install_log_redaction

log = logging.getLogger("cairn.server")


def _settings(settings_or_home) -> Settings:
    if isinstance(settings_or_home, Settings):
        return settings_or_home
    return load_settings(Path(settings_or_home).expanduser() if settings_or_home else None)


def _optional(module: str):
    """Import an optional door (MCP, web page); None when it is not built in this checkout."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and (module == exc.name or module.startswith(exc.name + ".")):
            return None
        raise


def _mount_mcp(app: FastAPI, rt: Runtime):
    """Serve the MCP server (cairn.interfaces.mcp, streamable HTTP) at /mcp, its service
    calls routed through the runtime (the MCP server audits its own tool calls). None when
    the MCP door is not in this build."""
    mod = _optional("cairn.interfaces.mcp.server")
    if mod is None or not hasattr(mod, "mount"):
        return None
    from cairn.interfaces.rest.proxy import ServiceProxy
    proxy = ServiceProxy(rt, actor="mcp", audit=False)
    return mod.mount(app, rt.settings.home, "/mcp", factory=lambda: proxy)


def _include_web(app: FastAPI, rt: Runtime) -> None:
    """Include the web page (cairn.interfaces.web) when it is in this build, giving it the
    service (through the runtime), an API-key check and the event bus."""
    web = _optional("cairn.interfaces.web")
    if web is None or not hasattr(web, "router"):
        return
    from cairn.apikeys import KeyStore
    from cairn.errors import Unauthorized
    from cairn.interfaces.rest.proxy import ServiceProxy
    keys = KeyStore(rt.home)

    def check_key(key: str) -> str | None:
        """The scope of a valid key (the page limits itself to it), None otherwise."""
        try:
            return keys.verify(key).scope
        except Unauthorized:
            return None

    def key_person(key: str) -> str | None:
        """The person (cairn.people) a valid key acts for, None otherwise."""
        try:
            return keys.verify(key).person
        except Unauthorized:
            return None

    app.state.cairn = ServiceProxy(rt, actor="web")
    app.state.cairn_lock = contextlib.nullcontext()  # the runtime serialises writes itself
    app.state.check_key = check_key
    app.state.key_person = key_person
    app.state.events = rt.events
    app.include_router(web.router)
    web.install(app)  # the page's refusals (sign in, scope, cross-site) as pages


async def _expire_exports(rt: Runtime, every_s: float = 3600.0) -> None:
    """Remove expired export files now and then every hour (Cairn.cleanup_exports, when
    this build has exports). A failure is logged and retried the next hour."""
    from cairn.service import Cairn
    if not hasattr(Cairn, "cleanup_exports"):
        return
    while not rt.stopping.is_set():
        try:
            removed = await rt.write_unaudited(lambda s: s.cleanup_exports())
            if removed:
                from cairn import audit
                audit.record(rt.home, "server", "export.cleanup", None, "ok", {"removed": removed})
                log.info("removed %d expired export file(s)", len(removed))
        except Exception as exc:  # noqa: BLE001 - housekeeping must not stop the server
            log.warning("export cleanup failed: %s", exc)
        await asyncio.sleep(every_s)


async def _repair_vectors(rt: Runtime) -> None:
    """At start-up: embed the chunks a killed process left without vectors (Cairn.repair_vectors),
    on the writer thread, in the background; `rt.repaired` is set when it has finished."""
    try:
        n = await rt.write_unaudited(lambda s: s.repair_vectors())
        if n:
            log.info("embedded %d chunk(s) left without vectors by an earlier run", n)
    except Exception as exc:  # noqa: BLE001 - a repair that fails must not stop the server
        log.warning("could not embed the chunks left without vectors: %s", exc)
    finally:
        rt.repaired.set()


async def _daily_backups(rt: Runtime, every_s: float = 3600.0) -> None:
    """With `[backup] keep` > 0: once a day (checked hourly) a snapshot of the home under
    `[backup] dir`, keeping the newest `keep` (Cairn.backup_daily). It runs on a reader, so
    writes go on meanwhile; a failure is logged and retried the next hour."""
    if rt.settings.backup.keep <= 0:
        return
    while not rt.stopping.is_set():
        try:
            taken = await rt.read(lambda s: s.backup_daily())
            if taken:
                from cairn import audit
                audit.record(rt.home, "server", "backup.daily", taken["snapshot"], "ok", {"files": taken["files"]})
        except Exception as exc:  # noqa: BLE001 - housekeeping must not stop the server
            log.warning("daily backup failed: %s", exc)
        await asyncio.sleep(every_s)


class _BusNotifier:
    """Delivers reminders to web pages and API clients as `reminder.due` events on the bus."""

    name = "web"
    reaches_person = True

    def __init__(self, bus) -> None:
        self.bus = bus

    def send(self, message) -> None:
        self.bus.publish("reminder.due", {"text": message.text, "kind": message.kind,
                                          "reminder_id": message.reminder_id, "due": message.due})


def build_scheduler(rt: Runtime):
    """The server's scheduler: every built-in job (digest, followups, export-cleanup, sync),
    delivering to the hook's channels plus the event bus; its jobs reach the service through
    the runtime (a ServiceProxy: reads on the reader pool, writes on the writer thread)."""
    from cairn.plugins import load
    from cairn.schedule.jobs import BUILTIN_JOBS
    from cairn.schedule.scheduler import Scheduler
    channels: list = [_BusNotifier(rt.events)]
    load().hook.register_notifiers(register=channels.append, settings=rt.settings, interactive=False)
    sch = Scheduler(rt.settings, channels, jobs=BUILTIN_JOBS)

    @contextlib.contextmanager
    def open_app():
        from cairn.interfaces.rest.proxy import ServiceProxy
        yield ServiceProxy(rt, actor="scheduler")
    sch.open_app = open_app
    return sch


def _start_background(rt: Runtime):
    """The scheduler loop (reminders, scheduled jobs) in a thread (build_scheduler); returns
    the stop event."""
    import threading

    from cairn.schedule.daemon import run_loop
    sch = build_scheduler(rt)
    stop = threading.Event()

    def loop():
        try:
            run_loop(sch, stop, log=lambda m: log.info("scheduler: %s", m))
        except Exception:  # noqa: BLE001 - the server keeps serving; the failure is logged
            log.exception("the scheduler stopped")
        finally:
            sch.close()
    threading.Thread(target=loop, daemon=True, name="cairn-scheduler").start()
    return stop


async def _start_telegram(settings):
    """The Telegram channel when `[telegram]` has a token and allowed users; else None."""
    from cairn.interfaces.cli_telegram import _token
    token = _token(settings, None)
    if not (token and settings.telegram.allow):
        return None
    from cairn.interfaces.telegram.bot import TelegramBot
    bot = TelegramBot(settings, token, settings.telegram.allow, settings.telegram.base_url)
    tg = bot.application()
    await tg.initialize()
    await tg.start()
    await tg.updater.start_polling()
    log.info("telegram channel running for %d allowed user(s)", len(bot.allow))
    return tg


def _docs(app: FastAPI) -> None:
    """Interactive docs at /docs, from the Swagger UI files packaged in swagger-ui-bundle-v2
    (served by this server: the page loads nothing from the internet). Without the package,
    /docs says where the schema is."""
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.responses import HTMLResponse
    try:
        from swagger_ui_bundle import swagger_ui_path
    except ImportError:
        swagger_ui_path = None
    if swagger_ui_path:
        from starlette.staticfiles import StaticFiles
        app.mount("/docs/static", StaticFiles(directory=swagger_ui_path), name="docs-static")

    @app.get("/docs", include_in_schema=False)
    async def docs():
        if not swagger_ui_path:
            return HTMLResponse("<!doctype html><title>Cairn API</title><p>The OpenAPI schema is at "
                                "<a href='/openapi.json'>/openapi.json</a>; docs/server.md lists the endpoints.")
        return get_swagger_ui_html(openapi_url="/openapi.json", title="Cairn API",
                                   swagger_js_url="/docs/static/swagger-ui-bundle.js",
                                   swagger_css_url="/docs/static/swagger-ui.css",
                                   swagger_favicon_url="/docs/static/favicon-32x32.png")


def create_app(settings_or_home=None, *, embedder=None, bind_host: str | None = None) -> FastAPI:
    """The REST application for one Cairn home (a Settings, a path, or None for the default
    home). embedder: shared by every request (tests pass a fast fake); default the packaged
    model, loaded on first use. bind_host: the address the server listens on (accepted as a
    Host header). Raises ConfigError for a bad config.toml."""
    from cairn import __version__
    from cairn.interfaces.rest import (routes_chat, routes_export, routes_ingest, routes_memory,
                                       routes_reminders,
                                       routes_notes, routes_search, routes_system)
    settings = _settings(settings_or_home)
    settings.ensure_dirs()
    rt = Runtime(settings, embedder)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        install_log_redaction()
        cleanup = asyncio.create_task(_expire_exports(rt))
        repair = asyncio.create_task(_repair_vectors(rt))
        backups = asyncio.create_task(_daily_backups(rt))
        stop_scheduler = _start_background(rt)
        try:
            telegram = await _start_telegram(settings)
        except Exception as exc:  # noqa: BLE001 - a bad token must not stop the server
            log.warning("telegram channel not started: %s", exc)
            telegram = None
        try:
            yield
        finally:
            cleanup.cancel()
            repair.cancel()
            backups.cancel()
            stop_scheduler.set()
            if telegram is not None:
                await telegram.updater.stop()
                await telegram.stop()
                await telegram.shutdown()
            rt.close()

    app = FastAPI(title="Cairn", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Your local-first memory over HTTP. Loopback callers are trusted; others "
                              "send an API key (`Authorization: Bearer KEY` or `X-API-Key`). See docs/server.md.")
    app.state.runtime = rt
    errors.install(app)
    _docs(app)
    for module in (routes_system, routes_notes, routes_search, routes_ingest, routes_memory, routes_export,
                   routes_chat, routes_reminders):
        app.include_router(module.router, responses=errors.ERROR_RESPONSES)
    app.include_router(routes_notes.undo_router, responses=errors.ERROR_RESPONSES)
    _mount_mcp(app, rt)
    _include_web(app, rt)
    if settings.server.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=list(settings.server.cors_origins),
                           allow_methods=["GET", "POST", "PUT", "DELETE"],
                           allow_headers=["Authorization", "X-API-Key", "Content-Type", "X-Request-ID",
                                          "Last-Event-ID"],
                           expose_headers=["X-Request-ID", "X-Trace-Id", "Retry-After", "X-Cairn-Warnings"])
    from cairn.interfaces.rest.backoff import FailedKeys
    app.state.failed_keys = FailedKeys()  # shared by the front door and the web page's sign-in
    app.add_middleware(Guard, settings=settings, bind_host=bind_host, failed_keys=app.state.failed_keys)
    return app
