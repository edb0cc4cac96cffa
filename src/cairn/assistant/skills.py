"""Skills and workflow patterns (PRAANA P24, P25): a sequence of tool calls from a
conversation, named by the person and run again, ranked by the person's "helpful" / "not
helpful" votes (store/skills.py keeps them and computes the usefulness).

    steps_from(events, turns=None)   the calls that ran (or wait for approval) in those turns
                                     (default: the newest turn that made any) ->
                                     ([{"tool", "arguments"}], turns)
    run(bot, name, ui)               one turn of `bot` (an Assistant) that makes the skill's
                                     calls through the judge: low runs, medium is announced,
                                     high waits for approval, exactly as if the model had
                                     proposed them; the run is counted
    patterns(store, owner)           workflow patterns: the tool sequences (per turn, in call
                                     order, repeats folded) that recur in at least
                                     MIN_PATTERN turns across the person's sessions, most
                                     frequent first: candidates worth saving as a skill
"""

from __future__ import annotations

import secrets
from collections import Counter

MIN_PATTERN = 2


def steps_from(events: list[dict], turns: list[int] | None = None) -> tuple[list[dict], list[int]]:
    """The calls that ran in `turns` of a session's `events`, in order (module docstring)."""
    calls: dict = {}  # call id -> its newest tool_call (providers reuse ids across steps)
    ran = []
    for e in events:
        if e.get("type") == "tool_call":
            calls[e.get("call_id")] = e
        elif e.get("type") == "tool_result" and e.get("outcome") in ("ran", "pending"):
            ran.append((int(e.get("turn") or 0), calls.get(e.get("call_id")) or {}))
    if turns is None:
        last = max((t for t, _ in ran), default=None)
        turns = [] if last is None else [last]
    chosen = [{"tool": c.get("name"), "arguments": c.get("arguments") or {}} for t, c in ran if t in turns and c]
    return chosen, list(turns)


def run(bot, name: str, ui=None):
    """Run skill `name` as one turn of `bot` (module docstring). Returns the TurnResult.
    Raises NotFound for an unknown skill."""
    from cairn.assistant.models import ToolCall
    from cairn.assistant.results import Channel, TurnResult, _pending_json, _summary
    ui = ui or Channel()
    skill = bot.app.skill(name)
    sid = bot.state.id
    text = f"run the skill {skill['name']!r}"
    turn_no = bot.state.turns + 1
    bot.store.append(sid, {"type": "user", "turn": turn_no, "text": text})
    bot._turn_text = (turn_no, text)
    res = TurnResult("", sid)
    for step in skill["steps"]:
        call = ToolCall("skill-" + secrets.token_hex(4), step["tool"], dict(step["arguments"]))
        res.tool_calls.append(bot._handle(call, text, False, ui, turn_no))
    res.reply = (f"Ran the skill {skill['name']!r}: " + _summary(res.tool_calls)).strip()
    if not bot.incognito:
        bot.app.skill_ran(skill["name"])
    res.notices.append(f"was it useful? /skill rate {skill['name']} helpful | not-helpful")
    res.pending_approvals = _pending_json(bot.store.load(sid).pending)
    bot.store.append(sid, {"type": "assistant", "turn": turn_no, "text": res.reply, "notices": res.notices})
    bot.state = bot.store.load(sid)
    return res


def patterns(store, owner: str | None = None) -> list[dict]:
    """Recurring tool sequences across the sessions `store` lists for `owner`: [{"tools",
    "turns" (how many turns made it), "sessions" (how many sessions)}], most frequent first."""
    from cairn.people import same_person
    seen: Counter = Counter()
    where: dict[tuple, set] = {}
    for st in store.list():
        if owner is not None and not same_person(st.owner, owner):
            continue
        by_turn: dict[int, list[str]] = {}
        for e in store.events(store.path(st.id)):
            if e.get("type") == "tool_result" and e.get("outcome") == "ran":
                seq = by_turn.setdefault(int(e.get("turn") or 0), [])
                if not seq or seq[-1] != e.get("name"):
                    seq.append(e.get("name"))
        for seq in by_turn.values():
            key = tuple(seq)
            seen[key] += 1
            where.setdefault(key, set()).add(st.id)
    return [{"tools": list(k), "turns": n, "sessions": len(where[k])}
            for k, n in seen.most_common() if n >= MIN_PATTERN]
