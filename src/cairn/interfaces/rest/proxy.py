"""`ServiceProxy`: a `Cairn` look-alike for doors that call the service synchronously (the
web page's routes, the MCP server's runner), routed through the server's `Runtime` so their
calls follow the same rules as the REST routes: reads on the reader pool (never waiting on a
write), writes on the one writer thread (serialised, audited as `actor` when `audit`).

    svc = ServiceProxy(runtime, actor="web")
    svc.search("boiler")            # runs on a reader thread, blocks this thread until done
    svc.note_create("T", "body")    # runs on the writer thread, audited as web

Attributes that are not methods (`settings`, `embedder`, `events`) come from the runtime.
Never call it from a runtime thread itself (it would wait on its own pool).
"""

from __future__ import annotations

import contextvars
import inspect
from typing import Any

# Methods that only read `settings` and hand back an object the caller keeps using on its own
# thread (a scheduler with its own connection) or a message: run in the calling thread.
LOCAL = frozenset({"scheduler", "database_error_message"})
READS = frozenset({"search", "search_batch", "ask", "status", "notes_list", "note_show", "links",
                   "unresolved_links", "memories", "memory_history", "core", "entities", "jobs",
                   "find_note", "disk_usage", "export_path", "note_context", "note_asset",
                   "sessions", "sessions_search", "session_events", "session_conversation", "session_why",
                   "session_tool_output", "session_stats", "session_scorecard"})
# Long writes: run on the runtime's bulk thread, giving way to interactive writes at each
# progress step (runtime.Runtime.give_way), each with a `progress` keyword.
BULK = frozenset({"ingest", "jobs_run", "jobs_retry", "reindex", "import_notes", "import_chat", "import_file"})


class ServiceProxy:
    """See the module docstring. `audit`: record writes in the audit log (False when the
    door audits its own calls, as the MCP server does)."""

    def __init__(self, runtime, actor: str = "web", audit: bool = True) -> None:
        self._rt = runtime
        self._actor = actor
        self._audit = audit

    @property
    def settings(self):
        return self._rt.settings

    @property
    def embedder(self):
        return self._rt.embedder

    @property
    def events(self):
        return self._rt.events

    def close(self) -> None:
        """Nothing to close: the runtime owns the connections."""

    def __getattr__(self, name: str) -> Any:
        from cairn.service import Cairn
        member = getattr(Cairn, name, None)
        if name.startswith("_") or member is None or not callable(member) or isinstance(member, property):
            raise AttributeError(f"the service has no operation {name!r}")

        if name in LOCAL:
            return lambda *args, **kwargs: member(self, *args, **kwargs)

        def call(*args, **kwargs):
            if name in BULK:  # its progress steps give way to interactive writes
                args, kwargs = _giving_way(self._rt, member, args, kwargs)

            def run(svc):
                result = getattr(svc, name)(*args, **kwargs)
                return list(result) if inspect.isgenerator(result) else result

            from cairn.tools import current_person
            person = current_person.get()  # the request's (the MCP runner carries its context)
            ctx = contextvars.copy_context()  # the door's context (store.history's actor) goes along
            if name in READS:
                return self._rt.readers.submit(ctx.run, self._rt._call, run, 10, person).result()
            if self._audit:
                job = (ctx.run, self._rt._audited, run, self._actor, f"{self._actor}.{name}",
                       str(args[0])[:200] if args else None, None, person)
            else:
                job = (ctx.run, self._rt._call, run, 60, person)
            if name in BULK:
                return self._rt.bulk.submit(*job).result()
            return self._rt.submit_interactive(*job)

        call.__name__ = name
        return call


def _giving_way(rt, member, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """(args, kwargs) of a bulk call with its `progress` callback (positional or keyword, or
    none) wrapped by `rt.progress(then=...)`, which gives way to interactive writes."""
    params = [p for p in inspect.signature(member).parameters][1:]  # without self
    at = params.index("progress") if "progress" in params else None
    if at is not None and len(args) > at:
        args = (*args[:at], rt.progress(then=args[at]), *args[at + 1:])
    elif at is not None:
        kwargs = {**kwargs, "progress": rt.progress(then=kwargs.get("progress"))}
    return args, kwargs
