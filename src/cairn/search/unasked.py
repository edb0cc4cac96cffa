"""Words of a question that name no thing a note must hold (issue 33), read with the packaged spaCy tagger: the verb a
value is asked with (`light_verbs`), pronouns and the present period said deictically (`unasked`). The typed answer
(answer/typed.py) drops them from the head and subject words it requires of a note. And the question's key terms, less
words saying what kind of answer is wanted (`key_terms`, GENERIC_TERMS), read by the answerer's person and topic checks.
"""

from __future__ import annotations

from cairn.lexical import MONTH_NAMES, content_terms, stem
from cairn.ner import parts_of_speech

# The verb whose object is the thing asked ("how many days have I got *left*", "how much deposit does the florist
# *want*", "how many kWh did we *use* in March") says how it is asked, not what of: a verb at the end of its clause (no
# object after it) is no head or subject word the note must hold; "to *start* the extension" (an object follows) is.
LIGHT_VERBS = True


def light_verbs(question: str) -> frozenset[str]:
    """Stems of `question`'s words the packaged tagger reads as verbs followed by no object (the question's end, a
    preposition, an adverb or a particle) and not after a particle, preposition or determiner ("the flight to porto": a
    name typed in lower case, tagged as a verb); empty when LIGHT_VERBS is off or spaCy is unavailable."""
    if not LIGHT_VERBS:
        return frozenset()
    tagged = [(w, p) for w, p in parts_of_speech(question) or () if p != "PUNCT"]
    after, before = [p for _, p in tagged[1:]] + [""], [""] + [p for _, p in tagged[:-1]]
    return frozenset(stem(w.lower()) for (w, pos), nxt, prev in zip(tagged, after, before)
                     if pos == "VERB" and nxt in ("", "ADP", "ADV", "PART") and prev not in ("PART", "ADP", "DET"))


# Words of the question that name no thing a note must hold: a word the tagger reads as a pronoun ("the tap *itself*",
# "if *something* goes wrong"; CLOSED; not a determiner: "due *another* eye test" asks the next one, not the last), and
# the present period said deictically ("this month", "this year": the time of asking, which a note names by its dates,
# never by "this"; PERIOD). Off: such words are head or subject words as the question parser (answer/types.py) reads.
CLOSED = True
PERIOD = True
_PERIODS = frozenset("day week weekend fortnight month year term quarter season morning afternoon evening".split())


def unasked(question: str) -> frozenset[str]:
    """Stems of `question`'s words that are no head or subject words (CLOSED, PERIOD above); empty when both are off or
    spaCy is unavailable."""
    tagged = [(w.lower(), p) for w, p in parts_of_speech(question) or () if p != "PUNCT"] if CLOSED or PERIOD else []
    return frozenset(stem(w) for i, (w, p) in enumerate(tagged)
                     if (CLOSED and p == "PRON")
                     or (PERIOD and w.rstrip("s") in _PERIODS and i and tagged[i - 1][0] in ("this", "these")))


# Question words that say what kind of answer is wanted (and time words, hedges), not its topic.
GENERIC_TERMS = frozenset(stem(w) for w in (
    "kind type sort feel feels felt feeling think thought like likes favorite favourite way ways thing things something "
    "recently get got make made do does did new one ones go went going use used help helped say said tell told want "
    "wanted plan plans planning reason name about happen happened he she him her his hers they them their its it last "
    "next past this week weeks weekend weekends yesterday today tomorrow tonight day days month months year years "
    "morning evening night ago lately recently earlier before after between during since until likely might would "
    "could").split() + list(MONTH_NAMES))


def key_terms(question: str) -> set[str]:
    """Stemmed content terms of `question` less GENERIC_TERMS and numbers."""
    return {stem(t) for t in content_terms(question) if not t.isdigit()} - GENERIC_TERMS
