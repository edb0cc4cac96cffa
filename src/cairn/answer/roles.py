"""Reading a question's role and a sentence's place (typed21, issue 33): what a date or time is *of* ("due", "get into":
`role_words`, read against each value's label by answer/typed.py) and whether a sentence says *where* (`says_where`,
preferred by the extractive answer to "where"). Pure functions."""

from __future__ import annotations

import re

from cairn.answer.types import _ADDRESS
from cairn.lexical import MONTH_NAMES, stem
from cairn.search.asked import BARE_WH, DETERMINERS, FUNCTION_WORDS, TYPE_WORDS

# The role a date or time plays is the question's predicate ("when's the water bill *due*", "what time do I *get into*
# York", "*check out*"): a date of another role of the same document ("Bill date", the departure column) answers another
# question (answer/typed.py reads each value's label against it). The predicate is what is left of the question once its
# wh-phrase, its function words, auxiliaries and modals, the type words and the head and subject are taken out; a
# particle is kept with the verb before it ("check out", even when "check" is the subject's).
ROLE = True
_PARTICLES = frozenset("into out back off up away over".split())
_NOT_ROLE = frozenset("""when what which how time date day year month s need needs needed have has had having
must should can could would will may might do does did get gets got another next last first ever usually
going go""".split())


def role_of(question: str, asked) -> tuple[str, ...]:
    """The role (`role_words`) of a date or time question whose reading is `asked` (search/asked.py `Asked`); () for other kinds."""
    return role_words(question, asked.head + asked.subject) if asked.kind in ("date", "time") else ()


def role_words(question: str, taken: tuple[str, ...]) -> tuple[str, ...]:
    """The words of `question` (lower case, in order) naming the role of the date or time it asks for (`ROLE`); `taken`:
    the stems of its head and subject. () when ROLE is off or none is left."""
    if not ROLE:
        return ()
    words = re.findall(r"[a-z]+(?:-[a-z]+)*", BARE_WH.sub(lambda m: m.group(1) + "'s", question.lower()))
    out: list[str] = []
    for i, w in enumerate(words):
        if w in _PARTICLES and i and (out[-1:] == [words[i - 1]] or words[i - 1] not in FUNCTION_WORDS | _NOT_ROLE
                                      or words[i - 1] in ("get", "gets", "got")):
            if out[-1:] != [words[i - 1]]:
                out.append(words[i - 1])  # "check out": the verb with its particle, though the subject's
            out.append(w)
        elif not (w in FUNCTION_WORDS or w in _NOT_ROLE or w in DETERMINERS or stem(w) in taken
                  or (stem(w) in TYPE_WORDS and w != "due") or w.isdigit()):
            out.append(w)
    return tuple(out)


# A place is said by an address or a locative: a preposition of place before a noun ("at Beth's", "in the village hall";
# not a time: "on Thursday", "in the morning") or a place label ("Venue:"): the extractive answer to "where" prefers a
# sentence saying one (not required: "two doors down").
LOCATIVE = True
_NOT_PLACES = "|".join(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", *MONTH_NAMES]) \
    + "|morning|afternoon|evening|night|week|weekend|month|year|summer|autumn|winter|spring|" \
    "time|end|start|first|last|half|total|future|past|case|order|advance|full|person|writing|cash|" \
    "the|a|an|my|our|your|his|her|their|this|that|which|what"
_LOCATIVE = re.compile(rf"\b(?:at|in|on|near|outside|inside|behind|opposite|from)\s+(?:(?:the|a|an|my|our|your|his|her|"
                       rf"their)\s+)?(?!(?:{_NOT_PLACES})\b)[a-z][\w'’-]+|"
                       r"\b(?:where|venue|location|address|place|meeting point|room)\s*:", re.IGNORECASE)


def says_where(text: str) -> bool:
    """True when `text` holds an address or a locative (LOCATIVE)."""
    return bool(_LOCATIVE.search(text) or _ADDRESS.search(text))
