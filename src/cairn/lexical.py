"""Sentences, terms and stems of English text: the lexical measures shared by the answerer
(answer/), the gists of enrichment (enrich.py) and the knowledge operations (ops/). All
functions are pure and deterministic; nothing here knows of notes, questions or answers."""

from __future__ import annotations

import functools
import re
import unicodedata

from cairn.store.fts import STOPWORDS, query_terms

# A sentence ends at . ! ? followed by space or end of line ("v2.pdf" and "1.5" do not end
# one), at CJK full stops, or at a line break.
_SENT_RE = re.compile(r"(?:[^.!?。！？\n]|[.!?](?![\s\"')\]]|$))+(?:[.!?]+[\"')\]]*(?=\s|$)|[。！？]+|\n|$)")
_NUM_RE = re.compile(r"\d+(?:[.,:/-]\d+)*")


# A full stop after these (or after a single capital initial) does not end a sentence.
TITLES = ("Dr", "Mr", "Mrs", "Ms", "Mx", "Prof", "St", "Sr", "Jr", "Mt", "Gen", "Col", "Capt", "Lt", "Sgt")
ABBREV_END = re.compile(r"(?:\b(?:" + "|".join(TITLES) + r"|vs|approx|incl|excl|tel|e\.g|i\.e)|(?<![\w.])[A-Z])\.$")


_BLOCK_START = re.compile(r"\s*(?:[-*+#>|]|\d+[.)]\s)")
# A "Key: value" line ("Birthday: 9 May", "Lead: Maria Lopez"): a label of one to three words
# starting with a letter, a colon, a space, then a value holding a word character.
LABEL_VALUE = re.compile(r"[ \t]*([^\W\d_][\w'’()/&.-]*(?:[ \t]+[\w'’()/&.-]+){0,2})[ \t]*:[ \t]+(?=\S)(?!//)(.*\w.*)")


def _soft_breaks(text: str) -> str:
    """`text` with each soft line break (one inside a hard-wrapped paragraph) replaced by a
    space, same length: a break between two non-blank lines, where the next line does not
    open a list item, heading, quote or table row, the line before is no heading or
    table row, and the two are not both "Key: value" lines (LABEL_VALUE: "Phone: 0123" then
    "Partner: Rui" are two fields, not one wrapped sentence)."""
    if "\n" not in text:
        return text
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines[:-1]):
        nxt = lines[i + 1]
        soft = (line.strip() and nxt.strip() and not _BLOCK_START.match(nxt)
                and not re.match(r"\s*[#|]", line)
                and not (LABEL_VALUE.fullmatch(line) and LABEL_VALUE.fullmatch(nxt)))
        out.append(line + (" " if soft else "\n"))
    out.append(lines[-1])
    return "".join(out)


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of the sentences of `text`: a line break ends a sentence unless
    it only wraps a paragraph (`_soft_breaks`); a full stop after a title or an initial
    does not ("Dr. Okafor", "C. S. Lewis"); spans are stripped of outer blank space and
    list markers; empty spans dropped. A span may hold line breaks of a wrapped paragraph.
    A sentence longer than LONG_SENTENCE characters comes as several spans (`bounded`)."""
    original, text = text, _soft_breaks(text)
    spans = []
    glue: tuple[int, int] | None = None  # span of a piece that ended in "Dr." or an initial
    for m in _SENT_RE.finditer(text):
        s, e = m.start(), m.end()
        while s < e and (text[s].isspace() or text[s] in "-*#>|"):
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if glue is not None:
            if "\n" not in text[glue[1]:s]:
                s = glue[0]
            elif glue[1] - glue[0] >= 3:
                spans.append(glue)  # a line break ends it after all
        glue = None
        if e > s and ABBREV_END.search(text[s:e]) and m.end() < len(text) and text[m.end() - 1] != "\n":
            glue = (s, e)  # "Dr." ends no sentence: carry on into the next piece
            continue
        if e - s >= 3:
            spans.extend(bounded(original, s, e))
    return spans


# A sentence longer than LONG_SENTENCE characters (a line with no full stop, a transcript, an
# OCR page run together) is cut into pieces no longer than that, so a quote stays readable;
# 0: off. 0.1 % of the sentences of /work/shared/data's three note folders are longer.
LONG_SENTENCE = 500
_MIN_PIECE = 20
# Cut points, best first: a line break (of a wrapped paragraph); after a clause mark ("," ";"
# or a dash) and its space; before a capitalised word after a lower-case one (a sentence start
# that lost its full stop); any space.
_CUTS = (re.compile(r"\n[ \t]*(?=\S)"), re.compile(r"(?:[,;]|\s[\u2014\u2013-])\s+(?=\S)"),
         re.compile(r"(?<=[a-z0-9])\s+(?=[A-Z][a-z])"), re.compile(r"\s+(?=\S)"))


def _in_brackets(text: str, at: int, lo: int, hi: int) -> bool:
    """True when offset `at` lies inside a "[...]" or "(...)" opened and closed within
    text[lo:hi] (a markdown link's text or address is not cut)."""
    opened = max(text.rfind("[", lo, at), text.rfind("(", lo, at))
    closed = max(text.rfind("]", lo, at), text.rfind(")", lo, at))
    if opened <= closed:
        return False
    after = [i for i in (text.find("]", at, hi), text.find(")", at, hi)) if i >= 0]
    return bool(after)


def bounded(text: str, s: int, e: int) -> list[tuple[int, int]]:
    """text[s:e] (one sentence; `text` with its line breaks) cut into pieces of at most LONG_SENTENCE characters, from
    its end backwards: each piece starts at the earliest cut point of the best kind
    (`_CUTS`) that leaves it 20..LONG_SENTENCE characters long and is not inside brackets;
    with none, at LONG_SENTENCE characters. Spans stripped of outer blank space; pieces
    shorter than 3 characters dropped. A sentence within the bound is returned whole."""
    if not LONG_SENTENCE or e - s <= LONG_SENTENCE:
        return [(s, e)]
    pieces, end = [], e
    while end - s > LONG_SENTENCE:
        lo, hi = end - LONG_SENTENCE, end - _MIN_PIECE
        cut = next((m.end() for rx in _CUTS for m in rx.finditer(text, lo, hi)
                    if m.end() <= hi and not _in_brackets(text, m.end(), lo, end)), lo)
        pieces.append((cut, end))
        end = cut
    pieces.append((s, end))
    out = []
    for a, b in reversed(pieces):
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b - a >= 3:
            out.append((a, b))
    return out


_NON_WORD = re.compile(r"[\W_]+")


def normalise(text: str) -> str:
    """Lower-case, accents folded, punctuation and runs of space collapsed."""
    t = text.lower()
    if not t.isascii():  # ASCII has no accents to fold
        t = unicodedata.normalize("NFKD", t)
        t = "".join(ch for ch in t if not unicodedata.combining(ch))
    return _NON_WORD.sub(" ", t).strip()


@functools.lru_cache(maxsize=1 << 16)
def _normalise_term(term: str) -> str:
    """`normalise` of one query term, remembered: texts repeat their words (an ingest runs
    this over every sentence of every note for its gist, cairn.enrich)."""
    return normalise(term)


def content_terms(text: str) -> list[str]:
    """Query-style terms of `text` without English stopwords (accents folded)."""
    out = []
    for t in query_terms(text):
        if t not in STOPWORDS:
            n = _normalise_term(t)
            if n:
                out.append(n)
    return out


# Irregular past forms of common English verbs -> the base form, so "sold" matches "sell"
# (the suffix stripper below cannot see these).
IRREGULAR = dict(pair.split(":") for pair in (
    "made:make sold:sell bought:buy went:go gone:go took:take taken:take got:get gotten:get gave:give "
    "given:give seen:see ran:run ate:eat eaten:eat wrote:write written:write met:meet "
    "found:find told:tell said:say thought:think brought:bring built:build "
    "began:begin begun:begin came:come drove:drive driven:drive flew:fly flown:fly kept:keep knew:know "
    "known:know lost:lose paid:pay sent:send spent:spend stood:stand taught:teach won:win wore:wear "
    "worn:wear swam:swim sang:sing sung:sing drank:drink broke:break broken:break chose:choose "
    "chosen:choose fell:fall fallen:fall forgot:forget forgotten:forget grew:grow grown:grow heard:hear "
    "held:hold led:lead meant:mean rode:ride ridden:ride sat:sit slept:sleep spoke:speak spoken:speak "
    "stole:steal stolen:steal threw:throw thrown:throw understood:understand woke:wake caught:catch "
    "fought:fight sought:seek dealt:deal dug:dig fed:feed hid:hide hidden:hide learnt:learn shot:shoot "
    "tore:tear torn:tear became:become drew:draw drawn:draw froze:freeze frozen:freeze hung:hang "
    "laid:lay shook:shake shaken:shake stuck:stick struck:strike swept:sweep swung:swing wept:weep "
    "bent:bend lent:lend sank:sink sunk:sink spun:spin slid:slide shone:shine bled:bleed blew:blow "
    "blown:blow bred:breed fled:flee rang:ring rung:ring risen:rise").split())


@functools.lru_cache(maxsize=1 << 16)
def stem(term: str) -> str:
    """A crude stem for word overlap: irregular past forms to their base (`IRREGULAR`), then one
    of the suffixes ing/ed/es/s stripped from words long enough ("es" only after s, x, z, ch,
    sh: "boxes" -> box, but "lives" -> live), then a final "e" dropped, so that live, lives,
    lived and living all give "liv". Not the index's Porter stem."""
    if term in IRREGULAR:
        term = IRREGULAR[term]
    else:
        for suffix in ("ing", "ed", "es", "s"):
            if len(term) > len(suffix) + 2 and term.endswith(suffix):
                if suffix == "es" and not term[:-2].endswith(("s", "x", "z", "ch", "sh")):
                    continue  # "lives": only the "s" is a suffix
                term = term[: -len(suffix)]
                break
    return term[:-1] if len(term) > 3 and term.endswith("e") else term


def term_overlap(needle: str, haystack: str) -> float:
    """Fraction of `needle`'s content terms (crudely stemmed) found in `haystack`; 0..1.
    A needle with no content terms scores 0."""
    terms = {stem(t) for t in content_terms(needle)}
    if not terms:
        return 0.0
    hay = {stem(t) for t in content_terms(haystack)}
    return len(terms & hay) / len(terms)


def numbers_supported(claim: str, evidence: str) -> bool:
    """Every number in the claim also occurs in the evidence (dates, prices, counts)."""
    ev = set(_NUM_RE.findall(evidence))
    return all(n in ev for n in _NUM_RE.findall(claim))


# English clitics split from a word ("who's", "can't", "I've", "we'll", "I'd"): no content word of a question (answer/)
CLITICS = frozenset("s t ve ll d".split())
MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
               "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
               "sept", "oct", "nov", "dec")
WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
