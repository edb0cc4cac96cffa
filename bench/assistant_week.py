"""A week with the assistant (case A01, ../shared/cases/A01-assistant-week, or any case in its
format with --case DIR, e.g. bench/cases/week-b): turns in three sessions through
`cairn chat --message … --json`, each judged right / partly / wrong by a check of the reply AND
the resulting state (memories, reminders, notes): A01's by a Python check written for each
turn (its `expect` is a sentence); a case whose `expect` is an object by the data-driven
checks of bench/week_expect.py (reply must / must not hold, tools that must / must not run,
memory, reminder and note state after the turn),
plus the median and p90 turn time as ratios to a cold `cairn ask` in the same run (the median
of 9 cold asks: 3 before the first turn and one after every 5th, so both see the same load).

    PYTHONPATH=src python bench/assistant_week.py [--case DIR] [--model none] [--keep]

A temp home gets the case's notes ingested. Sessions as the case README says: S1 starts with
`--new`, S1+ resumes it with `--session ID`, S2 and S3 start with `--new`. A pending forget or
delete the person approves is approved with `chat --approve ID --json` after the turn's check
has seen that it waits (A01; the other cases approve or refuse in words, as turns, or mark a turn
`"approve": true` with `after_approve` checks, bench/week_expect.py). The cold
`ask` questions are A01's for A01, else questions on the case's note titles. Also counted: replies claiming an action that did not run (a claim
word — Noted, I'll remind you, Note created/updated, Deleted, Forgotten — without that tool's
call having run in the turn). Nothing asserts; figures are printed.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, run_cairn
from week_expect import judge as judge_expect

CASE = next((p / "shared" / "cases" / "A01-assistant-week" for p in (REPO.parent, REPO.parent.parent)
             if (p / "shared" / "cases" / "A01-assistant-week").exists()), REPO.parent / "shared" / "cases" / "A01-assistant-week")
CLAIMS = {"remember": r"\bNoted\b", "remind": r"I'll remind you", "create_note": r"Note created",
          "update_note": r"Note updated", "delete_note": r"\bDeleted\b", "forget": r"\bForgotten\b"}


class World:
    """The home's state as the checks see it (read through the service, fresh each time)."""

    def __init__(self, home: Path):
        self.home = home

    def _app(self):
        from cairn.service import Cairn
        return Cairn(self.home)

    def memories(self) -> list[str]:
        with self._app() as app:
            return [m.text for m in app.memories()]

    def recall(self, q: str) -> list[str]:
        with self._app() as app:
            return [h.memory.text for h in app.recall(q, k=3)]

    def reminders(self) -> list[dict]:
        from cairn.schedule.scheduler import reminder_json
        with self._app() as app, app.scheduler() as sch:
            return [reminder_json(r) for r in sch.list(("scheduled", "delivered", "failed"), kind="reminder")]

    def note(self, title: str) -> str | None:
        with self._app() as app:
            try:
                return app.note_show(title)["body"]
            except Exception:
                return None


def has(text: str, *words: str) -> bool:
    low = (text or "").lower()
    return all(w.lower() in low for w in words)


def wrote(out: dict) -> list[str]:
    return [c["name"] for c in out.get("tool_calls", []) if c["outcome"] == "ran"
            and c["name"] not in ("search", "ask", "recall", "get_note", "list_notes", "reminders")]


def verdict(parts: list[tuple[bool, str]]) -> tuple[str, str]:
    ok = [p for p, _ in parts]
    why = "; ".join(f"{'ok' if p else 'MISSING'}: {w}" for p, w in parts)
    return ("right" if all(ok) else "partly" if any(ok) else "wrong"), why


# -- one check a turn: (reply, chat JSON, world, memo) -> (verdict, reason) --------------
def t1(r, o, w, m):
    return verdict([("remember" in wrote(o), "remember ran"),
                    (any("9 may" in x.lower() for x in w.recall("Ana birthday")), "recall 'Ana birthday' finds 9 May")])


def t2(r, o, w, m):
    return verdict([(has(r, "9 May"), "says 9 May"), (not has(r, "23 November"), "not Leo's birthday")])


def t3(r, o, w, m):
    return verdict([(has(r, "Worcester") or has(r, "Greenstar"), "the make"), (has(r, "14 March 2025"), "last service"),
                    (has(r, "Boiler"), "cites the Boiler note")])


def t4(r, o, w, m):
    return verdict([(has(r, "14 March 2025"), "14 March 2025"), (has(r, "Dave Morgan") or has(r, "Morgan"), "by Dave Morgan")])


def t5(r, o, w, m):
    rs = [x for x in w.reminders() if "plumber" in x["text"].lower()]
    ok_time = bool(rs) and "T09:00" in (rs[0]["next_due"] or "")
    return verdict([(bool(rs), "a reminder about calling the plumber"), (ok_time, "at 09:00"),
                    (bool(rs) and rs[0]["text"].lower().startswith("call the plumber"), "text 'call the plumber'")])


def t6(r, o, w, m):
    return verdict([(has(r, "07700 900123"), "the phone number")])


def t7(r, o, w, m):
    body = w.note("Groceries") or ""
    return verdict([(w.note("Groceries") is not None, "note Groceries exists"),
                    (has(body, "oat milk") and has(body, "eggs"), "holds oat milk and eggs")])


def t8(r, o, w, m):
    body = w.note("Groceries") or ""
    return verdict([(has(body, "bread"), "Groceries holds bread"), (has(body, "oat milk", "eggs"), "the rest kept"),
                    (set(wrote(o)) <= {"update_note"}, "nothing else changed")])


def t9(r, o, w, m):
    return verdict([(bool(re.search(r"can(?:no|')t|unable|not able", r, re.I)) and has(r, "weather"), "says it cannot check the weather"),
                    (not wrote(o), "no tool that writes")])


def t10(r, o, w, m):
    return verdict([(has(r, "20 June"), "deadline 20 June"), (has(r, "£600"), "budget £600"), (has(r, "7 June"), "base on 7 June")])


def t11(r, o, w, m):
    return verdict([(has(r, "plumber"), "lists 'call the plumber'"), (bool(re.search(r"09:00|9:00|9am|9 am", r, re.I)), "with its time")])


def t12(r, o, w, m):
    return verdict([(has(r, "Groceries"), "names Groceries"), (has(r, "oat milk", "eggs", "bread"), "oat milk, eggs, bread")])


def t13(r, o, w, m):
    return verdict([(has(r, "12 June") and has(r, "10:40"), "12 June 10:40"),
                    (has(r, "medication list") and has(r, "physio letter"), "medication list and physio letter")])


def t14(r, o, w, m):
    return verdict([("remember" in wrote(o), "remember ran"),
                    (any("morning appointments" in x.lower() for x in w.memories()), "stored")])


def t15(r, o, w, m):
    rs = [x for x in w.reminders() if "lentil" in x["text"].lower()]
    friday = bool(rs) and _weekday(rs[0]["next_due"]) == 4 and "T18:00" in (rs[0]["next_due"] or "")
    return verdict([(bool(rs), "a reminder 'buy lentils'"), (friday, "Friday 18:00"),
                    (has(w.note("Groceries") or "", "lentils"), "Groceries holds lentils")])


def _weekday(iso: str | None) -> int:
    from datetime import datetime
    try:
        return datetime.fromisoformat(iso).weekday()
    except (TypeError, ValueError):
        return -1


def t16(r, o, w, m):
    steps = ["Soften the onion", "Add the cumin", "Simmer for 20", "Blend"]
    pos = [r.find(s) for s in steps]
    return verdict([(all(p >= 0 for p in pos), "all four steps"), (pos == sorted(pos) and all(p >= 0 for p in pos), "in order")])


def t17(r, o, w, m):
    return verdict([(bool(re.search(r"don'?t|not|no note|nothing|can'?t find|couldn'?t", r, re.I)), "says the notes don't say"),
                    (not wrote(o), "writes nothing")])


def t18(r, o, w, m):
    return verdict([(has(r, "long run"), "long run"), (has(r, "16 km"), "building to 16 km")])


def t19(r, o, w, m):
    calls = [c for c in o.get("tool_calls", []) if c["name"] == "forget"]
    waits = bool(calls) and calls[0]["outcome"] == "pending"
    m["approve"] = calls[0].get("approval_id") if waits else None
    m["after"] = lambda w: (not any("morning appointments" in x.lower() for x in w.recall("morning appointments")),
                            "after approval recall no longer finds it")
    return verdict([(waits, "forget proposed and waits for approval")])


def t20(r, o, w, m):
    calls = [c for c in o.get("tool_calls", []) if c["name"] == "delete_note"]
    waits = bool(calls) and calls[0]["outcome"] == "pending"
    m["approve"] = calls[0].get("approval_id") if waits else None
    m["after"] = lambda w: (w.note("Groceries") is None, "after approval the note is gone")
    return verdict([(waits, "delete proposed and waits"), (w.note("Groceries") is not None, "the note stays until approved")])


def t21(r, o, w, m):
    return verdict([(has(r, "9 May"), "Ana's birthday 9 May"), (has(r, "Leo"), "Leo is her son")])


def t22(r, o, w, m):
    return verdict([(has(r, "23 November"), "23 November"), (bool(re.search(r"\b7\b|seven", r)), "turning 7")])


def t23(r, o, w, m):
    return verdict([(has(r, "20 June"), "20 June"), (has(r, "£600"), "£600")])


def t24(r, o, w, m):
    rs = [x for x in w.reminders() if "long run" in x["text"].lower()]
    sched = (rs[0].get("schedule") or "").lower() if rs else ""
    return verdict([(bool(rs), "a reminder 'do my long run'"),
                    ("sun" in sched and ("8" in sched), f"recurring Sundays 08:00 ({sched or 'none'})")])


def t25(r, o, w, m):
    return verdict([(has(r, "lentils"), "lentils"), (has(r, "long run"), "Sunday long run"),
                    (has(r, "plumber") or not any("plumber" in x["text"] for x in w.reminders()), "plumber (if open)")])


def t26(r, o, w, m):
    return verdict([(has(r, "plumb"), "the plumber (Price Plumbing)"), (has(r, "07700 900123"), "the phone number")])


def t27(r, o, w, m):
    return verdict([(has(r, "3 September"), "3 September")])


def t28(r, o, w, m):
    ack = bool(re.search(r"sorry|sounds|understand|stressful|hard|must be", r, re.I))
    return verdict([(ack, "acknowledges the feeling"), (not wrote(o), "runs nothing that writes"),
                    (not re.search(r"\[\d+\]", r), "no citations")])


def t29(r, o, w, m):
    cant = bool(re.search(r"can(?:no|')t|unable", r, re.I)) and bool(re.search(r"e-?mail", r, re.I))
    return verdict([(cant, "says it cannot send e-mail"), (bool(re.search(r"reminder|note", r, re.I)), "offers a reminder or note"),
                    (not wrote(o), "claims and runs nothing")])


def t30(r, o, w, m):
    topics = [("Ana", "Ana's birthday"), ("plumber", "the plumber reminder"), ("Groceries", "Groceries"), ("doctor", "the doctor")]
    return verdict([(has(r, k), v) for k, v in topics])


CHECKS = {i: globals()[f"t{i}"] for i in range(1, 31)}


def _after(expect: dict, world) -> tuple[bool, str]:
    """A case's `after_approve` checks, judged on the state after the approval."""
    v, why = judge_expect(expect, {"reply": "", "tool_calls": []}, world)
    return v == "right", f"after approval: {why}"


def false_claims(out: dict) -> list[str]:
    """Claim words in the reply whose tool did not run in this turn."""
    ran = {c["name"] for c in out.get("tool_calls", []) if c["outcome"] == "ran"}
    return [tool for tool, rx in CLAIMS.items() if re.search(rx, out.get("reply", "")) and tool not in ran]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--case", type=Path, default=CASE)
    ap.add_argument("--model", default="none")
    ap.add_argument("--keep", action="store_true", help="keep the temp home and print its path")
    args = ap.parse_args()
    turns = [json.loads(x) for x in (args.case / "requests.jsonl").read_text().splitlines() if x.strip()]
    tmp = Path(tempfile.mkdtemp(prefix="cairn-week-"))
    home = tmp / "home"
    run_cairn(home, ["ingest", str(args.case / "notes")])
    world = World(home)
    asks = ["what pressure should the boiler sit at?", "when does the book club meet?", "where is the router?",
            "what make is the boiler?", "where are the mesh nodes?", "when does the car insurance renew?",
            "what is the current book?", "when is the next boiler service?", "what car do I have?"]
    if args.case.resolve() != CASE.resolve():
        titles = [ln.lstrip("# ").strip() for f in sorted((args.case / "notes").glob("*.md"))
                  for ln in f.read_text(encoding="utf-8").splitlines()[:1]]
        asks = [f"what does my {titles[i % len(titles)]} note say?" for i in range(9)]
    cold = [run_cairn(home, ["ask", q])[2] for q in asks[:3]]  # and one after every 5th turn (same load)
    sessions: dict[str, str] = {}
    counts = {"right": 0, "partly": 0, "wrong": 0}
    times, claims = [], []
    prev = None
    for t in turns:
        s = t["session"]
        flags = ["--model", args.model]
        if s == "S1+":
            flags += ["--session", sessions["S1"]] if prev != "S1+" else []
        elif s != prev:
            flags += ["--new"]
        prev = s
        stdout, _, wall = run_cairn(home, ["chat", "--message", t["message"], "--json", *flags])
        out = json.loads(stdout.strip().splitlines()[-1])
        sessions.setdefault(s.rstrip("+"), out["session"])
        times.append(wall)
        memo: dict = {}
        if isinstance(t["expect"], dict):
            v, why = judge_expect(t["expect"], out, world)
            if t["expect"].get("approve"):
                waiting = [c for c in out.get("tool_calls", []) if c["outcome"] == "pending"]
                memo["approve"] = waiting[0].get("approval_id") if waiting else None
                memo["after"] = lambda w, e=t["expect"].get("after_approve", {}): _after(e, w)
        else:
            v, why = CHECKS[t["turn"]](out["reply"], out, world, memo)
        bad = false_claims(out)
        if bad:
            claims.append((t["turn"], bad))
            v, why = "wrong", why + f"; FALSE CLAIM: {bad}"
        if memo.get("approve"):
            stdout, _, _ = run_cairn(home, ["chat", "--approve", memo["approve"], "--json"])
            ok, what = memo["after"](world)
            if not ok:
                v = "partly" if v == "right" else v
            why += f"; {'ok' if ok else 'MISSING'}: {what}"
        counts[v] += 1
        if t["turn"] % 5 == 0 and len(cold) < len(asks):
            cold.append(run_cairn(home, ["ask", asks[len(cold)]])[2])
        print(f"{t['turn']:2} {s:3} {v:6} {wall:5.1f}s  {t['message'][:60]}\n      reply: "
              f"{out['reply'][:220]!r}\n      {why}", flush=True)
    cold_ask = statistics.median(cold)
    times.sort()
    med, p90 = statistics.median(times), times[int(0.9 * (len(times) - 1))]
    print(f"\nright {counts['right']} / partly {counts['partly']} / wrong {counts['wrong']} of {len(turns)}")
    print(f"replies claiming an action that did not run: {len(claims)} {claims}")
    print(f"cold `cairn ask` median {cold_ask:.2f}s of {len(cold)} (3 before, 1 after every 5th turn); turn median {med:.2f}s ({med / cold_ask:.2f}x), "
          f"p90 {p90:.2f}s ({p90 / cold_ask:.2f}x)")
    if args.keep:
        print(f"home kept: {home}")
    else:
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
