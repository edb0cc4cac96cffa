"""Data-driven checks of a week with the assistant (bench/assistant_week.py --case DIR): each
turn of a case's requests.jsonl may carry an `expect` OBJECT, judged here against the turn's
`cairn chat --json` output and the home's state after the turn. (Case A01 writes `expect` as a
sentence and keeps its per-turn Python checks in assistant_week.py.)

Keys of `expect` (all optional; every string compared case-insensitively):

    says            the expectation in words (printed, not judged)
    reply_has       [s, ...]            every s is in the reply
    reply_any       [[s, ...], ...]     each group: at least one of its strings is in the reply
    reply_not       [s, ...]            no s is in the reply
    reply_not_regex [rx, ...]           no rx matches the reply
    reply_order     [s, ...]            every s is in the reply, in this order
    ran             [tool, ...]         each tool ran in the turn (outcome "ran")
    not_ran         [tool, ...]         none of these ran
    writes          false | [tool, ...] false: no tool that writes ran; a list: only these writing tools ran
    pending         tool                a call of this tool waits for approval
    memory_has      [s, ...]            some stored memory holds s (each)
    memory_not      [s, ...]            no stored memory holds s
    reminder        [{...}, ...]        an open reminder whose text holds "text" ("starts": true: begins
                                        with it), next due at "time" (HH:MM local), on "weekday"
                                        (Monday..Sunday), on "day" ("today" | "tomorrow"), repeating with
                                        a schedule holding every string of "every"
    reminder_gone   [s, ...]            no open reminder's text holds s
    note            [{"title", "has", "not"}]  the note exists and holds / lacks those strings
    note_gone       [title, ...]        no note has this title
    approve         true                the person approves the pending call (the bench runs
                                        `chat --approve ID` after judging the turn)
    after_approve   {...}               checks (the state keys above) judged after that approval

`judge(expect, out, world, now)` returns ("right" | "partly" | "wrong", reason): right when every
part holds, partly when some do, wrong when none does. `world` is any object with `memories()`
(list of str), `reminders()` (list of reminder_json dicts) and `note(title)` (body or None).
Unknown keys raise ValueError (a typo in a case must not pass silently).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

READ_ONLY = frozenset({"search", "ask", "recall", "get_note", "list_notes", "reminders"})
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
KEYS = frozenset({"says", "reply_has", "reply_any", "reply_not", "reply_not_regex", "reply_order", "ran", "not_ran",
                  "writes", "pending", "memory_has", "memory_not", "reminder", "reminder_gone", "note", "note_gone",
                  "approve", "after_approve"})


def _in(s: str, text: str) -> bool:
    return s.lower() in (text or "").lower()


def wrote(out: dict) -> list[str]:
    """Names of the tools that ran in the turn and write (everything but the read-only ones)."""
    return [c["name"] for c in out.get("tool_calls", []) if c.get("outcome") == "ran" and c["name"] not in READ_ONLY]


def _ran(out: dict) -> set[str]:
    return {c["name"] for c in out.get("tool_calls", []) if c.get("outcome") == "ran"}


def _due(iso: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(iso) if iso else None
    except ValueError:
        return None


def _reminder_ok(want: dict, rows: list[dict], now: datetime) -> tuple[bool, str]:
    text = want.get("text", "")
    cands = [r for r in rows if (r.get("text") or "").lower().startswith(text.lower())] if want.get("starts") \
        else [r for r in rows if _in(text, r.get("text") or "")]
    what = [f"a reminder {'starting' if want.get('starts') else 'about'} {text!r}"]
    for k in ("time", "weekday", "day", "every"):
        if k in want:
            what.append(f"{k} {want[k]}")

    def fits(r: dict) -> bool:
        due = _due(r.get("next_due"))
        sched = str(r.get("schedule") or "").lower()
        if "time" in want and (due is None or due.strftime("%H:%M") != want["time"]):
            return False
        if "weekday" in want and (due is None or DAYS[due.weekday()] != want["weekday"].lower()):
            return False
        if "day" in want:
            day = {"today": 0, "tomorrow": 1}[want["day"]]
            if due is None or due.date() != (now.astimezone(due.tzinfo) + timedelta(days=day)).date():
                return False
        if "every" in want and not (sched.startswith("every") and all(s.lower() in sched for s in want["every"])):
            return False
        return True

    ok = any(fits(r) for r in cands)
    seen = "; ".join(f"{r.get('text')!r} {r.get('next_due')} {r.get('schedule')}" for r in cands[:2]) or "none"
    return ok, " ".join(what) + ("" if ok else f" (seen: {seen})")


def parts(expect: dict, out: dict, world, now: datetime) -> list[tuple[bool, str]]:
    """[(holds, what)] of every check in `expect` (module docstring). ValueError for an unknown key."""
    bad = set(expect) - KEYS
    if bad:
        raise ValueError(f"unknown expect key(s): {sorted(bad)}")
    reply = out.get("reply") or ""
    got: list[tuple[bool, str]] = []
    for s in expect.get("reply_has", []):
        got.append((_in(s, reply), f"reply has {s!r}"))
    for group in expect.get("reply_any", []):
        got.append((any(_in(s, reply) for s in group), f"reply has one of {group}"))
    for s in expect.get("reply_not", []):
        got.append((not _in(s, reply), f"reply lacks {s!r}"))
    for rx in expect.get("reply_not_regex", []):
        got.append((not re.search(rx, reply), f"reply does not match {rx!r}"))
    if expect.get("reply_order"):
        pos = [reply.lower().find(s.lower()) for s in expect["reply_order"]]
        got.append((all(p >= 0 for p in pos) and pos == sorted(pos), f"reply has {expect['reply_order']} in order"))
    for tool in expect.get("ran", []):
        got.append((tool in _ran(out), f"{tool} ran"))
    for tool in expect.get("not_ran", []):
        got.append((tool not in _ran(out), f"{tool} did not run"))
    if "writes" in expect:
        w = wrote(out)
        if expect["writes"] is False:
            got.append((not w, f"nothing written (wrote: {w or 'nothing'})"))
        else:
            got.append((set(w) <= set(expect["writes"]), f"only {expect['writes']} written (wrote: {w or 'nothing'})"))
    if expect.get("pending"):
        waits = any(c["name"] == expect["pending"] and c.get("outcome") == "pending" for c in out.get("tool_calls", []))
        got.append((waits, f"{expect['pending']} proposed and waits for approval"))
    if expect.get("memory_has") or expect.get("memory_not"):
        mems = world.memories()
        for s in expect.get("memory_has", []):
            got.append((any(_in(s, m) for m in mems), f"a memory holds {s!r}"))
        for s in expect.get("memory_not", []):
            got.append((not any(_in(s, m) for m in mems), f"no memory holds {s!r}"))
    if expect.get("reminder") or expect.get("reminder_gone"):
        rows = [r for r in world.reminders() if r.get("state") in ("scheduled", "delivered", "failed", None)]
        for want in expect.get("reminder", []):
            got.append(_reminder_ok(want, rows, now))
        for s in expect.get("reminder_gone", []):
            got.append((not any(_in(s, r.get("text") or "") for r in rows), f"no open reminder about {s!r}"))
    for want in expect.get("note", []):
        body = world.note(want["title"])
        got.append((body is not None, f"note {want['title']!r} exists"))
        if body is not None:
            for s in want.get("has", []):
                got.append((_in(s, body), f"{want['title']!r} holds {s!r}"))
            for s in want.get("not", []):
                got.append((not _in(s, body), f"{want['title']!r} lacks {s!r}"))
    for title in expect.get("note_gone", []):
        got.append((world.note(title) is None, f"no note {title!r}"))
    return got


def verdict(got: list[tuple[bool, str]]) -> tuple[str, str]:
    """("right" | "partly" | "wrong", reason) of judged parts; no parts is "right"."""
    ok = [p for p, _ in got]
    why = "; ".join(f"{'ok' if p else 'MISSING'}: {w}" for p, w in got)
    return ("right" if all(ok) else "partly" if any(ok) else "wrong"), why


def judge(expect: dict, out: dict, world, now: datetime | None = None) -> tuple[str, str]:
    """The verdict of one turn (module docstring)."""
    return verdict(parts(expect, out, world, now or datetime.now().astimezone()))
