"""Who a question about notes is about, and which note sentences are about them.

For a question about one named subject ("What does Jonas do for a living?", "Priya's husband", "Tell me about Tom
Weber and the boiler"; not "the Ghent sensor project") the answer is scored without the name (`strip_name`: "He is a
pastry chef.") and quotes no note sentence about someone else (`about_subject`). Capitalisation and word order, not
a parser; chats: answerability.py.
"""

from __future__ import annotations

import re

from cairn.answer.answerability import name_pattern
from cairn.search.names import all_names
from cairn.model import Hit

_AUX = r"(?:does|did|do|is|was|are|were|has|had|have|can|could|will|would|should)"
_VERB_AFTER = r"(?:is|was|has|had|does|did|likes?|loves?|hates?|lives?|works?|wants?|needs?|thinks?|said|says)"

# Words of a question asking everything about someone ("Tell me about Lisa"): with only these
# left once the name is out, the name is the whole topic.
_ASK_ALL = frozenset("about tell me you know can could would what anything everything say said is there do does did "
                     "i we have has remember recall notes my our the a an and of us please".split())


def question_subject(question: str) -> str | None:
    """The name `question` is about: its only name, used as subject, possessor or topic; else None."""
    names = all_names(question)
    if len(names) != 1:
        return None
    n = re.escape(names[0])
    if re.search(rf"\b{_AUX}\s+{n}\b|\b{n}(?:'s|’s)|\b{n}\s+{_VERB_AFTER}\b", question, re.IGNORECASE) \
            or (re.search(rf"\babout\s+{n}\b", question, re.IGNORECASE)  # and more than everything ("… and the boiler")
                and any(w.lower() not in _ASK_ALL for w in re.findall(r"[^\W\d_]+", strip_name(question, names[0])))):
        return names[0]
    return None


def strip_name(question: str, name: str) -> str:
    """`question` without `name` (and its possessive 's), spaces collapsed."""
    return re.sub(r"\s+", " ", name_pattern(name).sub(" ", question)).strip()


def _words(name: str) -> list[str]:
    """The lower-cased words of `name` of two letters or more."""
    return [w.lower() for w in re.findall(r"\w+", name) if len(w) >= 2]


def names(text: str, name: str) -> bool:
    """Whether `text` holds a word of `name`, whole, any case; not a word but the last before another
    capitalised word ("Maria Lopez" does not name Maria Chen; "Chen", "Maria said" do). Never raises."""
    words = _words(name)
    if not words or not text:
        return False
    for i, w in enumerate(words):
        for m in re.finditer(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.IGNORECASE):
            if i < len(words) - 1:
                nxt = re.match(r"[ \t]+(\w+)", text[m.end():])
                if nxt and nxt.group(1)[:1].isupper() and nxt.group(1).lower() != words[i + 1]:
                    continue  # another person's full name
            return True
    return False


def is_name_title(title: str) -> bool:
    """True for a title of one to four capitalised words without digits ("Priya Raman")."""
    words = title.split()
    return 0 < len(words) <= 4 and all(w[:1].isupper() and not any(c.isdigit() for c in w) for w in words)


def about_subject(name: str, speakers: list[str] = ()):
    """`(hit, sentence) -> bool`: False for a note's sentence not naming `name` in a note titled
    with another name, and for a chat message not naming it when it is no speaker's (its first word and a
    speaker's of 3+ letters, neither starting the other: "Mel" is Melanie)."""
    words = _words(name)
    first, firsts = (words[0] if words else ""), [sp.split()[0].lower() for sp in speakers if sp.split()]
    check_chat = bool(words) and not (len(first) >= 3 and any(
        len(f) >= 3 and (f.startswith(first) or first.startswith(f)) for f in firsts))

    def about(hit: Hit, sentence: str) -> bool:
        if not words:
            return True
        if hit.speaker is not None:
            return not check_chat or names(hit.text, name)
        title = hit.title or ""
        return not is_name_title(title) or names(title, name) or names(sentence, name)
    return about
