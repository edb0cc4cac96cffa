"""The names a question writes (`all_names`): capitalised runs not opening a sentence, no months, weekdays, stopwords,
initials or chat abbreviations. Read by the premise check (answer/premise.py) and the answerer's subject checks; and
the chat participants it names (`named_people`, `strip_people`; the person check, answer/answerability.py).
"""

from __future__ import annotations

import re
from functools import lru_cache

from cairn.lexical import MONTH_NAMES, TITLES, WEEKDAY_NAMES
from cairn.model import Hit
from cairn.store.fts import STOPWORDS

_MONTHS_DAYS = frozenset(MONTH_NAMES + WEEKDAY_NAMES)
# Titles: never evidence that a name is known; after one, a full stop ends no sentence.
HONORIFICS = frozenset(t.lower() for t in TITLES) | {"sir", "madam", "dame", "saint"}
# Capitalised words that are not names: chat abbreviations and interjections.
_NOT_NAMES = frozenset("asap fyi btw ok okay pls plz imo imho tbh lol omg ps hey hi hello thanks yes no please dear".split())
# Lower-case words allowed inside a name ("Lord of the Rings", "Game of Thrones").
JOINERS = frozenset("of the de da la le von van del du".split())
_SKIP = STOPWORDS | _NOT_NAMES  # capitalised words that are never (part of) a name
# A word starts with a letter and is not glued to a preceding digit or letter ("5K" is no name).
_WORD = re.compile(r"(?<![\w.])[^\W\d_][\w'’-]*", re.UNICODE)


def all_names(question: str) -> list[str]:
    """The names in `question`, in order (module doc): maximal runs of capitalised words
    joined by `JOINERS` ("Fifty Shades of Grey"); [] for a question mostly in capitals."""
    letters = [c for c in question if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) > 0.6 * len(letters):
        return []  # a question in capitals: capitals mark nothing
    names, run, pending = [], [], []  # pending: joiners waiting for a capitalised word after them

    def flush() -> None:
        nonlocal run, pending
        if run:
            names.append(" ".join(run))
        run, pending = [], []

    prev_end, prev_word = 0, ""
    for m in _WORD.finditer(question):
        raw = m.group()
        word = re.sub(r"['’]s?$", "", raw)
        gap = question[prev_end:m.start()]
        abbreviation = prev_word.lower() in HONORIFICS or len(prev_word) == 1
        sentence_start = not re.search(r"\w", question[:m.start()]) or bool(re.search(r"[?!:]", gap)) or (
            "." in gap and not abbreviation)
        if gap.strip() and not (gap.strip() == "." and abbreviation):
            flush()  # punctuation between two words ends a name ("Rome, Paris")
        capital = word[:1].isupper() and len(word) > 1  # initials ("U.S.", "C. S.") and "I" are no names
        if capital and not sentence_start and word.lower() not in _MONTHS_DAYS and (
                word.lower() not in _SKIP or (run and word.lower() in JOINERS)):
            run, pending = run + pending + [word], []
            if raw != word:
                flush()  # a possessive ends the name ("Gina's HR")
        elif run and word.lower() in JOINERS:
            pending.append(word)
        else:
            flush()
        prev_end, prev_word = m.end(), word
    flush()
    return list(dict.fromkeys(names))


@lru_cache(maxsize=1024)
def name_pattern(name: str) -> re.Pattern[str]:
    """`name` as a whole word with an optional possessive 's, case-insensitive (cached)."""
    return re.compile(r"(?<!\w)" + re.escape(name) + r"(?:'s|’s)?(?!\w)", re.IGNORECASE)


def named_people(question: str, hits: list[Hit]) -> list[str]:
    """The chat speakers of `hits` whose full or first name occurs in `question`, in order of
    mention; never a speaker label that is a function word ("Me", "You")."""
    found: dict[str, int] = {}
    for speaker in {h.speaker for h in hits if h.speaker}:
        for form in dict.fromkeys([speaker, speaker.split()[0]]):
            if len(form) >= 2 and form.casefold() not in STOPWORDS and (m := name_pattern(form).search(question)):
                found[speaker] = min(found.get(speaker, m.start()), m.start())
    return sorted(found, key=found.get)


def strip_people(question: str, people: list[str]) -> str:
    """`question` without the people's names (full and first, possessive included)."""
    for p in people:
        for form in dict.fromkeys([p, p.split()[0]]):
            question = name_pattern(form).sub(" ", question)
    return re.sub(r"\s+", " ", question).strip()
