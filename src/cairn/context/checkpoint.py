"""The session checkpoint with narrative and plan (PRAANA P13): what the session was doing and
what comes next, built from the session log without a model, written when the context
pressure reaches the hard tier (pressure.py) and when the session ends, and read back at the
start of the person's next session.

    cp = build(events)     # {"turn", "request", "narrative": [...], "plan": [...],
                           #  "superseded": [...], "next": [...]}
    render(cp, "s-…")      # the text the prompt gets
    write(store, sid, "end")            # a `session_checkpoint` event {"reason", "checkpoint"}
    carry_over(store, new_sid, owner)   # a `carried` event in the new session, from the
                                        # newest earlier session of the same person that has one

- request: the person's latest message.
- narrative: one line per meaningful turn (newest MAX_NARRATIVE kept): a decision or
  constraint the person stated (working.py's patterns), each tool call that changed something
  ("created a note: Trip"), and failures.
- plan: the steps of the assistant's newest step list (lines starting "1." / "2)" / "-" /
  "*", at least two); an older step list becomes a one-line `superseded` entry ("turn 4: book
  the train; pack …").
- next: the open questions and the calls still waiting for approval.

The compiler puts the carried checkpoint (pinned) and this session's latest one in the working
band (compiler.py), so a resumed or following session starts where the last one stopped.
"""

from __future__ import annotations

import re

from cairn.context.working import CONSTRAINT, DECISION, SENT, WorkingState

MAX_NARRATIVE = 20
MAX_STEPS = 10
CARRY_LOOKBACK = 20  # newest earlier sessions searched for a checkpoint to carry over
STEP = re.compile(r"^\s*(?:\d{1,2}[.)]|[-*•])\s+(.{3,200})$")
VERBS = {"create_note": "created a note", "update_note": "updated a note", "rename_note": "renamed a note",
         "delete_note": "deleted a note", "remember": "remembered", "forget": "forgot a memory",
         "remind": "set a reminder", "ingest_url": "saved a web page", "ingest_text": "saved a text",
         "save_conversation": "saved the conversation", "mark_note": "marked a note", "export": "exported"}


def _steps(text: str) -> list[str]:
    steps = [m.group(1).strip() for line in (text or "").splitlines() if (m := STEP.match(line))]
    return steps[:MAX_STEPS] if len(steps) >= 2 else []


def _what(args: dict) -> str:
    for k in ("title", "note", "text", "query", "url", "id", "memory_id"):
        v = args.get(k)
        if isinstance(v, str) and v.strip():
            return " ".join(v.split()[:10])
    return ""


def build(events: list[dict]) -> dict:
    """The checkpoint of a session from its events (module docstring)."""
    narrative: list[str] = []
    plan: list[str] = []
    superseded: list[str] = []
    plan_turn = 0
    request, turn = "", 0
    calls: dict[str, dict] = {}
    ws = WorkingState()  # its open questions: asked and not yet answered
    pending: dict[str, str] = {}
    for e in events:
        ws.fold(e)
        t, n = e.get("type"), int(e.get("turn") or 0)
        if t == "user":
            request, turn = (e.get("text") or "").strip()[:300], n
            for s in SENT.split(e.get("text") or ""):
                s = s.strip()
                if len(s) >= 4 and (CONSTRAINT.search(s) or DECISION.search(s)):
                    narrative.append(f"turn {n}: you said \"{s[:160]}\"")
        elif t == "assistant":
            steps = _steps(e.get("text") or "")
            if steps:
                if plan:
                    superseded.append(f"turn {plan_turn}: " + "; ".join(plan)[:160])
                plan, plan_turn = steps, n
            if (e.get("text") or "").startswith("The model failed"):
                narrative.append(f"turn {n}: the model failed")
        elif t == "tool_call":
            calls[e.get("call_id") or ""] = e
        elif t == "tool_result":
            call = calls.get(e.get("call_id") or "", {})
            verb = VERBS.get(e.get("name") or "")
            if e.get("outcome") == "ran" and verb:
                what = _what(call.get("arguments") or {})
                narrative.append(f"turn {n}: {verb}" + (f": {what}" if what else ""))
            elif e.get("outcome") == "failed":
                narrative.append(f"turn {n}: {e.get('name')} failed ({str(e.get('error') or '')[:80]})")
        elif t == "approval":
            if e.get("state") == "requested":
                pending[e.get("approval_id") or ""] = (e.get("call") or {}).get("name") or "a call"
            else:
                pending.pop(e.get("approval_id") or "", None)
    nxt = [f"open question (turn {q['turn']}): {q['text']}" for q in ws.questions[-3:]]
    nxt += [f"waiting for approval: {name} ({aid})" for aid, name in pending.items()]
    return {"turn": turn, "request": request, "narrative": narrative[-MAX_NARRATIVE:], "plan": plan,
            "superseded": superseded[-5:], "next": nxt}


def render(cp: dict, sid: str = "", carried: bool = False) -> str:
    """The checkpoint as prompt text: where things stand, the narrative, the plan, what is next."""
    head = (f"Where the previous conversation ({sid}) stopped" if carried
            else f"Checkpoint of this conversation (turn {cp.get('turn', 0)})")
    lines = [head + ":"]
    if cp.get("request"):
        lines.append(f"Last request: {cp['request']}")
    if cp.get("narrative"):
        lines.append("What happened: " + "; ".join(cp["narrative"]))
    if cp.get("plan"):
        lines.append("Plan: " + " ".join(f"{i}) {s}" for i, s in enumerate(cp["plan"], 1)))
    if cp.get("superseded"):
        lines.append("Earlier plans: " + " | ".join(cp["superseded"]))
    if cp.get("next"):
        lines.append("Next: " + "; ".join(cp["next"]))
    return "\n".join(lines)


def write(store, sid: str, reason: str) -> dict:
    """Append a `session_checkpoint` event {"reason", "checkpoint"} to session `sid` (reason
    "pressure" or "end"); returns the stored event."""
    cp = build(store.events(store.path(sid)) if not hasattr(store, "_events") else store._events.get(sid, []))
    return store.append(sid, {"type": "session_checkpoint", "reason": reason, "checkpoint": cp})


def latest(events: list[dict]) -> dict | None:
    """The newest `session_checkpoint` event of a session's events, or None."""
    return next((e for e in reversed(events) if e.get("type") == "session_checkpoint"), None)


def carry_over(store, sid: str, owner: str | None) -> dict | None:
    """Give new session `sid` the newest checkpoint of the same person's (`owner`, cairn.people)
    earlier sessions, as a `carried` event {"from", "checkpoint"}; None (nothing written) when
    no earlier session has one, or in incognito."""
    if hasattr(store, "_events"):
        return None
    from cairn.people import same_person
    for st in store.list()[:CARRY_LOOKBACK]:
        if st.id == sid or not same_person(st.owner, owner):
            continue
        ev = latest(store.events(store.path(st.id)))
        if ev is not None:
            return store.append(sid, {"type": "carried", "from": st.id, "checkpoint": ev["checkpoint"]})
    return None
