"""The `/why` of a turn the intent router answered without a model: no prompt was sent, so
none is compiled (that would cost a recall, a search and the compiler's imports on every
routed turn); what is saved says so, in the shape of `Compiled.why()`:

    system   the rules          working   the clock (today's date, time, zone: clock.py)
    memories no unit (the router read none), `more_available` = every memory the person has
    recent   the person's message

so `cairn chat --why --session ID --json` shows today's date and `more_available` after any
turn. The next turn a model answers compiles and saves its full prompt.
"""

from __future__ import annotations


def routed_why(app, text: str, rules: str, now=None) -> dict:
    """The why JSON of a routed turn (module docstring). `app`: the Cairn service (its
    memories are counted; 0 when they cannot be read)."""
    from cairn.context.clock import CLOCK_ID, clock_text, zone_name
    from cairn.context.memband import more_line
    from cairn.context.tokens import estimate
    try:
        total = len(app.memories())
    except Exception:
        total = 0
    clock = clock_text(now, zone_name(app.settings))

    def unit(uid: str, kind: str, body: str, why: str) -> dict:
        return {"id": uid, "kind": kind, "tokens": estimate(body), "score": 1.0, "why": why, "text": body}

    bands = {"system": [unit("rules", "rules", rules, "always")],
             "working": [unit(CLOCK_ID, "clock", clock, "today's date, time and time zone: always in the prompt")],
             "memories": [unit("memories:more", "memories_more", more_line(total, 0), "memories left out: recall finds them")]
             if total else [],
             "recent": [unit("current", "message", text, "the person's message this turn (answered by the intent "
                                                          "router: no prompt was sent)")]}
    names = ("system", "core", "working", "memories", "notes", "recent", "compacted")
    out = [{"name": n, "budget": 0, "tokens": sum(u["tokens"] for u in bands.get(n, [])), "units": bands.get(n, []),
            **({"more_available": total} if n == "memories" else {})} for n in names]
    return {"budget": 0, "total_tokens": sum(b["tokens"] for b in out), "bands": out}
