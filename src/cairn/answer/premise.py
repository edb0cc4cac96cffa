"""Premise check: a question that names something the notes never mention cannot be
answered from them.

"What did Jon take a trip to Barcelona for?" presupposes a trip to Barcelona; when no
chunk of the index contains "Barcelona", any answer would be about some other trip. The
check is deliberately narrow, so that a paraphrase never trips it: only **names** count —
runs of capitalised words that do not open the question or a sentence of it ("Barcelona",
"Fifty Shades of Grey", "HR") — never ordinary words, whose synonyms the notes may use.
Month and weekday names are left out (a date in a question dates the event; chat messages
carry their time as metadata, not in their text), and so are the names of chat
participants and any words the caller says are known.

A name is *unknown* when none of its words (other than short function words like "of")
occurs in any chunk of the index (`search.hybrid.document_frequency`, under the index's
Porter stem): "LeBron James" is known when "LeBron" occurs. A word of 8 or more letters
also counts as occurring when some indexed word shares its first `len - 3` letters, so a
derived or misspelt form is not taken for a new name ("European" for "Europe",
"Tennesee" for "Tennessee"). The answerer abstains with the
reason "the notes never mention 'Barcelona'".

Measured on LoCoMo dev (bench/locomo_ask.py; see bench/README.md for the figures).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from cairn.search.text import STOPWORDS

_MONTHS_DAYS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday "
    "saturday sunday".split())
# Titles before a name: never evidence that the name is known ("Dr. Smith" is not known
# because some note says "Dr.").
_HONORIFICS = frozenset("dr mr mrs ms mx prof sir madam dame st saint".split())
# Capitalised words that are not names: chat abbreviations and interjections.
_NOT_NAMES = frozenset("asap fyi btw ok okay pls plz imo imho tbh lol omg ps hey hi hello thanks yes no "
                       "please dear".split())
# Lower-case words allowed inside a name ("Lord of the Rings", "Game of Thrones").
_JOINERS = frozenset("of the de da la le von van del du".split())
# A word starts with a letter and is not glued to a preceding digit or letter ("5K" is no name).
_WORD = re.compile(r"(?<![\w.])[^\W\d_][\w'’-]*", re.UNICODE)
# A full stop after these (or after an initial: "C. S. Lewis") does not end a sentence.
_ABBREVIATIONS = frozenset("dr mr mrs ms st jr sr prof mt".split())


def question_names(question: str, exclude: Iterable[str] = ()) -> list[str]:
    """`all_names(question)` less those with a word of `exclude` (case-insensitive)."""
    known = {w.lower() for x in exclude for w in re.findall(r"\w+", x)}
    return [n for n in all_names(question) if not _has_word(n, known)]


def _has_word(name: str, words: set[str]) -> bool:
    return any(w.lower() in words for w in re.findall(r"\w+", name))


def all_names(question: str) -> list[str]:
    """The names in `question`, in order: maximal runs of capitalised words (or all-caps
    words of 2+ letters), joined by `_JOINERS`, that are not the first word of a sentence of
    the question, not "I", not a stopword, a month or weekday. Quoted titles count
    ("Fifty Shades of Grey"). Returns [] for a question with no such name, or one written
    mostly in capitals. (`question_names` leaves out whole any name with a known word:
    "LeBron James" when "LeBron" is known.)"""
    letters = [c for c in question if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) > 0.6 * len(letters):
        return []  # a question in capitals: capitals mark nothing
    skip = STOPWORDS | _NOT_NAMES
    names: list[str] = []
    run: list[str] = []
    pending: list[str] = []  # joiners waiting for a capitalised word after them

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
        abbreviation = prev_word.lower() in _ABBREVIATIONS or len(prev_word) == 1
        sentence_start = not re.search(r"\w", question[:m.start()]) or bool(re.search(r"[?!:]", gap)) or (
            "." in gap and not abbreviation)
        if gap.strip() and not (gap.strip() == "." and abbreviation):
            flush()  # punctuation between two words ends a name ("Rome, Paris")
        capital = word[:1].isupper() and len(word) > 1  # initials ("U.S.", "C. S.") and "I" are no names
        if capital and not sentence_start and word.lower() not in _MONTHS_DAYS and (
                word.lower() not in skip or (run and word.lower() in _JOINERS)):
            run.extend(pending)
            pending = []
            run.append(word)
            if raw != word:
                flush()  # a possessive ends the name ("Gina's HR")
        elif run and word.lower() in _JOINERS:
            pending.append(word)
        else:
            flush()
        prev_end, prev_word = m.end(), word
    flush()
    return list(dict.fromkeys(names))


PREFIX_MIN = 6


def _occurs(word: str, doc_freq: Callable[[str, bool], int]) -> bool:
    if doc_freq(word, False) > 0:
        return True
    return len(word) >= PREFIX_MIN and doc_freq(word[:max(4, len(word) - 3)], True) > 0


def unknown_names(question: str, doc_freq: Callable[[str, bool], int], exclude: Iterable[str] = ()) -> list[str]:
    """The names of `question` (`all_names`) none of whose words occurs in the index or in
    `exclude` (names known otherwise: the chat's speakers, aliases). doc_freq: `(word,
    prefix) -> number of chunks holding it` (prefix=True: any word starting with it), e.g. a
    closure over `search.hybrid.document_frequency`. Joiner words and titles are not looked
    up. When the question offers alternatives ("Kyoto or Osaka?") and one is known, none is
    reported."""
    given = {w.lower() for x in exclude for w in re.findall(r"\w+", x)}
    out, known = [], False
    for name in all_names(question):
        words = [w for w in re.findall(r"\w+", name) if w.lower() not in _JOINERS | _HONORIFICS]
        if words and not _has_word(name, given) and not any(_occurs(w, doc_freq) for w in words):
            out.append(name)
        else:
            known = True
    if known and re.search(r"\bor\b", question, re.IGNORECASE):
        return []  # "Kyoto or Osaka?": one known alternative is enough to answer
    return out
