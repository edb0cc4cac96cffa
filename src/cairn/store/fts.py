"""Text normalisation shared by the keyword index and keyword queries.

SQLite's unicode61 tokenizer treats a run of CJK characters as one token, so "告警" would
never match inside "内存告警已清零". We index CJK (Han, kana, Hangul) one character per
token by putting spaces around each such character, and turn a CJK query run into a phrase
of single characters — this finds words of any length, including 1–2 characters (case B10).

A query is parsed once by the search layer (search/query.py `parse_query`: words, column
filters, stopwords, pairs); `render` only turns the words it chose into a `Match` (an OR of
phrases), whose str() is the FTS5 MATCH expression: every term is quoted, so operators (AND,
OR, NOT, NEAR), punctuation, quotes and `-` never cause a syntax error (case B09), and words
joined by punctuation ("health.base", "k8s-prod", "08:00") are phrases. The PostgreSQL store
renders the same `Match` as a tsquery (store/postgres/keyword.py).

Both sides are folded first (`fold`, non-ASCII text only): Unicode compatibility forms become
their plain letters (NFKC: the ligature "ﬁ" that PDF text extraction yields is "fi", full-width
"Ｆ" is "F", "①" is "1") and invisible format characters inside words are dropped (soft hyphen,
zero-width space/joiners, word joiner, BOM), so "final office" finds "ﬁnal oﬃce" and
"heatpump" finds "heat\u00adpump". Accents are folded later by the tokenizer (unicode61
remove_diacritics). Notes indexed before folding keep their old keyword rows until
`cairn reindex`.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Protocol

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f\uf900-\ufaff"
# On ASCII text `[^\W_]+` matches exactly the runs of ASCII letters and digits and no CJK
# character can occur, so ASCII text (most queries) uses this pattern; the two CJK ones are
# compiled on first non-ASCII text (their large character classes take ~2-4 ms each to
# compile, which every cold search paid at import).
_ASCII_TERM_RE = re.compile(r"[A-Za-z0-9]+")


@functools.cache
def _cjk_re() -> re.Pattern[str]:
    return re.compile(f"([{_CJK}])")


@functools.cache
def _term_re() -> re.Pattern[str]:
    return re.compile(f"[{_CJK}]|[^\\W_]+")


# Format characters that sit inside words without separating them (U+00AD soft hyphen, U+180E,
# U+200B-U+200F zero-width space/joiners and direction marks, U+2060-U+2064, U+FEFF).
_INVISIBLE_RE = re.compile("[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]")


def fold(text: str) -> str:
    """`text` with compatibility forms as plain characters (NFKC: "ﬁ" -> "fi", "Ｆ" -> "F")
    and invisible format characters removed; ASCII text is returned as it is. Applied to
    what the keyword index stores (`index_text`) and to query terms (`terms`) alike."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", _INVISIBLE_RE.sub("", text))


def _terms(text: str) -> list[str]:
    """The word and CJK-character terms of `text` (folded: `fold`), in order."""
    if text.isascii():
        return _ASCII_TERM_RE.findall(text)
    text = fold(text)
    return (_ASCII_TERM_RE if text.isascii() else _term_re()).findall(text)


STOPWORDS = frozenset(
    """a an and are as at be but by did do does for from had has have how i in is it its
    me my of on or so than that the their them then there these they this to was we were
    what when where which who whom why will with would you your""".split()
)


def index_text(text: str) -> str:
    """Text as stored in the FTS table: folded (`fold`), CJK characters separated by spaces."""
    if text.isascii():
        return text
    text = fold(text)
    cjk = _cjk_re()
    return cjk.sub(r" \1 ", text) if cjk.search(text) else text


def query_terms(query: str) -> list[str]:
    """Lower-cased search terms of a query (CJK one character per term)."""
    return [t.lower() for t in _terms(query)]


def terms(text: str) -> list[str]:
    """The index terms of `text` (case kept, folded: `fold`), in order: runs of letters and
    digits, each CJK character alone; what the keyword index holds for the text (index_text)."""
    return _terms(text)


class KeywordWord(Protocol):
    """What `render` reads of a word of a parsed query (search/query.py `Word`)."""

    @property
    def tokens(self) -> tuple[str, ...]: ...
    @property
    def column(self) -> str | None: ...


@dataclass(frozen=True)
class Phrase:
    """One part of a keyword query: `tokens` in a row (one token: a word), in `column`
    ("title", "tags" or None: any column); prefix: the last token is a prefix."""

    tokens: tuple[str, ...]
    column: str | None = None
    prefix: bool = False

    def fts5(self) -> str:
        """The FTS5 syntax of the phrase: '"a b"', 'title : "a"', '"a"*'."""
        quoted = '"' + " ".join(t.replace('"', '""') for t in self.tokens) + '"' + ("*" if self.prefix else "")
        return f"{self.column} : {quoted}" if self.column else quoted


@dataclass(frozen=True)
class Match:
    """A keyword query: the OR of its phrases (BM25 ranks rows matching more of them higher).
    str() is its FTS5 MATCH expression; the PostgreSQL store renders the phrases as a tsquery
    (store/postgres/keyword.py `render`)."""

    phrases: tuple[Phrase, ...]

    def __str__(self) -> str:
        return " OR ".join(p.fts5() for p in self.phrases)


def render(words: Iterable[KeywordWord]) -> Match | None:
    """The keyword query OR-ing `words` (chosen from a parsed query by the search layer:
    search/query.py `ParsedQuery.or_words` / `pair_words`), one phrase per word with its
    tokens and column as they are (nothing is tokenised, dropped or de-duplicated here); None
    when there is no word. A token is always quoted, so no text can make FTS5 syntax (B09)."""
    phrases = tuple(Phrase(tuple(w.tokens), w.column) for w in words if w.tokens)
    return Match(phrases) if phrases else None
