"""Whether a sentence says *where* (`says_where`, preferred by the extractive answer to "where"; typed21, issue 33).
What a date or time is *of* in the question ("due", "get into") is read with the question: search/asked.py `role_of`.
Pure functions."""

from __future__ import annotations

import re

from cairn.answer.types import _ADDRESS
from cairn.lexical import MONTH_NAMES

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
