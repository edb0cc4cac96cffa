"""Reminders asked for in words, for models that cannot call tools (and for "none"): set one
("remind me tmrw at 7.30am to …"), list them, cancel, snooze or move one that a phrase names
("that", "the bins one"), each through the judge as a tool call (`self._tool`). A mixin of
Assistant beside `Understood` (understood.py), which dispatches to its `_do_*` methods.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

from cairn.assistant.nlu import replies as RP
from cairn.assistant.nlu import slots as SL
from cairn.assistant.nlu import state as NS
from cairn.assistant import results as RS
from cairn.assistant.results import describe


# A reminder named by its words ("cancel the voice warm-up one" of "warm up my voice") is matched on the stemmed content
# words of both (RP.terms: hyphens and plurals read as in the index), the pro-form "one" no word of it, besides the
# phrase's raw words and its likeness. Switch off: TERMS_MATCH.
TERMS_MATCH = True
_PRO_FORMS = frozenset({"one", "ones"})


class Reminding:
    """The reminder actions of `Understood._one` (mixin; `self._tool` runs a tool call, `self.app`
    is the Cairn, `self._context(u, t)` an action's preface)."""

    # -- reminders ---------------------------------------------------------------------------
    def _do_remind(self, t, u, st, ui, turn_no, res, log) -> dict:
        args = SL.reminder(t)
        if "at" not in args and "every" not in args:
            odd = f"“{args['unread']}” {self._unread_reason(args['unread'])}. " if args.get("unread") else ""
            return {"reply": f"{odd}When should I remind you to {args['text']}? Say e.g. \"tomorrow at 9\" or "
                             "\"every Monday at 8\" — nothing is set yet.", "slots": args}
        rec = self._tool("remind", args, t, ui, turn_no, res)
        made = rec.result.get("id") if rec.outcome == "ran" and isinstance(rec.result, dict) else None
        return {"reply": describe(rec), "slots": {**args, **({"reminder": made} if made else {})}}

    def _unread_reason(self, unread: str) -> str:
        """Why the time phrase `unread` set no reminder, as the scheduler finds it: "is in the
        past", "is too far away ...", "cannot be: February has no day 31 (it has at most 29)"; else "is no time I
        can read"."""
        from cairn.errors import InvalidInput
        from cairn.schedule import when as W
        try:
            W.parse_when(unread, W.zone(self.app.settings.time.timezone or None), datetime.now(timezone.utc),
                         recurring=unread.strip().lower().startswith("every"))
        except InvalidInput as exc:
            msg = str(exc)
            if "is in the past" in msg:
                return "is in the past"
            if "too far away" in msg:
                return "is too far away (at most about 100 years ahead)"
            m = re.search(r"no month has a day \d+|\w+ has no day \d+ \(it has at most \d+\)|there is no [^.;()]+|day \d+ of a month does not exist|"
                          r"the interval must be positive|\d+:\d\d is not a time of day|\d+ \w+ \d{4} is a \w+, not a \w+", msg)
            if m:
                return f"cannot be: {m.group(0)}"
        except Exception:  # noqa: BLE001 - only the wording of a refusal depends on it
            pass
        return "is no time I can read"

    def _reminder_rows(self, ui, turn_no, res, t) -> list[dict] | str:
        """The reminders tool's rows; when the call did not run (a damaged reminder store), the
        sentence saying so (results.describe): a list that failed is not an empty one."""
        rec = self._tool("reminders", {}, t, ui, turn_no, res)
        if rec.outcome != "ran":
            return describe(rec)
        return rec.result if isinstance(rec.result, list) else []

    def _do_reminders_list(self, t, u, st, ui, turn_no, res, log) -> dict:
        rows = self._reminder_rows(ui, turn_no, res, t)
        return {"reply": rows if isinstance(rows, str) else RP.reminders_text(rows)}

    def _find_reminder(self, t, rows, context: str = "") -> dict | None:
        """The open reminder `t` names (fuzzy match of its phrase on the reminders' texts);
        "that" / "it" is the one the preface `context` speaks of, else the latest one."""
        import difflib
        phrase = SL.reminder_phrase(t).lower()
        open_ = [r for r in rows if r.get("state") in ("scheduled", "delivered", "failed")]
        if not open_:
            return None
        if not phrase or phrase in ("it", "that", "this", "that one", "this one"):
            said = set(RP.terms(context))
            named = [r for r in open_ if said & RP.terms(r.get("text") or "")]
            return named[-1] if named else open_[-1]
        words = RP.terms(phrase) - _PRO_FORMS if TERMS_MATCH else set()  # "the voice warm-up one": voice, warm, up
        score = lambda r: max(difflib.SequenceMatcher(None, phrase, r["text"].lower()).ratio(),  # noqa: E731
                              1.0 if phrase in r["text"].lower() else 0.0,
                              len(set(phrase.split()) & set(r["text"].lower().split())) / max(1, len(phrase.split())),
                              len(words & RP.terms(r["text"])) / max(1, len(words)))
        best = max(open_, key=score)
        return best if score(best) >= 0.5 else None

    def _do_reminder_cancel(self, t, u, st, ui, turn_no, res, log) -> dict:
        return self._change_reminder("reminder_cancel", {}, "cancelled", t, u, ui, turn_no, res)

    def _do_reminder_snooze(self, t, u, st, ui, turn_no, res, log) -> dict:
        return self._change_reminder("reminder_snooze", {"until": SL.snooze_until(t)}, "snoozed", t, u, ui, turn_no,
                                     res)

    def _do_reminder_move(self, t, u, st, ui, turn_no, res, log) -> dict:
        """"Move the bowls reminder to fridays" / "change the cubs reminder to 5.30pm": the reminder the
        phrase names keeps what was not said. A repeating one gets its schedule with the weekday or time
        of day replaced (SL.moved_schedule; every later time moves, through the snooze tool's `every`);
        a one-off one gets the first such day after its own time, at its time (SL.snooze_after, as a snooze),
        or the new time on its day (SL.corrected_due)."""
        rows = self._reminder_rows(ui, turn_no, res, t)
        if isinstance(rows, str):
            return {"reply": rows + " Nothing was changed."}
        r = self._find_reminder(t, rows, self._context(u, t))
        if r is None:
            return {"reply": "I couldn't find an open reminder like that, so nothing was changed."}
        sched = str(r.get("schedule") or "")
        if sched.lower().startswith("every"):
            every = SL.moved_schedule(t, sched, r.get("next_due"))
            if every is None:
                return {"reply": f"What day or time should “{r['text']}” ({sched}) move to? Nothing was changed.",
                        "slots": {"reminder": r["id"], "text": r["text"]}}
            rec = self._tool("reminder_snooze", {"id": r["id"], "every": every}, t, ui, turn_no, res)
            ok = rec.outcome == "ran" and isinstance(rec.result, dict)
            return {"reply": f"Changed: “{r['text']}” is now {every}." if ok else describe(rec),
                    "slots": {"reminder": r["id"], "text": r["text"], "every": every}}
        one = re.sub(r"\b(\w+day)s\b", r"\1", t, flags=re.I)  # "to mondays": a one-off has one Monday
        day, clock = SL.correction(one)  # a day: the first such day after its own time, at its time (as a snooze)
        until = (SL.snooze_after(SL.snooze_until(one), r.get("next_due")) if day
                 else SL.corrected_due(one, r.get("next_due")))
        if until is None or (day is None and clock is None):
            return {"reply": f"What day or time should “{r['text']}” move to? Nothing was changed.",
                    "slots": {"reminder": r["id"], "text": r["text"]}}
        rec = self._tool("reminder_snooze", {"id": r["id"], "until": until}, t, ui, turn_no, res)
        ok = rec.outcome == "ran" and isinstance(rec.result, dict)
        spoken = RS.when_spoken(until) if RS.SPOKEN_TIMES and re.match(r"\d{4}-", until) else "at " + until
        return {"reply": f"Changed: “{r['text']}” is now {spoken}." if ok else describe(rec),
                "slots": {"reminder": r["id"], "text": r["text"], "until": until}}

    def _do_reminder_correct(self, t, u, st, ui, turn_no, res, log) -> dict:
        """"No, I meant Friday" / "make it quarter to eight": the reminder the conversation last
        set or moved gets the new day (keeping its time) or time (keeping its day), through
        the snooze tool (SL.corrected_due); the latest open reminder when the session set none. A
        repeating reminder has its next time moved only, and the reply says so; a move past one
        of its later times (which it would skip) is refused."""
        rows = self._reminder_rows(ui, turn_no, res, t)
        if isinstance(rows, str):
            return {"reply": rows + " Nothing was changed."}
        open_ = [r for r in rows if r.get("state") in ("scheduled", "delivered", "failed")]
        last = next((a.get("slots", {}) for e in reversed(st.turns) for a in reversed(e.get("actions", []))
                     if a.get("intent") in NS.REMINDER_INTENTS), {})
        if last.get("text") and not last.keys() & {"reminder", "at", "every", "until"}:  # asked when; nothing set
            return {"reply": f"Nothing is set yet for “{last['text']}” — when should I remind you? Say e.g. "
                             "\"tomorrow at 9\"; no other reminder was changed.", "slots": {"text": last["text"]}}
        want = last.get("reminder")
        r = next((r for r in open_ if r["id"] == want), None) or next(
            (r for r in reversed(open_) if last.get("text") and r.get("text") == last["text"]), None) or (
            open_[-1] if open_ else None)
        if r is None:
            return {"reply": "There is no reminder to change, so nothing was moved."}
        until = SL.corrected_due(t, r.get("next_due"))
        if until is None:
            day, clock = SL.correction(t)
            why = self._unread_reason(day) if day else ""  # "Tuesday 12 January" that is a Wednesday: said so
            said = (day, clock) != (None, None) or SL.says_shift(t)  # a time that is past, else none read
            return {"reply": (f"“{day}” {why}. " if why.startswith("cannot") else
                              f"That time for “{r['text']}” has already passed. " if said else "") + (
                    f"What day or time should “{r['text']}” be instead? Nothing was changed."),
                    "slots": {"reminder": r["id"], "text": r["text"]}}
        repeats = str(r.get("schedule") or "").lower().startswith("every")
        if repeats and (n := SL.skipped_repeats(r["schedule"], r.get("next_due"), until)):
            return {"reply": f"{until} is past {n if n < 100 else 'more than 99'} of the times “{r['text']}” repeats "
                             f"({r['schedule']}); nothing was changed — to change every one, cancel it and set it again.",
                    "slots": {"reminder": r["id"], "text": r["text"]}}
        rec = self._tool("reminder_snooze", {"id": r["id"], "until": until}, t, ui, turn_no, res)
        reply = (f"Changed: “{r['text']}” is now {RS.when_spoken(until) if RS.SPOKEN_TIMES else 'at ' + until}." if rec.outcome == "ran" and isinstance(rec.result, dict)
                 else describe(rec))
        if rec.outcome == "ran" and repeats:
            reply += (f" It repeats ({r['schedule']}): only this time was moved — to change every one, cancel it "
                      "and set it again.")
        return {"reply": reply, "slots": {"reminder": r["id"], "text": r["text"], "until": until}}

    def _change_reminder(self, tool: str, extra: dict, done: str, t, u, ui, turn_no, res) -> dict:
        """Run `tool` (cancel, snooze) with `extra` arguments on the open reminder `t` names
        ("that" / "it": the one the action's preface speaks of)."""
        rows = self._reminder_rows(ui, turn_no, res, t)
        if isinstance(rows, str):
            return {"reply": f"{rows} Nothing was {done}."}
        r = self._find_reminder(t, rows, self._context(u, t))
        if r is None:
            return {"reply": f"I couldn't find an open reminder like that, so nothing was {done}."}
        if "until" in extra:  # a weekday lands on the first such day after the reminder's own time
            extra = {**extra, "until": SL.snooze_after(extra["until"], r.get("next_due"))}
        rec = self._tool(tool, {"id": r["id"], **extra}, t, ui, turn_no, res)
        return {"reply": describe(rec), "slots": {"reminder": r["id"], "text": r["text"], **extra}}
