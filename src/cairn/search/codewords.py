"""Other words a person asks a code by: "the combo for the gate", "the bike lock combination",
"the passcode to the key safe" ask for what the question's reading (search/asked.py `asked`) knows as a code.

    as_code_word("whats the combo for the gate at the apiary")   # "whats the code for the gate at the apiary"
    as_code_word("a combination of flour and water")              # unchanged

Only a question is rewritten (`cairn ask`, ops/search.py, before it searches; the assistant on a
question's resolved text, assistant/nlu/understand.py), and only where the word stands as a code does: after "the", "my", "our", "a", "his", "her", "their" or a
noun ("the bike lock combination"), and before "for", "to", "on", "at", "of the (door|gate|...)",
"again", "then", a question mark or the end. "the right combination of colours" stays.
(A code answers for the thing its line names: the answerer checks that, answer/typed.py OWNED.)

Pure; nothing raises.
"""

from __future__ import annotations

import re

# written for Cairn: each word or phrase is what "code" means in a question asked of it
CODE_WORDS = ("combination", "combo", "passcode", "pass code", "pin number", "pin code", "keycode", "key code",
              "door number", "access number", "entry number", "lock number")
_AFTER = r"(?=\s+(?:for|to|on|at|again|then|of\s+(?:the|my|our)\s+(?:door|gate|lock|padlock|safe|box|shed|locker|"
_AFTER += r"alarm|garage|building|flat|house|bike|case|suitcase)\b)|\s*[?.!]*\s*$)"
_CODE_WORD = re.compile(r"(?<=\w\s)(?P<w>" + "|".join(sorted(map(re.escape, CODE_WORDS), key=len, reverse=True))
                        + r")\b" + _AFTER, re.I)


def as_code_word(question: str) -> str:
    """`question` with a word for a code (CODE_WORDS) that stands as one (module docstring)
    written "code"; unchanged otherwise."""
    return _CODE_WORD.sub("code", question)
