"""The nudge to record a constraint the person states (PRAANA P14): "I never fly before 9",
"don't book anything on Sundays". The assistant offers to remember it as a memory of kind
`constraint` and stores nothing without the person's word: the offer is a pending approval of
the call `remember(text, kind="constraint")`, decided like any other (`/approve ID`,
`cairn chat --approve ID`, the buttons of the web page and Telegram); denied or left alone,
nothing is kept.

Two layers, as in the seed: the system frame tells the model to offer (prompt.RULES, rule 4),
and this module is the deterministic safety net that needs no model. It only takes sentences
that are unambiguous standing rules (`stated_rule`):

- the person about themselves: "I / we never | always | only | can't | won't | don't | do not
  | must not | avoid ..." (not "I don't know / think / want ...", "I can't stand / wait / sleep
  ...": feelings, states and abilities state no rule);
- an instruction with a standing scope: "don't | do not | never | always | avoid VERB ..."
  that also says "anything", "any", "ever", "every", a weekday in the plural, "weekends",
  "mornings", "evenings", "nights", "before" or "after" (so "don't delete that note" is not one).

Questions are not rules. The turn's automatic memory extraction skips such sentences
(`without_rules`), so the rule is kept only as the person approves it. No offer is made when the turn already called `remember` (the
person asked for it), when the same sentence was offered before in this session, or when a
constraint with that text is already stored; at most one offer per turn.
"""

from __future__ import annotations

import re
import secrets

SELF_RULE = re.compile(r"^(?:i|we)\s+(?:never|always|only|can'?t|cannot|won'?t|will not|don'?t|do not|must not|"
                       r"mustn'?t|avoid|refuse to)\s+(\w+)", re.I)
NOT_RULES = frozenset("know think see understand remember recall mind care get want need like love hate believe "
                      "agree have feel wonder mean guess suppose stand bear wait help find stop decide tell sleep "
                      "hear imagine afford".split())  # feelings, states and abilities, not rules
ORDER = re.compile(r"^(?:please\s+)?(?:don'?t|do not|never|always|avoid)\s+\w+", re.I)
SCOPE = re.compile(r"\b(?:anything|any|ever|every\w*|(?:mon|tues|wednes|thurs|fri|satur|sun)days|weekends?|"
                   r"mornings|evenings|nights|before|after)\b", re.I)
SENTENCE = re.compile(r"(?<=[.!;])\s+|\n+")


def stated_rule(text: str) -> str | None:
    """The first sentence of `text` that states a standing rule (module docstring), stripped
    of its end punctuation, or None."""
    for s in SENTENCE.split(text or ""):
        s = s.strip().rstrip(".!;").strip()
        if len(s) < 6 or s.endswith("?"):
            continue
        m = SELF_RULE.match(s)
        if m and m.group(1).lower() not in NOT_RULES:
            return s[:300]
        if ORDER.match(s) and SCOPE.search(s):
            return s[:300]
    return None


def without_rules(text: str) -> str:
    """`text` without its sentences that state a standing rule (stated_rule): the turn's
    memory extraction (turnmemory.py) leaves them to the offer, so a rule reaches memory only
    with the person's word."""
    if stated_rule(text) is None:
        return text
    kept = [s for s in SENTENCE.split(text) if stated_rule(s) is None]
    return " ".join(k.strip() for k in kept if k.strip())


def offer_constraint(bot, text: str, turn_no: int, res) -> list[str]:
    """After a turn: when the person's message `text` states a rule, add a pending approval of
    remember(kind="constraint") to the session and return the notice that offers it; else [].
    Nothing in incognito or without a session."""
    if bot.incognito or not bot.state.id:
        return []
    rule = stated_rule(text)
    if rule is None or any(c.name == "remember" for c in res.tool_calls):
        return []
    state = bot.store.load(bot.state.id)
    offered = [e for e in bot.store.events(bot.store.path(state.id)) if e.get("type") == "approval"
               and e.get("state") == "requested" and (e.get("call") or {}).get("nudge")]
    if any(((e.get("call") or {}).get("arguments") or {}).get("text") == rule for e in offered):
        return []
    try:
        if any(m.text.strip().lower() == rule.lower() for m in bot.app.memories(kind="constraint")):
            return []
    except Exception:  # the memory store is unavailable: offering is still safe
        pass
    aid = "ap-" + secrets.token_hex(4)
    call = {"name": "remember", "arguments": {"text": rule, "kind": "constraint"}, "risk": "high",
            "reasons": ["a rule you stated: kept as a constraint only if you say so"], "provenance": "user",
            "turn": turn_no, "nudge": True}
    bot.store.append(state.id, {"type": "approval", "approval_id": aid, "call_id": "nudge-" + aid[3:],
                                "state": "requested", "call": call})
    bot.state = bot.store.load(state.id)
    return [f"You stated a rule: \"{rule}\". Shall I remember it as a constraint? /approve {aid} keeps it, "
            f"/deny {aid} does not (nothing is kept unless you say so)."]
