"""No false claims (issue 32): after every model reply, no sentence may claim an action
(added, deleted, created, reminded, sent, e-mailed, ...) that no tool call of that turn
performed. A reply that does is redrafted once by the model, told what really ran; a redraft
that still claims one is replaced by a factual summary of the turn's tool calls.

    found = false_claims("I've added bread to the Groceries note.", calls)  # -> [Claim(...)]
    reply = honest_reply(bot, model, messages, reply, res, ui)

A claim is a sentence that (a) has the assistant as the doer: "I/I've/we ... VERB",
a sentence opening with the verb ("Added bread ..."), a passive "has been / is now / was
successfully VERB", or a thing as the doer ("The note added bread ...": a small model's
garble), and (b) is not a question, a negation, a conditional or a plan ("I will delete it
once you approve", "Should I add ...?", "I could not send ..."), nor a statement about the
person's own doing ("you added ...": only the assistant or its artefacts are doers) or cited
from the notes ("... [1]"). A hedge counts only before the claimed verb. Each verb names a
kind of action; a claim is supported when a call that RAN this turn is of that kind:

    write   added, appended, created, saved, stored, updated, edited, changed, renamed, wrote,
            noted, remembered, "I'll remember"   -> any tool that is not read-only
    delete  deleted, removed, erased, trashed, forgot(ten), cancelled -> a destructive tool,
            or one named delete/forget/cancel/remove
    remind  reminded, scheduled, "set a reminder", snoozed -> a tool named remind/snooze/schedule
    send    sent, e-mailed, texted, messaged, posted, forwarded, called, phoned, booked,
            ordered, bought, paid -> a tool named send/email/message/post/book/order/pay
            (no built-in tool leaves the machine: such a claim is false unless a plugin's did)

A pending (waiting for approval), denied or failed call supports nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

VERBS: dict[str, str] = {}
for _kind, _words in {
    "write": "added appended created saved stored updated edited changed renamed wrote written noted remembered "
             "recorded logged put made filed",
    "delete": "deleted removed erased trashed forgot forgotten cancelled canceled cleared wiped",
    "remind": "reminded scheduled snoozed",
    "send": "sent emailed e-mailed texted messaged posted forwarded called phoned booked ordered bought "
            "purchased paid shared notified",
}.items():
    for _w in _words.split():
        VERBS[_w] = _kind
_VERB = "|".join(sorted((re.escape(w) for w in VERBS), key=len, reverse=True))
_PHRASES = [  # multi-word claims: (pattern, kind)
    (re.compile(r"\b(?:set|created|scheduled|added)\s+(?:up\s+)?(?:a|the|your|an)\s+(?:\w+\s+)?reminder\b", re.I), "remind"),
    (re.compile(r"\breminder\s+(?:is\s+|has\s+been\s+)?(?:set|created|scheduled)\b", re.I), "remind"),
    (re.compile(r"\bI(?:'ll| will)\s+remember\b", re.I), "write"),
    (re.compile(r"\b(?:done|all set)\b\s*[-—–:!,.]", re.I), "any"),
]
_DOER = re.compile(r"\b(?:I|I've|I'd|I have|we|we've|we have)\b(?:\s+(?:just|now|also|already|successfully|gone ahead and|"
                   r"went ahead and|have|had))*\s+(?P<v>" + _VERB + r")\b", re.I)
_OPENING = re.compile(r"^\W*(?:ok(?:ay)?[,!.]?\s+|great[,!.]?\s+|sure[,!.]?\s+|done[,!.:—–-]?\s+)?(?P<v>" + _VERB + r")\b", re.I)
_PASSIVE = re.compile(r"\b(?:has been|have been|'s been|is now|are now|was successfully|were successfully|"
                      r"has now been|have now been|got)\s+(?P<v>" + _VERB + r")\b", re.I)
_THING = re.compile(r"^\W*(?:the|your|a|an|this|that)\s+(?:\w+\s+)?(?:note|reminder|memory|e-?mail|message|entry|"
                    r"item|list|task|file)\s+(?P<v>" + _VERB + r")\s+(?:the|a|an|your|it|(?:\w+\s+){0,3}to)\b", re.I)
# before the claimed verb: a negation, a condition or a plan makes it no claim
_HEDGE = re.compile(r"\b(?:not|never|cannot|can't|couldn't|didn't|don't|won't|wasn't|weren't|haven't|hasn't|isn't|"
                    r"aren't|unable|will|would|could|should|shall|might|may|going to|want me to|if|once|unless|"
                    r"waiting|pending|before|until|after you|when you)\b", re.I)
_CITED = re.compile(r"\[\d{1,3}\]")
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)")


@dataclass
class Claim:
    """A sentence claiming an action of `kind` (write | delete | remind | send | any),
    through the word `verb`."""

    sentence: str
    kind: str
    verb: str


def claims(reply: str) -> list[Claim]:
    """The sentences of `reply` that claim the assistant did something (module docstring):
    questions, cited sentences and claims hedged before their verb are left out."""
    out = []
    for m in _SENTENCE.finditer(reply or ""):
        s = m.group(0).strip()
        if not s or s.endswith("?") or _CITED.search(s):
            continue
        hit = None
        for pat, kind in _PHRASES:
            p = pat.search(s)
            if p and not _HEDGE.search(re.sub(r"\bI(?:'ll| will)\s+remember\b", "", s[:p.end()], flags=re.I)):
                hit = (kind, p.group(0).strip())
                break
        for pat in (_DOER, _OPENING, _PASSIVE, _THING):
            if hit is not None:
                break
            v = pat.search(s)
            if v and not _HEDGE.search(s[:v.end()]):
                hit = (VERBS[v.group("v").lower()], v.group("v"))
        if hit is not None:
            out.append(Claim(s, hit[0], hit[1]))
    return out


_READS = r"(?:search|recall|ask|get|list|show|find|read|reminders$|core$)"  # a tool the registry does not know


def _kind_of(call, tools) -> set[str]:
    """The kinds of action a call that ran performed: a read-only tool performs none ("any"
    only: it supports a bare "Done."); a writing one "write", and "delete" / "remind" /
    "send" by its destructive flag or its name."""
    tool = tools.get(call.name) if tools is not None and call.name in tools else None
    name = call.name.lower()
    if (tool.read_only if tool is not None else re.match(_READS, name)):
        return {"any"}
    kinds = {"any", "write"}
    if (tool is not None and tool.destructive) or re.search(r"delete|forget|cancel|remove", name):
        kinds.add("delete")
    if re.search(r"remind|snooze|schedule", name):
        kinds.add("remind")
    if re.search(r"send|e?mail|message|post|book|order|pay|sms|call", name):
        kinds.add("send")
    return kinds


def false_claims(reply: str, calls, tools=None) -> list[Claim]:
    """The claims of `reply` no call that ran supports. calls: the turn's CallRecords
    (name, outcome); tools: the ToolRegistry (read_only / destructive flags)."""
    done: set[str] = set()
    for c in calls:
        if c.outcome == "ran":
            done |= _kind_of(c, tools)
    return [c for c in claims(reply) if c.kind not in done]


REDRAFT = ("Your reply above claims actions that did not happen in this turn: {claims}. {ran} "
           "Rewrite the reply for the person: say only what really happened, and offer what you can do "
           "instead. Do not claim any action.")


def ran_text(calls) -> str:
    """What the turn's calls did, in one sentence for the model ("No tool ran." when none)."""
    ran = [c.name for c in calls if c.outcome == "ran"]
    other = [f"{c.name} ({c.outcome})" for c in calls if c.outcome != "ran"]
    parts = [f"Tools that ran: {', '.join(ran)}." if ran else "No tool ran."]
    if other:
        parts.append(f"Not run: {', '.join(other)}.")
    return " ".join(parts)


def factual_summary(calls) -> str:
    """The turn's tool calls, said plainly, for a reply that claimed what did not happen."""
    from cairn.assistant.results import _summary
    if not calls:
        return "I haven't done anything in this turn: no action ran."
    return "Here is what actually happened: " + _summary(calls)


def honest_reply(bot, model, messages: list[dict], reply: str, res, ui) -> str:
    """`reply` when it claims nothing false; else the model's one redraft (told what ran),
    if that claims nothing false; else `factual_summary`. Notices on `res` say which."""
    bad = false_claims(reply, res.tool_calls, getattr(bot, "tools", None))
    if not bad:
        return reply
    said = "; ".join(f"“{c.sentence}”" for c in bad[:3])
    ask = REDRAFT.format(claims=said, ran=ran_text(res.tool_calls))
    draft = ""
    try:
        from cairn.assistant.results import Channel
        comp = bot._call_model(model, [*messages, {"role": "assistant", "content": reply},
                                       {"role": "user", "content": ask}], None, Channel(), res)
        draft = (comp.content or "").strip()
    except Exception as exc:  # a failing redraft falls through to the factual summary
        res.notices.append(f"the redraft failed ({type(exc).__name__})")
    if draft and not false_claims(draft, res.tool_calls, getattr(bot, "tools", None)):
        res.notices.append(f"the reply claimed an action that did not run ({said}); it was redrafted")
        return _corrected(ui, draft)
    res.notices.append(f"the reply claimed an action that did not run ({said}); it was replaced by what ran")
    return _corrected(ui, factual_summary(res.tool_calls))


def _corrected(ui, reply: str) -> str:
    """`reply`, also streamed to a channel that already showed the first draft as it came
    (a terminal, the web page's events), marked as the correction."""
    if getattr(ui, "streamed", False):
        ui.delta("\n\nCorrection: " + reply)
    return reply
