"""One message -> ordered actions: resolution against the conversation state, compound
splitting, intent classification.

    u = understand(embedder, "remind me at 6 to buy rice, and add rice to the Shopping note",
                   state, cache_dir)
    [a.intent for a in u.actions]   # ["remind", "note_append"]

A message is split at a conjunction (", and", "; ", " and then ", " and also ", " then ",
" and ") only when BOTH sides classify as ACTIONABLE intents (writes the person asks for) with
their score above the none threshold, or both as requests Cairn cannot do ("cannot_*") when
the whole message reads as one it cannot do. Two questions ("when is X and what do I bring?") are
two knowledge actions, the second answered with the first one's subject. A message read
weakly as a whole (below WEAK, or "none") whose last clause is a clear ACTIONABLE request
("I've rung the garage, so you can drop that reminder") is that request; so is a cancel or
snooze read as a whole, its preface kept as the context "that" may name; a first clause that is
the clearer request, the rest its reason ("cancel the bread one, I already took it out"), is the
request, the reason kept as its context — a reason that reads as no request ("done it already"
reads as a yes, "bought everything now" as a purchase) is no rival however sure, only a second
request or a "no" is; a statement ending in
a clause read as remember that points back ("…, can you hang on to that?") is a remember of
the statement, whatever the whole reads as (its question mark). Right after a reminder was
set, a short message saying a day or time that asks for nothing else that writes ("no, I meant
Friday not Thursday") is a correction of it (`reminder_correct`). A split needs its second half
to open like a request (`opens_request`), so a list's second item is not one. A statement
followed by a question pointing back at it ("the fig is dropping leaves again, what did I write
about it"), read weakly as a whole, is that question, its pronoun the statement's subject.
Otherwise the message is one action.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field

from cairn.assistant.nlu import classify as C
from cairn.assistant.nlu import state as S
from cairn.assistant.nlu import slots as SL
from cairn.assistant.nlu import times as T
from cairn.assistant.nlu.forms import as_which, correction, is_question, meant_value
from cairn.assistant.nlu.known import ordinary_words, possessives
from cairn.search.codewords import as_code_word
from cairn.search.misspelt import corrected
from cairn.assistant.nlu.spelling import normalise

MISSPELT = True  # a question's misspelt word put right by the notes' words (search/misspelt.py); switch off to compare
CODE_WORDS = True  # a question's "combo" / "passcode" asks for a code (search/codewords.py); switch off to compare
WHAT_NUMBER = True  # a question's "what number <noun>" asks which one (forms.as_which); switch off to compare
# A known person's possessive typed without its apostrophe ("whats linnets number") is written with it (known.possessives)
# when the caller gives the home's people: the name then reads as a name. Switch off: BARE_POSSESSIVE.
BARE_POSSESSIVE = True
# A request read confidently as one thing whose first clause alone reads more confidently as another request, the
# clause after it no request ("get rid of the bins one, the council came early": a reminder's cancel, not a note's
# delete of "council came early"), is that first request, the rest its reason. Switch off: REASON_AFTER.
REASON_AFTER = True
# A greeting opening a message ("hiya, when's the recycling collected", "morning! how much was the
# deposit") is no part of what it asks: the first clause, at most GREETING_WORDS words and read as small
# talk by the classifier on its own, is dropped when the rest (3+ words) is a question or reads as some
# intent; the rest is then understood alone (the whole read as a reminder or a purchase when a greeting
# opened it). Switch off: GREETING_FIRST.
GREETING_FIRST = True
GREETING_WORDS = 4
_FIRST_CLAUSE = re.compile(r"^\s*(?P<g>[^,.!?;:]{1,40}?)\s*[,.!;:]+\s+(?P<rest>\S.*)$", re.S)
ACTIONABLE = frozenset({"remember", "forget", "remind", "reminder_cancel", "reminder_snooze", "reminder_move", "note_create",
                        "note_append", "note_edit", "note_rename", "note_delete"})
KNOWLEDGE = frozenset({"ask", "about", "recall"})
REFERRING = frozenset({"reminder_cancel", "reminder_snooze", "reminder_move"})  # requests whose "that" a preface may name
_CONJ = re.compile(r"\s*(?:,\s*and\s+(?:then\s+|also\s+)?|;\s*|\s+and\s+then\s+|\s+and\s+also\s+|,\s*then\s+|\s+and\s+)", re.I)


@dataclass
class Action:
    """One thing to do: `intent`, the `text` it comes from, its classifier `prediction`, and
    the `context` (the preface of a prefaced request, else "")."""

    intent: str
    text: str
    prediction: C.Prediction
    context: str = ""  # the preface a request came with ("I've rung the garage"), what "that" may name

    def to_json(self) -> dict:
        return {"intent": self.intent, "text": self.text, **{k: v for k, v in self.prediction.to_json().items()
                                                            if k != "intent"}}


@dataclass
class Understanding:
    """The `actions` in order, the `resolved` text, `resolution` notes and the `subject` a
    pronoun stands for (None when none)."""

    text: str
    resolved: str
    actions: list[Action] = field(default_factory=list)
    resolution: list[str] = field(default_factory=list)
    subject: str | None = None
    topic: str | None = None  # an "and ...?" follow-up without a pronoun: the last note, which it may go on about
    earlier: str = ""  # the replies to the message's earlier parts, set as the assistant answers them

    def to_json(self) -> dict:
        return {"text": self.text, "resolved": self.resolved, "resolution": self.resolution,
                "subject": self.subject, "topic": self.topic, "actions": [a.to_json() for a in self.actions]}


_PREFACE = re.compile(r"\s*(?:,?\s+so\s+|[,;:.!]\s+|\s+-+\s+|\s*—\s*)", re.I)
WEAK = 0.35  # a whole message read with less confidence than this may be a preface and a request


_POINTS_BACK = re.compile(r"\b(?:that|this|it)\b(?:\s+(?:in mind|for me|for later|safe|please))*\s*[.!?]*$", re.I)


def _preface(text: str) -> tuple[str, str] | None:
    """(preface, request) of "I've rung the garage, so you can drop that reminder": the text
    cut at its last clause break (", so", a comma, a dash...); None when it has none."""
    cuts = [m for m in _PREFACE.finditer(text) if text[:m.start()].strip() and len(text[m.end():].split()) >= 2]
    if not cuts:
        return None
    m = cuts[-1]
    return text[:m.start()].strip(), text[m.end():].strip()


MAX_SPLITS = 8  # conjunctions tried as the seam of a compound request: each costs two classifications


def _splits(text: str) -> list[tuple[str, str]]:
    """(first half, second half) at each of the first MAX_SPLITS conjunctions of `text` ("...,
    and ...", "; ", "and then"); none in a text over 1,000 characters (a compound request is
    short: 5,600 "and"s of a 100 KB message were 11,200 classifications)."""
    if len(text) > 1000:
        return []
    return [(text[:m.start()].strip(), text[m.end():].strip()) for m in itertools.islice(_CONJ.finditer(text), MAX_SPLITS)
            if text[:m.start()].strip() and text[m.end():].strip()]


def _cannot(intent: str) -> bool:
    return intent.startswith("cannot_")


_NOT_OPENERS = frozenset("a an the some any one two three four five six seven eight nine ten".split())
# A possessive determiner opens a noun phrase as an article does: "add a travel adaptor and my reading glasses
# to the packing list" names two things to add, the second no request of its own (it opened three "remember"
# training lines, "my cat is called Pixel", so the message was cut and its second half stored as a memory).
# Switch off: POSSESSIVE_ITEMS.
POSSESSIVE_ITEMS = True
_POSSESSIVE_DET = frozenset("my our your his her their its".split())


@functools.lru_cache(maxsize=2)
def _openers(possessive_items: bool = True) -> frozenset[str]:
    """The words an ACTIONABLE training utterance opens with (after "please", "can you", ...),
    articles, numbers and (`possessive_items`) possessive determiners left out: the ways a
    request starts ("add", "remind", "I've", ...)."""
    from cairn.assistant.nlu.slots import strip_polite
    return frozenset(w[0].lower() for i, t in C.read_utterances() if i in ACTIONABLE
                     for w in [strip_polite(t).split()] if w) - _NOT_OPENERS - (
        _POSSESSIVE_DET if possessive_items else frozenset())


def opens_request(text: str) -> bool:
    """Whether `text` starts the way a request that writes starts (its first word, after the
    courtesies, opens some ACTIONABLE training utterance): "add eggs to ..." does, "AA
    batteries to my list", "a jigsaw for dad" and "my reading glasses to the list" (the second
    item of a list) do not."""
    from cairn.assistant.nlu.slots import strip_polite
    w = strip_polite(text).split()
    return bool(w) and w[0].lower() in _openers(POSSESSIVE_ITEMS)


def _two_requests(a: str, b: str, whole: str, b_text: str = "") -> bool:
    """Whether two parts are two requests: both ACTIONABLE, the second opening like a request
    (`opens_request`: not the second item of one list, "add bin bags and AA batteries to ..."),
    or both requests Cairn cannot do when the whole message reads as one it cannot do ("email
    Oren, and order the rail": two refusals) — so "remind me to email Kev and order lentils", a
    reminder as a whole, is not cut in two."""
    if a in ACTIONABLE and b in ACTIONABLE:
        return not b_text or opens_request(b_text)
    return _cannot(a) and _cannot(b) and a != b and _cannot(whole)


def _greeting_first(embedder, text: str, cache_dir=None) -> tuple[str, str] | None:
    """(greeting, rest) of a message opening with a greeting (GREETING_FIRST), else None; classifies
    the two parts only when the first clause is short enough to be one."""
    m = _FIRST_CLAUSE.match(text)
    if not m or len(m.group("g").split()) > GREETING_WORDS or len(m.group("rest").split()) < 3:
        return None
    g, rest = C.classify(embedder, [m.group("g"), m.group("rest")], cache_dir)
    if g.intent == "smalltalk" and rest.intent != "smalltalk" and (rest.intent != C.NONE or is_question(m.group("rest"))):
        return m.group("g"), m.group("rest")
    return None


def understand(embedder, text: str, st: S.ConversationState, cache_dir=None, df=None, people=None) -> Understanding:
    """The Understanding of one message of the person (module docstring). `df`: word -> how
    many note chunks hold it (the keyword index's document frequency), with which a misspelt
    word of a question is put right (search/misspelt.py); None: words are read as typed.
    `people`: () -> the display names of the people the home knows, read only when a word may be
    one's possessive typed without its apostrophe (known.possessives); None: none is."""
    said, fixed = normalise(text), []
    if BARE_POSSESSIVE and people is not None:
        said, fixed = possessives(said, people)
    greeted = _greeting_first(embedder, said, cache_dir) if GREETING_FIRST else None
    if greeted:
        said = greeted[1]
    resolved, how, subject = S.resolve(said, st)
    how[:0] = [f"a possessive: {f}" for f in fixed] + ([f"a greeting first: {greeted[0]!r} dropped"] if greeted else [])
    if MISSPELT and df is not None and is_question(resolved):
        fixed, done = corrected(resolved, df, ordinary_words())
        if done:  # "when does oona want the reciepts": the receipts a note holds
            how.append(f"misspelt: {', '.join(done)}")
            resolved = fixed
    if CODE_WORDS and is_question(resolved) and (coded := as_code_word(resolved)) != resolved:
        how.append(f"a code asked by another word: {resolved!r} -> {coded!r}")  # "the combo for the gate"
        resolved = coded
    if WHAT_NUMBER and is_question(resolved) and (which := as_which(resolved)) != resolved:
        how.append(f"which one asked by its number: {resolved!r} -> {which!r}")  # "what number locker is mine"
        resolved = which
    splits = _splits(resolved)
    texts = [resolved] + [s for pair in splits for s in pair]
    preds = C.classify(embedder, texts, cache_dir)
    whole = preds[0]
    u = Understanding(text, resolved, resolution=how, subject=subject)
    if subject is None and st.note and resolved != text.strip() and (
            re.match(r"^\s*and\s+", text, re.I) or any(h.startswith(S.VALUE_OF_NOTE) for h in how)):
        u.topic = st.note  # "and what day do I fly home?": maybe still the trip (checked against the note's words)
    for i, (a, b) in enumerate(splits):
        pa, pb = preds[1 + 2 * i], preds[2 + 2 * i]
        if _two_requests(pa.intent, pb.intent, whole.intent, b):
            u.actions = [Action(pa.intent, a, pa), Action(pb.intent, b, pb)]
            u.resolution.append(f"two requests: {a!r} ({pa.intent}) then {b!r} ({pb.intent})")
            return u
    for i, (a, b) in enumerate(splits):  # two questions: each answered, the second keeps the subject
        pa, pb = preds[1 + 2 * i], preds[2 + 2 * i]
        if (is_question(a) and is_question(b) and len(b.split()) >= 3
                and {pa.intent, pb.intent} <= KNOWLEDGE | {"none"} and whole.intent in KNOWLEDGE | {"none"}):
            u.actions = [Action(pa.intent if pa.intent != "none" else "ask", a, pa),
                         Action(pb.intent if pb.intent != "none" else "ask", b, pb)]
            u.resolution.append(f"two questions: {a!r} then {b!r}")
            return u
    if FORGET_MOOD and whole.intent == "remember" and _ASKS_TO_FORGET.match(resolved):
        u.actions = [Action("forget", resolved, whole)]  # "forget that my dentist is Dr Alves"
        u.resolution.append("an imperative 'forget …': a request to forget, never one to remember (read as remember)")
        return u
    if FORGET_MOOD and whole.intent == "forget" and _SAYS_FORGOT.match(resolved):
        whole = C.Prediction(C.NONE, whole.score, whole.best, whole.ranked)  # "I forgot my keys at work"
        u.resolution.append("'I forgot …' tells something: no request to forget (read as forget)")
    if whole.intent == "reminder_correct" and T.another_subject(resolved, S.last_reminder_task(st)):
        whole = C.Prediction("remember", whole.score, whole.best, whole.ranked)  # "Sam's football is on Fridays now"
        u.resolution.append("a statement of another subject than the reminder: a fact (read as reminder_correct)")
    if req := _answers_when(resolved, st):  # "tomorrow at 9" after "When should I remind you to call Ana?"
        u.actions = [Action("remind", req, whole)]
        u.resolution.append(f"the time the last turn asked for: {req!r}")
        return u
    if MEANT_AFTER_REMEMBER and (pair := meant_value(resolved, st)):
        # "sorry i meant the 15th" right after "remember … by the 12th": that statement's value, not a reminder's
        u.actions = [Action("memory_correct", f"{pair[0]} not {pair[1]}", whole)]
        u.resolution.append(f"the value just remembered, said anew: {pair[1]!r} -> {pair[0]!r} (read as {whole.intent})")
        return u
    if (CORRECTS_MEMORY and whole.intent in _CORRECTION_READINGS and not S.just_set_reminder(st)
            and (pair := correction(resolved))):
        # "sorry, the locker is 121 not 112": the remembered value changed (checked against the memories
        # when acted on: with none holding the old value the message is acted on as it was read)
        u.actions = [Action("memory_correct", resolved, whole)]
        u.resolution.append(f"a correction of a value: {pair[1]!r} -> {pair[0]!r} (read as {whole.intent})")
        return u
    if T.OTHER_REMINDER and whole.intent in ("reminder_correct", "reminder_snooze") and T.names_other_reminder(
            resolved, S.last_reminder_task(st)):
        # "snooze the charcoal one till friday" right after the insurance reminder: that one, not the last one set
        u.actions = [Action("reminder_snooze", resolved, whole)]
        u.resolution.append(f"a reminder named by its own words, not the last one set (read as {whole.intent})")
        return u
    if _corrects_reminder(resolved, whole, st):
        u.actions = [Action("reminder_correct", resolved, whole)]
        if whole.intent != "reminder_correct":
            u.resolution.append(f"a new day or time right after a reminder: a correction of it (read as {whole.intent})")
        return u
    if ASIDE_AND_REQUEST and (pair := _aside(resolved)):  # "by the way X, remind me to ...": X kept, and the reminder
        last = C.classify(embedder, [pair[1]], cache_dir)[0]
        # a statement, not a question nor a request of its own ("the plumber's number is …" reads as an ask)
        told = tells_a_fact(pair[0]) or not (is_question(pair[0]) or opens_request(pair[0]))
        if told and last.intent in ACTIONABLE - {"remember"} and last.score >= 0.5 and opens_request(pair[1]):
            u.actions = [Action("remember", pair[0], whole), Action(last.intent, pair[1], last, context=pair[0])]
            u.resolution.append(f"a fact said in passing, then a request: {pair[0]!r} (remember) then "
                                f"{pair[1]!r} ({last.intent})")
            return u
    back = _preface(resolved) if whole.intent not in ACTIONABLE and _POINTS_BACK.search(resolved) else None
    if back:  # "my dad is allergic to penicillin. can you hang on to that?": a statement, then "keep that"
        last = C.classify(embedder, [back[1]], cache_dir)[0]
        if last.intent == "remember" and last.score >= 0.5:
            u.actions = [Action("remember", resolved, last, context=back[0])]
            u.resolution.append(f"a statement and 'keep that': {back[0]!r} then {back[1]!r} (remember)")
            return u
    weak = whole.intent == C.NONE or whole.score < WEAK
    pre = _preface(resolved) if (weak or whole.intent in REFERRING) else None
    if pre:  # is its last clause a clear request, the rest its reason ("I've rung them, so cancel that")?
        first, last = C.classify(embedder, [pre[0], pre[1]], cache_dir)
        # a reason is no rival request: "done it already" / "got everything now" read as approvals
        # (0.79) outscore the request before them; only a second request, or a "no", competes
        rival = last.intent in ACTIONABLE or last.intent == "deny"
        if first.intent in ACTIONABLE and first.score >= 0.5 and (first.score > last.score or not rival) and (
                first.score > whole.score if weak else first.intent == whole.intent):
            # the request first, its reason after: "cancel the bread one, I already took it out"
            if SL.body_goes_on(first.intent, pre[0]):
                u.actions = [Action(first.intent, resolved, first)]
                u.resolution.append(f"a new note's text going on past a comma: {resolved!r} (read whole as {whole.intent})")
                return u
            u.actions = [Action(first.intent, pre[0], first, context=pre[1])]
            u.resolution.append(f"a request and its reason: {pre[0]!r} ({first.intent}) then {pre[1]!r}")
            return u
        if (last.intent in ACTIONABLE and last.score >= 0.5 and last.score > whole.score) if weak else (
                last.intent == whole.intent):
            u.actions = [Action(last.intent, pre[1], last, context=pre[0])]
            u.resolution.append(f"a preface and a request: {pre[0]!r} then {pre[1]!r} ({last.intent})")
            return u
    if REASON_AFTER and not pre and whole.intent in ACTIONABLE and (cut := _preface(resolved)):
        first, last = C.classify(embedder, [cut[0], cut[1]], cache_dir)
        if (first.intent in ACTIONABLE and first.intent != whole.intent and first.score > whole.score
                and last.intent not in ACTIONABLE and last.intent != "deny"):
            if SL.body_goes_on(first.intent, cut[0]):
                # "create a note titled Ferry times saying: the 9:15 from Ardmore, back at 17:40": the rest is text
                u.actions = [Action(first.intent, resolved, first)]
                u.resolution.append(f"a new note's text going on past a comma: {resolved!r} (read whole as {whole.intent})")
                return u
            u.actions = [Action(first.intent, cut[0], first, context=cut[1])]
            u.resolution.append(f"a request and its reason: {cut[0]!r} ({first.intent}, read whole as {whole.intent})")
            return u
    if (STATEMENT_THEN_QUESTION and weak and pre and is_question(pre[1]) and not is_question(pre[0])
            and S.has_pronoun(pre[1]) and (said_of := statement_subject(pre[0]))):
        # "the fig is dropping leaves again, what did I write about it": "it" is what the statement is about
        last = C.classify(embedder, [pre[1]], cache_dir)[0]
        u.actions = [Action(last.intent if last.intent in KNOWLEDGE else "ask", pre[1], last, context=pre[0])]
        u.subject = said_of
        u.resolution.append(f"a statement, then a question about it: {pre[0]!r} then {pre[1]!r} ('it' = {said_of!r})")
        return u
    if TOLD and whole.intent in _NO_STATEMENT or (TOLD and whole.intent.startswith("cannot_")):
        if tells_a_fact(resolved):  # "I live in Lisbon.": no request, no question: told to keep
            u.actions = [Action("remember", resolved, whole)]
            u.resolution.append(f"a statement about the person, told (read as {whole.intent})")
            return u
    u.actions = [Action(whole.intent, resolved, whole)]
    return u


# A statement, then a question whose pronoun points back at it ("the fig is dropping leaves again, what
# did I write about it?"): the question is asked, its pronoun standing for the statement's subject
# (the noun phrase the statement opens with), when the whole message reads weakly. Sentence form,
# not topic words. Switch off: STATEMENT_THEN_QUESTION.
STATEMENT_THEN_QUESTION = True
_STATEMENT_SUBJECT = re.compile(r"^\W*(?:(?:oh|so|well|ugh|hmm|right|ok|okay)\b[,\s]*)*(?:the|my|our|his|her|their|this|that)\s+"
                                r"(?P<s>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)\s*(?:'s\b|\s(?:is|are|was|were|has|have|had|"
                                r"keeps|kept|won't|wont|isn't|isnt|doesn't|doesnt|didn't|seems|looks|needs|started|stopped)\b)",
                                re.I)


def statement_subject(text: str) -> str | None:
    """The noun phrase a statement opens with, its determiner dropped ("the fig is dropping
    leaves again" -> "fig", "my bike chain keeps slipping" -> "bike chain"); None when the text
    opens otherwise or is a question."""
    if is_question(text):
        return None
    m = _STATEMENT_SUBJECT.match(text.strip())
    return m.group("s") if m else None


# "Forget …" said as an imperative asks to forget, whatever the classifier reads (it took "forget
# that my dentist is Dr Alves" for remember, 0.30: stored, the request became a memory); "I
# forgot …" / "I've forgotten …" tells what happened and asks nothing to be forgotten. Sentence
# mood again, as TOLD: the verb's form and its subject, not the topic. Switch off: FORGET_MOOD.
FORGET_MOOD = True
_ASKS_TO_FORGET = re.compile(r"^\s*(?:(?:please|pls|ok|okay|and|also|oh|actually|now)\b[,\s]*|(?:can|could|would|will)"
                             r"\s+you\s+)*(?:forget|unlearn|stop remembering)\s+(?!it\b|about it\b)\S", re.I)
_SAYS_FORGOT = re.compile(r"^\s*(?:(?:oh|so|well|damn|argh|ugh|sorry)\b[,!\s]*)*(?:i|we)(?:\s+|'ve\s+|\s+have\s+|'d\s+|\s+had\s+)"
                          r"(?:just\s+|totally\s+|completely\s+)?(?:forgot|forgotten)\b", re.I)

# A first-person statement ("I live in Lisbon.", "we got a puppy called Biscuit") is the person
# telling something about their life: a request to Cairn is an imperative, a question or a
# wish ("I'd like", "I need"), so an intent that needs one of those forms (a thing Cairn cannot
# do, a new note, a question) is no reading of it. Sentence mood, not topic words: the subject
# is the person, the verb after it no modal, wish or verb of thinking, and at least three words
# follow it ("I see", "I'm not sure" are replies, not facts).
TOLD = True
_NO_STATEMENT = frozenset({"note_create", "note_rename", "note_edit", "ask", "about", "search", C.NONE})
_TOLD = re.compile(r"^\s*(?:(?:oh|so|well|btw|fyi|ok|okay|right|also|and|just so you know|actually|anyway|update|"
                   r"news|guess what|by the way|for the record|just to let you know|in fact|as it happens)\b[,:!\s]*)*"
                   r"(?P<who>i'm|im|i've|ive|i'd|i|we're|we've|we|my|our)\b(?P<rest>[^?]*)$", re.I)
_NOT_TOLD = re.compile(r"^\s*(?:'d|'ll|would|will|want|wanna|need|needs|have to|has to|got to|gotta|must|should|"
                       r"can|could|might|may|wish|hope|like to|love to|"
                       r"forgot to|was wondering|think|thought|guess|suppose|know|see|mean|meant|believe|"
                       r"agree|disagree|don't|do not|didn't|not sure|just wanted)\b", re.I)


def tells_a_fact(text: str) -> bool:
    """Whether `text` is a first-person statement of fact (`TOLD`): no question, the person
    (I, we, my, our) its subject, no modal, wish or verb of thinking right after the subject,
    and at least three words after it."""
    m = _TOLD.match(text.strip())
    if not m or is_question(text):
        return False
    rest = m.group("rest")
    if m.group("who").lower() in ("i'd",) or _NOT_TOLD.match(rest):
        return False
    return len(re.findall(r"[\w'-]+", rest)) >= 3


CORRECTABLE = frozenset({"reminder_correct", "reminder_snooze", "forget", "none"})
_REMIND_WORDS = re.compile(r"\b(?:remind|nudge|ping|reminder)\b", re.I)


def _corrects_reminder(text: str, whole: C.Prediction, st: S.ConversationState) -> bool:
    """Whether `text` corrects the reminder the last turn set: read as such by the classifier,
    or (right after a reminder) a short message that says a day or time, asks for no new
    reminder and reads as nothing else that writes ("no, I meant Friday not Thursday" reads
    close to a forget), or that moves it by an amount ("make that two days later")."""
    from cairn.assistant.nlu import slots as SL
    if whole.intent == "reminder_correct":
        return True
    if not S.just_set_reminder(st) or len(text.split()) > 12 or _REMIND_WORDS.search(text) or is_question(text):
        return False
    day, clock = SL.correction(text)
    if T.another_subject(text, S.last_reminder_task(st)):  # "Mum is coming on Friday instead": a fact of her
        return False
    if T.says_shift(text):  # "make that 10000 days later" (a big number reads close to a remember)
        return True
    return (day is not None or clock is not None) and (whole.intent in CORRECTABLE or whole.score < WEAK)


_ANSWER_LEAD = re.compile(r"^(?:(?:no|nope|sorry|oh|ok|okay|actually|well|um|erm|er|so|then|how about|what about|"
                          r"let'?s say|say|make it|make that|i meant|i mean|maybe|perhaps)\b[\s,.!-]*)+", re.I)


def asked_when(st: S.ConversationState) -> str | None:
    """The task of a reminder the session's last reminder action asked the time of and did not
    set ("When should I remind you to call Ana?" -> "call Ana"); None when it set one."""
    last = next((a.get("slots") or {} for e in reversed(st.turns) for a in reversed(e.get("actions", []))
                 if a.get("intent") in S.REMINDER_INTENTS), {})
    return last.get("text") if last.get("text") and not last.keys() & {"reminder", "at", "every", "until"} else None


def _answers_when(text: str, st: S.ConversationState) -> str | None:
    """The whole reminder request a short message completes when the last turn asked when to
    remind ("tomorrow at 9", "no, Friday at quarter to eight" -> "remind me to call Ana
    tomorrow at 9"): only when the message is a time and nothing else. None otherwise."""
    from cairn.assistant.nlu import slots as SL
    just = st.turns and any(a.get("intent") in S.REMINDER_INTENTS for a in st.turns[-1].get("actions", []))
    ask = asked_when(st) if just else None
    t = _ANSWER_LEAD.sub("", text.strip()).strip(" .!?")
    if not ask or not t or len(t.split()) > 8:
        return None
    req = f"remind me to {ask} {t}"
    got = SL.reminder(req)
    return req if (got.keys() & {"at", "every"}) and got["text"].casefold() == ask.casefold() else None


# A correction of something remembered says the new value and the old one it replaces: "A, not B"
# ("the locker is 121 not 112"), "not B but A", "A instead of B", "A rather than B". It is read so
# when the whole message reads as nothing else that writes (a forget, a remember, a reminder
# correction with no reminder just set, or nothing), is short and asks nothing; the memory holding
# B is found when it is acted on (understood._do_memory_correct).
CORRECTS_MEMORY = True
# "ask" / "about" too: a correction is no question (correction() refuses one), so a question reading of
# it is the classifier's weak guess ("sorry, the locker is 121 not 112" read as ask, 0.21, once the ask
# class grew in session 22)
_CORRECTION_READINGS = frozenset({"forget", "remember", "reminder_correct", "none", "feelings", "smalltalk", "deny",
                                  "ask", "about"})
# A fact said in passing before a request ("by the way my neighbour is called Rosa, remind me on
# Friday to return her ladder") is two things: the fact to keep and the request. The aside is
# marked by its discourse marker ("by the way", "fyi", "just so you know", "oh and", "also"), so a
# preface that is the request's reason ("I've rung the garage, so drop that reminder") stays
# the request's context; the fact must read as one told (`tells_a_fact`, its marker taken off)
# or be a statement (no question, not opening like a request: "the plumber's number is …"), and
# the last clause a request that writes, opening like one.
ASIDE_AND_REQUEST = True
_ASIDE = re.compile(r"^\s*(?:oh\s*,?\s*)?(?:by the way|fyi|for your information|just so you know|for the record|"
                    r"oh and|and also|also)\b[\s,:-]*", re.I)


def _aside(text: str) -> tuple[str, str] | None:
    """(fact, request) of a message opening with an aside marker, cut at its last clause break
    (`_preface`); None otherwise. Whether the first tells a fact and the last is a request is
    the caller's reading."""
    m = _ASIDE.match(text)
    if not m:
        return None
    cut = _preface(text)
    if not cut:
        return None
    fact = cut[0][m.end():].strip(" ,;-")
    return (fact, cut[1]) if len(fact.split()) >= 3 else None


# Right after a statement was stored ("remember the subs are due by the 12th"), a short message giving a new
# value with a word of correcting ("sorry i meant the 15th", "no, make that Thursday", "oops it's 0141") says
# that statement's value anew: the one word of the statement written in the same form (`value_shape`: digits
# with the same suffix or sign, a weekday, a month) is the old value, and the message is the correction "15th
# not 12th" (acted on by understood._do_memory_correct) — not a correction of an older reminder (the classifier
# reads "i meant the 15th" as reminder_correct) nor a memory of its own. Switch off: MEANT_AFTER_REMEMBER.
MEANT_AFTER_REMEMBER = True
