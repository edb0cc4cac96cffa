"""Built-in scheduled jobs: the daily digest, promise and expectation follow-ups, export
cleanup and watched-folder sync.

Each job is `function(scheduler, reminder[, now]) -> str` (the text delivered for the run)
or a notify.Handled record when the job sent its message itself. Messages Cairn starts on
its own (the digest, the follow-ups) go through the proactive gates (proactive.py: kill
switch, quiet hours, daily cap, topic cool-down); a suppressed one is recorded with its
reason. A job opens the home's service (`scheduler.open_app()`: `Cairn.scheduler()` and
`cairn serve` set it) only while it runs.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from cairn.schedule.notify import Handled


def _app(scheduler):
    """A new service for the scheduler's home: `scheduler.open_app()`, which
    `Cairn.scheduler()` sets (the jobs do not import the service: it imports them)."""
    return scheduler.open_app()


def digest(scheduler, reminder=None, now: datetime | None = None) -> Handled:
    """The daily digest (digest_text) sent through the proactive gates as topic "digest";
    returns the decision as the run's record."""
    from cairn.schedule.proactive import send_proactive
    now = now or datetime.now(timezone.utc)
    got = send_proactive(scheduler, "digest", digest_text(scheduler, now), now=now, kind="digest")
    if got["decision"] == "failed":  # no channel took it: a failed run, retried
        from cairn.schedule.notify import DeliveryFailed
        raise DeliveryFailed(f"digest not delivered: {got['reason']}")
    return Handled(f"digest {got['decision']}: {got['reason']}")


FOLLOW_WORDS = {"promise": "You promised: {text}. Done, or still on your list?",
                "expectation": "You were expecting: {text}. Did it happen?"}
FOLLOW_BEFORE, FOLLOW_AFTER = timedelta(days=1), timedelta(days=2)


def followups(scheduler, reminder=None, now: datetime | None = None) -> Handled:
    """Follow up on promises and expectations from memory whose time (event_time) is from a
    day ahead to two days past `now`, each once (topic "followup:<memory id>"), through the proactive gates.
    Returns one line per decision, or "no follow-up due"."""
    from cairn.schedule.proactive import already_sent, send_proactive
    from cairn.memory.temporal import parse_time
    now = now or datetime.now(timezone.utc)
    lines = []
    with _app(scheduler) as app:
        due = [m for kind in FOLLOW_WORDS for m in app.memories(kind=kind) if m.event_time]
    for m in sorted(due, key=lambda m: m.event_time):
        try:
            when = parse_time(m.event_time)
        except ValueError:
            continue
        topic = f"followup:{m.id}"
        if not (when - FOLLOW_BEFORE <= now <= when + FOLLOW_AFTER) or already_sent(scheduler, topic):
            continue
        got = send_proactive(scheduler, topic, FOLLOW_WORDS[m.kind].format(text=m.text), now=now)
        lines.append(f"{m.id} {got['decision']}: {got['reason']}")
    return Handled("\n".join(lines) or "no follow-up due")


def digest_text(scheduler, now: datetime | None = None) -> str:
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
    """Delete export files past their expiry (24 h: cairn.exports.cleanup_exports) and the
    artifacts older than `[assistant] artifacts_days` (0: none; store/artifacts.prune)."""
    from cairn.exports import cleanup_exports
    from cairn.store import artifacts as A
    removed = cleanup_exports(scheduler.settings.home)
    days = scheduler.settings.assistant.artifacts_days
    pruned = A.prune(scheduler.settings.home, days) if days > 0 else {"records_removed": 0}
    return (f"export cleanup: {len(removed)} expired export(s) removed, "
            f"{pruned['records_removed']} artifact record(s) older than {days:g} days")


def sync(scheduler, reminder=None) -> str:
    """Reconcile the vault with the index (what `cairn sync` does)."""
    with _app(scheduler) as app:
        report = app.sync()
    data = report.to_json() if hasattr(report, "to_json") else {}
    counts = {k: len(v) for k, v in data.items() if isinstance(v, list)}
    return "sync: " + ", ".join(f"{k} {v}" for k, v in counts.items() if v) or "sync: no changes"


BUILTIN_JOBS = {"digest": digest, "followups": followups, "export-cleanup": export_cleanup, "sync": sync}
