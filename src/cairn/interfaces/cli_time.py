"""`cairn remind`, `cairn reminders ...`, `cairn schedule ...`, `cairn daemon`: thin
commands over the scheduler (cairn.schedule.scheduler.Scheduler, via Cairn.scheduler())."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from datetime import datetime
from typing import Optional

import typer

from cairn.hookspecs import hookimpl
from cairn.interfaces.cli_common import _dump


def _local(when, tz):
    """A due time in the reminder's own zone (cairn.schedule.scheduler.local_time). The
    scheduler module (APScheduler's triggers) is imported here, by the commands that print
    a time, not when the built-in commands are registered (every plugin command pays that)."""
    from cairn.schedule.scheduler import local_time
    return local_time(when, tz)


def reminder_json(r):
    """cairn.schedule.scheduler.reminder_json, imported when a command prints one."""
    from cairn.schedule.scheduler import reminder_json as to_json
    return to_json(r)


reminders_app = typer.Typer(help="List and change reminders (default: list).", invoke_without_command=True)
schedule_app = typer.Typer(help="Recurring jobs other than reminders: digest, export-cleanup, sync.",
                           invoke_without_command=True)


@contextmanager
def _scheduler(interactive: bool = False):
    from cairn.cli import _service
    with _service() as svc, svc.scheduler(interactive=interactive) as sch:
        yield sch


def _print_rows(rows, json_out: bool, empty: str = "no reminders") -> None:
    if json_out:
        _dump([reminder_json(r) for r in rows])
        return
    from cairn.cli import out
    if not rows:
        out.print(empty)
    for r in rows:
        j = reminder_json(r)
        out.print(f"{r.id}  {r.state:9}  {j['next_due'] or '-':25}  {r.text}  ({j['schedule']})", markup=False)
        if r.last_error:
            out.print(f"    last error: {r.last_error}", markup=False)


def remind(text: str = typer.Argument(..., help="What to be reminded of."),
           at: Optional[str] = typer.Option(None, "--at", help="Once: 'in 2 hours', 'tomorrow at 9', 'next Friday', ISO time."),
           every: Optional[str] = typer.Option(None, "--every", help="Repeating: 'every weekday at 9am', 'every 6 hours', 'on the 1st of each month', or cron 'm h dom mon dow'."),
           tz: Optional[str] = typer.Option(None, "--tz", help="IANA time zone (default \\[time] timezone, else this machine's)."),
           json_out: bool = typer.Option(False, "--json", help="Print {\"id\", \"next_due\"}.")) -> None:
    """Create a reminder, once (--at) or repeating (--every)."""
    from cairn.cli import _usage_fail
    if (at is None) == (every is None):
        _usage_fail("give exactly one of --at WHEN or --every WHEN")
    with _scheduler() as sch:
        r = sch.remind(text, at=at, every=every, tz=tz)
    if json_out:
        _dump({"id": r.id, "next_due": _local(r.next_due, r.tz)})
    else:
        from cairn.cli import out
        out.print(f"reminder {r.id}: {r.text} — next {_local(r.next_due, r.tz)}", markup=False)


@reminders_app.callback()
def reminders_default(ctx: typer.Context, all_: bool = typer.Option(False, "--all", help="Also done and cancelled."),
                      json_out: bool = typer.Option(False, "--json")) -> None:
    """List reminders (scheduled, delivered, failed, dead; --all adds done and cancelled)."""
    if ctx.invoked_subcommand is None:
        reminders_list(all_, json_out)


@reminders_app.command("list")
def reminders_list(all_: bool = typer.Option(False, "--all", help="Also done and cancelled."),
                   json_out: bool = typer.Option(False, "--json")) -> None:
    """List reminders."""
    with _scheduler() as sch:
        states = None if all_ else ("scheduled", "delivered", "failed", "dead", "firing")
        rows = sch.list(states, kind="reminder")
    _print_rows(rows, json_out)


def _change(op: str, rid: str, json_out: bool, **kw) -> None:
    with _scheduler() as sch:
        r = getattr(sch, op)(rid, **kw)
    if json_out:
        _dump(reminder_json(r))
    else:
        from cairn.cli import out
        out.print(f"{r.id}: {r.state}" + (f", next {_local(r.next_due, r.tz)}" if r.next_due else "")
                  + (f" — {r.text}" if op == "edit" else ""), markup=False)


@reminders_app.command("done")
def reminders_done(rid: str = typer.Argument(..., help="Reminder id."), json_out: bool = typer.Option(False, "--json")) -> None:
    """Mark a reminder done."""
    _change("done", rid, json_out)


@reminders_app.command("cancel")
def reminders_cancel(rid: str = typer.Argument(..., help="Reminder id."), json_out: bool = typer.Option(False, "--json")) -> None:
    """Cancel a reminder."""
    _change("cancel", rid, json_out)


@reminders_app.command("snooze")
def reminders_snooze(rid: str = typer.Argument(..., help="Reminder id."),
                     until: str = typer.Option("in 10 minutes", "--until", help="When to remind again."),
                     json_out: bool = typer.Option(False, "--json")) -> None:
    """Remind again later (default in 10 minutes)."""
    _change("snooze", rid, json_out, until=until)


@reminders_app.command("replay")
def reminders_replay(rid: str = typer.Argument(..., help="Dead-letter id."), json_out: bool = typer.Option(False, "--json")) -> None:
    """Requeue a dead letter now."""
    _change("replay", rid, json_out)


@reminders_app.command("discard")
def reminders_discard(rid: str = typer.Argument(..., help="Dead-letter id."), json_out: bool = typer.Option(False, "--json")) -> None:
    """Give up a dead letter."""
    _change("discard", rid, json_out)


@reminders_app.command("edit")
def reminders_edit(rid: str = typer.Argument(..., help="Reminder id."), text: str = typer.Argument(..., help="New text."),
                   json_out: bool = typer.Option(False, "--json")) -> None:
    """Change a reminder's text (a dead letter's too, before replaying it)."""
    _change("edit", rid, json_out, text=text)


@reminders_app.command("upcoming")
def reminders_upcoming(rid: str = typer.Argument(..., help="Reminder id."),
                       count: int = typer.Option(5, "--count", min=1, max=1000, help="How many runs."),
                       from_: Optional[str] = typer.Option(None, "--from", help="Start (ISO 8601; naive = the reminder's zone)."),
                       json_out: bool = typer.Option(False, "--json", help="Print a JSON list of ISO times with offsets.")) -> None:
    """The next runs of a reminder, as ISO times with their UTC offsets."""
    from cairn.cli import _usage_fail
    start = None
    with _scheduler() as sch:
        if from_ is not None:
            try:
                start = datetime.fromisoformat(from_.strip())
            except ValueError:
                _usage_fail(f"--from {from_!r} is not an ISO 8601 time")
            if start.tzinfo is None:
                from cairn.schedule.when import zone
                start = start.replace(tzinfo=zone(sch.get(rid).tz))
        runs = [d.isoformat() for d in sch.upcoming(rid, count, start)]
        state = sch.get(rid).state if not runs else None
    if json_out:
        _dump(runs)
    else:
        from cairn.cli import out
        for r in runs:
            out.print(r, markup=False)
        if not runs:
            out.print(f"no upcoming runs: reminder {rid.strip()} is {state}", markup=False)


@reminders_app.command("history")
def reminders_history(rid: Optional[str] = typer.Argument(None, help="Reminder id (default: all)."),
                      json_out: bool = typer.Option(False, "--json")) -> None:
    """Every run: when it started, how long it took, its outcome and output."""
    with _scheduler() as sch:
        runs = sch.history(rid)
    if json_out:
        _dump(runs)
        return
    from cairn.cli import out
    for r in runs:
        out.print(f"{r['started']}  {r['reminder_id']}  {r['outcome']:7} {r['duration_ms']:.0f} ms  "
                  f"{(r['output'] or '').splitlines()[0] if r['output'] else ''}", markup=False)


@schedule_app.callback()
def schedule_default(ctx: typer.Context, json_out: bool = typer.Option(False, "--json")) -> None:
    """List scheduled jobs (digest, export-cleanup, sync)."""
    if ctx.invoked_subcommand is None:
        with _scheduler() as sch:
            rows = sch.list(("scheduled", "delivered", "failed", "dead", "firing"), kind="job")
        _print_rows(rows, json_out, empty="no scheduled jobs (reminders: `cairn reminders`)")


@schedule_app.command("add")
def schedule_add(job: str = typer.Argument(..., help="digest | followups | export-cleanup | sync"),
                 every: str = typer.Option(..., "--every", help="When it repeats, e.g. 'every day at 8', 'every 1 hour'."),
                 tz: Optional[str] = typer.Option(None, "--tz"),
                 json_out: bool = typer.Option(False, "--json")) -> None:
    """Schedule a built-in job."""
    with _scheduler() as sch:
        r = sch.remind(job, every=every, tz=tz, kind="job", job=job)
    if json_out:
        _dump({"id": r.id, "next_due": _local(r.next_due, r.tz)})
    else:
        from cairn.cli import out
        out.print(f"job {r.id}: {job} — next {_local(r.next_due, r.tz)}", markup=False)


@schedule_app.command("cancel")
def schedule_cancel(rid: str = typer.Argument(..., help="Job id."), json_out: bool = typer.Option(False, "--json")) -> None:
    """Stop a scheduled job."""
    _change("cancel", rid, json_out)


def daemon(once: bool = typer.Option(False, "--once", help="Fire what is due now, then exit.")) -> None:
    """Run the background work without a web server: deliver reminders, run scheduled jobs."""
    import signal
    import threading

    from cairn.schedule.daemon import backup_loop, run_loop
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with _scheduler(interactive=True) as sch:
        if sch.settings.backup.keep > 0:  # daily snapshots ([backup] keep)
            say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
            if once:
                backup_loop(sch.open_app, stop, log=say, once=True)
            else:
                threading.Thread(target=backup_loop, args=(sch.open_app, stop), kwargs={"log": say},
                                 daemon=True, name="cairn-backups").start()
        try:
            run_loop(sch, stop, once=once, log=lambda m: print(m, file=sys.stderr, flush=True))
        except KeyboardInterrupt:
            pass


@hookimpl
def register_commands(cli):
    cli.command("remind")(remind)
    cli.add_typer(reminders_app, name="reminders")
    cli.add_typer(schedule_app, name="schedule")
    cli.command("daemon")(daemon)
