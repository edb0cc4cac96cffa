"""Gates for messages the assistant starts itself (digest, a promise coming due, a follow-up).

A proactive message goes out only when every gate passes, checked in this order:
kill switch (`[time] proactive = false`), quiet hours (`[time] quiet_hours`, in the person's
zone, may wrap midnight), the daily cap (`[time] daily_cap` sent in the last 24 h), and the
per-topic cool-down (`[time] topic_cooldown_h` since the last message on the same topic).
Every decision, sent or suppressed, is stored (schedule.db `proactive`) and written to the
audit log with its reason. Reminders the person asked for are not proactive: they are not
gated.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta, timezone

from cairn import audit
from cairn.config_sections import quiet_window
from cairn.errors import InvalidInput
from cairn.schedule import when as W
from cairn.schedule.notify import Message
from cairn.store import schedule as S


def parse_quiet_hours(text: str) -> tuple[time, time] | None:
    """"22:00-08:00" -> (22:00, 08:00); "" -> None (config_sections.quiet_window, which
    config.toml is checked with on load). Raises InvalidInput for another form."""
    try:
        return quiet_window(text)
    except ValueError as exc:
        raise InvalidInput(f"[time] {exc}") from None


def in_quiet_hours(local: datetime, window: tuple[time, time] | None) -> bool:
    """True when the wall time of `local` falls in [start, end) (wrapping midnight)."""
    if window is None:
        return False
    start, end = window
    t = local.time().replace(tzinfo=None)
    return (start <= t < end) if start <= end else (t >= start or t < end)


def decide(scheduler, topic: str, now: datetime | None = None) -> tuple[bool, str]:
    """(allowed, reason) for a proactive message on `topic` at `now` (aware, default now)."""
    cfg = scheduler.settings.time
    now = now or datetime.now(timezone.utc)
    if not cfg.proactive:
        return False, "proactive messages are switched off ([time] proactive = false)"
    local = now.astimezone(W.zone(cfg.timezone))
    if in_quiet_hours(local, parse_quiet_hours(cfg.quiet_hours)):
        return False, f"quiet hours {cfg.quiet_hours} ({local.strftime('%H:%M')} local)"
    day_ago = (now - timedelta(days=1)).astimezone(timezone.utc).isoformat(timespec="seconds")
    if len(S.proactive_sent(scheduler.conn, day_ago)) >= cfg.daily_cap:
        return False, f"daily cap of {cfg.daily_cap} reached"
    since = (now - timedelta(hours=cfg.topic_cooldown_h)).astimezone(timezone.utc).isoformat(timespec="seconds")
    if S.proactive_sent(scheduler.conn, since, topic):
        return False, f"topic {topic!r} had a message in the last {cfg.topic_cooldown_h:g} h"
    return True, "all gates passed"


def already_sent(scheduler, topic: str) -> bool:
    """Whether a message on `topic` was ever sent (a follow-up goes out once)."""
    return bool(S.proactive_sent(scheduler.conn, "", topic))


def send_proactive(scheduler, topic: str, text: str, now: datetime | None = None,
                   kind: str = "proactive") -> dict:
    """Send `text` (a message of `kind`) if the gates allow; record and audit the decision.
    Returns {"topic", "decision": "sent"|"suppressed"|"failed", "reason"}."""
    now = now or datetime.now(timezone.utc)
    allowed, reason = decide(scheduler, topic, now)
    decision = "suppressed"
    if allowed:
        delivered, errors = scheduler._deliver(Message(text=text, kind=kind))
        decision = "sent" if delivered else "failed"
        if errors:
            reason = "; ".join(errors) if not delivered else reason
    at = now.astimezone(timezone.utc).isoformat(timespec="seconds")
    S.add_proactive(scheduler.conn, at, topic, decision, reason)
    audit.record(scheduler.settings.home, "scheduler", "proactive.message", topic, decision, {"reason": reason})
    return {"topic": topic, "decision": decision, "reason": reason}
