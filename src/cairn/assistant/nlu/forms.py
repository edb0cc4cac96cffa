"""The forms of a message read without the classifier: a question (`is_question`), a correction of
a stated value ("sorry, it's 121 not 112": `correction`), and a new value for the statement just
stored ("sorry i meant the 15th": `meant_value`, its old value the word of the same form,
`value_shape`); a question as the knowledge answer reads it (`plain_question`: without the words
that only carry a texted question along; `as_profile`: "tell me what you know about Pim" as a
profile question). Pure; the switches that act on them are where the readings are used (CORRECTS_MEMORY and
MEANT_AFTER_REMEMBER in nlu/understand.py, DISCOURSE_OFF in assistant/understood.py)."""

from __future__ import annotations

import re

from cairn.assistant.nlu import slots as SL
from cairn.assistant.nlu import state as S
from cairn.ops import knowledge_text as KT

_QUESTION = re.compile(r"\?\s*$|^(?:what|when|where|who|whose|which|how|why|is|are|was|were|do|does|did|can|could|"
                       r"should|will|would|have|has)\b", re.I)


def is_question(text: str) -> bool:
    """Whether `text` reads as a question (a question mark, or a question word first)."""
    return bool(_QUESTION.search(text.strip()))


_VALUE = r"[\w£$€][\w'’./:£$€-]*"
_A_NOT_B = re.compile(rf"(?P<new>{_VALUE})\s*,?\s+(?:and\s+)?not\s+(?:the\s+|a\s+)?(?P<old>{_VALUE}?)\s*[.!]*$", re.I)
_NOT_B_A = re.compile(rf"\bnot\s+(?P<old>{_VALUE}?)\s*[,;]?\s*(?:but|it'?s|it is)\s+(?P<new>{_VALUE}?)\s*[.!]*$", re.I)
# "it's A (the rest of the sentence) not B": the value follows "it's" ("its peanuts he's allergic to
# not sesame"), however the sentence goes on before its "not"
_ITS_A_NOT_B = re.compile(rf"\b(?:it'?s|it is)\s+(?P<new>{_VALUE})\b.*?,?\s+not\s+(?:the\s+|a\s+)?(?P<old>{_VALUE}?)\s*[.!]*$", re.I)
_A_FOR_B = re.compile(rf"(?P<new>{_VALUE})\s*,?\s+(?:instead of|rather than)\s+(?P<old>{_VALUE}?)\s*[.!]*$", re.I)
_NO_VALUE = frozenset("is are was were be been am do does did have has had can could will would should shall may "
                      "might must i you he she it we they me him her us them this that these those there here and "
                      "or but so if then just really definitely certainly sure surely why what who how when where "
                      "yes no not now today yet still too also either neither please thanks to of in on at for with "
                      "from by about the a an".split())


def correction(text: str) -> tuple[str, str] | None:
    """(new value, old value) of a message correcting a stated value ("sorry, it's 121 not
    112" -> ("121", "112"); "the dentist is on Tuesday, not Monday" -> ("Tuesday", "Monday")):
    the forms "it's A … not B", "A not B", "not B but A", "A instead of / rather than B" ending the message, in a
    message of at most 14 words that is no question; None otherwise, or when either side is a
    function word ("it is not", "I do not") or both are the same."""
    t = text.strip()
    if len(t.split()) > 14 or is_question(t):
        return None
    for rx in (_ITS_A_NOT_B, _A_NOT_B, _NOT_B_A, _A_FOR_B):
        m = rx.search(t)
        if m:
            new, old = (m.group("new").strip(".,'’"), m.group("old").strip(".,'’"))
            if (new and old and new.lower() != old.lower()
                    and not {new.lower(), old.lower()} & _NO_VALUE):
                return new, old
    return _phrase_pair(t) if PHRASE_VALUES else None


# A value of two or three words ("faisal's in flat 4 not flat 2", "it's the back door not the front door"): the
# words after the last "not" ending the message, and as many words before it, the two phrases differing and
# sharing a word in the same place ("flat"), so "I said 4 not flat 2" is no pair. Switch off: PHRASE_VALUES.
PHRASE_VALUES = True
_PHRASE_NOT = re.compile(r"^(?P<before>.*?)\s*,?\s+(?:and\s+)?not\s+(?P<old>(?:[\w£$€][\w'’./:£$€-]*\s*){2,3})[.!]*$", re.I)


def _phrase_pair(t: str) -> tuple[str, str] | None:
    """(new phrase, old phrase) of a message ending "A B not A C" (two or three words a side, a word shared in
    the same place, some word differing that is no function word); None otherwise."""
    m = _PHRASE_NOT.match(t)
    if not m:
        return None
    old = m.group("old").split()
    before = m.group("before").rstrip(" ,").split()
    if len(before) < len(old):
        return None
    new = before[-len(old):]
    same = [a.lower() == b.lower() for a, b in zip(new, old)]
    differ = [w.strip(".,'’").lower() for w, s in zip(new + old, same + same) if not s]
    if not any(same) or not differ or set(differ) & _NO_VALUE:
        return None
    return " ".join(new).strip(".,'’"), " ".join(old).strip(".,'’")


_MEANT = re.compile(r"^\W*(?:(?:no|nope|sorry|oops|oh|ah|actually|wait|hang on|my bad|i mean|i meant|meant|"
                    r"make (?:it|that)|it'?s|its|it is|it should be|should be|correction)\b[\s,.!:;-]*)+"
                    r"(?P<v>\S.*?)\s*[.!]*$", re.I)
_DAYS = re.compile(r"^(?:mon|tues|wednes|thurs|fri|satur|sun)days?$", re.I)
_MONTHS = re.compile(r"^(?:january|february|march|april|may|june|july|august|september|october|november|"
                     r"december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)$", re.I)


def value_shape(word: str) -> str | None:
    """The form of a value word ("15th" -> "9th", "£40" -> "£9", "7pm" -> "9pm", "0141" -> "9",
    "Thursday" -> "<day>", "March" -> "<month>"); None for a word that is no value (no digit,
    no weekday or month name)."""
    w = word.strip(".,;:!?()'\"").lower()
    if _DAYS.match(w):
        return "<day>"
    if _MONTHS.match(w):
        return "<month>"
    return re.sub(r"\d+(?:[.,:]\d+)*", "9", w) if re.search(r"\d", w) else None


def meant_value(text: str, st: S.ConversationState) -> tuple[str, str] | None:
    """(new value, old value) of a message correcting the statement the last turn stored (the
    comment above nlu/understand.py MEANT_AFTER_REMEMBER): the message at most 8 words, no question, opening with
    a word of correcting, then at most four words holding one value word; the stored statement
    holding exactly one word of that value's form, a different one. None otherwise."""
    last = st.turns[-1] if st.turns else {}
    stored = [(a.get("slots") or {}).get("text") or "" for a in last.get("actions", [])
              if a.get("intent") in ("remember", "memory_correct")]
    stored = [x for x in stored if x]
    m = _MEANT.match(text.strip())
    if not stored or not m or len(text.split()) > 8 or is_question(text) or len(m.group("v").split()) > 4:
        return None
    new = [w.strip(".,;:!?()'\"") for w in m.group("v").split() if value_shape(w)]
    if len(new) != 1:
        return None
    shape = value_shape(new[0])
    old = {w.strip(".,;:!?()'\"") for w in stored[-1].split() if value_shape(w) == shape}
    if len(old) != 1 or new[0].lower() in {o.lower() for o in old}:
        return None
    return new[0], old.pop()


_OPENERS = re.compile(r"^\W*(?:(?:" + "|".join(KT.OPENERS) + r")\b[\s,.!-]*)+", re.I)  # knowledge_text's one list
_CLOSERS = re.compile(r"[\s,]+(?:then|now then)\s*([?.!]*)\s*$", re.I)


def plain_question(text: str) -> str:
    """`text` without its leading discourse markers ("ok", "right so", "fine") and a closing
    "then" ("ok what's her mobile then" -> "what's her mobile"); the text itself when fewer
    than two words would be left. ("'s" before a past participle spelt "has" was tried and
    dropped: "who has got me a lift on thursdays" was answered worse than "who's got …".)"""
    t = _CLOSERS.sub(r"\1", _OPENERS.sub("", text.strip())).strip()
    return t if len(t.split()) >= 2 else text


_WHAT_NUMBER = re.compile(r"\bwhat\s+(?:number|no\.?)\s+(?P<x>[a-z]+)", re.I)


def as_which(question: str) -> str:
    """`question` with "what number" before a noun written "which" ("what number locker is mine"
    -> "which locker is mine": the number names the locker, it is not a quantity or a field
    called "number"); unchanged when the word after is no noun ("what number is the locker",
    "what number do I ring") or the tagger is unavailable (ner.parts_of_speech)."""
    from cairn.ner import parts_of_speech
    m = _WHAT_NUMBER.search(question or "")
    tags = dict(parts_of_speech(question) or ()) if m else {}
    if not m or tags.get(m.group("x")) not in ("NOUN", "PROPN"):
        return question
    return question[:m.start()] + "which " + question[m.start("x"):]


def as_profile(text: str) -> str:
    """A message the classifier read as "about" in the form the knowledge answer reads as a
    profile question ("tell me what you know about Pim" -> "what do you know about Pim?");
    the text itself when it already is one, or when no subject is found in it."""
    from cairn.ops.knowledge_text import profile_subject
    if profile_subject(text) is not None:
        return text
    subject = SL.subject_of(text)
    return f"what do you know about {subject}?" if subject else text

