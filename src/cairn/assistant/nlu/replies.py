"""The read-only views the understanding layer builds from results (a note's key sentences, a list
of reminders, earlier conversations, recent notes) and the lines of a note that answer a question.
Replies that read no note (refusals, feelings, small talk) are in nlu/canned.py."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from cairn.assistant.nlu import records as F
from cairn.assistant.nlu.people import PHONE, Personish
from cairn.assistant.nlu.ways import wrong_way
from cairn.assistant.nlu.spoken import _local, reminders_text, when_spoken  # noqa: F401 - the assistant reads them here

def key_sentences(embedder, body: str, n: int = 4) -> list[str]:
    """Up to `n` key sentences of a note body, in the note's order: the sentences closest to
    the note's mean sentence vector (centrality, as in centroid-based extractive summarising:
    Radev et al. 2004, "Centroid-based summarization of multiple documents"), the sentences
    holding a date, time or amount first (a personal note's key points are its facts; the
    centroid alone favours long sentences over "Budget: £600."). Headings and empty lines are
    skipped."""
    import numpy as np
    sents = [s.strip(" -*\t") for s in sentences(body)]
    if len(sents) <= n:
        return sents
    from cairn.embed.cache import embed_cached
    v = embed_cached(embedder, sents)
    c = v.mean(axis=0)
    c = c / (np.linalg.norm(c) or 1.0)
    score = v @ c
    score = score + np.array([1.0 if re.search(r"\d|£|\$|€", s) else 0.0 for s in sents])  # facts first
    keep = sorted(np.argsort(-score)[:n])
    return [sents[i] for i in keep]


def window(text: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The UTC time window a message's "yesterday" / "today" / "this morning" / "this week" /
    "last week" / "on Monday" names; None when it names none."""
    from cairn.schedule import when as W
    tz = W.zone(None)
    local = now.astimezone(tz)
    day = local.replace(hour=0, minute=0, second=0, microsecond=0)
    t = text.lower()
    if "yesterday" in t:
        a, b = day - timedelta(days=1), day
    elif "this morning" in t:
        a, b = day, day + timedelta(hours=12)
    elif re.search(r"\btoday\b|earlier today", t):
        a, b = day, day + timedelta(days=1)
    elif "last week" in t:
        a, b = day - timedelta(days=local.weekday() + 7), day - timedelta(days=local.weekday())
    elif re.search(r"this week|past few days|recently|lately", t):
        a, b = day - timedelta(days=7), day + timedelta(days=1)
    else:
        return None
    return a.astimezone(timezone.utc), b.astimezone(timezone.utc)


MAX_SAID = 20  # messages quoted per earlier session


def conversations_text(sessions: list[tuple[str, str, list[str]]], now: datetime) -> str:
    """What earlier sessions were about: (session id, started ISO, the person's messages)
    each, oldest first; each message quoted whole, or a long one (`said`) shortened with the
    names and titles of its cut part kept."""
    if not sessions:
        return "We haven't talked before this conversation — there are no earlier sessions."
    out = []
    for sid, started, msgs in sessions:
        when = _local(started)
        shown = "; ".join(said(m) for m in msgs[:MAX_SAID]) + (
            f"; and {len(msgs) - MAX_SAID} more" if len(msgs) > MAX_SAID else "")
        out.append(f"- {when} (session {sid}): you asked {shown}")
    return "Earlier we talked about:\n" + "\n".join(out)


_FILLER = frozenset("please thanks thank also too new start add put remind set can could would just".split())
WHOLE = 120  # a message up to this many characters is quoted whole
_NAME = re.compile(r"\b[A-Z][\w'’&-]*(?:\s+(?:[A-Z][\w'’&-]*|of|for|and|to|de|van))*(?<!\s)(?<!of)(?<!for)(?<!and)(?<!to)")


def said(message: str) -> str:
    """One message of the person, quoted for "what did we talk about": whole up to WHOLE
    characters; else its first ~100 characters cut at a word, then the capitalised names and
    titles (people, notes: the topic), then the other content words, of the cut part (8 at most), so a title late in a long
    message ("… and start a note called Wedding gift ideas") is not lost."""
    m = " ".join(message.split())
    if len(m) <= WHOLE:
        return f"“{m}”"
    head = m[:100].rsplit(" ", 1)[0]
    rest = m[len(head):]
    keys = [k for k in dict.fromkeys(x.group(0) for x in _NAME.finditer(rest)) if k.lower() not in ("i", "i'm", "i've")]
    seen = " ".join(keys).lower()
    words = [w for w in re.findall(r"[£$€]?[\w'’:.,/-]*\w", rest)
             if w.lower() not in _STOP and len(w) > 2 and w.lower() not in seen and w.lower() not in _FILLER]
    keys = (keys + list(dict.fromkeys(words)))[:8]
    return f"“{head} …”" + (f" (also: {', '.join(keys)})" if keys else "")


_STOP = frozenset("a an the of to in on at for and or is are was were be been do does did i my me you your we our "
                  "what whats what's when where who which how why say says said note notes about from with it its "
                  "that this there their will would should can could have has had need".split())


# A possessive pronoun ("which unit is mine", "is the blue one yours") says whose, as "my" / "your" do,
# which are no content words either: "mine" is not a word a note's "My unit is B27" must share. Switch off:
# POSSESSIVE_PRONOUNS.
POSSESSIVE_PRONOUNS = True
_POSSESSIVE = frozenset("mine yours ours theirs hers".split())


def terms(text: str) -> set[str]:
    """Content words of `text`, lower-cased, a plural or possessive "s" taken off (function
    words and, POSSESSIVE_PRONOUNS, "mine" / "yours" / ... left out)."""
    out = set()
    for w in re.findall(r"[\w£$€]+", text.lower()):
        if w in _STOP or len(w) < 2 or (POSSESSIVE_PRONOUNS and w in _POSSESSIVE):
            continue
        out.add(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return out


def sentences(body: str) -> list[str]:
    """The sentences of a note body, in order (headings and empty lines skipped): each line cut
    by the shared splitter, cairn.lexical.sentences (a title or initial, "Dr. Okafor", ends none)."""
    from cairn.lexical import sentences as spans
    out: list[str] = []
    for ln in body.splitlines():
        ln = ln.strip()
        if not ln or ln.startswith("#"):
            continue
        out += [ln[a:b] for a, b in spans(ln)] or [ln]
    return out


# A line that asks ("Who is driving?", "Ben: can you bring the cake?") answers nothing: the line of a chat
# asking the very question the person asks again is no answer to it. Switch off: QUESTION_LINES_ANSWER.
QUESTION_LINES_ANSWER = False
_ASKS = re.compile(r"\?[\W_]*$")


def answer_lines(body: str) -> list[str]:
    """The sentences of a note body that may answer a question (`sentences`): those not
    themselves a question (ending in "?", closing quotes or emoji aside)."""
    return [s for s in sentences(body) if QUESTION_LINES_ANSWER or not _ASKS.search(s)]


def steps(body: str) -> list[str]:
    """The numbered (or, failing that, bulleted) lines of a note body, in order: a procedure."""
    lines = [ln.strip() for ln in body.splitlines()]
    numbered = [ln for ln in lines if re.match(r"^\d+[.)]\s+", ln)]
    return numbered or [ln for ln in lines if re.match(r"^[-*]\s+", ln)]


# best_sentences counts the words a sentence shares with the question by their stems ("who's meeting me" shares
# "meet" with "she'll meet me"), as typed_sentences does. Switch off: STEMMED_OVERLAP.
STEMMED_OVERLAP = True


def _stemmed_terms(text: str) -> set[str]:
    from cairn.lexical import stem
    return {stem(w) for w in terms(text)}


def best_sentences(embedder, body: str, question: str, title: str, avoid: str | None = None) -> list[str]:
    """The sentences of a note that answer `question` about it: those sharing the most content
    words with the question once the note's title words are taken away (a sentence after the first
    of its line shares that first one's words at half weight, records.LINE_HEAD; a line quoted in
    `avoid` (the replies to the message's earlier parts) left out while another shares a word;
    ties: cosine to the question; a role a
    sentence names shares the words of its work, roles.role_words); [] when the question asks
    nothing beyond the title, or no sentence shares a word."""
    tm = _stemmed_terms if STEMMED_OVERLAP else terms
    want = tm(question) - tm(title)
    if not want:
        return []
    sents = answer_lines(body)
    heads = F.line_heads(body, sentences) if F.LINE_HEAD else {}
    from cairn.answer.rota import role_words  # a role counts the work it does ("Electrician": "wiring")
    own = [(want & (tm(s) | (tm(" ".join(role_words(s))) if ROLE_WORK else set())), s) for s in sents]
    # a word only the line's head holds counts half: the sentence saying it outright comes first
    scored = [(len(o) + 0.5 * len(want & tm(heads.get(s, "")) - o), s) for o, s in own]
    if avoid:  # a line an earlier part of the message quoted is no answer to this part while another one is
        words = lambda x: " ".join(re.findall(r"\w+", re.sub(r"\[\d+\]", " ", x.lower())))  # "[1]" markers out
        scored = [(n, s) for n, s in scored if words(s) not in words(avoid)] or scored
    top = max((n for n, _ in scored), default=0)
    if top == 0:
        return []
    tied = [s for n, s in scored if n == top]
    if len(tied) > 1 and DIRECTION:  # "to Castlemere" asked: not the line of the way back "from Castlemere"
        tied = [s for s in tied if not wrong_way(question, s)] or tied
    if len(tied) > 1:
        import numpy as np
        from cairn.embed.cache import embed_cached
        v = embed_cached(embedder, tied + [question])
        sims = v[:-1] @ v[-1]
        tied = [tied[int(np.argmax(sims))]]
    return tied


_CLOCK = re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{1,2}(?:[.:]\d{2})?\s*(?:am|pm)\b|\bnoon\b|\bmidnight\b", re.I)
_MONEY = re.compile(r"[£$€]\s?\d|\b\d+(?:\.\d{2})?\s?(?:pounds|euros|dollars|quid)\b", re.I)


# "230C", "5°C", "4 degrees"; not "28c combi" (a bare C after one or two digits is no temperature)
_TEMP = re.compile(r"(?<![\d.])\d{1,3}\s*(?:°\s*[CF]?|(?i:degrees)\b)|\b\d{2,3}\s*[CF]\b|(?i:\bgas mark)\s*\d")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# a size: two measures ("78 x 118 cm", "700x25c"), a length ("38 mm", "2.4 m", "6 ft"), a numbered size
# ("size 9", "UK 7"); not a pressure, weight or count ("80 psi", "5 kg", "3 in the morning")
_SIZE = re.compile(r"\b\d+(?:\.\d+)?\s*(?:x|×)\s*\d+|\b\d+(?:\.\d+)?\s*(?:mm|cm|m|metres?|meters?|inch(?:es)?|ft|feet|foot)\b"
                   r"|\b\d+(?:\.\d+)?\s*(?:\"|″)|\bsize\s+\d+|\b(?:UK|EU|US)\s*\d+\b", re.I)
# kinds of thing no other sentence can stand in for: (what the question says, the test, the words for it)
_SPECIFIC = ((re.compile(r"\bhow (?:hot|warm|cold)\b|\btemperature\b|\btemp\b|\bwhat heat\b|\bgas mark\b"), _TEMP,
              "a temperature"),
             (re.compile(r"\be-?mail\b"), _EMAIL, "an email address"),
             (re.compile(r"\bwhat size\b|\bhow big\b|\bdimensions?\b|\bmeasurements?\b"), _SIZE, "a size"))


def specific_kind(question: str):
    """(test, words) of a kind of thing only a sentence holding one answers — a temperature
    ("how hot should the oven be?"), an email address ("what's the plumber's email?") — or
    None. A note sentence without one is no answer, and one with one is on the question's
    topic even when it shares no other word with it."""
    q = question.lower()
    return next(((rx.search, words) for asks, rx, words in _SPECIFIC if asks.search(q)), None)


VALUE_KINDS = frozenset({"phone", "code", "email", "place", "money"})  # a number, a reference, an address, a price


def value_kind(question: str) -> str | None:
    """The kind of value a question asks for by naming only the kind ("and the address?",
    "what's the ref?", "the phone number?", "what's in the sauce?"): the answer type
    (cairn.search.asked.asked) when it is one of VALUE_KINDS — "place" only as a postal
    address (types.values) — or "contents" for what a thing holds (search.asked.CONTENTS: "what's
    in", "ingredients"); None otherwise."""
    from cairn.search.asked import CONTENTS, asked
    q = question.strip()
    if re.search(CONTENTS, q, re.I):
        return "contents"
    kind = asked(q).kind
    if kind == "code" and re.search(r"\bpost\s?code\b", q, re.I):
        return "place"  # a postcode is part of an address (types.values("place"))
    return kind if kind in VALUE_KINDS else None


def enumerates(sentence: str) -> bool:
    """Whether `sentence` lists three or more things (two commas, or a comma and "and"):
    what a "what's in it?" question is answered by."""
    return sentence.count(",") >= 2 or (sentence.count(",") >= 1 and bool(re.search(r"\band\b", sentence)))


def contents(body: str, question: str, title: str, embedder) -> list[str]:
    """The answer to "what's in X?" from a note: its bulleted list, whole, when it has one;
    else its sentence listing things (`enumerates`) closest to the question (typed_sentences)."""
    items = [ln.strip() for ln in body.splitlines() if re.match(r"^\s*[-*•]\s+", ln)]
    return items or typed_sentences(embedder, body, question, title)


def on_topic_value(question: str, body: str, title: str) -> bool:
    """Whether a question asking for a kind of value (`value_kind`) goes on about the note
    `title`/`body`: it names nothing beyond the kind ("and the address?"), or a word of it
    is in the note ("the ref for the missing bit" of a note saying what was missing)."""
    from cairn.lexical import stem
    want = _stems(question, title)
    return not want or bool(want & {stem(w) for w in terms(f"{title} {body}")})


# a rate, what "how often?" asks for: "every 12 hours", "once a week", "twice daily", "3 times a day"
_RATE = re.compile(r"\b(?:(?:every|each)\s+(?:\w+\s+)?(?:minute|hour|day|night|week|fortnight|month|year|morning|"
                   r"afternoon|evening|weekend|weekday|(?:mon|tues|wednes|thurs|fri|satur|sun)day|time)s?|daily|nightly|"
                   r"weekly|fortnightly|monthly|quarterly|yearly|annually|hourly|once|twice|\w+\s+times\s+(?:a|an|per)|"
                   r"per\s+(?:day|week|month|year|hour))\b", re.I)


# "how early / how late" asks a clock time or an amount of time before or after ("arrive 20 minutes early", "half
# an hour before"). Switch off: HOW_EARLY.
HOW_EARLY = True
_AHEAD = re.compile(r"\b(?:\d+|an?|half an?|one|two|three|four|five|ten|fifteen|twenty|thirty|forty|forty-five)\s*"
                    r"(?:min(?:ute)?s?|hours?|hrs?)\s+(?:early|earlier|before|ahead|beforehand|late|later|after)\b", re.I)


def asked_kind(question: str):
    """A test (sentence -> bool) for the kind of thing `question` asks for, or None: a
    `specific_kind` (a temperature, an email address), a clock time for "what time ...?", a sum of money for "how much ...?" / "... cost/pay/price", else
    the answer type of cairn.answer.types ("when" -> a date, day or clock time; "how long" -> a
    quantity; "how often" -> a rate, `_RATE`: "every 12 hours", not "50g")."""
    from cairn.answer.types import fits_answer_type
    from cairn.search.asked import answer_type
    q = re.sub(r"^\W*(?:and|so|ok|okay)\s+", "", question.strip().lower())
    if (spec := specific_kind(q)) is not None:
        return spec[0]
    if (vk := value_kind(question)) == "contents":
        return enumerates
    if vk is not None:
        from cairn.answer.types import values
        if vk == "code":  # a reference, not the digits of a phone number ("01632 960111")
            return lambda s: any(not any(a < pe and ps < b for ps, pe in values("phone", s)) for a, b in values("code", s))
        return lambda s: bool(values(vk, s))
    if HOW_EARLY and re.search(r"\bhow (?:early|late)\b", q):  # "arrive 20 minutes early" answers it as a clock does
        return lambda s: bool(_CLOCK.search(s) or _AHEAD.search(s))
    if re.search(r"\bwhat time\b|\bwhat hour\b|\bhow (?:early|late)\b", q):
        return _CLOCK.search
    if F.PART_OF_DAY and re.search(r"\b(?:what|which) (?:night|evening|morning|afternoon)s?\b", q):
        # "what night is choir": the day of the week it comes round on, with its hour ("Thursdays at 7.30pm")
        return lambda s: bool(F.WEEKLY.search(s)) and bool(_CLOCK.search(s) or F.PART_WORD.search(s))
    if re.search(r"\bhow much\b|\b(?:cost|costs|costing|price|pay|paid|charge|charged|spend|spent|fee|owe)\b", q):
        return _MONEY.search
    kind = answer_type(q)
    if kind == "frequency":  # "how often?": a rate ("every 12 hours", "once a week"), not any number
        return _RATE.search
    if kind == "time":  # "when do we hand the keys in?": a clock time answers it as well as a day
        return lambda s: fits_answer_type(s, kind) or bool(_CLOCK.search(s))
    return (lambda s: fits_answer_type(s, kind)) if kind else None


# A question naming the note's title and nothing beyond it ("when's ruby's baby shower" of "Ruby's baby shower")
# asks the note's own value of the kind: of the sentences of that kind, the first in the note answers it (the
# note opens with its own date; a later date is of some other thing it mentions), not the nearest by cosine.
# Of such sentences, the first holding a number, if any. Switch off: TITLE_ONLY_FIRST.
TITLE_ONLY_FIRST = True


def typed_sentences(embedder, body: str, question: str, title: str, prefer: str | None = None,
                    avoid: str | None = None, related: str | None = None) -> list[str]:
    """The sentence of a note holding the kind of thing `question` asks for (`asked_kind`):
    among the sentences of that kind, the one sharing most content words (stemmed) with the
    question beyond the title; ties go to `prefer` (the sentence the conversation last quoted: "and when
    do they finish?" after "what time do they start?"), then to the highest cosine. [] when
    the question asks for no kind, or no sentence holds one ("what time ...?" of a note
    without a clock time). `avoid`: the line the conversation last quoted when the question
    asks the same kind of another thing ("and the one back?" after the outward ferry's time):
    left out while another sentence holds the kind; `related`: the question it follows, whose
    words break a tie first (the return coach's line for "and the way home?" after "what time
    does the coach leave": the follow-up asks of the same kind of thing)."""
    fits = asked_kind(question)
    if fits is None:
        return []
    sents = [s for s in answer_lines(body) if fits(s)]
    from cairn.lexical import stem
    new = _stems(question, title) - (_stems(related, title) if related else set())  # the follow-up's new thing
    if avoid and not (AVOID_UNLESS_NAMED and new & {stem(w) for w in terms(avoid)}):
        other = [s for s in sents if not _said(s, avoid)]
        sents = other or sents
    if BEFORE_ENDS and (end := _end_stems(question)):
        # "how long do I leave it before I bottle it": bottling ends the time asked; the line of the bottling
        # itself ("then bottle it … for 2 days") says what comes after it
        before = [s for s in sents if not _names_outside_before(s, end)]
        sents = before or sents
    if len(sents) <= 1:
        return sents
    # the words naming only the kind ("number", "time", "ref") are in every candidate's kind, not its topic:
    # "the flight number" is the flight's line, not the line saying "booking number"
    want = _stems(question, title)
    also = _stems(related, "") - want if related else set()  # "coach" of "Coach to Harwick" tells lines apart here
    # a role a sentence names counts the work it does ("Electrician: …" for "the wiring": roles.py)
    from cairn.answer.rota import role_terms
    whose = F.possessors(question, body) if F.POSSESSOR_HALF else set()  # "nell's" of "when is nell's piano exam" says whose
    scored = [((len(want & st - whose) + 0.5 * len(want & st & whose), len(also & st)), s) for s in sents
              for st in [{stem(w) for w in terms(s)} | (role_terms(s) if ROLE_WORK else set())]]
    top = max(n for n, _ in scored)
    tied = [s for n, s in scored if n == top]
    if len(tied) > 1 and prefer:
        said = [s for s in tied if _said(s, prefer)]
        tied = said or tied
    if len(tied) > 1 and TITLE_ONLY_FIRST and not want and not also and _stems(question, "") & _stems(title, ""):
        # "when's ruby's baby shower" of "Ruby's baby shower": the note's first date is its own; a value written
        # with a number ("Sunday 22 March") before a word that only fits the kind ("spring concert")
        return ([s for s in tied if re.search(r"\d", s)] or tied)[:1]
    if len(tied) > 1:
        import numpy as np
        from cairn.embed.cache import embed_cached
        asked = beyond_title(question, title) if TIE_BEYOND_TITLE else question
        v = embed_cached(embedder, tied + [asked])
        tied = [tied[int(np.argmax(v[:-1] @ v[-1]))]]
    return tied[:1]


# Lines tied on the words they share with a question are told apart by meaning (cosine) to the question
# WITHOUT the note's title words: the title's topic is what every line of the note is about, so "fish pie" in
# "how long does the fish pie take in the oven" drew the poaching line ("Poach the fish …"); what is left ("…
# take in the oven") is the baking line's. Only a question naming the whole title names the note: "to
# copenhagen" of the Copenhagen trip note is the way out, not the note (week-n turn 21 lost without this).
# Switch off: TIE_BEYOND_TITLE.
TIE_BEYOND_TITLE = True


def beyond_title(question: str, title: str) -> str:
    """`question` with the words of the note `title` taken out ("how long does the fish pie take
    in the oven", "Fish pie" -> "how long does the take in the oven"); the question itself when
    it does not name the whole title (a word of it alone is a thing the question asks of: "when
    do we fly to copenhagen" of "Copenhagen trip" keeps "to copenhagen", which tells the way out
    from the way back) or fewer than three words would be left."""
    drop = terms(title)
    if not drop or not drop <= terms(question):
        return question
    kept = [w for w in question.split() if not (terms(w) and terms(w) <= drop)]
    return " ".join(kept) if len(kept) >= 3 and len(kept) < len(question.split()) else question


# A question's "before / until <event>" names the event that ends the time or thing asked ("how long
# do I leave it before I bottle it?"): the event's own line, naming it outside a "before …" clause of
# its own, tells what follows the event, not what precedes it; it is left out while another line
# holds the kind asked. Its words are no topic words either (_stems). Switch off: BEFORE_ENDS.
BEFORE_ENDS = True
DIRECTION = True  # best_sentences leaves out a line going the other way (ways.py); switch off to compare
ROLE_WORK = True  # typed_sentences counts the work of a role a sentence names (roles.py); switch off to compare
_BEFORE = re.compile(r"\b(?:before|until|till|til|prior to)\b(?P<rest>[^,;.?!]*)", re.I)


def _end_stems(question: str) -> set[str]:
    """Stemmed content words of the "before / until …" clause of `question` (set() without one)."""
    from cairn.lexical import stem
    m = _BEFORE.search(question)
    return {stem(w) for w in terms(m.group("rest"))} if m else set()


def _names_outside_before(sentence: str, end: set[str]) -> bool:
    """Whether `sentence` holds a word of `end` outside its own "before / until …" clauses."""
    from cairn.lexical import stem
    outside = _BEFORE.sub(" ", sentence)
    return bool(end & {stem(w) for w in terms(outside)})


# The line quoted last is NOT meant by "and the one back?" — unless it names the new thing too ("…120 days;
# Padrons about 70 days" answers "and the padrons?"): a word of the follow-up the question before it lacked
# (beyond title and kind words) keeps it. Switch off: AVOID_UNLESS_NAMED.
AVOID_UNLESS_NAMED = True


def _said(sentence: str, quoted: str) -> bool:
    """Whether `sentence` is the line `quoted` (a reply's first line, its "[1]" marker kept)."""
    return sentence.lower() in quoted.lower() or quoted.lower().split(" [")[0] in sentence.lower()


def shares_stem(question: str, lines: list[str], title: str) -> bool:
    """Whether one of `lines` shares a stemmed content word (cairn.lexical.stem: "fly" /
    "flying") with `question`, beyond the note's `title` and the words that only say what
    kind of answer is asked ("time", "day", "when"). A question naming nothing but that kind
    ("and what time?", "and how much?") goes on about the note: True."""
    from cairn.lexical import stem
    want = _stems(question, title)
    return not want or any(want & {stem(w) for w in terms(ln)} for ln in lines)


_TIMEWORD = (r"(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|January|February|March|April|May|June|July|August|"
             r"September|October|November|December|Christmas|Easter)\b")
# a place: "in St Aldric's hall", "at Harrowgate Vets", "on Mercer Lane" (not "on Friday", "in May"), or
# a street address ("9 Tanner's Yard")
_PLACE = re.compile(r"\b(?:at|in|on|near|behind|opposite|outside)\s+(?:the\s+)?(?!" + _TIMEWORD + r")(?:St\.?\s+)?"
                    r"[A-Z][\w'’]+|\b\d+\s+[A-Z][\w'’]+\s+(?:Street|St|Road|Rd|Lane|Row|Yard|Avenue|Ave|Close|Way|"
                    r"Drive|Place|Square|Terrace|Court|Crescent|Hill|Gardens|Mews)\b")


def _stems(question: str, title: str) -> set[str]:
    from cairn.lexical import stem
    from cairn.search.asked import TYPE_WORDS
    kind_words = {"time", "day", "date", "week", "month", "year", "much", "many", "long", "often", "hour", "ref",
                  "reference", "code", "reg", "registration", "postcode", "ingredient", "content"}
    return {stem(w) for w in terms(question) - terms(title) - kind_words} - TYPE_WORDS - (
        _end_stems(question) if BEFORE_ENDS else set())


def covers(question: str, lines: list[str], title: str) -> bool:
    """Whether `lines` hold every stemmed content word of `question` (beyond the note's `title`
    and the words that only say what kind of answer is asked), and it has one: the stricter
    test of a bare question's going on about the last note ("when can we check in?" after
    the cottage's key code; not "when are the jabs due?" after a hotel bill "due" in June)."""
    from cairn.lexical import stem
    want = _stems(question, title)
    return bool(want) and want <= {stem(w) for ln in lines for w in terms(ln)}


def kind_sentences(body: str, question: str, prefer: str | None = None) -> list[str]:
    """The first sentence of a note holding the kind of thing a question part asks for when
    its words match none: a phone number ("I need their number", "how do I call them?"), a
    person's name ("who does it?", "who is it with?") or a place ("where's it held?": a
    sentence placing something at a named place or street, _PLACE); [] for other questions.
    `prefer`: the line the conversation last quoted, taken first when it holds that kind."""
    q = question.lower()
    if re.search(r"\b(?:number|phone|ring|call|contact|dial)\b", q):
        rx = PHONE
    elif re.match(r"^\W*(?:and\s+)?(?:who|whom|whose)\b", q):
        rx = Personish
    elif re.match(r"^\W*(?:and\s+)?where\b", q):
        rx = _PLACE
    else:
        return []
    found = [s for s in answer_lines(body) if rx.search(s)]
    said = [s for s in found if prefer and (s.lower() in prefer.lower() or prefer.lower().split(" [")[0] in s.lower())]
    return (said or found)[:1]  # the line the conversation last quoted first ("where's that again?")


def question_parts(question: str) -> list[str]:
    """A message cut into its sentences ("who does it? I need their number" -> two parts)."""
    parts = [p.strip() for p in re.split(r"(?<=[?.!])\s+", question.strip()) if p.strip()]
    return parts or [question]

