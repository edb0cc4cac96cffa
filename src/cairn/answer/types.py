"""Answer types (issue 33), the candidate side: where values of the kind a question asks for are in a text. What kind
is asked (`Asked`: kind, head, subject) is read once with the question, search/asked.py.

`values(kind, text)`: the spans of `text` that are values of `kind`, found by pattern (VALUE_KINDS: money "£24.48",
phone "0800 555 0142", codes "HX-448120-B", dates, clock times, durations, numbers with a unit). A purpose ("What are
schemas for?") is stated by a cue (CUE_KINDS: "lets you", "is used to", `_PURPOSE`); a quote without one does not answer
(answer/checks.py: "quoted from your notes"), and the extractive answer prefers sentences with one. Person, place,
organisation, list, procedure and reason ("why") answers have no reliable pattern: the answerer treats them as untyped.
`missing(terms, context)`: the asked words a passage does not hold. `says_where`: whether a sentence says *where*
(preferred by the extractive answer to "where"; typed21). Pure functions.
"""

from __future__ import annotations

import re

from cairn.lexical import CLITICS, MONTH_NAMES, content_terms, stem
from cairn.search.asked import VALUE_KINDS

# False: the typed pipeline is off (the answerer as before issue 33; for measuring).
TYPED = True
KIND_FREE = True  # no sentence holds a value of the kind asked ("How many hikes?" / "I went hiking"): one over SENTENCE_FLOOR

# Kinds a pattern finds candidates for, but whose absence declines nothing (a "who" answer need not be a written-out
# name: "her mentor").
SOFT_KINDS = frozenset({"person"})
# Words that name the kind of value a line states ("Amount due: £97.45", "Tel 01422 845 210"): a candidate holding one
# states a value of that kind outright (typed.py, KIND_WORD).
KIND_WORDS = {"money": {"total", "amount", "due", "cost", "price", "fee", "balance", "charge", "pay"},
              "phone": {"phone", "tel", "telephone", "mobile", "call", "line"},
              "date": {"date", "due", "on", "by"}, "time": {"at", "time", "from", "by"},
              "code": {"number", "reference", "ref", "code", "id", "no"}}
KIND_VERBS = {"money": {"charge", "cost", "pay", "owe", "owed", "spend"}}  # asking a value of their kind (answer.relevance)

_CURRENCY = r"(?:[£$€¥]|\b(?:GBP|EUR|USD|CHF)\s?)"
_AMOUNT = r"-?\d[\d,]*(?:\.\d{1,2})?"
_MONEY = re.compile(rf"{_CURRENCY}\s?{_AMOUNT}|{_AMOUNT}\s?(?:GBP|EUR|USD|CHF|euros?|pounds?|dollars?|p)\b"
                    r"|\b\d+(?:\.\d+)?p\b"
                    # "110.00": two decimals, a price (not "7.30pm": a clock time)
                    r"|(?<![\d.,-])\d{1,3}(?:,\d{3})*\.\d\d(?![\d.-]|\s?[ap]\.?m\b)", re.IGNORECASE)
# An amount without a currency sign is money when a money label precedes it on its line ("GRAND TOTAL 211,522", "Amount
# due: 97"), and no word follows it naming what it counts ("balance 1,284 points").
_MONEY_LABELLED = re.compile(r"\b(?:total|subtotal|amount(?: due)?|balance(?: due)?|cost|price|fee|premium|deposit)"
                             r"\b[ \t:]+(-?\d[\d,]*(?:\.\d+)?)(?![\d%]|,\d|[ \t]+[a-z])", re.IGNORECASE)
_PHONE = re.compile(r"(?<![\w/.-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,5}\)\s?)?\d{2,5}(?:[\s.-]\d{2,6}){1,4}(?![\w/-]|\.\w)")
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_CODE = re.compile(r"(?<![\w-])(?=[A-Z0-9/-]*\d)(?:[A-Z0-9]+[-/])*[A-Z0-9]{2,}(?:[-/][A-Z0-9]+)*"
                   r"(?: [A-Z]{2,4}\b)?(?![\w-])|(?<![\w-])[A-Z]{2,4}(?: \d{2,6})+(?![\w%-]|[.,]\d)")
_SPACED = re.compile(r"[A-Z]{2,4}(?: \d{2,6})+")
SPACED = True  # _CODE's 2nd form, spaced digit groups ("BCH 448 2019": a hospital number); off: none but "HX-4481 B"
_MONTHS = "|".join(MONTH_NAMES)
_FULL_MONTHS = "|".join(m.capitalize() for m in MONTH_NAMES[:12])
# a day of the month by its ordinal ("paid on the 28th", "by the 23rd"; not "on the 4th floor"): a date, and a "when"
_DAY_OF_MONTH = (r"(?:on|by|before|after|from|until|till|every|each)\s+the\s+\d{1,2}(?:st|nd|rd|th)"  # (_TIME_RE)
                 r"(?=\s*(?:$|[.,;:!?)]|of\b|and\b|or\b|to\b|-))")
_DATE = re.compile(rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})\.?(?:\s+\d{{4}})?|(?:{_MONTHS})\.?\s+\d{{1,2}}"
                   rf"(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|(?:{_MONTHS})\s+\d{{4}}|\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}"
                   r"|\d{4}-\d\d-\d\d(?:T\d\d:\d\d(?::\d\d)?(?:Z|[+-]\d\d:\d\d)?)?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|today|tomorrow|yesterday|tonight"
                   r"|(?:19|20)\d\d|(?:every|each|next|last|this|in the|in)\s+(?:spring|summer|autumn|fall|winter|week|"
                   r"weekend|month|year|morning|evening)|(?:in|within)\s+\w+\s+(?:days|weeks|months|years)|\w+\s+ago"
                   rf"|(?:spring|summer|autumn|winter)|{_DAY_OF_MONTH}"
                   # a month named alone after a preposition ("to June", "until September"): written capitalised and in
                   # full, so "may" the verb is not a date
                   rf"|(?:in|to|by|until|till|from|since|before|after|during)\s+(?-i:{_FULL_MONTHS}))\b",
                   re.IGNORECASE)
_TIME = re.compile(r"(?<![£$€\d.,])\b(?:(?:[01]?\d|2[0-4])[:.][0-5]\d\s*(?:am|pm)?|\d{1,2}\s*(?:am|pm)|noon|midnight"  # or an hour
                   r"|(?:(?<=at )|(?<=till )|(?<=until )|(?<=open )|(?<=opens )|(?<=closes ))(?:1[0-2]|[1-9])(?=\s*(?:$|[;)!?]|"  # alone
                   r"[.,](?!\d)|(?:and|on|every|each|till|until|to|or|sharp|o'clock|in the|at)\b)))\b", re.IGNORECASE)  # ("opens at 7 and")
_UNITS = (r"minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|seconds?|secs?|nights?")
_NUMWORD = r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty|a|an)"
# a count of units, with up to two words qualifying the unit ("15 working days", "one full calendar month"; not a
# closed-class word: "2 of the days")
_QUALIFIER = r"(?:(?!(?:of|or|and|to|per|a|an|the|in|on|at|for|by|from|each|every|this|that)\b)[a-z]+\s+){1,2}"
_DURATION = re.compile(rf"\b{_NUMWORD}(?:\s*(?:-|to)\s*{_NUMWORD})?\s*(?:{_UNITS})\b"
                       rf"|\b(?!an?\b){_NUMWORD}\s+(?-i:{_QUALIFIER})(?:{_UNITS})\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*\s*(?:[a-zA-Z%°]{1,4}\b)?|\b(?:one|two|three|four|five|six|seven|eight|"
                     r"nine|ten|eleven|twelve|dozen|hundred|thousand)\b", re.IGNORECASE)
_PERSON = re.compile(r"\b(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)+\b")
# What something is for: a statement of function, not a pointer ("See X for further details").
_PURPOSE = re.compile(r"\b(?:lets?|allows?|helps?|enables?|(?:used|designed|meant|intended|there) (?:to|for)|"
                      r"(?:is|are|'s) (?:for|a way to)|so (?:that|you can)|in order to|purpose|turns?|provides?|"
                      r"keeps?|makes? it)\b", re.IGNORECASE)
# a postal address: "8 Wharf Street", "22 Orchard Parade", or a UK postcode ("BS31 1FG")
_ADDRESS = re.compile(r"\b\d+[a-z]?,?\s+(?:[A-Z][\w'’-]+\s+){1,3}(?:Street|St|Road|Rd|Lane|Ln|Row|Yard|Avenue|Ave|"
                      r"Close|Way|Drive|Place|Square|Terrace|Court|Crescent|Hill|Gardens|Mews|Parade|Walk|Grove|Park)\b"
                      r"|\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b")
# Kinds stated by a cue rather than a value: a quote without one does not answer (holds).
CUE_KINDS = frozenset({"purpose"})
PATTERNS = {"purpose": _PURPOSE, "person": _PERSON, "money": _MONEY, "phone": _PHONE, "email": _EMAIL, "code": _CODE, "date": _DATE, "time": _TIME,
            "duration": _DURATION, "number": _NUMBER, "place": _ADDRESS}


def values(kind: str | None, text: str) -> list[tuple[int, int]]:
    """(start, end) of every value of `kind` in `text` (VALUE_KINDS; [] for other kinds). A phone number has at least 7
    digits and is no date; a code holds a digit and is not a plain year, date, time or money amount; a person is no
    capitalised run of closed-class words."""
    from cairn.ner_written import without_closed_lead
    rx = PATTERNS.get(kind or "")
    if rx is None:
        return []
    out = []
    for m in rx.finditer(text):
        v = m.group(0).strip()
        if not v or (kind == "phone" and (sum(c.isdigit() for c in v) < 7 or _DATE.fullmatch(v))) \
                or (kind == "code" and (re.fullmatch(r"(?:19|20)\d\d|\d{1,3}", v) or _TIME.fullmatch(v)
                                        or not SPACED and _SPACED.fullmatch(v))) \
                or (kind == "number" and _DATE.fullmatch(v)):
            continue
        cut, name = without_closed_lead(v) if kind == "person" else (0, v)  # "See Lemon drizzle cake"
        if kind == "person" and len(name.split()) < 2 and not re.match(r"(?:Dr|Mr|Mrs|Ms|Mx|Prof)\b", v):
            continue
        out.append((m.start() + cut, m.start() + len(m.group(0).rstrip())))
    if kind == "money":
        taken = {s for s, _ in out}
        out += [m.span(1) for m in _MONEY_LABELLED.finditer(text) if m.start(1) not in taken]
        out.sort()
    return out


def states_purpose(sentence: str, head: tuple[str, ...]) -> bool:
    """True when `sentence` states what the thing asked (`head`, stemmed) is for: a purpose cue (`_PURPOSE`) after the
    thing's last head word or a pronoun standing for it ("Schemas help you categorize…", "It turns a folder into a
    website"); "Dendron also provides lookup for dendron.topic.schema" states what Dendron provides, not what schemas
    are for."""
    m = _PURPOSE.search(sentence)
    before = re.findall(r"[^\W\d_]+", sentence[:m.start()].lower()) if m else []
    return any(w in ("it", "they", "this", "these", "its", "their") or (head and stem(w) == head[-1]) for w in before)


def words_of(stems: list[str], question: str) -> list[str]:
    """The words of `question` whose stem is one of `stems` (for saying which were missing: 'house', not 'hous'), in the
    order of `stems`; a stem without such a word is kept."""
    words = re.findall(r"[\w'’-]+", question)
    return [next((w for w in words if stem(w.lower()) == s), s) for s in stems]


def holds(kind: str | None, text: str) -> bool:
    """True when `text` holds a value of `kind` (always True for a kind without a pattern)."""
    return kind not in VALUE_KINDS | CUE_KINDS or bool(values(kind, text))


# Standard English short forms of titles and roles, read as the word they stand for ("Dr Hale" holds "doctor"; "GP":
# general practitioner, a doctor).
SHORT_FORMS = {"dr": "doctor", "gp": "doctor", "prof": "professor", "appt": "appointment", "dept": "department",
               "mgr": "manager", "tel": "phone", "ref": "reference"}

# English shortenings: a term is held by the words it abbreviates, an initialism of consecutive words of the context
# ("agm": "annual general meeting", "nhs": "National Health Service"; "of", "and", "the" skipped) or a clipped word,
# its first letters with at least CLIP more following ("subs": "Subscriptions", "vet": "veterinary"; "car" is not held
# by "cardiff"). Off: neither.
SHORTENED = True
CLIP = 6
COMPOUND = True  # a compound's head holds the word: "dough" of "sourdough" (was the assistant's NEAREST_COVERED). Off: not.
AGENT = True  # an agent noun holds its verb ("Fitter: …" holds "fitted", "owner" "owns": stem + -er/-or/-r). Off: not.


def _shortens(term: str, words: list[str]) -> bool:
    """True when `term` (2 to 5 letters, stemmed) is an initialism of consecutive `words` or a clip of one (SHORTENED)."""
    if not SHORTENED or not 2 <= len(term) <= 5 or not term.isalpha():
        return False
    if len(term) >= 3 and any(w.startswith(term) and len(w) >= len(term) + CLIP for w in words):
        return True
    initials = "".join(w[0] for w in words if w not in ("of", "and", "the", "for"))
    return len(term) >= 3 and term in initials and any(
        "".join(w[0] for w in words[i:i + len(term)]) == term for i in range(len(words)))


def missing(terms: tuple[str, ...], context: str) -> list[str]:
    """The stemmed `terms` that `context` does not hold (content words, crudely stemmed; a term also counts as held when
    it and a context word, both of at least five letters, start one another: "resident" / "residents'"; "mot" is not
    held by "motors"; a short form holds the word it stands for, SHORT_FORMS; an initialism or clipped word is held by
    the words it shortens, SHORTENED; a verb by its agent noun, AGENT; a term of 4+ letters by a compound it ends, COMPOUND:
    "dough" by "sourdough", "lock" by "padlock", not "ugh" by "dough")."""
    terms_here = content_terms(context)
    have = {stem(t) for t in terms_here} | {stem(SHORT_FORMS[t]) for t in terms_here if t in SHORT_FORMS}
    out = []
    for t in terms:
        if t in have or t in CLITICS or any(len(h) >= 5 and len(t) >= 5 and (h.startswith(t) or t.startswith(h)) or COMPOUND
                                             and len(t) >= 4 and len(h) > len(t) + 2 and h.endswith(t) for h in have):
            continue
        if _shortens(t, terms_here) or (AGENT and have & {t + "er", t + "or", t + "r"}):
            continue
        if not (t in SHORT_FORMS and stem(SHORT_FORMS[t]) in have):
            out.append(t)  # ("ref" asked, "reference" written: held)
    return out


# The coarse kind a quoted sentence must hold (search/asked.py `answer_type`; `fits_answer_type`: the extractive answer's
# filter, also read by ops/knowledge.py and the assistant).
_TIME_RE = re.compile(
    rf"\b(?:(?:19|20)\d\d|\d{{1,2}}[/.-]\d{{1,2}}(?:[/.-]\d{{2,4}})?|{_MONTHS}|(?:mon|tues|wednes|thurs|fri|"
    r"satur|sun)days?|today|yesterday|tomorrow|tonight|ago|last|next|week|weekend|month|"
    r"year|morning|evening|night|spring|summer|autumn|fall|winter|\d{1,2}(?::\d\d)?\s*(?:am|pm)|"
    rf"\d{{1,2}}:\d\d|{_DAY_OF_MONTH})\b", re.IGNORECASE)
_QUANTITY_RE = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                          r"dozen|hundred|thousand|million|half|once|twice|several|few|many)\b", re.IGNORECASE)

_FREQUENCY_RE = re.compile(
    r"\d|\b(?:every|each|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually|hourly|always|"
    r"usually|often|sometimes|occasionally|rarely|seldom|never|once|twice|times|per|(?:mon|tues|wednes|thurs|"
    r"fri|satur|sun)days|weekends|mornings|evenings|nights|autumn|spring|summer|winter|fall)\b", re.IGNORECASE)



def fits_answer_type(sentence: str, kind: str | None) -> bool:
    """True when `sentence` contains something of the kind `answer_type` asked for."""
    rxs = {"time": (_TIME_RE,), "quantity": (_QUANTITY_RE,), "frequency": (_FREQUENCY_RE, _QUANTITY_RE)}.get(kind, ())
    return not rxs or any(rx.search(sentence) for rx in rxs)


# A place is said by an address or a locative: a preposition of place before a noun ("at Beth's", "in the village hall";
# not a time: "on Thursday", "in the morning") or a place label ("Venue:"): the extractive answer to "where" prefers a
# sentence saying one (not required: "two doors down").
LOCATIVE = True
_NOT_PLACES = "|".join(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", *MONTH_NAMES]) \
    + "|morning|afternoon|evening|night|week|weekend|month|year|summer|autumn|winter|spring|" \
    "time|end|start|first|last|half|total|future|past|case|order|advance|full|person|writing|cash|" \
    "the|a|an|my|our|your|his|her|their|this|that|which|what"
_LOCATIVE = re.compile(rf"\b(?:at|in|on|near|outside|inside|behind|opposite|from)\s+(?:(?:the|a|an|my|our|your|his|her|"
                       rf"their)\s+)?(?!(?:{_NOT_PLACES})\b)[a-z][\w'’-]+|"
                       r"\b(?:where|venue|location|address|place|meeting point|room)\s*:", re.IGNORECASE)


def says_where(text: str) -> bool:
    """True when `text` holds an address or a locative (LOCATIVE)."""
    return bool(_LOCATIVE.search(text) or _ADDRESS.search(text))
