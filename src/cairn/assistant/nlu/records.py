"""How a note's lines hold records, for choosing the sentence that answers: a line's later sentences belong
to what its first names (`line_heads`; a sentence opening with "he"/"she" is said with that first one,
`with_antecedents`), a weekday that recurs (`WEEKLY`) answers "what night is X", and a question's possessor
says whose thing is asked, not which (`possessors`).
Plain functions of text; no imports of the rest of the assistant.
"""

from __future__ import annotations

import re


# A line of a note is one record ("- Mum: 12 June. Loves gardening; would like a kneeler."): its later sentences
# are about what its first one names, so they share its words when scored for a question ("what's mum after"
# reaches the kneeler; replies.best_sentences). Switch off: LINE_HEAD.
LINE_HEAD = True


def line_heads(body: str, sentences) -> dict[str, str]:
    """{sentence: the first sentence of its line} for the sentences after a line's first; `sentences`
    splits a text into sentences (replies.sentences)."""
    out: dict[str, str] = {}
    for ln in body.splitlines():
        parts = sentences(ln)
        for s in parts[1:]:
            out.setdefault(s, parts[0])
    return out


# "what night / evening / morning is X" asks the day of the week it comes round on, as "what day" does: a sentence
# naming a weekday recurring ("Wednesdays", "Tuesday evenings", "every Friday") with its hour or part of the day
# answers it ("Wednesdays 6.30pm to 8.30pm"), not a one-off date ("Exam date: Wednesday 28 May") nor another
# weekly thing said without one ("we meet for a coffee on Saturdays"; replies.asked_kind). Switch off: PART_OF_DAY.
PART_OF_DAY = True
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
WEEKLY = re.compile(rf"\b{_DAY}s\b|\b(?:every|each)\s+{_DAY}\b|\b{_DAY}\s+(?:night|evening|morning|afternoon)s\b", re.I)
PART_WORD = re.compile(r"\b(?:night|evening|morning|afternoon)s?\b", re.I)


# A quoted sentence opening with a person's pronoun ("He collects the subs.") is said with the sentence before it
# on its line, which names whom the pronoun stands for ("Captain: Baz Tulliver, 07700 900 614."). Switch off:
# PRONOUN_ANTECEDENT.
PRONOUN_ANTECEDENT = True
_PERSON_OPENS = re.compile(r"^\W*(?:he|she|they|his|her|their|him|them)\b", re.I)


def with_antecedents(body: str, lines: list[str]) -> list[str]:
    """`lines` (sentences of the note `body`, in order) with the sentence before each one that opens with a
    person's pronoun put in front of it, when that sentence is on the same line of the note and not quoted
    already; `lines` unchanged when PRONOUN_ANTECEDENT is off."""
    if not PRONOUN_ANTECEDENT:
        return lines
    from cairn.lexical import sentences as spans
    before: dict[str, str] = {}
    for ln in body.splitlines():
        ln = ln.strip()
        cut = [ln[a:b] for a, b in spans(ln)] if ln and not ln.startswith("#") else []
        before.update({b: a for a, b in zip(cut, cut[1:]) if b not in before})
    out: list[str] = []
    for s in lines:
        prev = before.get(s)
        if prev and _PERSON_OPENS.match(s) and prev not in lines and prev not in out:
            out.append(prev)
        out.append(s)
    return out


# A question's possessor ("nell's" of "when is nell's piano exam") says whose thing is asked, not which: a line
# sharing only the possessor ("Nell has piano on Thursdays") ranks below one sharing the thing ("exam on 14 May"):
# it counts half in typed_sentences. Switch off: POSSESSOR_HALF.
POSSESSOR_HALF = True


_NOT_OWNERS = frozenset("it what that there here who where when how he she let one".split())  # "what's", "it's"


def possessors(question: str, body: str = "") -> set[str]:
    """Stems of the words of `question` written as possessives ("nell's"), or typed without the apostrophe
    ("nells") when the word less its "s" is a capitalised name in `body` ("Nell has piano ...")."""
    from cairn.lexical import stem
    out = {w for w in re.findall(r"\b(\w+)['’]s\b", question.lower()) if w not in _NOT_OWNERS}
    names = {w.lower() for w in re.findall(r"\b[A-Z][a-z]+\b", body)}
    out |= {w[:-1] for w in re.findall(r"\b(\w+s)\b", question.lower()) if not w.endswith("ss") and w[:-1] in names}
    return {stem(w) for w in out}
