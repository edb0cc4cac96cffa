"""The wording around a request's content: a leading courtesy ("please", "can you", "btw":
`strip_polite`), a trailing one ("..., thanks", "... too": `strip_tail`) and surrounding quotes
and punctuation (`clean`). Pure; shared by the slot readers (slots.py) and the note-name
matcher (notenames.py).
"""

from __future__ import annotations

import re

_POLITE = (r"^(?:(?:please|pls|can you|could you|would you|will you|i'?d like you to|i want you to|also|and|ok|okay"
           r"|oh|hey|hi|hiya|btw|by the way|so|right|um|er|just|actually|you can)[\s,!-]+)*")
# words a request may end with that are no part of its content ("..., thanks", "... too", "... please?")
_TAIL = re.compile(r"(?:[\s,.!?;:-]+(?:please|pls|thanks|thank you|thx|cheers|ta|too|as well|for me|if you can|"
                   r"if you could|if you don'?t mind|so far))+[\s.!?]*$", re.I)


def clean(s: str) -> str:
    """`s` without surrounding quotes, spaces and trailing punctuation."""
    return s.strip().strip(" \t\"'“”‘’").rstrip(".!?;, ").strip()


def strip_polite(text: str) -> str:
    """`text` without a leading "please", "can you", "and", "oh", "btw", ..."""
    return re.sub(_POLITE, "", text.strip(), flags=re.I | re.S)


def strip_tail(text: str) -> str:
    """`text` without the courtesies and fillers a request may end with ("..., thanks",
    "... too", "... please?", "... so far"), and without its closing punctuation."""
    prev = None
    t = text.strip()
    while prev != t:
        prev, t = t, clean(_TAIL.sub("", t))
    return t
