"""Who a question is about, and which note sentences are about them.

"What does Jonas do for a living?" is about Jonas. Inside the notes that name him, the
sentence that answers often does not repeat the name ("He is a pastry chef at Café
Kandler."), while sentences that do match on the name alone. So for a question about one
named subject the extractive answer scores sentences against the question without the name
(`strip_name`), and quotes no note sentence about someone else (`about_subject`: a sentence
of a note titled with another name, "Priya Raman", "Project Heron", that does not mention the
subject either). Chat messages are the person check's (answer/answerability.py).

The subject is a name (premise.all_names) the question uses as its subject or possessor, or
names as its topic: "does Jonas…", "Priya's husband", "Jonas likes…", "Tell me about Tom
Weber and the boiler"; not a name used otherwise ("the Ghent sensor project", "a trip to
Rome"). A heuristic over capitalisation and word order, not a parser. (The speaker rules
"What did Omar say…" and "my dentist" changed nothing on the dev sets: removed, issue 33.)
"""

from __future__ import annotations

import re

from cairn.answer.answerability import name_pattern
from cairn.answer.premise import all_names
from cairn.model import Hit

_AUX = r"(?:does|did|do|is|was|are|were|has|had|have|can|could|will|would|should)"
_VERB_AFTER = r"(?:is|was|has|had|does|did|likes?|loves?|hates?|lives?|works?|wants?|needs?|thinks?|said|says)"


# Words of a question that asks for everything about someone ("Tell me about Lisa", "What do
# you know about Tom?"): with only these left once the name is taken out, the name is the
# whole topic, not the subject of a more specific question.
_ASK_ALL = frozenset("about tell me you know can could would what anything everything say said is there do does did "
                     "i we have has remember recall notes my our "
                     "the a an and of us please".split())


def _asks_more(question: str, name: str) -> bool:
    """Whether `question` asks something about `name` beyond "everything about them"
    ("Tell me about Tom Weber and the boiler": the boiler)."""
    rest = name_pattern(name).sub(" ", question)
    return any(w.lower() not in _ASK_ALL for w in re.findall(r"[^\W\d_]+", rest))


def question_subject(question: str) -> str | None:
    """The name `question` is about (module doc): its only name, when the question uses it
    as subject or possessor; None when it names none, several, or uses it otherwise."""
    names = all_names(question)
    if len(names) != 1:
        return None
    n = re.escape(names[0])
    if re.search(rf"\b{_AUX}\s+{n}\b|\b{n}(?:'s|’s)|\b{n}\s+{_VERB_AFTER}\b", question, re.IGNORECASE) \
            or (re.search(rf"\babout\s+{n}\b", question, re.IGNORECASE) and _asks_more(question, names[0])):
        return names[0]
    return None


def strip_name(question: str, name: str) -> str:
    """`question` without `name` (and its possessive 's), spaces collapsed."""
    out = name_pattern(name).sub(" ", question)
    return re.sub(r"\s+", " ", out).strip()


def _words(name: str) -> list[str]:
    return [w.lower() for w in re.findall(r"\w+", name) if len(w) >= 2]


def names(text: str, name: str) -> bool:
    """Whether `text` names `name`: one of its words (two letters or more) as a whole word,
    any case; except that a word of a name of two or more words, other than its last, does
    not count where a capitalised word other than the name's next one directly follows it:
    that is another person's full name ("Maria" in "Maria Lopez" does not name Maria Chen;
    "Maria Chen", "Chen" and "Maria said" do). Never raises for odd input."""
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
    """True for a note title that is a name: one to four words, each capitalised, no digits
    ("Priya Raman", "Project Heron"; not "Garden log", "Trip to Belgium", "2024 taxes")."""
    words = title.split()
    return 0 < len(words) <= 4 and all(w[:1].isupper() and not any(c.isdigit() for c in w) for w in words)


def _is_speaker(words: list[str], speakers: list[str]) -> bool:
    """True when the name is a chat participant's, or a short or long form of one ("Mel"
    for Melanie, "Johns" for John): first words sharing a prefix of 3+ letters."""
    if not words or len(words[0]) < 3:
        return False
    first = words[0]
    for sp in speakers:
        f = sp.split()[0].lower() if sp.split() else ""
        if len(f) >= 3 and (f.startswith(first) or first.startswith(f)):
            return True
    return False


def about_subject(name: str, speakers: list[str] = ()):
    """`(hit, sentence) -> bool`: False for a note's sentence (no speaker) that neither
    mentions `name` nor comes from a note titled with it (`names`: "Maria Lopez" is not
    Maria Chen), when that note's title is another name (`is_name_title`); and, when `name` is none of the chat's `speakers` (nor a short
    form of one), for a chat message that does not mention it ("I live in Utrecht" by Kai
    is not about Jonas; participants are the person check's business). Otherwise True."""
    words = _words(name)
    check_chat = bool(words) and not _is_speaker(words, list(speakers))

    def about(hit: Hit, sentence: str) -> bool:
        if not words:
            return True
        if hit.speaker is not None:
            return not check_chat or names(hit.text, name)
        title = hit.title or ""
        if not is_name_title(title) or names(title, name):
            return True
        return names(sentence, name)
    return about


def both(first, second):
    """`(hit, sentence) -> bool` true when both filters (None: no filter) accept."""
    if first is None:
        return second
    return lambda hit, sentence: first(hit, sentence) and second(hit, sentence)
