"""Premise check: a question naming something no chunk mentions ("What did Jon take a trip to Barcelona for?")
cannot be answered from the notes.

Only names count (`all_names`: capitalised runs not opening a sentence, no months, weekdays, stopwords, initials,
chat abbreviations). A name is known when it contains a name the caller gives (chat participants) or one of its
words is in some chunk (a word of `PREFIX_MIN` letters or more also by its first len - 3, at least 5: "Tennesee");
not reported when joined by "or" to a known one ("Kyoto or Osaka?").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from cairn.lexical import MONTH_NAMES, TITLES, WEEKDAY_NAMES
from cairn.store.fts import STOPWORDS

_MONTHS_DAYS = frozenset(MONTH_NAMES + WEEKDAY_NAMES)
# Titles: never evidence that a name is known; after one, a full stop ends no sentence.
_HONORIFICS = frozenset(t.lower() for t in TITLES) | {"sir", "madam", "dame", "saint"}
# Capitalised words that are not names: chat abbreviations and interjections.
_NOT_NAMES = frozenset("asap fyi btw ok okay pls plz imo imho tbh lol omg ps hey hi hello thanks yes no please dear".split())
# Lower-case words allowed inside a name ("Lord of the Rings", "Game of Thrones").
_JOINERS = frozenset("of the de da la le von van del du".split())
_NOT_LOOKED_UP = _JOINERS | _HONORIFICS  # words of a name that say nothing about knowing it
_SKIP = STOPWORDS | _NOT_NAMES  # capitalised words that are never (part of) a name
# A word starts with a letter and is not glued to a preceding digit or letter ("5K" is no name).
_WORD = re.compile(r"(?<![\w.])[^\W\d_][\w'’-]*", re.UNICODE)
PREFIX_MIN = 7


def question_names(question: str, exclude: Iterable[str] = ()) -> list[str]:
    """`all_names(question)` less those containing one of `exclude` (`_contains`)."""
    known = _word_lists(exclude)
    return [n for n in all_names(question) if not _contains(n, known)]


def _word_lists(names: Iterable[str]) -> list[tuple[str, ...]]:
    """Each of `names` as its lower-cased words (empty ones dropped)."""
    return [ws for ws in (tuple(w.lower() for w in re.findall(r"\w+", n)) for n in names) if ws]


def _contains(name: str, known: list[tuple[str, ...]]) -> bool:
    """True when the words of one of `known` occur in a row in `name` (case-insensitive)."""
    words = tuple(w.lower() for w in re.findall(r"\w+", name))
    return any(words[i:i + len(k)] == k for k in known for i in range(len(words) - len(k) + 1))


def all_names(question: str) -> list[str]:
    """The names in `question`, in order (module doc): maximal runs of capitalised words
    joined by `_JOINERS` ("Fifty Shades of Grey"); [] for a question mostly in capitals."""
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
        abbreviation = prev_word.lower() in _HONORIFICS or len(prev_word) == 1
        sentence_start = not re.search(r"\w", question[:m.start()]) or bool(re.search(r"[?!:]", gap)) or (
            "." in gap and not abbreviation)
        if gap.strip() and not (gap.strip() == "." and abbreviation):
            flush()  # punctuation between two words ends a name ("Rome, Paris")
        capital = word[:1].isupper() and len(word) > 1  # initials ("U.S.", "C. S.") and "I" are no names
        if capital and not sentence_start and word.lower() not in _MONTHS_DAYS and (
                word.lower() not in _SKIP or (run and word.lower() in _JOINERS)):
            run, pending = run + pending + [word], []
            if raw != word:
                flush()  # a possessive ends the name ("Gina's HR")
        elif run and word.lower() in _JOINERS:
            pending.append(word)
        else:
            flush()
        prev_end, prev_word = m.end(), word
    flush()
    return list(dict.fromkeys(names))


def unknown_names(question: str, doc_freq: Callable[[str, bool], int], exclude: Iterable[str] = ()) -> list[str]:
    """The names of `question` not known (module doc). doc_freq: `(word, prefix) -> chunks
    holding it` (prefix: a word starting with it); exclude: names known otherwise (speakers)."""
    given = _word_lists(exclude)
    names = all_names(question)
    known = {}
    for name in names:
        words = [w for w in re.findall(r"\w+", name) if w.lower() not in _NOT_LOOKED_UP]
        known[name] = not words or _contains(name, given) or any(doc_freq(w, False) > 0 or (  # or a long one's prefix
            len(w) >= PREFIX_MIN and doc_freq(w[:max(5, len(w) - 3)], True) > 0) for w in words)

    def either(a: str, b: str) -> bool:  # "a or (the) b"
        return bool(re.search(rf"{re.escape(a)}\W+or\W+(?:the\W+)?{re.escape(b)}", question, re.IGNORECASE))
    return [name for name in names if not known[name] and not any(
        known[other] and (either(other, name) or either(name, other)) for other in names if other != name)]
