"""The text side of the knowledge answer (ops/knowledge.py): what a question is about, which
names it holds, which lines of a note speak of a subject, and how a source is worded.

Plain functions over strings, no I/O:

- `profile_subject(question)`: "who is Jo Price?", "what do you know about my sister?",
  "what did I note about the boiler?", "tell me about X" -> the subject ("Jo Price", "my
  sister", "boiler"); None for any other question (answered as a question).
- `split_question(q)`: the questions of a compound one ("... and what do I need to bring?").
- `names(text)`: the capitalised name runs of a text ("Jo Price", "Ana"), without sentence
  words ("The", "What"...), month and weekday names, a possessive "'s" removed.
- `focus(question_names, text)`: how much a text is about the question's names, in [0, 1]:
  matched / (asked + other names the text holds). 1 when the question names nobody. A note
  line "Leo (Ana's son): 23 November" is half about Ana for "when is Ana's birthday?"; the
  person's own "my sister Ana's birthday is 9 May" is wholly about her.
- `subject_lines(body, terms, names, title_match)`: the lines of a note that speak of the
  subject (or its first lines when the note's title is the subject).
- `said_on(iso, now)`: "6 December" ("6 December 2025" in another year), in local time.
"""

from __future__ import annotations

import re
from datetime import datetime

from cairn.lexical import IRREGULAR, content_terms, stem

# Month and weekday names are not names of people or things (English, as the answer layer's).
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


_LEAD = r"(?:(?:so|and|ok|okay|hey|please|cairn|now)[,\s]+)*"
_PROFILE = re.compile(
    r"^\s*" + _LEAD + r"(?:can\s+you\s+)?(?:"
    r"who\s+(?:is|was|are)|who's|"
    r"what\s+do\s+(?:you|i|we)\s+know\s+about|what\s+(?:else\s+)?(?:do\s+you|can\s+you)\s+(?:remember|tell\s+me)\s+about|"
    r"what\s+(?:do|did|have)\s+(?:i|my\s+notes|the\s+notes)\s+(?:say|said|note|noted|write|written|wrote|"
    r"keep|kept|have|got|jot|jotted)(?:\s+down)?\s+(?:about|on|regarding)|"
    r"what\s+(?:notes\s+)?(?:have\s+i\s+got|do\s+i\s+have)\s+(?:about|on)|"
    r"tell\s+me\s+(?:everything\s+|all\s+|more\s+)?(?:you\s+know\s+)?(?:about|of)|"
    r"anything\s+(?:about|on))\s+(?P<s>.+?)\s*[?.!]*\s*$", re.I)
_DETERMINER = re.compile(r"^(?:the|a|an|this|that)\s+", re.I)
_CAPS_RUN = re.compile(r"\b[A-Z][\w’'-]*(?:\s+[A-Z][\w’'-]*)*")
_NOT_NAMES = {"i", "the", "a", "an", "it", "that", "this", "what", "when", "where", "who", "whose",
              "which", "how", "why", "me", "my", "we", "you", "your", "so", "and", "but", "ok", "okay",
              "please", "tell", "remind", "remember", "is", "was", "do", "did", "does", "can", "could",
              "would", "should", "will", "hi", "hey", "hello", "thanks", "note", "notes", "am", "pm"}
_NOT_NAMES |= set(_MONTHS) | set(_WEEKDAYS) | {m[:3] for m in _MONTHS} | {d[:3] for d in _WEEKDAYS}
_POSSESSIVE = re.compile(r"['’]s?$")
_PRONOUN = re.compile(r"\b(it|he|she|they|him|her|them|his|its|their)\b", re.I)
_NOT_A_NOUN_AFTER = re.compile(r"\s*(?:$|[?.!,;]|(?:to|about|for|at|on|in|with|from|and|or|if|when|that|again|up|"
                               r"back|out|off|now|today|tomorrow)\b)", re.I)


# a thing named before a possessive pronoun in the same question may be what it stands for ("does
# the dog have his flea treatment": the dog's): the pronoun is then left, the subject appended
_ANTECEDENT = re.compile(r"\b(?:[Tt]he|[Mm]y|[Aa]n?|[Oo]ur|[Yy]our)\s+\w+|(?<=\s)[A-Z][a-z]+\b")


def _possessive(m: re.Match) -> bool:
    """Whether the pronoun matched stands before its thing ("his number", "her car", "its
    filter"): "his", "its", "their" always; "her" when a noun follows, not a preposition or the end."""
    w = m.group(0).lower()
    return w in ("his", "its", "their") or (w == "her" and not _NOT_A_NOUN_AFTER.match(m.string[m.end():]))


def profile_subject(question: str) -> str | None:
    """The subject of a "who is X" / "what do you know about X" / "what did I note about X"
    / "tell me about X" question, without a leading article; None for other questions."""
    m = _PROFILE.match(question or "")
    if not m:
        return None
    if _WHO_DOES.search(question[:m.start("s")]) and (_ACTION.match(m.group("s")) or (
            WHO_HAS_PAST and _past_verb(m.group("s")))):
        return None  # "who is driving?", "who's got the kids?": asks who does something, not about a "driving"
    subject = _DETERMINER.sub("", m.group("s").strip(" \"'“”‘’")).strip()
    return subject or None


# "who is/was/are/'s" followed by what someone does or where they are, written in lower case
# ("who is driving?", "who's bringing snacks?", "who was invited?", "who is in charge of the
# keys?"): a question for a person's name, answered from the notes, not a profile of the words
# after it. A capitalised word ("who is Sterling?") or a noun ("who is the landlord?") still is one.
_WHO_DOES = re.compile(r"\bwho(?:\s+(?:is|was|are)|'s|’s)\s+$", re.I)
# "who's" before a verb's past form is "who has" ("who's got the kids on thursdays", "who's made the
# booking", "who's done the risk assessment"): the irregular past forms are a closed class
# (cairn.lexical.IRREGULAR), with the few spelled like their base ("put", "set", "cut") and "done",
# "left", "had", "been"; written in lower case ("who's Won?" names someone).
WHO_HAS_PAST = True  # switch: off, "who's got the kids" is again a profile of "got the kids"
_PAST_FORMS = frozenset(IRREGULAR) | {"done", "left", "had", "been", "put", "set", "cut", "let", "shut", "hit",
                                      "read"}


def _past_verb(rest: str) -> bool:
    """Whether `rest` (what follows "who is/'s") opens with a verb's past form in lower case."""
    first = re.match(r"[a-z]+\b", rest.strip())
    return bool(first) and first.group() in _PAST_FORMS


_ACTION = re.compile(r"(?-i:[a-z]+(?:ing|ed))\b(?<=\w{5})|(?:in|at|on|with|from|responsible|supposed|meant|"
                     r"allowed|able|going|coming)\b", re.I)


def with_subject(question: str, subject: str | None) -> str:
    """The question with its first pronoun ("it", "she"...) replaced by `subject` when the
    question does not already hold the subject's terms ("and when was it last serviced?",
    subject "boiler" -> "and when was the boiler last serviced?": _noun_phrase); else the question itself,
    with the subject appended in brackets when no pronoun stands for it."""
    if not subject or not content_terms(subject):
        return question
    own = {stem(t) for t in content_terms(question)}
    if {stem(t) for t in content_terms(subject)} <= own:
        return question
    m = _PRONOUN.search(question)
    if m and not (_possessive(m) and _ANTECEDENT.search(question[:m.start()])):
        return _PRONOUN.sub(lambda m: _noun_phrase(subject) + ("'s" if _possessive(m) else ""), question, count=1)
    return f"{question.rstrip(' ?.!')} ({subject})?"


_HAS_DETERMINER = re.compile(r"^(?:the|a|an|my|your|our|his|her|their|its|this|that|these|those)\b", re.I)


def _noun_phrase(subject: str) -> str:
    """`subject` as it can stand where a pronoun stood: a common noun written in lower case
    gets "the" ("boiler" -> "the boiler"), as English needs a determiner there; a name
    (any capital letter) or a phrase with its own determiner is kept."""
    s = subject.strip()
    if s and s == s.lower() and not _HAS_DETERMINER.match(s):
        return "the " + s
    return s


_SPLIT = re.compile(r"\s*(?:,\s*and|;|,|\band(?: also)?)\s+(?=(?:what|what's|when|where|who|whom|which|how|why|"
                    r"is|are|do|does|did|can|will|has|have)\b)", re.I)


def split_question(question: str) -> list[str]:
    """The questions of a compound one, each ending in "?": "when is the appointment and
    what do I need to bring?" -> ["when is the appointment?", "what do I need to bring?"].
    A split happens only before a question word after "and", a comma or a semicolon; a part
    of fewer than two words is not split off."""
    parts = [p.strip(" ,;?") for p in _SPLIT.split(question.strip())]
    parts = [p for p in parts if p]
    if len(parts) < 2 or any(len(p.split()) < 2 for p in parts):
        return [question]
    return [p + "?" for p in parts]


_ASKING = re.compile(r"^\s*(?:what|what's|when|where|who|which|how|why)(?:\s+(?:is|are|was|were|do|does|did|'s|will|"
                     r"can|should))?\s+", re.I)


def topic(question: str) -> str | None:
    """What a question asks about, without its question words: "when is my doctor's
    appointment?" -> "my doctor's appointment"; None when nothing is left."""
    rest = _ASKING.sub("", question.strip()).strip(" ?.!")
    return rest if content_terms(rest) else None


# The one list of discourse markers a message may open with before what it asks ("ok so when ...",
# "fine what's her number", "hmm where ..."), and the links a follow-up opens with ("and how often ...").
# OPENING (is_question, ops.knowledge._ASKED) allows both before a question word; the assistant strips the
# markers (not the links) off a question before looking it up (assistant.understood.plain_question).
OPENERS = ("ok", "okay", "k", "so", "right", "fine", "alright", "cool", "well", "hmm+", "um+", "er+", "oh",
           "go on then", "ah", "aha")
LINKS = ("and", "but", "also", "then")
OPENING = r"(?:(?:" + "|".join(LINKS + OPENERS) + r")\b[\s,]*)*"
_QUESTION = re.compile(r"\?\s*$|^\s*" + OPENING + r"(?:what|what'?s|when'?s?|where'?s?|who'?s?|whose|which|how'?s?|why|"
                       r"is|are|was|were|do|does|did|can|could|will|would)\b", re.I)


def is_question(text: str) -> bool:
    """Whether `text` asks (a question mark at its end, or a question word first): a
    question the person asked earlier is no evidence of its answer."""
    return bool(_QUESTION.search(text or ""))


def same_words(a: str, b: str) -> bool:
    """Whether `a` and `b` are the same words whatever their case, punctuation and spacing
    ("whats the wifi password" / "What's the wifi password?"): the message logged as a turn
    began and the question it became."""
    return re.sub(r"\W+", "", a.lower()) == re.sub(r"\W+", "", b.lower())


def has_pronoun(text: str) -> bool:
    """True when `text` holds a third-person pronoun ("it", "she", "them"...)."""
    return bool(_PRONOUN.search(text))


def names(text: str) -> list[str]:
    """Capitalised name runs of `text`, in order, deduplicated ("Jo Price", "Ana"): the
    words of each run that are not sentence words, months or weekdays; a possessive "'s"
    is removed. Lower-case text holds no names."""
    out: list[str] = []
    for m in _CAPS_RUN.finditer(text or ""):
        words = [_POSSESSIVE.sub("", w) for w in m.group(0).split()]
        kept = [w for w in words if w and w.lower() not in _NOT_NAMES and not w.isupper()]
        if kept:
            name = " ".join(kept)
            if name not in out:
                out.append(name)
    return out


def _name_keys(found: list[str]) -> set[str]:
    return {w.lower() for n in found for w in n.split()}


def focus(asked: list[str], text: str) -> float:
    """How much `text` is about the names `asked` (from the question), in [0, 1]:
    matched / (asked + names of the text not asked), over single name words, so "Jo" in a
    text matches "Jo Price" asked. 1.0 when nothing is asked."""
    want = _name_keys(asked)
    if not want:
        return 1.0
    have = _name_keys(names(text))
    matched = len(want & have)
    return matched / (len(want) + len(have - want))


_KIN = {w: g for g, words in enumerate((
    "son boy lad", "daughter girl", "mum mother mom mam mummy", "dad father daddy", "sister sis", "brother bro",
    "wife", "husband", "partner boyfriend girlfriend fiance fiancee", "gran granny grandma grandmother nan nana",
    "grandad grandpa grandfather", "aunt auntie", "uncle", "cousin", "niece", "nephew", "youngest", "eldest oldest",
    "kid kids child children little", "baby", "neighbour neighbor", "boss manager", "landlord landlady")) for w in words.split()}
_MY_KIN = re.compile(r"\bmy\s+(?:(?:little|younger|older|big|baby|twin|step|half)[\s-]+)?(\w+)", re.I)


def kin(text: str) -> set[int]:
    """The people of the person's own circle `text` names as "my <relation>" ("my sister", "my
    youngest", "my lad", "my little one"), as groups of words for the same relation (son / boy
    / lad are one): a question and a statement naming the same one speak of the same person."""
    return {_KIN[m.group(1).lower()] for m in _MY_KIN.finditer(text) if m.group(1).lower() in _KIN} | (
        {_KIN["little"]} if re.search(r"\bmy\s+little\s+one\b", text, re.I) else set())


def subject_terms(subject: str) -> set[str]:
    """The stemmed content terms of a subject ("my sister" -> {"sister"})."""
    return {stem(t) for t in content_terms(subject)}


def mentions(line: str, terms: set[str], wanted_names: list[str]) -> bool:
    """True when `line` holds one of the stemmed `terms` or one of the names' words."""
    words = {stem(t) for t in content_terms(line)}
    if terms & words:
        return True
    low = line.lower()
    return any(re.search(r"\b" + re.escape(w.lower()) + r"\b", low) for n in wanted_names for w in n.split()
               if len(w) > 1)


def body_lines(body: str) -> list[str]:
    """The content lines of a note body: headings, front matter rules and empty lines
    removed, list markers stripped."""
    out = []
    for line in (body or "").splitlines():
        s = line.strip()
        if not s or s.startswith("#") or s == "---":
            continue
        out.append(re.sub(r"^(?:[-*+]|\d+[.)])\s+", "", s))
    return out


def subject_lines(body: str, terms: set[str], wanted_names: list[str], title_match: bool,
                  limit: int = 3) -> list[str]:
    """Up to `limit` lines of a note speaking of the subject: those mentioning its terms or
    names; when the note's title is the subject (`title_match`) and no line names it, its
    first lines (the note is wholly about it)."""
    lines = body_lines(body)
    hits = [ln for ln in lines if mentions(ln, terms, wanted_names)]
    if title_match and len(hits) < limit:
        hits += [ln for ln in lines if ln not in hits][:limit - len(hits)]
        hits = [ln for ln in lines if ln in hits]  # the note's own order
    return hits[:limit]


def said_on(iso: str | None, now: datetime) -> str:
    """A stored time as the person says a day: "6 December", with the year when it is not
    `now`'s year; "" for no or an unreadable time. Local time of `now`'s zone."""
    if not iso:
        return ""
    try:
        t = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return ""
    if t.tzinfo is not None and now.tzinfo is not None:
        t = t.astimezone(now.tzinfo)
    day = f"{t.day} {t:%B}"
    return day if t.year == now.year else f"{day} {t.year}"


# "what is my daughter called?", "what's the dog named?": the verb asks for a name, it is no
# term to match ("called" stems to "call", and "call Ana" held half of the question's terms).
_NAMING = re.compile(r"^(?P<head>\s*(?:what|how)\b.*?\b(?:is|are|was|were|'s|’s)\b.+?)\s+(?:called|named)(?P<tail>\s*[?.!]*\s*)$",
                     re.I)


def overlap(question: str, text: str) -> float:
    """Share of the question's stemmed content terms found in `text` (0 when it has none). The
    naming verb of "what is X called / named?" is no term (`_NAMING`)."""
    question = _NAMING.sub(r"\g<head>\g<tail>", question)
    q = {stem(t) for t in content_terms(question)}
    if not q:
        return 0.0
    return len(q & {stem(t) for t in content_terms(text)}) / len(q)
