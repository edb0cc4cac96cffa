"""Reminders and recurring jobs: create, list, change, and fire them when due.

Policy (docs/reminders.md):
- Times are stored in UTC with the person's zone; recurring runs are computed in that zone by
  APScheduler's triggers (when.py), so "every day at 9" stays at 9 across DST changes.
- Missed runs (Cairn was down): runs of a recurring reminder missed within `[time] grace_s`
  are coalesced into one delivery; a run missed by more is recorded as "missed" and skipped.
  A one-off reminder is always delivered, late if need be, and says how late.
- Delivery goes to every registered channel (notify.py); a run succeeds when at least one
  channel that reaches a person took it (a log line alone is not a delivery). A failed run is retried after retry_base_s * 2^(n-1) seconds (at most
  retry_max_s); after max_attempts it becomes a dead letter that can be replayed, edited or
  discarded. Every run is recorded (start, duration, outcome, output).
- A run is claimed before it is delivered (state "firing"), so two processes never deliver
  the same run; a claim left by a crashed process is released at the next start.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from typing import Callable

from cairn.errors import Conflict, InvalidInput, NotFound
from cairn.people import same_person
from cairn.schedule import when as W
from cairn.schedule.notify import DeliveryFailed, Handled, Message
from cairn.store import schedule as S
from cairn.store.notes import transaction

STATES = ("scheduled", "delivered", "failed", "dead", "done", "cancelled")
ACTIVE = ("scheduled", "failed")


def _utc(dt: datetime) -> str:
    return dt.astimezone(timezone.utc).isoformat(timespec="seconds")


def _parse_utc(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(timezone.utc)


def _now(now: datetime | None) -> datetime:
    if now is None:
        return datetime.now(timezone.utc)
    if now.tzinfo is None:
        raise InvalidInput("the time must carry a UTC offset")
    return now


MAX_TEXT_CHARS = 1000
"""Longest reminder text: a reminder is one line to read at a glance, delivered as one chat
message (Telegram's limit is 4,096 characters), not a document."""


def _checked_text(text: str) -> str:
    """`text` stripped; InvalidInput when it is empty, longer than MAX_TEXT_CHARS or holds a
    control character (a NUL cannot reach notify-send's arguments; an ESC acts on a terminal)."""
    from cairn.controls import check_no_controls
    text = (text or "").strip()
    if not text:
        raise InvalidInput("the reminder text is empty")
    check_no_controls(text, "the reminder text", lines=True)
    if len(text) > MAX_TEXT_CHARS:
        raise InvalidInput(f"the reminder text is {len(text):,} characters long; a reminder holds at most "
                           f"{MAX_TEXT_CHARS:,} (keep the details in a note and remind yourself of it)")
    return text


class Scheduler:
    """The reminder operations for one home. notifiers: channels to deliver to (None = those
    the `register_notifiers` hook gives, non-interactive). jobs: name -> function(scheduler,
    reminder) -> str (the text to deliver) for scheduled jobs other than plain reminders.
    owner: the person (cairn.people) it acts for: what they create is theirs, and they see
    (get, list, change, history) only their own reminders, another's is not found; None:
    the home's own person, who sees all. Firing due reminders (`run_due`) covers everyone's."""

    def __init__(self, settings, notifiers: list | None = None, *, interactive: bool = False,
                 jobs: dict[str, Callable] | None = None, owner: str | None = None) -> None:
        self.settings = settings
        self.owner = owner
        self.conn = S.connect(settings.home)
        self._notifiers = notifiers
        self._interactive = interactive
        self.jobs: dict[str, Callable] = dict(jobs or {})

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Scheduler":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------ channels
    @property
    def notifiers(self) -> list:
        if self._notifiers is None:
            from cairn.plugins import load
            found: list = []
            load().hook.register_notifiers(register=found.append, settings=self.settings,
                                           interactive=self._interactive)
            self._notifiers = found
        return self._notifiers

    # ------------------------------------------------------------------ create and read
    def zone(self, tz: str | None = None):
        """The zone named `tz` (None: `[time] timezone`, else this machine's). InvalidInput for
        an unknown name, and for an empty one (given but blank: not "the default zone")."""
        from cairn.validate import check_given
        check_given(tz, "the time zone")
        return W.zone(tz or self.settings.time.timezone)

    def remind(self, text: str, *, at: str | None = None, every: str | None = None,
               tz: str | None = None, now: datetime | None = None, kind: str = "reminder",
               job: str | None = None) -> S.ReminderRow:
        """A new reminder (or scheduled job when `job` names one) due `at` (one-off) or
        `every` (recurring). Raises InvalidInput for empty text, both/neither of at/every,
        an unknown zone or an unreadable or past time, a repeat more often than once a minute
        (when.check_repeat); for text over MAX_TEXT_CHARS. Asking again for a reminder that is
        already scheduled (same person, kind, job, text, zone and when, and for a one-off the
        same due instant) returns that reminder: a request said twice (a chat message sent 37
        times made 37 reminders, each delivered at 9:00) is one reminder."""
        text = _checked_text(text)
        if (at is None) == (every is None):
            raise InvalidInput("give exactly one of at WHEN (once) or every WHEN (repeating)")
        if job is not None and job not in self.jobs:
            raise InvalidInput(f"unknown job {job!r}; known: {', '.join(sorted(self.jobs)) or 'none'}")
        zone = self.zone(tz)
        now = _now(now)
        spec_text = at if at is not None else every
        trigger = W.parse_when(spec_text, zone, now, recurring=every is not None)
        W.check_repeat(trigger, spec_text)
        first = W.next_runs(trigger, 1, now - timedelta(seconds=1), zone)
        if not first:
            raise InvalidInput(f"{spec_text!r} never comes")
        twin = self._twin(text, kind, job, zone.key, every is not None, spec_text, _utc(first[0]))
        if twin is not None:
            return twin
        row = S.ReminderRow(id=S.new_id(), text=text, kind=kind,
                            spec={"form": "every" if every is not None else "at", "text": spec_text,
                                  "anchor": _utc(now), "trigger": type(trigger).__name__},
                            tz=zone.key, next_due=_utc(first[0]), state="scheduled", created=_utc(now),
                            delivered_at=None, attempts=0, last_error=None, channel=None, job=job,
                            owner=self.owner)
        S.insert(self.conn, row)
        return row

    def _twin(self, text: str, kind: str, job: str | None, tz: str, repeating: bool, spec_text: str,
              due: str) -> S.ReminderRow | None:
        """A scheduled reminder of this person that a new one would repeat: same kind, job,
        text and zone; a repeating one with the same WHEN words, a one-off due at `due`."""
        for r in self.list(("scheduled",), kind):
            if (r.text == text and r.job == job and r.tz == tz and (r.spec.get("form") == "every") == repeating
                    and (r.spec.get("text") == spec_text if repeating else r.next_due == due)):
                return r
        return None

    def get(self, rid: str) -> S.ReminderRow:
        """The reminder `rid` (surrounding spaces ignored). InvalidInput for an empty id;
        NotFound for an unknown one or another person's."""
        from cairn.validate import check_given
        row = S.get(self.conn, check_given(rid, "the reminder id").strip())
        if row is None or (self.owner is not None and not same_person(row.owner, self.owner)):
            raise NotFound(f"no reminder {rid!r} (`cairn reminders` lists them)")
        return row

    def list(self, states: tuple[str, ...] | None = None, kind: str | None = None) -> list[S.ReminderRow]:
        rows = S.list_all(self.conn, states, kind)
        return rows if self.owner is None else [r for r in rows if same_person(r.owner, self.owner)]

    def _trigger(self, row: S.ReminderRow):
        zone = W.zone(row.tz)
        anchor = _parse_utc(row.spec.get("anchor") or row.created)
        return W.parse_when(row.spec["text"], zone, anchor, recurring=row.spec["form"] == "every"), zone

    def upcoming(self, rid: str, count: int = 5, start: datetime | None = None) -> list[datetime]:
        """The next `count` runs after `start` (default now) as aware datetimes in the
        reminder's zone. A one-off gives its due time (if still scheduled); a reminder that is
        not active (done, cancelled, dead until replayed) has none, repeating or not."""
        if count < 1 or count > 1000:
            raise InvalidInput(f"--count must be between 1 and 1000, got {count}")
        row = self.get(rid)
        start = _now(start)
        if row.state not in ACTIVE:
            return []
        if row.spec["form"] == "at":
            if row.next_due is None:
                return []
            due = W.normalise(_parse_utc(row.next_due), W.zone(row.tz))
            return [due] if due > start else []
        trigger, zone = self._trigger(row)
        return W.next_runs(trigger, count, start, zone)

    # ------------------------------------------------------------------ change
    def _set_state(self, rid: str, state: str, allowed: tuple[str, ...], **extra) -> S.ReminderRow:
        row = self.get(rid)
        if row.state not in allowed:
            raise Conflict(f"reminder {row.id} is {row.state}; it cannot become {state}")
        S.update(self.conn, row.id, state=state, **extra)
        return self.get(row.id)

    def done(self, rid: str) -> S.ReminderRow:
        """Mark a reminder done (no further runs)."""
        return self._set_state(rid, "done", ("scheduled", "delivered", "failed", "dead"), next_due=None)

    def cancel(self, rid: str) -> S.ReminderRow:
        """Cancel a reminder (no further runs; kept in the list as cancelled)."""
        return self._set_state(rid, "cancelled", ("scheduled", "delivered", "failed", "dead"), next_due=None)

    def snooze(self, rid: str, until: str = "in 10 minutes", now: datetime | None = None) -> S.ReminderRow:
        """Deliver again at `until` (one-off words, e.g. "in 1 hour"); reschedules a
        delivered, failed or scheduled reminder."""
        row = self.get(rid)
        zone = W.zone(row.tz)
        now = _now(now)
        trigger = W.parse_when(until, zone, now, recurring=False)
        due = W.next_runs(trigger, 1, now - timedelta(seconds=1), zone)[0]
        return self._set_state(rid, "scheduled", ("scheduled", "delivered", "failed"), next_due=_utc(due),
                               attempts=0)

    def reschedule(self, rid: str, every: str, now: datetime | None = None) -> S.ReminderRow:
        """A repeating reminder's times changed to the recurring words `every` ("every friday at
        1pm"): its id, text and zone kept, its next time the first of the new ones. InvalidInput
        as `remind` for unreadable words or a repeat more often than once a minute, and for a
        one-off reminder (move it with `snooze`); Conflict for a done, cancelled or dead one."""
        row = self.get(rid)
        if row.spec.get("form") != "every":
            raise InvalidInput(f"reminder {row.id} does not repeat; move it with snooze (a new one-off time)")
        zone = W.zone(row.tz)
        now = _now(now)
        trigger = W.parse_when(every, zone, now, recurring=True)
        W.check_repeat(trigger, every)
        first = W.next_runs(trigger, 1, now - timedelta(seconds=1), zone)
        if not first:
            raise InvalidInput(f"{every!r} never comes")
        spec = {**row.spec, "text": every, "anchor": _utc(now), "trigger": type(trigger).__name__}
        return self._set_state(rid, "scheduled", ("scheduled", "delivered", "failed"), spec=spec,
                               next_due=_utc(first[0]), attempts=0)

    def replay(self, rid: str, now: datetime | None = None) -> S.ReminderRow:
        """Requeue a dead letter now (attempts reset)."""
        return self._set_state(rid, "scheduled", ("dead",), next_due=_utc(_now(now)), attempts=0,
                               last_error=None)

    def discard(self, rid: str) -> S.ReminderRow:
        """Give up a dead letter (it becomes cancelled)."""
        return self._set_state(rid, "cancelled", ("dead",), next_due=None)

    def edit(self, rid: str, text: str) -> S.ReminderRow:
        """Change a reminder's text (a dead letter too, before replaying it). InvalidInput as
        `remind` for empty or too long text; Conflict for a done or cancelled reminder (it will
        never be delivered: the edit would change nothing anyone sees; the rule of `done`,
        `cancel` and `snooze` on such a reminder)."""
        text = _checked_text(text)
        row = self.get(rid)
        if row.state in ("done", "cancelled"):
            raise Conflict(f"reminder {row.id} is {row.state}; only a reminder still to be delivered "
                           "(or a dead letter) can be edited — set a new one with `cairn remind`")
        S.update(self.conn, row.id, text=text)
        return self.get(row.id)

    def history(self, rid: str | None = None, limit: int = 100) -> list[dict]:
        """Runs (oldest first): {"reminder_id", "due", "started", "duration_ms", "outcome", "output"};
        of the owner's reminders only. NotFound for a reminder not theirs."""
        if rid:
            return S.runs(self.conn, self.get(rid).id, limit)
        if self.owner is None:
            return S.runs(self.conn, None, limit)
        mine = {r.id for r in self.list()}
        return [r for r in S.runs(self.conn, None, 10 ** 6) if r["reminder_id"] in mine][-limit:]

    # ------------------------------------------------------------------ firing
    def recover(self) -> int:
        """Release claims left by a crashed process ("firing" -> "scheduled"); returns how many."""
        return S.release_firing(self.conn)

    def next_wakeup(self) -> datetime | None:
        """When the earliest active reminder is due (UTC), or None."""
        nd = S.next_due(self.conn)
        return _parse_utc(nd) if nd else None

    def run_due(self, now: datetime | None = None) -> list[dict]:
        """Fire every reminder due at `now`; returns one run record per reminder handled."""
        real = now is None
        now = _now(now)
        out = []
        for row in S.due(self.conn, _utc(now)):
            if real:
                now = datetime.now(timezone.utc)  # each run's own start time
            if S.claim(self.conn, row.id, row.state, row.next_due):
                with transaction(self.conn):
                    out.append(self._fire(row, now))
        return out

    def _next_after(self, row: S.ReminderRow, after: datetime) -> str | None:
        if row.spec["form"] != "every":
            return None
        trigger, zone = self._trigger(row)
        nxt = W.next_runs(trigger, 1, after, zone)
        return _utc(nxt[0]) if nxt else None

    def _fire(self, row: S.ReminderRow, now: datetime) -> dict:
        t0 = time.perf_counter()
        due = _parse_utc(row.next_due)
        late = (now - due).total_seconds()
        recurring = row.spec["form"] == "every"
        if recurring and late > self.settings.time.grace_s and row.state == "scheduled":
            S.add_run(self.conn, row.id, row.next_due, _utc(now), 0.0, "missed",
                      f"missed by {late:.0f} s (more than grace_s); skipped")
            S.update(self.conn, row.id, state="scheduled", next_due=self._next_after(row, now))
            return {"reminder_id": row.id, "due": row.next_due, "outcome": "missed"}
        try:
            text = self._run_job(row, now) if row.job else row.text
            if isinstance(text, Handled):  # the job sent through the proactive gates itself
                delivered, errors = 1, []
            else:
                if not recurring and late > 60:
                    text += f" (late by {late / 60:.0f} min: Cairn was not running)"
                delivered, errors = self._deliver(Message(text=text, kind=row.kind, reminder_id=row.id,
                                                          due=row.next_due))
        except Exception as exc:  # a job that raises is a failed run, never a crashed daemon
            delivered, errors, text = 0, [f"{type(exc).__name__}: {exc}"], row.text
        ms = (time.perf_counter() - t0) * 1000
        if delivered:
            S.add_run(self.conn, row.id, row.next_due, now.astimezone(timezone.utc).isoformat(timespec="milliseconds"),
                      ms, "ok", text[:2000])
            nxt = self._next_after(row, max(now, due))
            S.update(self.conn, row.id, state="scheduled" if nxt else "delivered", next_due=nxt,
                     delivered_at=_utc(now), attempts=0, last_error="; ".join(errors) or None)
            return {"reminder_id": row.id, "due": row.next_due, "outcome": "ok"}
        attempts = row.attempts + 1
        error = "; ".join(errors) or "no delivery channel"
        S.add_run(self.conn, row.id, row.next_due, _utc(now), ms, "failed", error)
        tcfg = self.settings.time
        if attempts >= tcfg.max_attempts:
            S.update(self.conn, row.id, state="dead", attempts=attempts, last_error=error)
            return {"reminder_id": row.id, "due": row.next_due, "outcome": "dead", "error": error}
        wait = min(tcfg.retry_max_s, tcfg.retry_base_s * 2 ** (attempts - 1))
        S.update(self.conn, row.id, state="failed", attempts=attempts, last_error=error,
                 next_due=_utc(now + timedelta(seconds=wait)))
        return {"reminder_id": row.id, "due": row.next_due, "outcome": "failed", "error": error}

    def _run_job(self, row: S.ReminderRow, now: datetime):
        """Run job `row.job`: its text to deliver, or a notify.Handled record when it sent
        through the proactive gates itself. A job that takes `now` gets the run's time."""
        import inspect
        fn = self.jobs[row.job]
        if "now" in inspect.signature(fn).parameters:
            return fn(self, row, now=now)
        return fn(self, row)

    def _deliver(self, message: Message) -> tuple[int, list[str]]:
        """Send `message` on every channel, recording each delivery; (count of channels that
        reach a person and took it, errors). A record-only channel (notify.py:
        reaches_person False) never makes a run delivered."""
        ok, errors = 0, []
        for ch in self.notifiers:
            did = S.add_delivery(self.conn, message.reminder_id, ch.name, message.text,
                                 _utc(datetime.now(timezone.utc)))
            try:
                ch.send(message)
            except DeliveryFailed as exc:
                errors.append(f"{ch.name}: {exc.message or exc}")
                S.update_delivery(self.conn, did, state="failed", attempts=1, error=str(exc))
                continue
            except Exception as exc:  # a broken channel never stops the others
                errors.append(f"{ch.name}: {type(exc).__name__}: {exc}")
                S.update_delivery(self.conn, did, state="failed", attempts=1, error=str(exc))
                continue
            ok += 1 if getattr(ch, "reaches_person", True) else 0
            S.update_delivery(self.conn, did, state="delivered", attempts=1,
                              sent_at=_utc(datetime.now(timezone.utc)))
        if not ok and not errors:
            kept = ", ".join(ch.name for ch in self.notifiers) or "none"
            errors.append(f"no channel reaches a person (only a record was kept: {kept}); "
                          "install notify-send, or configure Telegram ([telegram] or `cairn telegram`)")
        return ok, errors


def local_time(iso: str | None, tz: str) -> str | None:
    """A stored UTC time shown in the reminder's zone, with its offset."""
    if not iso:
        return iso
    return W.normalise(datetime.fromisoformat(iso), W.zone(tz)).isoformat()


def reminder_json(r) -> dict:
    """{"id", "text", "next_due", "state", "delivered_at", "kind", "schedule", "tz",
    "attempts", "last_error", "job"}: times in the reminder's zone, with offsets."""
    return {"id": r.id, "text": r.text, "next_due": local_time(r.next_due, r.tz), "state": r.state,
            "delivered_at": local_time(r.delivered_at, r.tz), "kind": r.kind,
            "schedule": r.spec["text"] if r.spec["text"].lower().startswith("every") else f"{r.spec['form']} {r.spec['text']}", "tz": r.tz, "attempts": r.attempts,
            "last_error": r.last_error, "job": r.job}
