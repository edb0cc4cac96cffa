"""The person over time: prompt sections from memory with times relative to now.

sections(app) -> [(id, kind, text, score, why[, pinned])]: "About {name}" (the observations
the person pinned: EchoVessel V9, always in the prompt), "promises I've made" (kind promise) and
"what I'm expecting" (kind expectation), each with its due/event time rendered relative to now
("3 days ago", "next Tuesday", "in 2 weeks"). The top memories themselves ("what I know about
you") come from recall in the memories band.
"""

from __future__ import annotations

from datetime import datetime, timezone

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def relative(when: str | datetime | None, now: datetime | None = None) -> str:
    """`when` relative to `now`: "today", "yesterday", "tomorrow", "3 days ago", "next
    Tuesday" (2-7 days ahead), "in 2 weeks", "5 months ago"; "" when unknown."""
    if not when:
        return ""
    try:
        t = when if isinstance(when, datetime) else datetime.fromisoformat(str(when).replace("Z", "+00:00"))
    except ValueError:
        return str(when)
    now = now or datetime.now(timezone.utc)
    if t.tzinfo is None:
        t = t.replace(tzinfo=timezone.utc)
    days = (t.date() - now.date()).days
    if days == 0:
        return "today"
    if days == 1:
        return "tomorrow"
    if days == -1:
        return "yesterday"
    if 2 <= days <= 7:
        return f"next {DAYS[t.weekday()]}" if t.isocalendar()[1] != now.isocalendar()[1] else f"this {DAYS[t.weekday()]}"
    a = abs(days)
    unit, n = ("day", a) if a < 14 else ("week", a // 7) if a < 60 else ("month", a // 30) if a < 730 else ("year", a // 365)
    s = f"{n} {unit}{'s' if n != 1 else ''}"
    return f"in {s}" if days > 0 else f"{s} ago"


STALE_DAYS = 14  # a promise or expectation due longer ago than this is no longer shown


def _due(m) -> datetime | None:
    try:
        t = datetime.fromisoformat(str(m.event_time or m.valid_to or "").replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def pick(memories: list, now: datetime, limit: int) -> list:
    """The `limit` memories to show: due ones soonest first (those due more than STALE_DAYS
    ago left out), then undated ones newest first."""
    dated = [(d, m) for m in memories if (d := _due(m)) is not None and (now - d).days <= STALE_DAYS]
    dated.sort(key=lambda x: (x[0] < now, abs((x[0] - now).total_seconds())))
    undated = sorted((m for m in memories if _due(m) is None), key=lambda m: m.created, reverse=True)
    return ([m for _, m in dated] + undated)[:limit]


PINNED_CONFIDENCE = 0.9  # an observation the person confirmed (memories review) is pinned
ABOUT_MAX = 8


def pinned_observations(app, limit: int = ABOUT_MAX) -> list:
    """Observation memories the person pinned: said by them (`remember --kind observation`,
    source "user") or confirmed in the review (confidence >= PINNED_CONFIDENCE); newest
    first, at most `limit`."""
    obs = [m for m in app.memories(kind="observation")
           if m.source == "user" or float(m.confidence or 0) >= PINNED_CONFIDENCE]
    return sorted(obs, key=lambda m: m.created, reverse=True)[:limit]


def about_section(app, name: str) -> tuple | None:
    """The "About {name}" section (EchoVessel V9): one pinned unit listing the pinned
    observations, (id, kind, text, score, why, pinned); None when there are none."""
    obs = pinned_observations(app)
    if not obs:
        return None
    text = f"About {name}:\n" + "\n".join(f"- {m.text} [{m.id}]" for m in obs)
    return ("about", "about", text, 1.0, "pinned observations about the person: always in the prompt", True)


def sections(app, now: datetime | None = None, limit: int = 5, name: str = "the person") -> list[tuple]:
    """The "About {name}" section of pinned observations (about_section), then promise and
    expectation memories as prompt units (see module docstring): upcoming ones soonest first
    (pick)."""
    out = []
    now = now or datetime.now(timezone.utc)
    about = about_section(app, name)
    if about is not None:
        out.append(about)
    for kind, label in (("promise", "Promise I've made"), ("expectation", "What I'm expecting")):
        for m in pick(list(app.memories(kind=kind)), now, limit):
            when = relative(m.event_time or m.valid_to or m.created, now)
            out.append((m.id, kind, f"{label}: {m.text}" + (f" ({when})" if when else ""), 0.9,
                        f"{kind} memory: always shown with its time"))
    return out
