"""The names a question writes (`all_names`): capitalised runs not opening a sentence, no months, weekdays, stopwords,
initials or chat abbreviations. Read by the premise check (answer/premise.py) and the answerer's subject checks.
"""

from __future__ import annotations

import re

from cairn.lexical import MONTH_NAMES, TITLES, WEEKDAY_NAMES
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
