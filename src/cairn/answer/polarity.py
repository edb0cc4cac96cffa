"""Polarity check: does the answer state the opposite of what the question presumes?

"What movies does Nate hate?" answered with "I do love watching classics": "love" and "hate" sit close in any
embedding, so the check is lexical: the question holds a word of a pair (`OPPOSITES`, kinship `COUNTERPARTS`) the
answer never uses, while it uses the opposite. Not entailment.
"""

from __future__ import annotations

import re

# Each pair is read both ways.
_LIKING = ("love", "like", "enjoy", "adore")
OPPOSITES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("hate", "dislike", "detest", "loathe", "can't stand", "cannot stand"), _LIKING),
    (("sadness",), ("joy", "happiness")), (("sad",), ("happy", "joyful", "glad")), (("unhappy",), ("happy", "glad")),
    (("worst",), ("best",)), (("oppose",), ("support", "favor", "favour")), (("criticize", "criticise"), ("praise",)),
    (("negative",), ("positive",)), (("boring",), ("exciting",)), (("hardest",), ("easiest",)))
COUNTERPARTS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("grandpa", "grandfather", "granddad", "grandad"), ("grandma", "grandmother", "granny", "nana")),
    (("father", "dad", "daddy"), ("mother", "mom", "mum", "mommy", "mummy")),
    (("son", "sons"), ("daughter", "daughters")), (("brother", "brothers"), ("sister", "sisters")),
    (("husband",), ("wife",)), (("boyfriend",), ("girlfriend",)), (("uncle",), ("aunt", "auntie")),
    (("nephew",), ("niece",)))

# "like" as a verb: its inflections, or the bare word after a subject or an adverb that
# takes a verb ("I like", "really like", "would like"); "looks like rain" is no liking.
_LIKE = re.compile(r"\b(?P<w>lik(?:es|ed|ing))\b|\b(?:i|we|you|they|he|she|really|also|do|does|did|'d|"
                   r"would|always|still|totally|especially|both|all)\s+(?P<w2>like)\b", re.IGNORECASE)


def _forms(lemma: str) -> re.Pattern[str]:
    """A whole-word pattern for `lemma` and its regular inflections (hates, hated, hating)."""
    if lemma == "like":
        return _LIKE
    base = lemma[:-1] if lemma.endswith("e") else lemma
    return re.compile(r"\b(?:" + re.escape(lemma) + "|" + re.escape(base)
                      + r"(?:es|s|ed|d|ing))\b", re.IGNORECASE)


def _any(words: tuple[str, ...]) -> re.Pattern[str]:
    """A whole-word pattern for any of `words`, possessive allowed."""
    return re.compile(r"\b(?:" + "|".join(words) + r")(?:'s|’s)?\b", re.IGNORECASE)


def _pairs() -> list[tuple[re.Pattern[str], re.Pattern[str]]]:
    """(the question word's pattern, its opposite's) for every ordered pair, OPPOSITES then COUNTERPARTS; never "like"
    asked ("What was the trip like?": a preposition, not a liking)."""
    return [pair for words, opposites in OPPOSITES for w in words for o in opposites
            for pair in ((_forms(w), _forms(o)), (_forms(o), _forms(w)))[:1 if o == "like" else 2]] + \
        [pair for a, b in COUNTERPARTS for pair in ((_any(a), _any(b)), (_any(b), _any(a)))]


_PAIRS = _pairs()
_YES_NO = re.compile(r"^\W*(?:do|does|did|is|are|was|were|am|has|have|had|can|could|would|will|"
                     r"should|shall|may|might|must)\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|never|no longer|hardly)\W+(?:\w+\W+){0,2}$|n't\W+(?:\w+\W+){0,2}$", re.I)


def _said(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first match of `pattern` in `text` not negated by one of the three words before
    it ("I don't really like…", "never enjoyed")."""
    for m in pattern.finditer(text):
        if not _NEGATION.search(text[max(0, m.start() - 40):m.start()]):
            return m
    return None


def contradiction(question: str, answer: str) -> tuple[str, str] | None:
    """(the question's word, the opposite found), lower-cased, when `answer` (the quote and the passages it cites)
    states the opposite of a word of `question` and never the word itself (module doc); else None. A yes/no question
    (answered by the contradiction), a question with both words of a pair or a negation are left alone; a negated word
    in the answer ("I don't like…") counts as neither. Never raises."""
    question, answer = question.replace("’", "'"), answer.replace("’", "'")
    if _YES_NO.search(question) or re.search(r"\b(?:not|never)\b|n't\b", question, re.IGNORECASE):
        return None  # "What does she not like?": the negation flips the reading; leave it
    for word_re, other_re in _PAIRS:
        asked = word_re.search(question)
        if asked and not other_re.search(question) and not word_re.search(answer):
            said = _said(other_re, answer)
            if said:
                return asked.group(0).lower(), (said.groupdict().get("w") or said.groupdict().get("w2")
                                                or said.group(0)).lower()  # without `_LIKE`'s context
    return None
