"""A checked tool call for the doors that expose tools to programs (MCP, REST): the caller's
scope is checked, the arguments validated against the tool's schema, the tool run, every
write (and every denied call) recorded in the audit log, and any error turned into the
one-line message the CLI prints for it.

    from cairn.tools import registry
    from cairn.tools.invoke import invoke
    out = invoke(app, registry(), "get_note", {"note": "Boiler"}, actor="mcp")
    out.ok, out.result, out.message, out.category

The scope is `scope` when given, else `cairn.tools.current_scope` (the adapters set it per
request; local callers are "admin"). No exception escapes except KeyboardInterrupt /
SystemExit: a bug becomes an "internal" outcome and its traceback goes to the log (stderr).
"""

from __future__ import annotations

import logging
import os
import sqlite3
from dataclasses import dataclass
from typing import Any

from cairn.errors import Forbidden, category_of, user_message
from cairn.tools import ToolNotFound, ToolRegistry, current_scope, required_scope, scope_allows

log = logging.getLogger(__name__)

# Argument names that say which thing a call is about, for the audit entry's `target`.
_TARGET_KEYS = ("note", "memory_id", "title", "url", "name", "query", "question")
_DETAIL_CHARS = 200  # long arguments (note bodies) are cut in the audit entry


@dataclass
class ToolOutcome:
    """What one checked call produced: ok with `result` (JSON-able), or not ok with
    `message` (the CLI's one-line text), `category` (cairn.errors categories, plus
    "internal" for a bug) and `details` (the error's own fields, as REST sends them: an edit
    conflict's path, expected_hash, current_hash, current_body)."""

    ok: bool
    result: Any = None
    message: str | None = None
    category: str | None = None
    details: dict | None = None

    def to_json(self) -> dict:
        """{"ok": true, "result": ...} or {"ok": false, "error": category, "message": str}."""
        if self.ok:
            return {"ok": True, "result": self.result}
        return {"ok": False, "error": self.category, "message": self.message}


def _short(arguments: Any) -> Any:
    if isinstance(arguments, dict):
        return {k: _short(v) for k, v in arguments.items()}
    if isinstance(arguments, list):
        return [_short(v) for v in arguments[:20]]
    if isinstance(arguments, str) and len(arguments) > _DETAIL_CHARS:
        return arguments[:_DETAIL_CHARS] + f"... ({len(arguments)} characters)"
    return arguments


def _target(arguments: Any, result: Any) -> str | None:
    """What a call was about: the id (or export name) in its result, else an argument."""
    if isinstance(result, dict):
        memory = result.get("memory")
        for value in (result.get("id"), memory.get("id") if isinstance(memory, dict) else None,
                      result.get("name")):
            if isinstance(value, str):
                return value
    if isinstance(arguments, dict):
        for key in _TARGET_KEYS:
            if isinstance(arguments.get(key), str):
                return arguments[key][:_DETAIL_CHARS]
    return None


def _plain(message: str, app) -> str:
    from cairn.redact_paths import without_paths
    return without_paths(message, app.settings)


def failure(app, exc: BaseException) -> ToolOutcome:
    """The outcome for an exception a service call raised on `app` (messages as the CLI's
    `_service`: SQLite busy/read-only wording, unavailable models, user errors; a bug is
    "internal" and logged with its traceback). Messages name no absolute path of this
    machine (cairn.redact_paths)."""
    from cairn.store.damaged import is_damaged_error
    if isinstance(exc, sqlite3.OperationalError) or is_damaged_error(exc):  # busy, read-only, damaged
        return ToolOutcome(False, message=_plain(app.database_error_message(exc), app), category="unavailable")
    from cairn.config import HomeNotWritable
    from cairn.embed import EmbedderUnavailable
    from cairn.llm.errors import LLMUnavailable
    from cairn.store.db import IndexOpenError
    if isinstance(exc, (EmbedderUnavailable, LLMUnavailable, IndexOpenError, HomeNotWritable)):
        return ToolOutcome(False, message=_plain(str(exc), app), category="unavailable")
    category = category_of(exc)
    if category == "internal":
        log.exception("tool call failed with a bug")
        return ToolOutcome(False, message=_plain(f"internal error: {type(exc).__name__}: {exc}", app),
                           category="internal")
    return ToolOutcome(False, message=_plain(user_message(exc), app), category=category,
                       details=getattr(exc, "details", None) or None)


def invoke(app, reg: ToolRegistry, name: str, arguments: Any, *, actor: str,
           scope: str | None = None, detail: dict | None = None) -> ToolOutcome:
    """Run tool `name` for `actor` (e.g. "mcp") on `app` (a cairn.service.Cairn).

    Order: unknown tool -> not_found; scope lacking `required_scope(tool)` -> forbidden
    (audited "denied"); arguments breaking the schema -> invalid_input; then the tool runs.
    Calls of tools that are not read-only are audited "ok" or "failed" with the (shortened)
    arguments and `detail`; such a call is not run when the audit log cannot be written
    ("unavailable"), and if the entry still fails after the call, the message says so."""
    try:
        tool = reg.get(name)
    except ToolNotFound as exc:
        return ToolOutcome(False, message=exc.message, category=exc.category)
    have, need = scope or current_scope.get(), required_scope(tool)
    home = app.settings.home
    info = {"arguments": _short(arguments), **(detail or {})}
    if not scope_allows(have, need):
        exc = Forbidden(f"{name} needs a key with the {need!r} scope; this key has {have!r}")
        try:
            _audit(home, actor, name, _target(arguments, None), "denied", {**info, "scope": have},
                   _person(app))
        except OSError:
            log.warning("could not audit a denied call of %s", name)
        return ToolOutcome(False, message=exc.message, category=exc.category)
    if not tool.read_only and (problem := _audit_problem(home)):
        return ToolOutcome(False, message=f"{name} was not run: the audit log cannot be written ({problem})",
                           category="unavailable")
    token = current_scope.set(have)
    from cairn.store.history import acting
    try:
        with acting(actor):  # the versions of the notes it changes name this door (store.history)
            outcome = ToolOutcome(True, result=reg.call(app, name, arguments))
    except Exception as exc:  # noqa: BLE001 - every error becomes an outcome (see docstring)
        outcome = failure(app, exc)
    finally:
        current_scope.reset(token)
    if not tool.read_only:
        extra = {} if outcome.ok else {"error": outcome.category, "message": outcome.message}
        try:
            _audit(home, actor, name, _target(arguments, outcome.result), "ok" if outcome.ok else "failed",
                   {**info, **extra}, _person(app))
        except OSError as exc:
            return ToolOutcome(False, message=f"{name} ran but its audit entry could not be written: "
                                              f"{user_message(exc)}", category="unavailable")
    return outcome


def _audit_problem(home) -> str | None:
    """Why the audit log of `home` cannot be appended to, or None (checked before a write
    runs: a write that cannot be audited is not made)."""
    from cairn.audit import audit_path
    path = audit_path(home)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return user_message(exc)
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"{path}: permission denied"
    return None


def _person(app) -> str | None:
    """The person (cairn.people) a tool call acts for: the service's, else the request's."""
    from cairn.tools import current_person
    owner = getattr(getattr(app, "settings", None), "owner", None)
    return owner if owner is not None else current_person.get()


def _audit(home, actor: str, name: str, target: str | None, outcome: str, detail: dict,
           person: str | None = None) -> None:
    from cairn.audit import record
    record(home, actor, f"tool.{name}", target=target, outcome=outcome, detail=detail, person=person)
