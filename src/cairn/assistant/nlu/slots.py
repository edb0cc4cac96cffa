"""Slots of a classified message: the parts an intent's operation needs.

- times: `cairn.schedule.when` reads them (`split_when` finds the longest time phrase);
- note titles: resolved against the vault's titles by fuzzy matching (nlu/notenames.py);
- the text to remember / append / create: what is left once the request's own words (its
  lead verb, "that", the note's name) are taken away.

Every function is pure. Nothing raises for an
unreadable message: a slot that cannot be filled is None or "".
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

from cairn.assistant.nlu.notenames import norm
from cairn.assistant.nlu.wording import clean, strip_polite, strip_tail  # noqa: F401 - strip_polite: understand's
from cairn.assistant.nlu.times import (corrected_due, correction, moved_schedule, says_shift, skipped_repeats,  # noqa: F401 - a reminder's
                                       habitual, spoken_times)

_F = re.I | re.S


_REMEMBER = re.compile(
    r"^(?:(?:a\s+|one\s+)?(?:note|thing|something|fact)s?\s+(?:for you\s+)?to\s+(?:remember|keep|bear in mind)"
    r"|remember|remembr|memori[sz]e|note|keep in mind|don'?t forget|(?:just\s+)?(?:so\s+)?you know|for the record|fyi"
    r"|heads up|btw|by the way|store the fact|save this(?: for later)?|make a (?:mental )?note(?: of)?)"
    r"(?:\s+(?:for me|this))?(?:\s+that)?\s*[:,]?\s+(?P<x>.+)$", _F)
_REMEMBER_TAIL = re.compile(r"[,;.!-]?\s*(?:(?:so\s+)?(?:please|can you|could you|would you|will you)\s+)?"
                            r"(?:remember|keep in mind|note|hang on to|hold on to|hold onto|hang onto|keep hold of|keep"
                            r"|store|save|don'?t forget|make a (?:mental )?note of)"
                            r"\s+(?:that|this|it)(?:\s+(?:in mind|for me|for later|safe))?\s*(?:please)?\s*[.!?]*$", _F)


def remember_text(text: str) -> str:
    """The statement to remember: "remember that X" -> "X"; "X, remember that" -> "X"."""
    t = strip_polite(text)
    m = _REMEMBER.match(t)
    if m:
        t = m.group("x")
    t = _REMEMBER_TAIL.sub("", strip_tail(t))
    return strip_tail(t)


_NO_CONTENT = frozenset("a an and or but so then too also the it its this that what which who whose when where why how "
                        "about is are was were do does did ok okay yes no yeah please".split())
_ASKS = re.compile(r"^(?:and\s+)?(?:what|when|where|who|whose|which|how|why|is|are|was|were|do|does|did|can|could|"
                   r"should|will|would|has|have)\b.*\?\s*$", _F | re.S)


def worth_storing(text: str, x: str) -> bool:
    """Whether `x`, what `remember_text` read in the message `text`, is a statement to store:
    not when it holds no content word ("and?", "what about it?"), nor when `text` is a question
    ("where did I park?") and says no "remember ..." itself."""
    if all(w in _NO_CONTENT for w in re.findall(r"\w+", x.lower())):
        return False
    said = bool(_REMEMBER.match(strip_polite(text)) or _REMEMBER_TAIL.search(text))
    return said or not _ASKS.match(strip_polite(text))


_BACK = re.compile(r"^(?:(?:can|could|would|will) you\s+|please\s+|just\s+)*(?:(?:hang on to|hold on to|hold onto|hang onto|keep hold of"
                   r"|keep|store|save|file|remember|memori[sz]e|note|make a (?:mental )?note of|don'?t forget|jot down)\s+)?"
                   r"(?:that|this|it|that one)(?:\s+(?:in mind|for me|for later|away|down|safe|please))*$", _F)


def refers_back(x: str) -> bool:
    """Whether a remember request's text only points back ("that", "hang on to that", "keep that
    in mind"): what to remember is then the statement before it (the preface or the last turn)."""
    return not clean(x) or clean(x).lower() in ("for me", "please") or bool(_BACK.match(clean(x)))


_FORGET = re.compile(r"^(?:forget|forgett|unlearn|erase|wipe|delete|remove|drop|stop remembering)"
                     r"(?:\s+(?:the\s+)?memory)?(?:\s+(?:about|that|of))?\s+(?P<x>.+)$", _F)


def forget_query(text: str) -> str:
    """What to forget: "forget what I said about X" -> "X"."""
    t = re.sub(r"^you can\s+", "", strip_polite(text), flags=_F)
    m = _FORGET.match(t)
    x = clean(m.group("x")) if m else clean(t)
    x = re.sub(r"^(?:everything\s+|what\s+|the thing\s+)?(?:i\s+(?:said|told you|mentioned)|you know)\s+(?:about\s+)?",
               "", x, flags=_F)
    x = re.sub(r"^(?:about|that)\s+", "", x, flags=_F)
    x = re.sub(r"^i said\s+", "", x, flags=_F)
    return clean(x) or clean(text)


# A time said last that the scheduler reads but refuses ("on 31 February at 9am", "on 3 March 2020
# at 9", "on Tuesday 12 January 2028": a Wednesday) is reported as unread, not cut down to the
# shorter "at 9am" that reads (the reminder was set on the wrong day). Switch off: REFUSED_TIME.
REFUSED_TIME = True


def split_when(text: str, now: datetime | None = None) -> tuple[str, str, str] | None:
    """("what", "at" | "every", "when") for a reminder text whose start or end (or an "every
    ..." part) is a time `cairn.schedule.when` understands ("call Ana tomorrow at 9",
    "tomorrow at 9 to call Ana"); None when no time is found. A time said first ends at the
    first "to" / "that" / "about" after it; a time said last is the longest that reads, and
    ("what", "unread", "when") when a longer one reads as a time the scheduler refuses
    (REFUSED_TIME)."""
    try:
        from cairn.schedule import when as W
        tz = W.zone(None)
    except Exception:
        return None
    now = now or datetime.now(timezone.utc)
    words = text.split()
    refused: list[tuple[str, str]] = []  # (phrase, what): a time that reads but cannot be ("31 February")

    def attempt(phrase: str, what: str, strip: str) -> tuple[str, str, str] | None:
        lead = phrase.lower().split()[0]
        key = "every" if lead == "every" or re.search(r"\bof\s+(?:each|every)\s+month\b", phrase, re.I) else "at"
        rest = " ".join(phrase.split()[1:])
        cands = [rest, phrase] if key == "at" and lead in ("on", "at", "by", "for") else [phrase]
        if key == "at" and lead in ("at", "by", "for") and re.fullmatch(r"\d{1,2}", rest):
            cands.append(f"{rest}:00")  # "at 8": a bare hour
        clock = r"(\d{1,2}(?::\d{2})?\s*(?:am|pm)?|noon|midnight)"
        if key == "at" and (m := re.fullmatch(r"(?:at\s+)?" + clock + r"\s+(?:on\s+)?(.+)", phrase, re.I)):
            cands.insert(0, f"{m.group(2)} at {m.group(1)}")  # "at 9 tomorrow" -> "tomorrow at 9" (the form shown)
        if key == "at" and (m := re.fullmatch(r"(?P<p>(?:at|by|for)\s*)?" + clock, phrase, re.I)) and (
                m.group("p") or not m.group(2).isdigit()):
            cands.insert(0, f"at {m.group(2)}")  # "5pm" / "for 5pm" -> "at 5pm"; a bare "6" ("buy 6") is no time
        for cand in cands:
            try:
                W.parse_when(cand, tz, now, recurring=key == "every")
                break
            except Exception as exc:  # noqa: BLE001 - any refusal: this phrase is no time
                # the words as said (not a reordered "at 31" of "31 February party ...") read as
                # a time the scheduler refuses
                if REFUSED_TIME and cand in (phrase, rest) and not str(exc).startswith("cannot read") and not refused:
                    refused.append((phrase, what))
                continue
        else:
            return None
        if not cand:
            return None
        what = re.sub(r"^(?:to|that|about)\s+", "", what.strip(" ,"), flags=re.I)
        return (what.rstrip(strip), key, cand) if what else None

    # a time first: "tomorrow at 9 to call the vet", split at the first "to" after a time, so a
    # task holding "to" stays whole ("every Friday at 4pm to send the timesheet to the agency")
    for i in range(1, len(words)):
        phrase, what = " ".join(words[:i]), " ".join(words[i:])
        if re.match(r"(?i)(?:to|that|about)\b", what) and (found := attempt(phrase.rstrip(","), what, " ,.")):
            return found
    refused.clear()
    for i in range(1, len(words)):  # then a time at the end: "call Ana tomorrow at 9"
        found = attempt(" ".join(words[i:]), " ".join(words[:i]), " ,")
        if found and refused:  # "X on 31 February at 9am": not "X on 31 February" at 9am
            phrase, what = refused[0]
            return what.rstrip(" ,"), "unread", phrase
        if found:
            return found
    return None


_REMIND = re.compile(r"^(?:remind me|remnd me|ping me|nudge me|don'?t let me forget|wake me up with a reminder"
                     r"|(?:set|create|add|make)\s+(?:me\s+)?(?:a\s+)?reminder|i need a reminder)"
                     r"(?:\s+(?:to|that|about|for))?\s+(?P<x>.+)$", _F)
# the reminding verb anywhere in the message: "remind me", "nudge me", "give me a shout", "set a reminder"
_REMIND_VERB = re.compile(
    r"(?:^|[\s,]+)(?:(?:please|can you|could you|would you|will you|just)\s+)*"
    r"(?:(?:remind|remnd|ping|nudge|poke|prod|buzz|alert|prompt|text|message|tell|warn)\s+me"
    r"|(?:give|send|drop)\s+me\s+(?:a|an)\s+(?:quick\s+|little\s+)?(?:shout|nudge|poke|prod|buzz|ping|reminder|heads[- ]?up|"
    r"call|message|text|alert|prompt)"
    r"|don'?t let me forget|make sure i (?:remember|don'?t forget)"
    r"|(?:(?:set|create|add|make|put in)\s+(?:me\s+)?(?:an?\s+)?|i need an?\s+)(?:(?P<cadence>daily|weekly|regular)\s+)?reminder)(?=[\s,]|$)", _F)


def reminder(text: str, now: datetime | None = None) -> dict:
    """{"text", "at"|"every"} of a reminder request; {"text"} alone when no time is read.
    The reminding verb ("remind me", "nudge me", "ping me", "give me a shout", ...) may stand
    anywhere: "at 9 tomorrow remind me to X", "remind me tomorrow at 9 to X", "on Friday at
    7pm nudge me to X" and "give me a shout on Friday to X" all read as (X, the time); words
    before the verb that hold no time are a preface, left out ("Cairn, remind me at 9 to X",
    "🙂 remind me ..."). now: the time it is said (aware; default the clock): "tonight"
    after 8pm is the next whole hour (times.spoken_times)."""
    t = strip_polite(text)
    m = _REMIND_VERB.search(t)
    if m:
        body = clean(f"{t[:m.start()].strip(' ,')} {t[m.end():].strip(' ,')}")
    else:
        body = clean(t)
    body = habitual(spoken_times(strip_tail(body), now), ((m and m.group("cadence")) or "").lower())  # "a weekly reminder"
    split = split_when(body, now)
    if not split and m and clean(t[:m.start()]):  # "Good morning! Remind me at 7:30 to X": what precedes is a preface
        split = split_when(spoken_times(strip_tail(clean(t[m.end():].strip(" ,"))), now), now)
    if split:
        what, key, when = split
        return {"text": strip_tail(clean(re.sub(r"^(?:to|that|about|for)\s+", "", what, flags=re.I))), key: when}
    lead = _LEAD_WHEN.match(body)  # "on 31 February at 9 to X", "every 0 minutes to X": the time said first
    odd = None if lead else _ODD_TIME.search(body)  # "at half thirteen", "at 99:99", "in -5 minutes"
    unread = lead.group("w") if lead else odd.group(0).strip() if odd else ""
    body = lead.group("x") if lead else f"{body[:odd.start()]} {body[odd.end():]}" if odd else body
    return {"text": clean(re.sub(r"^(?:to|that|about|for)\s+", "", clean(body), flags=re.I)),
            **({"unread": unread} if unread else {})}


_LEAD_WHEN = re.compile(r"^(?P<w>(?:at|on|in|by|every|this|next|tomorrow|yesterday|today|tonight)\b.*?)\s+"
                        r"(?:to|that|about)\s+(?P<x>.+)$", _F)


_ODD_TIME = re.compile(r"(?:^|\s)(?:(?:at|by|in)\s+)?(?:\d+:\d+|(?:half|quarter|\w+)\s+(?:past|to)\s+-?\d+|half\s+\w+teen)"
                       r"(?=[\s,.!?]|$)|(?:^|\s)(?:at|by|in)\s+-?\d[\d.]*(?:\s*(?:am|pm|minutes?|mins?|hours?|days?|weeks?))?"
                       r"(?=[\s,.!?]|$)", _F)


def items_body(body: str) -> str:
    """A short list ("oat milk and eggs", "a, b, c") as markdown bullets, one item a line;
    other text unchanged."""
    b = clean(body)
    # a comma between digits ("£1,250") is part of a number, not a list
    parts = [clean(p) for p in re.split(r"(?<!\d),\s*(?:and\s+)?|,\s+(?:and\s+)?|\s+and\s+", b) if clean(p)]
    if len(parts) >= 2 and all(len(p.split()) <= 4 for p in parts):
        return "\n".join(f"- {p}" for p in parts)
    return b


_CREATE = re.compile(r"\b(?:called|titled|named)\s+(?P<t>.+?)(?:\s*(?::|\s-+\s|\s[–—]\s|\bwith\b|\bsaying\b"
                     r"|\bcontaining\b|\b(?:that|which)\s+(?:says|reads)\b)\s*(?P<b>.*))?$", _F)
# The words that only introduce a new note's text ("with text hello", "with the words: …", "that
# says …", "with a body of …"): no part of the text itself.
_BODY_LEAD = re.compile(r"^(?:(?:(?:the|a|an)\s+)?(?:text|body|content|contents|words|line|message)"
                        r"|(?:that|which)\s+(?:says|reads)|saying|reading)\s*[:,-]?\s+(?!(?:of|from|for|about|to|in)\b)(?=\S)", _F)


_OPENING_MARK = re.compile(r"^(?:[:;,]+|[-–—]+(?=\s))\s*(?=\S)")


def title_from_text(text: str, words: int = 8, chars: int = 60) -> str:
    """A note title for a text the person asked to keep that has no title of its own: the
    opening words of its first line or sentence (at most `words` words and `chars` characters,
    closing punctuation dropped, the first letter capitalised); "Note" for a text without a word."""
    from cairn.lexical import sentences as spans  # the shared splitter: "Dr. Okafor rang" is one sentence
    t = text.strip()
    cut = spans(t)
    first = (t[cut[0][0]:cut[0][1]] if cut else t).split("\n", 1)[0].strip(" \t\"'“”‘’#*-")
    ws = first.split()[:words]
    title = " ".join(ws)
    while len(title) > chars and " " in title:
        title = title.rsplit(" ", 1)[0]
    title = title[:chars].rstrip(" .,;:!?-–—")
    if not re.search(r"\w", title):
        return "Note"
    return title[:1].upper() + title[1:]


def create_slots(text: str) -> dict:
    """{"title", "body"} of "create a note called T with B" / "new note: T" /
    "create a shopping list note with B" (title "Shopping list")."""
    t = clean(strip_polite(text))
    m = _CREATE.search(t)
    if m:
        title, body = clean(m.group("t")), (m.group("b") or "")
    else:
        m = re.search(r"\bnote\s*:\s*(?P<t>[^:]+?)(?:\s*:\s*(?P<b>.*))?$", t, _F) or re.search(
            r"^(?:create|make|start|write|open|add|jot down)\s+(?:me\s+)?(?:a\s+)?(?:new\s+)?(?:to-?do\s+)?"
            r"(?P<t>[\w' -]*?)\s*(?:note|list)\b\s*(?:(?:with|saying|containing|:)\s*(?P<b>.*))?$", t, _F)
        title = clean(m.group("t")) if m and m.group("t") else ""
        body = (m.group("b") or "") if m else ""
        title = re.sub(r"^(?:new\s+)?", "", title, flags=re.I)
    if re.match(r"[-–—:]+(?:\s|$)", title):
        title = ""  # "a note called - milk and eggs": the title is missing, not "- milk and eggs"
    title = title[:1].upper() + title[1:] if title == title.lower() else title  # "iPhone tips", "eBay" kept
    body = _BODY_LEAD.sub("", body.strip()) if body else ""  # "with text hello": "hello"
    body = _OPENING_MARK.sub("", body)  # "saying: the 9:15 ...", "with - eggs": the mark opens the text, no part of it
    body = re.sub(r"\s+(?:in|on|inside)\s+(?:it|there)$", "", strip_tail(body), flags=re.I) if body else ""
    return {"title": strip_tail(title), "body": items_body(body) if body else ""}


# A new note's text already begun in the first clause ("... saying: the 9:15 from Ardmore, back at 17:40") goes on
# past the comma: the rest is more of the text, not the request's reason (understand.REASON_AFTER). Switch off:
# BODY_GOES_ON.
BODY_GOES_ON = True


def body_goes_on(intent: str, first: str) -> bool:
    """Whether a note_create's first clause `first` has begun the note's text already (BODY_GOES_ON)."""
    return BODY_GOES_ON and intent == "note_create" and bool(create_slots(first)["body"])


# An item with no verb, the note named by a pronoun ("oh, and a tub of hummus on that too", read as note_append by the
# intent model: utterances.txt): the words before "on that / on it / on there" are the item. Switch off: VERBLESS_ITEM.
VERBLESS_ITEM = True
_VERBLESS = re.compile(r"^(?:(?:oh|ah|ok|okay)\b[,\s]*)?(?:(?:and|also|plus)\s+)*(?P<b>(?!(?:add|put|stick)\b)\S.*?)\s+"
                       r"(?:on|onto|to|in)\s+(?:that|it|there|this)(?:\s+one)?(?:\s+(?:too|as well|please|thanks))*$", _F)


def append_slots(text: str, title_span_text: str | None) -> str:
    """The text to add in "add B to (the) T note" / "put B on my T list" / "add this to T: B" / "and B on that too"
    (VERBLESS_ITEM)."""
    t = clean(strip_polite(text))
    m = re.search(r":\s*(?P<b>.+)$", t)
    if m and re.search(r"\b(?:this|the following)\b", t[:m.start()], re.I):
        return clean(m.group("b"))
    into = _into_note_first(t, title_span_text)
    if into:
        return into
    verb = (r"^(?:also\s+)?(?:add|append|put(?: down)?|stick|include|write(?: down)?|pop|jot(?: down)?|throw|chuck"
            r"|bung|shove|slap|tack|tag|toss|whack)\s+(?:on\s+)?(?P<b>.+{})\s+"
            r"(?:to|on|onto|on to|in|into|at the end of)\s+(?:the\s+|my\s+)?(?P<t>.+)$")
    m = re.match(verb.format("?"), t, _F)
    greedy = re.match(verb.format(""), t, _F)  # the last preposition, when what follows it names the note
    if m and greedy and title_span_text and norm(title_span_text) in norm(greedy.group("t")):
        m = greedy
    if m:
        return _added(m.group("b"))
    if VERBLESS_ITEM and (m := _VERBLESS.match(t)):  # "oh, and a tub of hummus on that too"
        return _added(m.group("b"))
    # "Packing note: add flip flops" / "To do list - add X": the note named first, then what to add
    m = re.match(r"^(?:in\s+|to\s+|on\s+)?(?:the\s+|my\s+)?(?P<t>[^:;\-–—]{1,60}?)\s*(?::|\s-+\s|\s[–—]\s)\s*"
                 r"(?:(?:please\s+)?(?:add|append|put|include|jot down|write down)\s+)?(?P<b>.+)$", t, _F)
    if m and (not title_span_text or norm(title_span_text) in norm(m.group("t"))
              or re.search(r"\b(?:note|list)$", m.group("t"), re.I)):
        return _added(m.group("b"))
    return ""


# "jot down in the boiler note that B" / "add to my T note: B" / "note in T that B": the place named
# first, right after the request verb, then a separator ("that", ":", ",", a dash) and the whole text.
_INTO_LEAD = re.compile(r"^(?:also\s+)?(?:(?:add|append|put|stick|include|write|pop|jot|note|enter|record|log"
                        r"|make a note|scribble|pencil)(?:\s+(?:down|in))?\s+)?"
                        r"(?:to|in|on|into|onto|on to|under)\s+(?:the\s+|my\s+|our\s+)?(?=\S)", _F)
_INTO_SEP = re.compile(r"\s+that\s+|\s*:\s*|\s*,\s+|\s+-+\s+|\s+[–—]\s+", _F)


def _into_note_first(t: str, title: str | None) -> str:
    """The text after the note's name when the request names the note before the text ("jot down
    in the boiler note that the pressure was 1.4 bar today" -> "the pressure was 1.4 bar today");
    "" when `t` is not of that shape. The note part is the text up to the first separator whose
    left side holds the resolved `title` or ends in "note"/"list"; the
    rest is kept whole, numbers, units and decimals included."""
    lead = _INTO_LEAD.match(t)
    if not lead or not lead.group(0).strip():
        return ""
    for sep in _INTO_SEP.finditer(t, lead.end()):
        place = t[lead.end():sep.start()]
        if not place or len(place) > 60:
            break
        # the title, or a place ending in "note"/"list" (a note called otherwise: "my removals note", NN.FILE_NAMES)
        named = (title and norm(title) in norm(place)) or re.search(r"\b(?:note|list)$", place, re.I)
        if named and t[sep.end():].strip():
            return _added(t[sep.end():])
    return ""


def _added(b: str) -> str:
    """The text to add, without quotes, courtesies and a leading "that" ("add that the key is
    in the loft" -> "the key is in the loft")."""
    b = strip_tail(clean(b).strip("\"'“”"))
    return re.sub(r"^that\s+", "", b, flags=re.I)


def rename_slots(text: str) -> str:
    """The new title of "rename X to Y" / "call X Y instead" / "... should be called Y"."""
    t = strip_tail(strip_polite(text))
    t = re.sub(r"\s+(?:from now on|instead|going forward)$", "", t, flags=re.I)
    for rx in (r"\b(?:to|as)\s+(?P<n>[^,]+?)(?:\s+instead)?$",
               r"\b(?:called|titled|named|renamed|retitled)\s+(?P<n>.+?)(?:\s+instead)?$",
               r"\btitle\s+(?P<n>.+)$"):
        m = re.search(rx, t, _F)
        if m:
            return clean(m.group("n")).strip("\"'")
    m = re.match(r"^call\s+(?:the\s+|my\s+)?.+?\s+note\s+(?P<n>.+?)(?:\s+instead)?$", t, _F)
    return clean(m.group("n")) if m else ""


def edit_slots(text: str) -> dict:
    """{"old", "new"} of "change A to B in the T note" / "in the T note change A to B", or
    {"body"} of "change the T note to say B" / "overwrite T with B"; the new text without the
    courtesies a request ends with ("change A to B please" -> new "B")."""
    t = clean(strip_polite(text))
    m = re.search(r"\b(?:to say|to read|so it says|to just|to hold only|as|with|to)\s*:?\s+(?P<b>.+)$", t, _F)
    m2 = re.search(r"\b(?:change|replace)\s+(?P<a>.+?)\s+(?:to|with)\s+(?P<b>.+?)(?:\s+in\s+(?:the\s+|my\s+)?.+)?$", t, _F)
    if m2 and " note" not in m2.group("a").lower() and not re.search(r"\b(?:to say|to read|so it says)\b", t, re.I):
        return {"old": clean(m2.group("a")), "new": strip_tail(clean(m2.group("b")))}
    m3 = re.search(r":\s*(?P<b>.+)$", t)
    if m3:
        return {"body": strip_tail(clean(m3.group("b")))}
    return {"body": strip_tail(clean(m.group("b")))} if m else {}


def subject_of(text: str) -> str:
    """What "what do you know about X" / "who is X" / "tell me about X" asks about ("" if none)."""
    t = strip_tail(strip_polite(text))
    for rx in (r"\babout\s+(?P<x>.+)$", r"^(?:who(?:'s| is| was)|whos)\s+(?P<x>.+?)(?:\s+again)?$",
               r"\b(?:on|have on)\s+(?P<x>.+)$", r"^info on\s+(?P<x>.+?)(?:\s+please)?$"):
        m = re.search(rx, t, _F)
        if m:
            return clean(re.sub(r"\s+please$", "", m.group("x"), flags=re.I))
    return ""


def reminder_phrase(text: str) -> str:
    """What a cancel/snooze/move names of a reminder: "cancel the reminder about the vet" -> "the vet"."""
    t = clean(strip_polite(text))
    t = re.sub(r"^(?:cancel|delete|remove|stop|drop|scrap|turn off|get rid of|snooze|postpone|delay|push(?: back)?|put off|move|change|switch|shift)"
               r"\s+(?:all\s+)?(?:my\s+|the\s+)?", "", t, flags=_F)
    t = re.sub(r"\b(?:reminders?|reminding me)\b", " ", t, flags=re.I)
    t = re.sub(r"\b(?:for|by|until|till|to)\s+(?:an?|one|\d+|tomorrow|tonight|next|this|monday|tuesday|wednesday|thursday"
               r"|friday|saturday|sunday|later).*$", "", t, flags=re.I)
    t = re.sub(r"^\s*(?:about|to|for|of)\s+", "", " ".join(t.split()), flags=re.I)
    return clean(t)


def snooze_until(text: str) -> str:
    """The one-off time of a snooze ("for an hour" -> "in 1 hours"; "until Friday" -> "Friday");
    "in 10 minutes" when none is said."""
    t = clean(text).lower()
    nums = {"an": "1", "a": "1", "one": "1", "two": "2", "three": "3", "half an": "30"}
    m = re.search(r"\b(?:for|by|in)\s+(?P<n>\d+|an|a|one|two|three|half an)\s+(?P<u>minute|min|hour|hr|day|week)s?\b", t)
    if m:
        n, u = nums.get(m.group("n"), m.group("n")), m.group("u")
        if m.group("n") == "half an":
            n, u = "30", "minute"
        return f"in {n} {u}s"
    m = re.search(r"\b(?:until|till|to|for)\s+(?P<w>.+)$", t)
    if m:
        w = re.sub(r"^(?:this\s+)?(?:evening|tonight)$", "today at 18:00", m.group("w"))
        w = re.sub(r"\bmorning\b", "at 9", w).replace("afternoon", "at 14")
        return w
    return "in 10 minutes"


def snooze_after(until: str, due: str | None, now: datetime | None = None) -> str:
    """`until` (from `snooze_until`) as a local ISO time when it names a day ("Sunday", "next
    Friday", "Friday at 9"), counted from the reminder's current `due` (ISO) when that is later
    than `now`: "push it back to Sunday" lands on the first Sunday AFTER the reminder's time,
    at the reminder's time of day unless a time is said. Other `until`s ("in 2 hours") and
    unreadable ones are returned unchanged (the scheduler reads them)."""
    if not due or re.match(r"^in\s+\d", until) or not re.search(
            r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b", until, re.I):
        return until
    try:
        from cairn.schedule import when as W
        tz = W.zone(None)
        cur = datetime.fromisoformat(due.replace("Z", "+00:00")).astimezone(tz)
    except Exception:
        return until
    now = (now or datetime.now(timezone.utc)).astimezone(tz)
    if cur <= now:
        return until
    said = until if re.search(r"\bat\s+\d|\bnoon\b|\d\s*(?:am|pm)\b", until, re.I) else f"{until} at {cur:%H:%M}"
    said = re.sub(r"^(?:next|this|on)\s+", "", said, flags=re.I)
    try:
        trig = W.parse_when(said, tz, cur, recurring=False)
        at = W.next_runs(trig, 1, cur, tz)[0]
    except Exception:
        return until
    return at.astimezone(tz).strftime("%Y-%m-%d %H:%M")

