"""A trip has two ways: "what train am i getting to Castlemere" asks the way there, and the line
"Train home: the 23:05 from Castlemere" is the way back — it names the question's destination
after "from". `replies.best_sentences` leaves such a line out among lines equally close to the
question while another remains (switch off: DIRECTION there).

    wrong_way("the bus to Ely", "Bus back from Ely at 6")   # True
    wrong_way("the bus to Ely", "Bus to Ely at 9")          # False

Pure; nothing raises.
"""

from __future__ import annotations

import re

_TO = re.compile(r"\b(?:to|into|towards|for|up to|down to|over to|out to)\s+(?:the\s+)?(?P<p>[a-z][\w'-]+)", re.I)
_FROM = re.compile(r"\b(?:from|back from|out of|leaving)\s+(?:the\s+)?(?P<p>[a-z][\w'-]+)", re.I)


def _places(rx: re.Pattern, text: str) -> set[str]:
    """The capitalised words `rx` finds after its preposition in `text`, lower-cased."""
    return {m.group("p").lower() for m in rx.finditer(text) if m.group("p")[:1].isupper()}


def wrong_way(question: str, line: str) -> bool:
    """Whether `line` goes the other way from the trip `question` asks of: the question's
    "to D" with the line's "from D", or its "from D" with the line's "to D" (D a capitalised
    place in the line, the same word in either case)."""
    q_to = {m.group("p").lower() for m in _TO.finditer(question)}
    q_from = {m.group("p").lower() for m in _FROM.finditer(question)}
    return bool(q_to & _places(_FROM, line) - q_from) or bool(q_from & _places(_TO, line) - q_to)

