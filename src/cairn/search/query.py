"""One parsed query (issue 33): a search query or a question is parsed once, here, into an
immutable `ParsedQuery`; every later stage reads that object, and the store only renders the
words chosen from it into its own query language (store/fts.py `render`: an FTS5 MATCH
expression on SQLite, a tsquery on PostgreSQL), never the text again.

    q = parse_query('title:boiler "annual service" k8s-prod in July 2023', since="2023-01-01")
    q.words      # (Word(("boiler",), "title"), Word(("annual",)), Word(("service",)),
                 #  Word(("k8s", "prod")), Word(("in",)), Word(("July",)), Word(("2023",)))
    q.phrases    # (("annual", "service"),)   the quoted phrases, as the person wrote them
    q.dates      # (DateWindow(2023-07-01, 2023-07-31),)   search/dates.py
    q.filters    # Filters(since="2023-01-01")   the search options (CLI, REST, MCP, tools)

The syntax is docs/concepts.md "Query syntax"; any text parses (punctuation, operators,
quotes, emoji never fail: case B09):

- a **word** is a whitespace-separated piece of the text; its index terms are the store's
  tokens of it (store.fts.terms: runs of letters and digits, each CJK character alone, case
  B10); a word of two or more terms ("k8s-prod", "08:00", "告警") is searched as a phrase, a
  word with none ("-", "🙂") is not searched;
- `title:WORD` / `tags:WORD` is a **column filter** (`Word.column`): one more OR-ed term,
  matching WORD in that column only;
- the keyword query ORs the words (`ParsedQuery.or_words`): English stopwords
  (store.fts.STOPWORDS) and the words the caller drops as too common are left out unless
  nothing else would remain; each word once (case-insensitive);
- adjacent words form **pairs** (`pairs`) for the phrase boost of search/hybrid.py
  (`with_phrases`): the last term of one word with the first of the next, unless either is
  a stopword or a column filter, or the first word ends a clause (. , ; : ! ?);
- a **quoted phrase** ("annual service") is recorded in `phrases`; it is searched as its
  words and their pairs like any other words (quotes never change the keyword query);
- **dates** are the absolute dates the text names (search/dates.py `query_dates`), used by
  the time signal of hybrid search (graph/signal.py);
- **filters** are the search options, which are not written in the text (`Filters`);
- the **answer type** of a question (search/asked.py `Asked`: the kind of value asked, its
  head and subject) is read by `parse_question`, once, for a question to be answered
  (ops/search.py `ask`), and used by the answer layer (answer_question's `parsed`); a plain
  search has none (`parse_query`) and never reads it.

`parse_query` raises InvalidInput only for a query that is not text. An empty query, one of
only stopwords or only punctuation parses: `empty` / `searchable` tell the caller, which
says so in a warning (search/hybrid.py), as before.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cairn.errors import InvalidInput
from cairn.search.dates import DateWindow, query_dates
from cairn.store import fts
from cairn.store.fts import STOPWORDS

if TYPE_CHECKING:  # read only by parse_question (its lexicon and tagger are not loaded for a plain search)
    from cairn.search.asked import Asked

COLUMNS = ("title", "tags")
_FIELD_RE = re.compile(r"^(title|tags):(.+)$", re.IGNORECASE)
_QUOTED = re.compile(r'"([^"]*)"')
# An English clitic after an apostrophe ("sister's", "don't", "I'd", "we'll"): the index splits it
# off as a term of its own ("s", "t"), which is no word the person typed; left out of `terms`
# (snippets, words found nowhere: "no note contains 's'"), kept in the word's phrase tokens.
_CLITIC = re.compile(r"(?<=[^\W\d_])['\u2019](?:s|t|d|m|ll|re|ve)\b", re.IGNORECASE)
_CLAUSE_END = ".,;:!?"


@dataclass(frozen=True)
class Word:
    """One word of a query as the keyword index searches it. tokens: its index terms as
    written (case kept; two or more are searched as a phrase). column: "title" or "tags"
    for a column filter, else None."""

    tokens: tuple[str, ...]
    column: str | None = None

    @property
    def key(self) -> str:
        """The lower-cased, space-joined terms ("t cell" for "T-cell"): how a word is named in
        a `drop` set and looked up in the index's document frequencies."""
        return " ".join(self.tokens).lower()


@dataclass(frozen=True)
class Filters:
    """The search options (not written in the query text). types: note types; since / until:
    ISO dates or times bounding the unit's time (until: that whole day for a bare date); tag:
    a tag the note carries; status: the note's content status; entity: an entity the unit
    mentions; person: whose notes (cairn.people; None: every note); input_source: how the
    note came in (cairn.model.INPUT_SOURCES)."""

    types: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None
    tag: str | None = None
    status: str | None = None
    entity: str | None = None
    person: str | None = None
    input_source: str | None = None


@dataclass(frozen=True)
class ParsedQuery:
    """A query parsed once (module doc). text: as given. words: the words with at least one
    index term, and the column filters (a filter of no term too: "title:!!"), in order.
    terms: every lower-cased index term of the text, in order, a clitic ("'s", "n't") left out (snippets, words found nowhere). pairs: the adjacent-word pairs for
    the phrase boost, lower-cased, each once. phrases: the quoted phrases' lower-cased terms.
    `dates`: the dates the text names. filters: the search options. answer_type: what
    the question asks for (search/asked.py; None for a plain search: `parse_question` sets it)."""

    text: str
    words: tuple[Word, ...] = ()
    terms: tuple[str, ...] = ()
    pairs: tuple[tuple[str, str], ...] = ()
    phrases: tuple[tuple[str, ...], ...] = ()
    filters: Filters = Filters()
    answer_type: Asked | None = None

    @functools.cached_property
    def dates(self) -> tuple[DateWindow, ...]:
        """The dates the text names (search/dates.py `query_dates`), read on first use and
        kept (only hybrid search's time signal needs them)."""
        return tuple(query_dates(self.text))

    @property
    def empty(self) -> bool:
        """True when the text is empty or only whitespace."""
        return not self.text.strip()

    @property
    def searchable(self) -> bool:
        """True when the keyword index can search something (a word with an index term)."""
        return any(w.tokens for w in self.words)

    @property
    def has_field_filter(self) -> bool:
        """True when a `title:` or `tags:` column filter is among the words."""
        return any(w.column for w in self.words)

    def or_words(self, *, fields: bool = True, drop: frozenset[str] = frozenset(),
                 drop_stopwords: bool = True) -> tuple[Word, ...]:
        """The words the keyword query ORs, in order, each once (same column and key): the
        words less stopwords and those whose key is in `drop`, unless that leaves none (then
        all of them). A column filter is never left out; with fields=False it is searched as
        a plain word, anywhere. drop_stopwords=False keeps every word (stopwords and `drop`)."""
        parts: list[tuple[Word, bool]] = []
        for w in self.words:
            if not w.tokens:
                continue
            if w.column and fields:
                parts.append((w, False))
                continue
            plain = Word(w.tokens) if w.column else w
            parts.append((plain, drop_stopwords and (plain.key in STOPWORDS or plain.key in drop)))
        kept = [w for w, out in parts if not out] or [w for w, _ in parts]
        seen: set[tuple[str | None, str]] = set()
        unique = []
        for w in kept:
            if (w.column, w.key) not in seen:
                seen.add((w.column, w.key))
                unique.append(w)
        return tuple(unique)

    def pair_words(self, drop: frozenset[str] = frozenset()) -> tuple[Word, ...]:
        """The adjacent-word pairs as two-term words, those with a side in `drop` left out."""
        return tuple(Word((x, y)) for x, y in self.pairs if x not in drop and y not in drop)

    def match_words(self) -> list[str]:
        """The keys of the words, column filters left out, each once, in order: the words an
        OR query may hold, as `drop` names them (stopwords included)."""
        return list(dict.fromkeys(w.key for w in self.words if not w.column))

    def with_filters(self, filters: Filters) -> "ParsedQuery":
        """This query with other search options (the text is not parsed again)."""
        return self._replace(filters=filters)

    def with_answer_type(self, asked: Asked | None) -> "ParsedQuery":
        """This query with the answer type `asked` (search/asked.py; None: none)."""
        return self._replace(answer_type=asked)

    def _replace(self, **changes) -> "ParsedQuery":
        """A copy with `changes`, keeping the dates if already read (same text)."""
        out = dataclasses.replace(self, **changes)
        if "dates" in self.__dict__:
            out.__dict__["dates"] = self.__dict__["dates"]
        return out

    def to_json(self) -> dict:
        """{"text", "words": [{"terms", "column"}], "phrases", "dates": [{"first", "last",
        "year_free"}], "filters": {...}, "answer_type": kind or None} (traces)."""
        kind = getattr(self.answer_type, "kind", None)
        return {"text": self.text,
                "words": [{"terms": list(w.tokens), "column": w.column} for w in self.words],
                "phrases": [" ".join(p) for p in self.phrases],
                "dates": [{"first": d.first.isoformat(), "last": d.last.isoformat(), "year_free": d.year_free}
                          for d in self.dates],
                "filters": {k: (list(v) if isinstance(v, tuple) else v)
                            for k, v in dataclasses.asdict(self.filters).items() if v not in (None, ())},
                "answer_type": kind}


def _pairs(pieces: list[tuple[str, bool, list[str]]]) -> tuple[tuple[str, str], ...]:
    """Adjacent-word pairs (module doc) of the whitespace-separated words, each given as (the
    word, is a column filter, its terms)."""
    out: list[tuple[str, str]] = []
    for (a, fa, ta), (_, fb, tb) in zip(pieces, pieces[1:]):
        if a[-1:] in _CLAUSE_END or fa or fb or not ta or not tb:
            continue
        x, y = ta[-1].lower(), tb[0].lower()
        if x in STOPWORDS or y in STOPWORDS or (x, y) in out:
            continue
        out.append((x, y))
    return tuple(out)


def parse_query(query: "str | ParsedQuery", filters: Filters | None = None) -> ParsedQuery:
    """Parse `query` (any text) into a ParsedQuery with `filters` (default: none). An
    already parsed query is returned as it is, with `filters` when given (its text is not
    parsed again). Raises InvalidInput when `query` is neither text nor a ParsedQuery."""
    if isinstance(query, ParsedQuery):
        return query if filters is None else query.with_filters(filters)
    if not isinstance(query, str):
        raise InvalidInput(f"a search query must be text, got {type(query).__name__}")
    pieces: list[tuple[str, bool, list[str]]] = []  # (word, is a column filter, its terms)
    words, terms = [], []
    for piece in query.split():  # each word tokenised once
        field = _FIELD_RE.match(piece)
        tokens = fts.terms(field.group(2) if field else piece)
        pieces.append((piece, field is not None, fts.terms(piece) if field else tokens))
        terms += (fts.terms(_CLITIC.sub("", piece)) if not field and ("'" in piece or "\u2019" in piece)
                  else pieces[-1][2])  # the terms of the whole text are those of its words, in order
        if tokens or field:  # a column filter of no term ("title:!!") still counts as one
            words.append(Word(tuple(tokens), field.group(1).lower() if field else None))
    phrases = tuple(dict.fromkeys(t for t in (tuple(x.lower() for x in fts.terms(m.group(1)))
                                              for m in _QUOTED.finditer(query)) if t))
    return ParsedQuery(text=query, words=tuple(words), terms=tuple(t.lower() for t in terms),
                       pairs=_pairs(pieces), phrases=phrases, filters=filters or Filters())


def parse_question(question: str, filters: Filters | None = None) -> ParsedQuery:
    """`parse_query` of a question to be answered, with its answer type read (search/asked.py
    `asked`: `ParsedQuery.answer_type`). Raises InvalidInput when `question` is not text."""
    from cairn.search.asked import asked
    parsed = parse_query(question, filters)
    return parsed.with_answer_type(asked(question))


# The keyword text rules as functions of a query text (parse, then render): for callers that
# hold text, not a ParsedQuery (memory recall, tests, benches). Each parses its text once.

def build_match_query(query: str, *, drop_stopwords: bool = True, fields: bool = True,
                      drop: frozenset[str] = frozenset()) -> str | None:
    """The FTS5 MATCH expression of `query` (store.fts.render of `or_words`), or None when it
    has no searchable term. Never raises for any text."""
    match = fts.render(parse_query(query).or_words(fields=fields, drop=drop, drop_stopwords=drop_stopwords))
    return None if match is None else str(match)


def adjacent_phrases(query: str, drop: frozenset[str] = frozenset()) -> str | None:
    """The FTS5 expression OR-ing the adjacent-word pairs of `query` as phrases, or None."""
    match = fts.render(parse_query(query).pair_words(drop))
    return None if match is None else str(match)


def match_words(query: str) -> list[str]:
    """`ParsedQuery.match_words` of `query`."""
    return parse_query(query).match_words()


def has_field_filter(query: str) -> bool:
    """True when `query` uses a `title:` or `tags:` column filter."""
    return parse_query(query).has_field_filter
