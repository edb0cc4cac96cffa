"""Built-in scheduled jobs: the daily digest, export cleanup and watched-folder sync.

Each job is `function(scheduler, reminder) -> str` (the text delivered for the run); it
opens the home's service (`scheduler.open_app()`, a new `cairn.service.Cairn`) only while it
runs.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone


def _app(scheduler):
    """A new service for the scheduler's home: `scheduler.open_app()`, which
    `Cairn.scheduler()` sets (the jobs do not import the service: it imports them)."""
    return scheduler.open_app()


def digest(scheduler, reminder=None, now: datetime | None = None) -> str:
    """An extractive daily digest: notes added in the last 24 h, reminders due in the next
    24 h or overdue, and open promises and expectations from memory. Plain text, one item
    per line; says so when there is nothing."""
    now = now or datetime.now(timezone.utc)
    lines: list[str] = []
    with _app(scheduler) as app:
        recent = app.recent_notes(since=(now - timedelta(days=1)).isoformat(), limit=10)
        if recent:
            lines.append("Saved in the last day:")
            lines += [f"- {n['title']} ({n['path']})" for n in recent]
        promises = [m for kind in ("promise", "expectation") for m in app.memories(kind=kind)]
        if promises:
            lines.append("Open promises and expectations:")
            lines += [f"- {m.text}" + (f" (due {m.event_time})" if m.event_time else "") for m in promises[:10]]
    horizon = (now + timedelta(days=1)).astimezone(timezone.utc).isoformat(timespec="seconds")
    soon = [r for r in scheduler.list(states=("scheduled", "failed"), kind="reminder")
            if r.next_due and r.next_due <= horizon]
    if soon:
        lines.append("Reminders due soon or overdue:")
        lines += [f"- {r.text} ({r.next_due})" for r in soon[:10]]
    return "Daily digest\n" + ("\n".join(lines) if lines else "Nothing new today.")


def export_cleanup(scheduler, reminder=None) -> str:
    """Delete export files past their expiry (24 h: cairn.exports.cleanup_exports)."""
    from cairn.exports import cleanup_exports
    removed = cleanup_exports(scheduler.settings.home)
    return f"export cleanup: {len(removed)} expired export(s) removed"


def sync(scheduler, reminder=None) -> str:
    """Reconcile the vault with the index (what `cairn sync` does)."""
    with _app(scheduler) as app:
        report = app.sync()
    data = report.to_json() if hasattr(report, "to_json") else {}
    counts = {k: len(v) for k, v in data.items() if isinstance(v, list)}
    return "sync: " + ", ".join(f"{k} {v}" for k, v in counts.items() if v) or "sync: no changes"


BUILTIN_JOBS = {"digest": digest, "export-cleanup": export_cleanup, "sync": sync}
