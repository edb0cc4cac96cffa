"""The opening of a message line in a WhatsApp chat export, as both apps write it, shared by the
importer (cairn.ingest.importing.whatsapp) and the plain-text parser (which names the importer
when a .txt it reads is such an export):

    [12/05/2024, 18:01:23] Ines: Who is driving?        (iPhone; seconds optional)
    12/05/2024, 18:01 - Ines: Who is driving?           (Android; "6:01 pm" also)

Groups: a, b (the first two numbers of the date: day and month in either order), y, h, m, s,
ampm, rest (what follows the opening); SPOKEN reads a rest as speaker and text.
"""

from __future__ import annotations

import re

MARKS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")  # direction marks the apps insert
_DATE = r"(?P<a>\d{1,2})[/.-](?P<b>\d{1,2})[/.-](?P<y>\d{2,4})"
_TIME = r"(?P<h>\d{1,2})[:.](?P<m>\d{2})(?:[:.](?P<s>\d{2}))?(?:\s*(?P<ampm>[ap]\.?\s?m\.?))?"
LINES = (re.compile(r"^\[" + _DATE + r",?\s+" + _TIME + r"\]\s*(?P<rest>.*)$", re.IGNORECASE),
         re.compile(r"^" + _DATE + r",?\s+" + _TIME + r"\s+[-–]\s+(?P<rest>.*)$", re.IGNORECASE))
# What follows a message line's opening when someone said it: "Name: text" (text may run on over the lines after it). The
# name is on the opening line: a colon on a later line of an app's notice ("Ana changed the group description" with
# "Rules: be kind" below) names no speaker.
SPOKEN = re.compile(r"^(?P<speaker>[^:\n]{1,80}?):\s(?P<text>.*)$", re.DOTALL)


def message_line(line: str) -> re.Match | None:
    """The match of `line` (direction marks removed first) as a message line's opening, or None."""
    line = MARKS.sub("", line)
    return LINES[0].match(line) or LINES[1].match(line)


def looks_like_whatsapp(text: str, lines: int = 20, least: int = 3) -> bool:
    """True when at least `least` of the first `lines` non-blank lines of `text` open a message
    with a speaker ("[12/05/2024, 18:01] Ana: …")."""
    seen = hits = 0
    for line in text.splitlines():
        if not line.strip():
            continue
        seen += 1
        m = message_line(line)
        hits += bool(m and SPOKEN.match(m.group("rest")))
        if hits >= least:
            return True
        if seen >= lines:
            break
    return False
