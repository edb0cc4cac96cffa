"""Text normalisation shared by the keyword index and keyword queries.

SQLite's unicode61 tokenizer treats a run of CJK characters as one token, so "告警" would
never match inside "内存告警已清零". We index CJK (Han, kana, Hangul) one character per
token by putting spaces around each such character, and turn a CJK query run into a phrase
of single characters — this finds words of any length, including 1–2 characters (case B10).

`build_match_query` turns *any* user text into a safe FTS5 MATCH expression: every term is
quoted, so operators (AND, OR, NOT, NEAR), punctuation, quotes and `-` never cause a syntax
error (case B09). Words joined by punctuation ("health.base", "k8s-prod", "08:00") become
phrases. `title:WORD` and `tags:WORD` are documented column filters.
"""

from __future__ import annotations

import functools
import re

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


def _terms(text: str) -> list[str]:
    """The word and CJK-character terms of `text`, in order."""
    return (_ASCII_TERM_RE if text.isascii() else _term_re()).findall(text)


_FIELD_RE = re.compile(r"^(title|tags):(.+)$", re.IGNORECASE)

STOPWORDS = frozenset(
    """a an and are as at be but by did do does for from had has have how i in is it its
    me my of on or so than that the their them then there these they this to was we were
    what when where which who whom why will with would you your""".split()
)


def index_text(text: str) -> str:
    """Text as stored in the FTS table: CJK characters separated by spaces."""
    if text.isascii():
        return text
    cjk = _cjk_re()
    return cjk.sub(r" \1 ", text) if cjk.search(text) else text


def _phrase(word: str) -> str | None:
    terms = _terms(word)
    if not terms:
        return None
    return '"' + " ".join(t.replace('"', '""') for t in terms) + '"'


def query_terms(query: str) -> list[str]:
    """Lower-cased search terms of a query (CJK one character per term)."""
    return [t.lower() for t in _terms(query)]


def build_match_query(query: str, *, drop_stopwords: bool = True, fields: bool = True,
                      drop: frozenset[str] = frozenset()) -> str | None:
    """FTS5 MATCH expression for arbitrary user text, or None if it has no searchable term.

    Terms are OR-ed (BM25 ranks documents matching more terms higher). English stopwords
    are dropped unless the query has nothing else. With fields=False, `title:x` / `tags:x`
    search just x, anywhere. `drop`: lower-case single words to leave out (too common to
    discriminate, see search/hybrid.py), unless nothing else would remain. Never raises.
    """
    parts: list[tuple[str, bool]] = []  # (expression, is_stopword)
    for word in query.split():
        field = _FIELD_RE.match(word)
        if field and not fields:
            word = field.group(2)
        elif field:
            phrase = _phrase(field.group(2))
            if phrase:
                parts.append((f"{field.group(1).lower()} : {phrase}", False))
            continue
        phrase = _phrase(word)
        if phrase:
            bare = phrase.strip('"').lower()
            parts.append((phrase, bare in STOPWORDS or bare in drop))
    if not parts:
        return None
    kept = [p for p, stop in parts if not stop] if drop_stopwords else [p for p, _ in parts]
    if not kept:
        kept = [p for p, _ in parts]
    # De-duplicate while keeping order.
    seen: set[str] = set()
    unique = [p for p in kept if not (p.lower() in seen or seen.add(p.lower()))]
    return " OR ".join(unique)


def adjacent_phrases(query: str, drop: frozenset[str] = frozenset()) -> str | None:
    """FTS5 MATCH expression OR-ing, as phrases, the pairs of adjacent query words ("breast
    cancer risk" -> '"breast cancer" OR "cancer risk"'), or None when there is no pair.
    Words are whitespace-separated; a pair joins the last term of one word to the first term
    of the next ("T-cell growth" -> "cell growth"). A pair is skipped when either side is a
    stopword or in `drop` (words too common for the OR query, see search/hybrid.py), when
    the first word ends a clause (. , ; : ! ?) or either word is a `title:`/`tags:` filter.
    The ordered-window part of Metzler & Croft's sequential dependence model (SIGIR 2005);
    search/hybrid.py adds its BM25 with a small weight. Never raises."""
    words = query.split()
    pairs: list[str] = []
    for a, b in zip(words, words[1:]):
        if a[-1:] in ".,;:!?" or _FIELD_RE.match(a) or _FIELD_RE.match(b):
            continue
        ta, tb = _terms(a), _terms(b)
        if not ta or not tb:
            continue
        x, y = ta[-1].lower(), tb[0].lower()
        if x in STOPWORDS or y in STOPWORDS or x in drop or y in drop:
            continue
        phrase = '"' + x.replace('"', '""') + " " + y.replace('"', '""') + '"'
        if phrase not in pairs:
            pairs.append(phrase)
    return " OR ".join(pairs) or None


def match_words(query: str) -> list[str]:
    """The lower-cased terms `build_match_query` ORs, in query order, field filters left out:
    a word ("msx2", "3") or the space-joined terms of a phrase ("t cell" for "T-cell"), as
    its `drop` argument names them. Stopwords are included (the caller skips them)."""
    out = []
    for word in query.split():
        if _FIELD_RE.match(word):
            continue
        phrase = _phrase(word)
        if phrase:
            out.append(phrase.strip('"').lower())
    return list(dict.fromkeys(out))


def has_field_filter(query: str) -> bool:
    """True when the query uses a `title:` or `tags:` column filter."""
    return any(_FIELD_RE.match(w) for w in query.split())
