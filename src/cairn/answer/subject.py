"""Who a question is about, and which note sentences are about them.

"What does Jonas do for a living?" is about Jonas. Retrieval already found the notes that
name him; inside them, the sentence that answers often does not repeat the name ("He is a
pastry chef at Café Kandler."), while sentences that do ("Jonas Weber lives in Leipzig.")
match the question on the name alone. So, for a question about one named subject, the
extractive answer scores sentences against the question without the name (`strip_name`),
and does not quote a note's sentence that is about someone else (`about_subject`): a
sentence of a note whose title is another name ("Priya Raman", "Project Heron"), that
does not mention the subject either. Chat messages are left to the person check
(answer/answerability.py), which reads their subject from who wrote them.

The subject is a name (answer/premise.all_names) that the question uses as its grammatical
subject or possessor, or names as its topic: "does Jonas…", "is Lena…", "Priya's husband",
"Jonas likes…", "Tell me about Tom Weber and the boiler". A
name used otherwise ("the Ghent sensor project", "a trip to Rome") makes no subject: a
place named as a modifier is no reason to drop a sentence. Heuristic over capitalisation
and word order, not a parser.

Two speaker rules for questions that name no participant (`speaker_filter`): a question in
the first person singular ("my dentist appointment") asks about the notes' owner, so a chat
speaker's first-person sentence answers it only when nothing else does (`not_speakers_own`;
the owner is not known to be any speaker, and may be one); and "What did Omar say…" takes only Omar's own messages and sentences
reporting him speaking (`said_by`). Measured in bench/README.md (session 13, branch held13).
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


# First person singular: the owner of the notes, in a question ("When is my next dentist
# appointment?"); the writer, in a chat message ("I have the dentist").
_FIRST_SINGULAR_ANY_CASE = re.compile(r"(?<![\w'’])(?:i|i['’](?:m|ve|ll|d)|me|my|mine|myself)(?![\w'’])",
                                      re.IGNORECASE)


def asks_about_owner(question: str) -> bool:
    """True when `question` is in the first person singular ("When is my next dentist
    appointment?", "What did I lend Tom?"): it asks about the person whose notes these are.
    "I" counts only as a capital (a lone lower-case "i" is rarely the pronoun in a question
    written with care, and "i.e." is not); me/my/mine/myself in any case."""
    return bool(re.search(r"(?<![\w'’])I(?:['’](?:m|ve|ll|d))?(?![\w'’.])", question)
                or re.search(r"(?<![\w'’])(?:me|my|mine|myself)(?![\w'’])", question, re.IGNORECASE))


def not_speakers_own(owner: str | None = None):
    """`(hit, sentence) -> bool` for a question about the notes' owner (`asks_about_owner`):
    False for a chat message's sentence in the first person singular by a speaker other than
    `owner` (a name, or None when the owner is not known: then every speaker's) - "I have the
    dentist" by Priya is Priya's appointment, not the owner's. True for notes (the owner's own
    writing) and for chat sentences not in the first person ("Your check-up moved to Monday")."""
    own = _words(owner) if owner else []

    def about(hit: Hit, sentence: str) -> bool:
        if hit.speaker is None or not _FIRST_SINGULAR_ANY_CASE.search(sentence):
            return True
        return bool(own) and _is_speaker(own, [hit.speaker])
    return about


SPEECH_VERBS = (r"(?:say|said|says|tell|told|tells|mention|mentioned|mentions|write|wrote|writes|reply|replied|"
           r"ask|asked|suggest|suggested|text|texted|message|messaged|promise|promised|share|shared)")
_NAME = r"([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2})"


def speaker_asked(question: str) -> str | None:
    """The name X of a question about what X said ("What did Omar say about Christmas
    lunch?", "What has Priya told me about the car?", "Did Tom mention the fence?"), or None:
    a capitalised name directly after did/does/do/has/had, followed by a verb of saying."""
    m = re.search(rf"\b(?i:did|does|do|has|had|have)\s+{_NAME}\s+(?:ever\s+|just\s+|last\s+)?{SPEECH_VERBS}\b", question)
    if not m or m.group(1) in ("I", "We", "You"):
        return None
    return m.group(1)


def said_by(name: str):
    """`(hit, sentence) -> bool` for a question about what `name` said (`speaker_asked`): True
    for a chat message written by them (`_is_speaker`: first words sharing a prefix of 3+
    letters, "Mel" for Melanie) and for a sentence of a note or of anyone's message that
    reports them speaking (their name, as `names` reads it, and after it a verb of saying, or
    their name and a colon: "Omar said he would bring wine", "Kwik says it was the heat
    shield", "Omar: bring wine"); False for everything else, so a sentence that only names
    them ("Lena and Omar come for lunch") or another speaker's own news is not quoted as what
    they said."""
    words = _words(name)
    first = re.escape(words[0]) if words else ""
    reported = re.compile(rf"\b{first}\b(?:\s+\w+){{0,2}}\s*(?::|\b{SPEECH_VERBS}\b)", re.IGNORECASE)

    def about(hit: Hit, sentence: str) -> bool:
        if not words:
            return True
        if hit.speaker is not None and _is_speaker(words, [hit.speaker]):
            return True
        return names(sentence, name) and bool(reported.search(sentence))
    return about


def speaker_filter(question: str, subject: str | None, hypothetical: bool, said_on: bool = True,
                   owner_on: bool = True):
    """(name or None, said filter or None, owner filter or None): the speaker rules for
    `question`, each filter `(hit, sentence) -> bool`. With `said_on`, for a question about
    what someone said (`speaker_asked`; not a hypothetical), their name and `said_by`; with
    `owner_on`, for a first-person question with no named `subject` (`asks_about_owner`),
    `not_speakers_own(None)` (the owner is not known): answer_question drafts with it first
    and without it when that finds nothing, so the notes, surely the owner's, answer "my"
    questions before any speaker's "I", and a chat message still answers when nothing else does."""
    said = speaker_asked(question) if said_on and not hypothetical else None
    mine = not_speakers_own(None) if owner_on and not subject and asks_about_owner(question) else None
    return said, (said_by(said) if said else None), mine


def both(first, second):
    """`(hit, sentence) -> bool` true when both filters (None: no filter) accept."""
    if first is None:
        return second
    return lambda hit, sentence: first(hit, sentence) and second(hit, sentence)
