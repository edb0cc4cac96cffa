"""A misspelt word of a question put right by the home's own words: "when does oona want the
reciepts" asks of the receipts a note holds. A word is read as misspelt when it is no word of
the embedder's vocabulary (cairn.ner_written.in_vocabulary), no word the caller knows (`known`:
the assistant passes its ordinary words, assistant/nlu/known.py), and no note chunk holds it (`df`, the keyword index's document
frequency); it is then the word one edit away (a letter dropped, added, changed, or two
neighbours swapped: Damerau's four edits) that is in the vocabulary and that the most chunks
hold. A word the notes hold ("padrons", "apiary"), a real word ("boiler"), or one with no such
neighbour ("veggie") stays as typed.

    corrected("when does oona want the reciepts", df)   # ("when does oona want the receipts", ["reciepts -> receipts"])

MIN_LEN: shorter words are left alone (one edit from a short word reaches too many words:
"tax" -> "tab", "fax", "taxi"). `df` errors are the caller's (the assistant passes the store's
`keywords.document_frequency`, which answers 0 when the index cannot). Pure otherwise.
"""

from __future__ import annotations

import re
from typing import Callable, Collection

MIN_LEN = 5
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_WORD = re.compile(r"(?<![\w'’-])[a-z]+(?![\w'’-])")  # a lower-case word of letters only (a name typed capitalised stays)


def edits(word: str) -> set[str]:
    """The words one Damerau edit from `word` (lower case letters a-z)."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return ({a + b[1:] for a, b in splits if b}
            | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
            | {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
            | {a + c + b for a, b in splits for c in _LETTERS}) - {word}


def _misspelt(word: str, df: Callable[[str], int], known: Collection[str]) -> bool:
    from cairn.ner_written import in_vocabulary
    return len(word) >= MIN_LEN and not in_vocabulary(word) and word not in known and df(word) == 0


def correction(word: str, df: Callable[[str], int], known: Collection[str] = frozenset()) -> str | None:
    """The word `word` was meant to be (module docstring), None when it reads as typed. known: words
    never read as misspelt (beside the vocabulary's)."""
    if not _misspelt(word, df, known):
        return None
    from cairn.ner_written import in_vocabulary
    held = [(n, w) for w in sorted(edits(word)) if in_vocabulary(w) for n in [df(w)] if n > 0]
    return max(held, key=lambda p: p[0])[1] if held else None


def corrected(text: str, df: Callable[[str], int], known: Collection[str] = frozenset()) -> tuple[str, list[str]]:
    """(`text` with its misspelt words put right, ["old -> new", ...]); known: as `correction`."""
    done: list[str] = []

    def fix(m: re.Match) -> str:
        new = correction(m.group(0), df, known)
        if new is None:
            return m.group(0)
        done.append(f"{m.group(0)} -> {new}")
        return new
    return _WORD.sub(fix, text), done
