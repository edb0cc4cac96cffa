"""Conversation state: what the session last spoke of, so "it", "she" and "and the garden?"
mean something. Rebuilt from the session log (events of type "nlu", one a turn), so it
survives `--session` resumes and restarts.

    nlu event: {"type": "nlu", "turn", "text", "resolved", "resolution": [...], "actions":
                [{"intent", "score", "slots"}], "subject", "note", "person", "answer"}

`resolve(text, state)` rewrites a follow-up into a standalone message: an ellipsis ("and the
garden?", "what about Leo?") becomes the last question with its subject replaced, unless it
asks only for a kind of value ("and the address?", "what about the ref?": replies.value_kind),
which becomes "what is the address?" asked of the last note (VALUE_OF_NOTE), or follows a
question answered from a note ("and the one back?" after "what time's the ferry …"), which
asks that question's kind of the note's other thing (OTHER_OF_NOTE: "what time is the one
back?"); a leading
"and" is dropped; pronouns are left in place and the subject is passed on (the knowledge answer
substitutes it, cairn.ops.knowledge_text.with_subject), while note actions use the last note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ELLIPSIS = re.compile(r"^(?:and|what about|how about|and what about|and how about)\s+(?P<x>[^?]{1,40}?)\s*\??$", re.I)
_PERSON_PRONOUN = PERSON_PRONOUN = re.compile(r"\b(?:she|her|hers|he|him|his)\b", re.I)
# "they" / "them" of a follow-up stand for the last subject too ("when do they finish?" after the
# rota's night shifts); a person's "they" is rarer in a follow-up without a name
_THING_PRONOUN = re.compile(r"\b(?:it|its|that one|this one|there|they|them)\b", re.I)
# a bare "that" ending a question stands for the last subject too ("where's that again?", "how much was that?")
_BARE_THAT = re.compile(r"^(?:what|when|where|who|which|how)\b.*\s(?:that|this)(?:\s+(?:again|then|exactly|now))?"
                        r"\s*[?.!]*\s*$", re.I)


# A pronoun means the most recent antecedent that fits (nlu/antecedent.py: gender, person or thing, the current
# topic) rather than the last person named / the last subject however long ago. Switch off: ANTECEDENT.
ANTECEDENT = True
_WH = re.compile(r"(?:what|which|where|who|when|how)(?:'s|s|\s+is|\s+are)?\b", re.I)
VALUE_OF_NOTE = "a value of the last note"  # how an ellipsis asking only for a kind of value is resolved
OTHER_OF_NOTE = "the last question's kind, of another thing of the last note"  # "and the one back?"
# A lower-case ellipsis after a question answered from a note, the last subject being that note or
# no word of the question, asks the last question's kind ("what time", "how long") of the
# other thing it names ("and the one back?" -> "what time is the one back?"), of that note; the line
# the last turn quoted is then the one NOT meant (replies.typed_sentences' `avoid`). A capitalised
# ellipsis ("and Leo?") names a new subject and is asked about as before. Switch off: ELLIPSIS_KEEPS_ASK.
ELLIPSIS_KEEPS_ASK = True
_HEAD_TWO = re.compile(r"^\W*(?:and\s+)?(?P<h>(?:what|which)\s+(?:time|day|date|year|month|size|colour|color|number)|"
                       r"how\s+(?:long|much|many|often|far|old|big|heavy|early|late))\b", re.I)
_HEAD_ONE = re.compile(r"^\W*(?:and\s+)?(?P<h>when|where|who|whose)\b", re.I)


# An ellipsis that is only a new question head ("and for how many?", "and how long?", "and by
# when?") asks that of the last question's thing: the last question with its head replaced ("how
# much is the buffet for the party" -> "for how many is the buffet for the party?"). Switch off:
# ELLIPSIS_NEW_HEAD.
ELLIPSIS_NEW_HEAD = True
_ONLY_HEAD = re.compile(r"^(?P<p>(?:for|by|at|from|until|till|on|in|to)\s+)?(?P<h>(?:what|which)\s+(?:time|day|date|year|"
                        r"month|size|colour|color|number)|how\s+(?:long|much|many|often|far|old|big|heavy|early|late)|"
                        r"when|where|who|whose)(?:\s+(?:then|exactly|again|though))?$", re.I)


NEW_HEAD = "a new head of the last question"  # how an ellipsis of only a question head is resolved


def only_head(text: str) -> str | None:
    """The question head an ellipsis consists of ("and for how many?" -> "for how many?"),
    None when `text` is no such ellipsis."""
    m = _ELLIPSIS.match(" ".join(text.strip().split()))
    return f"{m.group('x').strip()}?" if m and _ONLY_HEAD.match(m.group("x").strip().rstrip(" ?")) else None


def new_head(x: str, question: str | None) -> str | None:
    """The last `question` asked again with the head of the ellipsis `x` ("for how many" after
    "how much is the buffet for the party" -> "for how many is the buffet for the party?");
    None when `x` is more than a question head (with a preposition) or the last question has no
    head of its own (_ask_head)."""
    m = _ONLY_HEAD.match(x.strip().rstrip(" ?"))
    old = _ask_head(question)
    if not m or not old or not question:
        return None
    hm = _HEAD_TWO.match(question) or _HEAD_ONE.match(question)
    rest = question[hm.end("h"):].strip().rstrip(" ?")
    rest = re.sub(r"^(?:'s|’s)\s*", "is ", rest)
    new = f"{m.group('p') or ''}{m.group('h')}".strip()
    return f"{new} {rest}?" if rest else None


def _ask_head(question: str | None) -> str | None:
    """The words of `question` saying what kind of thing it asks ("what time's the ferry …" ->
    "what time", "how long do I leave …" -> "how long", "where's …" -> "where"); None for a
    question without one ("what's the …", "is it …")."""
    m = _HEAD_TWO.match(question or "") or _HEAD_ONE.match(question or "")
    return m.group("h").lower() if m else None


@dataclass
class ConversationState:
    """The last `subject` (a thing or note spoken of), `note` (title of the last note read or
    changed), `person` (the last person named), `question` (the last question asked, resolved)
    and `answer` (the last reply's first line), of one session."""

    subject: str | None = None
    note: str | None = None
    person: str | None = None
    question: str | None = None
    answer: str | None = None
    turns: list[dict] = field(default_factory=list)

    def antecedent(self, pronoun: str) -> str | None:
        """What a she/he form (`pronoun`) stands for over the session's turns (nlu/antecedent.pick:
        the most recent mention of a fitting gender, within the current topic), or None."""
        from cairn.assistant.nlu.antecedent import pick
        return pick(pronoun, self.turns or [self.to_json()])  # a state built by hand: its fields as one turn

    def apply(self, e: dict) -> None:
        """Fold one "nlu" event in."""
        for k in ("subject", "note", "person", "question", "answer"):
            if e.get(k):
                setattr(self, k, e[k])
        self.turns.append(e)

    def to_json(self) -> dict:
        return {"subject": self.subject, "note": self.note, "person": self.person,
                "question": self.question, "answer": self.answer}


def load(store, sid: str) -> ConversationState:
    """The state of session `sid` from its log (an empty state for an unknown/empty one, and
    for an incognito session: a MemorySessionStore keeps no log). The "nlu" events come from
    the session's folded state (SessionState.nlu), so a turn does not read the log again."""
    from cairn.assistant.sessions import MemorySessionStore
    st = ConversationState()
    if not sid or isinstance(store, MemorySessionStore):
        return st
    try:
        events = store.load(sid).nlu
    except Exception:
        return st
    for e in events:
        st.apply(e)
    return st


def turns_of(store, sid: str) -> list[dict]:
    """Each turn's understanding ("nlu" events without seq/at/type), for `chat --why`."""
    return [{k: v for k, v in e.items() if k not in ("seq", "type")} for e in load(store, sid).turns]


REMINDER_INTENTS = frozenset({"remind", "reminder_correct", "reminder_snooze", "reminder_move"})


def just_set_reminder(st: ConversationState) -> bool:
    """Whether the session's last turn set, corrected or moved a reminder (an action of one of
    REMINDER_INTENTS whose slots name the reminder or its time): a bare day or time in the
    next message ("no, I meant Friday") is then a correction of it."""
    if not st.turns:
        return False
    return any(a.get("intent") in REMINDER_INTENTS and (a.get("slots") or {}).keys() & {"reminder", "at", "every", "until"}
               for a in st.turns[-1].get("actions", []))


def last_reminder_task(st: ConversationState) -> str:
    """The task of the reminder the session's latest reminder action was about ("pay the club
    fees"); "" when no turn set, moved or asked about one."""
    return next(((a.get("slots") or {}).get("text") or "" for e in reversed(st.turns) for a in
                 reversed(e.get("actions", [])) if a.get("intent") in REMINDER_INTENTS), "")


def has_pronoun(text: str) -> bool:
    """Whether `text` holds a pronoun a follow-up may use ("it", "she", "his", ...)."""
    return bool(_THING_PRONOUN.search(text) or _PERSON_PRONOUN.search(text) or _BARE_THAT.search(text.strip()))


def resolve(text: str, st: ConversationState) -> tuple[str, list[str], str | None]:
    """(standalone text, what was resolved (human-readable), the subject to pass on)."""
    t = " ".join(text.strip().split())
    how: list[str] = []
    m = _ELLIPSIS.match(t)
    if m and st.note and len(m.group("x").split()) <= 6:  # "and the address?": a kind of value, of the last note
        from cairn.assistant.nlu.replies import value_kind
        x = re.sub(r"^(?:the|my|a|an|your|its|their)\s+", "", m.group("x").strip(), flags=re.I)
        # "and what's the flight number": already a question, asked as it is; "and the address?": made one
        t2 = f"{x.rstrip(' ?')}?" if _WH.match(x) else f"what is the {x}?"
        if value_kind(t2):
            how.append(f"{VALUE_OF_NOTE}: {text.strip()!r} -> {t2!r} (last note {st.note!r})")
            return t2, how, None
    if m and ELLIPSIS_NEW_HEAD and (t2 := new_head(m.group("x"), st.question)):
        how.append(f"{NEW_HEAD}: {text.strip()!r} -> {t2!r} (last question {st.question!r})")
        return t2, how, st.subject
    if (m and st.question and len(m.group("x").split()) <= 5
            and not re.match(r"(?:what|when|where|who|which|how|why|is|are|was|were|do|does|did|can)\b", m.group("x"), re.I)
            and not _THING_PRONOUN.search(m.group("x")) and not _PERSON_PRONOUN.search(m.group("x"))):
        x = re.sub(r"^(?:the|my|a|an|your)\s+", "", m.group("x").strip(), flags=re.I)
        old = st.subject or ""
        head = _ask_head(st.question)
        named = bool(old) and bool(re.search(re.escape(old), st.question, re.I))
        if (ELLIPSIS_KEEPS_ASK and st.note and head and not x[:1].isupper()
                and (not named or old.casefold() == st.note.casefold())):
            # "and the one back?" after "what time's the ferry over to Carrow" (answered from the trip's
            # note): the same kind of thing asked of the other thing the note says, "what time is the one back?"
            t2 = f"{head} is {m.group('x').strip().rstrip(' ?')}?"
            how.append(f"{OTHER_OF_NOTE}: {text.strip()!r} -> {t2!r} (last question {st.question!r}, "
                       f"last note {st.note!r})")
            return t2, how, None
        if named:
            t2 = re.sub(re.escape(old), x, st.question, count=1, flags=re.I)
        else:
            t2 = f"what do you know about {x}?"
        how.append(f"ellipsis: {text.strip()!r} -> {t2!r} (last question {st.question!r})")
        return t2, how, x
    if re.match(r"^and\s+", t, re.I):
        t = re.sub(r"^and\s+", "", t, flags=re.I)
        how.append("a follow-up: leading 'and' dropped")
    subject = None
    if (_THING_PRONOUN.search(t) or _BARE_THAT.search(t)) and (st.subject or st.note):
        from cairn.assistant.nlu.antecedent import pick_thing
        subject = (pick_thing(st.turns) if ANTECEDENT else None) or st.subject or st.note
        how.append(f"'it' = {subject!r} (the last thing spoken of)")
    elif (p := _PERSON_PRONOUN.search(t)) and (subject := st.antecedent(p.group(0)) if ANTECEDENT else st.person):
        how.append(f"'{p.group(0)}' = {subject!r} (the most recent antecedent that fits)")
    return t, how, subject
