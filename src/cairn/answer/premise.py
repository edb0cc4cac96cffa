"""Premise check: a question naming something no chunk mentions ("What did Jon take a trip to Barcelona for?")
cannot be answered from the notes.

Only names count (search/names.py `all_names`). A name is known when it contains a name the caller gives (chat
participants) or one of its words is in some chunk (a word of `PREFIX_MIN` letters or more also by its first len - 3,
at least 5: "Tennesee"); not reported when joined by "or" to a known one ("Kyoto or Osaka?").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from cairn.search.names import HONORIFICS, JOINERS, all_names

_NOT_LOOKED_UP = JOINERS | HONORIFICS  # words of a name that say nothing about knowing it
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
