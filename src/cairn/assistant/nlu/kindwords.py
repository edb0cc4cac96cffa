"""Other words a person asks a code by: "the combo for the gate", "the bike lock combination",
"the passcode to the key safe" ask for what the answerer (cairn.answer.types) knows as a code.

    as_code_word("whats the combo for the gate at the apiary")   # "whats the code for the gate at the apiary"
    as_code_word("a combination of flour and water")              # unchanged

Only a question is rewritten (`understand` calls this on a question's resolved text), and only
where the word stands as a code does: after "the", "my", "our", "a", "his", "her", "their" or a
noun ("the bike lock combination"), and before "for", "to", "on", "at", "of the (door|gate|...)",
"again", "then", a question mark or the end. "the right combination of colours" stays.
A code answers for the thing it opens or names ("the door code", "the locker pin"): `code_thing`
reads that thing off a question, `names` tells whether a text (a note, an answer) names it; a
note that never names a door holds no door code, whatever other words of the question it shares
(its order number is another thing's code).

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


_CODE_OF = re.compile(r"\b(?P<x>[a-z]+)\s+(?:code|pin|password|passcode|combination|combo|number)\b", re.I)
_NOT_THING = frozenset("the a an my our your his her their its this that what's whats what which phone mobile "
                       "house flat".split())  # "phone number", "house number": values, not things a code opens


def code_thing(question: str) -> str | None:
    """The thing a question's code is of ("whats the door code for …" -> "door"), None when it
    names none ("what's the code for the gate": the thing is after it, any word may name it).
    The caller knows the question asks a code (replies.value_kind)."""
    m = _CODE_OF.search(question or "")
    if not m or m.group("x").lower() in _NOT_THING:
        return None
    return m.group("x").lower()


def names(text: str, thing: str) -> bool:
    """Whether `text` holds `thing` as a word (stemmed: "doors" names "door")."""
    from cairn.lexical import stem
    return stem(thing) in {stem(w) for w in re.findall(r"[a-z]+", (text or "").lower())}
