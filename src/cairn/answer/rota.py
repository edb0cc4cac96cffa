"""Who has a day, who holds a role (issue 33, the person type): a line keyed by what was asked names the person.

A who-question naming a weekday ("who's got the kids on thursdays?") is answered by a note line keyed by days only,
that day among them ("Tuesday and Thursday: Oksana (Lev's mum)", "Mon-Wed: Granny Pel"): a rota line, whose form says
who has that day. A who-question naming a role ("who's the gas engineer?", "who is our vet") is answered by a line keyed
by that role ("Gas engineer: Tomas Rudd, 07700 900 118"), or by a role whose work the question names ("who's drawing up
the plans?": "Architect: Wilhelmina Strand"; "who's doing my tax return?": "Accountant: …"). The sentence embedder scores
a role word low against such work ("drawing" / "architect" 0.45, below the 0.55 a word synonym needs), so the common
household roles carry a short gloss of the work they do, written for Cairn (GLOSS; the assistant reads it too,
assistant/nlu/replies.py). The value must start with a person: a capitalised word that is no closed-class word ("The",
"Every"), month or weekday, nor an activity ("Swimming"), or the writer ("me", "us", "I"); a value saying nobody has it
("nobody", "free", "off", "closed", "tbc") names no one. No such line: None, and the question takes the typed path
(answer/typed.py), which declines a day or role no line states.

    keyed_person("who's got the kids on thursdays?", (), evidence)  # -> (n, "Tuesday and Thursday: Oksana …")

Switch off: KEYED; the role's work only: BY_WORK.
"""

from __future__ import annotations

import functools
import re

from cairn.answer.types import missing
from cairn.lexical import content_terms, stem

KEYED = True
BY_WORK = True

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_CONNECTORS = frozenset({"and", "or", "every", "on", "&", "also"})
_SPANS = {"weekend": {5, 6}, "weekday": {0, 1, 2, 3, 4}, "midweek": {1, 2, 3}}  # days a word names together
_KEYED_LINE = re.compile(r"^[ \t]*(?:[-*+•][ \t]+)?(?P<key>[^\W\d_][\w ,&/'’–-]{1,60}?)[ \t]*:[ \t]*(?P<value>\S.*)$")
_NOBODY = re.compile(r"(?:nobody|no one|no-one|none|free|off|closed|tbc|tbd|n/a)\b", re.IGNORECASE)
# a question about a past act ("who serviced the boiler?", "who did the wiring?"): a role line says who holds the role,
# not who did that
_PAST = re.compile(r"\W*who\s+(?:[a-z]+ed|did|was|were|had|made|took|gave|sent|built|drew|wrote|put|got|came|left)\b",
                   re.IGNORECASE)
# a subordinate clause states when or why, not the work asked ("who's having the cat while we move": no removals firm)
_CLAUSE = re.compile(r"\b(?:while|whilst|when|because|since|after|before|until|till|if|once|as soon as)\b", re.IGNORECASE)
_PERSON_START = re.compile(r"(?:me|us|I)\b|(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s|[A-Z][a-z'’-]+")


# role word(s) -> what the role does (plain words; stemmed when read)
GLOSS: dict[str, str] = {
    "architect": "plans drawings design designs drawing planning extension conversion",
    "builder|builders": "build building works extension brickwork construction",
    "plumber": "pipes pipe leak leaks tap taps toilet radiator radiators water bathroom",
    "electrician|sparky": "wiring rewire sockets socket lights lighting fuse fuseboard electrics",
    "gas engineer|heating engineer": "boiler gas heating service", "roofer": "roof roofing tiles gutters gutter",
    "decorator|painter": "painting paint wallpaper decorating",
    "carpenter|joiner|joinery": "wood woodwork doors shelves kitchen fitting fitted",
    "fitter|fitters": "fitting fit fitted install installing kitchen bathroom",
    "plasterer": "plaster plastering walls ceiling skim",
    "gardener|landscaper": "garden lawn hedge hedges mowing weeding patio",
    "cleaner": "cleaning clean hoovering ironing",
    "childminder|nanny|babysitter|au pair": "kids children childcare minding babysitting",
    "dog walker": "dog walks walking", "vet": "pet animal jabs vaccinations",
    "gp|doctor": "illness prescription health appointment", "dentist": "teeth tooth filling checkup",
    "optician": "eyes glasses eye test lenses", "accountant|bookkeeper": "tax accounts return books",
    "solicitor|lawyer|conveyancer": "will conveyancing contract legal purchase",
    "mechanic|garage": "car mot service repairs tyres", "surveyor": "survey valuation",
    "estate agent|letting agent": "sale selling viewing viewings letting",
    "landlord|landlady": "rent lease flat tenancy",
    "tutor|teacher|instructor|coach": "lessons teaching homework training",
    "mortgage broker|financial adviser": "mortgage pension savings", "hairdresser|barber": "hair haircut",
    "physio|physiotherapist": "injury exercises rehab", "chimney sweep": "chimney", "window cleaner": "windows",
    "locksmith": "locks lock keys", "removals|removal firm|removal company": "move moving removal",
    "caterer|caterers": "food catering buffet", "photographer": "photos pictures photographs",
    "florist": "flowers bouquet",
}


@functools.lru_cache(maxsize=1)
def _table() -> list[tuple[re.Pattern, frozenset[str]]]:
    return [(re.compile(r"\b(?:" + role + r")\b", re.I), frozenset(gloss.lower().split())) for role, gloss in GLOSS.items()]


def role_words(sentence: str) -> set[str]:
    """The words of the glosses (GLOSS) of the roles `sentence` names, lower-cased as written
    ("Architect: …" -> {"plan", "drawing", "design", …}); set() when it names none."""
    return {w for rx, words in _table() if rx.search(sentence or "") for w in words}


def role_terms(sentence: str) -> set[str]:
    """`role_words` stemmed (cairn.lexical.stem: "drawing" -> "draw")."""
    return {stem(w) for w in role_words(sentence)}


def _day(word: str) -> int | None:
    """The index (0 = Monday) of the weekday `word` names, full or short, singular or plural ("Thurs", "weds",
    "Fridays"); None for any other word."""
    w = word.lower().rstrip(".")
    forms = (w, w[:-1]) if w.endswith("s") else (w,)
    return next((i for f in forms for i, d in enumerate(_DAYS) if f == d or (3 <= len(f) <= 5 and d.startswith(f))), None)


def days_asked(question: str) -> set[int]:
    """The weekdays `question` names by their full name, singular or plural ("on thursdays" -> {3}), or together
    ("at weekends" -> {5, 6}, "midweek" -> {1, 2, 3}; _SPANS)."""
    return {i for i, d in enumerate(_DAYS) if re.search(rf"\b{d}s?\b", question, re.IGNORECASE)} | {
        i for w, days in _SPANS.items() if re.search(rf"\b{w}s?\b", question, re.IGNORECASE) for i in days}


def key_days(key: str) -> set[int] | None:
    """The weekdays a line's key names when it names days only ("Tuesday and Thursday" -> {1, 3}; "Mon-Wed" -> {0, 1,
    2}); None when it names anything else ("Squad training Wednesdays", "Thursdays at 8pm")."""
    out: set[int] = set()
    for part in re.split(r"\s*(?:,|/|\band\b|\bor\b|&)\s*", key.strip()):
        span = [p for p in re.split(r"\s*[-–]\s*|\s+to\s+", part.strip()) if p]
        if len(span) == 2 and all(_day(p) is not None for p in span):
            a, b = _day(span[0]), _day(span[1])
            out |= set(range(a, b + 1)) if a <= b else set(range(a, 7)) | set(range(0, b + 1))
            continue
        for w in part.split():
            if _day(w) is not None:
                out.add(_day(w))
            elif w.lower().rstrip("s") in _SPANS:
                out |= _SPANS[w.lower().rstrip("s")]
            elif w.lower() not in _CONNECTORS:
                return None
    return out or None


def names_person(value: str) -> bool:
    """True when a keyed line's value starts with a person (module doc): "Oksana (Lev's mum)", "Gus walks them both",
    "me"; not "Closed", "Swimming at 6", "The Grange", "nobody"."""
    from cairn.ner_written import CALENDAR, closed_class
    value = value.strip()
    if _NOBODY.match(value) or not _PERSON_START.match(value):
        return False
    first = re.match(r"[\w'’-]+", value).group(0)
    return first in ("me", "us", "I") or not (closed_class(first) or first.lower().endswith("ing")
                                              or first.lower() in CALENDAR)


def role_key(key: str, question: str) -> bool:
    """True when every content word of a line's key is in `question`: the key names the role asked ("Gas engineer"
    for "who's our gas engineer"), not another field holding its word ("Next service due" for "who serviced it")."""
    terms = tuple(stem(w) for w in content_terms(key))
    return bool(terms) and not missing(terms, question)


def keyed_person(question: str, head: tuple[str, ...], evidence: list) -> tuple[int, str] | None:
    """(evidence n, line) of the first note line among `evidence` (best first; chat messages skipped) keyed by a day
    `question` names or by the role `head` (its stems, search.asked.Asked.head: every one held by the key, every word of the
    key in the question: role_key), and whose value names a person (module doc); else the line keyed by a role whose
    work (GLOSS) shares most stemmed words with the question's main clause (BY_WORK; ties to the first; not for a past
    act: "who serviced the boiler?" is not said by "Gas engineer: …"); None when there is none."""
    if not KEYED:
        return None
    days = days_asked(question)
    want = {stem(w) for w in content_terms(_CLAUSE.split(question)[0])}  # the work asked, not its circumstance
    by_work: tuple[int, int, str] | None = None
    for ev in evidence:
        if ev.hit.speaker is not None:
            continue
        for line in ev.text.split("\n"):
            m = _KEYED_LINE.match(line)
            if not m or not names_person(m.group("value")):
                continue
            key, line = m.group("key"), line.strip().lstrip("-*+• ").strip()
            by_day = key_days(key)
            if (by_day and days & by_day) or (not by_day and head and not missing(head, key) and role_key(key, question)):
                return ev.n, line
            work = len(want & role_terms(key)) if BY_WORK and not days and not _PAST.match(question) else 0
            if work and (by_work is None or work > by_work[0]):
                by_work = (work, ev.n, line)
    return by_work[1:] if by_work else None
