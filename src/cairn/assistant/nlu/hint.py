"""The understanding layer's reading of a message, as a short hint for a model that calls
tools itself (issue 32): the classifier's intent of each action, its main slots and what a
pronoun or ellipsis was resolved to. It goes into the prompt as a pinned unit marked as a
hint the model may overrule (cairn.context.clock.hint_text); it never replaces the person's
words, and nothing here runs a tool or writes anything.

    hint_for(app, understanding)
    # 'remind (score 0.93): text "call the plumber", at "tomorrow at 9"'
    # 'note_append (score 0.88): note "Groceries" (resolved in the vault), add "bread"'
    # "ask (score 0.71): subject 'Boiler' ('it' = 'Boiler' (the last subject))"

None when the message read as nothing in particular (every action "none", or small talk):
the prompt then carries no hint. The slots are the ones the offline path would use
(cairn.assistant.nlu.slots); a slot that cannot be filled is left out.
"""

from __future__ import annotations

from cairn.assistant.nlu import notenames as NN
from cairn.assistant.nlu import slots as SL
from cairn.assistant.nlu.understand import Understanding

NOTE_INTENTS = frozenset({"note_append", "note_edit", "note_rename", "note_delete", "note_show",
                          "note_summarise"})
QUIET = frozenset({"none", "smalltalk"})  # intents that give the model nothing to go on
MAX_SLOT_CHARS = 80


def _q(value: str) -> str:
    v = " ".join(str(value).split())
    return '"' + (v[:MAX_SLOT_CHARS] + "…" if len(v) > MAX_SLOT_CHARS else v) + '"'


def _slots(app, intent: str, text: str) -> list[str]:
    """The main slots of one action, as "name value" phrases (pure reads: note titles)."""
    out: list[str] = []
    if intent == "remember":
        out.append(f"text {_q(SL.remember_text(text))}")
    elif intent == "forget":
        out.append(f"about {_q(SL.forget_query(text))}")
    elif intent == "remind":
        args = SL.reminder(text)
        out.append(f"text {_q(args.get('text') or '')}")
        if args.get("at"):
            out.append(f"at {_q(args['at'])}")
        if args.get("every"):
            out.append(f"every {_q(args['every'])}")
        if not args.get("at") and not args.get("every"):
            out.append("no time given")
    elif intent == "note_create":
        s = SL.create_slots(text)
        if s.get("title"):
            out.append(f"title {_q(s['title'])}")
    elif intent in NOTE_INTENTS:
        title, phrase = NN.resolve_note(app, text)
        if title:
            out.append(f"note {_q(title)} (found in the vault)")
        elif phrase:
            out.append(f"note {_q(phrase)} (no such note found)")
        if intent == "note_append" and title:
            body = SL.append_slots(text, title)
            if body:
                out.append(f"add {_q(body)}")
        if intent == "note_rename":
            new = SL.rename_slots(text)
            if new:
                out.append(f"new title {_q(new)}")
    elif intent == "reminder_correct":
        day, clock = SL.correction(text)
        said = " ".join(x for x in (day or "", f"{clock[0]:02d}:{clock[1]:02d}" if clock else "") if x)
        out.append("a correction of the reminder just set: move it (reminder_snooze) to "
                   + (_q(said) if said else "the day or time the person says"))
    elif intent.startswith("cannot_"):
        out.append("a request Cairn has no tool for: say so plainly and offer a reminder or a note")
    return out


def hint_for(app, u: Understanding) -> str | None:
    """The hint text for Understanding `u` of one message (module docstring), or None.
    `app`: the Cairn service (note titles are resolved against its vault)."""
    parts: list[str] = []
    for a in u.actions:
        if a.intent in QUIET:
            continue
        slots = _slots(app, a.intent, a.text)
        if a.intent in ("ask", "about", "recall") and u.subject:
            slots.append(f"subject {_q(u.subject)}")
        label = f"{a.intent} (score {a.prediction.score:.2f})"
        parts.append(label + (": " + ", ".join(slots) if slots else ""))
    if not parts:
        return None
    text = "; then ".join(parts) if len(parts) > 1 else parts[0]
    if len(parts) > 1:
        text = f"{len(parts)} requests in order: {text}"
    resolved = [r for r in u.resolution if not r.startswith(("two requests", "two questions"))]
    if resolved:  # (the split itself is said by the count above)
        text += ". Resolved: " + "; ".join(resolved)
    return text
