"""Rule-based fact extraction: first-person statements become third-person facts.

"I went to a support group yesterday" said by Caroline at 2023-05-08 becomes
"Caroline went to a support group yesterday (7 May 2023)". The rules, in order:

1. A shared image ("[image: a cake with candles]") becomes "<speaker> shared a photo of a
   cake with candles."; otherwise image placeholders are removed and the text is cut into
   sentences; questions are skipped.
2. A sentence yields a clause starting at its first first-person subject ("I", "I'm",
   "we", "my X is ..."), or the whole sentence when it starts with an elided subject
   ("Gonna ...", "Just got back ...", "Been ...").
3. Pronouns are rewritten: I/me -> the speaker, my/our -> "<speaker>'s", we/us -> "<speaker>
   and others", you/your -> the addressee (the other speaker of the neighbouring messages),
   and the verb after "I" is put in the third person ("love" -> "loves", "am" -> "is").
4. Relations named anywhere in the conversation ("my sister Rosa", "Rosa is my sister",
   "my sister's name is Rosa") give a person fact and resolve every later or earlier
   "<speaker>'s sister" to "<speaker>'s sister Rosa".
5. Relative dates (yesterday, last week, last year, N days ago, next month, ...) get the
   date they mean against the message's own time, in parentheses.
6. A clause with fewer than two content words besides the people ("I agree", "I'm so happy
   for you") is dropped. The kind is guessed from cue words (see `guess_kind`).

Facts from rules are grounded by construction (their words are the message's words).
"""

from __future__ import annotations

import re
from datetime import datetime
from dataclasses import replace

from cairn.memory.extract_model import ExtractedFact, Message
from cairn.memory.grounding import content_words
from cairn.memory.temporal import parse_time, resolve_phrase

RULE_CONFIDENCE = 0.6

_IMAGE = re.compile(r"\[image:[^\]]*\]")
_IMAGE_CAPTION = re.compile(r"\[image:\s*([^\]]*)\]")
# Sentence ends, except after a title abbreviation ("Dr. Okafor" stays one sentence).
_SENT_SPLIT = re.compile(r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bSt\.)(?<!\bProf\.)"
                         r"(?<!\bvs\.)(?<=[.!?])\s+|\s+-\s+|\n+")
_FIRST = re.compile(r"\b(?:I|I'm|I've|I'll|I'd|Im|Ive|[Ww]e|[Ww]e're|[Ww]e've|[Ww]e'll)\b")
_MY_SUBJECT = re.compile(
    r"\b[Mm]y\s+(?:[\w-]+\s+){0,2}?(?:is|are|was|were|has|have|had|just|got|loves?|likes?|"
    r"wants?|works?|lives?|turned|started|passed|made|bought|gave|took)\b")
_ELIDED = re.compile(
    r"^(?:(?:gonna|going to|just|been|started|went|got|thinking|planning|hoping|working|trying|"
    r"heading|finally|currently|recently|still|off to|took|had|bought|joined|signed up|"
    r"finished|visited|made|love|loving|enjoying|learning|reading|playing)\b)", re.IGNORECASE)
_ELIDED_REWRITE = {"gonna": "is going to", "going to": "is going to", "been": "has been",
                   "thinking": "is thinking", "planning": "is planning", "hoping": "is hoping",
                   "working": "is working", "trying": "is trying", "heading": "is heading",
                   "off to": "is off to", "loving": "is loving", "enjoying": "is enjoying",
                   "learning": "is learning", "reading": "is reading", "playing": "is playing",
                   "love": "loves"}

_ADVERBS = set("""just also always never still really actually finally recently totally usually often
sometimes even already definitely absolutely kinda sorta only truly def especially mostly
personally seriously honestly literally probably certainly basically genuinely""".split())
_NO_CONJ = set("""can could will would should might must may shall went got had was were did made took saw
met found thought felt knew told said came began bought brought gave left lost ran won wrote
taught caught built spent sent heard kept became fell grew drew ate drove flew held sold sang
swam understood wore chose put let set cut hit read hurt quit shut become been gone done seen
used began forgot forgave woke rode spoke stole struck sat stood slept lent meant paid laid led
fed fought sought bought dug hung shot lit""".split())
_IRREG = {"am": "is", "are": "is", "have": "has", "do": "does", "go": "goes", "be": "is",
          "wanna": "wants to", "gotta": "has to", "gonna": "is going to",
          "don't": "doesn't", "haven't": "hasn't", "aren't": "isn't", "ain't": "isn't",
          "'m": "is", "'ve": "has"}
_VERB_AFTER_I = re.compile(r"\bI\s+((?:(?:" + "|".join(sorted(_ADVERBS)) + r"|\w+ly)\s+)*)([\w']+)")

RELATIONS = ("sister|brother|mom|mother|mum|dad|father|husband|wife|son|daughter|friend|"
             "partner|boyfriend|girlfriend|fiance|fiancee|cousin|aunt|uncle|grandma|grandmother|"
             "grandpa|grandfather|niece|nephew|boss|coworker|colleague|roommate|neighbor|"
             "neighbour|dog|cat|puppy|kitten|pet|teacher|mentor|kid|child|baby|bro|sis")
_REL_ADJ = r"(?:(?:younger|older|little|big|best|eldest|oldest|youngest|baby|twin|new|old|close)\s+)?"
_NAME = r"([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)"
_REL_PATTERNS = [
    re.compile(r"\b[Mm]y\s+" + _REL_ADJ + r"(" + RELATIONS + r")(?:'s name is| is called| is named| is|,| named| called|)\s+" + _NAME),
    re.compile(r"\b" + _NAME + r"(?:,| is)\s+my\s+" + _REL_ADJ + r"(" + RELATIONS + r")\b"),
]
_NOT_NAMES = {"I", "The", "A", "An", "It", "That", "This", "And", "But", "So", "He", "She", "They",
              "We", "You", "Thanks", "Yeah", "Yes", "Wow", "Oh", "Hey", "My", "Our", "Is", "Was",
              "Just", "Today", "Yesterday", "Last", "Next", "When", "What", "How", "Since"}

_MONTH_FMT = "%B %Y"


def _day(dt: datetime) -> str:
    return f"{dt.day} {dt.strftime('%B %Y')}"


_REL_DATE = re.compile(
    r"\b(yesterday|today|tonight|this morning|tomorrow|last night|last week|last weekend|"
    r"this weekend|next week|last month|next month|last year|next year|this year|"
    r"last (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few) "
    r"(?:days?|weeks?|months?|years?) ago)\b", re.IGNORECASE)
# Weeks are named relative to the message, not as a date range.
_WEEK_LABELS = {"last week": "the week before {}", "last weekend": "the weekend before {}",
                "next week": "the week after {}", "this weekend": "the weekend of {}"}


def resolve_relative_date(phrase: str, when: datetime) -> str | None:
    """The calendar date (or week/month/year) a relative phrase means, said at `when`.
    "yesterday" -> "7 May 2023"; "last week" -> "the week before 8 May 2023";
    "last year" -> "2022"; "3 weeks ago" -> "around 17 April 2023"; "next month" ->
    "June 2023". The phrase is resolved by `temporal.resolve_phrase`; None if it is not one
    of its forms, names a week span ("this week"), or counts zero ("0 days ago")."""
    p = phrase.lower().strip()
    if p in _WEEK_LABELS:
        return _WEEK_LABELS[p].format(_day(when))
    span = resolve_phrase(p, when)
    if span is None or re.match(r"0+\b", p):
        return None
    if span.unit == "month":
        return span.start.strftime(_MONTH_FMT)
    if span.unit == "year":
        return str(span.start.year)
    if span.unit == "week":
        return None
    return ("around " if span.approximate else "") + _day(span.start)


def _said_at(time: str) -> datetime | None:
    """The message's time (temporal.parse_time), or None when it has none or it is not ISO."""
    try:
        return parse_time(str(time))
    except ValueError:
        return None


def _conj(verb: str) -> str:
    low = verb.lower()
    if low in _IRREG:
        return _IRREG[low]
    if low in _NO_CONJ or low.endswith("ed") or low.endswith("n't") or not low.isalpha():
        return verb
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _third_person(clause: str, speaker: str, addressee: str | None) -> str:
    s = speaker
    out = clause
    out = re.sub(r"\bI'm\b|\bIm\b|\bI am\b", f"{s} is", out)
    out = re.sub(r"\bI've\b|\bIve\b", f"{s} has", out)
    out = re.sub(r"\bI'll\b", f"{s} will", out)
    out = re.sub(r"\bI'd\b", f"{s} would", out)
    out = re.sub(r"\bI was\b", f"{s} was", out)

    def verb_after_i(m: re.Match) -> str:
        advs, verb = m.group(1) or "", m.group(2)
        return f"{s} {advs}{_conj(verb)}"

    out = _VERB_AFTER_I.sub(verb_after_i, out)
    out = re.sub(r"\bI\b", s, out)
    out = re.sub(r"\b[Ww]e're\b", f"{s} and others are", out)
    out = re.sub(r"\b[Ww]e've\b", f"{s} and others have", out)
    out = re.sub(r"\b[Ww]e'll\b", f"{s} and others will", out)
    out = re.sub(r"\b[Ww]e'd\b", f"{s} and others would", out)
    out = re.sub(r"\b[Ww]e\b", f"{s} and others", out)
    out = re.sub(r"\b[Mm]y\b|\b[Oo]ur\b", f"{s}'s", out)
    out = re.sub(r"\bmyself\b", "themself", out)
    out = re.sub(r"\bme\b|\bus\b", s, out)
    out = re.sub(r"\bmine\b", f"{s}'s", out)
    if addressee:
        out = re.sub(r"\b[Yy]ou're\b", f"{addressee} is", out)
        out = re.sub(r"\b[Yy]our\b", f"{addressee}'s", out)
        out = re.sub(r"\b[Yy]ou\b", addressee, out)
    return out


# (kind, cue words) in priority order: the first whose cues occur in the clause wins.
_KIND_CUES: list[tuple[str, re.Pattern[str]]] = [
    (kind, re.compile(r"\b(" + cues + r")\b")) for kind, cues in (
        ("decision", r"decided|decide|chose|choose|made up my mind|settled on"),
        ("constraint", r"can't|cannot|allergic|intolerant|vegan|vegetarian|don't eat|never eat|must|"
                       r"have to|not allowed"),
        ("promise", r"promise|i'll|i will|we'll"),
        ("expectation", r"gonna|going to|plan|planning|hope|hoping|expect|looking forward|want to|wanna|next"),
        ("preference", r"love|loves|like|likes|enjoy|enjoys|prefer|favorite|favourite|hate|fan of|into|"
                       r"passionate|keen"),
        # Where someone works and as what is a fact about them (docs/memory.md kinds), not a
        # project: "I work as a nurse", "I got a new job at Siemens".
        ("fact", r"work at|work as|work for|works at|works as|works for|working at|working as|"
                 r"employed|job|career|occupation|profession"),
        ("project", r"working on|project|startup|business|build|building"),
        ("expertise", r"expert|experience|degree|studied|certified|trained|skilled"),
        ("person", RELATIONS),
        ("event", r"went|visited|started|joined|attended|had|got|took|yesterday|last|ago|today|"
                  r"finished|bought|ran|won|met|moved|saw|tried|made|gave"),
    )
]


def guess_kind(clause: str) -> str:
    """The memory kind suggested by cue words of a first-person clause (see KINDS); "fact"
    when no cue occurs."""
    c = " " + clause.lower() + " "
    for kind, cues in _KIND_CUES:
        if cues.search(c):
            return kind
    return "fact"


def find_relations(messages: list[Message]) -> dict[tuple[str, str], str]:
    """{(speaker, relation): name} for relations named in the messages ("my sister Rosa")."""
    found: dict[tuple[str, str], str] = {}
    for msg in messages:
        text = _IMAGE.sub(" ", msg.text).replace("\u2019", "'")
        for i, pat in enumerate(_REL_PATTERNS):
            for m in pat.finditer(text):
                rel, name = (m.group(1), m.group(2)) if i == 0 else (m.group(2), m.group(1))
                name = " ".join(w for w in name.split() if w not in _NOT_NAMES)
                if name and name != msg.speaker:
                    found.setdefault((msg.speaker, rel.lower()), name)
    return found


def _addressee(messages: list[Message], i: int) -> str | None:
    me = messages[i].speaker
    for j in (i - 1, i + 1, i - 2, i + 2):
        if 0 <= j < len(messages) and messages[j].speaker != me:
            return messages[j].speaker
    return None


def _clauses(text: str) -> list[str]:
    text = _IMAGE.sub(" ", text).replace("\u2019", "'").replace("\u2018", "'")
    out = []
    for sent in _SENT_SPLIT.split(text):
        sent = sent.strip(" \t\"'")
        if not sent or sent.endswith("?"):
            continue
        m = _FIRST.search(sent)
        my = _MY_SUBJECT.search(sent)
        if my and (not m or my.start() < m.start()):
            out.append(sent[my.start():])
        elif m:
            out.append(sent[m.start():])
        elif _ELIDED.match(sent):
            head = _ELIDED.match(sent).group(0)
            rewrite = _ELIDED_REWRITE.get(head.lower(), head.lower())
            out.append("\x00" + rewrite + sent[len(head):])
    return out


#: How a chat export names its own person's messages ("Me" in WhatsApp-style exports).
SELF_SPEAKERS = frozenset({"me", "myself"})


def rule_facts(messages: list[Message], relations: dict[tuple[str, str], str] | None = None) -> list[ExtractedFact]:
    """Third-person facts from first-person statements of `messages` (see module docstring).
    relations: from `find_relations` over the whole conversation (computed here if None).
    A speaker a chat export names "Me" (`SELF_SPEAKERS`) is written "The person", as in the
    assistant's transcripts; "The person" inside a fact is "the person"."""
    messages = [replace(m, speaker="The person") if m.speaker.strip().lower() in SELF_SPEAKERS else m
                for m in messages]
    if relations is None:
        relations = find_relations(messages)
    facts: list[ExtractedFact] = []
    seen: set[str] = set()
    for (speaker, rel), name in relations.items():
        for msg in messages:
            if msg.speaker == speaker and name in msg.text and re.search(rel, msg.text, re.I):
                text = f"{speaker}'s {rel} is {name}."
                if text not in seen:
                    seen.add(text)
                    facts.append(ExtractedFact(text, "person", speaker, [msg.id], [name],
                                               RULE_CONFIDENCE, "rules", msg.time))
                break
    for i, msg in enumerate(messages):
        addressee = _addressee(messages, i)
        when = _said_at(msg.time)
        for m in _IMAGE_CAPTION.finditer(msg.text):
            caption = re.sub(r"^(?:a |an )?(?:photo|picture|image) of ", "", m.group(1).strip(), flags=re.I)
            if len(content_words(caption)) >= 2:
                text = f"{msg.speaker} shared a photo of {caption.rstrip('. ')}."
                if text not in seen:
                    seen.add(text)
                    facts.append(ExtractedFact(text, "event", msg.speaker, [msg.id], [],
                                               RULE_CONFIDENCE, "rules", msg.time))
        people = {msg.speaker.lower()} | ({addressee.lower()} if addressee else set())
        for clause in _clauses(msg.text):
            if clause.startswith("\x00"):
                fact = f"{msg.speaker} " + _third_person(clause[1:], msg.speaker, addressee)
                cue = "i " + clause[1:]
            else:
                fact = _third_person(clause, msg.speaker, addressee)
                cue = clause
            fact = re.sub(r"\s+", " ", fact).strip(" ,;:-")
            fact = fact[:1] + fact[1:].replace("The person", "the person")  # "forgot the person's keys"
            cws = [w for w in content_words(fact) if w not in people and w.split("'")[0] not in people]
            if len(cws) < 2:
                continue
            for (spk, rel), name in relations.items():
                if name in fact:
                    continue
                fact = re.sub(rf"\b{re.escape(spk)}'s ((?:\w+ )?){rel}\b(?!'s name| {re.escape(name)})",
                              rf"{spk}'s \g<1>{rel} {name}", fact)
            if when is not None:
                dates = []
                for m in _REL_DATE.finditer(fact):
                    resolved = resolve_relative_date(m.group(1), when)
                    if resolved and resolved not in dates:
                        dates.append(resolved)
                if dates:
                    fact = fact.rstrip(".!") + " (" + "; ".join(dates) + ")"
            fact = fact.rstrip("!;,: ")
            if not fact.endswith("."):
                fact += "."
            if fact in seen:
                continue
            seen.add(fact)
            facts.append(ExtractedFact(fact, guess_kind(cue), msg.speaker, [msg.id], [],
                                       RULE_CONFIDENCE, "rules", msg.time))
    return facts
