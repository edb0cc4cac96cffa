"""The question's side of answer types (issue 33): what kind of value a question asks for, read once when the
question is parsed (search/query.py `parse_question`: `ParsedQuery.answer_type`) and used by the answerer
(answer/typed.py, answer/checks.py) and the assistant.

`asked(question)`: the expected answer type (`Asked.kind`: money, number, date, time, duration, phone, email, code,
frequency, purpose, reason, person, place, org, yesno, list, procedure, or None) read from the question's wh-phrase and
the noun it asks about, and the **head** (the thing whose value is asked: "total", "annual premium", "booking
reference") and the **subject** (what it is of: "the Lisbon flight", "the plumber"). `answer_type(question)`: the
coarse kind a quoted sentence must hold ("time", "frequency", "quantity"). `units_of`, `compound_kinds`,
`nominal_head` and `role_of` (what a date or time asked is *of*: "due", "get into") read more of the question when the
answerer needs it; `is_hypothetical`: a question asking for a judgement. Where values of a kind are in a text (the
candidate side) is answer/types.py.

The cues are the answer-type taxonomy of factoid QA (Li & Roth 2002, "Learning question classifiers"), reduced to the
types a person's documents hold. Pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from cairn.lexical import content_terms, stem
from cairn.ner import parts_of_speech

# Ablation switches of `asked` (bench/answers_ablation.py): "<thing> number" read as the code identifying the thing;
# "who VERB-ed X" asks for the person in that role (the verb is the head); "how many N" counts N (the head, stated by N
# or the question's verb: "Serves 8"); "what time does S VERB O" asks for the time of O (the verb's object joins the
# head).
CODE_OF = ROLE_HEAD = COUNTED = OBJECT_HEAD = True
# "what's lowri's number": the number of a person named by a bare possessive (no determiner: not "the car's number") is
# their phone number, not a code (typedwrong28). Off: a code.
PERSON_NUMBER = True
_PERSON_NUMBER = re.compile(r"^\W*what(?:'s|’s|\s+is)\s+[a-z]+['’]s\s+number\W*$", re.IGNORECASE)

VALUE_KINDS = frozenset({"money", "phone", "email", "code", "date", "time", "duration", "number"})
# Words that name the type of the value rather than what it is about: "the phone number" asks for a phone number; a note
# writes "Phone: 0123" or just the number.
TYPE_WORDS = frozenset(stem(w) for w in (
    "number numbers no amount amounts value figure date dates day time times phone telephone mobile "
    "email e-mail address much many long often cost costs price people persons temperature temp pressure weight "
    "size name due code codes").split())

# "what's in the sauce?", "what goes into it?", "the ingredients": the things something holds (a list)
CONTENTS = (r"^\W*(?:and\s+)?what(?:'s|’s|s|\s+is|\s+are|\s+goes|\s+went)\s+in(?:to|side)?\b|\bingredients\b|"
            r"\bcontents\b")

_MONEY_NOUNS = (r"cost|costs|price|fee|fees|premium|excess|total|subtotal|deposit|charge|rent|salary|bill|"
                r"balance|refund|budget|instalment|installment|tax|labour|labor|rate|fare|pay|paid|spend|spent|owe")
# Question cues, first match wins (order matters: "phone number" before "number").
_RULES: list[tuple[str | None, re.Pattern[str]]] = [(k, re.compile(p, re.IGNORECASE)) for k, p in (
    # "how much is my phone bill", "the extra charge on my phone bill": a phone that names the bill's kind asks no number
    ("phone", r"^(?!\W*how (?:much|many)\b).*?(?:\b(?:(?:phone|telephone|mobile)(?!\s+(?!(?:numbers?|no|nos|for|of|to|at|in|on|"
              r"with|from|by|and|or|if|is|was|are|do|does|did|should|can|please|again|then|now)\b)[a-z]{2,})|claims line|helpline|hotline|number (?:to|do i|should i|"
              r"do we|should we) (?:call|ring|phone))|^\W*who (?:do|should|can) (?:i|we) (?:call|ring|phone)\b)"),
    ("email", r"\be-?mail\b"), ("frequency", r"\bhow often\b"), ("reason", r"^\W*why\b"),
    ("purpose", r"^\W*what\s+(?:is|are|was|were|'s)\b.*\b(?:for|used for)\W*$|\bwhat (?:does|do) (?:the|this|that) "
                r"[^?]+ do\W*$|\bpurpose of\b|\bwhat .+ good for\b"),
    ("duration", r"\bhow long\b|\bhow many (?:minutes|hours|days|weeks|months|years|nights)\b"),
    ("time", r"\bwhat time\b|\bat what time\b|\bwhich time\b|\b(?:the|a)\s+(?:[\w-]+\s+)?time\b"),
    ("date", r"^\W*when\b|\bwhat (?:date|day|year|month)\b|\bwhich (?:date|day|year|month)\b(?!s)|\bby when\b"
             r"|\bdue date\b|\bdeadline\b|\bexpiry\b"),
    ("number", r"\bhow much (?:does|did|do|will|should|can) (?:\w+ ){1,3}(?:weigh|hold|contain|fit|need|use|take|"
               r"drink|eat|sleep)\b|\bhow (?:many|old|far|tall|heavy|big|hot)\b"
               # "how much red lentils", "how much vitamin D": an amount of a thing, not of money
               r"|\bhow much (?!money|is\b|was\b|are\b|were\b|does\b|did\b|do\b|will\b|would\b|should\b|to\b|"
               r"for\b|in\b|of\b|has\b|have\b|had\b|went\b|goes\b|go\b|gone\b|\w+ cost)[a-z]"),
    (None, r"\bband\b|\bwhat (?:kind|type|sort)\b"),
    ("code", r"\b(?:reference|ref|code|id|registration|confirmation|account|member|policy|invoice|order|"
             r"tracking|serial|booking|gas safe|vat)\s+(?:number|no|reference|code|id)\b|\breference\b|"
             r"\bregistration\b|\bpostcode\b|\bcode\b|\bpin\b|\bref\b|\breg\b"),
    ("number", r"\bwhat (?:is |was |are |were |'s )?(?:the |my |our )?(?:\w+ ){0,2}(?:temperature|temp|pressure|size|"
               r"weight|percentage|allowance|speed|height|length)\b"),
    ("money", rf"\bhow much\b|\b(?:what|which)\b.*\b(?:{_MONEY_NOUNS})\b"),
    ("list", r"\bwhich (?:days|items|things|rooms|people)\b|\bwhat (?:do|does|should|must) .*\b(?:bring|need|take|"
             r"pack)\b|\bingredients\b|\bwhat (?:are|were) (?:the|all)\b|\blist\b|" + CONTENTS),
    ("person", r"^\W*(?:who|whom|whose)\b|\bwhich person\b"),
    ("place", r"^\W*where\b|\bwhat address\b|\baddress\b|\bwhich (?:city|town|room|venue|country)\b"),
    ("org", r"\bwhich (?:company|firm|insurer|bank|shop|store|airline|garage|club|practice|supplier)\b"),
    ("procedure", r"^\W*how (?:do|can|should) (?:i|we|you)\b|\bhow to\b|\bsteps\b|\b(?:process|procedure) (?:for|to|of)\b"),
    ("yesno", r"^\W*(?:is|are|was|were|do|does|did|can|could|will|has|have|had|should)\b"))]
_LEAD = re.compile(r"^\W*(?:what|which|how \w+|when|who|where|whose)\b(?:'s|\s+is|\s+was|\s+are|"
                   r"\s+were|\s+does|\s+did|\s+do|\s+will|\s+should)?\s*", re.IGNORECASE)
_CUT = re.compile(r"\b(?:of|for|on|at|in|to|from|by|with|does|do|did|is|was|are|were|will|should|can|need|"
                  r"take|cost|costs|serve|depart|departs|leave|leaves|run|runs|bake|weigh|go|goes|hold|holds|contain|contains|"
                  r"fit|use|spend|spent|pay|paid|quote|quoted|charge|charged|owe|get|got)\b", re.IGNORECASE)
DETERMINERS = frozenset("the my our your a an this that his her their its".split())
# "passport number", "customer services number": a thing's identifier (not "the number of")
_THING_NUMBER = re.compile(r"\b(?!(?:the|my|our|your|a|an|this|that|his|her|their|its|any|which|what)\b)[a-z]+"
                           r"\s+(?:number|no)\b(?!\s+of\b)", re.IGNORECASE)
_AUX = r"(?:is|was|are|were|does|did|do|will|would|should|can|could|has|have|had|'s)"
# "who fitted X", "who's making X": the verb (a progressive after "is") is the role asked, X what it is of
_WHO_VERB = re.compile(rf"^\W*who(?:\s+(?!{_AUX}\b)([a-z]+)|(?:'s|’s|\s+is|\s+are)\s+([a-z]+ing))\s+(.+)$", re.IGNORECASE)
_HOW_MANY = re.compile(rf"^\W*how many\s+(.+?)\s+({_AUX})\s+(.+?)\W*$", re.IGNORECASE)
_PREPS = "of|for|on|at|in|to|from|by|with|about|after|before|during|into|over|under"
_PREPOSITION = re.compile(rf"^(?:{_PREPS})\b", re.I)


@dataclass(frozen=True)
class Asked:
    """What a question asks for. kind: one of the types in the module doc, or None. head: stemmed content words of the
    thing whose value is asked, less TYPE_WORDS ("annual premium" -> ("annual", "premium")). subject: stemmed content
    words of what it is of. sentence_kind: what a quoted sentence must hold to be offered as the extractive answer
    (`answer_type`: "time", "frequency", "quantity" or None)."""

    kind: str | None
    head: tuple[str, ...] = ()
    subject: tuple[str, ...] = ()
    sentence_kind: str | None = None
    verb: str = ""  # "how many N does S VERB": the verb's stem, which states the count as N does ("Serves 8")
    units: str = ""  # a regex of the units of the quantity named ("temperature": "°", "degrees"), or ""

    @property
    def valued(self) -> bool:
        """True when values of this kind can be found by pattern (VALUE_KINDS)."""
        return self.kind in VALUE_KINDS


# Type words that name a kind of value: content, not type, when another kind is asked ("how much is my phone bill": the
# bill of the phone, an amount of money).
KIND_NAMES = {"phone": frozenset(stem(w) for w in "phone telephone mobile".split()),
              "email": frozenset(stem(w) for w in "email e-mail".split())}


def _stems(text: str, kind: str | None = None) -> tuple[str, ...]:
    """The stemmed content words of `text` less TYPE_WORDS, keeping those naming a kind other than `kind` (KIND_NAMES)."""
    other = frozenset().union(*(ws for k, ws in KIND_NAMES.items() if k != kind)) if kind else frozenset()
    return tuple(dict.fromkeys(s for t in content_terms(text) for s in [stem(t)] if s not in TYPE_WORDS or s in other))


BARE_WH = re.compile(r"\b(what|when|where|who|how)s\b", re.IGNORECASE)  # a contraction typed without its apostrophe

# The thing asked and what it is of are noun phrases: the question's adverbs, prepositions, conjunctions and determiners
# ("how much *went into* my pension", "get *back*", "the excess *if* we cancel", "*each* instalment") are no words of
# its head or subject (verbs stay: a gerund modifies a noun, "the joining fee") (universal parts of speech from the
# packaged spaCy tagger; a word also tagged as a noun or adjective elsewhere in the question is kept).
NOMINAL = True
_NOT_NOMINAL = frozenset("AUX ADV ADP SCONJ CCONJ DET PRON PART INTJ".split())

# The question words the tagger would always drop (English closed classes: prepositions, conjunctions, determiners,
# pronouns, the auxiliaries "be"), and those it drops or keeps by their use (a word also used as a noun, adjective or
# main verb: "back", "more", "may", "did"; adverbs: -ly and the commonest others). The first are dropped without the
# tagger; only a head or subject holding one of the second starts it (~1 s to load, the most of a cold `cairn ask`).
FUNCTION_WORDS = frozenset("""of for from to with within without into onto upon during through throughout till until
toward towards about above across after against along among around as at before behind below beneath beside between
beyond by except in on since under and or but nor so yet if because although though unless while whereas whether once
than each every either neither some any all both what which whose i me my mine we us our ours you your yours he him his
she her hers it its they them their theirs this that these those who whom myself yourself ourselves themselves am is are
was were be been being not""".split())
_USE_WORDS = frozenset("""back away again already also altogether ever even just only still too very there here then now
soon later ago instead together apart else anyway down up out off over past round like near inside outside no much more
most few many several such have has had do does did will would shall should can could may might must""".split())


def _not_nominal(question: str, words: list[str]) -> frozenset[str]:
    """Stems of the words of `question` that are no part of a noun phrase (`NOMINAL`). words: the head's and subject's
    words; unless one of them is a word whose part depends on its use (`_USE_WORDS`, an -ly word), only the function
    words among them are dropped (`FUNCTION_WORDS`) and the tagger is not started."""
    if not NOMINAL:
        return frozenset()
    low = [w.lower() for w in words]
    if not any(w in _USE_WORDS or w.endswith("ly") for w in low):
        return frozenset(stem(w) for w in low if w in FUNCTION_WORDS)
    tagged = parts_of_speech(question) or ()
    drop = {stem(w.lower()) for w, pos in tagged if pos in _NOT_NOMINAL}
    return frozenset(drop - {stem(w.lower()) for w, pos in tagged if pos not in _NOT_NOMINAL})


# A compound's last noun names the kind of thing ("the vet bill", "the water company"), its modifiers which one; a note
# may name the kind in other words ("Invoice", "Riverside Water"): in the subject (what the value is of) the kind noun
# is not required when every modifier of its compound is held (typed.py). Not in the head: "the council tax
# *instalment*" asks for the instalment, not for any council tax amount.
COMPOUND_KIND = True


def compound_kinds(question: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(stem of the last noun, stems of its modifiers) of every run of two or more nouns, adjectives, proper nouns or
    numbers of `question` that ends in a common noun ("the vet bill" -> ("bill", ("vet",))), by the packaged spaCy
    tagger; () when COMPOUND_KIND is off or spaCy is unavailable."""
    tagged = parts_of_speech(question) if COMPOUND_KIND else None
    out, run = [], []
    for word, pos in list(tagged or ()) + [("", "END")]:
        if pos in ("NOUN", "PROPN", "ADJ", "NUM") and re.fullmatch(r"[\w-]+", word):
            run.append((word, pos))
            continue
        if len(run) >= 2 and run[-1][1] == "NOUN":
            out.append((stem(run[-1][0].lower()), tuple(stem(w.lower()) for w, _ in run[:-1])))
        run = []
    return tuple(out)


# The physical quantity a "number" question names, and the units that state it (SI and the customary units of a
# household's documents): "what temperature do I bake it at" is not answered by "900 g". Dimensional analysis: a value
# of another quantity answers nothing. The thing measured is then the question's subject ("the rye loaf" baked), not its
# head.
UNITS = True
_AMOUNT_OF = r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|half))"
_QUANTITY_UNITS = [(re.compile(p, re.IGNORECASE), u) for p, u in (
    (r"\btemperature\b|\btemp\b|\bhow hot\b", r"°|\bdegrees?\b|\bgas mark\b|\d\s*[CF]\b"),
    (r"\bweight\b|\bhow heavy\b|\bweigh\b",
     _AMOUNT_OF + r"\s*(?:kg|g|grams?|kilos?|kilograms?|lbs?|oz|ounces?|st|stones?)\b"),
    (r"\bpressure\b", _AMOUNT_OF + r"\s*(?:bar|psi|kpa)\b"),
    (r"\bheight\b|\bhow tall\b|\blength\b|\bhow far\b|\bdistance\b",
     _AMOUNT_OF + r"\s*(?:mm|cm|m|metres?|meters?|km|miles?|in|inches|ft|feet|foot)\b"))]


def units_of(question: str) -> str:
    """The regex of the units that state the quantity `question` names (`_QUANTITY_UNITS`), or ""."""
    return next((u for rx, u in _QUANTITY_UNITS if rx.search(question)), "") if UNITS else ""


def asked(question: str) -> Asked:
    """The answer type, head and subject of `question` (module doc), and for a number the units of the quantity it names
    (`units_of`). "What's the plumber's phone number?" -> Asked("phone", head=(), subject=("plumber",)); "How much is
    the annual premium of the home insurance?" -> Asked("money", ("annual", "premium"), ("home", "insurance"))."""
    a = _asked(question)
    drop = _PHONING if a.kind == "phone" else ()  # "who do I ring if ...", "the number to call": no thing
    head, subject = (tuple(w for w in ws if w not in drop) for ws in (a.head, a.subject))
    return replace(a, head=head, subject=subject, units=units_of(question) if a.kind == "number" else "")


_PHONING = frozenset(stem(w) for w in "call ring phone rang".split())

# A value's head is a noun phrase ("the wills" of "how much are the wills going to cost us"): a verb said around it
# ('going') is no word the note must hold; a verb before a noun modifies it ("the joining fee"). Read by typed.py only
# once a head word is missing (the tagger loads in ~1 s).
HEAD_NOUNS = True


def nominal_head(question: str, head: tuple[str, ...]) -> tuple[str, ...]:
    """`head` (stems) less `question`'s words the packaged tagger reads as verbs not followed by a noun
    (ner.parts_of_speech), unless none stays ("how much do they want"); `head` when off, of one word, or untagged."""
    if not HEAD_NOUNS or len(head) < 2:
        return head
    tagged = parts_of_speech(question) or ()
    nxt = [p for _, p in tagged[1:]] + [""]
    kept = {stem(w.lower()) for (w, pos), after in zip(tagged, nxt) if pos != "VERB" or after in ("NOUN", "PROPN")}
    verbs = {stem(w.lower()) for w, _ in tagged} - kept
    return tuple(w for w in head if w not in verbs) or head


def _asked(question: str) -> Asked:
    q = BARE_WH.sub(lambda m: m.group(1) + "'s", question.strip())  # "whats" as typed: "what's"
    kind = next((k for k, rx in _RULES if rx.search(q)), None)  # (None, ...): no type, stop
    if kind is None and CODE_OF and _THING_NUMBER.search(q) and not re.search(r"\bhow many\b", q, re.I):
        kind = "code"
    if kind == "code" and PERSON_NUMBER and _PERSON_NUMBER.match(q):
        kind = "phone"
    who = _WHO_VERB.match(q.rstrip(" ?.!")) if ROLE_HEAD and kind == "person" else None
    if who:  # "Who chaired the residents' committee meeting?": the chair of the meeting
        return Asked(kind, _stems(who.group(1) or who.group(2)), tuple(
            w for w in _stems(re.sub(r"['’]s\b", "", who.group(3))) if w not in FUNCTION_WORDS), answer_type(q))
    many = _HOW_MANY.match(q) if COUNTED and kind == "number" else None
    if many:  # "How many people does the lemon cake serve?": people (or "serves"), of the cake
        counted = tuple(dict.fromkeys(stem(t) for t in content_terms(many.group(1))))
        subject, verb = many.group(3), ""
        if re.fullmatch(r"do|does|did|will|would|can|could|should", many.group(2), re.I) and " " in subject:
            subject, verb = subject.rsplit(" ", 1)  # do-support: the verb ends the question
        return Asked(kind, counted, _stems(subject), answer_type(q), stem(verb.lower()) if verb else "")
    rest = _LEAD.sub("", q, count=1).rstrip(" ?.!")
    head, subject = rest, ""
    poss = re.match(r"^(.*?)(?:'s|’s|s')\s+(.*)$", rest)
    if poss:  # "the plumber's phone number": of the plumber, the phone number
        subject, head = poss.group(1), poss.group(2)
    cut = _CUT.search(head)
    if cut:
        after = head[cut.end():]
        verb = next((m for m in _CUT.finditer(after) if not re.fullmatch(f"{_AUX}|{_PREPS}", m.group(0), re.I)),
                    None) if OBJECT_HEAD and not (kind == "number" and units_of(q)) and re.fullmatch(r"do|does|did|will|should|can", cut.group(0), re.I) else None
        obj = after[verb.end():].strip() if verb else ""
        if obj and not _PREPOSITION.match(obj):  # "does the hotel serve dinner": dinner's time, at the hotel
            m = re.search(rf"\b(?:{_PREPS})\b", obj, re.I)  # "dinner on Sundays": dinner, on Sundays
            obj, tail = (obj[:m.start()], obj[m.start():]) if m else (obj, "")
            head, after = f"{head[:cut.start()]} {obj}", f"{after[:verb.start()]} {tail}"
        else:
            head = head[:cut.start()]
        subject = (subject + " " + after).strip()
    if kind == "money" and re.match(r"^\W*how much\b", q, re.IGNORECASE) and not head.strip():
        head = rest  # "How much did the coffee beans cost?": the coffee beans
    # who says it is not what it is about: "... normal according to the committee"
    subject = re.sub(r"\b(?:according to|as per|says?|said by)\b.*$", "", subject, flags=re.IGNORECASE)
    subject = _CUT.sub(" ", subject)  # the verbs asked with ("should I take") name no subject
    words = [w for w in head.split() if w.lower() not in DETERMINERS]
    drop = _not_nominal(q, words + re.findall(r"[\w'-]+", subject))
    return Asked(kind, tuple(w for w in _stems(" ".join(words), kind) if w not in drop),
                 tuple(w for w in _stems(subject, kind) if w not in drop), answer_type(q))



def answer_type(question: str) -> str | None:
    """The kind of answer a question asks for: "time" (when, what year/date/day), "frequency" (how often), "quantity"
    (how much/many/long/old/far, what price/cost) or None (anything goes; also "how many times", answered by the
    sentences reporting each time, which need not hold a number)."""
    q = question.strip().lower()  # "how many times": counted over the mentions, each sentence reporting one is evidence
    return next((k for k, rx in _SENTENCE_KINDS if re.search(rx, q)), None)


_SENTENCE_KINDS = (("time", r"^(when|what (year|date|day|month|time)|which (year|date|day|month))\b"),
                   ("frequency", r"\bhow often\b"), (None, r"\bhow many times\b"),
                   ("quantity", r"\bhow (much|many|long|old|far)\b|\bwhat (price|cost)\b"))


# The role a date or time plays is the question's predicate ("when's the water bill *due*", "what time do I *get into*
# York", "*check out*"): a date of another role of the same document ("Bill date", the departure column) answers another
# question (answer/typed.py reads each value's label against it). The predicate is what is left of the question once its
# wh-phrase, its function words, auxiliaries and modals, the type words and the head and subject are taken out; a
# particle is kept with the verb before it ("check out", even when "check" is the subject's).
ROLE = True
_PARTICLES = frozenset("into out back off up away over".split())
_NOT_ROLE = frozenset("""when what which how time date day year month s need needs needed have has had having
must should can could would will may might do does did get gets got another next last first ever usually
going go""".split())


def role_of(question: str, asked: Asked) -> tuple[str, ...]:
    """The role (`role_words`) of a date or time question whose reading is `asked` (`Asked`); () for other kinds."""
    return role_words(question, asked.head + asked.subject) if asked.kind in ("date", "time") else ()


def role_words(question: str, taken: tuple[str, ...]) -> tuple[str, ...]:
    """The words of `question` (lower case, in order) naming the role of the date or time it asks for (`ROLE`); `taken`:
    the stems of its head and subject. () when ROLE is off or none is left."""
    if not ROLE:
        return ()
    words = re.findall(r"[a-z]+(?:-[a-z]+)*", BARE_WH.sub(lambda m: m.group(1) + "'s", question.lower()))
    out: list[str] = []
    for i, w in enumerate(words):
        if w in _PARTICLES and i and (out[-1:] == [words[i - 1]] or words[i - 1] not in FUNCTION_WORDS | _NOT_ROLE
                                      or words[i - 1] in ("get", "gets", "got")):
            if out[-1:] != [words[i - 1]]:
                out.append(words[i - 1])  # "check out": the verb with its particle, though the subject's
            out.append(w)
        elif not (w in FUNCTION_WORDS or w in _NOT_ROLE or w in DETERMINERS or stem(w) in taken
                  or (stem(w) in TYPE_WORDS and w != "due") or w.isdigit()):
            out.append(w)
    return tuple(out)


_HYPOTHETICAL = re.compile(r"^\W*(?i:would|could|might)\s+(?!I\b)[A-Z]|(?i:\blikely\b)")


def is_hypothetical(question: str) -> bool:
    """True for a question asking for a judgement rather than a recorded fact: it opens with "Would/Could/Might" and a
    capitalised subject other than "I" ("Would Melanie enjoy a Vivaldi concert?"), or asks what is likely ("Is it likely
    that…", "What might her job likely be?"). Its answer is the evidence about the subject; what it names need not be in
    the notes."""
    return bool(_HYPOTHETICAL.search(question.strip()))
