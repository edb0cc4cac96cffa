"""The person's message as the assistant reads and stores it: `clean(text)`.

Every door (CLI, REST, web, Telegram) hands `Assistant.turn` the raw text; a NUL or another
control character, a lone UTF-16 surrogate (valid in JSON, not encodable as UTF-8) or a
bidirectional override would otherwise reach the session log, a memory or a note file, or hide
a request's words from the understanding layer ("\\u202eremind me ..."). Pure; never raises.
"""

from __future__ import annotations

import re

# C0 and C1 controls but tab and newline; bidi embeddings, overrides and isolates; a BOM
_DROP = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")


def clean(text: str) -> str:
    """`text` with carriage returns as newlines and the characters above and lone surrogates
    dropped (a control character between two words becomes a space), stripped of surrounding
    white space. "" when nothing readable is left."""
    t = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    t = re.sub(r"(?<=\S)[\x00-\x08\x0b-\x1f\x7f-\x9f](?=\S)", " ", t)
    return _DROP.sub("", t).strip()
