"""The deterministic intent router, for models that cannot call tools (and for "none").

It maps the person's own message — never retrieved text — to at most one tool call:

    "remember that X" / "please remember X" / "note that X"      -> remember(text=X)
    "remind me to X WHEN" / "remind me every WHEN to X"           -> remind(text=X, at=WHEN | every=WHEN)
                                                                   (no time understood: remember(text="Reminder: X",
                                                                   kind="promise"))
    "what do I know about X" / "what do you know about X" / "tell me about X" / "who is X"
                                                                  -> recall(query=X)
    "forget X" / "forget that X"                                  -> forget(memory_id=best match of X)
    "find/search (my) notes about X" / "search for X"             -> search(query=X)
    "what/when/where/who/how ... ?" about the notes ("according to my notes", "in my notes")
                                                                  -> ask(question=...)
    "create a note titled T: BODY" / "new note T: BODY"           -> create_note(title=T, body=BODY)
    "append BODY to (the) note T"                                 -> update_note(note=T, body=BODY, mode=append)
    "delete (the) note T"                                         -> delete_note(note=T)

`route(text)` returns an `Intent` (tool name + arguments, or None for plain chat).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass
class Intent:
    """A routed intent: `tool` (None = plain chat), `arguments`, `label` (which rule)."""

    tool: str | None
    arguments: dict
    label: str


def _clean(s: str) -> str:
    return s.strip().strip(" \t\"'“”‘’").rstrip(".!?;, ").strip()


_F = re.I | re.S
_POLITE = r"^(?:please\s+|can you\s+|could you\s+|would you\s+|i'?d like you to\s+|i want you to\s+)*"
_LEAD = (r"(?:remember|note|keep in mind|don'?t forget|just so you know|for the record|fyi|for your info(?:rmation)?"
         r"|save this(?: for later)?|make a (?:mental )?note(?: of)?|by the way|btw|heads up)")
_NOTE = r"(?:the\s+|my\s+)?note"
_TITLE = r"(?:called\s+|titled\s+|named\s+)?"
_RULES: list[tuple[str, re.Pattern]] = [
    ("recall", re.compile(r"^(?:please\s+)?remind me (?P<x>(?:what|who|where|when|how|which)\b.+)$", _F)),
    ("remind", re.compile(_POLITE + r"(?:remind me|ping me|nudge me|(?:set|create|add|make)\s+(?:a\s+|me\s+a\s+)?reminder|"
                          r"i need a reminder)(?:\s+to|\s+that|\s+about|\s+for)?\s+(?P<x>.+)$", _F)),
    ("create_note", re.compile(_POLITE + r"(?:(?:create|make|write|add|start|jot down)\s+(?:a\s+)?(?:new\s+)?|new\s+)note\s+"
                               + _TITLE + r"(?P<t>[^:\n]+?)\s*(?::|\n|\bsaying\b|\bwith\b:?)\s*(?P<b>.*)$", _F)),
    ("remember", re.compile(_POLITE + _LEAD + r"(?:\s+that)?[:,]?\s+(?P<x>.+)$", _F)),
    ("forget", re.compile(_POLITE + r"(?:forget|drop the memory|delete the memory|remove the memory)"
                          r"(?:\s+that|\s+about)?\s+(?P<x>.+)$", _F)),
    ("delete_note", re.compile(_POLITE + r"(?:delete|remove|trash|erase|get rid of)\s+" + _NOTE + r"\s+" + _TITLE
                               + r"(?P<x>.+?)(?:,?\s+please)?$", _F)),
    ("update_note", re.compile(_POLITE + r"(?:append|add)\s+(?P<b>.+?)\s+to\s+" + _NOTE + r"\s+" + _TITLE + r"(?P<t>.+)$", _F)),
    ("update_note", re.compile(_POLITE + r"put\s+(?P<b>.+?)\s+at the end of\s+(?:the\s+|my\s+)?(?P<t>.+?)\s+note$", _F)),
    ("search", re.compile(_POLITE + r"(?:do i have|is there|are there|got)\s+(?:a\s+|any\s+)?(?:notes?|files?|documents?|anything)\s+"
                          r"(?:about|on|for|mentioning|with)\s+(?P<x>.+)$", _F)),
    ("search", re.compile(r"^(?:which|what)\s+notes?\s+(?:mentions?|says?|talks? about|has|have|contains?)\s+(?P<x>.+)$", _F)),
    ("search", re.compile(r"^where\s+(?:is|are|did i put|did i save)\s+(?:my\s+|the\s+)?notes?\s+(?:on|about|for)\s+(?P<x>.+)$", _F)),
    ("search", re.compile(_POLITE + r"(?:find|search|look up|look for|show|pull up|bring up|open)(?:\s+me)?(?:\s+for)?(?:\s+my)?(?:\s+the)?"
                          r"(?:\s+(?:notes?|files?|documents?))?(?:\s+(?:about|on|for|mentioning|with))?\s+(?P<x>.+)$", _F)),
    ("recall", re.compile(r"^(?:what|which)\s+do\s+(?:i|you|we)\s+(?:know|remember)\s+(?:about|of|on)\s+(?P<x>.+)$", _F)),
    ("recall", re.compile(r"^(?:tell me|what do you know)\s+about\s+(?P<x>.+)$", _F)),
    ("recall", re.compile(r"^what(?:'s| is| are)\s+my\s+(?P<x>.+)$", _F)),
    ("recall", re.compile(r"^(?:do you remember|what did i tell you about)\s+(?P<x>.+)$", _F)),
    ("ask", re.compile(r"^(?P<x>(?:what|when|where|who|which|how|why|did|does|do|is|are|was)\b.+"
                       r"(?:my notes|in my|according to|my files|my documents|i wrote|i noted|going by).*)$", _F)),
    ("recall", re.compile(r"^(?P<x>(?:where|what|who|when)\s+(?:do|did|am|was)\s+i\b.+)$", _F)),
    ("recall", re.compile(r"^(?i:who)\s+(?:is|was)\s+(?P<x>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)\s*\??$", re.S)),
]


def split_when(text: str) -> tuple[str, str, str] | None:
    """("what", "at" | "every", "when") for a reminder text whose end (or an "every ..."
    part) is a time `cairn.schedule.when` understands ("call Ana tomorrow at 9", "water the
    plants every Monday"); None when no time is found. The longest time phrase wins."""
    try:
        from datetime import datetime, timezone as tzmod
        from cairn.schedule import when as W
        tz = W.zone(None)
    except Exception:
        return None
    now = datetime.now(tzmod.utc)
    words = text.split()

    def attempt(phrase: str, what: str, strip: str) -> tuple[str, str, str] | None:
        """(what, key, when) if `phrase` is a time (a leading on/at/by dropped) and `what`
        is left once a leading to/that/about is dropped; else None."""
        lead = phrase.lower().split()[0]
        key = "every" if lead == "every" else "at"
        cand = " ".join(phrase.split()[1:]) if key == "at" and lead in ("on", "at", "by") else phrase
        try:
            W.parse_when(cand, tz, now, recurring=key == "every")
        except Exception:
            return None
        what = re.sub(r"^(?:to|that|about)\s+", "", what.strip(), flags=re.I)
        return (what.rstrip(strip), key, cand) if what else None

    for i in range(len(words) - 1, 0, -1):  # a time first: "tomorrow to book the vet"
        phrase, what = " ".join(words[:i]), " ".join(words[i:])
        if re.match(r"(?i)(?:to|that|about)\b", what) and (found := attempt(phrase, what, " ,.")):
            return found
    for i in range(1, len(words)):  # then a time at the end: "call Ana tomorrow at 9"
        found = attempt(" ".join(words[i:]), " ".join(words[:i]), " ,")
        if found:
            return found
    return None


def route(text: str) -> Intent:
    """The intent of one message of the person (see module docstring)."""
    t = " ".join(text.strip().split()) if "\n" not in text else text.strip()
    for label, rx in _RULES:
        m = rx.match(t)
        if not m:
            continue
        g = m.groupdict()
        if label == "remind":
            x = _clean(g["x"])
            if x:
                split = split_when(x)
                if split:
                    what, key, when = split
                    return Intent("remind", {"text": what, key: when}, label)
                return Intent("remember", {"text": f"Reminder: {x}", "kind": "promise"}, label)
        elif label == "remember":
            x = _clean(g["x"])
            if x and x.lower() not in ("that", "this", "it", "me"):
                return Intent("remember", {"text": x}, label)
        elif label == "forget":
            x = _clean(g["x"])
            if x:
                return Intent("forget", {"query": x}, label)
        elif label == "delete_note":
            return Intent("delete_note", {"note": _clean(g["x"])}, label)
        elif label == "create_note":
            return Intent("create_note", {"title": _clean(g["t"]), "body": g["b"].strip()}, label)
        elif label == "update_note":
            return Intent("update_note", {"note": _clean(g["t"]), "body": _clean(g["b"]), "mode": "append"}, label)
        elif label == "search":
            x = _clean(g["x"])
            if x:
                return Intent("search", {"query": x}, label)
        elif label == "recall":
            x = _clean(g["x"])
            if x:
                return Intent("recall", {"query": x}, label)
        elif label == "ask":
            return Intent("ask", {"question": t}, label)
    return Intent(None, {}, "chat")
